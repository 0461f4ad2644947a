import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLedger } from '../../lib/ledger/parse.js';
import { runCli, sandbox, tempDir } from '../helpers/cli.js';
import { isRoot, tinyTmpfs } from '../helpers/limits.js';

describe('gate-check init', () => {
  it('writes a starter ledger that parses, with a runnable gate declaring its script and a manual gate', () => {
    const s = sandbox();
    const r = runCli(['init'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(0);
    const parsed = parseLedger(readFileSync(join(s.repo, 'GATES.md'), 'utf8'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.ledger.warnings).toEqual([]);
    const [g1, g2] = parsed.ledger.gates;
    expect(g1).toMatchObject({ kind: 'runnable', depends: ['scripts/check-gates-example.mjs'] });
    expect(g2!.kind).toBe('manual');
    expect(existsSync(join(s.repo, 'scripts/check-gates-example.mjs'))).toBe(true);
    expect(runCli(['lint', '--strict'], { cwd: s.repo, env: s.env }).code).toBe(0);
  });

  it('the starter gate passes once approved', () => {
    const s = sandbox();
    runCli(['init'], { cwd: s.repo, env: s.env });
    const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(r.stdout).toMatch(/^PASS GATES:G1/m);
  });

  it('refuses to overwrite an existing ledger or script, changing nothing', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), 'mine\n');
    const r = runCli(['init'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already exists/);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(s.repo, 'scripts'))).toBe(false);
  });

  it('refuses a scripts/ that is a symbolic link (even to an empty directory), writing nothing anywhere', () => {
    const s = sandbox();
    const elsewhere = tempDir('gc-elsewhere-');
    symlinkSync(elsewhere, join(s.repo, 'scripts'));
    const r = runCli(['init'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.repo, 'scripts')}: is a symbolic link (refused: init writes only inside the repository)`);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(s.repo)).toEqual(['scripts']);
  });

  it('refuses a scripts/ that is a dangling symbolic link, never creating its target', () => {
    const s = sandbox();
    const target = join(tempDir('gc-elsewhere-'), 'made-by-init');
    symlinkSync(target, join(s.repo, 'scripts'));
    expect(runCli(['init'], { cwd: s.repo, env: s.env }).code).toBe(2);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(s.repo, 'GATES.md'))).toBe(false);
  });

  it('writes into an existing real scripts/ directory', () => {
    const s = sandbox();
    mkdirSync(join(s.repo, 'scripts'));
    expect(runCli(['init'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(existsSync(join(s.repo, 'scripts', 'check-gates-example.mjs'))).toBe(true);
  });

  it.skipIf(!isRoot)('a full disk after the ledger was written (a real tmpfs): exit 2 naming the script, and no ledger is left (run as root)', () => {
    const fs = tinyTmpfs(4096);
    if (!fs) return;
    try {
      const s = sandbox();
      const r = runCli(['init'], { cwd: fs.dir, env: s.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${join(fs.dir, 'scripts', 'check-gates-example.mjs')}: cannot create (ENOSPC: no space left on the device)`);
      expect(existsSync(join(fs.dir, 'GATES.md'))).toBe(false);
      expect(execFileSync('find', [fs.dir, '-type', 'f']).toString()).toBe('');
    } finally {
      fs.unmount();
    }
  });

  it('points to a format reference that the installed package holds, not to a file of this repository', () => {
    const s = sandbox();
    expect(runCli(['init'], { cwd: s.repo, env: s.env }).code).toBe(0);
    const text = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
    const named = [...text.matchAll(/node_modules\/gate-check\/([\w./-]+\.md)/g)].map((m) => m[1]!);
    expect(named).toEqual(['references/gates.md']);
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { name: string; files: string[] };
    expect(pkg.name).toBe('gate-check');
    expect(pkg.files).toContain('references/');
    expect(existsSync(join(import.meta.dirname, '../..', named[0]!))).toBe(true);
    expect(text).not.toMatch(/^See references/m);
  });
});
