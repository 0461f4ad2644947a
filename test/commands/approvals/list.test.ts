// gate-check approvals list through the real CLI: the approval state of the oracle a run
// would compute, without creating the store.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, writeFiles } from '../../helpers/cli.js';
import { type ListGate, markCheck, ledgerText, writeLedger, run, approvalDir, records, ran, clearMarkers, approveAll, listJson } from './helpers.js';

describe('approvals list', () => {
  it('shows current, other (with what changed), none and unresolvable, one line per gate', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2', check: `${markCheck(s, 'G2')} && true` }, { id: 'G3' }, { id: 'G4', depends: 'missing/*.js' }, { id: 'M', manual: true }]);
    const before = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
    const r = run(s, ['approvals', 'list']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('GATES:G1 '))).toMatch(/^GATES:G1 +current +[0-9a-f]{12} +approved \d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(lines.find((l) => l.startsWith('GATES:G2 '))).toMatch(/^GATES:G2 +other +[0-9a-f]{12} +approved \S+ for another oracle: CHECK changed$/);
    expect(lines.find((l) => l.startsWith('GATES:G3 '))).toMatch(/^GATES:G3 +none +[0-9a-f]{12} +never approved$/);
    expect(lines.find((l) => l.startsWith('GATES:G4 '))).toMatch(/^GATES:G4 +unresolvable +- +DEPENDS of GATES:G4: pattern missing\/\*\.js matches no file under \/\S+$/);
    expect(r.stdout).not.toMatch(/GATES:M/); // manual gates have no oracle
    expect(r.stdout).toMatch(/^4 runnable gates: 1 current, 1 other, 1 none, 1 unresolvable$/m);
    // Nothing ran, nothing was written, the store did not change.
    for (const id of ['G1', 'G2', 'G3', 'G4']) expect(ran(s, id)).toBe(false);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(before);
    expect(records(s)).toHaveLength(2);
  });

  it('computes the oracle a run with the same options would: the signature a plain run shows, --timeout and a missing CWD', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);
    const plain = run(s, ['--status']); // never runs or approves
    expect(plain.code).toBe(1);
    const shown = run(s, []);
    const pin = /^APPROVAL REQUIRED GATES:G2@([0-9a-f]{32}) /m.exec(shown.stdout)?.[1];
    expect(pin).toBeDefined();
    clearMarkers(s);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);

    const gates = listJson(s).gates;
    expect(gates.find((g) => g.qualified === 'GATES:G2')!.signature!.startsWith(pin!)).toBe(true);
    expect(gates.find((g) => g.qualified === 'GATES:G1')!.state).toBe('current');

    const longer = listJson(s, ['--timeout', '60']).gates.find((g) => g.qualified === 'GATES:G1')!;
    expect(longer.state).toBe('other');
    expect(longer.changed).toEqual(['timeout changed']);

    const bash = listJson(s, ['--shell', '/bin/bash']).gates.find((g) => g.qualified === 'GATES:G1')!;
    expect(bash.changed).toEqual(['shell changed']);

    writeFiles(s.repo, { 'GATES.md': ledgerText(s, [{ id: 'G1' }]).replace('  EXPECT: ok', '  EXPECT: ok\n  CWD: nowhere') });
    const missing = listJson(s).gates[0]!;
    expect(missing.state).toBe('unresolvable');
    expect(missing.reason).toMatch(/^CWD of GATES:G1 \(GATES\.md:\d+\) does not exist: /);
    expect(ran(s, 'G1')).toBe(false);
  });

  it('--json: one document with the approvals@1 shape', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2', expect: '/ok/' }, { id: 'G3' }, { id: 'G4', depends: 'missing/*.js' }]);
    const doc = listJson(s);
    expect(doc.schema).toBe('gate-check/approvals@1');
    expect(doc.gates.map((g) => [g.qualified, g.state])).toEqual([
      ['GATES:G1', 'current'],
      ['GATES:G2', 'other'],
      ['GATES:G3', 'none'],
      ['GATES:G4', 'unresolvable'],
    ]);
    for (const g of doc.gates) {
      for (const key of ['file', 'line', 'qualified', 'state', 'signature', 'approvedAt', 'changed']) expect(Object.hasOwn(g, key)).toBe(true);
      expect(g.file).toBe('GATES.md');
      expect(typeof g.line).toBe('number');
    }
    const [g1, g2, g3, g4] = doc.gates as [ListGate, ListGate, ListGate, ListGate];
    expect(g1.line).toBe(3);
    expect(g1.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(records(s).some((n) => n.endsWith(`-${g1.signature!}.json`))).toBe(true);
    expect(Number.isNaN(Date.parse(g1.approvedAt!))).toBe(false);
    expect(g1.changed).toBeNull();
    expect(g2.changed).toEqual(['EXPECT changed']);
    expect(g2.approvedAt).not.toBeNull();
    expect(records(s).some((n) => n.endsWith(`-${g2.signature!}.json`))).toBe(false);
    expect(g3).toMatchObject({ state: 'none', approvedAt: null, changed: null });
    expect(g3.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(g4).toMatchObject({ state: 'unresolvable', signature: null, approvedAt: null, changed: null });
    expect(g4.reason).toMatch(/matches no file/);
  });

  it('does not create ~/.gate-check: without a store every gate is none', () => {
    const s = sandbox();
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);
    const r = run(s, ['approvals', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GATES:G1 +none /m);
    expect(r.stdout).toMatch(/^GATES:G2 +none /m);
    expect(listJson(s).gates.every((g) => g.state === 'none')).toBe(true);
    expect(existsSync(join(s.home, '.gate-check'))).toBe(false);
    // Nor the approvals directory under an existing base.
    mkdirSync(join(s.home, '.gate-check'), { mode: 0o700 });
    expect(run(s, ['approvals', 'list']).code).toBe(0);
    expect(existsSync(approvalDir(s))).toBe(false);
    for (const sub of [['revoke', 'G1'], ['revoke', '--all'], ['prune']]) {
      expect(run(s, ['approvals', ...sub]).code).toBe(0);
      expect(existsSync(approvalDir(s))).toBe(false);
    }
  });

  it('a ledger file name with escape and bidi characters is refused (exit 2), and named clean', () => {
    const s = sandbox();
    const evil = 'gates/e\u001b[31mvil\u202e.md';
    writeLedger(s, [{ id: 'G1' }], evil);
    const r = run(s, ['approvals', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gates\/evil\.md: ledger name "evil" cannot qualify gate ids/);
    expect(r.stdout + r.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});
