// GitHub renders $…$ (inline) and $$…$$ (display) as math, with MathJax. What is inside such a
// pair can show something else than the text gate-check runs, three ways:
// - In TeX a '%' starts a comment: nothing after it on that line is drawn
//   (`CHECK: sh verify.sh $% ;curl …|sh;sh verify.sh||$` shows only `sh verify.sh`).
// - A TeX command can move, hide or replace text (`$\Rule{-300em}{0em}{0em};touch PWNED;…$`
//   draws it 300 em off the page, round-39y Y1). Every command MathJax defines is refused
//   (tex-macros-table.ts, generated from MathJax itself); one it does not know is drawn as its
//   own name (a regex's `\d`, a printf's `\nexit`), and `\$`, `\{` as their character.
// - TeX syntax used wrongly makes MathJax draw an error message in place of the whole formula
//   (round-39z Z1: `$};touch PWNED;sh verify.sh b$` showed only the box). So this follows
//   MathJax's own rules for what it cannot parse: a '#' or '&' (no macro or alignment can be
//   open without a command); a '}' that closes nothing or a '{' left open; a '^' or '_' with
//   no argument (the formula ends, or a '}', '^', '_', prime, '&', '#' or '%' follows); a
//   second superscript or subscript on one base (`x^a^b`, `x_a_b`, `x'_a'`: a prime is a
//   superscript once a subscript follows it); a prime after a superscript (`x^a'`).
//   Balanced braces and single scripts, as in the shell's `"${HOME}"` or `$GITHUB_STEP_SUMMARY`,
//   render (as math, but every character is drawn) and are left alone. test/ledger/tex-math.test.ts
//   checks this against MathJax on generated formulas.
// Pairs are judged as GitHub (and pandoc) do: an opening '$' is not followed by a blank, a
// closing one is not preceded by a blank nor followed by a digit; GitHub's $`…`$ form ends only
// at `$ (a $ inside it is text). What is inside an unclosed pair is not math. Pure, linear.
import { TEX_MACROS } from './tex-macros-table.js';

/** What is known of the base that scripts attach to, in one brace group of a formula. */
interface Base {
  sup: boolean;
  sub: boolean;
  /** Primes are pending on the base: a subscript after them makes them its superscript. */
  prime: boolean;
  /** This group is the argument of a '^' or '_' (its close ends the argument). */
  argument: boolean;
  /** Where its '{' is (line, 0-based column); the formula's outermost level has none. */
  opened?: readonly [number, number];
}

export interface MathState {
  /** Inside $$ … (a display pair opened and not yet closed). */
  display: boolean;
  /** Inside $ … (an inline pair opened and not yet closed). */
  inline: boolean;
  /** The inline pair is GitHub's $`…`$ form (or $``…``$): how many backticks open it, 0 when not; only as many backticks and a $ close it. */
  backtick: number;
  /** The first thing since the open pair began that hides text or breaks the formula, reported if the pair closes. */
  pending: MathHiding | null;
  /** The brace groups open in the formula, outermost first (empty outside math). */
  groups: readonly Readonly<Base>[];
  /** A '^' or '_' waits for its argument: where it is, or null. */
  script: { line: number; column: number; what: string } | null;
}

/** What inside a pair of dollar signs can hide text on the page: where, and what it is. */
export interface MathHiding {
  line: number;
  /** 0-based column. */
  column: number;
  /** `"%"`, the TeX command as written (`\Rule`, `\!`), or the TeX syntax at fault (`"&"`, `"^"`, `"{"`). */
  what: string;
  /** Why that breaks the formula, for TeX syntax; absent for "%" and commands. */
  why?: string;
  /** What the page shows for it: MathJax's error box in place of the formula, or the text drawn otherwise (a blank, an error on some renderers). */
  shows?: 'error' | 'other';
}

export const NO_MATH: MathState = { display: false, inline: false, backtick: 0, pending: null, groups: [], script: null };

