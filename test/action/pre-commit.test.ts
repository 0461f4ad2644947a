// .pre-commit-hooks.yaml: its hooks' entries run three times in a row on an unchanged
// repository (a real git repository with an approved, passing gate) pass every time and
// change no file; and, where the `pre-commit` tool is installed, the same through pre-commit
// itself, which installs this repository as a Node package (language: node).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, runCli, sandbox, tempDir } from '../helpers/cli.js';
import { actionCheckout, ROOT } from './simulated-runner.js';

interface Hook {
  id: string;
  entry: string;
  language: string;
  pass_filenames: boolean;
  always_run: boolean;
}

const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const LEDGER = '- [ ] G1: the greeting greets\n  CHECK: echo hello\n  EXPECT: hello\n';

function git(cwd: string, args: string[], env?: NodeJS.ProcessEnv): string {
  const r = spawnSync('git', ['-c', 'user.email=test@example.invalid', '-c', 'user.name=test', '-c', 'init.defaultBranch=main', ...args], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A git repository whose one gate a person approved and that passed; ledger and evidence committed. */
function approvedRepo() {
  const s = sandbox();
  git(s.repo, ['init', '-q']);
  writeFileSync(join(s.repo, 'GATES.md'), LEDGER);
  const approve = runCli(['--approve'], { cwd: s.repo, env: s.env });
  expect(approve.code, approve.stdout + approve.stderr).toBe(0);
  git(s.repo, ['add', '-A']);
  git(s.repo, ['commit', '-q', '-m', 'gates met']);
  const ledger = readFileSync(join(s.repo, 'GATES.md'));
  expect(ledger.toString('utf8')).toMatch(/^- \[x\] G1/);
  const unchanged = () => {
    expect(git(s.repo, ['status', '--porcelain', '--untracked-files=all', '--ignored'])).toBe('');
    expect(readFileSync(join(s.repo, 'GATES.md')).equals(ledger)).toBe(true);
  };
  return { ...s, unchanged };
}

describe('.pre-commit-hooks.yaml', () => {
  it('has a read-only status hook and a run hook, both language node, run once per commit without file names', () => {
    expect(hooks.map((h) => [h.id, h.entry])).toEqual([
      ['gate-check-status', 'gate-check --status'],
      ['gate-check', 'gate-check'],
    ]);
    for (const h of hooks) {
      expect(h.language).toBe('node');
      expect(h.pass_filenames).toBe(false);
      expect(h.always_run).toBe(true);
    }
    // pre-commit takes the tarball name from `npm pack`'s stdout: no script banner may precede it.
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^foreground-scripts=false$/m);
  });

  it("each hook's entry passes three times in a row on an unchanged repository and changes no file", () => {
    const r = approvedRepo();
    const bin = tempDir('gc-bin-');
    symlinkSync(BIN, join(bin, 'gate-check'));
    const env = { ...r.env, PATH: `${bin}${delimiter}${r.env.PATH ?? ''}` };
    for (const h of hooks) {
      // As pre-commit runs it: the entry split into words, no shell, no file names (pass_filenames: false).
      const [cmd, ...args] = h.entry.split(/\s+/);
      for (let i = 0; i < 3; i++) {
        const run = spawnSync(cmd!, args, { cwd: r.repo, env, encoding: 'utf8' });
        expect(run.status, `${h.id} run ${i + 1}: ${run.stdout}${run.stderr}`).toBe(0);
        r.unchanged();
      }
    }
  });
});

const preCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const havePreCommit = preCommit.status === 0;

describe.skipIf(!havePreCommit)(`the real pre-commit (${havePreCommit ? preCommit.stdout.trim() : 'not installed: skipped'})`, () => {
  it('installs gate-check from this repository (language: node) and passes three times without changing a file', () => {
    // The hook repository as pre-commit clones it: this repository's files at one commit.
    const hookRepo = actionCheckout();
    git(hookRepo, ['init', '-q']);
    git(hookRepo, ['add', '-A']);
    git(hookRepo, ['commit', '-q', '-m', 'gate-check']);
    const rev = git(hookRepo, ['rev-parse', 'HEAD']).trim();

    const r = approvedRepo();
    const config = `repos:\n  - repo: ${hookRepo}\n    rev: ${rev}\n    hooks:\n      - id: gate-check-status\n      - id: gate-check\n`;
    writeFileSync(join(r.repo, '.pre-commit-config.yaml'), config);
    git(r.repo, ['add', '-A']);
    git(r.repo, ['commit', '-q', '-m', 'pre-commit']);
    const home = tempDir('gc-pre-commit-');
    mkdirSync(join(home, 'cache'));
    // npm inside pre-commit's environment: the local npm cache first (the registry when it lacks a package).
    const env = { ...r.env, PRE_COMMIT_HOME: join(home, 'cache'), npm_config_cache: join(process.env.HOME ?? '', '.npm'), npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
    for (let i = 0; i < 3; i++) {
      const run = spawnSync('pre-commit', ['run', '--all-files', '--verbose'], { cwd: r.repo, env, encoding: 'utf8', timeout: 240_000 });
      expect(run.status, `run ${i + 1}:\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/gate-check --status \(read-only\)\.+Passed/);
      expect(run.stdout).toMatch(/gate-check \(run approved gates\)\.+Passed/);
      r.unchanged();
    }
  }, 300_000);
});
