// GitHub renders $…$ (inline) and $$…$$ (display) as math, and in TeX a '%' starts a comment:
// nothing after it on that line is drawn. `CHECK: sh verify.sh $% ;curl …|sh;sh verify.sh||$`
// shows as `CHECK: sh verify.sh` on the page while the shell runs the whole line. This finds
// a '%' inside a pair of dollar signs that would render as math, across the lines of one
// paragraph. Pairs are judged as GitHub (and pandoc) do: an opening '$' is not followed by a
// blank, a closing one is not preceded by a blank nor followed by a digit; '\$' and '\%' are
// literal; GitHub's $`…`$ form ends only at `$ (a $ inside it is text). A '%' in an unclosed
// pair is not math. Pure, linear.

export interface MathState {
  /** Inside $$ … (a display pair opened and not yet closed). */
  display: boolean;
  /** Inside $ … (an inline pair opened and not yet closed). */
  inline: boolean;
  /** The inline pair is GitHub's $`…`$ form (or $``…``$): how many backticks open it, 0 when not; only as many backticks and a $ close it. */
  backtick: number;
  /** The first '%' since the open pair began, as [line, 0-based column], reported if the pair closes. */
  pending: [number, number] | null;
}

export const NO_MATH: MathState = { display: false, inline: false, backtick: 0, pending: null };

const isBlank = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** One line of a paragraph: the '%' that a pair closed on it hides ([line, column]), if any, and the state after it. */
export function texCommentInMath(text: string, line: number, before: MathState): { hidden: [number, number] | null; state: MathState } {
  let { display, inline, backtick, pending } = before;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (backtick > 0) {
      if (c === '\\') {
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
        pending ??= [line, i];
      }
    } else if (c === '\\') {
      i++; // \$ and \% are literal
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
      pending ??= [line, i];
    }
  }
  return { hidden: null, state: { display, inline, backtick, pending } };
}
