// parseReport reads a --json report as hostile input: each check below is one refusal, and
// each case fails if that refusal is removed.
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../lib/report/parse-report.js';
import { shardReports, workspace } from './merge-fixtures.js';

const ws = workspace([
  {
    file: 'GATES.md',
    gates: [
      { id: 'A', kind: 'runnable', ticked: false, abandoned: false, outcome: 'pass' },
      { id: 'B', kind: 'runnable', ticked: false, abandoned: false, outcome: 'fail' },
      { id: 'M', kind: 'manual', ticked: false, abandoned: false, outcome: 'pass' },
    ],
  },
]);
/** A genuine 1/1 shard report with a pass, a fail and a manual gate, as plain JSON. */
function base(): Record<string, any> {
  const r = JSON.parse(JSON.stringify(shardReports(ws, 1)[0]!.report));
  r.warnings = [{ file: 'GATES.md', line: 2, message: 'w' }];
  return r;
}
function reason(edit: (r: Record<string, any>) => void): string {
  const r = base();
  edit(r);
  const p = parseReport(JSON.stringify(r));
  if (p.ok) throw new Error('expected a refusal');
  return p.reason;
}

const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../references/report.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

describe('parseReport', () => {
  it("removes escapes, controls and bidi from a shard's reasons, which reach the merged --json (round-15b F2)", () => {
    const doc = base();
    const gate = doc.gates.find((g: any) => g.result !== null)!;
    gate.result.error = 'exit 1 \u001b]0;TITLE\u0007 \u001b[2J \u202e rtl';
    gate.verificationReason = 'DEPENDS changed: a.sh\u001b[K';
    gate.stateReason = 'x\u200by';
    const p = parseReport(JSON.stringify(doc));
    if (!p.ok) throw new Error(p.reason);
    const read = p.report.gates.find((g) => g.qualified === gate.qualified)!;
    expect(read.result!.error).toBe('exit 1    rtl');
    expect(read.verificationReason).toBe('DEPENDS changed: a.sh');
    expect(read.stateReason).toBe('x<U+200B>y');
  });

  it('reads a genuine report back exactly, and it matches the schema', () => {
    const doc = base();
    expect(validate(doc)).toBe(true);
    const p = parseReport(JSON.stringify(doc));
    expect(p.ok && p.report).toEqual(doc);
  });

  const request = () => ({ check: 'sh check.sh', expect: 'ok', cwd: '/r', shell: '/bin/sh', timeoutMs: 120_000, path: null, depends: [], pathBound: [], env: [], pinOnly: ['CHECK'], unboundScripts: ['check.sh'], unboundNotJudged: null as string | null });
  const withRequest = (edit: (q: Record<string, unknown>) => void = () => {}) => {
    const r = base();
    const q = request();
    edit(q);
    Object.assign(r.gates[0].result, { status: 'approval-required', exit: null, outputSha256: null, bytes: null, durationMs: null, error: 'approval required', changed: null, request: q });
    return r;
  };

  it('reads an approval request back exactly, with what is approved only by its pin and the scripts no DEPENDS binds', () => {
    for (const doc of [withRequest(), withRequest((q) => (q.unboundScripts = null)), withRequest((q) => (q.unboundNotJudged = 'cd -'))]) {
      expect(validate(doc)).toBe(true);
      const p = parseReport(JSON.stringify(doc));
      expect(p.ok && p.report).toEqual(doc);
    }
  });

  it('refuses an approval request without pinOnly, or with scripts that are not a list', () => {
    const reasonOf = (edit: (q: Record<string, unknown>) => void) => {
      const p = parseReport(JSON.stringify(withRequest(edit)));
      return p.ok ? 'accepted' : p.reason;
    };
    expect(reasonOf((q) => delete q.pinOnly)).toMatch(/request: unexpected or missing fields \(expected .*pinOnly, unboundScripts, unboundNotJudged\)$/);
    expect(reasonOf((q) => (q.pinOnly = 'CHECK'))).toMatch(/request\.pinOnly: not a list$/);
    expect(reasonOf((q) => (q.unboundScripts = 'check.sh'))).toMatch(/request\.unboundScripts: not a list$/);
    expect(reasonOf((q) => (q.unboundNotJudged = ['cd -']))).toMatch(/request\.unboundNotJudged: /);
    expect(reasonOf((q) => delete q.unboundNotJudged)).toMatch(/request: unexpected or missing fields/);
  });

  it('refuses what is not JSON, or not an object', () => {
    expect(parseReport('{')).toEqual({ ok: false, reason: 'not valid JSON' });
    expect(parseReport('[]')).toEqual({ ok: false, reason: 'report: not an object' });
    expect(parseReport('null')).toEqual({ ok: false, reason: 'report: not an object' });
  });

  const cases: [string, (r: Record<string, any>) => void, string][] = [
    ['an extra top-level field', (r) => (r.extra = 1), 'report: unexpected or missing fields'],
    ['a wave that returned more leaves than it started', (r) => (r.waves = [{ id: 'w1', state: 'sealed', leaves: 2, started: 1, returned: 2 }]), 'waves[0]: returned <= started <= leaves does not hold'],
    ['a wave that started more leaves than it has', (r) => (r.waves = [{ id: 'w1', state: 'open', leaves: 1, started: 2, returned: 0 }]), 'waves[0]: returned <= started <= leaves does not hold'],
    ['a missing top-level field', (r) => delete r.summary, 'report: unexpected or missing fields'],
    ['a __proto__ key', (r) => Object.defineProperty(r, '__proto__', { value: {}, enumerable: true }), 'report: unexpected or missing fields'],
    ['another schema', (r) => (r.schema = 'gate-check/report@2'), 'schema: expected gate-check/report@1'],
    ['an unknown mode', (r) => (r.mode = 'yolo'), 'mode: not one of'],
    ['an exit code no run has', (r) => (r.exitCode = 7), 'exitCode: not one of'],
    ['an exit code that is a string', (r) => (r.exitCode = '0'), 'exitCode: not one of'],
    ['a root that is not a string', (r) => (r.root = 1), 'root: not a string'],
    ['files that are not a list', (r) => (r.files = 'GATES.md'), 'files: not a list'],
    ['a file that is not a string', (r) => (r.files = [1]), 'files[0]: not a string'],
    ['a ledger that is not an object', (r) => (r.ledgers = ['GATES.md']), 'ledgers[0]: not an object'],
    ['a ledger with an extra field', (r) => (r.ledgers[0].x = 1), 'ledgers[0]: unexpected or missing fields'],
    ['a ledger file that is not a string', (r) => (r.ledgers[0].file = null), 'ledgers[0].file: not a string'],
    ['a ledger digest that is not a SHA-256', (r) => (r.ledgers[0].sha256 = 'ABC'), 'ledgers[0].sha256: not a SHA-256'],
    ['an upper-case ledger digest', (r) => (r.ledgers[0].sha256 = r.ledgers[0].sha256.toUpperCase()), 'ledgers[0].sha256: not a SHA-256'],
    ['a shard that is not an object', (r) => (r.shard = 1), 'shard: not an object'],
    ['a shard without reran', (r) => delete r.shard.reran, 'shard: unexpected or missing fields'],
    ['a shard count of 0', (r) => (r.shard.count = 0), 'shard.count: less than 1'],
    ['a shard count of 1001', (r) => (r.shard.count = 1001), 'shard.count: more than 1000'],
    ['a shard count that is not an integer', (r) => (r.shard.count = 1.5), 'shard.count: not an integer'],
    ['a shard index of 0', (r) => (r.shard.index = 0), 'shard.index: less than 1'],
    ['a shard index above the count', (r) => (r.shard.index = 2), 'shard.index: 2 is more than shard.count 1'],
    ['an unknown reran', (r) => (r.shard.reran = 'some'), 'shard.reran: not one of'],
    ['a summary with a missing count', (r) => delete r.summary.met, 'summary: unexpected or missing fields'],
    ['a negative summary count', (r) => (r.summary.met = -1), 'summary.met: less than 0'],
    ['a summary count that is not an integer', (r) => (r.summary.total = '3'), 'summary.total: not an integer'],
    ['warnings that are not a list', (r) => (r.warnings = {}), 'warnings: not a list'],
    ['a warning that is not an object', (r) => (r.warnings = ['w']), 'warnings[0]: not an object'],
    ['a warning with an extra field', (r) => (r.warnings[0].x = 1), 'warnings[0].x: unexpected field'],
    ['a warning without a message', (r) => delete r.warnings[0].message, 'warnings[0].message: not a string'],
    ['a warning file that is not a string', (r) => (r.warnings[0].file = 1), 'warnings[0].file: not a string'],
    ['a warning line of 0', (r) => (r.warnings[0].line = 0), 'warnings[0].line: less than 1'],
    ['an error that is not an object', (r) => (r.errors = [null]), 'errors[0]: not an object'],
    ['gates that are not a list', (r) => (r.gates = null), 'gates: not a list'],
    ['a gate that is not an object', (r) => (r.gates[0] = 'A'), 'gates[0]: not an object'],
    ['a gate with an extra field', (r) => (r.gates[0].owner = 1), 'gates[0]: unexpected or missing fields'],
    ['a gate file that is not a string', (r) => (r.gates[0].file = 1), 'gates[0].file: not a string'],
    ['a gate line of 0', (r) => (r.gates[0].line = 0), 'gates[0].line: less than 1'],
    ['a gate id that is not a gate id', (r) => (r.gates[0].id = 'A B'), 'gates[0].id: not a gate id'],
    ['a qualified id with a second colon', (r) => (r.gates[0].qualified = 'a:b:A'), 'gates[0].qualified: not a qualified id'],
    ['a qualified id without a stem', (r) => (r.gates[0].qualified = 'A'), 'gates[0].qualified: not a qualified id'],
    ['a title that is not a string', (r) => (r.gates[0].title = ['t']), 'gates[0].title: not a string'],
    ['an unknown kind', (r) => (r.gates[0].kind = 'magic'), 'gates[0].kind: not one of'],
    ['a definition that is not a SHA-256', (r) => (r.gates[0].definition = 'abc'), 'gates[0].definition: not a SHA-256'],
    ['an unknown state', (r) => (r.gates[0].state = 'done'), 'gates[0].state: not one of'],
    ['a stateReason that is not a string', (r) => (r.gates[0].stateReason = 1), 'gates[0].stateReason: not a string'],
    ['checked that is not a boolean', (r) => (r.gates[0].checked = 'true'), 'gates[0].checked: not a boolean'],
    ['an unknown verification', (r) => (r.gates[0].verification = 'trusted'), 'gates[0].verification: not one of'],
    ['a verificationReason that is not a string', (r) => (r.gates[0].verificationReason = {}), 'gates[0].verificationReason: not a string'],
    ['a result that is not an object', (r) => (r.gates[0].result = 'pass'), 'gates[0].result: not an object'],
    ['a result with a missing field', (r) => delete r.gates[0].result.changed, 'gates[0].result: unexpected or missing fields'],
    ['an unknown result status', (r) => (r.gates[0].result.status = 'ok'), 'gates[0].result.status: not one of'],
    ['an exit that is not an integer', (r) => (r.gates[0].result.exit = 0.5), 'gates[0].result.exit: not an integer'],
    ['an output digest that is not a SHA-256', (r) => (r.gates[0].result.outputSha256 = 'x'), 'gates[0].result.outputSha256: not a SHA-256'],
    ['negative bytes', (r) => (r.gates[0].result.bytes = -1), 'gates[0].result.bytes: less than 0'],
    ['a negative duration', (r) => (r.gates[0].result.durationMs = -5), 'gates[0].result.durationMs: less than 0'],
    ['an error that is not a string', (r) => (r.gates[1].result.error = 1), 'gates[1].result.error: not a string'],
    ['a signature that is not a SHA-256', (r) => (r.gates[0].result.signature = 'x'.repeat(64)), 'gates[0].result.signature: not a SHA-256'],
    ['changed that is not a list', (r) => (r.gates[0].result.changed = 'CHECK'), 'gates[0].result.changed: not a list'],
    ['a changed entry that is not a string', (r) => (r.gates[0].result.changed = [1]), 'gates[0].result.changed[0]: not a string'],
  ];
  for (const [what, edit, expected] of cases) {
    it(`refuses ${what}`, () => {
      expect(reason(edit)).toContain(expected);
    });
  }

  it('accepts what the schema allows: nullable fields, other exits, a 1000-shard report', () => {
    const r = base();
    r.exitCode = 130;
    r.shard = { index: 1000, count: 1000, reran: 'stale' };
    r.gates[1].result.exit = null;
    r.gates[2].verification = null;
    const p = parseReport(JSON.stringify(r));
    expect(p.ok).toBe(true);
    expect(validate(r)).toBe(true);
  });
});
