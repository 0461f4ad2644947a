// Node's compile cache (lib/fsx/compile-cache.ts): on for a run where the running Node has
// it and the private store is a private directory outside the repository; never for
// --status or the Stop hook, never through a link, never in a store that is not private.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

const hasCache = typeof (module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function approvedRepo() {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': '- [ ] G1: one\n  CHECK: echo ok\n  EXPECT: ok\n' });
  const run = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
  expect(run(['--approve']).code).toBe(0);
  const base = join(s.home, '.gate-check');
  // --approve is a run: it may have made the cache already. Each test starts without one.
  rmSync(join(base, 'compile-cache'), { recursive: true, force: true });
  return { ...s, run, base, cache: join(base, 'compile-cache') };
}

describe('the compile cache', () => {
  it.skipIf(!hasCache)('a run turns it on in the private store, as a private directory', () => {
    const s = approvedRepo();
    expect(s.run(['--reverify']).code).toBe(0);
    const st = lstatSync(s.cache);
    expect(st.isDirectory()).toBe(true);
    expect(st.mode & 0o777).toBe(0o700);
    expect(readdirSync(s.cache).length).toBeGreaterThan(0);
  });

  it('--status never turns it on (it writes nothing)', () => {
    const s = approvedRepo();
    expect(s.run(['--status']).code).toBe(0);
    expect(existsSync(s.cache)).toBe(false);
  });

  it('a cache folder that is a link is not used', () => {
    const s = approvedRepo();
    const elsewhere = tempDir('gc-cache-target-');
    symlinkSync(elsewhere, s.cache);
    expect(s.run(['--reverify']).code).toBe(0);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a store that is not private gets no cache (and the run refuses the store)', () => {
    const s = approvedRepo();
    chmodSync(s.base, 0o755);
    expect(s.run(['--reverify']).code).toBe(2);
    expect(existsSync(s.cache)).toBe(false);
  });

  // Found by an attack on the first version, which compared the store with the current
  // directory only: from a subdirectory, or with --root, a store inside the repository got
  // a cache before the run refused the store.
  for (const [what, cwdOf, args] of [
    ['run at the root', (repo: string) => repo, []],
    ['run from a subdirectory', (repo: string) => join(repo, 'sub'), []],
    ['run from elsewhere with --root', (repo: string) => join(repo, '..'), ['--root', 'repo']],
  ] as Array<[string, (repo: string) => string, string[]]>) {
    it(`a store inside the repository gets no cache: ${what}`, () => {
      const s = sandbox();
      // A git directory as git accepts one, so that the root is found from a subdirectory.
      writeFiles(s.repo, { 'GATES.md': '- [ ] G1: one\n  CHECK: echo ok\n  EXPECT: ok\n', 'sub/.keep': '', '.git/HEAD': 'ref: refs/heads/main\n', '.git/objects/.keep': '', '.git/refs/.keep': '' });
      const base = join(s.repo, 'store');
      mkdirSync(base, { mode: 0o700 });
      const r = runCli(['--reverify', ...args], { cwd: cwdOf(s.repo), env: { ...s.env, GATE_CHECK_HOME: base } });
      expect(r.code, r.stderr).toBe(2); // the run refuses the store; the cache was never turned on there
      expect(r.stderr).toMatch(/is inside the repository/);
      expect(existsSync(join(base, 'compile-cache'))).toBe(false);
    });
  }

  it('the Stop hook does not turn it on (its repository is known only from its payload)', () => {
    const s = approvedRepo();
    const input = JSON.stringify({ session_id: 's1', cwd: s.repo, hook_event_name: 'Stop', stop_hook_active: false });
    expect(runCli(['hook', 'claude-stop'], { cwd: s.repo, env: s.env, input }).code).toBe(0);
    expect(existsSync(s.cache)).toBe(false);
  });
});
