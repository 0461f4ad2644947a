// parseApprovalRecord with the oracle a run expects (the path every approval lookup takes):
// a record that carries the expected signature but another oracle, DEPENDS above all, is not
// an approval of it. (Without an expected oracle the signature is recomputed: oracle.test.ts.)
import { describe, expect, it } from 'vitest';
import { parseApprovalRecord, sameOracle, serializeApprovalRecord } from '../../lib/approval/record.js';
import { ORACLE_VERSION, signOracle, type DependsEntry, type OracleFields } from '../../lib/oracle/oracle.js';

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

function fields(depends: DependsEntry[] | null): OracleFields {
  return {
    v: ORACLE_VERSION,
    ledger: '/repo/GATES.md',
    gate: 'G1',
    check: 'node check.mjs',
    expect: 'ok',
    cwd: '/repo',
    shell: '/bin/sh',
    timeoutMs: 120_000,
    outputCap: 1_048_576,
    regexCapMs: 250,
    platform: 'linux',
    path: '/usr/bin:/bin',
    depends,
  };
}

const approved = signOracle(fields([['check.mjs', H1], ['lib/a.mjs', H2]]));

/** A record of `recorded` that claims the approved oracle's signature. */
function forged(recorded: DependsEntry[] | null): string {
  return serializeApprovalRecord(fields(recorded), approved.signature, new Date('2024-01-02T03:04:05Z'));
}

describe('a record whose DEPENDS differ from the oracle its signature names', () => {
  const cases: [string, DependsEntry[] | null][] = [
    ['a file whose digest changed', [['check.mjs', H2], ['lib/a.mjs', H2]]],
    ['a file left out', [['check.mjs', H1]]],
    ['a file added', [['check.mjs', H1], ['lib/a.mjs', H2], ['lib/b.mjs', H1]]],
    ['a file renamed', [['check.mjs', H1], ['lib/b.mjs', H2]]],
    ['the same files in another order', [['lib/a.mjs', H2], ['check.mjs', H1]]],
    ['no DEPENDS at all', null],
    ['an empty DEPENDS list', []],
  ];
  for (const [what, recorded] of cases) {
    it(`is refused: ${what}`, () => {
      const r = parseApprovalRecord(forged(recorded), approved);
      expect(r).toEqual({ ok: false, reason: 'signature does not match the oracle it records' });
      expect(sameOracle(fields(recorded), approved.fields)).toBe(false);
    });
  }

  it('null and [] are told apart in both directions', () => {
    const none = signOracle(fields(null));
    expect(parseApprovalRecord(serializeApprovalRecord(fields([]), none.signature, new Date()), none)).toMatchObject({ ok: false });
    const empty = signOracle(fields([]));
    expect(parseApprovalRecord(serializeApprovalRecord(fields(null), empty.signature, new Date()), empty)).toMatchObject({ ok: false });
  });

  it('the record of exactly the approved oracle is accepted', () => {
    const r = parseApprovalRecord(serializeApprovalRecord(approved.fields, approved.signature, new Date('2024-01-02T03:04:05Z')), approved);
    expect(r.ok).toBe(true);
  });

  it('a record of another oracle (another signature) is "another oracle", not an error', () => {
    const other = signOracle(fields(null));
    expect(parseApprovalRecord(serializeApprovalRecord(other.fields, other.signature, new Date()), approved)).toEqual({ ok: false, reason: 'records another oracle' });
  });
});

