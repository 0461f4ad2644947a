// One attempt at one gate: the supervised run, the verdict (exit status, EXPECT, caps,
// --assert-clean), and what it leaves behind: an evidence edit, a receipt, an audit event.
import { relative } from 'node:path';
import { formatEvidence, matchDigest } from '../evidence/line.js';
import { gateClaim } from '../ledger/claim.js';
import { receiptId, repositoryFolder, titleDigestFull, type ProvenFields, type RunRecord } from '../evidence/receipt.js';
import type { PendingWrite } from '../evidence/writeback.js';
import { failureFingerprint, type AttemptEvent } from '../history/event.js';
import { definitionDigest } from '../ledger/definition.js';
import { checkInRepoPathEntries, homeDirectory } from '../oracle/path-bound.js';
import { dependsDigest, dependsDigestFull, normalizePath, shortSignature, type DependsEntry, type Oracle } from '../oracle/oracle.js';
import { InterruptedError } from '../errors.js';
import { emptyResult, type GateResult } from '../report/model.js';
import { cappedIds } from '../report/text.js';
import { sanitizeLine } from '../text/sanitize.js';
import { matchExpect } from '../run/expect-match.js';
import { changedInRepository, snapshotWorkingTree } from '../run/repo-snapshot.js';
import type { ShellInvocation } from '../run/shell.js';
import { RunningChecks, superviseCheck, type CheckOutcome } from '../run/supervisor.js';
import { checkEnvironment } from '../oracle/check-path.js';
import type { GateEntry } from '../evidence/verify-met.js';

import { ACTIVE_CHECK_ENV } from '../approval/approver.js';
import { changedSince } from '../fsx/file-identity.js';
import type { BoundFiles } from './preflight.js';

/** What a pipe holds on Linux: a check that printed more and exited at once may have lost its tail. */
const PIPE_BUFFER_BYTES = 64 * 1024;
/** Said under an EXPECT that more than that did not match (round-41a F4): a cut tail, not a failing test, may be why. */
const LOST_TAIL_HINT = '; if the check prints a lot and exits at once (process.exit in Node), the end of its output may not have been written: a pipe holds 64 KiB, and on a busy machine gate-check reads it more slowly than cat does (let it end by setting process.exitCode)';

export interface Entry extends GateEntry {
  qualified: string;
  oracle: Oracle | null;
  approved: boolean;
  /** INPUTS as matched and hashed when the gate's oracle was resolved (not part of the oracle). */
  inputs: DependsEntry[] | null;
}

export interface Attempt {
  result: GateResult;
  output: string;
  /** The output passed the cap: what was kept was dropped, so there is nothing to show. */
  overflowed?: boolean;
  write: PendingWrite | null;
  /** The run record (pass or fail) for the private store; null when the attempt proved nothing (interrupted). */
  record: RunRecord | null;
  event: AttemptEvent | null;
}

export interface RunContext {
  shell: ShellInvocation;
  env: NodeJS.ProcessEnv;
  running: RunningChecks;
  root: string;
  assertClean: boolean;
}

const HELD_BY_ESCAPEE = "; a process that left the check's process group (setsid or a daemon) still held the output and was not killed";

function describeFailure(o: CheckOutcome, timeoutMs: number, outputCap: number, ownTimeout: boolean): string | null {
  const held = o.outputHeld ? HELD_BY_ESCAPEE : '';
  switch (o.failure) {
    case 'timeout':
      return `timed out after ${timeoutMs / 1000} s (process group killed)${held}; a slower check needs ${ownTimeout ? 'a larger TIMEOUT: in the gate' : 'TIMEOUT: <seconds> in the gate (or --timeout)'}, and a new approval`;
    case 'overflow':
      return `output exceeded the cap of ${outputCap} bytes (process group killed; nothing of it is kept)${held}`;
    case 'spawn':
      return `could not start the shell: ${o.spawnError ?? 'unknown error'}`;
    case 'interrupted':
      return 'interrupted';
    case 'escaped':
      return "the output stayed open after the shell exited: a process left the check's process group (setsid or a daemon) and holds it; that process was not killed";
    case null:
      break;
  }
  if (o.signal) return `killed by ${o.signal}`;
  if (o.exitCode !== 0) return `exit ${o.exitCode}`;
  return null;
}

