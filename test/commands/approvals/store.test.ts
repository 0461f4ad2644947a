// An unsafe store stops every approvals subcommand with exit 2 before anything changes.
import { chmodSync, existsSync, lstatSync, mkdirSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox } from '../../helpers/cli.js';
import { writeLedger, run, approvalDir, snapshot, approveAll } from './helpers.js';

describe('an unsafe store stops every subcommand with exit 2 and touches nothing', () => {
  const subcommands = [
    ['approvals', 'list'],
    ['approvals', 'list', '--json'],
    ['approvals', 'revoke', 'G1'],
    ['approvals', 'revoke', '--all'],
    ['approvals', 'revoke', '--all', '--dry-run'],
    ['approvals', 'prune'],
    ['approvals', 'prune', '--dry-run'],
  ];

  it('approvals directory with mode 0777', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', check: 'echo changed' }]); // prunable, were the store safe
    chmodSync(approvalDir(s), 0o777);
    const before = snapshot(approvalDir(s));
    try {
      for (const args of subcommands) {
        const r = run(s, args);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/approved: has permissions 0777: group or other may access it/);
        expect(snapshot(approvalDir(s))).toEqual(before);
        expect(statSync(approvalDir(s)).mode & 0o777).toBe(0o777);
      }
    } finally {
      chmodSync(approvalDir(s), 0o700);
    }
  });

  it('approvals directory that is a symbolic link', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', check: 'echo changed' }]);
    const real = join(s.home, 'elsewhere');
    renameSync(approvalDir(s), real);
    symlinkSync(real, approvalDir(s));
    const before = snapshot(real);
    expect(Object.keys(before)).toHaveLength(2);
    for (const args of subcommands) {
      const r = run(s, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/approved: is a symbolic link \(refused/);
      expect(snapshot(real)).toEqual(before);
      expect(lstatSync(approvalDir(s)).isSymbolicLink()).toBe(true);
    }
  });

  it('a base directory ~/.gate-check with group permissions, even before approvals exist', () => {
    const s = sandbox();
    writeLedger(s, [{ id: 'G1' }]);
    mkdirSync(join(s.home, '.gate-check'));
    chmodSync(join(s.home, '.gate-check'), 0o770);
    for (const args of subcommands) {
      const r = run(s, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\.gate-check: has permissions 0770/);
      expect(existsSync(approvalDir(s))).toBe(false);
    }
  });
});
