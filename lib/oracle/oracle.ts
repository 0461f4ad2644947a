// The oracle: everything an approval binds (DESIGN §2.4), its canonical serialization and
// SHA-256 signature, and a field-by-field comparison that says why an approval no longer
// applies. Pure.
import { sha256Hex, sha256HexOfParts } from './sha256.js';
import { environmentChanges } from './bound-env.js';
import { canonicalJson, type Canonical } from './canonical.js';

export const ORACLE_VERSION = 'gate-check/oracle@1';

/** [repository-relative path, SHA-256 of its bytes], sorted by path. */
export type DependsEntry = [string, string];

export interface OracleFields {
  v: typeof ORACLE_VERSION;
  /** Canonical absolute ledger path. */
  ledger: string;
  gate: string;
  check: string;
  expect: string;
  /** Canonical absolute working directory. */
  cwd: string;
  /** Absolute shell path. */
  shell: string;
  timeoutMs: number;
  outputCap: number;
  regexCapMs: number;
  platform: string;
  /** The full inherited PATH; null when PATH is unset (different from empty). */
  path: string | null;
  depends: DependsEntry[] | null;
  /**
   * Executables found through PATH entries that resolve inside the repository (see
   * path-bound.ts), sorted. Absent when PATH has no such entry, so that oracles without one
   * keep the signature they always had.
   */
  pathBound?: DependsEntry[];
  /**
   * [name, value] of the environment variables that load code into what a check runs
   * (bound-env.ts), sorted by name. Absent when none is set, for the same reason.
   */
  env?: [string, string][];
}

export interface Oracle {
  fields: OracleFields;
  /** 64 lower-case hex digits. */
  signature: string;
}

export const ORACLE_KEYS: readonly (keyof OracleFields)[] = [
  'v', 'ledger', 'gate', 'check', 'expect', 'cwd', 'shell', 'timeoutMs', 'outputCap', 'regexCapMs', 'platform', 'path', 'depends',
];
/** The keys an oracle may carry beyond ORACLE_KEYS. */
export const OPTIONAL_ORACLE_KEYS: readonly (keyof OracleFields)[] = ['pathBound', 'env'];

export { sha256Hex };

// DEPENDS lists that resolution shares among every gate with the same patterns. A long one is
// frozen (with its entries), so that its canonical JSON and digest can be computed once per
// list instead of once per gate (5,000 gates over 2,000 files were 10 million entries to copy,
// serialize and hash). A short one is cheaper to serialize again than to freeze and splice.
const SHARE_MIN_ENTRIES = 64;
const shared = new WeakMap<readonly DependsEntry[], { json: Buffer | null; digest: string | null }>();

/** Marks a resolved list as shared (frozen, when it is long enough to be worth it); returns it. */
export function shareDepends(entries: DependsEntry[]): DependsEntry[] {
  if (entries.length < SHARE_MIN_ENTRIES) return entries;
  for (const e of entries) Object.freeze(e);
  Object.freeze(entries);
  shared.set(entries, { json: null, digest: null });
  return entries;
}

/** The canonical JSON of a shared list, as UTF-8, computed once; null for any other list. */
function sharedJson(depends: readonly DependsEntry[]): Buffer | null {
  const memo = shared.get(depends);
  if (memo === undefined) return null;
  memo.json ??= Buffer.from(canonicalJson(depends as unknown as Canonical), 'utf8');
  return memo.json;
}

const DEPENDS_SLOT = '"depends":null';

function oracleSignature(fields: OracleFields): string {
  const list = fields.depends === null ? null : sharedJson(fields.depends);
  if (list === null) return sha256Hex(canonicalJson(fields as unknown as Canonical));
  // Canonical JSON is compositional: the list's own canonical JSON in place of a null gives
  // the same bytes. Keys are sorted, so "depends" follows only "check" and "cwd", whose
  // string values cannot contain an unescaped `"`: the first match is the key itself. The
  // pieces are hashed in order, so the long list is neither copied nor re-encoded per gate.
  const skeleton = canonicalJson({ ...fields, depends: null } as unknown as Canonical);
  const at = skeleton.indexOf(DEPENDS_SLOT);
  return sha256HexOfParts([skeleton.slice(0, at) + '"depends":', list, skeleton.slice(at + DEPENDS_SLOT.length)]);
}

export function signOracle(fields: OracleFields): Oracle {
  return { fields, signature: oracleSignature(fields) };
}

/** The same oracle as signOracle, with the signature computed when it is first read. */
class LazyOracle implements Oracle {
  private sig: string | null = null;
  constructor(readonly fields: OracleFields) {}
  get signature(): string {
    this.sig ??= oracleSignature(this.fields);
    return this.sig;
  }
}

export function lazyOracle(fields: OracleFields): Oracle {
  return new LazyOracle(fields);
}

/** 12 hex digits: how signatures are shown to people (and the minimum worth typing is 8). */
export function shortSignature(signature: string): string {
  return signature.slice(0, 12);
}

/**
 * Hex digits of the signature in a pin (ID@HEX), shown and required. The author of a ledger
 * chooses both texts a pin could name, so a pin must resist a collision search, not only a
 * guess: 12 hex digits (48 bits) fell to a birthday search in under a minute on two cores;
 * 32 (128 bits) is out of reach.
 */
