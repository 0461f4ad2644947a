// An approval record: consent to run one exact oracle. Parsed as hostile JSON: own
// properties only, exact keys, every field type-checked, and the signature recomputed from
// the oracle it carries. Pure.
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { isBoundVariable } from '../oracle/bound-env.js';
import { OPTIONAL_ORACLE_KEYS, ORACLE_KEYS, ORACLE_VERSION, signOracle, type DependsEntry, type OracleFields } from '../oracle/oracle.js';

export const APPROVAL_SCHEMA = 'gate-check/approval@1';

export interface ApprovalRecord {
  schema: typeof APPROVAL_SCHEMA;
  signature: string;
  approvedAt: string;
  oracle: OracleFields;
}

export type RecordParse = { ok: true; record: ApprovalRecord } | { ok: false; reason: string };

const HEX64 = /^[0-9a-f]{64}$/;

function parseDepends(v: unknown): DependsEntry[] | null | undefined {
  if (v === null) return null;
  if (!Array.isArray(v)) return undefined;
  const out: DependsEntry[] = [];
  for (const e of v) {
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || typeof e[1] !== 'string' || !HEX64.test(e[1])) return undefined;
    out.push([e[0], e[1]]);
  }
  return out;
}

export function parseOracleFields(v: unknown): OracleFields | null {
  if (!isPlainObject(v)) return null;
  const withBound = Object.hasOwn(v, 'pathBound');
  const withEnv = Object.hasOwn(v, 'env');
  if (!hasExactKeys(v, [...ORACLE_KEYS, ...OPTIONAL_ORACLE_KEYS.filter((k) => (k === 'pathBound' ? withBound : withEnv))])) return null;
  const str = (k: string) => typeof v[k] === 'string';
  const int = (k: string) => Number.isSafeInteger(v[k]) && (v[k] as number) >= 0;
  if (v.v !== ORACLE_VERSION) return null;
  if (!['ledger', 'gate', 'check', 'expect', 'cwd', 'shell', 'platform'].every(str)) return null;
  if (!['timeoutMs', 'outputCap', 'regexCapMs'].every(int)) return null;
  if (v.path !== null && typeof v.path !== 'string') return null;
  const depends = parseDepends(v.depends);
  if (depends === undefined) return null;
  const pathBound = withBound ? parseDepends(v.pathBound) : null;
  if (pathBound === undefined || (withBound && pathBound === null)) return null;
  const env = withEnv ? parseEnvironment(v.env) : null;
  if (withEnv && env === null) return null;
  const fields: OracleFields = {
    v: ORACLE_VERSION,
    ledger: v.ledger as string,
    gate: v.gate as string,
    check: v.check as string,
    expect: v.expect as string,
    cwd: v.cwd as string,
    shell: v.shell as string,
    timeoutMs: v.timeoutMs as number,
    outputCap: v.outputCap as number,
    regexCapMs: v.regexCapMs as number,
    platform: v.platform as string,
    path: v.path as string | null,
    depends,
  };
  if (pathBound) fields.pathBound = pathBound;
  if (env) fields.env = env;
  return fields;
}

/** A bound environment as the oracle writes it: a non-empty list of [name, value], names bound, sorted and unique. */
function parseEnvironment(v: unknown): [string, string][] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const out: [string, string][] = [];
  for (const e of v) {
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || typeof e[1] !== 'string' || !(isBoundVariable(e[0]) || e[0] === 'HOME' || e[0] === 'SHELL')) return null;
    if (out.length > 0 && !(out[out.length - 1]![0] < e[0])) return null;
    out.push([e[0], e[1]]);
  }
  return out;
}

function sameEntries(a: readonly DependsEntry[] | null, b: readonly DependsEntry[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((e, i) => e[0] === b[i]![0] && e[1] === b[i]![1]);
}

/** Field-by-field equality of two oracles (cheaper than re-signing, and exact). */
export function sameOracle(a: OracleFields, b: OracleFields): boolean {
  for (const k of ORACLE_KEYS) {
    if (k === 'depends') continue;
    if (a[k] !== b[k]) return false;
  }
  return sameEntries(a.depends, b.depends) && sameEntries(a.pathBound ?? null, b.pathBound ?? null) && sameEntries(a.env ?? null, b.env ?? null);
}

/**
 * Parses a record. With `expected`, the record is accepted only if it carries exactly that
 * oracle and signature (no re-signing needed); without, the signature is recomputed from the
 * oracle the record holds.
 */
export function parseApprovalRecord(text: string, expected?: { fields: OracleFields; signature: string }): RecordParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isPlainObject(data) || !hasExactKeys(data, ['schema', 'signature', 'approvedAt', 'oracle'])) {
    return { ok: false, reason: 'not an approval record (unexpected or missing fields)' };
  }
  if (data.schema !== APPROVAL_SCHEMA) return { ok: false, reason: `unknown record schema` };
  if (typeof data.signature !== 'string' || !HEX64.test(data.signature)) return { ok: false, reason: 'bad signature field' };
  if (typeof data.approvedAt !== 'string' || Number.isNaN(Date.parse(data.approvedAt))) return { ok: false, reason: 'bad approvedAt field' };
  const oracle = parseOracleFields(data.oracle);
  if (!oracle) return { ok: false, reason: 'bad oracle fields' };
  if (expected) {
    if (data.signature !== expected.signature) return { ok: false, reason: 'records another oracle' };
    // Same signature, different oracle: the record contradicts itself.
    if (!sameOracle(oracle, expected.fields)) return { ok: false, reason: 'signature does not match the oracle it records' };
  } else if (signOracle(oracle).signature !== data.signature) {
    return { ok: false, reason: 'signature does not match the oracle it records' };
  }
  return { ok: true, record: { schema: APPROVAL_SCHEMA, signature: data.signature, approvedAt: data.approvedAt, oracle } };
}

export function serializeApprovalRecord(oracle: OracleFields, signature: string, approvedAt: Date): string {
  const record: ApprovalRecord = { schema: APPROVAL_SCHEMA, signature, approvedAt: approvedAt.toISOString(), oracle };
  return JSON.stringify(record, null, 2) + '\n';
}
