// Node's compile cache (lib/fsx/compile-cache.ts): on for a run and the Stop hook where the
// running Node has it and the private store is a private directory; never for --status,
// never through a link, never in a store that is not private.
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

  it('a store inside the current directory gets no cache', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: one\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const base = join(s.repo, 'store');
    mkdirSync(base, { mode: 0o700 });
    const r = runCli(['--reverify'], { cwd: s.repo, env: { ...s.env, GATE_CHECK_HOME: base } });
    expect(r.code).toBe(2); // a store inside the repository is refused, after the cache was not turned on
    expect(existsSync(join(base, 'compile-cache'))).toBe(false);
  });
});
