// GitHub renders $…$ (inline) and $$…$$ (display) as math, with MathJax. In TeX a '%' starts a
// comment: nothing after it on that line is drawn. `CHECK: sh verify.sh $% ;curl …|sh;sh verify.sh||$`
// shows as `CHECK: sh verify.sh` on the page while the shell runs the whole line. And a TeX
// command can move, hide or replace text: `$\Rule{-300em}{0em}{0em};touch PWNED;…$` draws it
// 300 em off the page (round-39y Y1), and a hand-made list of the commands that do so was
// never complete. So this finds a '%', or a command that MathJax defines (any of its
// packages: tex-macros-table.ts, generated from MathJax itself), inside a pair of dollar
// signs that would render as math, across the lines of one paragraph. A command MathJax
// does not know is drawn as its own name (a regex's `\d`, a printf's `\nexit` in
// 'x\nexit-code'), and the ones that stand for a character (`\$`, `\{`) as that character:
// both are left alone. Pairs are judged as GitHub (and pandoc) do: an opening '$' is not
// followed by a blank, a closing one is not preceded by a blank nor followed by a digit;
// GitHub's $`…`$ form ends only at `$ (a $ inside it is text). What is inside an unclosed
// pair is not math. Pure, linear.
import { TEX_MACROS } from './tex-macros-table.js';

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

const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));

/** The TeX command that starts with the backslash at `i` when MathJax defines it (it can move, hide or replace text); else null. */
function commandAt(text: string, i: number): string | null {
  const next = text[i + 1];
  if (next === undefined) return null;
  let end = i + 2;
  if (isLetter(next)) while (isLetter(text[end])) end++;
  const name = text.slice(i + 1, end);
  return TEX_MACROS.has(name) ? `\\${name}` : null;
}

/** One line of a paragraph: what a pair closed on it hides, if anything, and the state after it. */
export function texCommentInMath(text: string, line: number, before: MathState): { hidden: MathHiding | null; state: MathState } {
  let { display, inline, backtick, pending } = before;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (backtick > 0) {
      if (c === '\\') {
        const command = commandAt(text, i);
        if (command !== null) pending ??= { line, column: i, what: command };
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
      // \$ and \% are literal; inside a pair, a backslash may start a TeX command.
      const command = inline || display ? commandAt(text, i) : null;
      if (command !== null) pending ??= { line, column: i, what: command };
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
