// gate-check approvals: help and misuse.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox } from '../../helpers/cli.js';
import { writeLedger, run } from './helpers.js';

describe('approvals command line', () => {
  it('help exits 0 for the command and each subcommand', () => {
    const s = sandbox();
    for (const [args, usage] of [
      [['approvals', '--help'], 'Usage: gate-check approvals [options] [command]'],
      [['approvals', '-h'], 'Usage: gate-check approvals [options] [command]'],
      [['approvals', 'list', '--help'], 'Usage: gate-check approvals list [options] [file...]'],
      [['approvals', 'revoke', '-h'], 'Usage: gate-check approvals revoke [options] [target...]'],
      [['approvals', 'prune', '--help'], 'Usage: gate-check approvals prune [options]'],
      [['approvals', 'help', 'revoke'], 'Usage: gate-check approvals revoke [options] [target...]'],
    ] as [string[], string][]) {
      const r = run(s, args);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(usage);
    }
    expect(existsSync(join(s.home, '.gate-check'))).toBe(false);
  });

  it('misuse is exit 2: no subcommand, an unknown one, an unknown or repeated option, a bad --timeout', () => {
    const s = sandbox();
    writeLedger(s, [{ id: 'G1' }]);
    for (const args of [
      ['approvals'],
      ['approvals', 'frobnicate'],
      ['approvals', 'list', '--bogus'],
      ['approvals', 'list', '--json', '--json'],
      ['approvals', 'list', '--timeout', '0'],
      ['approvals', 'list', '--timeout', 'abc'],
      ['approvals', 'prune', 'extra'],
      ['approvals', 'list', '--scope', 'x', 'GATES.md'],
    ]) {
      const r = run(s, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: /);
    }
  });
});
