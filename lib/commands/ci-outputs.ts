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
import { githubAnnotations, githubStepSummary } from '../report/github.js';
import { renderJunit } from '../report/junit.js';
import type { Report } from '../report/model.js';
import type { EmitOptions } from './emit.js';
import { reportTargetGuard, type ReportTargetGuard } from './report-targets.js';
import { takeSummaryBefore } from './summary-before.js';

/** Whether `path` is a regular file (not a link) holding exactly `bytes`. */
function holdsExactly(path: string, bytes: Buffer): boolean {
  try {
    return safeReadFile(path, bytes.length, 'job summary').bytes.equals(bytes);
  } catch {
    return false;
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
        // Noted before the checks ran: the file is put back as it was then, with the table
        // after it (summary-before.ts): through the descriptor held since, whatever a check did
        // to the file's or its folder's mode (rounds 39x X2, 39y Y3); else by a rename over
        // whatever a check put in its place (a link, a FIFO, another file: round 39x X2). A
        // rename never writes through into another file.
        const data = Buffer.concat([before.bytes, Buffer.from(table, 'utf8')]);
        const held = before.held;
        let restored: boolean;
        try {
          if (held !== null && stillNames(held, target)) {
            // Held since before the checks, under whatever name: never a ledger (a hard link to one).
            const refusal = guarded().refuse(heldStats(held));
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
            if (!rewriteInPlace(target, data, guarded().refuse)) atomicWriteFile(target, data, { mode: before.mode, create: true, replaceAnything: true });
          }
        } finally {
          if (held !== null) releaseHeld(held);
        }
        if (restored) io.stderr('gate-check: the job summary was changed while the checks ran; it was put back as it was before they started, then gate-check wrote its table\n');
      } else {
        appendNoFollow(target, table, { refuse: guarded().refuse });
      }
    }
  }
}
