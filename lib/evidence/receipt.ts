// Run records: what each run of a gate on this machine ended with, kept in the private store
// so that `--status` can tell evidence that a run here produced from evidence someone typed,
// and so that the newest result decides: a pass followed by a failure of the same definition
// is no longer evidence, whatever the ledger line says. One file per ledger; records newest
// first. Pure: shapes, digests, validation.
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { isAbsolute, posix, relative, sep } from 'node:path';
import { sha256Hex } from '../oracle/oracle.js';

export const RECEIPTS_SCHEMA = 'gate-check/run-records@1';
const RECEIPT_VERSION = 'gate-check/receipt@2';
/** Records kept per gate (newest first): enough to switch branches and back without losing them. */
export const RECORDS_PER_GATE = 10;

/** What a run proved about one gate: the part that the evidence line and the receipt id cover. */
export interface ProvenFields {
  gate: string;
  /** Definition digest (64 hex) of the gate as it ran. */
  def: string;
  /** DEPENDS and INPUTS content digests (12 hex), null for a gate without them. */
  deps: string | null;
  inputs: string | null;
}

export interface RunRecord extends ProvenFields {
  status: 'pass' | 'fail';
  /** Digest (12 hex) of what EXPECT matched; null for a failure. */
  match: string | null;
  /** Receipt id (64 hex) of a pass: the evidence line carries its first 12 hex. Null for a failure. */
  receipt: string | null;
  /** Oracle signature the run was approved and made under. */
  signature: string;
  outputSha256: string | null;
  bytes: number | null;
  /**
   * For a run whose PATH led into the repository: those directories (repository-relative)
   * and the digest (12 hex) of the executables they held. Verification hashes the same
   * directories again, whatever the reader's PATH is.
   */
  bound: { dirs: string[]; digest: string } | null;
  /**
   * The folder the check ran in, repository-relative as found on disk (`CWD: tests` with
   * `tests -> spec/unit` ran in spec/unit; a gate without CWD at the root, or where --cwd
   * said); outside the repository (an outside --cwd), its absolute path (null in records of
   * an earlier version, which match no folder). Verification finds the folder
   * again: a link pointed elsewhere since, or another --cwd, is another check. Absent in
   * records of earlier versions (not compared).
   */
  cwd?: string | null;
  /**
   * Digest (12 hex) of the gate's title as it read when it ran: the claim the pass proved.
   * Verification reads the title again: a gate retitled since (a smoke test relabelled as an
   * audit) has proved nothing of its new claim. Absent in records of earlier versions.
   */
  title?: string;
  /**
   * The full digests (64 hex) of what the 12-hex fields above label: DEPENDS and INPUTS
   * contents, the PATH executables of `bound`, the title. Verification compares these (a
   * 48-bit label can be made to collide: round-41b F1). Absent in records of earlier
   * versions, which then verify nothing.
   */
  full?: FullDigests;
  /** When the run started (ISO 8601): the run that started last decides, not the one that ended last. */
  time: string;
}

export interface FullDigests {
  deps: string | null;
  inputs: string | null;
  bound: string | null;
  title: string;
}

