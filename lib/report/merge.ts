// Combining the --json reports of a sharded run into one verdict. Nothing a report claims
// about the ledger is taken from it: the ledger itself (read by the caller from the checkout
// the merge runs in) says which gates exist, what they are, and which shard owns each
// (shardOf of its qualified id). Every report must describe exactly that ledger; a report
// contributes only the results of the gates its shard owns. A runnable gate counts as met
// only by a fresh result (a pass) from its owner; the states, summary and exit code a
// report claims are never read. Pure.
import { shardOf } from '../run/shard.js';
import { emptyResult, REPORT_SCHEMA, summarize, type GateReport, type GateResult, type LedgerRevision, type Report } from './model.js';

/** What the checkout's ledger says: every gate as a plain --status would report it, before any run. */
export interface LedgerTruth {
  root: string;
  files: string[];
  ledgers: LedgerRevision[];
  gates: GateReport[];
  /** Per gate of `gates`: what a real pass of it can look like (null for a manual gate). */
  passBounds: (PassBounds | null)[];
  warnings: Report['warnings'];
}

/** The least output a pass prints (what its EXPECT needs) and the longest it can run (its TIMEOUT, else the longest timeout). */
export interface PassBounds {
  minBytes: number;
  maxMs: number;
}

/** No check passes after running longer than the longest timeout (86,400 s), with a minute for the clock. */
export const MAX_PASS_DURATION_MS = 86_400_000 + 60_000;

export interface NamedReport {
  name: string;
  report: Report;
}

/** A runnable gate that no shard answered for with a fresh result, and why. */
export interface Lack {
  qualified: string;
  why: string;
}

export type MergeResult =
  | { ok: true; report: Report; count: number; lacking: Lack[]; missing: number[] }
  | { ok: false; reason: string };

/** A refusal: the reports cannot be merged (exit 2). */
class Invalid extends Error {}

const HEX64 = /^[0-9a-f]{64}$/;
/** SHA-256 of no bytes: the output digest of a check that printed nothing. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** No check passes after printing more than this (a run fails at the output cap: supervisor.ts). */
export const MAX_PASS_BYTES = 1024 * 1024;

const RUN_MODES: readonly string[] = ['run', 'approve', 'reverify'];

