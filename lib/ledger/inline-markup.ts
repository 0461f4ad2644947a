// Inline Markdown (CommonMark 0.31 §6, with GFM) as the parser needs to know it on one line:
// the grammar of raw HTML tags and autolinks, and what a line's start renders as. Two uses:
// - in CHECK, EXPECT, CWD, DEPENDS and INPUTS values, every construct whose rendered text
//   differs from its source in more than styling is refused (a link shows only its text, an
//   image only a picture, a tag nothing, a character reference the character it names);
// - a body line's start is decoded the way a renderer shows it (escapes, character
//   references, emphasis, code, tags, autolinks, links, container and heading markers), so
//   that "CHECK\:", "&#67;HECK:" and "**CHECK:**" are seen for the attributes they look like.
// Pure. Every scan is linear: each call has a step budget proportional to its input, and a
// search that found nothing past an index is not repeated from a later one.
import { ENTITY_ENTRIES, ENTITY_NAMES } from './entities-table.js';

let budget = 0;
const EXHAUSTED = new Error('inline markup scan budget');

function spend(steps: number): void {
  budget -= steps;
  if (budget < 0) throw EXHAUSTED;
}

// For each needle, the smallest index from which it was searched and not found.
const notFoundFrom = new Map<string, number>();

function find(text: string, needle: string, from: number): number {
  const none = notFoundFrom.get(needle);
  if (none !== undefined && from >= none) return -1;
  const at = text.indexOf(needle, from);
  if (at === -1) notFoundFrom.set(needle, Math.min(from, none ?? from));
  spend((at === -1 ? text.length : at) - from + 1);
  return at;
}

