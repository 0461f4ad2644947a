// --status: parse and report. Never executes, approves, locks, writes or creates anything.
// Met gates have their evidence verified (receipts, DEPENDS, recorded environment): reading
// files and the private store is not executing.
import type { Io } from '../program/io.js';
import type { RunOptions } from '../program/run-options.js';
import { mayHaveDispatchState } from '../dispatch/location.js';
import { gateReport, ledgerRevisions, NO_TREE, outcomeExitCode, REPORT_SCHEMA, summarize, treeMet, type Report, type TreeVerdict } from '../report/model.js';
import { renderStatusText } from '../report/text.js';
import { storeLocations } from '../store/locations.js';
import { inWorkspace, type Workspace } from '../workspace/load.js';
import { emitReport } from './emit.js';

/** Waves and other scopes: loaded only when the tree has scopes or dispatch state (the common status path stays lean). */
async function treeOf(ws: Workspace, io: Io, strict: boolean): Promise<TreeVerdict> {
  const selection = ws.selection;
  if (selection === undefined || selection.kind === 'files') return NO_TREE;
  const needed = selection.kind === 'scope' || selection.scopes.length > 0 || mayHaveDispatchState(storeLocations(io.env), ws.root.path);
  if (!needed) return NO_TREE;
  const { treeVerdict } = await import('./scopes.js');
  return treeVerdict(ws, io, strict ? 'verified' : 'ledger');
}

export async function statusCommand(options: RunOptions, io: Io): Promise<number> {
  return inWorkspace({ root: options.root, scope: options.scope, files: options.files, cwd: io.cwd, env: io.env }, (ws) => statusOf(ws, options, io));
}

async function statusOf(ws: Workspace, options: RunOptions, io: Io): Promise<number> {
  const entries = ws.ledgers.flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
  if (entries.some((e) => e.report.state === 'met')) {
    const { defaultCwdFolder, readOnlyContext, verifyMetGates } = await import('./deferred.js');
    // With --cwd, gates without CWD are read where a run with it would run them.
    const ctx = readOnlyContext(ws, io);
    if (options.cwd !== undefined) ctx.defaultCwd = defaultCwdFolder(options.cwd, io.cwd, ws.root.path);
    await verifyMetGates(entries, ctx);
  }
  if (entries.some((e) => e.report.state === 'unmet' && (e.gate.depends !== null || e.gate.inputs !== null || e.gate.cwd !== null))) {
    const { markNotRunnableYet } = await import('./deferred.js');
    await markNotRunnableYet(entries, ws.root.path);
  }
  const gates = entries.map((e) => e.report);
  const tree = await treeOf(ws, io, options.strict);
  const report: Report = {
    schema: REPORT_SCHEMA,
    mode: 'status',
    exitCode: outcomeExitCode(gates, options.strict) === 0 && treeMet(tree) ? 0 : 1,
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    ledgers: ledgerRevisions(ws.ledgers.map((l) => ({ display: l.location.display, source: l.source }))),
    shard: null,
    ...tree,
    summary: summarize(gates),
    warnings: ws.warnings,
    errors: [],
    gates,
  };
  await emitReport(report, options, io, () => renderStatusText(report, options.strict));
  return report.exitCode;
}
