// The job summary as it was before a run started its checks (GitHub Actions), for
// ci-outputs.ts to put back before it appends its table. Its own module: the run path notes it
// at start, while the CI outputs' modules load only when a report is written.
import { resolve } from 'node:path';
import { holdFile, type HeldFile } from '../fsx/held-file.js';
import { lstatOrNull } from '../fsx/safe-read.js';

/** Largest job summary kept before the checks run: GitHub drops a step's summary over 1 MiB whole. */
const MAX_SUMMARY_KEPT = 1024 * 1024;

/** The job summary before any check ran (noteSummaryBeforeChecks). */
export interface SummaryBefore {
  path: string;
  bytes: Buffer;
  mode: number;
  /** The file, held open for writing since then (none when there was no file yet). */
  held: HeldFile | null;
}

/** Taken once by writeCiOutputs. */
let summaryBefore: SummaryBefore | null = null;

/**
 * Notes what the job summary holds before a run starts its checks, and holds it open. A check
 * runs as the same user as gate-check and can read the path from gate-check's own environment
 * in /proc, though checks run without it: what it wrote there (a green table, then an
 * unclosed `<!--` that hid gate-check's own: round-39w W1) is removed before gate-check
 * appends its table, through the descriptor held since (a check that then took the file's
 * or its folder's write permission away: rounds 39x X2, 39y Y3), or by a rename over what it
 * put in the file's place.
 */
export function noteSummaryBeforeChecks(env: NodeJS.ProcessEnv, cwd: string): void {
  summaryBefore = null;
  if (env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_STEP_SUMMARY) return;
  const path = resolve(cwd, env.GITHUB_STEP_SUMMARY);
  // None yet: it must still hold nothing when gate-check appends. One that cannot be held
  // (over the cap, not a regular file) is left to the append's own refusals.
  if (lstatOrNull(path) === null) summaryBefore = { path, bytes: Buffer.alloc(0), mode: 0o644, held: null };
  else {
    const held = holdFile(path, MAX_SUMMARY_KEPT);
    summaryBefore = held === null ? null : { path, bytes: held.bytes, mode: held.mode, held };
  }
}

/** The note of noteSummaryBeforeChecks, once (a second report of the same process gets none). */
export function takeSummaryBefore(): SummaryBefore | null {
  const before = summaryBefore;
  summaryBefore = null;
  return before;
}

/** Whether a note of the job summary waits to be taken (a run that stops early writes it back). */
export function summaryNoted(): boolean {
  return summaryBefore !== null;
}