// Without an expected oracle (list, prune), the signature is recomputed from what the record
// holds, so a record signed over malformed fields would pass that check: each malformed field
// is refused on its own.
describe('a record signed over malformed oracle fields', () => {
  const base = fields([['check.mjs', H1]]) as unknown as Record<string, unknown>;
  const cases: [string, (o: Record<string, unknown>) => void][] = [
    ['oracle is not an object', (o) => Object.keys(o).forEach((k) => delete o[k])],
    ['oracle is null', () => {}],
    ['oracle is a string', () => {}],
    ['an extra field', (o) => (o.extra = 1)],
    ['another oracle version', (o) => (o.v = 'gate-check/oracle@0')],
    ['check is not a string', (o) => (o.check = 7)],
    ['timeoutMs is negative', (o) => (o.timeoutMs = -1)],
    ['path is a number', (o) => (o.path = 1)],
    ['depends is an object', (o) => (o.depends = { 'check.mjs': H1 })],
    ['a depends entry with three parts', (o) => (o.depends = [['check.mjs', H1, 'x']])],
    ['a depends digest that is not hex', (o) => (o.depends = [['check.mjs', 'z'.repeat(64)]])],
    ['pathBound null', (o) => (o.pathBound = null)],
    ['env null', (o) => (o.env = null)],
    ['env empty (an oracle without bound variables has no env)', (o) => (o.env = [])],
    ['env an object', (o) => (o.env = { NODE_OPTIONS: 'x' })],
    ['an env entry with three parts', (o) => (o.env = [['NODE_OPTIONS', 'x', 'y']])],
    ['an env value that is not a string', (o) => (o.env = [['NODE_OPTIONS', 1]])],
    ['an env name that is not bound', (o) => (o.env = [['TERM', 'xterm']])],
    ['env names out of order', (o) => (o.env = [['PYTHONPATH', 'p'], ['NODE_OPTIONS', 'x']])],
    ['an env name twice', (o) => (o.env = [['NODE_OPTIONS', 'x'], ['NODE_OPTIONS', 'y']])],
  ];
  for (const [what, edit] of cases) {
    it(`is refused: ${what}`, () => {
      const o = structuredClone(base);
      edit(o);
      const signature = signOracle(o as unknown as OracleFields).signature;
      const special: Record<string, unknown> = { 'oracle is not an object': [], 'oracle is null': null, 'oracle is a string': 'x' };
      const text = JSON.stringify({ schema: 'gate-check/approval@1', signature, approvedAt: '2024-01-02T03:04:05.000Z', oracle: what in special ? special[what] : o });
      expect(parseApprovalRecord(text)).toEqual({ ok: false, reason: 'bad oracle fields' });
    });
  }
  it('the unmodified record is accepted (the cases above differ only in their edit), with a valid env too', () => {
    const signature = signOracle(base as unknown as OracleFields).signature;
    const text = JSON.stringify({ schema: 'gate-check/approval@1', signature, approvedAt: '2024-01-02T03:04:05.000Z', oracle: base });
    expect(parseApprovalRecord(text).ok).toBe(true);
    const withEnv = { ...base, env: [['NODE_OPTIONS', '--require x'], ['PYTHONPATH', 'p']] };
    const signed = JSON.stringify({ schema: 'gate-check/approval@1', signature: signOracle(withEnv as unknown as OracleFields).signature, approvedAt: '2024-01-02T03:04:05.000Z', oracle: withEnv });
    expect(parseApprovalRecord(signed)).toMatchObject({ ok: true, record: { oracle: { env: [['NODE_OPTIONS', '--require x'], ['PYTHONPATH', 'p']] } } });
  });
});

describe('a record whose envelope or fields contradict it', () => {
  const good = JSON.parse(serializeApprovalRecord(approved.fields, approved.signature, new Date('2024-01-02T03:04:05Z')));
  const cases: [string, (r: Record<string, any>) => void, string][] = [
    ['another schema', (r) => (r.schema = 'gate-check/approval@0'), 'unknown record schema'],
    ['a signature that is not 64 hex', (r) => (r.signature = 'A'.repeat(64)), 'bad signature field'],
    ['a time that is not one', (r) => (r.approvedAt = 'yesterday'), 'bad approvedAt field'],
    ['an extra key', (r) => (r.extra = 1), 'not an approval record (unexpected or missing fields)'],
    ['another CHECK under the approved signature', (r) => (r.oracle.check = 'node evil.mjs'), 'signature does not match the oracle it records'],
    ['another working directory under the approved signature', (r) => (r.oracle.cwd = '/elsewhere'), 'signature does not match the oracle it records'],
    ['another PATH under the approved signature', (r) => (r.oracle.path = '/tmp/bin:/usr/bin'), 'signature does not match the oracle it records'],
  ];
  for (const [what, edit, reason] of cases) {
    it(`is refused: ${what}`, () => {
      const r = structuredClone(good);
      edit(r);
      expect(parseApprovalRecord(JSON.stringify(r), approved)).toEqual({ ok: false, reason });
    });
  }
  it('the unedited record is accepted', () => {
    expect(parseApprovalRecord(JSON.stringify(good), approved).ok).toBe(true);
  });
});