/** One reading of where GitHub opens and closes an inline pair, where its rules are not known. */
export interface MathReading {
  /** A closing $ right before a letter closes the pair. */
  letterCloses: boolean;
  /** A closing $ right after a blank closes the pair, and an opening $ at the end of a line opens one. */
  blankCloses: boolean;
}

/**
 * Every reading a line is checked under; it is refused if any of them hides something:
 * pandoc's rules (a closing $ after a non-blank, not before a digit); GitHub's as reported in
 * github/markup#1742 (nor before a letter: round-40b N1); and GitHub's as seen in a 2026 report
 * (`$\theta $` renders: a closing $ may follow a blank, and a line's end may follow an opening
 * one: round-40b N6).
 */
export const MATH_READINGS: readonly MathReading[] = [
  { letterCloses: true, blankCloses: false },
  { letterCloses: false, blankCloses: false },
  { letterCloses: false, blankCloses: true },
];

const isBlank = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
/** MathJax skips these between tokens (and NBSP); a line break is one too. */
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\u00a0';
/** MathJax reads both as a prime. */
const isPrime = (c: string) => c === "'" || c === '\u2019';
/** Characters that cannot be a script's argument: MathJax reports an error. */
const NOT_AN_ARGUMENT = new Set(['}', '^', '_', "'", '\u2019', '&', '#', '%']);

/** What after '@' makes an amscd arrow. */
const AMSCD_ARROW = new Set(['>', '<', 'V', 'A', '.', '|', '=']);

/** One-character commands MathJax draws as their character, without the backslash (and `\\`, a line break). */
const DRAWN_WITHOUT_BACKSLASH: ReadonlySet<string> = new Set(['\\', '#', '$', '%', '&', '_', '{', '}', '|']);

/** Deepest brace nesting left alone inside a formula: about 300 levels overflow MathJax's stack (round-40a F4). */
const MAX_DEPTH = 16;

const FRESH: Readonly<Base> = { sup: false, sub: false, prime: false, argument: false };

/** What follows is a new base: no scripts on it yet. */
function newBase(base: Base): void {
  base.sup = false;
  base.sub = false;
  base.prime = false;
}

/** The length of the TeX command that starts with the backslash at `i` (backslash included), 1 when nothing follows it on the line. */
function commandLength(text: string, i: number): number {
  const next = text[i + 1];
  if (next === undefined) return 1;
  let end = i + 2;
  if (isLetter(next)) while (isLetter(text[end])) end++;
  else if (next.charCodeAt(0) >= 0xd800 && next.charCodeAt(0) < 0xdc00 && i + 2 < text.length) end++;
  return end - i;
}

/** The command `\name` at `i` (length `n`) when MathJax defines it (it can move, hide or replace text); else null. */
function definedCommand(text: string, i: number, n: number): string | null {
  const name = text.slice(i + 1, i + n);
  // `\\` is a line break, whose optional argument in brackets breaks the formula (round-40a
  // F3); `\#`, `\$`, `\%`, `\&`, `\_`, `\{`, `\}` and `\|` are drawn without their backslash
  // (`\#` shows as `#`, which reads as a shell comment: round-40b N2, N5).
  return name !== '' && (TEX_MACROS.has(name) || DRAWN_WITHOUT_BACKSLASH.has(name)) ? `\\${name}` : null;
}

/** Whether a run of exactly `run` backticks followed by a $ comes at or after `from` on the line. */
function closesOnLine(text: string, from: number, run: number): boolean {
  const close = '`'.repeat(run) + '$';
  for (let at = text.indexOf(close, from); at !== -1; at = text.indexOf(close, at + 1)) {
    if (text[at - 1] !== '`') return true;
  }
  return false;
}

