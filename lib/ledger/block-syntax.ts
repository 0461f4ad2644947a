// The pieces of CommonMark block syntax the parser has to recognise on one line: indentation
// in columns (tabs to multiples of 4), container markers (`>`, `-`, `1.`), code fences, task
// boxes and underline rows. Hand-written scanners, each linear in the line. Pure.
import { lazyRegExp } from '../text/lazy-regexp.js';

export interface Leading {
  /** Columns of indentation (a tab advances to the next multiple of 4). */
  columns: number;
  /** Index of the first character that is not a space or tab. */
  index: number;
}

export function leading(text: string, into: Leading = { columns: 0, index: 0 }): Leading {
  let columns = 0;
  let index = 0;
  for (; index < text.length; index++) {
    const c = text.charCodeAt(index);
    if (c === 32) columns++;
    else if (c === 9) columns += 4 - (columns % 4);
    else break;
  }
  into.columns = columns;
  into.index = index;
  return into;
}

export interface FenceRun {
  char: '`' | '~';
  length: number;
}

/** A code fence opening at index: three or more backticks (no backtick after them) or tildes. */
export function fenceAt(text: string, index: number): FenceRun | null {
  const c = text[index];
  if (c !== '`' && c !== '~') return null;
  let end = index;
  while (text[end] === c) end++;
  const length = end - index;
  if (length < 3) return null;
  if (c === '`' && text.indexOf('`', end) !== -1) return null;
  return { char: c, length };
}

/** A line that closes `fence`: at most three columns in, a long enough run, then only spaces or tabs (not NBSP). */
export function closesFence(text: string, fence: FenceRun): boolean {
  const lead = leading(text);
  if (lead.columns > 3) return false;
  let end = lead.index;
  while (text[end] === fence.char) end++;
  if (end - lead.index < fence.length) return false;
  for (; end < text.length; end++) if (text[end] !== ' ' && text[end] !== '\t') return false;
  return true;
}

export interface Containers {
  /** Index after the indentation, block-quote markers and list markers at the start. */
  content: number;
  quote: boolean;
  /** List markers (`-`, `*`, `+`, `1.`, `1)`) before the content. */
  markers: number;
}

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/** Strips every container marker a renderer would read at the start of the line. */
export function containers(text: string, into: Containers = { content: 0, quote: false, markers: 0 }): Containers {
  let i = 0;
  let quote = false;
  let markers = 0;
  for (;;) {
    while (isBlank(text[i])) i++;
    const c = text[i];
    if (c === '>') {
      quote = true;
      i++;
      continue;
    }
    if ((c === '-' || c === '*' || c === '+') && (isBlank(text[i + 1]) || i + 1 === text.length)) {
      markers++;
      i++;
      continue;
    }
    if (c !== undefined && c >= '0' && c <= '9') {
      let j = i;
      while (j < text.length && j - i < 10 && text[j]! >= '0' && text[j]! <= '9') j++;
      if (j - i <= 9 && (text[j] === '.' || text[j] === ')') && (isBlank(text[j + 1]) || j + 1 === text.length)) {
        markers++;
        i = j + 1;
        continue;
      }
    }
    into.content = i;
    into.quote = quote;
    into.markers = markers;
    return into;
  }
}

const spaceLike = lazyRegExp(() => /[\s\p{Cf}\p{Zs}]/u);
/** A space or a tab, else anything \s, \p{Cf} or \p{Zs} matches. */
const isSpaceLike = (ch: string) => ch === ' ' || ch === '\t' || spaceLike().test(ch);

/**
 * A task box at index: `[`, one character a renderer may take for an empty or ticked box
 * (space, tab, x, X, or any invisible or space-like character), `]`, then a blank or the
 * end of the line; `[]` too. True for everything a reader would take for a task box.
 */
export function taskBoxAt(text: string, index: number): boolean {
  if (text[index] !== '[') return false;
  let close = index + 1;
  if (text[close] !== ']') {
    const box = text.codePointAt(close);
    if (box === undefined) return false;
    const ch = String.fromCodePoint(box);
    if (!(ch === 'x' || ch === 'X' || isSpaceLike(ch))) return false;
    close += ch.length;
  }
  if (text[close] !== ']') return false;
  const after = text.codePointAt(close + 1);
  return after === undefined || isSpaceLike(String.fromCodePoint(after));
}

/**
 * A row of only `-`, `=`, `|`, `:` and blanks with at least one `-` or `=`: a setext
 * heading underline, an empty list item, a thematic break or a table delimiter row. Under a
 * gate line any of them changes what the gate line renders as.
 */
export function isUnderlineRow(text: string, from: number): boolean {
  let dash = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '-' || c === '=') dash = true;
    else if (c !== '|' && c !== ':' && c !== ' ' && c !== '\t') return false;
  }
  return dash;
}
