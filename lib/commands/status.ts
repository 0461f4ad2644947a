// --status: parse and report. Never executes, approves, locks, writes or creates anything.
import type { Io } from '../cli/io.js';
import type { RunOptions } from '../cli/options.js';
import { gateReport, outcomeExitCode, REPORT_SCHEMA, summarize, type Report } from '../report/model.js';
import { renderJson } from '../report/json.js';
import { renderStatusText } from '../report/text.js';
import { loadWorkspace } from '../workspace/load.js';

export function statusCommand(options: RunOptions, io: Io): number {
  const ws = loadWorkspace({ root: options.root, scope: options.scope, files: options.files, cwd: io.cwd });
  const gates = ws.ledgers.flatMap((l) => l.ledger.gates.map((g) => gateReport(l.location.display, l.stem, g)));
  const report: Report = {
    schema: REPORT_SCHEMA,
    mode: 'status',
    exitCode: outcomeExitCode(gates),
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    summary: summarize(gates),
    warnings: ws.warnings,
    errors: [],
    gates,
  };
  io.stdout(options.json ? renderJson(report) : renderStatusText(report));
  return report.exitCode;
}
