// The action's verdict from what gate-check returned and printed. "met" needs exit 0 AND a
// report of the mode and shard that were asked for, saying exit 0: a run that printed help,
// or anything but that report, is an error, never a pass. Pure.
import type { Report } from '../report/model.js';
import { parseReport } from '../report/parse-report.js';
import type { ActionInputs } from './inputs.js';

export type Verdict = 'met' | 'unmet' | 'error';

export interface ActionVerdict {
  verdict: Verdict;
  /** What the action step exits with: 0 met, 1 unmet, gate-check's own code (2, 130) or 2 for an error. */
  exitCode: number;
  report: Report | null;
  /** Why the result is an error although gate-check exited 0 or 1. */
  problem: string | null;
}

function error(code: number, report: Report | null, problem: string | null): ActionVerdict {
  return { verdict: 'error', exitCode: code >= 2 ? code : 2, report, problem };
}

export function actionVerdict(code: number, stdout: string, inputs: Pick<ActionInputs, 'mode' | 'shard'>): ActionVerdict {
  const parsed = parseReport(stdout);
  if (!parsed.ok) return error(code, null, code >= 2 ? null : `gate-check exited ${code} without a report (${parsed.reason})`);
  const report = parsed.report;
  if (code >= 2) return error(code, report, null);
  if (report.mode !== inputs.mode) return error(code, report, `the report is of mode ${report.mode}, not ${inputs.mode}`);
  if (report.exitCode !== code) return error(code, report, `gate-check exited ${code}, but its report says ${report.exitCode}`);
  const want = inputs.shard;
  const got = report.shard;
  if (inputs.mode !== 'merge' && (want === null ? got !== null : got === null || got.index !== want.index || got.count !== want.count)) {
    return error(code, report, `the report covers shard ${got ? `${got.index}/${got.count}` : 'none'}, not ${want ? `${want.index}/${want.count}` : 'none'}`);
  }
  if (code === 0) return { verdict: 'met', exitCode: 0, report, problem: null };
  if (code === 1) return { verdict: 'unmet', exitCode: 1, report, problem: null };
  return error(code, report, `unexpected exit code ${code}`);
}
