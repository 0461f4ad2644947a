// The part of a verdict beyond the report's own gates (issue 12 §1, §3): the waves of the
// chosen scope, and, unless a scope was chosen (--scope, GATE_CHECK_SCOPE) or files were
// named, every other scope of the tree: its gates (read and verified as --status does,
// never run) and its waves, including the waves of a scope whose folder is gone. A verdict
// over the root ledgers can then never say ALL MET while a scope is unmet. Read-only.
//
// How strictly the other scopes' gates are read follows the command: --status as the ledger
// says; --status --strict, plain runs and the commands whose verdict is a re-run (--reverify,
// its shards, merge) by evidence verified here, so hand-written or copied evidence counts
// nowhere. A re-run does not run other scopes: their gates count by a run of this machine
// (`--reverify --scope ID` before it, in CI in the same job), which is verified evidence here.
// (Counting only runs of the command itself made a tree with a runnable scope gate unmet for
// good: no command could run it in that verdict, round-41a F3.)
import type { Io } from '../program/io.js';
import { dispatchScopes, loadDispatchState } from '../dispatch/store.js';
import { waveReports, wavesVerdictOf, type WaveReport } from '../dispatch/verdict.js';
import { listScopes, resolveRoot, type Root } from '../fsx/discover.js';
import { gateReport, strictlyMet, summarize, type GateReport, type ScopeReport, type TreeVerdict } from '../report/model.js';
import { storeLocations } from '../store/locations.js';
import { loadWorkspace, selectLedgers, type Workspace } from '../workspace/load.js';
import { readOnlyContext, verifyMetGates, type GateEntry } from '../evidence/verify-met.js';
import type { RunOptions } from '../program/run-options.js';
import { terminalSafeJson, sanitizeLine } from '../text/sanitize.js';
import { currentInvocation } from '../program/invocation.js';
import { shellCommand } from '../text/shell-quote.js';

/** How the other scopes' gates count: as the ledger says, or by evidence verified here (a plain run's, or a re-run's verdict, whose note differs). */
export type ScopeFold = 'ledger' | 'verified' | 'rerun';

/** Most scopes the note names a command for. */
const NOTE_SCOPES = 3;

/**
 * Why other scopes can be unmet in a run's verdict, for the text report: the commands that
 * run them, as gate-check was started (`unmet`: the scopes whose gates are not met).
 */
export function otherScopesNote(fold: ScopeFold, unmet: readonly string[], env: NodeJS.ProcessEnv): string {
  const flags = fold === 'rerun' ? ['--reverify', '--scope'] : ['--scope'];
  const start = currentInvocation(env);
  const commands = unmet.slice(0, NOTE_SCOPES).map((scope) => shellCommand([...start, ...flags, scope]) ?? `gate-check ${flags.join(' ')} ${sanitizeLine(scope, 80)}`);
  const more = unmet.length > NOTE_SCOPES ? ` (and ${unmet.length - NOTE_SCOPES} more scopes)` : '';
  return fold === 'rerun'
    ? `note: this command does not run the gates of other scopes, and counts their evidence only when verified here (a run of this machine): run ${commands.join(', ')}${more} first (in CI, in the same job)`
    : `note: this command does not run the gates of other scopes, and counts only evidence verified here: run ${commands.join(', ')}${more}`;
}

function metUnder(fold: ScopeFold): (g: GateReport) => boolean {
  if (fold === 'ledger') return (g) => g.state === 'met';
  return strictlyMet;
}

async function scopeReport(ws: Workspace | null, scope: string, waves: WaveReport[], fold: ScopeFold, io: Io): Promise<ScopeReport> {
  let gates: GateReport[] = [];
  if (ws !== null) {
    const entries: GateEntry[] = ws.ledgers.flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
    if (entries.some((e) => e.report.state === 'met')) await verifyMetGates(entries, readOnlyContext(ws, io));
    gates = entries.map((e) => e.report);
  }
  const met = metUnder(fold);
  const w = wavesVerdictOf(waves);
  const unmet = [...gates.filter((g) => g.state !== 'abandoned' && !met(g)).map((g) => g.qualified), ...w.open];
  const handoff = [...gates.filter((g) => g.state === 'abandoned').map((g) => g.qualified), ...w.handoff];
  const gatesMet = ws === null || (gates.length > 0 && gates.every(met));
  return {
    scope,
    files: ws?.ledgers.map((l) => l.location.display) ?? [],
    exitCode: gatesMet && unmet.length === 0 && handoff.length === 0 ? 0 : 1,
    summary: summarize(gates),
    unmet,
    handoff,
    waves,
  };
}

/** The other scopes with ledgers whose verdict is not met (a note says how to run them). */
export function unmetScopes(tree: TreeVerdict): string[] {
  return tree.scopes.filter((s) => s.exitCode !== 0 && s.files.length > 0).map((s) => s.scope);
}

/** The waves and other scopes a verdict over `ws` covers (nothing for named files). */
export async function treeVerdict(ws: Workspace, io: Io, fold: ScopeFold): Promise<TreeVerdict> {
  const selection = ws.selection;
  if (selection === undefined || selection.kind === 'files') return { scope: null, waves: [], scopes: [] };
  const locations = storeLocations(io.env);
  const root = ws.root.path;
  const chosen = selection.kind === 'scope' ? selection.scope : null;
  const waves = chosen === null ? [] : waveReports(loadDispatchState(locations, root, chosen));
  // A scope chosen by name is a view of that scope. Otherwise the verdict claims the tree.
  if (selection.kind === 'scope' && selection.via !== 'only') return { scope: chosen, waves, scopes: [] };
  const folders = selection.kind === 'root' ? selection.scopes : [];
  const others = [...new Set([...folders, ...dispatchScopes(locations, root)])].filter((s) => s !== chosen).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const scopes: ScopeReport[] = [];
  for (const scope of others) {
    const scopeWaves = waveReports(loadDispatchState(locations, root, scope));
    const hasFolder = folders.includes(scope);
    if (!hasFolder && scopeWaves.length === 0) continue;
    const scopeWs = hasFolder ? loadWorkspace({ root, scope, files: [], cwd: io.cwd }) : null;
    scopes.push(await scopeReport(scopeWs, scope, scopeWaves, fold, io));
  }
  return { scope: chosen, waves, scopes };
}

/** `--list-scopes`: one scope id per line (or JSON), and which one a command would choose. */
export function listScopesCommand(options: RunOptions, io: Io): number {
  const root: Root = resolveRoot(options.root, io.cwd);
  const scopes = listScopes(root);
  let chosen: string | null = null;
  let note: string;
  try {
    const { selection } = selectLedgers(root, { root: options.root, files: [], cwd: io.cwd, env: io.env });
    if (selection.kind === 'scope') {
      chosen = selection.scope;
      note = selection.via === 'environment' ? `GATE_CHECK_SCOPE chooses ${selection.scope}` : `${selection.scope} is the only scope and there is no root ledger, so commands use it`;
    } else {
      note = scopes.length === 0 ? 'no scopes' : `commands use the root ledgers; --status and runs also require every scope to be met`;
    }
  } catch (e) {
    note = `commands refuse to guess: ${(e as Error).message}`;
  }
  if (options.json) {
    io.stdout(terminalSafeJson({ schema: 'gate-check/scopes@1', root: root.path, scopes, chosen }) + '\n');
  } else {
    io.stdout(scopes.map((s) => `${sanitizeLine(s, 80)}\n`).join(''));
    io.stderr(`${sanitizeLine(note, 400)}\n`);
  }
  return 0;
}

