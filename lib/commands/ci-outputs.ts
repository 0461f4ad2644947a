// Outputs beyond stdout: --junit FILE (atomically), and on GitHub Actions the workflow
// annotations and the step summary. Neither target may be a ledger or lie in the private
// store (report-targets.ts); the step summary must be a regular file.
import { resolve } from 'node:path';
import type { Io } from '../program/io.js';
import { appendNoFollow } from '../fsx/append-file.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { heldStats, holdsWhatItHeld, releaseHeld, rewriteHeld, rewriteInPlace, stillNames } from '../fsx/held-file.js';
import { systemError } from '../fsx/write-error.js';
import { UnsafeFileError } from '../errors.js';
import { sanitizeLine } from '../text/sanitize.js';
import { githubAnnotations, githubErrorSummary, githubStepSummary } from '../report/github.js';
import { renderJunit } from '../report/junit.js';
import type { Report } from '../report/model.js';
import type { EmitOptions } from './emit.js';
import { reportTargetGuard, type ReportTargetGuard } from './report-targets.js';
import { takeSummaryBefore, type SummaryBefore } from './summary-before.js';

/** The note when a check had changed the job summary; "table" or "error" follows. */
const PUT_BACK = 'gate-check: the job summary was changed while the checks ran; it was put back as it was before they started, then gate-check wrote its';

/** Whether `path` is a regular file (not a link) holding exactly `bytes`. */
function holdsExactly(path: string, bytes: Buffer): boolean {
  try {
    return safeReadFile(path, bytes.length, 'job summary').bytes.equals(bytes);
  } catch {
    return false;
  }
}

/**
 * A run that ends with an error after noting the job summary (its checks may have run): the
 * summary is put back as it was before them, with a section that says the run stopped and
 * gives no verdict, so that a table a check forged there does not stand (round-39z, left in
 * the last note). Best effort: the error itself is what the run reports.
 */
export function writeSummaryAfterError(known: Pick<Report, 'root' | 'files'>, mode: string, message: string, exitCode: number, io: Io): void {
  const before = takeSummaryBefore();
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (before === null || io.env.GITHUB_ACTIONS !== 'true' || !summary) return;
  try {
    const target = resolve(io.cwd, summary);
    const guard = reportTargetGuard(known, io.env);
    guard.checkPath(target);
    if (putBack(before, target, githubErrorSummary(mode, message, exitCode), guard)) io.stderr(`${PUT_BACK} error\n`);
  } catch (e) {
    io.stderr(`gate-check: the job summary could not be written (${sanitizeLine(systemError(e), 600)})\n`);
  }
}

export function writeCiOutputs(report: Report, options: EmitOptions, io: Io): void {
  const before = takeSummaryBefore();
  let guard: ReportTargetGuard | null = null;
  const guarded = () => (guard ??= reportTargetGuard(report, io.env));
  if (options.junit !== undefined) {
    const target = resolve(io.cwd, options.junit);
    guarded().checkPath(target);
    atomicWriteFile(target, renderJunit(report, options.strict), { mode: 0o644, create: true, refuse: guarded().refuse });
  }
  if (io.env.GITHUB_ACTIONS === 'true') {
    // With --json, stdout carries the JSON document: annotations go to stderr (the runner reads both).
    const lines = githubAnnotations(report, options.strict);
    if (lines.length > 0) (options.json ? io.stderr : io.stdout)(lines.join('\n') + '\n');
    const summary = io.env.GITHUB_STEP_SUMMARY;
    if (summary) {
      const target = resolve(io.cwd, summary);
      guarded().checkPath(target);
      const table = githubStepSummary(report, options.strict);
      if (before !== null && before.path === target) {
        if (putBack(before, target, table, guarded())) io.stderr(`${PUT_BACK} table\n`);
      } else {
        appendNoFollow(target, table, { refuse: guarded().refuse });
      }
    }
  }
}

/**
 * Puts the job summary back as it was before the checks ran (summary-before.ts), with
 * `section` after it; true when a check had changed it.
 * Noted before the checks ran: through the descriptor held since, whatever a check did to the
 * file's or its folder's mode (rounds 39x X2, 39y Y3); else by a rename over whatever a check
 * put in its place (a link, a FIFO, another file: round 39x X2). A rename never writes through
 * into another file.
 */
function putBack(before: SummaryBefore, target: string, section: string, guard: ReportTargetGuard): boolean {
  const data = Buffer.concat([before.bytes, Buffer.from(section, 'utf8')]);
  const held = before.held;
  let restored: boolean;
  try {
    if (held !== null && stillNames(held, target)) {
      // Held since before the checks, under whatever name: never a ledger (a hard link to one).
      const refusal = guard.refuse(heldStats(held));
      if (refusal !== null) throw new UnsafeFileError(target, refusal);
      restored = !holdsWhatItHeld(held);
      try {
        rewriteHeld(held, data);
      } catch (e) {
        throw new UnsafeFileError(target, `cannot write (${systemError(e)})`);
      }
    } else {
      restored = !holdsExactly(target, before.bytes);
      // A file renamed into its place is written into when it can be (its folder's write
      // permission may be gone: round-39z Z2); anything else is replaced by a rename.
      if (!rewriteInPlace(target, data, guard.refuse)) atomicWriteFile(target, data, { mode: before.mode, create: true, replaceAnything: true });
    }
  } finally {
    if (held !== null) releaseHeld(held);
  }
  return restored;
}
