// Receipts: what a passing run proved, kept in the private store so that `--status` can tell
// evidence that a run on this machine produced from evidence that someone typed. One file
// per ledger holds the recent receipts of its gates. Pure: shapes, digests, validation.
import { sha256Hex } from '../oracle/oracle.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';

export const RECEIPTS_SCHEMA = 'gate-check/receipts@1';
const RECEIPT_VERSION = 'gate-check/receipt@1';
/** Receipts kept per gate (the newest first): enough to switch branches without losing them. */
export const RECEIPTS_PER_GATE = 5;

export interface Receipt {
  gate: string;
  /** Oracle signature of the run. */
  signature: string;
  outputSha256: string;
  bytes: number;
  /** DEPENDS digest (12 hex) or null for a gate without DEPENDS. */
  deps: string | null;
  /** SHA-256 of the stable fields (everything but the time); evidence carries its first 12 hex. */
  digest: string;
  time: string;
}

export interface ReceiptFile {
  schema: typeof RECEIPTS_SCHEMA;
  ledger: string;
  receipts: Receipt[];
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX12 = /^[0-9a-f]{12}$/;
const RECEIPT_KEYS = ['gate', 'signature', 'outputSha256', 'bytes', 'deps', 'digest', 'time'] as const;

export function receiptDigest(ledger: string, r: Omit<Receipt, 'digest' | 'time'>): string {
  // The canonical JSON (keys in sorted order) of the stable fields, written out directly: this
  // runs once per passing check and once per receipt read.
  const text = `{"bytes":${r.bytes},"deps":${JSON.stringify(r.deps)},"gate":${JSON.stringify(r.gate)},"ledger":${JSON.stringify(ledger)},"outputSha256":${JSON.stringify(r.outputSha256)},"signature":${JSON.stringify(r.signature)},"v":${JSON.stringify(RECEIPT_VERSION)}}`;
  return sha256Hex(text);
}

export function makeReceipt(ledger: string, fields: Omit<Receipt, 'digest' | 'time'>, time: Date): Receipt {
  return { ...fields, digest: receiptDigest(ledger, fields), time: time.toISOString() };
}

function parseReceipt(v: unknown, ledger: string): Receipt | null {
  if (!isPlainObject(v) || !hasExactKeys(v, RECEIPT_KEYS)) return null;
  const { gate, signature, outputSha256, bytes, deps, digest, time } = v;
  if (typeof gate !== 'string' || typeof signature !== 'string' || !HEX64.test(signature)) return null;
  if (typeof outputSha256 !== 'string' || !HEX64.test(outputSha256)) return null;
  if (!Number.isSafeInteger(bytes) || (bytes as number) < 0) return null;
  if (deps !== null && (typeof deps !== 'string' || !HEX12.test(deps))) return null;
  if (typeof digest !== 'string' || !HEX64.test(digest) || typeof time !== 'string' || Number.isNaN(Date.parse(time))) return null;
  const r: Receipt = { gate, signature, outputSha256, bytes: bytes as number, deps: deps as string | null, digest, time };
  // A receipt whose digest does not cover its own fields was not written by gate-check.
  return receiptDigest(ledger, r) === digest ? r : null;
}

export type ReceiptFileParse = { ok: true; file: ReceiptFile } | { ok: false; reason: string };

export function parseReceiptFile(text: string, expectedLedger: string): ReceiptFileParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isPlainObject(data) || !hasExactKeys(data, ['schema', 'ledger', 'receipts'])) return { ok: false, reason: 'unexpected or missing fields' };
  if (data.schema !== RECEIPTS_SCHEMA) return { ok: false, reason: 'unknown schema' };
  if (data.ledger !== expectedLedger) return { ok: false, reason: 'names another ledger' };
  if (!Array.isArray(data.receipts)) return { ok: false, reason: 'receipts is not a list' };
  const receipts: Receipt[] = [];
  for (const raw of data.receipts) {
    const r = parseReceipt(raw, expectedLedger);
    if (!r) return { ok: false, reason: 'a receipt is malformed or its digest does not match' };
    receipts.push(r);
  }
  return { ok: true, file: { schema: RECEIPTS_SCHEMA, ledger: expectedLedger, receipts } };
}

/** Adds new receipts (newest first per gate, duplicates by digest replaced), keeping RECEIPTS_PER_GATE per gate. */
export function mergeReceipts(file: ReceiptFile, added: readonly Receipt[]): ReceiptFile {
  const byGate = new Map<string, Receipt[]>();
  for (const r of file.receipts) byGate.set(r.gate, [...(byGate.get(r.gate) ?? []), r]);
  for (const r of added) {
    const list = (byGate.get(r.gate) ?? []).filter((x) => x.digest !== r.digest);
    byGate.set(r.gate, [r, ...list].slice(0, RECEIPTS_PER_GATE));
  }
  return { ...file, receipts: [...byGate.values()].flat() };
}

export function serializeReceiptFile(file: ReceiptFile): string {
  // One receipt per line: compact to write and to parse, still readable.
  return `{"schema":${JSON.stringify(file.schema)},"ledger":${JSON.stringify(file.ledger)},"receipts":[\n${file.receipts.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}