export async function attemptGate(e: Entry, ctx: RunContext, bindings: BoundFiles): Promise<Attempt> {
  const oracle = e.oracle!;
  const f = oracle.fields;
  // An interrupt during a snapshot kills git and starts nothing: the gate did not finish.
  const interruptedAttempt = (): Attempt => ({ result: emptyResult('fail', 'interrupted', oracle.signature), output: '', write: null, record: null, event: null });
  const snapshot = () => snapshotWorkingTree(ctx.root, ctx.env).catch((error: unknown) => (error instanceof InterruptedError ? null : Promise.reject(error)));
  const before = ctx.assertClean ? await snapshot() : null;
  if (ctx.assertClean && before === null) return interruptedAttempt();
  ctx.env[ACTIVE_CHECK_ENV] = e.qualified;
  // When it started, not when it ended: of two runs, the one that started later saw the
  // newer state of the work, whichever finishes first.
  const startedAt = new Date().toISOString();
  const outcome = await superviseCheck({ shell: ctx.shell.path, args: ctx.shell.args(f.check), cwd: f.cwd, env: checkEnvironment(ctx.env, f.cwd, homeDirectory), timeoutMs: f.timeoutMs, outputCap: f.outputCap }, ctx.running);
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
    request: null,
  };
  if (outcome.failure === 'interrupted') return { result: { ...base, error: 'interrupted' }, output, write: null, record: null, event: null };
  let error = describeFailure(outcome, f.timeoutMs, f.outputCap, e.gate.timeoutSeconds !== null);
  let matched: string | null = null;
  if (error === null) {
    const m = matchExpect(e.gate.expect!, output, f.regexCapMs);
    if (!m.ok) error = m.error;
    else if (!m.matched) error = `EXPECT not found in the output (${outcome.bytes} bytes${colourCodes(output, f.env ?? null)}): EXPECT: ${sanitizeLine(e.gate.expectRaw!, 200)}${outcome.bytes > PIPE_BUFFER_BYTES ? LOST_TAIL_HINT : ''}`;
    else matched = m.text;
  }
  let changedFiles = false;
  if (before) {
    const after = await snapshot();
    if (after === null) return interruptedAttempt();
    // Nothing is left out: gate-check writes nothing while a check runs (run.ts flushes its
    // results before the next check), so a ledger that changed was changed by the check.
    const changed = changedInRepository(before, after);
    if (changed.length > 0) {
      // The check's own verdict was a pass: history keeps the failure apart (not flaky).
      if (error === null) changedFiles = true;
      error = `the check changed files in the repository (--assert-clean): ${cappedIds(changed, 8)}`;
    }
  }
  // A file the oracle binds, written while the check ran (even if its bytes were put back):
  // the check may have read another version than the one approved and recorded, so a pass
  // proves nothing and leaves no trace. A failure is still the newest result (batch-writer.ts).
  const moved = error === null ? changedSince(ctx.root, bindings.identities) : [];
  // A file the check writes itself (build output) cannot be bound: say so, or the gate stays
  // STALE on every run with no way out in sight (round-38b F3).
  const own = moved.some((rel) => bindings.kinds.get(rel) === 'DEPENDS' || bindings.kinds.get(rel) === 'INPUTS') ? '; if the check writes it itself (build output), bind its sources instead' : '';
  const stale = moved.length > 0 ? `${moved.map((rel) => `${bindings.kinds.get(rel) ?? 'file'} ${sanitizeLine(rel, 120)}`).slice(0, 8).join(', ')}${moved.length > 8 ? ` and ${moved.length - 8} more` : ''} written while the check ran (or too close to its start to tell)${own}` : null;
  const event: AttemptEvent = {
    time: new Date().toISOString(),
    file: e.loaded.location.display,
    gate: e.qualified,
    oracle: shortSignature(oracle.signature),
    status: stale !== null ? 'stale' : error === null ? 'pass' : 'fail',
    exit: outcome.exitCode,
    durationMs: outcome.durationMs,
    outputSha256: base.outputSha256,
    fingerprint: error === null ? null : failureFingerprint(output, error.replace(/\d+/g, '#')),
    ...(changedFiles && stale === null ? { cause: 'changed-files' as const } : {}),
  };
  const proof: ProvenFields = {
    gate: e.gate.id,
    def: definitionDigest(e.gate)!,
    deps: f.depends ? dependsDigest(f.depends) : null,
    inputs: e.inputs ? dependsDigest(e.inputs) : null,
  };
  event.inputs = proof.inputs;
  const time = startedAt;
  // The run's whole PATH: the signed one leaves out folders that held nothing (signedPath).
  const dirs = f.pathBound ? checkInRepoPathEntries(f.check, normalizePath(ctx.env.PATH), ctx.root, f.cwd).map((p) => p.inRepo) : [];
  const bound = f.pathBound && dirs.length > 0 ? { dirs, digest: dependsDigest(f.pathBound) } : null;
  // The folder the check ran in (a CWD link can be pointed elsewhere after the run; --cwd runs
  // a gate without CWD elsewhere than the root): repository-relative, null outside it.
  const cwd = repositoryFolder(ctx.root, f.cwd);
  const claim = gateClaim(e.loaded.ledger.lines, e.gate);
  const full = {
    deps: f.depends ? dependsDigestFull(f.depends) : null,
    inputs: e.inputs ? dependsDigestFull(e.inputs) : null,
    bound: bound !== null ? dependsDigestFull(f.pathBound!) : null,
    title: titleDigestFull(claim),
  };
  const measured = { signature: oracle.signature, outputSha256: base.outputSha256, bytes: outcome.bytes, bound, cwd, title: full.title.slice(0, 12), full, time };
  if (error !== null) {
    return {
      result: { ...base, error },
      output,
      overflowed: outcome.overflowed,
      write: { gateId: e.gate.id, oracle, edit: { id: e.gate.id, checked: false, evidence: 'pending' } },
      record: { ...proof, status: 'fail', match: null, receipt: null, ...measured },
      event,
    };
  }
  if (stale !== null) return { result: { ...base, status: 'stale', error: stale }, output, write: null, record: null, event };
  const match = matchDigest(matched ?? '');
  const receipt = receiptId(relative(ctx.root, f.ledger).split('\\').join('/'), proof, match);
  const evidence = formatEvidence({
    exit: 0,
    def: proof.def.slice(0, 12),
    ...(proof.deps !== null ? { deps: proof.deps } : {}),
    ...(proof.inputs !== null ? { inputs: proof.inputs } : {}),
    match,
    receipt: receipt.slice(0, 12),
  });
  return {
    result: { ...base, status: 'pass' },
    output,
    write: { gateId: e.gate.id, oracle, edit: { id: e.gate.id, checked: true, evidence }, claim: measured.title },
    record: { ...proof, status: 'pass', match, receipt, ...measured },
    event,
  };
}

/**
 * A note for output that holds terminal escape codes: the display strips them, EXPECT is
 * matched against them, so a line that visibly matches may not (a check coloured by
 * FORCE_COLOR, which also reaches checks: round-31b F2).
 */
function colourCodes(output: string, env: readonly [string, string][] | null): string {
  if (!output.includes('\u001b[')) return '';
  const forced = (env ?? []).some(([name]) => name === 'FORCE_COLOR') || process.env.FORCE_COLOR !== undefined;
  return `; it holds terminal colour codes, which are not shown here and which EXPECT is matched against${forced ? ' (FORCE_COLOR is set, and checks see it too)' : ''}`;
}
