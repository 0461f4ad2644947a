// --status: parse and report. Never executes, approves, locks, writes or creates anything.
// Met gates have their evidence verified (receipts, DEPENDS, recorded environment): reading
// files and the private store is not executing.
import type { Io } from '../cli/io.js';
import type { RunOptions } from '../cli/options.js';
import { gateReport, ledgerRevisions, outcomeExitCode, REPORT_SCHEMA, summarize, type Report } from '../report/model.js';
import { renderStatusText } from '../report/text.js';
import { loadWorkspace } from '../workspace/load.js';
import { emitReport } from './emit.js';

export async function statusCommand(options: RunOptions, io: Io): Promise<number> {
  const ws = loadWorkspace({ root: options.root, scope: options.scope, files: options.files, cwd: io.cwd });
  const entries = ws.ledgers.flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
  if (entries.some((e) => e.report.state === 'met')) {
    const { readOnlyContext, verifyMetGates } = await import('../cli/lazy.js');
    await verifyMetGates(entries, readOnlyContext(ws, io));
  }
  if (entries.some((e) => e.report.state === 'unmet' && (e.gate.depends !== null || e.gate.inputs !== null))) {
    const { markNotRunnableYet } = await import('../cli/lazy.js');
    await markNotRunnableYet(entries, ws.root.path);
  }
  const gates = entries.map((e) => e.report);
  const report: Report = {
    schema: REPORT_SCHEMA,
    mode: 'status',
    exitCode: outcomeExitCode(gates, options.strict),
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    ledgers: ledgerRevisions(ws.ledgers.map((l) => ({ display: l.location.display, source: l.source }))),
    shard: null,
    summary: summarize(gates),
    warnings: ws.warnings,
    errors: [],
    gates,
  };
  await emitReport(report, options, io, () => renderStatusText(report, options.strict));
  return report.exitCode;
}
