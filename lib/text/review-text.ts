// Ledger text shown to a person who decides on it (the approval screen, `hook accept`,
// `diff`): non-ASCII as <U+XXXX> (a Cyrillic "с" or a zero-width space must not pass for
// ASCII), long runs of blanks as <N spaces> (they would push the rest of a value off the
// screen), and a "<" that would read as one of those escapes escaped itself. Pure.
import { sanitizeLine, visibleNonAscii } from './sanitize.js';

/** The width the screen is made for when it is not a terminal (a pipe or a file is read at 80 columns), and the widest it uses. */
export const SCREEN_COLUMNS = 80;
/** Narrower terminals are not followed below this. */
const MIN_COLUMNS = 20;
/** The mark of a row that goes on with the line above it. */
const CONTINUED = '  ~ ';

/** The width the screen's rows are made to for a terminal of `columns`: the terminal's, from 20 to 80 columns. */
export function screenWidth(columns: number): number {
  return Math.max(MIN_COLUMNS, Math.min(SCREEN_COLUMNS, Math.floor(columns)));
}

/**
 * A line of the screen as rows no wider than `width`: a longer line goes on in rows marked
 * "  ~ ". The terminal then wraps none of them, so no text of a line can start a row that
 * reads as one of the screen's own (`  EXPECT  …`, a context line of a diff). Text reaching
 * here is sanitized; a character outside ASCII counts as two columns (a wide one may be).
 */
export function screenRows(line: string, width: number): string[] {
  if (line.length <= width && /^[\x20-\x7e]*$/.test(line)) return [line];
  const rows: string[] = [];
  let row = '';
  let used = 0;
  for (const ch of line) {
    const w = ch <= '\x7e' ? 1 : 2;
    if (used + w > width && used > CONTINUED.length) {
      rows.push(row);
      row = CONTINUED;
      used = CONTINUED.length;
    }
    row += ch;
    used += w;
  }
  rows.push(row);
  return rows;
}

/** Runs of blanks that wrap a terminal line: shown as <N spaces>, so that what follows them cannot pass for the screen's own rows. */
const BLANK_RUN = / {8,}/g;
/** A "<" that begins what the screen's escapes look like: <U+XXXX>, <N spaces>. */
const ESCAPE_LOOKALIKE = /<(?=U\+[0-9A-Fa-f]{1,6}>|\d{1,7} spaces>)/g;

/**
 * A field as the screen shows it: non-ASCII as <U+XXXX> (a Cyrillic "с" or a zero-width
 * space must not pass for ASCII), long runs of blanks as <N spaces>.
 */
export function displayed(value: string): { text: string; escaped: number; runs: number; literal: number } {
  // A "<" written in the field that would read as one of these escapes is escaped itself,
  // so that `<9 spaces>` or `<U+0441>` on the screen always means what it says.
  const literal = value.includes('<') ? (value.match(ESCAPE_LOOKALIKE)?.length ?? 0) : 0;
  const shown = visibleNonAscii(literal === 0 ? value : value.replace(ESCAPE_LOOKALIKE, '<U+003C>'));
  const runs = shown.text.match(BLANK_RUN)?.length ?? 0;
  return { text: runs === 0 ? shown.text : shown.text.replace(BLANK_RUN, (r) => `<${r.length} spaces>`), escaped: shown.escaped, runs, literal };
}

/** Whether a field fits its line: what is shown, cleaned, within the cap. */
export function shownInFull(value: string, cap: number): boolean {
  if (value.length <= cap && /^[\x20-\x7e]*$/.test(value) && !value.includes('        ') && !value.includes('<')) return true;
  return Array.from(sanitizeLine(displayed(value).text, Number.MAX_SAFE_INTEGER)).length <= cap;
}

/** One value on one line as a reviewer sees it, at most `cap` characters. */
export function reviewLine(value: string, cap: number): string {
  return sanitizeLine(displayed(value).text, cap);
}

/** Notes on what reviewLine changed or cut, for the line under it (empty when nothing). */
export function reviewNotes(value: string, cap: number, what: string): string[] {
  const shown = displayed(value);
  const out: string[] = [];
  if (!shownInFull(value, cap)) out.push(`(${what} is ${value.length} characters; not all of it is shown here)`);
  if (shown.escaped > 0) out.push(`(${what} has ${shown.escaped} non-ASCII character${shown.escaped === 1 ? '' : 's'}, shown as <U+XXXX>)`);
  if (shown.runs > 0) out.push(`(${what} has ${shown.runs} run${shown.runs === 1 ? '' : 's'} of 8 or more spaces, shown as <N spaces>)`);
  if (shown.literal > 0) out.push(`(${what} has ${shown.literal} "<" that would read as an escape, shown as <U+003C>)`);
  return out;
}
