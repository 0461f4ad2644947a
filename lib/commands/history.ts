// gate-check history [ID]: the recent attempts of each gate from the audit log, labelled
// flaky (passed and failed under the same oracle and INPUTS) or stuck (the same failure again and
// again). Labels inform; they never change pass or fail. Reads only; creates nothing.
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UsageError } from '../errors.js';
import { resolveRoot } from '../fsx/discover.js';
import { labelHistory, STUCK_AFTER, type AttemptEvent, type GateHistory } from '../history/event.js';
import { HistoryLog } from '../history/log.js';
import { LedgerPresence, type Presence } from '../history/presence.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine, terminalSafeJson } from '../text/sanitize.js';
import { guardLineStart } from '../text/workflow-commands.js';

interface HistoryOptions {
  root?: string;
  json?: boolean;
  limit?: string;
}

const PRESENCE_LABEL: Record<Presence, string | null> = {
  present: null,
  removed: 'no longer in its ledger (removed or renamed)',
  'ledger-gone': 'its ledger is gone',
  unknown: null,
};

/** What the header of a gate says besides its name: whether it is still there, flaky, stuck (nothing when none applies). */
function labels(h: GateHistory, presence: Presence): string {
  const out: string[] = [];
  const gone = PRESENCE_LABEL[presence];
  if (gone !== null) out.push(gone);
  if (h.flaky) out.push('flaky (passed and failed under the same oracle and INPUTS)');
  if (h.stuck) out.push(`stuck (the same failure ${h.stuckCount} times in a row)`);
  return out.length > 0 ? `  ${out.join(', ')}` : '';
}

function attemptLine(a: AttemptEvent): string {
  const parts = [a.time, a.status.padEnd(5), a.exit === null ? 'exit=-' : `exit=${a.exit}`, a.durationMs === null ? '' : `${a.durationMs} ms`, `oracle ${a.oracle}`];
  if (a.fingerprint) parts.push(`failure ${a.fingerprint}`);
  if (a.cause === 'changed-files') parts.push('the check passed and changed files (--assert-clean)');
  // The audit log is read as hostile: nothing in it may start an output line with "::".
  return '  ' + guardLineStart(parts.filter(Boolean).map((p) => sanitizeLine(p, 80)).join('  '));
}

export async function historyCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('history', 'Recent attempts of each gate from the audit log, labelled flaky or stuck.');
  program
    .argument('[id]', 'a gate id (STEM:ID, or ID)')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .option('--limit <n>', 'attempts shown per gate (default 10)')
    .option('--json', 'print one JSON document');
  const parsed = parseSubcommand<HistoryOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const { options } = parsed;
  const id = parsed.args[0];
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes a whole number from 1 to 1000');
  const root = resolveRoot(options.root, io.cwd);
  const log = HistoryLog.open(storeLocations(io.env), root.path, false);
  const { events, malformed } = log ? log.read() : { events: [], malformed: 0 };

  const byGate = new Map<string, AttemptEvent[]>();
  for (const e of events) {
    if (id !== undefined && e.gate !== id && !e.gate.endsWith(`:${id}`)) continue;
    byGate.set(e.gate, [...(byGate.get(e.gate) ?? []), e]);
  }
  const histories = [...byGate].map(([gate, attempts]) => labelHistory(gate, attempts));
  // A gate is where its latest attempt says it was.
  const ledgers = new LedgerPresence(root.path);
  const presence = new Map(histories.map((h) => [h.gate, ledgers.of(h.attempts[h.attempts.length - 1]!.file, h.gate)]));

  if (options.json) {
    io.stdout(
      terminalSafeJson({
        schema: 'gate-check/history@1',
        root: root.path,
        stuckAfter: STUCK_AFTER,
        malformedLines: malformed,
        gates: histories.map((h) => ({ gate: h.gate, presence: presence.get(h.gate)!, flaky: h.flaky, stuck: h.stuck, stuckCount: h.stuckCount, attempts: h.attempts.slice(-limit) })),
      }) + '\n',
    );
    return 0;
  }
  const out: string[] = [];
  if (histories.length === 0) out.push(id === undefined ? 'no attempts recorded for this repository' : `no attempts recorded for ${sanitizeLine(id, 80)}`);
  for (const h of histories) {
    out.push(`${guardLineStart(sanitizeLine(h.gate, 120))}${labels(h, presence.get(h.gate)!)}  (${h.attempts.length} attempt${h.attempts.length === 1 ? '' : 's'})`);
    for (const a of h.attempts.slice(-limit)) out.push(attemptLine(a));
  }
  if (malformed > 0) out.push(`warning: ${malformed} malformed line${malformed === 1 ? '' : 's'} in the audit log were ignored`);
  io.stdout(out.join('\n') + '\n');
  return 0;
}
