// The job summary as it was before a run started its checks (GitHub Actions), for
// ci-outputs.ts to put back before it appends its table. Its own module: the run path notes it
// at start, while the CI outputs' modules load only when a report is written.
import { resolve } from 'node:path';
import { lstatOrNull, safeReadFile } from '../fsx/safe-read.js';

/** Largest job summary kept before the checks run: GitHub drops a step's summary over 1 MiB whole. */
const MAX_SUMMARY_KEPT = 1024 * 1024;

/** The job summary before any check ran: its path, bytes and permission bits (noteSummaryBeforeChecks). */
export interface SummaryBefore {
  path: string;
  bytes: Buffer;
  mode: number;
}

/** Taken once by writeCiOutputs. */
let summaryBefore: SummaryBefore | null = null;

/**
 * Notes what the job summary holds before a run starts its checks. A check runs as the same
 * user as gate-check and can read the path from gate-check's own environment in /proc, though
 * checks run without it: what it wrote there (a green table, then an unclosed `<!--` that hid
 * gate-check's own: round-39w W1) is removed before gate-check appends its table.
 */
export function noteSummaryBeforeChecks(env: NodeJS.ProcessEnv, cwd: string): void {
  summaryBefore = null;
  if (env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_STEP_SUMMARY) return;
  const path = resolve(cwd, env.GITHUB_STEP_SUMMARY);
  // None yet: it must still hold nothing when gate-check appends. One that cannot be read
  // whole (over the cap, not a regular file) is left to the append's own refusals.
  if (lstatOrNull(path) === null) summaryBefore = { path, bytes: Buffer.alloc(0), mode: 0o644 };
  else {
    try {
      const read = safeReadFile(path, MAX_SUMMARY_KEPT, 'job summary');
      summaryBefore = { path, bytes: read.bytes, mode: read.mode & 0o777 };
    } catch {
      summaryBefore = null;
    }
  }
}

/** The note of noteSummaryBeforeChecks, once (a second report of the same process gets none). */
export function takeSummaryBefore(): SummaryBefore | null {
  const before = summaryBefore;
  summaryBefore = null;
  return before;
}
