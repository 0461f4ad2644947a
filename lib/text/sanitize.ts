// The one sanitizer for every piece of repository text that reaches a terminal.
// strip-ansi removes escape sequences; what it leaves (lone C0/C1 controls, DEL, bidi
// overrides, line/paragraph separators) is removed here. Lengths are capped by code point.
import stripAnsi from 'strip-ansi';

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

function capCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cheap pre-cut, then an exact cut that never splits a surrogate pair.
  const points = Array.from(text.slice(0, max * 2 + 2));
  if (points.length <= max) return points.join('');
  return points.slice(0, Math.max(0, max - 1)).join('') + ELLIPSIS;
}

/** One line of untrusted text: escapes and controls removed, tabs and newlines as spaces, capped. */
export function sanitizeLine(text: string, max = 200): string {
  // Bound the work before stripping: a megabyte title is cut first.
  const bounded = text.length > max * 8 + 64 ? text.slice(0, max * 8 + 64) : text;
  const cleaned = stripAnsi(bounded).replace(/[\t\n]/g, ' ').replace(UNSAFE, '');
  return capCodePoints(cleaned, max);
}

/**
 * Several lines of untrusted text (a failure diagnostic): each line sanitized and capped; when
 * there are more than maxLines, the first and last lines are kept around an omission marker.
 */
export function sanitizeBlock(text: string, maxLines = 20, maxLineLength = 200): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  let kept = lines;
  let omitted = 0;
  if (lines.length > maxLines) {
    const head = Math.ceil(maxLines / 2);
    const tail = maxLines - head;
    omitted = lines.length - maxLines;
    kept = [...lines.slice(0, head), '\u0000OMIT', ...lines.slice(lines.length - tail)];
  }
  return kept.map((l) => (l === '\u0000OMIT' ? `[… ${omitted} lines omitted …]` : sanitizeLine(l, maxLineLength)));
}

/** JSON text safe to print on a terminal: the data stays exact, dangerous code points become \u escapes. */
export function terminalSafeJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g,
    (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}
