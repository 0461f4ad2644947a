// The action's part of the job summary: the verdict, and what the annotations could not
// show. GitHub drops a step summary over 1 MiB whole, so the action lets gate-check write
// its table (at most SUMMARY_CAP_BYTES) only while that and these notes fit, and adds the
// notes only where they fit. Untrusted text is escaped as literal Markdown. Pure.
import { markdownText, SUMMARY_CAP_BYTES } from '../report/github.js';
import { sanitizeLine } from '../text/sanitize.js';
import { PER_JOB, PER_STEP_PER_TYPE } from './annotations.js';
import type { Verdict } from './verdict.js';

/** GitHub's limit for one step's summary. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;
/** Room kept for the action's notes. */
export const NOTES_RESERVE = 4096;

/** Whether gate-check may write its table into a summary that already holds `bytes`. */
export function tableFits(bytes: number): boolean {
  return bytes + SUMMARY_CAP_BYTES + NOTES_RESERVE <= STEP_SUMMARY_LIMIT;
}

export function notesFit(bytes: number, notes: string): boolean {
  return bytes + Buffer.byteLength(notes) <= STEP_SUMMARY_LIMIT;
}

export interface NotesInput {
  verdict: Verdict;
  exitCode: number;
  mode: string;
  shard: { index: number; count: number } | null;
  /** Gates this run answers for, and those of them not met. */
  gates: number;
  notMet: readonly string[];
  /** Of the gates not met, those with an annotation on their line in this step. */
  annotated: number;
  held: number;
  jobUsedBefore: number;
  /** Why the verdict is an error, from gate-check or the action. */
  problem: string | null;
  /** Bytes the summary held when the table was refused (null: the table was written). */
  tableRefusedAt: number | null;
}

const kib = (n: number) => `${Math.floor(n / 1024)} KiB`;

export function actionNotes(n: NotesInput): string {
  const where = [`mode ${n.mode}`, ...(n.shard ? [`shard ${n.shard.index}/${n.shard.count}`] : [])].join(', ');
  const lines = ['', '#### gate-check action', '', `**Verdict: ${n.verdict}** (exit ${n.exitCode}; ${where})`, ''];
  if (n.problem !== null) lines.push(`- ${markdownText(sanitizeLine(n.problem, 600))}`);
  if (n.tableRefusedAt !== null) {
    lines.push(`- The gate table was not written: this step's summary already held ${kib(n.tableRefusedAt)} of GitHub's 1 MiB. Every gate is in the JUnit file and the JSON report (step outputs junit and report).`);
  }
  if (n.notMet.length > 0) {
    const without = n.notMet.length - n.annotated;
    lines.push(
      `- ${n.notMet.length} of ${n.gates} gates not met; ${n.annotated} with an annotation on its ledger line` +
        (without > 0 ? `, ${without} without one (GitHub shows at most ${PER_STEP_PER_TYPE} errors and ${PER_STEP_PER_TYPE} warnings per step and ${PER_JOB} annotations per job): see the table above and the JUnit file.` : '.'),
    );
  }
  if (n.held > 0) {
    const reason = n.jobUsedBefore > 0 ? `; earlier steps of this job had made ${n.jobUsedBefore} of its ${PER_JOB}` : '';
    lines.push(`- ${n.held} annotation${n.held === 1 ? ' was' : 's were'} held back to stay within GitHub's caps${reason}.`);
  }
  return lines.join('\n') + '\n';
}