/** One line of a paragraph: what a pair closed on it hides, if anything, and the state after it. */
export function texCommentInMath(text: string, line: number, before: MathState, reading: MathReading = MATH_READINGS[0]!): { hidden: MathHiding | null; state: MathState } {
  // Outside math only a '$' matters: a line without one changes nothing.
  if (!before.inline && !before.display && !text.includes('$')) return { hidden: null, state: before };
  let { display, inline, backtick, pending, script } = before;
  // The open groups, copied: the state passed in is not changed.
  let groups: Base[] = before.groups.map((g) => ({ ...g }));
  const found = (column: number, what: string, why?: string, shows: 'error' | 'other' = 'error') => {
    pending ??= why === undefined ? { line, column, what } : { line, column, what, why, shows };
  };
  const open = () => {
    display = false;
    inline = false;
    backtick = 0;
    pending = null;
    groups = [{ ...FRESH }];
    script = null;
  };
  // At the closing delimiter: a script without its argument, or a group left open, breaks the formula.
  const closing = () => {
    if (pending !== null) return;
    if (script !== null) {
      pending = { ...script, why: 'its argument is missing (the formula ends)' };
    } else if (groups.length > 1) {
      const [at, column] = groups[groups.length - 1]!.opened!;
      pending = { line: at, column, what: '"{"', why: 'no brace closes it' };
    }
  };
  /** At a closing delimiter: true when the formula hides or breaks something (then `pending` says what); else the pair ends. */
  const close = (): boolean => {
    closing();
    if (pending !== null) return true;
    display = false;
    inline = false;
    backtick = 0;
    groups = [];
    script = null;
    return false;
  };
  /** One token of TeX inside the pair, at i, `n` characters long; `c` is its first character. */
  const token = (i: number, c: string, n: number) => {
    if (pending !== null) return; // the formula is refused already: only its close matters
    const base = groups[groups.length - 1]!;
    // MathJax 3.2 fails on some characters outside ASCII (€, 𠮷, newer emoji: "Math input
    // error" in place of the formula, round-40a F2); which ones is its table's business, so
    // none. A no-break space too: whether GitHub counts it as a blank before a closing $ (and
    // so pairs that $ elsewhere) is not known (round-40a F6).
    if (c.charCodeAt(0) > 0x7e && !isPrime(c)) return found(i, `U+${text.codePointAt(i)!.toString(16).toUpperCase().padStart(4, '0')}`, 'MathJax fails on some characters outside ASCII and draws an error box in place of the formula', 'other');
    if (isSpace(c)) return;
    // A code span and a formula that overlap: renderers differ on which wins (round-40a F7).
    if (c === '`' && backtick === 0) return found(i, '"`"', 'a code span and the formula overlap, and renderers differ on which one wins', 'other');
    // Braces are not drawn: a brace expansion inside them (`rm -rf $T/{cache,..}`) shows as one
    // path (round-40b N3).
    if (groups.length > 1 && (c === ',' || (c === '.' && text[i + 1] === '.'))) return found(i, JSON.stringify(c), 'braces are not drawn, so a brace expansion ({a,b}, {1..3}) shows as plain text', 'other');
    // Drawn as a blank (a no-break space): `rm -rf $x ~;…$` shows no `~` (round-40a F5).
    if (c === '~') return found(i, '"~"', 'TeX draws "~" as a blank', 'other');
    // MathJax's amscd package reads '@' and one of these as a commutative diagram's arrow.
    if (c === '@' && AMSCD_ARROW.has(text[i + 1] ?? '')) return found(i, `"@${text[i + 1]}"`, 'it is an arrow of a TeX diagram, misplaced outside one');
    if (script !== null) {
      // The argument of a '^' or '_': one token, or a group.
      if (NOT_AN_ARGUMENT.has(c)) return found(script.column, script.what, `its argument is missing (${JSON.stringify(c)} follows it)`);
      script = null;
      if (c === '{') {
        if (groups.length > MAX_DEPTH) return found(i, '"{"', `braces nest deeper than ${MAX_DEPTH} (MathJax runs out of stack on deep nesting)`, 'other');
        groups.push({ ...FRESH, argument: true, opened: [line, i] });
      }
      // Any other token is the whole argument.
      return;
    }
    if (c === '#' || c === '&') return found(i, `"${c}"`, 'it is misplaced outside a TeX alignment or macro');
    if (c === '{') {
      if (groups.length > MAX_DEPTH) return found(i, '"{"', `braces nest deeper than ${MAX_DEPTH} (MathJax runs out of stack on deep nesting)`, 'other');
      groups.push({ ...FRESH, opened: [line, i] });
      return;
    }
    if (c === '}') {
      if (groups.length <= 1) return found(i, '"}"', 'it closes no brace');
      const closed = groups.pop()!;
      // A group is a new base for what follows, unless it was a script's argument.
      if (!closed.argument) newBase(groups[groups.length - 1]!);
      return;
    }
    if (c === '^') {
      if (base.sup) return found(i, '"^"', 'its base has a superscript already');
      base.sup = true;
      base.prime = false;
      script = { line, column: i, what: '"^"' };
      return;
    }
    if (c === '_') {
      if (base.sub) return found(i, '"_"', 'its base has a subscript already');
      base.sub = true;
      if (base.prime) base.sup = true; // the primes become the superscript
      base.prime = false;
      script = { line, column: i, what: '"_"' };
      return;
    }
    if (isPrime(c)) {
      if (base.sup) return found(i, JSON.stringify(c), 'a prime is a superscript, and its base has one already');
      base.prime = true;
      return;
    }
    // Anything else (a letter, a digit, punctuation, a command) is a new base.
    newBase(base);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (backtick > 0) {
      if (c === '\\') {
        const n = commandLength(text, i);
        const command = definedCommand(text, i, n);
        if (command !== null) found(i, command, command !== '\\\\' && DRAWN_WITHOUT_BACKSLASH.has(command.slice(1)) ? 'TeX draws it without its backslash' : undefined, 'other');
        else if (n === 1) found(i, '"\\"', 'a backslash ends the line');
        else token(i, c, n);
        i += n - 1;
      } else if (c === '`') {
        let run = 1;
        while (text[i + run] === '`') run++;
        if (run === backtick && text[i + run] === '$') {
          if (close()) return { hidden: pending, state: NO_MATH };
          i += run; // the closing $ too
        } else {
          for (let k = 0; k < run; k++) token(i + k, '`', 1); // backticks inside the pair are text
          i += run - 1;
        }
      } else if (c === '%') {
        found(i, '"%"');
      } else {
        token(i, c, 1);
      }
    } else if (c === '\\') {
      // \$ and \% are literal; inside a pair, a backslash starts a TeX command.
      const n = commandLength(text, i);
      if (inline || display) {
        const command = definedCommand(text, i, n);
        if (command !== null) found(i, command, command !== '\\\\' && DRAWN_WITHOUT_BACKSLASH.has(command.slice(1)) ? 'TeX draws it without its backslash' : undefined, 'other');
        else if (n === 1) found(i, '"\\"', 'a backslash ends the line');
        else token(i, c, n);
        i += n - 1;
      } else {
        i++;
      }
    } else if (c === '$' && text[i + 1] === '$') {
      if (display) {
        if (close()) return { hidden: pending, state: NO_MATH };
      } else {
        open();
        display = true;
      }
      i++;
    } else if (c === '$' && !display) {
      if (!inline) {
        if (!isBlank(text[i + 1]) || (reading.blankCloses && i + 1 === text.length)) {
          open();
          inline = true;
          let run = 0;
          while (text[i + 1 + run] === '`') run++;
          // GitHub's $`…`$ form only when its close is on this line; else the $ is read as a
          // plain opener, and the backticks inside the pair are refused (round-40a F7).
          if (run > 0 && !closesOnLine(text, i + 1 + run, run)) run = 0;
          backtick = run;
          i += run;
        }
      } else if ((reading.blankCloses || !isBlank(text[i - 1])) && !isDigit(text[i + 1]) && (reading.letterCloses || !isLetter(text[i + 1]))) {
        if (close()) return { hidden: pending, state: NO_MATH };
      } else {
        token(i, c, 1);
      }
    } else if (c === '%' && (inline || display)) {
      found(i, '"%"');
    } else if (inline || display) {
      token(i, c, 1);
    }
  }
  return { hidden: null, state: { display, inline, backtick, pending, groups, script } };
}