export const PIN_HEX_DIGITS = 32;

/** The signature prefix a pin shows. */
export function pinSignature(signature: string): string {
  return signature.slice(0, PIN_HEX_DIGITS);
}

/**
 * Digest (64 hex) of a matched DEPENDS or INPUTS list (paths and contents), as run records keep
 * it and verification compares it: 12 hex (48 bits) fell to a collision search of a few CPU
 * minutes, a good and a bad version of a file passing as one (round-41b F1).
 */
export function dependsDigestFull(depends: readonly DependsEntry[]): string {
  const memo = shared.get(depends);
  if (memo === undefined) return sha256Hex(canonicalJson(depends as unknown as Canonical));
  memo.digest ??= sha256HexOfParts([sharedJson(depends)!]);
  return memo.digest;
}

/** Its first 12 hex, as the evidence line shows it (deps=, inputs=): a label, never what verification relies on. */
export function dependsDigest(depends: readonly DependsEntry[]): string {
  return dependsDigestFull(depends).slice(0, 12);
}

const LABELS: Record<Exclude<keyof OracleFields, 'depends' | 'v' | 'pathBound' | 'env'>, string> = {
  ledger: 'ledger location changed',
  gate: 'gate id changed',
  check: 'CHECK changed',
  expect: 'EXPECT changed',
  cwd: 'CWD changed',
  shell: 'shell changed',
  timeoutMs: 'timeout changed',
  outputCap: 'output cap changed',
  regexCapMs: 'regex time cap changed',
  platform: 'platform changed',
  path: 'PATH changed',
};

const PATH_DELIMITER = process.platform === 'win32' ? ';' : ':';

/**
 * PATH in the form the oracle binds: entries after the first of the same name are removed
 * (the shell never reaches them), so that a PATH that gained a duplicate still means, and
 * signs, the same.
 */
export function normalizePath(path: string | null | undefined): string | null {
  if (path === undefined || path === null) return null;
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const entry of path.split(PATH_DELIMITER)) {
    if (seen.has(entry)) continue;
    seen.add(entry);
    kept.push(entry);
  }
  return kept.join(PATH_DELIMITER);
}

const MAX_PATH_ENTRIES_SHOWN = 4;

/** What differs between two PATH values, for people: entries added and removed, or the order. */
export function pathChange(prev: string | null, next: string | null): string {
  if (prev === null) return 'PATH changed: it was unset';
  if (next === null) return 'PATH changed: it is unset now';
  const before = prev.split(PATH_DELIMITER);
  const after = next.split(PATH_DELIMITER);
  const was = new Set(before);
  const now = new Set(after);
  const show = (list: string[]) => {
    const named = list.slice(0, MAX_PATH_ENTRIES_SHOWN).map((e) => (e === '' ? '(empty: the working directory)' : e));
    return list.length > MAX_PATH_ENTRIES_SHOWN ? `${named.join(', ')} (+${list.length - MAX_PATH_ENTRIES_SHOWN} more)` : named.join(', ');
  };
  const added = after.filter((e) => !was.has(e));
  const removed = before.filter((e) => !now.has(e));
  const parts: string[] = [];
  if (added.length > 0) parts.push(`added ${show(added)}`);
  if (removed.length > 0) parts.push(`removed ${show(removed)}`);
  if (parts.length === 0) parts.push('the same entries in another order');
  return `PATH changed: ${parts.join('; ')}`;
}

/** Why `next` differs from an earlier approved oracle, as short phrases. */
export function changedFields(prev: OracleFields, next: OracleFields): string[] {
  const out: string[] = [];
  if (prev.v !== next.v) out.push('oracle format changed');
  for (const key of Object.keys(LABELS) as (keyof typeof LABELS)[]) {
    if (prev[key] === next[key]) continue;
    out.push(key === 'path' ? pathChange(prev.path, next.path) : LABELS[key]);
  }
  for (const c of dependsChanges(prev.depends, next.depends)) out.push(c);
  for (const c of listChanges(prev.pathBound ?? null, next.pathBound ?? null, 'PATH executable inside the repository')) out.push(c);
  for (const c of environmentChanges(prev.env ?? null, next.env ?? null)) out.push(c);
  return out;
}

export function dependsChanges(prev: readonly DependsEntry[] | null, next: readonly DependsEntry[] | null): string[] {
  return listChanges(prev, next, 'DEPENDS');
}

function listChanges(prev: readonly DependsEntry[] | null, next: readonly DependsEntry[] | null, what: string): string[] {
  if (prev === null && next === null) return [];
  if (prev === null) return what === 'DEPENDS' ? ['DEPENDS added'] : [`PATH now has entries inside the repository (${next!.length} executable${next!.length === 1 ? '' : 's'})`];
  if (next === null) return what === 'DEPENDS' ? ['DEPENDS removed'] : ['PATH no longer has entries inside the repository'];
  const before = new Map(prev);
  const after = new Map(next);
  const out: string[] = [];
  for (const [path, hash] of after) {
    const old = before.get(path);
    if (old === undefined) out.push(`${what}: ${path} added`);
    else if (old !== hash) out.push(`${what}: ${path} changed`);
  }
  for (const path of before.keys()) if (!after.has(path)) out.push(`${what}: ${path} removed`);
  return out;
}