function start(text: string): void {
  budget = 8 * text.length + 256;
  notFoundFrom.clear();
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n';
const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => isDigit(c) || (c !== undefined && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
const isTagChar = (c: string | undefined) => isLetter(c) || isDigit(c) || c === '-';
const isAttrStart = (c: string | undefined) => isLetter(c) || c === '_' || c === ':';
const isAttrChar = (c: string | undefined) => isAttrStart(c) || isDigit(c) || c === '.' || c === '-';
const ASCII_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const isAsciiPunctuation = (c: string | undefined) => c !== undefined && c.length === 1 && ASCII_PUNCTUATION.includes(c);

function skipBlanks(text: string, j: number): number {
  const from = j;
  while (isBlank(text[j])) j++;
  spend(j - from + 1);
  return j;
}

export interface HtmlSpan {
  end: number;
  /** "tag <sub>", "closing tag </b>", "comment", … */
  kind: string;
}

/** Raw inline HTML starting at `i` (a '<') and complete on the line, per CommonMark's grammar; null if none. */
export function inlineHtmlAt(text: string, i: number): HtmlSpan | null {
  const next = text[i + 1];
  if (next === '!') {
    if (text.startsWith('<!--', i)) {
      if (text.startsWith('<!-->', i)) return { end: i + 5, kind: 'comment' };
      if (text.startsWith('<!--->', i)) return { end: i + 6, kind: 'comment' };
      const close = find(text, '-->', i + 4);
      return close === -1 ? null : { end: close + 3, kind: 'comment' };
    }
    if (text.startsWith('<![CDATA[', i)) {
      const close = find(text, ']]>', i + 9);
      return close === -1 ? null : { end: close + 3, kind: 'CDATA section' };
    }
    if (isLetter(text[i + 2])) {
      const close = find(text, '>', i + 2);
      return close === -1 ? null : { end: close + 1, kind: 'declaration' };
    }
    return null;
  }
  if (next === '?') {
    const close = find(text, '?>', i + 2);
    return close === -1 ? null : { end: close + 2, kind: 'processing instruction' };
  }
  const closing = next === '/';
  const nameStart = closing ? i + 2 : i + 1;
  if (!isLetter(text[nameStart])) return null;
  let j = nameStart;
  while (isTagChar(text[j])) j++;
  spend(j - nameStart);
  const name = text.slice(nameStart, j).toLowerCase();
  if (closing) {
    j = skipBlanks(text, j);
    return text[j] === '>' ? { end: j + 1, kind: `closing tag </${name}>` } : null;
  }
  for (;;) {
    const before = j;
    j = skipBlanks(text, j);
    if (text[j] === '>') return { end: j + 1, kind: `tag <${name}>` };
    if (text.startsWith('/>', j)) return { end: j + 2, kind: `tag <${name}/>` };
    if (j === before || !isAttrStart(text[j])) return null;
    while (isAttrChar(text[j])) j++;
    spend(1);
    const afterName = j;
    j = skipBlanks(text, j);
    if (text[j] !== '=') {
      j = afterName;
      continue;
    }
    j = skipBlanks(text, j + 1);
    const q = text[j];
    if (q === '"' || q === "'") {
      const end = find(text, q, j + 1);
      if (end === -1) return null;
      j = end + 1;
    } else {
      const from = j;
      while (j < text.length && !isBlank(text[j]) && !'"\'=<>`'.includes(text[j]!)) j++;
      spend(j - from);
      if (j === from) return null;
    }
  }
}

const EMAIL_LOCAL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/;

/** An autolink (`<scheme:…>` or `<user@host>`) starting at `i`: the index after its `>`, or -1. */
export function autolinkAt(text: string, i: number): number {
  let j = i + 1;
  if (isLetter(text[j])) {
    let k = j + 1;
    while (k - j < 32 && (isLetter(text[k]) || isDigit(text[k]) || text[k] === '+' || text[k] === '.' || text[k] === '-')) k++;
    spend(k - j);
    if (text[k] === ':' && k - j >= 2) {
      for (k++; k < text.length; k++) {
        spend(1);
        const c = text.charCodeAt(k);
        if (c === 62) return k + 1;
        if (c <= 32 || c === 60 || c === 127) return -1;
      }
      return -1;
    }
  }
  // An email address: local part, '@', dot-separated labels of letters, digits and '-'.
  while (j < text.length && EMAIL_LOCAL.test(text[j]!)) j++;
  spend(j - i);
  if (j === i + 1 || text[j] !== '@') return -1;
  let labels = 0;
  for (;;) {
    const from = ++j;
    while (j < text.length && j - from < 63 && (isLetter(text[j]) || isDigit(text[j]) || text[j] === '-')) j++;
    spend(j - from + 1);
    if (j === from || text[from] === '-' || text[j - 1] === '-') return -1;
    labels++;
    if (text[j] === '>') return labels > 0 ? j + 1 : -1;
    if (text[j] !== '.') return -1;
  }
}

/**
 * A character reference (`&amp;`, `&#67;`, `&#x3A;`) at `i`, as CommonMark decodes one (a
 * name must be one of HTML's: `&b;` stays text): its end and, when the table has it, the character.
 */
function characterReferenceAt(text: string, i: number): { end: number; char: string | null } | null {
  let j = i + 1;
  if (text[j] === '#') {
    j++;
    const hex = text[j] === 'x' || text[j] === 'X';
    if (hex) j++;
    const from = j;
    while ((hex ? isHex(text[j]) : isDigit(text[j])) && j - from < (hex ? 6 : 7)) j++;
    if (j === from || text[j] !== ';') return null;
    const cp = parseInt(text.slice(from, j), hex ? 16 : 10);
    const char = cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp);
    return { end: j + 1, char };
  }
  const from = j;
  if (!isLetter(text[j])) return null;
  while ((isLetter(text[j]) || isDigit(text[j])) && j - from < 32) j++;
  if (text[j] !== ';') return null;
  const name = text.slice(from, j);
  if (!entityNames().has(name)) return null;
  return { end: j + 1, char: entityMap().get(name) ?? null };
}

let names: Set<string> | null = null;

function entityNames(): Set<string> {
  names ??= new Set(ENTITY_NAMES.split(' '));
  return names;
}

let entities: Map<string, string> | null = null;

function entityMap(): Map<string, string> {
  if (entities) return entities;
  const parts = ENTITY_ENTRIES.split(' ');
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) map.set(parts[i]!, parts[i + 1]!);
  entities = map;
  return map;
}