export interface ReceiptFile {
  schema: typeof RECEIPTS_SCHEMA;
  ledger: string;
  records: RunRecord[];
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX12 = /^[0-9a-f]{12}$/;
const RECORD_KEYS = ['gate', 'status', 'def', 'deps', 'inputs', 'match', 'receipt', 'signature', 'outputSha256', 'bytes', 'bound', 'time'] as const;
const MAX_BOUND_DIRS = 64;
const MAX_CWD_CHARS = 4096;
const OPTIONAL_RECORD_KEYS = ['cwd', 'title', 'full'] as const;

/**
 * The receipt id of a pass. It covers what the evidence line says, and the ledger by its
 * path inside the repository, so that the same result gives the same line on every machine
 * and on every re-run (the ledger stays byte-identical).
 */
export function receiptId(ledgerInRepo: string, f: ProvenFields, match: string): string {
  return sha256Hex(
    `{"def":${JSON.stringify(f.def)},"deps":${JSON.stringify(f.deps)},"gate":${JSON.stringify(f.gate)},"inputs":${JSON.stringify(f.inputs)},"ledger":${JSON.stringify(ledgerInRepo)},"match":${JSON.stringify(match)},"v":${JSON.stringify(RECEIPT_VERSION)}}`,
  );
}

/** Exactly the record's keys, with or without the later ones (cwd, title): a record of an earlier version has neither. */
function hasRecordKeys(v: Record<string, unknown>): boolean {
  const optional = OPTIONAL_RECORD_KEYS.filter((k) => Object.hasOwn(v, k));
  return hasExactKeys(v, [...RECORD_KEYS, ...optional]);
}

/**
 * `dir` (absolute) as a record keeps it: repository-relative with '/', '.' for the root;
 * outside `root`, `dir` itself (two folders outside are two places: round-9 attack).
 */
export function repositoryFolder(root: string, dir: string): string {
  const rel = relative(root, dir);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return dir;
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** The title digest a record keeps (64 hex, in `full`). */
export function titleDigestFull(title: string): string {
  return sha256Hex(`title\0${title}`);
}

/** Its first 12 hex: the label a record keeps in `title`, and writeback compares. */
export function titleDigest(title: string): string {
  return titleDigestFull(title).slice(0, 12);
}

/** A folder as records keep it (repositoryFolder): repository-relative without '..', or a normalized absolute path. */
export function isRecordFolder(cwd: unknown): cwd is string {
  return typeof cwd === 'string' && cwd !== '' && cwd.length <= MAX_CWD_CHARS && !cwd.includes('\0') && (cwd.startsWith('/') ? posix.normalize(cwd) === cwd && (cwd === '/' || !cwd.endsWith('/')) : !cwd.split('/').includes('..'));
}

const nullableHex12 = (v: unknown) => v === null || (typeof v === 'string' && HEX12.test(v));
const nullableHex64 = (v: unknown) => v === null || (typeof v === 'string' && HEX64.test(v));

/**
 * Whether a pass read from a records file is foreign: its receipt id does not cover its fields
 * under this ledger path. It was made while the same ledger file was seen from another
 * repository root (a `gates/GATES.md` run from the top and from `gates/`, or with `--root`),
 * or not by gate-check. It stays on file, and counts as a result of its proof (the newest
 * result decides), but never verifies an evidence line here. Asked only of the pass that
 * would verify one (one hash per met gate, not per record).
 */
export function isForeignPass(record: RunRecord, ledgerInRepo: string): boolean {
  return record.status === 'pass' && receiptId(ledgerInRepo, record, record.match!) !== record.receipt;
}

/** A record's `full` digests, or null when malformed (each 64 hex, the first three nullable). */
function parseFullDigests(v: unknown): FullDigests | null {
  if (!isPlainObject(v) || !hasExactKeys(v, ['deps', 'inputs', 'bound', 'title'])) return null;
  const { deps, inputs, bound, title } = v;
  if (!nullableHex64(deps) || !nullableHex64(inputs) || !nullableHex64(bound) || typeof title !== 'string' || !HEX64.test(title)) return null;
  return { deps: deps as string | null, inputs: inputs as string | null, bound: bound as string | null, title };
}

/** A record, or null when it is malformed. */
function parseRecord(v: unknown): RunRecord | null {
  if (!isPlainObject(v) || !hasRecordKeys(v)) return null;
  const { gate, status, def, deps, inputs, match, receipt, signature, outputSha256, bytes, bound, time } = v;
  const cwd = Object.hasOwn(v, 'cwd') ? v.cwd : undefined;
  const title = Object.hasOwn(v, 'title') ? v.title : undefined;
  if (title !== undefined && !(typeof title === 'string' && HEX12.test(title))) return null;
  const full = Object.hasOwn(v, 'full') ? parseFullDigests(v.full) : undefined;
  if (full === null) return null;
  if (cwd !== undefined && cwd !== null && !isRecordFolder(cwd)) return null;
  if (typeof gate !== 'string' || (status !== 'pass' && status !== 'fail')) return null;
  if (typeof def !== 'string' || !HEX64.test(def) || !nullableHex12(deps) || !nullableHex12(inputs)) return null;
  if (typeof signature !== 'string' || !HEX64.test(signature) || !nullableHex64(outputSha256)) return null;
  if (bytes !== null && (!Number.isSafeInteger(bytes) || (bytes as number) < 0)) return null;
  if (typeof time !== 'string' || Number.isNaN(Date.parse(time))) return null;
  let boundDirs: { dirs: string[]; digest: string } | null = null;
  if (bound !== null) {
    if (!isPlainObject(bound) || !hasExactKeys(bound, ['dirs', 'digest'])) return null;
    const { dirs, digest } = bound;
    if (!Array.isArray(dirs) || dirs.length === 0 || dirs.length > MAX_BOUND_DIRS || !dirs.every((d) => typeof d === 'string' && d !== '' && !d.startsWith('/') && !d.split('/').includes('..'))) return null;
    if (typeof digest !== 'string' || !HEX12.test(digest)) return null;
    boundDirs = { dirs: dirs as string[], digest };
  }
  const r: RunRecord = {
    gate,
    status,
    def,
    deps: deps as string | null,
    inputs: inputs as string | null,
    match: match as string | null,
    receipt: receipt as string | null,
    signature,
    outputSha256: outputSha256 as string | null,
    bytes: bytes as number | null,
    bound: boundDirs,
    ...(cwd !== undefined ? { cwd: cwd as string | null } : {}),
    ...(title !== undefined ? { title: title as string } : {}),
    ...(full !== undefined ? { full } : {}),
    time,
  };
  if (status === 'fail') return match === null && receipt === null ? r : null;
  if (typeof match !== 'string' || !HEX12.test(match) || typeof receipt !== 'string' || !HEX64.test(receipt)) return null;
  return r;
}

export type ReceiptFileParse = { ok: true; file: ReceiptFile } | { ok: false; reason: string };

/** `ledger` is the canonical absolute path (the file is per ledger). Its foreign passes are kept (isForeignPass). */
export function parseReceiptFile(text: string, ledger: string): ReceiptFileParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isPlainObject(data) || !hasExactKeys(data, ['schema', 'ledger', 'records'])) return { ok: false, reason: 'unexpected or missing fields' };
  if (data.schema !== RECEIPTS_SCHEMA) return { ok: false, reason: 'unknown schema' };
  if (data.ledger !== ledger) return { ok: false, reason: 'names another ledger' };
  if (!Array.isArray(data.records)) return { ok: false, reason: 'records is not a list' };
  const records: RunRecord[] = [];
  for (const raw of data.records) {
    const record = parseRecord(raw);
    if (!record) return { ok: false, reason: 'a record is malformed' };
    records.push(record);
  }
  return { ok: true, file: { schema: RECEIPTS_SCHEMA, ledger, records } };
}

