// The approval screen's view of a changed DEPENDS file: a unified diff between the approved
// version (a copy kept in the private store) and the file now, so that the person reviews the
// change, not the whole file. Pure. Bounded: a few edits' worth of diff work and of lines;
// past that, or for a binary file, it says so and the person reads the file. Every line is
// shown as the rest of the screen shows text: non-ASCII as <U+XXXX>, controls escaped.
import { structuredPatch } from 'diff';
import { reviewLine, shownInFull } from '../text/review-text.js';

export interface DependsChange {
  path: string;
  /** The approved version, or null when no copy of it is kept. */
  approved: Buffer | null;
  /** The file now, or null when it cannot be read (or is over the copy cap). */
  now: Buffer | null;
  /** False when the file read now is not the version hashed into the oracle being approved (it changed in between). */
  nowIsApproved: boolean;
}

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

/** The screen lines for one file (already indented), how many of them are lines of diff, and whether a changed line was cut. */
function fileLines(c: DependsChange, budget: number): { lines: string[]; used: number; cut: boolean } {
  const cut = { changedLine: false };
  const lines = fileScreen(c, budget, cut);
  return { lines, used: lines.filter((l) => l.startsWith('  | ') && !l.startsWith('  | … ')).length, cut: cut.changedLine };
}

function fileScreen(c: DependsChange, budget: number, cut: { changedLine: boolean }): string[] {
  const head = `  DIFF    ${shown(c.path)}`;
  if (c.approved === null) return [`${head}: no copy of the approved version is kept (approved before copies were kept, over 256 KiB, past the first 64 files, or the copy was altered or removed): read the whole file`];
  if (c.now === null) return [`${head}: cannot be read now (missing, unsafe or over 256 KiB): read it before approving`];
  // A diff of another version than the one hashed into this oracle would show the person something else than they approve.
  if (!c.nowIsApproved) return [`${head}: changed while this screen was being made, so the diff is not shown: run again once the file holds still`];
  const before = asText(c.approved);
  const after = asText(c.now);
  if (before === null || after === null) return [`${head}: binary file: ${c.approved.length} bytes approved, ${c.now.length} bytes now; the diff is not shown: read the whole file`];
  const patch = structuredPatch(c.path, c.path, before, after, 'approved', 'now', { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  if (patch === undefined) return [`${head}: changed too much for a diff (over ${MAX_EDIT_LENGTH} lines inserted or deleted): read the whole file`];
  const body: string[] = [];
  for (const h of patch.hunks) {
    // As diff(1) writes it: a hunk of no lines starts one line lower.
    body.push(`@@ -${h.oldLines === 0 ? h.oldStart - 1 : h.oldStart},${h.oldLines} +${h.newLines === 0 ? h.newStart - 1 : h.newStart},${h.newLines} @@`);
    for (const l of h.lines) body.push(l);
  }
  if (body.length === 0) return [`${head}: the same text (only its line ends differ)`];
  const limit = Math.min(DIFF_LINES_PER_FILE, budget);
  const out = [`${head} (approved version, then now):`];
  for (const l of body.slice(0, limit)) {
    out.push(`  | ${shown(l)}`);
    if (shownInFull(l, LINE_CAP)) continue;
    // Two lines that differ past the cut would look the same: said, and such a diff is not approved at the prompt.
    out.push(`  | … that line is ${l.length - 1} characters; not all of it is shown here`);
    if (l.startsWith('+') || l.startsWith('-')) cut.changedLine = true;
  }
  if (body.length > limit) out.push(`  | … ${body.length - limit} more diff lines not shown: read the whole file`);
  return out;
}

/** Every changed file's diff, in the order given, within DIFF_LINES_TOTAL lines of diff. */
export function dependsDiffLines(changes: readonly DependsChange[]): string[] {
  return dependsDiff(changes).lines;
}

/** The screen lines, and the files with a changed line too long to show in full (not approved at the prompt). */
export function dependsDiff(changes: readonly DependsChange[]): { lines: string[]; cut: string[] } {
  const out: string[] = [];
  const cutFiles: string[] = [];
  let left = DIFF_LINES_TOTAL;
  for (const c of changes) {
    if (left <= 0) {
      out.push(`  DIFF    ${changes.length - changes.indexOf(c)} more changed files not shown: read them before approving`);
      break;
    }
    const { lines, used, cut } = fileLines(c, left);
    out.push(...lines);
    if (cut) cutFiles.push(c.path);
    left -= used;
  }
  return { lines: out, cut: cutFiles };
}