export interface ValueMarkup {
  /** 0-based index in the value. */
  index: number;
  /** What it is. */
  what: string;
  /** What the page shows instead of its source. */
  shows: string;
}

const VALUE_INTERESTING = /[<&\]!]/;

/**
 * The first construct in an attribute value whose rendered text is not its source (beyond
 * styling: emphasis, code spans and backslash escapes only change how the text looks): an
 * inline link or image, an autolink, raw HTML of any kind, a character reference. Null if none.
 */
export function findValueMarkup(value: string): ValueMarkup | null {
  if (!VALUE_INTERESTING.test(value)) return null;
  start(value);
  try {
    return scanValue(value);
  } catch (error) {
    if (error !== EXHAUSTED) throw error;
    return { index: 0, what: 'markup too intricate to follow', shows: 'it may show other text than the source' };
  }
}

function scanValue(text: string): ValueMarkup | null {
  // An image needs a "](" after its "![" (reference images need a definition, which ledgers
  // refuse): a lone "![", as in the regex /^(?![\s\S]*FAIL)/, is shown as written.
  const lastLinkClose = text.lastIndexOf('](');
  for (let i = 0; i < text.length; i++) {
    spend(1);
    const c = text[i];
    if (c === '\\') {
      if (isAsciiPunctuation(text[i + 1])) i++;
    } else if (c === ']' && text[i + 1] === '(') {
      return { index: i, what: 'an inline link or image ("](")', shows: 'only its text is shown, not its destination or title' };
    } else if (c === '!' && text[i + 1] === '[' && i < lastLinkClose) {
      return { index: i, what: 'an image ("![")', shows: 'it is a picture, and its description is not shown as text' };
    } else if (c === '<') {
      const html = inlineHtmlAt(text, i);
      if (html) return { index: i, what: `raw HTML (${html.kind})`, shows: 'it is not text but markup for the browser, which can style, shrink or hide what follows' };
      if (autolinkAt(text, i) !== -1) return { index: i, what: 'an autolink ("<…>")', shows: 'it is a link without its angle brackets' };
    } else if (c === '&') {
      const ref = characterReferenceAt(text, i);
      if (ref) return { index: i, what: `a character reference ("${text.slice(i, ref.end)}")`, shows: 'it is the character it names, not the text that runs' };
    }
  }
  return null;
}

export interface RenderedStart {
  /** The start of the line as the page shows it (up to and with the first colon, or a bounded prefix). */
  text: string;
  /** The kinds of markup that made it differ from the source, in order of appearance. */
  markup: string[];
}

/** Characters a reader may take for the colon of an attribute: decoding stops after one. */
export type ColonTest = (ch: string) => boolean;

const MAX_RENDERED = 120;

/**
 * The start of a body line (without its indentation) as a renderer shows it. With
 * `containers`, block-quote, list and heading markers in front are dropped too (inside a
 * gate's list item they start a nested block whose text reads like a line of the gate).
 * Emphasis and code delimiters are dropped wherever they are (a literal `*` can only make
 * more lines read as look-alikes, never fewer).
 */
export function renderedStart(text: string, containers: boolean, isColon: ColonTest): RenderedStart {
  const shown = render(text, containers, isColon, MAX_RENDERED, null);
  return { text: shown.text, markup: shown.markup };
}

export interface RenderedLine {
  /** The whole text as the page shows it. */
  text: string;
  /** For each UTF-16 unit of `text`, the index in the source it was decoded from. */
  sources: number[];
  /** The kinds of markup that made it differ from the source, in order of appearance. */
  markup: string[];
}

/**
 * A whole title, note or value as a renderer shows it, decoded as renderedStart decodes a
 * line's start (no container markers), with where each shown character came from.
 */
