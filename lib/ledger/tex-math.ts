// GitHub renders $…$ (inline) and $$…$$ (display) as math. In TeX a '%' starts a comment:
// nothing after it on that line is drawn. `CHECK: sh verify.sh $% ;curl …|sh;sh verify.sh||$`
// shows as `CHECK: sh verify.sh` on the page while the shell runs the whole line. And a TeX
// command can move, hide or replace text: `$\Rule{-300em}{0em}{0em};touch PWNED;…$` draws the
// command 300 em off the page (round-39y Y1), and a list of the commands that do so is never
// complete. So this finds a '%' or any backslash command (other than the literal \$ and \%)
// inside a pair of dollar signs that would render as math, across the lines of one
// paragraph. Pairs are judged as GitHub (and pandoc) do: an opening '$' is not followed by a
// blank, a closing one is not preceded by a blank nor followed by a digit; '\$' and '\%' are
// literal; GitHub's $`…`$ form ends only at `$ (a $ inside it is text). What is inside an
// unclosed pair is not math. Pure, linear.

export interface MathState {
  /** Inside $$ … (a display pair opened and not yet closed). */
  display: boolean;
  /** Inside $ … (an inline pair opened and not yet closed). */
  inline: boolean;
  /** The inline pair is GitHub's $`…`$ form (or $``…``$): how many backticks open it, 0 when not; only as many backticks and a $ close it. */
  backtick: number;
  /** The first '%' or TeX command since the open pair began, reported if the pair closes. */
  pending: MathHiding | null;
}

/** What inside a pair of dollar signs can hide text on the page: where, and what it is. */
export interface MathHiding {
  line: number;
  /** 0-based column. */
  column: number;
  /** `"%"`, or the TeX command as written (`\Rule`, `\!`). */
  what: string;
}

export const NO_MATH: MathState = { display: false, inline: false, backtick: 0, pending: null };

const isBlank = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The TeX command that starts with the backslash at `i`: a run of letters, or one other character. */
function commandAt(text: string, i: number): string {
  let end = i + 1;
  while (end < text.length && /[A-Za-z]/.test(text[end]!)) end++;
  return text.slice(i, Math.max(end, Math.min(i + 2, text.length)));
}

/** One line of a paragraph: what a pair closed on it hides, if anything, and the state after it. */
export function texCommentInMath(text: string, line: number, before: MathState): { hidden: MathHiding | null; state: MathState } {
  let { display, inline, backtick, pending } = before;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (backtick > 0) {
      if (c === '\\') {
        // A literal \$, \% or \` is no command; anything else after a backslash is one.
        if (text[i + 1] !== '$' && text[i + 1] !== '%' && text[i + 1] !== '`') pending ??= { line, column: i, what: commandAt(text, i) };
        i++;
      } else if (c === '`') {
        let run = 1;
        while (text[i + run] === '`') run++;
        if (run === backtick && text[i + run] === '$') {
          if (pending !== null) return { hidden: pending, state: NO_MATH };
          inline = false;
          backtick = 0;
          i += run; // the closing $ too
        } else {
          i += run - 1; // a run of another length is text inside the pair
        }
      } else if (c === '%') {
        pending ??= { line, column: i, what: '"%"' };
      }
    } else if (c === '\\') {
      // \$ and \% are literal; inside a pair, any other backslash starts a TeX command.
      if ((inline || display) && text[i + 1] !== '$' && text[i + 1] !== '%') pending ??= { line, column: i, what: commandAt(text, i) };
      i++;
    } else if (c === '$' && text[i + 1] === '$') {
      if (display && pending !== null) return { hidden: pending, state: NO_MATH };
      display = !display;
      inline = false;
      backtick = 0;
      pending = null;
      i++;
    } else if (c === '$' && !display) {
      if (!inline) {
        if (!isBlank(text[i + 1])) {
          inline = true;
          let run = 0;
          while (text[i + 1 + run] === '`') run++;
          backtick = run;
          i += run;
          pending = null;
        }
      } else if (!isBlank(text[i - 1]) && !isDigit(text[i + 1])) {
        if (pending !== null) return { hidden: pending, state: NO_MATH };
        inline = false;
      }
    } else if (c === '%' && (inline || display)) {
      pending ??= { line, column: i, what: '"%"' };
    }
  }
  return { hidden: null, state: { display, inline, backtick, pending } };
}
