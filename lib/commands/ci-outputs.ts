// Outputs beyond stdout: --junit FILE (atomically), and on GitHub Actions the workflow
// annotations and the step summary. Neither target may be a ledger or lie in the private
// store (report-targets.ts); the step summary must be a regular file.
import { resolve } from 'node:path';
import type { Io } from '../program/io.js';
import { appendNoFollow } from '../fsx/append-file.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { githubAnnotations, githubStepSummary } from '../report/github.js';
import { renderJunit } from '../report/junit.js';
import type { Report } from '../report/model.js';
import type { EmitOptions } from './emit.js';
import { reportTargetGuard, type ReportTargetGuard } from './report-targets.js';
import { takeSummaryBefore } from './summary-before.js';

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
      let restored = false;
      const restoreTo = before !== null && before.path === target ? { bytes: before.bytes, onRestored: () => void (restored = true) } : undefined;
      const table = githubStepSummary(report, options.strict);
      appendNoFollow(target, table, restoreTo === undefined ? { refuse: guarded().refuse } : { refuse: guarded().refuse, restoreTo });
      if (restored) io.stderr('gate-check: the job summary was written to while the checks ran; that text was removed before gate-check wrote its table\n');
    }
  }
}
