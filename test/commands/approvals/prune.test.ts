// gate-check approvals prune through the real CLI: only approvals that can never apply again
// go; never because of the environment.
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox, writeFiles } from '../../helpers/cli.js';
import { markCheck, writeLedger, run, approvalDir, records, recordsOf, ran, approveAll } from './helpers.js';

describe('approvals prune', () => {
  it('removes approvals of a deleted ledger, a removed gate and a changed CHECK; keeps current and environment-only ones', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }, { id: 'G3' }]);
    // The same G1 approved under another timeout: an environment difference, never pruned.
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }, { id: 'G3' }], 'GATES.md', ['--timeout', '60']);
    approveAll(s, [{ id: 'X1' }], 'gates/old.md');
    approveAll(s, [{ id: 'B1' }], 'gates/broken.md');
    expect(records(s)).toHaveLength(8);

    rmSync(join(s.repo, 'gates/old.md'));
    writeLedger(s, [{ id: 'G1' }, { id: 'G3', check: `${markCheck(s, 'G3')} && true` }]);
    writeFiles(s.repo, { 'gates/broken.md': '# Gates\n\n- [ ] B1: half a gate\n  CHECK: echo ok\n' });
    // A record the store cannot read is listed by name and left alone.
    const junk = `${'0'.repeat(16)}-${'0'.repeat(64)}.json`;
    writeFileSync(join(approvalDir(s), junk), '{"not": "a record"}\n', { mode: 0o600 });
    const ledgerBefore = readFileSync(join(s.repo, 'GATES.md'), 'utf8');

    const r = run(s, ['approvals', 'prune']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pruned old:X1@[0-9a-f]{12} .*gates\/old\.md .*: ledger no longer exists$/m);
    expect(r.stdout.match(/^pruned GATES:G2@.*: gate no longer in the ledger$/gm)).toHaveLength(2);
    expect(r.stdout.match(/^pruned GATES:G3@.*: CHECK changed$/gm)).toHaveLength(2);
    expect(r.stdout).toMatch(/^kept 1 approval of .*gates\/broken\.md: ledger does not parse/m);
    expect(r.stdout).toContain(`left alone: 1 invalid record (${junk})`);
    expect(r.stdout).toMatch(/^PRUNED 5 approvals; kept 3$/m);

    expect(recordsOf(s, 'G1').map((g) => g.timeoutMs).sort((a, b) => a - b)).toEqual([60_000, 120_000]);
    expect(recordsOf(s, 'B1')).toHaveLength(1);
    expect(recordsOf(s, 'G2')).toHaveLength(0);
    expect(recordsOf(s, 'G3')).toHaveLength(0);
    expect(recordsOf(s, 'X1')).toHaveLength(0);
    expect(existsSync(join(approvalDir(s), junk))).toBe(true);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(ledgerBefore);
    expect(ran(s, 'G1') || ran(s, 'G3')).toBe(false);

    // Still approved: the current G1 runs without asking. Pruning again changes nothing.
    rmSync(join(approvalDir(s), junk));
    const next = run(s, ['GATES.md']);
    expect(next.stdout).toMatch(/^PASS GATES:G1 /m);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G3@/m);
    expect(ran(s, 'G1')).toBe(true);
    expect(ran(s, 'G3')).toBe(false);
    const again = run(s, ['approvals', 'prune']);
    expect(again.stdout).toMatch(/^PRUNED 0 approvals; kept 3$/m);
  });

  it('a changed EXPECT or a gate that became manual is pruned too', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', expect: '/ok/' }, { id: 'G2', manual: true }]);
    const r = run(s, ['approvals', 'prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pruned GATES:G1@.*: EXPECT changed$/m);
    expect(r.stdout).toMatch(/^pruned GATES:G2@.*: gate is no longer runnable$/m);
    expect(records(s)).toHaveLength(0);
  });

  it('a ledger that became a symbolic link is reported and its approvals kept', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    renameSync(join(s.repo, 'GATES.md'), join(s.repo, 'REAL.md'));
    symlinkSync(join(s.repo, 'REAL.md'), join(s.repo, 'GATES.md'));
    const r = run(s, ['approvals', 'prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kept 1 approval of .*GATES\.md: .*symbolic link/m);
    expect(records(s)).toHaveLength(1);
  });
});
