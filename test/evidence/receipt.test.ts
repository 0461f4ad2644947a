import { describe, expect, it } from 'vitest';
import { isForeignPass, mergeRecords, newestOf, parseReceiptFile, RECEIPTS_SCHEMA, receiptId, RECORDS_PER_GATE, serializeReceiptFile, type ReceiptFile, type RunRecord } from '../../lib/evidence/receipt.js';

const L = '/repo/GATES.md';
const IN_REPO = 'GATES.md';
const proof = { gate: 'G1', def: 'd'.repeat(64), deps: null, inputs: null };

function pass(match = 'a'.repeat(12), over: Partial<RunRecord> = {}): RunRecord {
  const p = { ...proof, ...over };
  return { ...p, status: 'pass', match, receipt: receiptId(IN_REPO, p, match), signature: 's'.replace('s', 'e').repeat(64), outputSha256: 'b'.repeat(64), bytes: 3, bound: null, time: new Date(0).toISOString() };
}
function fail(over: Partial<RunRecord> = {}): RunRecord {
  return { ...proof, ...over, status: 'fail', match: null, receipt: null, signature: 'e'.repeat(64), outputSha256: 'b'.repeat(64), bytes: 3, bound: null, time: new Date(0).toISOString() };
}

describe('receipt ids', () => {
  it('cover the ledger (by its path in the repository), gate, definition, files and match; nothing of the machine', () => {
    const id = receiptId(IN_REPO, proof, 'a'.repeat(12));
    expect(receiptId(IN_REPO, proof, 'a'.repeat(12))).toBe(id);
    expect(receiptId('gates/x.md', proof, 'a'.repeat(12))).not.toBe(id);
    expect(receiptId(IN_REPO, { ...proof, gate: 'G2' }, 'a'.repeat(12))).not.toBe(id);
    expect(receiptId(IN_REPO, { ...proof, def: 'e'.repeat(64) }, 'a'.repeat(12))).not.toBe(id);
    expect(receiptId(IN_REPO, { ...proof, deps: '0'.repeat(12) }, 'a'.repeat(12))).not.toBe(id);
    expect(receiptId(IN_REPO, { ...proof, inputs: '0'.repeat(12) }, 'a'.repeat(12))).not.toBe(id);
    expect(receiptId(IN_REPO, proof, 'b'.repeat(12))).not.toBe(id);
  });
});

