// The default mode, --approve and --reverify: select gates, build their oracles, settle
// approvals, run what is approved under the supervisor, write evidence back in batches, and
// report in ledger order. Nothing runs without an approval of its exact oracle.
import { realpathSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ApprovalStore } from '../approval/store.js';
import type { Io } from '../cli/io.js';
import type { RunOptions } from '../cli/options.js';
import { InterruptedError, RunSetupError, UsageError } from '../errors.js';
import { formatEvidence, pathFingerprint } from '../evidence/line.js';
import { writeResults, type PendingWrite, type StaleResult } from '../evidence/writeback.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { gateState } from '../ledger/state.js';
import type { Gate } from '../ledger/types.js';
import { changedFields, shortSignature, type Oracle } from '../oracle/oracle.js';
import { OracleResolver } from '../oracle/resolve.js';
import { renderJson } from '../report/json.js';
import { emptyResult, gateReport, REPORT_SCHEMA, summarize, type GateReport, type GateResult, type Mode, type Report } from '../report/model.js';
import { approvalRequestText, diagnosticLines, resultLine } from '../report/run-text.js';
import { formatDiagnostic, summaryLines, cappedIds } from '../report/text.js';
import { DEFAULT_REGEX_CAP_MS, matchExpect } from '../run/expect-match.js';
import { runInOrder } from '../run/scheduler.js';
import { shardOf } from '../run/shard.js';
import { resolveShell, type ShellInvocation } from '../run/shell.js';
import { DEFAULT_OUTPUT_CAP, RunningChecks, superviseCheck, type CheckOutcome } from '../run/supervisor.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { loadWorkspace, type LoadedLedger } from '../workspace/load.js';

/** Set in every check's environment: a nested `gate-check --approve` refuses. */
export const ACTIVE_CHECK_ENV = 'GATE_CHECK_ACTIVE_CHECK';
/** Results are written at most this long after they arrive (one write per ledger per batch). */
const FLUSH_DELAY_MS = 1000;

interface Entry {
  loaded: LoadedLedger;
  gate: Gate;
  qualified: string;
  report: GateReport;
  oracle: Oracle | null;
  approved: boolean;
}

interface Attempt {
  result: GateResult;
  output: string;
  write: PendingWrite | null;
}

function modeOf(o: RunOptions): Mode {
  return o.reverify ? 'reverify' : o.approve ? 'approve' : 'run';
}

function canonicalDirectory(raw: string, cwd: string, label: string): string {
  const lexical = resolve(cwd, raw);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    throw new RunSetupError(`${label} ${lexical} does not exist`);
  }
  if (!statSync(real).isDirectory()) throw new RunSetupError(`${label} ${lexical} is not a directory`);
  return real;
}

/** Writes results per ledger in batches, under the ledger's lock, one batch in flight per ledger. */
class BatchWriter {
  private readonly pending = new Map<LoadedLedger, PendingWrite[]>();
  private readonly inFlight = new Map<LoadedLedger, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private failure: unknown = null;
  readonly written = new Set<string>();
  readonly stale = new Map<string, string>();

  constructor(
    private readonly resolver: OracleResolver,
    private readonly lockTimeoutMs: number,
  ) {}

  add(loaded: LoadedLedger, write: PendingWrite): void {
    const list = this.pending.get(loaded) ?? [];
    list.push(write);
    this.pending.set(loaded, list);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flushAll().catch(() => {});
    }, FLUSH_DELAY_MS);
  }

  private flushOne(loaded: LoadedLedger): Promise<void> {
    const previous = this.inFlight.get(loaded) ?? Promise.resolve();
    const next = previous.then(async () => {
      const writes = this.pending.get(loaded) ?? [];
      this.pending.delete(loaded);
      if (writes.length === 0) return;
      const outcome = await writeResults(
        loaded.location.path,
        writes,
        (ledger, gate, original) => this.resolver.changesSince({ ...loaded, ledger }, gate, original),
        this.lockTimeoutMs,
      );
      for (const id of outcome.written) this.written.add(`${loaded.stem}:${id}`);
      for (const s of outcome.stale as StaleResult[]) this.stale.set(`${loaded.stem}:${s.gateId}`, s.reason);
    });
    const guarded = next.catch((e) => {
      this.failure ??= e;
    });
    this.inFlight.set(loaded, guarded);
    return guarded;
  }

  async flushAll(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await Promise.all([...new Set([...this.pending.keys(), ...this.inFlight.keys()])].map((l) => this.flushOne(l)));
    if (this.failure) throw this.failure;
  }
}

