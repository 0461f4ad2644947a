// The default mode, --approve and --reverify: select gates, build their oracles, settle
// approvals, run what is approved under the supervisor, write evidence, receipts and the
// audit log in batches, and report in ledger order. Nothing runs without an approval of its
// exact oracle.
import { statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { assertMayApprove } from '../approval/approver.js';
import { ApprovalStore } from '../approval/store.js';
import type { Io } from '../program/io.js';
import type { RunOptions } from '../program/run-options.js';
import { currentInvocation } from '../program/invocation.js';
import { NotRunnableError, RunSetupError, UsageError } from '../errors.js';
import { BatchWriter, type WriteOutcome } from '../evidence/batch-writer.js';
import { ReceiptStore } from '../evidence/receipt-store.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { writableTree } from '../fsx/repo-root.js';
import { globCanBindLater, isRepositoryDirectory, isRepositoryNonFolder, physicalRepositoryPath, readRepositoryText } from '../fsx/physical-path.js';
import { shellPatternMatches } from '../fsx/shell-pattern.js';
import { publishRunMarker } from '../fsx/run-marker.js';
import { HistoryLog } from '../history/log.js';
import { gateState } from '../ledger/state.js';
import { homeDirectory } from '../oracle/path-bound.js';
import { changedFields, normalizePath, pinSignature, sha256Hex } from '../oracle/oracle.js';
import type { OracleFields } from '../oracle/oracle.js';
import type { Gate } from '../ledger/types.js';
import { approvalViewOf, effectivelyMet, emptyResult, gateReport, INTERRUPTED_BEFORE_END, NOT_STARTED_FAIL_FAST, ledgerRevisions, reranBy, REPORT_SCHEMA, summarize, treeMet, type GateReport, type Mode, type Report } from '../report/model.js';
import { ProgressLine, wantsProgress } from '../report/progress.js';
import { approvalRequestText, approvalSuggestion, diagnosticLines, fieldsCut, resultLine, type ApprovalRequest } from '../report/run-text.js';
import { cappedIds, formatDiagnostic, summaryLines, treeItems, treeLines } from '../report/text.js';
import { interruptedBy, onInterrupt, throwIfInterrupted } from '../run/interrupts.js';
import { planOutputPipes, prefetchOutputPipes } from '../run/output-pipes.js';
import { runInOrder } from '../run/scheduler.js';
import { shardOf } from '../run/shard.js';
import { pidNamespace, runTitle } from '../run/process-tree.js';
import { resolveShell } from '../run/shell.js';
import { RunningChecks } from '../run/supervisor.js';
import { storeLocations } from '../store/locations.js';
import { SCREEN_COLUMNS, screenRows, screenWidth } from '../text/review-text.js';
import { sanitizeLine } from '../text/sanitize.js';
import { shellCommand, shellQuote } from '../text/shell-quote.js';
import { inWorkspace, knownOf, type Workspace } from '../workspace/load.js';
import { EXIT, exitCodeFor } from '../program/exit-codes.js';
import { keepApprovedCopies } from '../approval/depends-copies.js';
import { attemptGate, type Attempt, type Entry, type RunContext } from './attempt.js';
import { emitReport } from './emit.js';
import { noteSummaryBeforeChecks, summaryNoted } from './summary-before.js';
import { preflight, type PreflightContext } from './preflight.js';
import { otherScopesNote, treeVerdict, unmetScopes } from './scopes.js';
import { refuseShellInRepository, runSettings } from './settings.js';
import { verifyMetGates } from '../evidence/verify-met.js';
import { repositoryFolder } from '../evidence/receipt.js';


const OUTPUT_FLUSH_MS = 50;

function modeOf(o: RunOptions): Mode {
  return o.reverify ? 'reverify' : o.approve ? 'approve' : 'run';
}

export async function runCommand(options: RunOptions, io: Io): Promise<number> {
  return inWorkspace({ root: options.root, scope: options.scope, files: options.files, cwd: io.cwd, env: io.env }, (ws) => runWorkspaceNotingErrors(ws, options, io));
}

/** A run that stops with an error once checks may have run puts the job summary back, with no verdict. */
async function runWorkspaceNotingErrors(ws: Workspace, options: RunOptions, io: Io): Promise<number> {
  try {
    return await runWorkspace(ws, options, io);
  } catch (e) {
    if (summaryNoted()) {
      const { writeSummaryAfterError } = await import('./deferred.js');
      const message = e instanceof Error ? e.message : String(e);
      writeSummaryAfterError(knownOf(ws), modeOf(options), message, interruptedBy() === null ? exitCodeFor(e) : EXIT.interrupted, io);
    }
    throw e;
  }
}

async function runWorkspace(ws: Workspace, options: RunOptions, io: Io): Promise<number> {
  const mode = modeOf(options);
  // The chosen scope's waves and, for the root ledgers, every scope: read (never run) before anything runs.
  const fold = options.reverify ? 'rerun' : 'verified';
  const tree = await treeVerdict(ws, io, fold);
  const repoKey = sha256Hex(ws.root.path).slice(0, 16);
  if (options.approve) assertMayApprove(io.env);
  noteSummaryBeforeChecks(io.env, io.cwd);
  // A person at a terminal whose output goes to a pager or a file would approve every pending
  // oracle unseen (`gate-check --approve | less`): only pins, or a script's stdin, may do that.
  // With --json the screen is never shown either.
  if (options.approve && options.pins.length === 0 && io.stdinIsTTY?.() === true && (options.json || !io.interactive())) {
    throw new UsageError(
      `--approve without pins, typed on a terminal ${options.json ? 'with --json' : 'whose output goes to a pipe or a file'}: every pending oracle would be approved without being shown; nothing was approved or run`,
      'run it with its output on the terminal to review and answer each one, or approve exactly what you read with --approve ID@HEX; a script that approves everything runs it with stdin not a terminal (< /dev/null)',
    );
  }
  // A JUnit file whose folder is missing could not be written after every check had run (round-31b F9).
  if (options.junit !== undefined) junitFolderExists(resolve(io.cwd, options.junit));
  // From here on this process may start checks: the title lets a nested --approve inside one
  // of them (even with its environment scrubbed) find that it runs inside a run.
  process.title = runTitle(repoKey);
  const { shell, resolver } = runSettings(options, io, ws);
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  let progress: ProgressLine | null = null;
  // Result lines are gathered and written at most every OUTPUT_FLUSH_MS (and before anything
  // else is written): one write per batch instead of a system call per check.
  let pendingOutput = '';
  let outputTimer: NodeJS.Timeout | null = null;
  const flushOutput = () => {
    if (outputTimer) clearTimeout(outputTimer);
    outputTimer = null;
    if (pendingOutput === '') return;
    progress?.clear();
    io.stdout(pendingOutput);
    pendingOutput = '';
  };
  const print = (text: string) => {
    if (options.json) return;
    pendingOutput += text;
    outputTimer ??= setTimeout(flushOutput, OUTPUT_FLUSH_MS);
  };

  // Every gate, in ledger order. A shard runs (and answers for) only its share of the
  // runnable gates; its report still lists every gate, so that shard reports can be merged.
  const entries: Entry[] = ws.ledgers.flatMap((loaded) =>
    loaded.ledger.gates.map((gate) => ({ loaded, gate, qualified: `${loaded.stem}:${gate.id}`, report: gateReport(loaded.location.display, loaded.stem, gate), oracle: null, approved: false, inputs: null })),
  );
  const shard = options.shard;
  const inScope = (e: Entry) => !shard || (e.gate.kind === 'runnable' && shardOf(e.qualified, shard.count) === shard.index);
  const scope = entries.filter(inScope);

  // The private store: refused (exit 2) before anything runs if it is unsafe.
  const locations = storeLocations(io.env);
  const store = ApprovalStore.open(locations, ws.root.path, true);
  const receipts = ReceiptStore.open(locations, ws.root.path, 'run')!;
  const history = HistoryLog.open(locations, ws.root.path, true)!;
  // Where approvals (and the Stop hook's state) are written, a marker says that checks are
  // running: a nested --approve that hid /proc from itself (another PID namespace) still
  // finds this run.
  publishRunMarker([store.dir.path, locations.base], pidNamespace());

  // Met gates: is their evidence still good? A stale gate is run again, never reported met.
  // (A full --reverify runs every runnable gate anyway: verifying them first would only cost
  // time, and gates it cannot run keep their state and are counted unmet. Its manual gates
  // are verified as any run's: round-41a F1 found their verification missing from its JSON.)
  const toVerify = !options.reverify || options.onlyStale ? scope : scope.filter((e) => e.gate.kind !== 'runnable');
  if (toVerify.length > 0) {
    // Gates without CWD run where this run's --cwd says: a pass made there holds for this run.
    const defaultCwd = resolver.settings.defaultCwd === null ? '.' : repositoryFolder(ws.root.path, resolver.settings.defaultCwd);
    await verifyMetGates(toVerify, { resolver: resolver.files, receipts, approvals: store, defaultCwd });
  }
  // A met gate counts only with evidence verified here; anything else is run again (when
  // approved). --only-stale re-runs exactly the checked gates whose evidence does not hold:
  // stale, mismatched, unverified, or written for another definition of the gate.
  let candidates = scope.filter((e) => {
    if (e.gate.kind !== 'runnable') return false;
    const state = gateState(e.gate);
    if (state === 'abandoned') return false;
    const holds = state === 'met' && e.report.verification === 'verified';
    if (options.onlyStale) return e.gate.checked && !holds;
    if (options.reverify) return true;
    return !holds;
  });

  // The first output pipes are made while the oracles are resolved (lib/run/output-pipes.ts).
  prefetchOutputPipes(candidates.length);

  // Oracles first: a gate that cannot be resolved stops the run before anything executes,
  // except one that names what does not exist yet: that gate is not run, the others are.
  const notYet = new Set<Entry>();
  for (const e of candidates) {
    try {
      e.oracle = await resolver.resolve(e.loaded, e.gate);
      e.inputs = await resolver.inputs(e.gate, e.qualified);
    } catch (err) {
      if (!(err instanceof NotRunnableError)) throw err;
      notYet.add(e);
      e.report.result = emptyResult('not-run', `${err.stateLabel}: ${err.message}`);
    }
  }
  candidates = candidates.filter((e) => !notYet.has(e));
  store.verify();
  for (const e of candidates) e.approved = store.find(e.oracle!) !== null;
  store.verify();

  // The diff of changed DEPENDS files (and jsdiff) is loaded only when something needs approval.
  // So are the scripts the CHECK runs that DEPENDS does not bind (lint's shell reading).
  const needsReview = candidates.some((e) => !e.approved) || options.pins.length > 0;
  const review = needsReview ? (await import('./depends-review.js')).dependsReview : null;
  const scripts = needsReview ? await import('../lint/unbound-scripts.js') : null;
  const naming = needsReview ? await import('../lint/named-files.js') : null;
  const data = needsReview ? { ...(await import('../lint/data-files.js')), ...(await import('../lint/glob.js')) } : null;
  const columns = io.columns?.() ?? SCREEN_COLUMNS;
  let boundHere: Map<string, Set<string>> | null = null;
  const boundElsewhere = () => (boundHere ??= pathBoundByApprovals(store, ws.root.path));
  // The scripts the CHECK runs and the files it names that no DEPENDS binds (lint/unbound-scripts.ts).
  // And where that reading stopped: at what it cannot follow, or at a bound on its work.
  const unboundOf = (f: OracleFields, gate: Gate): { files: string[]; data: string[]; notJudged: string | null } => {
    if (scripts === null || naming === null || data === null) return { files: [], data: [], notJudged: null };
    const matched = (f.depends ?? []).map((d) => d[0]);
    const resolve = (path: string, dir: string) => physicalRepositoryPath(ws.root.path, path, dir, scripts.lexicalPath);
    const runs = scripts.unboundScripts(f.check, ws.root.path, f.cwd, matched, gate.depends, (p) => globCanBindLater(ws.root.path, p), resolve);
    const named = naming.namedFiles(f.check, ws.root.path, f.cwd, matched, gate.depends, {
      isFile: (p) => isRepositoryNonFolder(ws.root.path, p),
      resolve,
      expand: (pattern, dir, folders) => shellPatternMatches(ws.root.path, dir, pattern, folders),
      readText: (p) => readRepositoryText(ws.root.path, p),
    });
    // CDPATH from the environment is bound (bound-env.ts): a `cd NAME` may go where it says.
    const cdpath = (f.env ?? []).some(([name, value]) => name === 'CDPATH' && value !== '');
    // A folder (`node --test test/`) cannot be bound: the files of code in it are named instead (namedFiles).
    // A script named by bare name and not there but in a bound PATH folder (`. suite.sh` finding
    // bin/suite.sh) is bound already: the screen names it on the PATH row (round-27 08).
    const boundBare = new Set((f.pathBound ?? []).map(([p]) => p.slice(p.lastIndexOf('/') + 1)));
    const files = runs.filter((p) => !isRepositoryDirectory(ws.root.path, p) && !(boundBare.has(p.slice(p.lastIndexOf('/') + 1)) && !isRepositoryNonFolder(ws.root.path, p)));
    // What the CHECK only reads as data (grep, cat, test …) is shown apart; as INPUTS, bound
    // enough: its change makes the evidence stale, and no code of it runs (round-38b F3).
    const workdir = repositoryFolder(ws.root.path, f.cwd);
    const reads = data.dataOnlyFiles(f.check, workdir.startsWith('/') ? null : workdir, named.files.filter((p) => !files.includes(p)), resolve);
    const asInputs = (p: string) => (gate.inputs ?? []).some((g) => data.globMatches(g, p));
    const all = [...new Set([...files, ...named.files])].filter((p) => !(reads.has(p) && asInputs(p)));
    return { files: all, data: all.filter((p) => reads.has(p)), notJudged: scripts.unboundNotJudged(f.check, ws.root.path, f.cwd, cdpath, homeDirectory()) ?? named.unread };
  };
  const requestOf = (e: Entry): ApprovalRequest => {
    const f = e.oracle!.fields;
    const prev = store.previous(f.ledger, e.gate.id, e.oracle!.signature, f.check, f.expect, f, writableTree(ws.root.path));
    const diff = review?.(prev, f, locations, ws.root.path, columns, boundElsewhere);
    const unbound = unboundOf(f, e.gate);
    return {
      qualified: e.qualified,
      oracle: e.oracle!,
      file: e.loaded.location.display,
      line: e.gate.line,
      title: e.gate.title,
      gateTimeout: e.gate.timeoutSeconds,
      changed: prev ? changedFields(prev.oracle, f) : null,
      dependsDiff: diff?.lines ?? [],
      dependsNotShown: diff?.notShown ?? [],
      unboundScripts: unbound.files,
      unboundData: unbound.data,
      unboundNotJudged: unbound.notJudged,
    };
  };

  // Pins: every pin must name a gate whose current signature starts with it.
  let toApprove: Entry[] = [];
  const shown = new Set<Entry>();
  if (options.pins.length > 0) {
    for (const pin of options.pins) {
      const matches = pin.id.includes(':') ? entries.filter((e) => e.qualified === pin.id) : entries.filter((e) => e.gate.id === pin.id);
      if (matches.length > 1) throw new UsageError(`--approve ${pin.id}@${pin.prefix}: ${pin.id} names gates in several ledgers; qualify it (${matches.map((m) => m.qualified).join(', ')})`);
      const entry = matches[0];
      if (!entry || entry.gate.kind !== 'runnable') throw new RunSetupError(`--approve ${sanitizeLine(pin.id, 80)}@${pin.prefix}: no runnable gate ${sanitizeLine(pin.id, 80)} to approve here; nothing was run`);
      entry.oracle ??= await resolver.resolve(entry.loaded, entry.gate);
      if (!entry.oracle.signature.startsWith(pin.prefix)) {
        throw new RunSetupError(
          `--approve ${entry.qualified}@${pin.prefix}: the oracle here is @${pinSignature(entry.oracle.signature)}, not the one displayed: the gate changed since, or this command runs with another PATH, environment, --shell, --cwd or --timeout than the one that displayed it; nothing was approved or run`,
          'approve with the same command that will run the checks (run it without --approve to see the oracle it computes), and review the command before approving',
        );
      }
      if (!toApprove.includes(entry)) toApprove.push(entry);
    }
  } else if (options.approve) {
    const pending = candidates.filter((e) => !e.approved);
    if (io.interactive() && !options.json) {
      // Every oracle is shown before it can be approved: `a` first shows all the rest, then
      // asks once for them.
      // An oracle the screen cannot show in full is not approved by a keystroke: it says so
      // and names its pin, for a person who has read it elsewhere (the ledger, --json).
      const show = (e: Entry): boolean => {
        shown.add(e);
        flushOutput();
        const request = requestOf(e);
        io.stdout(approvalRequestText(request, columns));
        const cut = fieldsCut(request);
        if (cut.length === 0) return true;
        const pin = `${sanitizeLine(e.qualified, 120)}@${pinSignature(e.oracle!.signature)}`;
        // The command on a row of its own, to be copied whole; the rest fits the screen like the screen above.
        const why = `not shown in full (${cut.join(', ')}), so not approved at this prompt: read it in full (the ledger, or --json), then approve it by its pin:`;
        io.stdout(`${screenRows(why, screenWidth(columns)).join('\n')}\n  ${shellCommand([...currentInvocation(io.env), '--approve', pin]) ?? `gate-check --approve ${pin}`}\n`);
        return false;
      };
      for (let i = 0; i < pending.length; i++) {
        const e = pending[i]!;
        if (!show(e)) continue;
        const answer = ((await io.ask('approve? [y/N/a] ')) ?? '').trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') {
          toApprove.push(e);
        } else if (answer === 'a' || answer === 'all') {
          toApprove.push(e);
          const rest = pending.slice(i + 1).filter((r) => show(r));
          if (rest.length === 0) break;
          const confirm = ((await io.ask(rest.length === 1 ? 'approve this one as well? [y/N] ' : `approve these ${rest.length} as well? [y/N] `)) ?? '').trim().toLowerCase();
          if (confirm === 'y' || confirm === 'yes') toApprove.push(...rest);
          break;
        }
      }
    } else {
      toApprove = pending;
    }
  }
  const now = new Date();
  throwIfInterrupted();
  for (const e of toApprove) {
    await store.approve(e.oracle!, now, lockTimeoutMs);
    e.approved = true;
    // For the diff shown when a DEPENDS file of it changes later.
    keepApprovedCopies(locations, ws.root.path, e.oracle!.fields.depends);
  }
  // Say what was approved, so that a log shows it (a non-interactive --approve asks nobody).
  if (toApprove.length > 0) print(`approved: ${cappedIds(toApprove.map((e) => `${e.qualified}@${pinSignature(e.oracle!.signature)}`), 20)}\n`);

  // Unapproved oracles are shown in full and not run.
  for (const e of candidates) {
    if (e.approved) continue;
    const request = requestOf(e);
    const changed = request.changed;
    const why =
      gateState(e.gate) !== 'met'
        ? 'approval required'
        : e.report.verification !== null && e.report.verification !== 'verified'
          ? `${e.report.verification} (${e.report.verificationReason}): approval required`
          : 'reverify not run: approval required';
    e.report.result = { ...emptyResult('approval-required', why, e.oracle!.signature), changed, request: approvalViewOf(e.oracle!.fields, fieldsCut(request), request.unboundScripts, request.unboundNotJudged) };
    if (shown.has(e)) print(`not approved: ${sanitizeLine(e.qualified, 120)}\n`);
    else print(approvalRequestText(request, columns));
  }

  for (const e of notYet) print(resultLine(e.report) + '\n');

  // Run what is approved.
  const runnable = candidates.filter((e) => e.approved);
  const ctx: RunContext = {
    shell,
    // One plain copy for the whole run (spreading process.env costs a native call per
    // variable); only the marker changes per check, and spawn() copies it synchronously.
    env: { ...io.env },
    running: new RunningChecks(),
    root: ws.root.path,
    assertClean: options.assertClean,
  };
  const preflightCtx: PreflightContext = { root: ws.root.path, resolver, store, shellNow: () => {
      // Judged again before each check: an earlier gate's check may have relinked it (round-36 F3).
      const now = resolveShell(options.shell, io.env, io.cwd).path;
      refuseShellInRepository(now, writableTree(ws.root.path));
      return now;
    }, runPath: normalizePath(io.env.PATH) };
  const writer = new BatchWriter(resolver, receipts, history, lockTimeoutMs);
  // Every running check is terminated by the supervisor itself at an interrupt (lib/run/interrupts.ts).
  throwIfInterrupted();
  let interrupted = false;
  let failed = false;
  const stopWatching = onInterrupt((why, count) => {
    if (count === 1) io.stderr(`gate-check: interrupted (${sanitizeLine(why, 80)}); killing running checks\n`);
    interrupted = true;
  });
  const attempts: (Attempt | undefined)[] = [];
  // A result line is printed once its result is written (or found stale), so that it says
  // the truth once: never PASS, then STALE. Lines keep ledger order through one chain.
  const outcomes: (Promise<WriteOutcome> | null)[] = [];
  let lines: Promise<void> = Promise.resolve();
  if (wantsProgress(io.stderrIsTTY, options.json, io.env, runnable.length)) {
    progress = new ProgressLine(runnable.length, io.stderr);
    progress.start();
  }
  // The output pipes are made in batches that fit the run (lib/run/output-pipes.ts).
  planOutputPipes(runnable.length);
  try {
    const results = await runInOrder(
      runnable.length,
      async (i) => {
        const e = runnable[i]!;
        progress?.begin(e.qualified);
        const check = await preflight(e, preflightCtx);
        const attempt: Attempt = check.ok ? await attemptGate(e, ctx, check.bound) : { result: check.result, output: '', write: null, record: null, event: null };
        progress?.end(e.qualified);
        if (attempt.result.status === 'fail') failed = true;
        outcomes[i] = attempt.write || attempt.event ? writer.add(e.loaded, attempt) : null;
        // --assert-clean (one check at a time): gate-check's own writes are done before the
        // next check's first snapshot, so that whatever changes while a check runs, the
        // ledger included, was changed by it (round-39h F7: a check deleted an open gate).
        if (options.assertClean) await writer.flushAll();
        return attempt;
      },
      {
        jobs: options.jobs,
        mayStart: () => !interrupted && !(options.failFast && failed),
        onError: () => ctx.running.abortAll(),
        onOrdered: (i, attempt) => {
          const e = runnable[i]!;
          if (attempt.result.error === 'interrupted') return;
          e.report.result = attempt.result;
          const outcome = outcomes[i] ?? null;
          lines = lines.then(async () => {
            const written = outcome ? await outcome : null;
            if (written?.kind === 'stale') e.report.result = { ...attempt.result, status: 'stale', error: written.reason };
            print(resultLine(e.report) + '\n');
            if (e.report.result?.status === 'fail') print(diagnosticLines(attempt.output, attempt.overflowed).join('\n') + '\n');
          });
        },
      },
    );
    attempts.push(...results);
    try {
      await writer.flushAll();
    } finally {
      await lines; // the outcomes never reject: every line is printed before an error is
    }
  } finally {
    planOutputPipes(0);
    flushOutput();
    progress?.stop();
    progress = null;
    stopWatching();
  }

  // Final states: what was written is what the ledger now says.
  const unfinished: string[] = [];
  runnable.forEach((e, i) => {
    const attempt = attempts[i];
    if (!attempt || attempt.result.error === 'interrupted') {
      unfinished.push(e.qualified);
      e.report.result = emptyResult('not-run', interrupted ? INTERRUPTED_BEFORE_END : NOT_STARTED_FAIL_FAST, e.oracle!.signature);
      if (!interrupted) print(resultLine(e.report) + '\n');
      return;
    }
    const staleReason = writer.stale.get(e.qualified);
    if (staleReason !== undefined) {
      e.report.result = { ...attempt.result, status: 'stale', error: staleReason };
    } else if (writer.written.has(e.qualified)) {
      const pass = attempt.result.status === 'pass';
      e.report.state = pass ? 'met' : 'unmet';
      e.report.checked = pass;
      e.report.verification = pass ? 'verified' : null;
      e.report.verificationReason = null;
    }
  });

  const gates = entries.map((e) => e.report);
  const scoped = scope.map((e) => e.report);
  const exitCode = interrupted ? 130 : scoped.every(effectivelyMet) && treeMet(tree) ? 0 : 1;
  const report: Report = {
    schema: REPORT_SCHEMA,
    mode,
    exitCode,
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    ledgers: ledgerRevisions(ws.ledgers.map((l) => ({ display: l.location.display, source: l.source }))),
    shard: shard ? { index: shard.index, count: shard.count, reran: reranBy(options) } : null,
    ...tree,
    summary: summarize(scoped),
    warnings: ws.warnings,
    errors: [],
    gates,
  };
  flushOutput();
  await emitReport(report, { json: options.json, junit: options.junit, strict: false }, io, () => {
    const out: string[] = [];
    for (const w of ws.warnings) out.push(formatDiagnostic(w, 'warning'));
    if (shard && scope.length === 0) out.push(`shard ${shard.index}/${shard.count} has no gates; nothing to run`);
    if (options.onlyStale && candidates.length === 0) out.push('no stale, mismatched or unverified evidence; nothing to re-run');
    if (interrupted && unfinished.length > 0) out.push(`NOT FINISHED: ${cappedIds(unfinished)}`);
    out.push(...treeLines(tree));
    if (unmetScopes(tree).length > 0) out.push(otherScopesNote(fold, unmetScopes(tree), io.env));
    // A met gate that waits for a new approval was not demoted: said so, not listed as UNMET (round-31b F10).
    const waiting = (g: GateReport) => g.state === 'met' && g.result?.status === 'approval-required';
    const held = scoped.filter(waiting).map((g) => g.qualified);
    const summary = summaryLines(scoped, (g) => !effectivelyMet(g) && !waiting(g), treeItems(tree));
    if (held.length > 0) summary.splice(0, summary.length, ...summary.filter((l) => !l.startsWith('ALL MET')), `NOT RE-RUN: ${cappedIds(held)} (still met; each waits for a new approval)`);
    // A shard's verdict covers its share only: the verdict of the ledger is the merge of every shard's report.
    if (shard && summary[0]!.startsWith('ALL MET')) summary[0] = `SHARD ${shard.index}/${shard.count} MET${summary[0]!.slice('ALL MET'.length)}: its share only; merge every shard's report for the verdict (gate-check merge)`;
    out.push(...summary);
    const pending = scope.filter((e) => e.report.result?.status === 'approval-required');
    if (pending.length > 0) {
      const pins = pending.map((e) => `${e.qualified}@${pinSignature(e.report.result!.signature ?? e.oracle!.signature)}`);
      out.push(...approvalSuggestion(pins, { ...options, invocation: currentInvocation(io.env) }));
    }
    return out.join('\n') + '\n';
  });
  // The report (one JSON document with --json) already says so; exit 130.
  if (interrupted) io.stderr(`gate-check: interrupted: ${unfinished.length} check${unfinished.length === 1 ? '' : 's'} did not finish; nothing partial was written\n`);
  return exitCode;
}

/**
 * The digests each PATH executable was bound with by the approvals of gates whose ledger lies
 * in the work tree of `root` (the paths are named from its top: oracle/path-bound.ts), so that
 * a gate moved to another ledger of the repository finds them too.
 */
function pathBoundByApprovals(store: ApprovalStore, root: string): Map<string, Set<string>> {
  const tree = writableTree(root);
  const bound = new Map<string, Set<string>>();
  for (const r of store.all().records) {
    if (!r.oracle.ledger.startsWith(tree + sep)) continue;
    for (const [path, digest] of r.oracle.pathBound ?? []) {
      let digests = bound.get(path);
      if (digests === undefined) bound.set(path, (digests = new Set()));
      digests.add(digest);
    }
  }
  return bound;
}

function junitFolderExists(target: string): void {
  const folder = dirname(target);
  if (statSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true) {
    throw new UsageError(`--junit ${target}: its folder ${folder} does not exist; nothing was run`, `make the folder first (mkdir -p ${shellQuote(folder)}), or write the file elsewhere`);
  }
}
