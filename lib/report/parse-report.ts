// Reading a --json report back (for `gate-check merge`) as hostile input: own properties
// only, exact keys, every field checked against references/report.schema.json (types,
// patterns, ranges). A report that fails any check is refused as a whole, naming the field.
// Pure.
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import type { Diagnostic } from '../errors.js';
import type { Verification } from '../evidence/verify.js';
import type { GateState } from '../ledger/state.js';
import { REPORT_SCHEMA, type ApprovalView, type GateReport, type GateResult, type LedgerRevision, type Mode, type Report, type Reran, type ResultStatus, type ScopeReport, type ShardInfo, type Summary, type WaveReport } from './model.js';
import { sanitizeLine } from '../text/sanitize.js';

type Obj = Record<string, unknown>;

const REPORT_KEYS = ['schema', 'mode', 'exitCode', 'root', 'files', 'ledgers', 'shard', 'scope', 'waves', 'scopes', 'summary', 'warnings', 'errors', 'gates'] as const;
const WAVE_KEYS = ['id', 'state', 'leaves', 'started', 'returned'] as const;
const SCOPE_KEYS = ['scope', 'files', 'exitCode', 'summary', 'unmet', 'handoff', 'waves'] as const;
const SCOPE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const WAVE_STATES = ['open', 'sealed', 'complete', 'abandoned'] as const;
const SUMMARY_KEYS = ['total', 'met', 'unmet', 'claimed', 'abandoned', 'verified', 'unverified', 'mismatched', 'stale', 'manual'] as const;
const GATE_KEYS = ['file', 'line', 'id', 'qualified', 'title', 'kind', 'definition', 'state', 'stateReason', 'checked', 'verification', 'verificationReason', 'result'] as const;
const RESULT_KEYS = ['status', 'exit', 'outputSha256', 'bytes', 'durationMs', 'error', 'signature', 'changed', 'request'] as const;
const REQUEST_KEYS = ['check', 'expect', 'cwd', 'shell', 'timeoutMs', 'path', 'depends', 'pathBound', 'env', 'pinOnly', 'unboundScripts', 'unboundNotJudged'] as const;
const SHARD_KEYS = ['index', 'count', 'reran'] as const;
const DIAGNOSTIC_KEYS: readonly string[] = ['file', 'line', 'message'];
const HEX64 = /^[0-9a-f]{64}$/;
const GATE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const QUALIFIED_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*:[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MODES: readonly Mode[] = ['status', 'run', 'approve', 'reverify', 'merge'];
const EXIT_CODES: readonly number[] = [0, 1, 2, 3, 130];
const STATES: readonly GateState[] = ['met', 'unmet', 'claimed', 'abandoned'];
const VERIFICATIONS: readonly Verification[] = ['verified', 'unverified', 'mismatched', 'stale', 'manual'];
const STATUSES: readonly ResultStatus[] = ['pass', 'fail', 'approval-required', 'stale', 'not-run'];
const RERAN: readonly Reran[] = ['all', 'unverified', 'stale'];
const KINDS = ['runnable', 'manual'] as const;
/** --shard takes at most this many shares (cli/options.ts). */
export const MAX_SHARDS = 1000;

class Invalid extends Error {}

function obj(v: unknown, keys: readonly string[], where: string): Obj {
  if (!isPlainObject(v)) throw new Invalid(`${where}: not an object`);
  if (!hasExactKeys(v, keys)) throw new Invalid(`${where}: unexpected or missing fields (expected ${keys.join(', ')})`);
  return v;
}
function str(v: unknown, where: string): string {
  if (typeof v !== 'string') throw new Invalid(`${where}: not a string`);
  return v;
}
/** A reason a shard wrote (an error, why a gate is stale): its escapes and controls never reach the merged output (round-15b F2). */
function reason(v: unknown, where: string): string {
  return sanitizeLine(str(v, where), MAX_REASON);
}
const MAX_REASON = 4000;
function matching(v: unknown, pattern: RegExp, what: string, where: string): string {
  const s = str(v, where);
  if (!pattern.test(s)) throw new Invalid(`${where}: not ${what}`);
  return s;
}
function int(v: unknown, min: number, where: string): number {
  if (!Number.isSafeInteger(v)) throw new Invalid(`${where}: not an integer`);
  if ((v as number) < min) throw new Invalid(`${where}: less than ${min}`);
  return v as number;
}
const count = (v: unknown, where: string): number => int(v, 0, where);
const sha256 = (v: unknown, where: string): string => matching(v, HEX64, 'a SHA-256 (64 lower-case hex digits)', where);
function nullable<T>(v: unknown, f: (x: unknown, w: string) => T, where: string): T | null {
  return v === null ? null : f(v, where);
}
function oneOf<T extends string | number>(v: unknown, allowed: readonly T[], where: string): T {
  if (!(allowed as readonly unknown[]).includes(v)) throw new Invalid(`${where}: not one of ${allowed.join(', ')}`);
  return v as T;
}
function list<T>(v: unknown, f: (x: unknown, w: string) => T, where: string): T[] {
  if (!Array.isArray(v)) throw new Invalid(`${where}: not a list`);
  return v.map((x, i) => f(x, `${where}[${i}]`));
}
function bool(v: unknown, where: string): boolean {
  if (typeof v !== 'boolean') throw new Invalid(`${where}: not a boolean`);
  return v;
}

function diagnostic(v: unknown, where: string): Diagnostic {
  if (!isPlainObject(v)) throw new Invalid(`${where}: not an object`);
  for (const k of Object.keys(v)) {
    if (!DIAGNOSTIC_KEYS.includes(k)) throw new Invalid(`${where}.${k}: unexpected field`);
  }
  const d: Diagnostic = { message: str(v.message, `${where}.message`) };
  if (Object.hasOwn(v, 'file')) d.file = str(v.file, `${where}.file`);
  if (Object.hasOwn(v, 'line')) d.line = int(v.line, 1, `${where}.line`);
  return d;
}

function result(v: unknown, where: string): GateResult {
  const r = obj(v, RESULT_KEYS, where);
  return {
    status: oneOf(r.status, STATUSES, `${where}.status`),
    exit: nullable(r.exit, (x, w) => int(x, Number.MIN_SAFE_INTEGER, w), `${where}.exit`),
    outputSha256: nullable(r.outputSha256, sha256, `${where}.outputSha256`),
    bytes: nullable(r.bytes, count, `${where}.bytes`),
    durationMs: nullable(r.durationMs, count, `${where}.durationMs`),
    error: nullable(r.error, reason, `${where}.error`),
    signature: nullable(r.signature, sha256, `${where}.signature`),
    changed: nullable(r.changed, (x, w) => list(x, str, w), `${where}.changed`),
    request: nullable(r.request, request, `${where}.request`),
  };
}

function request(v: unknown, where: string): ApprovalView {
  const q = obj(v, REQUEST_KEYS, where);
  return {
    check: str(q.check, `${where}.check`),
    expect: str(q.expect, `${where}.expect`),
    cwd: str(q.cwd, `${where}.cwd`),
    shell: str(q.shell, `${where}.shell`),
    timeoutMs: count(q.timeoutMs, `${where}.timeoutMs`),
    path: nullable(q.path, str, `${where}.path`),
    depends: list(q.depends, str, `${where}.depends`),
    pathBound: list(q.pathBound, str, `${where}.pathBound`),
    env: list(q.env, str, `${where}.env`),
    pinOnly: list(q.pinOnly, str, `${where}.pinOnly`),
    unboundScripts: nullable(q.unboundScripts, (x, w) => list(x, str, w), `${where}.unboundScripts`),
    unboundNotJudged: nullable(q.unboundNotJudged, str, `${where}.unboundNotJudged`),
  };
}

function gate(v: unknown, where: string): GateReport {
  const g = obj(v, GATE_KEYS, where);
  return {
    file: str(g.file, `${where}.file`),
    line: int(g.line, 1, `${where}.line`),
    id: matching(g.id, GATE_ID, 'a gate id', `${where}.id`),
    qualified: matching(g.qualified, QUALIFIED_ID, 'a qualified id (STEM:ID)', `${where}.qualified`),
    title: str(g.title, `${where}.title`),
    kind: oneOf(g.kind, KINDS, `${where}.kind`),
    definition: nullable(g.definition, sha256, `${where}.definition`),
    state: oneOf(g.state, STATES, `${where}.state`),
    stateReason: nullable(g.stateReason, reason, `${where}.stateReason`),
    checked: bool(g.checked, `${where}.checked`),
    verification: nullable(g.verification, (x, w) => oneOf(x, VERIFICATIONS, w), `${where}.verification`),
    verificationReason: nullable(g.verificationReason, reason, `${where}.verificationReason`),
    result: nullable(g.result, result, `${where}.result`),
  };
}

function shard(v: unknown): ShardInfo {
  const o = obj(v, SHARD_KEYS, 'shard');
  const n = int(o.count, 1, 'shard.count');
  if (n > MAX_SHARDS) throw new Invalid(`shard.count: more than ${MAX_SHARDS}`);
  const index = int(o.index, 1, 'shard.index');
  if (index > n) throw new Invalid(`shard.index: ${index} is more than shard.count ${n}`);
  return { index, count: n, reran: oneOf(o.reran, RERAN, 'shard.reran') };
}

function summary(v: unknown, where = 'summary'): Summary {
  const s = obj(v, SUMMARY_KEYS, where);
  return Object.fromEntries(SUMMARY_KEYS.map((k) => [k, count(s[k], `${where}.${k}`)])) as unknown as Summary;
}

function wave(v: unknown, where: string): WaveReport {
  const w = obj(v, WAVE_KEYS, where);
  const leaves = int(w.leaves, 1, `${where}.leaves`);
  const started = count(w.started, `${where}.started`);
  const returned = count(w.returned, `${where}.returned`);
  if (started > leaves || returned > started) throw new Invalid(`${where}: returned <= started <= leaves does not hold`);
  return { id: matching(w.id, SCOPE_ID, 'a wave id', `${where}.id`), state: oneOf(w.state, WAVE_STATES, `${where}.state`), leaves, started, returned };
}

function scopeReport(v: unknown, where: string): ScopeReport {
  const s = obj(v, SCOPE_KEYS, where);
  return {
    scope: matching(s.scope, SCOPE_ID, 'a scope id', `${where}.scope`),
    files: list(s.files, str, `${where}.files`),
    exitCode: oneOf(s.exitCode, [0, 1] as const, `${where}.exitCode`),
    summary: summary(s.summary, `${where}.summary`),
    unmet: list(s.unmet, str, `${where}.unmet`),
    handoff: list(s.handoff, str, `${where}.handoff`),
    waves: list(s.waves, wave, `${where}.waves`),
  };
}

function revision(v: unknown, where: string): LedgerRevision {
  const o = obj(v, ['file', 'sha256'], where);
  return { file: str(o.file, `${where}.file`), sha256: sha256(o.sha256, `${where}.sha256`) };
}

export type ReportParse = { ok: true; report: Report } | { ok: false; reason: string };

export function parseReport(text: string): ReportParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  try {
    const r = obj(data, REPORT_KEYS, 'report');
    if (r.schema !== REPORT_SCHEMA) throw new Invalid(`schema: expected ${REPORT_SCHEMA}`);
    return {
      ok: true,
      report: {
        schema: REPORT_SCHEMA,
        mode: oneOf(r.mode, MODES, 'mode'),
        exitCode: oneOf(r.exitCode, EXIT_CODES, 'exitCode'),
        root: str(r.root, 'root'),
        files: list(r.files, str, 'files'),
        ledgers: list(r.ledgers, revision, 'ledgers'),
        shard: nullable(r.shard, shard, 'shard'),
        scope: nullable(r.scope, (x, w) => matching(x, SCOPE_ID, 'a scope id', w), 'scope'),
        waves: list(r.waves, wave, 'waves'),
        scopes: list(r.scopes, scopeReport, 'scopes'),
        summary: summary(r.summary),
        warnings: list(r.warnings, diagnostic, 'warnings'),
        errors: list(r.errors, diagnostic, 'errors'),
        gates: list(r.gates, gate, 'gates'),
      },
    };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, reason: e.message };
    throw e;
  }
}
