// The newest pass and the newest failure of each check in a repository, per set of DEPENDS and
// INPUTS contents, whatever gate id or ledger file it ran under. A check is its definition
// (CHECK, EXPECT, CWD, DEPENDS and INPUTS patterns, TIMEOUT: definition.ts) and the folder it
// ran in. The run records of a ledger
// (receipt.ts) are kept per ledger file and gate id, so a failing run made under a renamed id
// or in a moved ledger, then the old ledger checked out, would leave the old pass verified
// (round-35 F1); this index links them. One file per repository in the receipts directory.
// Pure: shapes, merge, validation, the question verification asks.
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { isRecordFolder, type RunRecord } from './receipt.js';

export const CHECK_RESULTS_SCHEMA = 'gate-check/check-results@1';
/** Checks kept (the newest by time): far more than a repository has, bounded for a hostile file. */
export const MAX_CHECKS = 20_000;
const MAX_NAME_CHARS = 4096;
const HEX64 = /^[0-9a-f]{64}$/;
const HEX12 = /^[0-9a-f]{12}$/;
const ENTRY_KEYS = ['def', 'cwd', 'deps', 'inputs', 'status', 'time', 'ledger', 'gate'] as const;

/** One result of one check: where it ran (ledger path inside the repository, gate id) and when it started. */
export interface CheckResult {
  def: string;
  /** The folder it ran in as records keep it (repositoryFolder); null when the record did not say. */
  cwd: string | null;
  /** The DEPENDS and INPUTS contents it ran with (12 hex; null: none). */
  deps: string | null;
  inputs: string | null;
  status: 'pass' | 'fail';
  time: string;
  ledger: string;
  gate: string;
}

export interface CheckResultsFile {
  schema: typeof CHECK_RESULTS_SCHEMA;
  root: string;
  /** At most one pass and one failure per check and set of file contents. */
  results: CheckResult[];
}

const checkOf = (r: { def: string; cwd?: string | null }) => `${r.def}\0${r.cwd ?? ''}`;
/** A check run with given DEPENDS and INPUTS contents: only a pass of exactly that settles its failure. */
const runOf = (r: { def: string; cwd?: string | null; deps: string | null; inputs: string | null }) => `${checkOf(r)}\0${r.deps ?? '-'}\0${r.inputs ?? '-'}`;
const slotOf = (r: CheckResult) => `${runOf(r)}\0${r.status}`;

/** The results of run records made in one ledger (repository-relative path). */
export function resultsOf(ledgerInRepo: string, records: readonly RunRecord[]): CheckResult[] {
  return records.map((r) => ({ def: r.def, cwd: r.cwd ?? null, deps: r.deps, inputs: r.inputs, status: r.status, time: r.time, ledger: ledgerInRepo, gate: r.gate }));
}

/** Adds results: per check, contents and status only the one that started last is kept; at most MAX_CHECKS of them. */
export function mergeResults(file: CheckResultsFile, added: readonly CheckResult[]): CheckResultsFile {
  const slots = new Map<string, CheckResult>();
  for (const r of [...file.results, ...added]) {
    const known = slots.get(slotOf(r));
    if (known === undefined || Date.parse(r.time) > Date.parse(known.time)) slots.set(slotOf(r), r);
  }
  let results = [...slots.values()].sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
  if (results.length > MAX_CHECKS) {
    // The checks run longest ago go first (both results of a check go together).
    const kept = new Set<string>();
    for (const r of results) if (kept.size < MAX_CHECKS) kept.add(runOf(r));
    if (kept.size === MAX_CHECKS) results = results.filter((r) => kept.has(runOf(r)));
  }
  return { ...file, results };
}

/**
 * A failure of the same check (definition and folder), whatever files it ran with, that
 * started after `pass` did, and that no later pass of that check with the very same DEPENDS
 * and INPUTS contents settled; null when there is none. The newest result of a check decides,
 * whichever gate id or ledger file it ran under; a pass with other contents (fixtures trimmed
 * for it, then put back) settles nothing (round-38c F1).
 */