export function renderedLine(text: string): RenderedLine {
  const sources: number[] = [];
  const shown = render(text, false, null, Infinity, sources);
  return { text: shown.text, sources, markup: shown.markup };
}

function render(text: string, containers: boolean, isColon: ColonTest | null, max: number, sources: number[] | null): RenderedStart {
  start(text);
  const markup: string[] = [];
  const note = (kind: string) => {
    if (!markup.includes(kind)) markup.push(kind);
  };
  let out = '';
  // Appends what the source from `at` shows.
  const emit = (shown: string, at: number) => {
    out += shown;
    if (sources !== null) for (let k = 0; k < shown.length; k++) sources.push(at);
  };
  let i = 0;
  try {
    if (containers) i = skipBlockMarkers(text, note);
    let autolinkEnd = -1;
    while (i < text.length && out.length < max) {
      spend(1);
      const c = text[i]!;
      if (c === '\\' && isAsciiPunctuation(text[i + 1])) {
        note('a backslash escape');
        emit(text[i + 1]!, i);
        i += 2;
      } else if (c === '&') {
        const ref = characterReferenceAt(text, i);
        if (ref && ref.char !== null) {
          note('a character reference');
          emit(ref.char, i);
          i = ref.end;
        } else {
          emit(c, i);
          i++;
        }
      } else if (c === '*' || c === '_' || c === '~' || c === '`') {
        note('emphasis or code');
        i++;
      } else if (c === '<') {
        const html = inlineHtmlAt(text, i);
        if (html) {
          note('inline HTML');
          i = html.end;
        } else if ((autolinkEnd = autolinkAt(text, i)) !== -1) {
          note('an autolink');
          i++;
        } else {
          emit(c, i);
          i++;
        }
      } else if (c === '>' && i === autolinkEnd - 1) {
        i++;
      } else if (c === '[' || (c === '!' && text[i + 1] === '[')) {
        note('a link or image');
        i++;
      } else if (c === ']') {
        note('a link or image');
        i = text[i + 1] === '(' ? linkTailEnd(text, i + 2) : i + 1;
      } else {
        const ch = String.fromCodePoint(text.codePointAt(i)!);
        emit(ch, i);
        i += ch.length;
        if (isColon?.(ch)) break;
      }
    }
  } catch (error) {
    if (error !== EXHAUSTED) throw error;
    note('markup too intricate to read');
  }
  return { text: out, markup };
}

/** Block-quote markers, list markers and ATX heading markers at the start of a line. */
function skipBlockMarkers(text: string, note: (kind: string) => void): number {
  let i = 0;
  for (;;) {
    const from = i;
    while (isBlank(text[i])) i++;
    const c = text[i];
    if (c === '>') {
      note('a block quote');
      i++;
      continue;
    }
    if ((c === '-' || c === '*' || c === '+') && (isBlank(text[i + 1]) || i + 1 === text.length)) {
      note('a list item');
      i++;
      continue;
    }
    if (isDigit(c)) {
      let j = i;
      while (isDigit(text[j]) && j - i < 10) j++;
      if (j - i <= 9 && (text[j] === '.' || text[j] === ')') && (isBlank(text[j + 1]) || j + 1 === text.length)) {
        note('a list item');
        i = j + 1;
        continue;
      }
    }
    if (c === '#') {
      let j = i;
      while (text[j] === '#' && j - i < 7) j++;
      if (j - i <= 6 && (isBlank(text[j]) || j === text.length)) {
        note('a heading');
        i = j;
        continue;
      }
    }
    spend(i - from + 1);
    return i;
  }
}

/** After `](`: the index after the link's closing `)` on this line, or the line's end. */
function linkTailEnd(text: string, j: number): number {
  let depth = 0;
  let quote = '';
  for (; j < text.length; j++) {
    spend(1);
    const c = text[j];
    if (c === '\\') j++;
    else if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return j + 1;
  }
  return j;
}