function describeFailure(o: CheckOutcome, timeoutMs: number, outputCap: number): string | null {
  switch (o.failure) {
    case 'timeout':
      return `timed out after ${timeoutMs / 1000} s (process group killed)`;
    case 'overflow':
      return `output exceeded the cap of ${outputCap} bytes (process group killed)`;
    case 'spawn':
      return `could not start the shell: ${o.spawnError ?? 'unknown error'}`;
    case 'interrupted':
      return 'interrupted';
    case 'escaped':
      return 'the output stayed open after the shell exited: a process left the check\'s process group (setsid or a daemon) and holds it; that process was not killed';
    case null:
      break;
  }
  if (o.signal) return `killed by ${o.signal}`;
  if (o.exitCode !== 0) return `exit ${o.exitCode}`;
  return null;
}

export async function runCommand(options: RunOptions, io: Io): Promise<number> {
  const mode = modeOf(options);
  if (options.approve && io.env[ACTIVE_CHECK_ENV]) {
    throw new RunSetupError(`--approve refused inside a running check (${ACTIVE_CHECK_ENV}=${sanitizeLine(io.env[ACTIVE_CHECK_ENV] ?? '', 80)}): a check must never approve checks`);
  }
  const ws = loadWorkspace({ root: options.root, scope: options.scope, files: options.files, cwd: io.cwd });
  const shell: ShellInvocation = resolveShell(options.shell, io.env, io.cwd);
  const timeoutMs = options.timeoutSeconds * 1000;
  const resolver = new OracleResolver({
    root: ws.root.path,
    explicit: ws.explicit,
    shell: shell.path,
    timeoutMs,
    outputCap: DEFAULT_OUTPUT_CAP,
    regexCapMs: DEFAULT_REGEX_CAP_MS,
    platform: process.platform,
    path: io.env.PATH ?? null,
    defaultCwd: options.cwd !== undefined ? canonicalDirectory(options.cwd, io.cwd, '--cwd') : null,
  });
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  const print = (text: string) => {
    if (!options.json) io.stdout(text);
  };

  // Every gate, in ledger order; the shard keeps only its share of the runnable ones.
  let entries: Entry[] = ws.ledgers.flatMap((loaded) =>
    loaded.ledger.gates.map((gate) => ({ loaded, gate, qualified: `${loaded.stem}:${gate.id}`, report: gateReport(loaded.location.display, loaded.stem, gate), oracle: null, approved: false })),
  );
  if (options.shard) {
    const { index, count } = options.shard;
    entries = entries.filter((e) => e.gate.kind === 'runnable' && shardOf(e.qualified, count) === index);
  }
  const candidates = entries.filter((e) => {
    if (e.gate.kind !== 'runnable') return false;
    const state = gateState(e.gate);
    if (state === 'abandoned') return false;
    return options.reverify || state !== 'met';
  });

  // Oracles first: a gate that cannot be resolved stops the run before anything executes.
  for (const e of candidates) e.oracle = await resolver.resolve(e.loaded, e.gate);

  const store = ApprovalStore.open(storeLocations(io.env), ws.root.path, true);
  store.verify();
  for (const e of candidates) e.approved = store.find(e.oracle!) !== null;
  store.verify();

  // Pins: every pin must name a candidate whose current signature starts with it.
  let toApprove: Entry[] = [];
  const shown = new Set<Entry>();
  if (options.pins.length > 0) {
    for (const pin of options.pins) {
      const matches = pin.id.includes(':') ? entries.filter((e) => e.qualified === pin.id) : entries.filter((e) => e.gate.id === pin.id);
      if (matches.length > 1) throw new UsageError(`--approve ${pin.id}@${pin.prefix}: ${pin.id} names gates in several ledgers; qualify it (${matches.map((m) => m.qualified).join(', ')})`);
      const entry = matches[0];
      if (!entry || entry.gate.kind !== 'runnable') throw new RunSetupError(`--approve ${sanitizeLine(pin.id, 80)}@${pin.prefix}: no runnable gate ${sanitizeLine(pin.id, 80)} to approve here; nothing was run`);
      if (!entry.oracle) entry.oracle = await resolver.resolve(entry.loaded, entry.gate);
      if (!entry.oracle.signature.startsWith(pin.prefix)) {
        throw new RunSetupError(
          `--approve ${entry.qualified}@${pin.prefix}: the oracle changed since it was displayed (now @${shortSignature(entry.oracle.signature)}); nothing was approved or run`,
          'run gate-check again to see the current command, and review it before approving',
        );
      }
      if (!toApprove.includes(entry)) toApprove.push(entry);
    }
  } else if (options.approve) {
    const pending = candidates.filter((e) => !e.approved);
    if (io.interactive && !options.json) {
      let all = false;
      for (const e of pending) {
        if (!all) {
          shown.add(e);
          const prev = store.previous(e.oracle!.fields.ledger, e.gate.id, e.oracle!.signature, e.oracle!.fields.check, e.oracle!.fields.expect);
          io.stdout(approvalRequestText(e.qualified, e.oracle!, e.gate.line, e.loaded.location.display, prev ? changedFields(prev.oracle, e.oracle!.fields) : null));
          const answer = ((await io.ask('approve? [y/N/a] ')) ?? '').trim().toLowerCase();
          if (answer === 'a' || answer === 'all') all = true;
          else if (answer !== 'y' && answer !== 'yes') continue;
        }
        toApprove.push(e);
      }
    } else {
      toApprove = pending;
    }
  }
  const now = new Date();
  for (const e of toApprove) {
    await store.approve(e.oracle!, now, lockTimeoutMs);
    e.approved = true;
  }

  // Unapproved oracles are shown in full and not run.
  for (const e of candidates) {
    if (e.approved) continue;
    const prev = store.previous(e.oracle!.fields.ledger, e.gate.id, e.oracle!.signature, e.oracle!.fields.check, e.oracle!.fields.expect);
    const changed = prev ? changedFields(prev.oracle, e.oracle!.fields) : null;
    e.report.result = { ...emptyResult('approval-required', gateState(e.gate) === 'met' ? 'reverify not run: approval required' : 'approval required', e.oracle!.signature), changed };
    if (shown.has(e)) print(`not approved: ${sanitizeLine(e.qualified, 120)}\n`);
    else print(approvalRequestText(e.qualified, e.oracle!, e.gate.line, e.loaded.location.display, changed));
  }

  // Run what is approved.
  const runnable = candidates.filter((e) => e.approved);
  const running = new RunningChecks();
  const writer = new BatchWriter(resolver, lockTimeoutMs);
  let interrupted = false;
  let failed = false;
  const onSignal = () => {
    if (!interrupted) io.stderr('gate-check: interrupted; killing running checks\n');
    interrupted = true;
    running.abortAll();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const attempts: (Attempt | undefined)[] = [];
  // One plain copy for the whole run (spreading process.env costs a native call per variable);
  // only the marker changes per check, and spawn() copies the environment synchronously.
  const checkEnv: NodeJS.ProcessEnv = { ...io.env };
  try {
    const results = await runInOrder(
      runnable.length,
      async (i) => {
        const e = runnable[i]!;
        const attempt = await attemptGate(e, shell, checkEnv, running);
        if (attempt.result.status === 'fail') failed = true;
        if (attempt.write) writer.add(e.loaded, attempt.write);
        return attempt;
      },
      {
        jobs: options.jobs,
        mayStart: () => !interrupted && !(options.failFast && failed),
        onOrdered: (i, attempt) => {
          const e = runnable[i]!;
          if (attempt.result.error === 'interrupted') return;
          e.report.result = attempt.result;
          if (options.json) return;
          print(resultLine(e.report) + '\n');
          if (attempt.result.status === 'fail') print(diagnosticLines(attempt.output).join('\n') + '\n');
        },
      },
    );
    attempts.push(...results);
    await writer.flushAll();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  // Final states: what was written is what the ledger now says.
  const unfinished: string[] = [];
  runnable.forEach((e, i) => {
    const attempt = attempts[i];
    if (!attempt || attempt.result.error === 'interrupted') {
      unfinished.push(e.qualified);
      e.report.result = emptyResult('not-run', interrupted ? 'interrupted before it finished' : 'not started (--fail-fast)', e.oracle!.signature);
      if (!interrupted) print(resultLine(e.report) + '\n');
      return;
    }
    const staleReason = writer.stale.get(e.qualified);
    if (staleReason !== undefined) {
      e.report.result = { ...attempt.result, status: 'stale', error: staleReason };
      print(resultLine(e.report) + '\n');
    } else if (writer.written.has(e.qualified)) {
      e.report.state = attempt.result.status === 'pass' ? 'met' : 'unmet';
      e.report.checked = attempt.result.status === 'pass';
    }
  });

  const gates = entries.map((e) => e.report);
  const effectivelyMet = (g: GateReport) => g.state === 'met' && (g.result === null || g.result.status === 'pass');
  const exitCode = interrupted ? 130 : gates.length > 0 && gates.every(effectivelyMet) ? 0 : gates.length === 0 ? 0 : 1;
  const report: Report = {
    schema: REPORT_SCHEMA,
    mode,
    exitCode,
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    summary: summarize(gates),
    warnings: ws.warnings,
    errors: [],
    gates,
  };
  if (options.json) {
    io.stdout(renderJson(report));
  } else {
    const out: string[] = [];
    for (const w of ws.warnings) out.push(formatDiagnostic(w, 'warning'));
    if (options.shard && entries.length === 0) out.push(`shard ${options.shard.index}/${options.shard.count} has no gates; nothing to run`);
    if (interrupted && unfinished.length > 0) out.push(`NOT FINISHED: ${cappedIds(unfinished)}`);
    out.push(...summaryLines(gates, (g) => !effectivelyMet(g)));
    const pending = entries.filter((e) => e.report.result?.status === 'approval-required');
    if (pending.length > 0) {
      const pins = pending.map((e) => `${e.qualified}@${shortSignature(e.oracle!.signature)}`);
      out.push(`APPROVAL REQUIRED: ${cappedIds(pins)}`);
      out.push(`  review each command above, then approve exactly those: gate-check --approve ${pins.length <= 5 ? sanitizeLine(pins.join(','), 600) : '<ID@HEX,...>'}`);
    }
    io.stdout(out.join('\n') + '\n');
  }
  if (interrupted) throw new InterruptedError(`interrupted: ${unfinished.length} check${unfinished.length === 1 ? '' : 's'} did not finish; nothing partial was written`);
  return exitCode;
}

async function attemptGate(e: Entry, shell: ShellInvocation, env: NodeJS.ProcessEnv, running: RunningChecks): Promise<Attempt> {
  const oracle = e.oracle!;
  const f = oracle.fields;
  const outcome = await superviseCheck(
    {
      shell: shell.path,
      args: shell.args(f.check),
      cwd: f.cwd,
      env: Object.assign(env, { [ACTIVE_CHECK_ENV]: e.qualified }),
      timeoutMs: f.timeoutMs,
      outputCap: f.outputCap,
    },
    running,
  );
  const output = outcome.output.toString('utf8');
  const base: GateResult = {
    status: 'fail',
    exit: outcome.exitCode,
    outputSha256: outcome.overflowed ? null : outcome.sha256,
    bytes: outcome.bytes,
    durationMs: outcome.durationMs,
    error: null,
    signature: oracle.signature,
    changed: null,
  };
  if (outcome.failure === 'interrupted') return { result: { ...base, error: 'interrupted' }, output, write: null };
  let error = describeFailure(outcome, f.timeoutMs, f.outputCap);
  if (error === null) {
    const m = matchExpect(e.gate.expect!, output, f.regexCapMs);
    if (!m.ok) error = m.error;
    else if (!m.matched) error = `EXPECT not found in the output (${outcome.bytes} bytes)`;
  }
  if (error !== null) {
    return { result: { ...base, error }, output, write: { gateId: e.gate.id, oracle, edit: { id: e.gate.id, checked: false, evidence: 'pending' } } };
  }
  const evidence = formatEvidence({
    exit: 0,
    sha256: outcome.sha256,
    bytes: outcome.bytes,
    shell: f.shell,
    cwd: relative(dirname(f.ledger), f.cwd).split('\\').join('/') || '.',
    path: pathFingerprint(f.path),
  });
  return { result: { ...base, status: 'pass' }, output, write: { gateId: e.gate.id, oracle, edit: { id: e.gate.id, checked: true, evidence } } };
}
