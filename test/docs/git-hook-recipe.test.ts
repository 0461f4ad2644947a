// references/hooks-in-git.md's plain pre-commit hook, run as written (gate-check started by
// its bin instead of npx): the commit that makes a gate pass stops until the evidence is added.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox } from '../helpers/cli.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../references/hooks-in-git.md'), 'utf8');

/** The fenced sh block that holds `marker`, as the doc shows it. */
function recipe(marker: string): string {
  const block = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes(marker));
  if (block === undefined) throw new Error(`no sh block with ${marker}`);
  return block;
}

const PRE_COMMIT = '# .git/hooks/pre-commit (chmod +x): run the approved gates';

/** The doc's pre-commit hook in `repo`, as written but for gate-check started by its bin instead of npx. */
function installPreCommit(repo: string): void {
  writeFileSync(join(repo, '.git/hooks/pre-commit'), recipe(PRE_COMMIT).replace('npx --no-install gate-check', `${process.execPath} ${BIN}`));
  chmodSync(join(repo, '.git/hooks/pre-commit'), 0o755);
}

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
  // Identity from the environment: `git -c` would hand the hook GIT_CONFIG_PARAMETERS, which an approval binds.
  return spawnSync('git', args, { cwd, env: { ...env, GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.invalid' }, encoding: 'utf8' });
}

describe('the plain pre-commit hook of hooks-in-git.md', () => {
  it('runs the approved gates with the terminal\'s oracles, and stops a commit whose run wrote evidence until it is added', () => {
    const s = sandbox();
    expect(recipe(PRE_COMMIT)).toContain('npx --no-install gate-check');
    expect(git(s.repo, ['init', '-q'], s.env).status).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: the work is done\n  CHECK: test -f done.txt && echo done\n  EXPECT: done\n');
    // Approved at the terminal; it fails until the work is there.
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(1);
    expect(git(s.repo, ['add', '-A'], s.env).status).toBe(0);
    expect(git(s.repo, ['commit', '-q', '-m', 'gates'], s.env).status).toBe(0);
    installPreCommit(s.repo);

    writeFileSync(join(s.repo, 'done.txt'), 'x\n');
    expect(git(s.repo, ['add', 'done.txt'], s.env).status).toBe(0);
    const first = git(s.repo, ['commit', '-q', '-m', 'the work'], s.env);
    expect(first.status, first.stdout + first.stderr).toBe(1);
    // git gives a hook's output to its stderr.
    expect(first.stdout + first.stderr).toMatch(/^PASS GATES:G1/m);
    expect(first.stdout + first.stderr).not.toMatch(/APPROVAL REQUIRED/);
    expect(first.stderr).toContain('gate-check wrote evidence into the ledger: git add it and commit again');
    expect(git(s.repo, ['add', 'GATES.md'], s.env).status).toBe(0);
    const second = git(s.repo, ['commit', '-q', '-m', 'the work'], s.env);
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(git(s.repo, ['status', '--porcelain'], s.env).stdout).toBe('');
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env: s.env }).code).toBe(0);
  });

  // Round-38b F5: a broken change staged, its fix left unstaged: the gates passed on the work
  // tree and the commit went in broken with a ledger that says met.
  it('stops a commit while the work tree holds changes or new files the commit leaves out, before running anything', () => {
    const s = sandbox();
    expect(git(s.repo, ['init', '-q'], s.env).status).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: the work is right\n  CHECK: grep -q right work.txt && echo right && touch ran.txt\n  EXPECT: right\n  INPUTS: work.txt\n');
    writeFileSync(join(s.repo, '.gitignore'), 'ran.txt\nscratch/\n');
    writeFileSync(join(s.repo, 'work.txt'), 'right\n');
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(git(s.repo, ['add', '-A'], s.env).status).toBe(0);
    expect(git(s.repo, ['commit', '-q', '-m', 'work'], s.env).status).toBe(0);
    installPreCommit(s.repo);
    rmSync(join(s.repo, 'ran.txt'));

    writeFileSync(join(s.repo, 'work.txt'), 'wrong\n');
    expect(git(s.repo, ['add', 'work.txt'], s.env).status).toBe(0);
    writeFileSync(join(s.repo, 'work.txt'), 'right\n'); // the fix, not staged
    const partial = git(s.repo, ['commit', '-q', '-m', 'broken'], s.env);
    expect(partial.status).toBe(1);
    expect(partial.stderr).toContain('the work tree holds changes this commit leaves out');
    expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);

    writeFileSync(join(s.repo, 'work.txt'), 'wrong\n'); // the work tree is the commit again
    writeFileSync(join(s.repo, 'helper.txt'), 'new\n'); // a new file, not added
    expect(git(s.repo, ['commit', '-q', '-m', 'broken'], s.env).status).toBe(1);
    expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);

    rmSync(join(s.repo, 'helper.txt'));
    // A fix git is told not to look at (round-38c F4): assume-unchanged, skip-worktree.
    for (const mark of ['--assume-unchanged', '--skip-worktree']) {
      writeFileSync(join(s.repo, 'work.txt'), 'right\n');
      expect(git(s.repo, ['update-index', mark, 'work.txt'], s.env).status).toBe(0);
      const hidden = git(s.repo, ['commit', '-q', '-m', 'broken'], s.env);
      expect(hidden.status, mark).toBe(1);
      expect(hidden.stderr).toContain('files are marked assume-unchanged or skip-worktree');
      expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
      expect(git(s.repo, ['update-index', mark.replace('--', '--no-'), 'work.txt'], s.env).status).toBe(0);
      writeFileSync(join(s.repo, 'work.txt'), 'wrong\n');
    }
    mkdirSync(join(s.repo, 'scratch'));
    writeFileSync(join(s.repo, 'scratch', 'notes'), 'ignored\n'); // ignored files do not count
    const whole = git(s.repo, ['commit', '-q', '-m', 'broken'], s.env);
    expect(whole.status).toBe(1); // now the gate runs on what the commit holds, and fails
    expect(whole.stdout + whole.stderr).toMatch(/^FAIL GATES:G1/m);
    expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
  });

  // Round-38c F5: an edit inside a submodule marked ignore = dirty passed the hook.
  it('stops a commit while a submodule holds changes, whatever .gitmodules says', () => {
    const s = sandbox();
    const sub = join(s.home, 'sub-origin');
    mkdirSync(sub);
    expect(git(sub, ['init', '-q'], s.env).status).toBe(0);
    writeFileSync(join(sub, 'lib.txt'), 'v1\n');
    expect(git(sub, ['add', '-A'], s.env).status).toBe(0);
    expect(git(sub, ['commit', '-q', '-m', 'v1'], s.env).status).toBe(0);
    expect(git(s.repo, ['init', '-q'], s.env).status).toBe(0);
    expect(git(s.repo, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sub'], s.env).status).toBe(0);
    expect(git(s.repo, ['config', '-f', '.gitmodules', 'submodule.sub.ignore', 'dirty'], s.env).status).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: t\n  CHECK: cat sub/lib.txt\n  EXPECT: v1\n');
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(git(s.repo, ['add', '-A'], s.env).status).toBe(0);
    expect(git(s.repo, ['commit', '-q', '-m', 'gates'], s.env).status).toBe(0);
    installPreCommit(s.repo);
    writeFileSync(join(s.repo, 'sub', 'lib.txt'), 'v2\n'); // not committed in the submodule
    writeFileSync(join(s.repo, 'note.txt'), 'x\n');
    expect(git(s.repo, ['add', 'note.txt'], s.env).status).toBe(0);
    const r = git(s.repo, ['commit', '-q', '-m', 'note'], s.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('the work tree holds changes this commit leaves out');
    // Round-38e F2: a file marked skip-worktree inside the submodule hides its change there.
    expect(git(join(s.repo, 'sub'), ['update-index', '--skip-worktree', 'lib.txt'], s.env).status).toBe(0);
    const hidden = git(s.repo, ['commit', '-q', '-m', 'note'], s.env);
    expect(hidden.status).toBe(1);
    expect(hidden.stderr).toContain('files are marked assume-unchanged or skip-worktree');
  });

  // Round-38e F2: an uncommitted edit in a nested submodule that its parent marks ignore = dirty.
  it('stops a commit while a nested submodule holds changes', () => {
    const s = sandbox();
    const make = (name: string) => {
      const dir = join(s.home, name);
      mkdirSync(dir);
      expect(git(dir, ['init', '-q'], s.env).status).toBe(0);
      writeFileSync(join(dir, `${name}.txt`), 'v1\n');
      expect(git(dir, ['add', '-A'], s.env).status).toBe(0);
      expect(git(dir, ['commit', '-q', '-m', 'v1'], s.env).status).toBe(0);
      return dir;
    };
    const inner = make('inner');
    const outer = make('outer');
    expect(git(outer, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'inner'], s.env).status).toBe(0);
    expect(git(outer, ['config', '-f', '.gitmodules', 'submodule.inner.ignore', 'dirty'], s.env).status).toBe(0);
    expect(git(outer, ['add', '-A'], s.env).status).toBe(0);
    expect(git(outer, ['commit', '-q', '-m', 'inner'], s.env).status).toBe(0);
    expect(git(s.repo, ['init', '-q'], s.env).status).toBe(0);
    expect(git(s.repo, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', outer, 'outer'], s.env).status).toBe(0);
    expect(git(s.repo, ['-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init', '--recursive'], s.env).status).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: t\n  CHECK: cat outer/inner/inner.txt\n  EXPECT: v1\n');
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(git(s.repo, ['add', '-A'], s.env).status).toBe(0);
    expect(git(s.repo, ['commit', '-q', '-m', 'gates'], s.env).status).toBe(0);
    installPreCommit(s.repo);
    writeFileSync(join(s.repo, 'outer', 'inner', 'inner.txt'), 'v2\n');
    writeFileSync(join(s.repo, 'note.txt'), 'x\n');
    expect(git(s.repo, ['add', 'note.txt'], s.env).status).toBe(0);
    const r = git(s.repo, ['commit', '-q', '-m', 'note'], s.env);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('the work tree holds changes this commit leaves out');
  });
});
