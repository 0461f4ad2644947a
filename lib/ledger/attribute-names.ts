// Near-misses of attribute names. A line in a gate's body that a reader takes for an
// attribute but the parser would read as a note (a Cyrillic С in CHECK, a zero-width space,
// a fullwidth colon, DEPEND: or CHEK:) would turn a runnable gate into a manual one, or drop
// a dependency from the approval, without a word. Pure.
import { lazyRegExp } from '../text/lazy-regexp.js';
import { codePointLabel, codePointName } from '../text/sanitize.js';
import { CONFUSABLE_ENTRIES } from './confusables-table.js';
import { renderedLine } from './inline-markup.js';
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
  // NFKD as well: circled, squared, parenthesized and other compatibility forms (Ⓒ, 🄲) read as their letter.
  for (const ch of text.toUpperCase().normalize('NFKD')) {
    if (mark().test(ch) || invisible().test(ch)) continue;
    out += map.get(ch) ?? MORE_LETTERS.get(ch) ?? ch;
  }
  return out.normalize('NFKD').toUpperCase();
}

// Letters confusables.txt does not map to the capitals of attribute names but that read as
// them in stylized text: small capitals, and Canadian syllabics used as Latin letters.
const MORE_LETTERS: ReadonlyMap<string, string> = new Map([
  ['\u{1d00}', 'A'], ['\u{0299}', 'B'], ['\u{1d04}', 'C'], ['\u{1d05}', 'D'], ['\u{1d07}', 'E'], ['\u{a730}', 'F'], ['\u{0262}', 'G'], ['\u{029c}', 'H'],
  ['\u{026a}', 'I'], ['\u{1d0a}', 'J'], ['\u{1d0b}', 'K'], ['\u{029f}', 'L'], ['\u{1d0d}', 'M'], ['\u{0274}', 'N'], ['\u{1d0f}', 'O'], ['\u{1d18}', 'P'],
  ['\u{0280}', 'R'], ['\u{a731}', 'S'], ['\u{1d1b}', 'T'], ['\u{1d1c}', 'U'], ['\u{1d20}', 'V'], ['\u{1d21}', 'W'], ['\u{028f}', 'Y'], ['\u{1d22}', 'Z'],
  ['\u{1455}', 'C'], ['\u{15ea}', 'D'], ['\u{157c}', 'H'], ['\u{146d}', 'P'], ['\u{1515}', 'S'], ['\u{144c}', 'U'], ['\u{1450}', 'N'], ['\u{15f0}', 'M'],
  ['\u{142f}', 'V'], ['\u{15ef}', 'W'], ['\u{166d}', 'X'], ['\u{1587}', 'R'], ['\u{15b4}', 'F'], ['\u{1472}', 'b'],
]);

// Built on first use, not at start-up: most ledgers never have a near-miss line.
let skeletons: ReadonlyArray<[AttributeKey, string]> | null = null;

// Colons that confusables.txt does not map to ':' but a reader takes for one: SMALL COLON,
// the vertical presentation form, and script colons (Syriac, Ethiopic, Mongolian, Bamum, Z notation).
const MORE_COLONS = '\u{2d1}\u{705}\u{706}\u{707}\u{708}\u{709}\u{1365}\u{1804}\u{2982}\u{a6f4}\u{fe13}\u{fe55}' +
  // Braille patterns of two dots one above the other (⠆ and the like).
  '\u{2803}\u{2805}\u{2806}\u{2818}\u{2828}\u{2830}';

export function isColonLike(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  if (ch === ':') return true;
  return ch.charCodeAt(0) > 0x7f && (prototypeMap().get(ch) === ':' || (ch.length === 1 && MORE_COLONS.includes(ch)));
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
  for (const ch of name) out += /^[\x21-\x7e]$/.test(ch) ? ch : `<${codePointLabel(ch)}>`;
  return out;
}

