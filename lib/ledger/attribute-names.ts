// Near-misses of attribute names. A line in a gate's body that a reader takes for an
// attribute but the parser would read as a note (a Cyrillic С in CHECK, a zero-width space,
// a fullwidth colon, DEPEND: or CHEK:) would turn a runnable gate into a manual one, or drop
// a dependency from the approval, without a word. Pure.
import { lazyRegExp } from '../text/lazy-regexp.js';
import { codePointLabel, codePointName } from '../text/sanitize.js';
import { CONFUSABLE_ENTRIES } from './confusables-table.js';
import { ATTRIBUTE_KEYS, type AttributeKey } from './types.js';

let prototypes: Map<string, string> | null = null;

function prototypeMap(): Map<string, string> {
  if (prototypes) return prototypes;
  const parts = CONFUSABLE_ENTRIES.split(' ');
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) map.set(parts[i]!, parts[i + 1]!);
  prototypes = map;
  return map;
}

const invisible = lazyRegExp(() => /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
const mark = lazyRegExp(() => /\p{M}/u);

/**
 * UTS #39 skeleton (NFD, each character to its prototype, NFD), upper-cased and without
 * combining marks, so that "СHECK", "ＣＨＥＣＫ", "𝐂𝐇𝐄𝐂𝐊" and "CHÉCK" all read as CHECK.
 */
export function attributeSkeleton(text: string): string {
  const map = prototypeMap();
  let out = '';
  for (const ch of text.toUpperCase().normalize('NFD')) {
    if (mark().test(ch) || invisible().test(ch)) continue;
    out += map.get(ch) ?? ch;
  }
  return out.normalize('NFD').toUpperCase();
}

// Built on first use, not at start-up: most ledgers never have a near-miss line.
let skeletons: ReadonlyArray<[AttributeKey, string]> | null = null;

export function isColonLike(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  if (ch === ':') return true;
  return ch.charCodeAt(0) > 0x7f && prototypeMap().get(ch) === ':';
}

/** Damerau-Levenshtein distance of at most one (one insertion, deletion, substitution or swap). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const MAX_NAME = 40;

export interface NearMiss {
  attribute: AttributeKey;
  message: string;
}

/**
 * The attribute a body line was probably meant to be, when it is not exactly one: `text` is
 * the line without its indentation. Null for exact (or only mis-cased) attributes and for
 * ordinary notes. `markup`: `text` is the line as the page shows it (lib/ledger/inline-markup.ts),
 * decoded from this Markdown: then even an exact name is a look-alike, since the parser reads
 * the source, not what it renders as.
 */
export function nearMissAttribute(text: string, invisibleIndent = false, markup: readonly string[] = []): NearMiss | null {
  // The name: up to the first blank or colon-like character.
  let name = '';
  let count = 0;
  let i = 0;
  while (i < text.length) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (ch === ' ' || ch === '\t' || isColonLike(ch) || /\p{Zs}/u.test(ch)) break;
    if (++count > MAX_NAME) return null;
    name += ch;
    i += ch.length;
  }
  if (name === '') return null;
  let j = i;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  const separator = text[j] === undefined ? undefined : String.fromCodePoint(text.codePointAt(j)!);
  if (!isColonLike(separator)) return null;
  const spaced = j > i;
  const plainColon = separator === ':';
  // Exact or mis-cased names with a plain colon are the parser's own business, except
  // after indentation a reader cannot see (the caller strips NBSP and the like).
  const exact = plainColon && !spaced && /^[A-Za-z][A-Za-z_-]*$/.test(name) && (ATTRIBUTE_KEYS as readonly string[]).includes(name.toUpperCase());
  if (exact && !invisibleIndent && markup.length === 0) return null;
  const written = markup.length > 0 ? `, written with ${markup.join(', ')}` : '';

  const skeleton = attributeSkeleton(name);
  skeletons ??= ATTRIBUTE_KEYS.map((k) => [k, attributeSkeleton(k)]);
  for (const [key, keySkeleton] of skeletons) {
    if (skeleton !== keySkeleton) continue;
    if (exact && markup.length > 0) {
      return { attribute: key, message: `this line renders as "${name}${separator}" but is written with ${markup.join(', ')}: gate-check reads the source, a note, not ${key}; write "${key}: …" plainly, or reword the note` };
    }
    return { attribute: key, message: `${describe(name, separator!, spaced)}${written}: did you mean ${key}? (attribute names are plain ASCII upper case followed by ':')` };
  }
  // A typo: only for names written in ASCII upper case, the way attributes are written
  // (a prose note such as "Input:" is not taken for INPUTS).
  if (/^[A-Z][A-Z_-]+$/.test(name)) {
    for (const key of ATTRIBUTE_KEYS) {
      if (name.length >= 3 && withinOneEdit(name, key)) {
        return { attribute: key, message: `${name}${separator}${markup.length > 0 ? ` (as the page shows it${written})` : ''} is not an attribute: did you mean ${key}? (attributes: ${ATTRIBUTE_KEYS.join(', ')})` };
      }
    }
  }
  return null;
}

/** Why a name that reads as an attribute is not one: the characters that make it differ. */
function describe(name: string, separator: string, spaced: boolean): string {
  const odd: string[] = [];
  for (const ch of name) {
    if (/^[A-Za-z_-]$/.test(ch)) continue;
    const label = invisible().test(ch) ? codePointName(ch) : `${codePointLabel(ch)} (looks like ${attributeSkeleton(ch) || 'nothing'})`;
    if (!odd.includes(label)) odd.push(label);
    if (odd.length >= 3) break;
  }
  if (separator !== ':') odd.push(`${codePointLabel(separator)} instead of ':'`);
  if (spaced) odd.push("a blank before ':'");
  if (odd.length === 0) odd.push('indented with characters other than spaces and tabs');
  return `"${shownName(name)}${separator}" is not an attribute name (${odd.join(', ')})`;
}

function shownName(name: string): string {
  let out = '';
  for (const ch of name) out += /^[A-Za-z_-]$/.test(ch) ? ch : `<${codePointLabel(ch)}>`;
  return out;
}

// An attribute name and its colon inside a line's text, after a blank or markup. Linear: a
// literal alternation, then blanks up to the next character.
const INLINE_ATTRIBUTE = /(?:^|[\s*_`~>(\[])(CHECK|EXPECT|CWD|DEPENDS|INPUTS|TIMEOUT|EVIDENCE)[ \t]*:/;

/**
 * An attribute name written inside a gate's title or a note. GitHub shows the lines of a gate
 * as one paragraph, so "- [x] G1: tests pass CHECK: npm test EXPECT: ok" looks exactly like a
 * runnable gate whose CHECK and EXPECT are on their own lines; gate-check reads a manual gate.
 */
export function inlineAttribute(text: string): { name: AttributeKey; index: number } | null {
  const m = INLINE_ATTRIBUTE.exec(text);
  if (!m) return null;
  return { name: m[1] as AttributeKey, index: m.index + m[0].indexOf(m[1]!) };
}
