import { describe, expect, it } from 'vitest';
import { makeReceipt, mergeReceipts, parseReceiptFile, RECEIPTS_PER_GATE, RECEIPTS_SCHEMA, receiptDigest, serializeReceiptFile, type ReceiptFile } from '../../lib/evidence/receipt.js';

const L = '/repo/GATES.md';
const fields = { gate: 'G1', signature: 'a'.repeat(64), outputSha256: 'b'.repeat(64), bytes: 3, deps: null };

describe('receipts', () => {
  it('digest covers the stable fields, not the time', () => {
    const r1 = makeReceipt(L, fields, new Date(0));
    const r2 = makeReceipt(L, fields, new Date(1e12));
    expect(r1.digest).toBe(r2.digest);
    expect(receiptDigest(L, { ...fields, bytes: 4 })).not.toBe(r1.digest);
    expect(receiptDigest('/other/GATES.md', fields)).not.toBe(r1.digest);
  });

  it('parses what it serializes, and refuses tampering, extra keys and another ledger', () => {
    const file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, receipts: [makeReceipt(L, fields, new Date())] };
    const text = serializeReceiptFile(file);
    expect(parseReceiptFile(text, L)).toEqual({ ok: true, file });
    expect(parseReceiptFile(text, '/other').ok).toBe(false);
    expect(parseReceiptFile(text.replace('"bytes":3', '"bytes":4'), L).ok).toBe(false);
    expect(parseReceiptFile(text.replace('"gate"', '"__proto__": {}, "gate"'), L).ok).toBe(false);
    expect(parseReceiptFile('{"schema":"gate-check/receipts@1","ledger":"/repo/GATES.md","receipts":[],"x":1}', L).ok).toBe(false);
    expect(parseReceiptFile('not json', L).ok).toBe(false);
  });

  it('keeps the newest receipts per gate, without duplicates', () => {
    let file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, receipts: [] };
    for (let i = 0; i < RECEIPTS_PER_GATE + 3; i++) file = mergeReceipts(file, [makeReceipt(L, { ...fields, bytes: i }, new Date())]);
    file = mergeReceipts(file, [makeReceipt(L, { ...fields, bytes: RECEIPTS_PER_GATE + 2 }, new Date())]);
    expect(file.receipts).toHaveLength(RECEIPTS_PER_GATE);
    expect(file.receipts[0]!.bytes).toBe(RECEIPTS_PER_GATE + 2);
  });
});

describe('receipt digest', () => {
  it('is the SHA-256 of the canonical JSON of the stable fields', async () => {
    const { canonicalJson } = await import('../../lib/oracle/canonical.js');
    const { sha256Hex } = await import('../../lib/oracle/oracle.js');
    const f = { gate: 'G"1', signature: 'a'.repeat(64), outputSha256: 'b'.repeat(64), bytes: 12, deps: 'c'.repeat(12) };
    const canonical = canonicalJson({ v: 'gate-check/receipt@1', ledger: L, gate: f.gate, signature: f.signature, outputSha256: f.outputSha256, bytes: f.bytes, deps: f.deps });
    expect(receiptDigest(L, f)).toBe(sha256Hex(canonical));
    expect(receiptDigest(L, { ...f, deps: null })).toBe(sha256Hex(canonicalJson({ v: 'gate-check/receipt@1', ledger: L, gate: f.gate, signature: f.signature, outputSha256: f.outputSha256, bytes: f.bytes, deps: null })));
  });
});