function sameProof(a: ProvenFields, b: ProvenFields): boolean {
  return a.gate === b.gate && a.def === b.def && a.deps === b.deps && a.inputs === b.inputs;
}

/**
 * Newest start first; at the same start a failure before a pass. Records are kept in this
 * order and the last ones go, so no pass outlives a failure of its gate that started with or
 * after it: a slow pass written after a newer failure, then nine more runs with other
 * contents, pushed that failure out while the pass stayed and verified again (round-39a F1).
 */
function newestStartFirst(a: RunRecord, b: RunRecord): number {
  return Date.parse(b.time) - Date.parse(a.time) || (a.status === b.status ? 0 : a.status === 'fail' ? -1 : 1);
}

/**
 * Adds new records, newest start first per gate. A new record replaces earlier ones of the
 * same proof (gate, definition, DEPENDS, INPUTS): only the newest result of a proof is kept,
 * so that the newest result is the one that decides. At most RECORDS_PER_GATE per gate: those
 * that started last.
 */
export function mergeRecords(file: ReceiptFile, added: readonly RunRecord[]): ReceiptFile {
  const byGate = new Map<string, RunRecord[]>();
  for (const r of file.records) {
    const list = byGate.get(r.gate);
    if (list) list.push(r);
    else byGate.set(r.gate, [r]);
  }
  for (const r of added) {
    const list = byGate.get(r.gate) ?? [];
    // A run that started before the recorded one of the same proof finished after it: it
    // saw an older state of the work, so the recorded result stays the one that decides.
    const started = Date.parse(r.time);
    if (list.some((x) => sameProof(x, r) && Date.parse(x.time) > started)) continue;
    byGate.set(r.gate, [r, ...list.filter((x) => !sameProof(x, r))].sort(newestStartFirst).slice(0, RECORDS_PER_GATE));
  }
  const records: RunRecord[] = [];
  for (const list of byGate.values()) for (const r of list) records.push(r);
  return { ...file, records };
}

export function serializeReceiptFile(file: ReceiptFile): string {
  // One record per line: compact to write and to parse, still readable.
  return `{"schema":${JSON.stringify(file.schema)},"ledger":${JSON.stringify(file.ledger)},"records":[\n${file.records.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}

/** The newest record of this proof, if any: the result that decides. */
export function newestOf(records: readonly RunRecord[], proof: ProvenFields): RunRecord | null {
  for (const r of records) if (sameProof(r, proof)) return r;
  return null;
}