function short(hex: string): string {
  return hex.slice(0, 12);
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/** The fields of a gate that only the ledger decides, compared one by one. */
const LEDGER_FIELDS = ['file', 'line', 'id', 'qualified', 'title', 'kind', 'definition'] as const;
/** For a manual gate the ledger also decides its state (no run touches it). */
const MANUAL_FIELDS = ['state', 'stateReason', 'checked'] as const;

function compareRevisions(name: string, truth: LedgerTruth, report: Report): void {
  if (report.ledgers.length !== truth.ledgers.length) {
    throw new Invalid(`${name}: ledgers: lists ${report.ledgers.length} ledger(s), the checkout has ${truth.ledgers.length} (${truth.ledgers.map((l) => l.file).join(', ')})`);
  }
  truth.ledgers.forEach((t, i) => {
    const l = report.ledgers[i]!;
    if (l.file !== t.file) throw new Invalid(`${name}: ledgers[${i}].file: ${show(l.file)}, but the checkout's ledger ${i + 1} is ${show(t.file)}`);
    if (l.sha256 !== t.sha256) throw new Invalid(`${name}: ledgers[${i}].sha256: made from another revision of ${t.file} (${short(l.sha256)}) than the checkout's (${short(t.sha256)})`);
  });
  if (report.files.length !== truth.files.length || report.files.some((f, i) => f !== truth.files[i])) {
    throw new Invalid(`${name}: files: ${show(report.files)} is not the checkout's list of ledgers ${show(truth.files)}`);
  }
}

function compareGate(name: string, i: number, t: GateReport, g: GateReport): void {
  const where = `${name}: gates[${i}]`;
  for (const k of LEDGER_FIELDS) {
    if (g[k] !== t[k]) throw new Invalid(`${where}.${k}: ${show(g[k])}, but the ledger says ${show(t[k])} (${t.qualified})`);
  }
  if (t.kind === 'manual') {
    for (const k of MANUAL_FIELDS) {
      if (g[k] !== t[k]) throw new Invalid(`${where}.${k}: ${show(g[k])}, but the ledger says ${show(t[k])} (${t.qualified}, a manual gate)`);
    }
  } else if ((g.state === 'abandoned') !== (t.state === 'abandoned')) {
    throw new Invalid(`${where}.state: ${show(g.state)}, but the ledger says ${show(t.state)} (${t.qualified})`);
  }
}

/**
 * A result that says it passed or failed must look like a finished attempt, and a pass like
 * one a real run can make: within the output cap and the gate's timeout, its digest that of no
 * output exactly when it printed nothing, and at least as much output as its EXPECT needs
 * (round-30b F1: a forged pass with 5,000,000 bytes merged into ALL MET; round-31 04: one
 * byte for a 26-byte EXPECT, an hour for a TIMEOUT of 1 s).
 */
function checkResultShape(where: string, r: GateResult, bounds: PassBounds | null): void {
  if (r.status === 'pass') {
    if (r.exit !== 0) throw new Invalid(`${where}.result.exit: a pass with exit ${show(r.exit)}`);
    if (r.error !== null) throw new Invalid(`${where}.result.error: a pass with an error (${show(r.error)})`);
    if (r.outputSha256 === null || !HEX64.test(r.outputSha256)) throw new Invalid(`${where}.result.outputSha256: a pass without the digest of its output`);
    if (r.bytes === null || r.bytes > MAX_PASS_BYTES) throw new Invalid(`${where}.result.bytes: a pass with ${show(r.bytes)} bytes of output (a run fails past ${MAX_PASS_BYTES})`);
    if ((r.bytes === 0) !== (r.outputSha256 === EMPTY_SHA256)) throw new Invalid(`${where}.result.outputSha256: ${r.bytes === 0 ? 'not the digest of no output, for a pass with 0 bytes' : `the digest of no output, for a pass with ${r.bytes} bytes`}`);
    const least = bounds?.minBytes ?? 0;
    if (r.bytes < least) throw new Invalid(`${where}.result.bytes: a pass with ${r.bytes === 0 ? 'no output' : `${r.bytes} bytes of output`}, ${least === 1 ? 'which its EXPECT does not match' : `less than the ${least} its EXPECT needs`}`);
    const most = bounds?.maxMs ?? MAX_PASS_DURATION_MS;
    if (r.durationMs === null || r.durationMs > most) throw new Invalid(`${where}.result.durationMs: a pass that ran ${show(r.durationMs)} ms (longer than ${most === MAX_PASS_DURATION_MS ? 'any timeout' : 'its TIMEOUT'})`);
  }
  if (r.status === 'pass' || r.status === 'fail') {
    if (r.signature === null || !HEX64.test(r.signature)) throw new Invalid(`${where}.result.signature: a ${r.status} without the signature of the oracle that ran`);
    if (r.changed !== null) throw new Invalid(`${where}.result.changed: only an approval request lists changed fields`);
  }
  if (r.status === 'fail' && (r.error === null || r.error === '')) throw new Invalid(`${where}.result.error: a fail without a reason`);
}

const RERAN_OF_MODE: Record<string, readonly string[]> = { run: ['unverified'], approve: ['unverified'], reverify: ['all', 'stale'] };

/** Where each oracle signature was seen: a result belongs to one gate, so a signature appears once. */
type SignatureSeen = Map<string, string>;

function checkReport(input: NamedReport, truth: LedgerTruth, count: number, seen: SignatureSeen): void {
  const { name, report } = input;
  if (!RUN_MODES.includes(report.mode)) {
    throw new Invalid(`${name}: mode: ${show(report.mode)} runs no checks; only the reports of gate-check --shard I/N runs (plain, --approve or --reverify) merge`);
  }
  if (report.errors.length > 0) throw new Invalid(`${name}: errors: the run failed: ${report.errors[0]!.message}`);
  if (report.exitCode === 2 || report.exitCode === 3) throw new Invalid(`${name}: exitCode: the run failed (exit ${report.exitCode})`);
  const shard = report.shard!;
  if (!RERAN_OF_MODE[report.mode]!.includes(shard.reran)) throw new Invalid(`${name}: shard.reran: ${show(shard.reran)} does not fit mode ${show(report.mode)}`);
  compareRevisions(name, truth, report);
  if (report.gates.length !== truth.gates.length) {
    throw new Invalid(`${name}: gates: lists ${report.gates.length} gate(s), the ledger has ${truth.gates.length}`);
  }
  truth.gates.forEach((t, i) => {
    const g = report.gates[i]!;
    compareGate(name, i, t, g);
    if (g.result === null) return;
    const where = `${name}: gates[${i}]`;
    if (t.kind === 'manual') throw new Invalid(`${where}.result: ${t.qualified} is a manual gate; no run has a result for it`);
    if (t.state === 'abandoned') throw new Invalid(`${where}.result: ${t.qualified} is handed off (ABANDON); no run has a result for it`);
    const owner = shardOf(t.qualified, count);
    if (owner !== shard.index) {
      throw new Invalid(`overlapping shards: ${where}.result: ${name} (shard ${shard.index}/${count}) has a result for ${t.qualified}, which belongs to shard ${owner}/${count}`);
    }
    checkResultShape(where, g.result, truth.passBounds[i] ?? null);
    const signature = g.result.signature;
    if (signature !== null) {
      const other = seen.get(signature);
      if (other !== undefined) throw new Invalid(`${where}.result.signature: the same oracle signature as ${other}: a result belongs to one gate (copied from another?)`);
      seen.set(signature, `${name}: gates[${i}] (${t.qualified})`);
    }
  });
}

const NOT_RERUN: Record<string, string> = {
  all: 'mode reverify re-runs every gate, yet its report has no result for it',
  unverified: 'a plain run and --approve re-run only gates whose evidence is not verified on the runner; run the shards with --reverify',
  stale: '--only-stale re-runs only ticked gates whose evidence does not hold; run the shards with --reverify',
};

/** Why the owner's report does not answer for this gate, or null when it does (a pass or a fail). */
function lackOf(r: GateResult | null, label: string, report: Report): string | null {
  if (r === null) return `${label} did not run it (${NOT_RERUN[report.shard!.reran]})`;
  switch (r.status) {
    case 'pass':
    case 'fail':
      return null;
    case 'approval-required':
      return `${label} did not run it: ${r.error ?? 'approval required'}; a CI shard approves with --approve`;
    case 'stale':
      return `${label} has only a stale result (${r.error ?? 'the oracle changed while it ran'}); run it again`;
    case 'not-run':
      return `${label} did not run it: ${r.error ?? 'not started'}`;
  }
}

function mergedGate(t: GateReport, result: GateResult | null, met: boolean): GateReport {
  return { ...t, state: met ? 'met' : 'unmet', stateReason: null, checked: met, verification: met ? 'verified' : null, verificationReason: null, result };
}

/**
 * `shards`: how many shards the run had, from the workflow (its matrix), never from the
 * reports: a report rewritten to say `1/1`, merged alone while the other shards' reports are
 * missing, otherwise owned every gate (round-39y Y2).
 */
export function mergeReports(truth: LedgerTruth, inputs: readonly NamedReport[], shards: number): MergeResult {
  try {
    return merge(truth, inputs, shards);
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, reason: e.message };
    throw e;
  }
}