// An attribute name and its colon inside a line's text, after a blank or markup. Linear: a
// literal alternation, then blanks up to the next character. With the digits that read as
// letters (INPUTS as 1NPUTS, TIMEOUT as TIME0UT): the same words renderedAttribute finds in
// plain ASCII.
const INLINE_ATTRIBUTE = /(?:^|[^A-Za-z0-9_"'])(CHECK|EXPECT|CWD|DEPENDS|[I1]NPUTS|T[I1]ME[O0]UT|EV[I1]DENCE)[ \t]*:/;
// Text in which nothing renders differently from its source and no character is a look-alike
// beyond those digits: printable ASCII without escapes, references, emphasis, code, HTML or links.
const PLAIN_TEXT = /^[\x20-\x7e\t]*$/;
const MARKUP_CHAR = /[\\&*_~`<[\]]/;
/** Before an attribute name on the page: the line's start or anything but a letter, a digit, `_` or a quote ("CHECK:" in quotes is text). */
const NOT_BEFORE_NAME = lazyRegExp(() => /[\p{L}\p{N}_"'\u2018\u2019\u201c\u201d]/u);
/** Inside a name: letters, digits, marks and invisible characters (a blank-looking symbol such as U+2800 ends it). */
const NAME_CHAR = lazyRegExp(() => /[\p{L}\p{N}\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}]/u);

export interface InlineAttribute {
  /** The attribute it reads as. */
  name: AttributeKey;
  /** 0-based index in the source of the text. */
  index: number;
  /** How it differs from a plain "NAME:" (empty when it is one): markup, look-alike characters. */
  written: string;
}

/**
 * An attribute name and its colon written inside a gate's title, a note or a value, as the
 * page shows it. GitHub shows the lines of a gate as one paragraph, so "- [x] G1: tests pass
 * CHECK: npm test EXPECT: ok" looks exactly like a runnable gate whose CHECK and EXPECT are
 * on their own lines; gate-check reads a manual gate. So does "CHECK&#58;", "*C*HECK:",
 * "<kbd>CHECK</kbd>:", "C&shy;HECK:", a Cyrillic С or a fullwidth colon, and "&nbsp;CHECK:"
 * at a note's start: the text is decoded as a renderer decodes it, invisible characters are
 * dropped, look-alikes read as the letters they look like (UTS #39), and any colon-like
 * character counts. Names read in upper case only ("check:" in prose is not one).
 */
export function inlineAttribute(text: string): InlineAttribute | null {
  // A colon on the page comes from a ':' in the source, a character reference or a non-ASCII
  // character: without any of them (a regex EXPECT full of backslashes), no name can show.
  if (!text.includes(':') && !text.includes('&') && PLAIN_TEXT.test(text)) return null;
  if (PLAIN_TEXT.test(text) && !MARKUP_CHAR.test(text)) {
    const m = INLINE_ATTRIBUTE.exec(text);
    if (!m) return null;
    // Digits for letters (1NPUTS) are rare: described as any look-alike is.
    if (!(ATTRIBUTE_KEYS as readonly string[]).includes(m[1]!)) return inlineAttributeAsRendered(text);
    return { name: m[1] as AttributeKey, index: m.index + m[0].indexOf(m[1]!), written: '' };
  }
  return inlineAttributeAsRendered(text);
}

/** inlineAttribute without its shortcuts for plain text (the property test compares the two). */
export function inlineAttributeAsRendered(text: string): InlineAttribute | null {
  const shown = renderedLine(text);
  const t = shown.text;
  for (let c = 0; c < t.length; c++) {
    // Every colon-like character is in the BMP: one UTF-16 unit.
    if (!isColonLike(t[c])) continue;
    // Back over blanks, then over the name (at most MAX_NAME code points).
    let end = c;
    while (end > 0 && /\s/.test(t[end - 1]!)) end--;
    let begin = end;
    let count = 0;
    while (begin > 0 && count <= MAX_NAME && nameCharBefore(t, begin) && !isColonLike(t[begin - 1])) {
      begin -= isLowSurrogate(t.charCodeAt(begin - 1)) && begin > 1 ? 2 : 1;
      count++;
    }
    if (begin === end || count > MAX_NAME) continue;
    if (begin > 0 && NOT_BEFORE_NAME().test(charBefore(t, begin))) continue;
    const word = t.slice(begin, end);
    // Upper case as it reads: no lower-case letter in any script.
    if (word !== word.toUpperCase()) continue;
    const name = attributeOf(word);
    if (name === null) continue;
    const colon = t[c]!;
    const how: string[] = [];
    if (word !== name) how.push(`"${shownName(word)}" (look-alike or invisible characters)`);
    if (colon !== ':') how.push(`${codePointLabel(colon)} for ':'`);
    const from = shown.sources[begin]!;
    const to = c + colon.length < t.length ? shown.sources[c + colon.length]! : text.length;
    const source = text.slice(from, to);
    if (!source.startsWith(t.slice(begin, c + colon.length))) how.push(`with ${renderedLine(source).markup.join(', ')}`);
    return { name, index: shown.sources[begin]!, written: how.join(', ') };
  }
  return null;
}

/** The attribute a word reads as (its skeleton is the attribute's), or null. */
function attributeOf(word: string): AttributeKey | null {
  if ((ATTRIBUTE_KEYS as readonly string[]).includes(word)) return word as AttributeKey;
  const skeleton = attributeSkeleton(word);
  skeletons ??= ATTRIBUTE_KEYS.map((k) => [k, attributeSkeleton(k)]);
  for (const [key, keySkeleton] of skeletons) if (skeleton === keySkeleton) return key;
  return null;
}

const isLowSurrogate = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/** The code point that ends right before `at`. */
function charBefore(t: string, at: number): string {
  return isLowSurrogate(t.charCodeAt(at - 1)) && at > 1 ? t.slice(at - 2, at) : t[at - 1]!;
}

/** A letter, digit, mark or invisible character, or a symbol that is a letter in another form (Ⓒ, 🄲). */
function nameCharBefore(t: string, at: number): boolean {
  const ch = charBefore(t, at);
  return NAME_CHAR().test(ch) || (ch.charCodeAt(0) > 0x7f && LETTER().test(ch.normalize('NFKD')));
}

const LETTER = lazyRegExp(() => /\p{L}/u);