export function laterFailure(file: CheckResultsFile, pass: { def: string; cwd?: string | null; time: string }): CheckResult | null {
  const check = indexOf(file).get(checkOf(pass));
  if (check === undefined) return null;
  const since = Date.parse(pass.time);
  let found: CheckResult | null = null;
  let foundAt = -Infinity;
  for (const { result, at } of check.fails) {
    // A failure started in the same millisecond as the pass counts: which saw the newer work is unknown.
    if (at < since || (check.settledAt.get(runOf(result)) ?? -Infinity) > at) continue;
    if (found === null || at > foundAt) {
      found = result;
      foundAt = at;
    }
  }
  return found;
}

/** One check's results: when each set of contents last passed, and its failures. */
interface CheckIndex {
  settledAt: Map<string, number>;
  fails: { result: CheckResult; at: number }[];
}

// Built once per file (files are never changed in place: mergeResults makes a new one), so that
// verifying n gates is not n passes over every result.
const indexes = new WeakMap<CheckResultsFile, Map<string, CheckIndex>>();

function indexOf(file: CheckResultsFile): Map<string, CheckIndex> {
  let index = indexes.get(file);
  if (index !== undefined) return index;
  index = new Map();
  for (const r of file.results) {
    const key = checkOf(r);
    let check = index.get(key);
    if (check === undefined) index.set(key, (check = { settledAt: new Map(), fails: [] }));
    if (r.status === 'pass') check.settledAt.set(runOf(r), Date.parse(r.time));
    else check.fails.push({ result: r, at: Date.parse(r.time) });
  }
  indexes.set(file, index);
  return index;
}

export function serializeCheckResults(file: CheckResultsFile): string {
  return `{"schema":${JSON.stringify(file.schema)},"root":${JSON.stringify(file.root)},"results":[\n${file.results.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}

function parseResult(v: unknown): CheckResult | null {
  if (!isPlainObject(v) || !hasExactKeys(v, ENTRY_KEYS)) return null;
  const { def, cwd, deps, inputs, status, time, ledger, gate } = v;
  if (typeof def !== 'string' || !HEX64.test(def)) return null;
  if (!(deps === null || (typeof deps === 'string' && HEX12.test(deps))) || !(inputs === null || (typeof inputs === 'string' && HEX12.test(inputs)))) return null;
  if (cwd !== null && !isRecordFolder(cwd)) return null;
  if (status !== 'pass' && status !== 'fail') return null;
  if (typeof time !== 'string' || Number.isNaN(Date.parse(time))) return null;
  if (typeof ledger !== 'string' || ledger === '' || ledger.length > MAX_NAME_CHARS || ledger.includes('\0')) return null;
  if (typeof gate !== 'string' || gate === '' || gate.length > MAX_NAME_CHARS || gate.includes('\0')) return null;
  return { def, cwd, deps, inputs, status, time, ledger, gate };
}

export type CheckResultsParse = { ok: true; file: CheckResultsFile } | { ok: false; reason: string };

/** `root` is the canonical repository root the file is for. */
export function parseCheckResults(text: string, root: string): CheckResultsParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isPlainObject(data) || !hasExactKeys(data, ['schema', 'root', 'results'])) return { ok: false, reason: 'unexpected or missing fields' };
  if (data.schema !== CHECK_RESULTS_SCHEMA) return { ok: false, reason: 'unknown schema' };
  if (data.root !== root) return { ok: false, reason: 'names another repository' };
  if (!Array.isArray(data.results) || data.results.length > 2 * MAX_CHECKS) return { ok: false, reason: `results is not a list of at most ${2 * MAX_CHECKS}` };
  const results: CheckResult[] = [];
  for (const raw of data.results) {
    const r = parseResult(raw);
    if (r === null) return { ok: false, reason: 'a result is malformed' };
    results.push(r);
  }
  return { ok: true, file: { schema: CHECK_RESULTS_SCHEMA, root, results } };
}