describe('run records file', () => {
  it('parses what it serializes, and refuses tampering, extra keys and another ledger', () => {
    const file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, records: [pass(), fail({ gate: 'G2' })] };
    const text = serializeReceiptFile(file);
    expect(parseReceiptFile(text, L)).toEqual({ ok: true, file });
    expect(file.records.map((r) => isForeignPass(r, IN_REPO))).toEqual([false, false]);
    expect(parseReceiptFile(text, '/other').ok).toBe(false);
    expect(parseReceiptFile(text.replace('"gate"', '"__proto__": {}, "gate"'), L).ok).toBe(false);
    expect(parseReceiptFile(text.replace('"status":"fail","match":null', `"status":"fail","match":"${'a'.repeat(12)}"`), L).ok).toBe(false);
    expect(parseReceiptFile(`{"schema":"${RECEIPTS_SCHEMA}","ledger":"${L}","records":[],"x":1}`, L).ok).toBe(false);
    expect(parseReceiptFile('not json', L).ok).toBe(false);
  });

  // Found by an attack: the same ledger file seen from two repository roots (gates/GATES.md
  // run from the top and from gates/) shares one records file, and each view refused the
  // other's passes as malformed, so a failing run there exited 2 before recording its failure.
  it('keeps a pass whose receipt id does not cover it under this ledger path, as foreign: made under another root, or not by gate-check', () => {
    const file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, records: [pass(), fail({ gate: 'G2' })] };
    const text = serializeReceiptFile(file);
    const moved = parseReceiptFile(text, L);
    expect(moved).toEqual({ ok: true, file });
    expect(moved.ok && moved.file.records.map((r) => isForeignPass(r, 'gates/GATES.md'))).toEqual([true, false]);
    const tampered = parseReceiptFile(text.replace(`"match":"${'a'.repeat(12)}"`, `"match":"${'c'.repeat(12)}"`), L);
    expect(tampered.ok && tampered.file.records.filter((r) => isForeignPass(r, IN_REPO)).map((r) => r.match)).toEqual(['c'.repeat(12)]);
    // Kept as they were: written back unchanged, and still the newest result of their proof.
    expect(moved.ok && JSON.parse(serializeReceiptFile(mergeRecords(moved.file, [])))).toEqual(JSON.parse(text));
  });

  it('keeps only the newest result of a proof: a failure replaces the pass before it', () => {
    let file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, records: [] };
    file = mergeRecords(file, [pass()]);
    expect(newestOf(file.records, proof)!.status).toBe('pass');
    file = mergeRecords(file, [fail()]);
    expect(file.records).toHaveLength(1);
    expect(newestOf(file.records, proof)!.status).toBe('fail');
    expect(newestOf(file.records, { ...proof, deps: '0'.repeat(12) })).toBeNull();
  });

  it('keeps at most RECORDS_PER_GATE proofs per gate, the newest first', () => {
    let file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, records: [] };
    for (let i = 0; i < RECORDS_PER_GATE + 3; i++) file = mergeRecords(file, [pass('a'.repeat(12), { deps: i.toString(16).padStart(12, '0') })]);
    expect(file.records).toHaveLength(RECORDS_PER_GATE);
    expect(file.records[0]!.deps).toBe((RECORDS_PER_GATE + 2).toString(16).padStart(12, '0'));
  });

  it('drops the runs that started first: a pass never outlives a failure of its gate that started with or after it (round-39a F1)', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    let file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, records: [] };
    // The failure started after the slow pass, which was written after it.
    file = mergeRecords(file, [fail({ def: 'e'.repeat(64), time: at(2000) })]);
    file = mergeRecords(file, [pass('a'.repeat(12), { time: at(1000) })]);
    for (let i = 0; i < RECORDS_PER_GATE - 1; i++) file = mergeRecords(file, [pass('a'.repeat(12), { inputs: i.toString(16).padStart(12, '0'), time: at(3000 + i) })]);
    expect(file.records).toHaveLength(RECORDS_PER_GATE);
    expect(file.records.map((r) => r.time)).toEqual([...file.records.map((r) => r.time)].sort().reverse());
    expect(newestOf(file.records, proof)).toBeNull(); // the slow pass went first
    expect(file.records.some((r) => r.status === 'fail')).toBe(true);
    // At the same start, the pass goes before the failure.
    let tie: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger: L, records: [] };
    tie = mergeRecords(tie, [fail({ def: 'e'.repeat(64), time: at(5) })]);
    tie = mergeRecords(tie, [pass('a'.repeat(12), { time: at(5) })]);
    expect(tie.records.map((r) => r.status)).toEqual(['fail', 'pass']);
  });

  it('refuses each malformed field, in a failure (which no receipt id covers) and in a pass whose id was recomputed over it', () => {
    const text = (r: unknown) => `{"schema":"${RECEIPTS_SCHEMA}","ledger":"${L}","records":[${JSON.stringify(r)}]}`;
    const withId = (r: Record<string, unknown>) => ({ ...r, receipt: receiptId(IN_REPO, r as unknown as RunRecord, r.match as string) });
    expect(parseReceiptFile(text(fail()), L).ok).toBe(true);
    expect(parseReceiptFile(text(withId({ ...pass() })), L).ok).toBe(true);
    const bad: Record<string, unknown[]> = {
      gate: [42, null, ['G1']],
      status: ['PASS', 'ok', null],
      def: ['d'.repeat(63), 'D'.repeat(64), null, 7],
      deps: ['0'.repeat(11), 'g'.repeat(12), 12],
      inputs: ['0'.repeat(13), 'X'.repeat(12), false],
      signature: ['e'.repeat(12), null, 'E'.repeat(64)],
      outputSha256: ['b'.repeat(12), 'B'.repeat(64), 0],
      bytes: [-1, 1.5, '3', Number.MAX_SAFE_INTEGER + 1],
      time: ['yesterday', 0, null],
    };
    // match is covered by the id, so only its shape stops one recomputed over a number or upper case.
    for (const match of [123, 'A'.repeat(12), 'a'.repeat(11)]) expect(parseReceiptFile(text(withId({ ...pass(), match })), L).ok, `match=${match}`).toBe(false);
    expect(parseReceiptFile(`{"schema":"gate-check/run-records@2","ledger":"${L}","records":[]}`, L)).toEqual({ ok: false, reason: 'unknown schema' });
    for (const records of ['{}', '"abc"', 'null', '{"length":1,"0":{}}']) {
      expect(parseReceiptFile(`{"schema":"${RECEIPTS_SCHEMA}","ledger":"${L}","records":${records}}`, L), records).toEqual({ ok: false, reason: 'records is not a list' });
    }
    for (const [field, values] of Object.entries(bad)) {
      for (const value of values) {
        const label = `${field}=${JSON.stringify(value)}`;
        expect(parseReceiptFile(text({ ...fail(), [field]: value }), L).ok, `fail ${label}`).toBe(false);
        if (field !== 'status') expect(parseReceiptFile(text(withId({ ...pass(), [field]: value })), L).ok, `pass ${label}`).toBe(false);
      }
    }
  });

  it('refuses a bound field that is not a list of repository directories with a digest', () => {
    const good = { ...pass(), bound: { dirs: ['tools'], digest: 'a'.repeat(12) } };
    const text = (r: unknown) => `{"schema":"${RECEIPTS_SCHEMA}","ledger":"${L}","records":[${JSON.stringify(r)}]}`;
    expect(parseReceiptFile(text(good), L).ok).toBe(true);
    for (const bound of [{ dirs: [], digest: 'a'.repeat(12) }, { dirs: ['/etc'], digest: 'a'.repeat(12) }, { dirs: ['../x'], digest: 'a'.repeat(12) }, { dirs: ['tools'], digest: 'xyz' }, { dirs: ['tools'] }, { dirs: ['tools'], digest: 'a'.repeat(12), extra: 1 }, { dirs: Array(65).fill('t'), digest: 'a'.repeat(12) }, 'tools']) {
      expect(parseReceiptFile(text({ ...good, bound }), L).ok, JSON.stringify(bound)).toBe(false);
    }
  });

  it('takes a record with the folder its CWD led to (absolute outside the repository), or without one (earlier versions); refuses any other cwd', () => {
    const text = (r: unknown) => `{"schema":"${RECEIPTS_SCHEMA}","ledger":"${L}","records":[${JSON.stringify(r)}]}`;
    // An absolute folder: a --cwd outside the repository.
    for (const cwd of ['spec/unit', '.', null, '/srv/out', '/']) {
      const parsed = parseReceiptFile(text({ ...pass(), cwd }), L);
      expect(parsed.ok && parsed.file.records[0]!.cwd, JSON.stringify(cwd)).toBe(cwd);
    }
    const legacy = parseReceiptFile(text(pass()), L);
    expect(legacy.ok && legacy.file.records[0]!.cwd).toBeUndefined();
    for (const cwd of ['', '/etc/', '/a/../b', '//x', '/a\0b', '../x', 'a/../../b', 'x'.repeat(4097), 3, ['a'], { dir: 'a' }]) {
      expect(parseReceiptFile(text({ ...pass(), cwd }), L).ok, JSON.stringify(cwd).slice(0, 40)).toBe(false);
    }
  });

  it('takes a record with the digest of the title it ran under, or without one; refuses anything else there', () => {
    const text = (r: unknown) => `{"schema":"${RECEIPTS_SCHEMA}","ledger":"${L}","records":[${JSON.stringify(r)}]}`;
    const parsed = parseReceiptFile(text({ ...pass(), cwd: null, title: 'a'.repeat(12) }), L);
    expect(parsed.ok && parsed.file.records[0]!.title).toBe('a'.repeat(12));
    for (const title of [null, '', 'A'.repeat(12), 'a'.repeat(13), 'the title', 12]) {
      expect(parseReceiptFile(text({ ...pass(), title }), L).ok, JSON.stringify(title)).toBe(false);
    }
    expect(parseReceiptFile(text({ ...pass(), title: 'a'.repeat(12), extra: 1 }), L).ok).toBe(false);
  });
});
