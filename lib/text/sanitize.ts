// The one sanitizer for every piece of repository text that reaches a terminal.
// strip-ansi removes escape sequences; what it leaves (lone C0/C1 controls, DEL, bidi
// overrides, line/paragraph separators) is removed here. Lengths are capped by code point.
import stripAnsi from 'strip-ansi';
import { lazyRegExp } from './lazy-regexp.js';

// C0 except TAB/LF (handled by the callers), DEL, C1, ALM, LRM/RLM, LS/PS, LRE..RLO, LRI..PDI.
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/;
const ELLIPSIS = '…';

/** Control and bidi characters that must never appear in a command, expectation or path. */
export function findUnsafeChar(text: string): string | null {
  const m = UNSAFE_TEST.exec(text);
  return m ? m[0] : null;
}

/** U+XXXX form of a character, for messages. */
export function codePointLabel(ch: string): string {
  return 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}

// Names of the invisible and control characters a message may have to point at. Others are
// named by their category, which is what the reader needs to know about them.
const NAMES: Record<number, string> = {
  0x09: 'CHARACTER TABULATION', 0x1b: 'ESCAPE', 0x7f: 'DELETE', 0x85: 'NEXT LINE', 0xa0: 'NO-BREAK SPACE', 0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER', 0x61c: 'ARABIC LETTER MARK', 0x115f: 'HANGUL CHOSEONG FILLER', 0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR', 0x2000: 'EN QUAD', 0x2001: 'EM QUAD', 0x2002: 'EN SPACE', 0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE', 0x2005: 'FOUR-PER-EM SPACE', 0x2006: 'SIX-PER-EM SPACE', 0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE', 0x2009: 'THIN SPACE', 0x200a: 'HAIR SPACE', 0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER', 0x200d: 'ZERO WIDTH JOINER', 0x200e: 'LEFT-TO-RIGHT MARK', 0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR', 0x2029: 'PARAGRAPH SEPARATOR', 0x202a: 'LEFT-TO-RIGHT EMBEDDING', 0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING', 0x202d: 'LEFT-TO-RIGHT OVERRIDE', 0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x202f: 'NARROW NO-BREAK SPACE', 0x205f: 'MEDIUM MATHEMATICAL SPACE', 0x2060: 'WORD JOINER', 0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES', 0x2063: 'INVISIBLE SEPARATOR', 0x2064: 'INVISIBLE PLUS', 0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE', 0x2068: 'FIRST STRONG ISOLATE', 0x2069: 'POP DIRECTIONAL ISOLATE', 0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER', 0xfeff: 'ZERO WIDTH NO-BREAK SPACE', 0xffa0: 'HALFWIDTH HANGUL FILLER',
};

/** "U+200B ZERO WIDTH SPACE": the code point and, where known, its name or kind. */
export function codePointName(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const name = NAMES[cp];
  if (name) return `${codePointLabel(ch)} ${name}`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `${codePointLabel(ch)} (a control character)`;
  if (/^\p{Cf}$/u.test(ch)) return `${codePointLabel(ch)} (an invisible format character)`;
  if (/^\p{Zs}$/u.test(ch)) return `${codePointLabel(ch)} (a space other than U+0020)`;
  if (/^\p{Default_Ignorable_Code_Point}$/u.test(ch)) return `${codePointLabel(ch)} (an invisible character)`;
  return codePointLabel(ch);
}

// Shown as nothing or as an ordinary space: Unicode format characters (Cf: zero-width
// spaces and joiners, soft hyphen, BOM, tags), the other default-ignorable code points
// (variation selectors, Hangul fillers), every space but U+0020, and TAB.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const invisibleTest = lazyRegExp(() => /(?! )[\t\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zs}]/u);

/** The first character that would be invisible or look like a plain space to the reader, or null. */
export function findInvisibleChar(text: string): string | null {
  if (PRINTABLE_ASCII.test(text)) return null;
  const m = invisibleTest().exec(text);
  return m ? m[0] : null;
}

/**
 * Every code point outside printable ASCII shown as <U+XXXX>, so that an approver sees
 * "che<U+200B>ck" and "<U+0441>url" where a terminal would draw "check" and "curl".
 */
export function visibleNonAscii(text: string): { text: string; escaped: number } {
  if (/^[\x20-\x7e]*$/.test(text)) return { text, escaped: 0 };
  let out = '';
  let escaped = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else {
      out += `<${codePointLabel(ch)}>`;
      escaped++;
    }
  }
  return { text: out, escaped };
}

function capCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cheap pre-cut, then an exact cut that never splits a surrogate pair.
  const points = Array.from(text.slice(0, max * 2 + 2));
  if (points.length <= max) return points.join('');
  return points.slice(0, Math.max(0, max - 1)).join('') + ELLIPSIS;
}

/** One line of untrusted text: escapes and controls removed, tabs and newlines as spaces, capped. */
export function sanitizeLine(text: string, max = 200): string {
  // Printable ASCII within the cap comes back as it is: no escape sequence, control or tab
  // can be in it (the reports of 5,000 gates spent 1.5 ms cleaning what was clean).
  if (text.length <= max && PRINTABLE_ASCII.test(text)) return text;
  // Bound the work before stripping: a megabyte title is cut first.
  const bounded = text.length > max * 8 + 64 ? text.slice(0, max * 8 + 64) : text;
  const cleaned = stripAnsi(bounded).replace(/[\t\n]/g, ' ').replace(UNSAFE, '');
  // Invisible characters shown as <U+XXXX>: zero-width spaces and joiners, BOM, soft hyphen,
  // Hangul fillers, variation selectors, the blank braille pattern, tag characters (which
  // carry hidden ASCII to a reader or a model reading the log: round-15b F3, round-16 R1).
  return capCodePoints(PRINTABLE_ASCII.test(cleaned) ? cleaned : cleaned.replace(hiddenChars(), (ch) => `<${codePointLabel(ch)}>`), max);
}

const hiddenChars = lazyRegExp(() => /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu);

/**
 * Several lines of untrusted text (a failure diagnostic): each line sanitized and capped; when
 * there are more than maxLines, the first and last lines are kept around omission markers, and
 * with `telling`, also up to `maxTelling` lines between them that it matches (the failing test's
 * name and its expected and actual values, which a runner prints mid-output: round-31b F3).
 */
export function sanitizeBlock(text: string, maxLines = 20, maxLineLength = 200, telling?: RegExp, maxTelling = 10): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length <= maxLines) return lines.map((l) => sanitizeLine(l, maxLineLength));
  const head = Math.ceil(maxLines / 2);
  const tail = maxLines - head;
  const keep = new Set<number>();
  for (let i = 0; i < head; i++) keep.add(i);
  for (let i = lines.length - tail; i < lines.length; i++) keep.add(i);
  if (telling !== undefined) {
    let added = 0;
    for (let i = head; i < lines.length - tail && added < maxTelling; i++) {
      // Bounded: a test is made on the first 400 characters of a line only.
      if (telling.test(lines[i]!.slice(0, 400))) {
        keep.add(i);
        added++;
      }
    }
  }
  const out: string[] = [];
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!keep.has(i)) {
      gap++;
      continue;
    }
    if (gap > 0) out.push(`[… ${gap} line${gap === 1 ? '' : 's'} omitted …]`);
    gap = 0;
    out.push(sanitizeLine(lines[i]!, maxLineLength));
  }
  return out;
}

/** JSON text safe to print on a terminal: the data stays exact, dangerous code points become \u escapes. */
export function terminalSafeJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g,
    (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}
