// Ledger discovery: the folders it descends into must be real directories, and a ledger named
// on the command line must lie inside the repository (never the root folder itself). Each
// refusal names what is wrong and is exit 2, before anything runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from '../helpers/cli.js';

const LEDGER = '- [ ] G1: the check passes\n  CHECK: true\n  EXPECT: x\n';

describe('ledger discovery refuses', () => {
  it('a gates entry that is a file, not a folder', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), LEDGER);
    writeFileSync(join(s.repo, 'gates'), '');
    const r = runCli(['--status'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gate-check: gates is not a directory\n');
  });

  it('a ledger named outside the repository, and the repository folder itself', () => {
    const s = sandbox();
    mkdirSync(join(s.repo, '.git'));
    mkdirSync(join(s.repo, '..', 'other'));
    writeFileSync(join(s.repo, 'GATES.md'), LEDGER);
    writeFileSync(join(s.repo, '..', 'other', 'GATES.md'), LEDGER);
    for (const named of ['../other/GATES.md', '.']) {
      const r = runCli(['--status', named], { cwd: s.repo, env: s.env });
      expect(r.code, named).toBe(2);
      expect(r.stderr, named).toBe(`gate-check: ${named}: is outside the repository root ${s.repo} (refused)\nhint: pass --root with the repository that holds this ledger\n`);
    }
  });

  it('a ledger named in a folder that does not exist', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), LEDGER);
    const r = runCli(['--root', '.', '--status', 'nodir/GATES.md'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`gate-check: ${join(s.repo, 'nodir', 'GATES.md')}: no such file\n`);
  });
});