function merge(truth: LedgerTruth, inputs: readonly NamedReport[], shards: number): MergeResult {
  if (inputs.length === 0) throw new Invalid('no reports to merge');
  if (truth.gates.length === 0) throw new Invalid('the ledger has no gates: nothing to merge (an empty ledger is not a pass)');
  for (const r of inputs) {
    if (r.report.shard === null) throw new Invalid(`${r.name}: shard: not a --shard report`);
  }
  const count = shards;
  const byIndex = new Map<number, NamedReport>();
  const seen: SignatureSeen = new Map();
  for (const r of inputs) {
    const shard = r.report.shard!;
    if (shard.count !== count) throw new Invalid(`${r.name}: shard.count: shard ${shard.index}/${shard.count}, but the run had ${count} shards (--shards)`);
    const other = byIndex.get(shard.index);
    if (other) throw new Invalid(`overlapping shards: ${other.name} and ${r.name} are both shard ${shard.index}/${count}`);
    byIndex.set(shard.index, r);
    checkReport(r, truth, count, seen);
  }
  const missing: number[] = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(i)) missing.push(i);

  const lacking: Lack[] = [];
  const gates = truth.gates.map((t, i): GateReport => {
    if (t.kind === 'manual') return { ...t, verification: t.state === 'met' ? 'manual' : null, verificationReason: null, result: null };
    if (t.state === 'abandoned') return { ...t, result: null };
    const owner = shardOf(t.qualified, count);
    const label = `shard ${owner}/${count}`;
    const input = byIndex.get(owner);
    const why = input ? lackOf(input.report.gates[i]!.result, label, input.report) : `${label}: its report is missing (did its job fail or its artifact not upload?)`;
    if (why !== null) {
      lacking.push({ qualified: t.qualified, why });
      return mergedGate(t, emptyResult('not-run', why), false);
    }
    const result = input!.report.gates[i]!.result!;
    return mergedGate(t, result, result.status === 'pass');
  });
  const allMet = gates.every((g) => g.state === 'met');
  return {
    ok: true,
    count,
    lacking,
    missing,
    report: {
      schema: REPORT_SCHEMA,
      mode: 'merge',
      exitCode: allMet ? 0 : 1,
      root: truth.root,
      files: truth.files,
      ledgers: truth.ledgers,
      shard: null,
      scope: null,
      waves: [],
      scopes: [],
      summary: summarize(gates),
      warnings: truth.warnings,
      errors: [],
      gates,
    },
  };
}
