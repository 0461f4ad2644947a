// Reading a --json report back (for `gate-check merge`) as hostile input: own properties
// only, exact keys, every field type-checked. Pure.
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import type { Diagnostic } from '../errors.js';
import type { Verification } from '../evidence/verify.js';
import type { GateState } from '../ledger/state.js';
import { REPORT_SCHEMA, type GateReport, type GateResult, type LedgerRevision, type Mode, type Report, type ResultStatus, type ShardInfo, type Summary } from './model.js';

type Obj = Record<string, unknown>;

const REPORT_KEYS = ['schema', 'mode', 'exitCode', 'root', 'files', 'ledgers', 'shard', 'summary', 'warnings', 'errors', 'gates'] as const;
const SUMMARY_KEYS = ['total', 'met', 'unmet', 'claimed', 'abandoned', 'verified', 'unverified', 'mismatched', 'stale', 'manual'] as const;
const GATE_KEYS = ['file', 'line', 'id', 'qualified', 'title', 'kind', 'definition', 'state', 'stateReason', 'checked', 'verification', 'verificationReason', 'result'] as const;
const HEX64 = /^[0-9a-f]{64}$/;
const RESULT_KEYS = ['status', 'exit', 'outputSha256', 'bytes', 'durationMs', 'error', 'signature', 'changed'] as const;
const MODES: readonly Mode[] = ['status', 'run', 'approve', 'reverify', 'merge'];
const STATES: readonly GateState[] = ['met', 'unmet', 'claimed', 'abandoned'];
const VERIFICATIONS: readonly Verification[] = ['verified', 'unverified', 'mismatched', 'stale', 'manual'];
const STATUSES: readonly ResultStatus[] = ['pass', 'fail', 'approval-required', 'stale', 'not-run'];

class Invalid extends Error {}

function obj(v: unknown, keys: readonly string[], where: string): Obj {
  if (!isPlainObject(v) || !hasExactKeys(v, keys)) throw new Invalid(`${where}: unexpected or missing fields`);
  return v;
}
const str = (v: unknown, where: string): string => {
  if (typeof v !== 'string') throw new Invalid(`${where}: not a string`);
  return v;
};
const int = (v: unknown, where: string): number => {
  if (!Number.isSafeInteger(v)) throw new Invalid(`${where}: not an integer`);
  return v as number;
};
const nullable = <T>(v: unknown, f: (x: unknown, w: string) => T, where: string): T | null => (v === null ? null : f(v, where));
function oneOf<T extends string>(v: unknown, allowed: readonly T[], where: string): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new Invalid(`${where}: unexpected value`);
  return v as T;
}
function list<T>(v: unknown, f: (x: unknown, w: string) => T, where: string): T[] {
  if (!Array.isArray(v)) throw new Invalid(`${where}: not a list`);
  return v.map((x, i) => f(x, `${where}[${i}]`));
}

function diagnostic(v: unknown, where: string): Diagnostic {
  if (!isPlainObject(v) || !Object.hasOwn(v, 'message')) throw new Invalid(`${where}: not a diagnostic`);
  for (const k of Object.keys(v)) if (!['file', 'line', 'message'].includes(k)) throw new Invalid(`${where}: unexpected field`);
  const d: Diagnostic = { message: str(v.message, where) };
  if (Object.hasOwn(v, 'file')) d.file = str(v.file, where);
  if (Object.hasOwn(v, 'line')) d.line = int(v.line, where);
  return d;
}

function result(v: unknown, where: string): GateResult {
  const r = obj(v, RESULT_KEYS, where);
  return {
    status: oneOf(r.status, STATUSES, `${where}.status`),
    exit: nullable(r.exit, int, `${where}.exit`),
    outputSha256: nullable(r.outputSha256, str, `${where}.outputSha256`),
    bytes: nullable(r.bytes, int, `${where}.bytes`),
    durationMs: nullable(r.durationMs, int, `${where}.durationMs`),
    error: nullable(r.error, str, `${where}.error`),
    signature: nullable(r.signature, str, `${where}.signature`),
    changed: nullable(r.changed, (x, w) => list(x, str, w), `${where}.changed`),
  };
}

function gate(v: unknown, where: string): GateReport {
  const g = obj(v, GATE_KEYS, where);
  if (typeof g.checked !== 'boolean') throw new Invalid(`${where}.checked: not a boolean`);
  return {
    file: str(g.file, `${where}.file`),
    line: int(g.line, `${where}.line`),
    id: str(g.id, `${where}.id`),
    qualified: str(g.qualified, `${where}.qualified`),
    title: str(g.title, `${where}.title`),
    kind: oneOf(g.kind, ['runnable', 'manual'] as const, `${where}.kind`),
    definition: nullable(g.definition, (x, w) => {
      const d = str(x, w);
      if (!HEX64.test(d)) throw new Invalid(`${w}: not a SHA-256`);
      return d;
    }, `${where}.definition`),
    state: oneOf(g.state, STATES, `${where}.state`),
    stateReason: nullable(g.stateReason, str, `${where}.stateReason`),
    checked: g.checked,
    verification: g.verification === null ? null : oneOf(g.verification, VERIFICATIONS, `${where}.verification`),
    verificationReason: nullable(g.verificationReason, str, `${where}.verificationReason`),
    result: nullable(g.result, result, `${where}.result`),
  };
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
    if (r.schema !== REPORT_SCHEMA) throw new Invalid(`report.schema: expected ${REPORT_SCHEMA}`);
    const s = obj(r.summary, SUMMARY_KEYS, 'summary');
    const summary = Object.fromEntries(SUMMARY_KEYS.map((k) => [k, int(s[k], `summary.${k}`)])) as unknown as Summary;
    const shard: ShardInfo | null =
      r.shard === null
        ? null
        : (() => {
            const o = obj(r.shard, ['index', 'count'], 'shard');
            return { index: int(o.index, 'shard.index'), count: int(o.count, 'shard.count') };
          })();
    const ledgers: LedgerRevision[] = list(
      r.ledgers,
      (x, w) => {
        const o = obj(x, ['file', 'sha256'], w);
        return { file: str(o.file, `${w}.file`), sha256: str(o.sha256, `${w}.sha256`) };
      },
      'ledgers',
    );
    return {
      ok: true,
      report: {
        schema: REPORT_SCHEMA,
        mode: oneOf(r.mode, MODES, 'mode'),
        exitCode: int(r.exitCode, 'exitCode'),
        root: str(r.root, 'root'),
        files: list(r.files, str, 'files'),
        ledgers,
        shard,
        summary,
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
