// The approval screen's view of a changed DEPENDS file: a unified diff between the approved
// version (a copy kept in the private store) and the file now, so that the person reviews the
// change, not the whole file. Pure. Bounded: a few edits' worth of diff work and of lines;
// past that, or for a binary file, it says so and the person reads the file. Every line is
// shown as the rest of the screen shows text: non-ASCII as <U+XXXX>, controls escaped.
import { structuredPatch } from 'diff';
import { reviewLine, SCREEN_COLUMNS, screenRows, screenWidth, shownInFull } from '../text/review-text.js';

export interface DependsChange {
  path: string;
  /** The digest of the file hashed into the oracle being approved. */
  digest: string;
  /** The approved version, or null when no copy of it is kept. */
  approved: Buffer | null;
  /** The file now, or null when it cannot be read (or is over the copy cap). */
  now: Buffer | null;
  /** False when the file read now is not the version hashed into the oracle being approved (it changed in between). */
  nowIsApproved: boolean;
}

/** A file whose change the screen could not show whole, and why (its oracle is approved only by its pin). */
export interface NotShown {
  path: string;
  why: string;
}

/** Files past the screen's lines whose digests are listed. */
const DIGESTS_LISTED = 20;

/** Lines of diff shown per file and in all. */
export const DIFF_LINES_PER_FILE = 80;
export const DIFF_LINES_TOTAL = 240;
/** Beyond this many inserted and deleted lines, the diff is not computed (its cost grows with their product). */
const MAX_EDIT_LENGTH = 2000;
const LINE_CAP = 200;

function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  const text = bytes.toString('utf8');
  // Not UTF-8: shown as a binary file rather than as replacement characters.
  return Buffer.byteLength(text, 'utf8') === bytes.length && !text.includes('\uFFFD') ? text : null;
}

function shown(line: string): string {
  return reviewLine(line, LINE_CAP);
}

/**
 * A diff row: wrapped at the screen's width (the terminal's, 20 to 80 columns), so that no
 * row the terminal wraps can pass for a line of the diff (a 60-column pane would otherwise
 * start a row with the tail of the line before).
 */
function rows(line: string, width: number): string[] {
  return screenRows(`  | ${shown(line)}`, width);
}

interface FileScreen {
  lines: string[];
  /** Why the change is not shown whole, or null when it is. */
  notShown: string | null;
}

/** The screen lines for one file (already indented), how many of them are lines of diff, and what was not shown. */
function fileLines(c: DependsChange, budget: number, width: number): FileScreen & { used: number } {
  const screen = fileScreen(c, budget, width);
  const lines = screen.notShown === null ? screen.lines : [...screen.lines, `          the version being approved has SHA-256 ${c.digest}: copy the file, check the copy's sha256sum, read the copy, then approve by the pin`];
  return { lines, notShown: screen.notShown, used: lines.filter((l) => l.startsWith('  | ') && !l.startsWith('  | … ')).length };
}

function fileScreen(c: DependsChange, budget: number, width: number): FileScreen {
  const head = `  DIFF    ${shown(c.path)}`;
  const partial = (line: string, why: string): FileScreen => ({ lines: [`${head}: ${line}`], notShown: why });
  if (c.approved === null) return partial('no copy of the approved version is kept (approved before copies were kept, over 256 KiB, past the first 64 files, or the copy was altered or removed): read the whole file', 'no diff');
  if (c.now === null) return partial('cannot be read now (missing, unsafe or over 256 KiB): read it before approving', 'cannot be read');
  // A diff of another version than the one hashed into this oracle would show the person something else than they approve.
  if (!c.nowIsApproved) return partial('changed while this screen was being made, so the diff is not shown: run again once the file holds still', 'changed while shown');
  const before = asText(c.approved);
  const after = asText(c.now);
  if (before === null || after === null) return partial(`binary file: ${c.approved.length} bytes approved, ${c.now.length} bytes now; the diff is not shown: read the whole file`, 'binary');
  const patch = structuredPatch(c.path, c.path, before, after, 'approved', 'now', { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  if (patch === undefined) return partial(`changed too much for a diff (over ${MAX_EDIT_LENGTH} lines inserted or deleted): read the whole file`, 'no diff');
  const body: string[] = [];
  for (const h of patch.hunks) {
    // As diff(1) writes it: a hunk of no lines starts one line lower.
    body.push(`@@ -${h.oldLines === 0 ? h.oldStart - 1 : h.oldStart},${h.oldLines} +${h.newLines === 0 ? h.newStart - 1 : h.newStart},${h.newLines} @@`);
    for (const l of h.lines) body.push(l);
  }
  // An empty file added (nothing approved under that name): all there is to read is shown.
  if (c.approved.length === 0 && c.now.length === 0) return { lines: [`${head}: an empty file`], notShown: null };
  // No line differs, yet the bytes do (CRLF for LF): a shell reads the CR, the screen shows nothing of it.
  if (body.length === 0) return partial('the same text but for its line ends (a shell reads a CR as part of the line): read the whole file', 'line ends only');
  const limit = Math.min(DIFF_LINES_PER_FILE, budget);
  const out = [c.approved.length === 0 ? `${head} (the whole file, as it is now):` : `${head} (approved version, then now):`];
  let notShown: string | null = null;
  for (const l of body.slice(0, limit)) {
    out.push(...rows(l, width));
    if (shownInFull(l, LINE_CAP)) continue;
    // Two lines that differ past the cut would look the same: said, and such a diff is not approved at the prompt.
    out.push(`  | … that line is ${l.length - 1} characters; not all of it is shown here`);
    if (l.startsWith('+') || l.startsWith('-')) notShown = 'a changed line too long for the screen';
  }
  if (body.length > limit) {
    out.push(`  | … ${body.length - limit} more diff lines not shown: read the whole file`);
    notShown = 'more diff lines than the screen shows';
  }
  return { lines: out, notShown };
}

/** Every changed file's diff, in the order given, within DIFF_LINES_TOTAL lines of diff. */
export function dependsDiffLines(changes: readonly DependsChange[], columns = SCREEN_COLUMNS): string[] {
  return dependsDiff(changes, columns).lines;
}

/** The screen lines, and the files whose change is not shown whole (their oracle is not approved at the prompt). */
export function dependsDiff(changes: readonly DependsChange[], columns = SCREEN_COLUMNS): { lines: string[]; notShown: NotShown[] } {
  const width = screenWidth(columns);
  const out: string[] = [];
  const notShown: NotShown[] = [];
  let left = DIFF_LINES_TOTAL;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (left <= 0) {
      out.push(`  DIFF    ${changes.length - i} more changed files not shown: read them before approving; the versions being approved:`);
      const rest = changes.slice(i);
      for (const r of rest.slice(0, DIGESTS_LISTED)) out.push(`          ${shown(r.path)}: SHA-256 ${r.digest}`);
      if (rest.length > DIGESTS_LISTED) out.push(`          (+${rest.length - DIGESTS_LISTED} more)`);
      for (const r of rest) notShown.push({ path: r.path, why: 'not shown (past the screen\'s lines)' });
      break;
    }
    const screen = fileLines(c, left, width);
    out.push(...screen.lines);
    if (screen.notShown !== null) notShown.push({ path: c.path, why: screen.notShown });
    left -= screen.used;
  }
  return { lines: out, notShown };
}
