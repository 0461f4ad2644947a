// A small POSIX-shell tokenizer for one CHECK line. Pure. It only has to be good enough to
// see which commands a CHECK runs and what echo/printf print: quoting, escapes, expansions
// (kept opaque), control operators and redirections. It never evaluates anything.

export type ControlOp = ';' | '&&' | '||' | '|' | '|&' | '&' | '(' | ')';

export interface Word {
  kind: 'word';
  /** Quote-removed text; expansions ($x, ${x}, $(…), `…`) kept as written. */
  value: string;
  /** Quote-removed text with every expansion dropped: what is certainly printed. */
  literal: string;
  /** Contains an expansion, so its run-time value is unknown. */
  dynamic: boolean;
  /** Contains a command substitution ($(…) or `…`): something runs inside it. */
  substitution: boolean;
  /** Some part of it was quoted or escaped. */
  quoted: boolean;
  /** How much of `value` came before the first quote or escape (all of it when none): `A="x y"` is an assignment, `"A=x"` is not. */
  plainPrefix: number;
}

export interface OpToken {
  kind: 'op';
  op: ControlOp;
}

/** A redirection operator with its optional fd prefix ('>', '2>', '>>', '>&', '&>', '<', …). */
export interface RedirectToken {
  kind: 'redirect';
  op: string;
}

export type Token = Word | OpToken | RedirectToken;

export interface Tokenized {
  tokens: Token[];
  /** False when a quote, substitution or parameter expansion is left open. */
  complete: boolean;
}

// Longest first, so that '&&' is not read as two '&' and '&>' not as '&' then '>'.
const CONTROL_OPS: readonly ControlOp[] = ['&&', '||', '|&', ';', '|', '&', '(', ')'];
const REDIRECT = /^(?:&>>|&>|<<<|<<-|<<|<>|<&|>&|>>|>\||<|>)/;

interface Building {
  value: string;
  literal: string;
  dynamic: boolean;
  substitution: boolean;
  quoted: boolean;
  plainPrefix: number;
}

export function tokenize(text: string): Tokenized {
  const tokens: Token[] = [];
  let complete = true;
  let word: Building | null = null;
  const cur = (): Building => (word ??= { value: '', literal: '', dynamic: false, substitution: false, quoted: false, plainPrefix: -1 });
  const flush = () => {
    if (word) tokens.push({ kind: 'word', ...word, plainPrefix: word.plainPrefix === -1 ? word.value.length : word.plainPrefix });
    word = null;
  };
  // Where the first quote or escape of the word starts.
  const quoting = () => {
    const w = cur();
    if (w.plainPrefix === -1) w.plainPrefix = w.value.length;
    w.quoted = true;
  };
  const addLiteral = (s: string) => {
    const w = cur();
    w.value += s;
    w.literal += s;
  };
  const addExpansion = (raw: string) => {
    const w = cur();
    w.value += raw;
    w.dynamic = true;
    // Anywhere in it: `${X:-$(sh x.sh)}`, `$(( $(sh x.sh) ))` (an arithmetic `$((1+1))` runs nothing).
    if (/\$\((?!\()|`/.test(raw) || /^\$\(\(.*\$\(/s.test(raw)) w.substitution = true;
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t') {
      flush();
      i++;
      continue;
    }
    // '#' starts a comment only at the start of a word: `echo a#b` prints a#b.
    if (ch === '#' && word === null) break;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) complete = false;
      quoting();
      addLiteral(text.slice(i + 1, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (ch === '"') {
      quoting();
      i = readDoubleQuoted(text, i + 1, addLiteral, addExpansion, () => (complete = false));
      continue;
    }
    if (ch === '\\') {
      quoting();
      if (i + 1 < text.length) addLiteral(text[i + 1]!);
      i += 2;
      continue;
    }
    if (ch === '$' && text[i + 1] === "'") {
      // bash ANSI-C quoting: $'a\nb'. Escapes are kept as written; it is literal text.
      const end = findClosingAnsiQuote(text, i + 2);
      if (end === -1) complete = false;
      quoting();
      addLiteral(text.slice(i + 2, end === -1 ? text.length : end));
      // Its escapes (\n, \x41) are not decoded here: what the shell makes of it is not known.
      if (text.slice(i + 2, end === -1 ? text.length : end).includes('\\')) cur().dynamic = true;
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (ch === '$' || ch === '`') {
      const end = expansionEnd(text, i);
      if (end === null) {
        addLiteral('$'); // a lone '$' is literal
        i++;
        continue;
      }
      if (end === -1) complete = false;
      addExpansion(text.slice(i, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end;
      continue;
    }
    const rest = text.slice(i, i + 3);
    const redirect = REDIRECT.exec(rest);
    if (redirect) {
      // A word of digits right before '>' or '<' is the fd: 2>&1, 1>out.
      let op = redirect[0];
      const w = word as Building | null;
      if (w && !w.quoted && !w.dynamic && /^\d+$/.test(w.value) && (op[0] === '>' || op[0] === '<')) {
        op = w.value + op;
        word = null;
      } else {
        flush();
      }
      tokens.push({ kind: 'redirect', op });
      i += redirect[0].length;
      continue;
    }
    const control = CONTROL_OPS.find((op) => text.startsWith(op, i));
    if (control) {
      flush();
      tokens.push({ kind: 'op', op: control });
      i += control.length;
      continue;
    }
    addLiteral(ch);
    i++;
  }
  flush();
  return { tokens, complete };
}

/** Reads a "…" string from just after its opening quote; returns the index after the closing quote. */
function readDoubleQuoted(
  text: string,
  start: number,
  addLiteral: (s: string) => void,
  addExpansion: (raw: string) => void,
  incomplete: () => void,
): number {
  let i = start;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return i + 1;
    if (ch === '\\') {
      const next = text[i + 1];
      // Inside double quotes a backslash escapes only $ ` " \ (and newline).
      if (next !== undefined && '$`"\\'.includes(next)) {
        addLiteral(next);
        i += 2;
      } else {
        addLiteral('\\');
        i++;
      }
      continue;
    }
    if (ch === '$' || ch === '`') {
      const end = expansionEnd(text, i);
      if (end === null) {
        addLiteral('$');
        i++;
        continue;
      }
      if (end === -1) {
        incomplete();
        addExpansion(text.slice(i));
        return text.length;
      }
      addExpansion(text.slice(i, end));
      i = end;
      continue;
    }
    addLiteral(ch);
    i++;
  }
  incomplete();
  return text.length;
}

function findClosingAnsiQuote(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  return -1;
}

/**
 * End (exclusive) of the expansion starting at `start` ('$' or '`'); null when the '$' is
 * literal; -1 when the expansion is never closed.
 */
export function expansionEnd(text: string, start: number): number | null {
  if (text[start] === '`') {
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '`') return i + 1;
    }
    return -1;
  }
  const next = text[start + 1];
  if (next === '(') return closeBracket(text, start + 2, '(', ')');
  if (next === '{') return closeBracket(text, start + 2, '{', '}');
  if (next !== undefined && /[A-Za-z_]/.test(next)) {
    let i = start + 2;
    while (i < text.length && /[A-Za-z0-9_]/.test(text[i]!)) i++;
    return i;
  }
  if (next !== undefined && /[0-9@*#?$!-]/.test(next)) return start + 2;
  return null;
}

/** Index after the bracket that closes one already open, skipping quoted text; -1 if none. */
function closeBracket(text: string, start: number, open: string, close: string): number {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
    } else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return -1;
      i = end;
    } else if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (ch === open) {
      depth++;
    } else if (ch === close && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}
