// The fast builds (dist/status.cjs, dist/hook.cjs) and their loader (bin/fast-loader.cjs):
// the same answers as the full build, a code cache that is used only when it belongs to the
// file, and a stub that fails closed where a fast build lacks a command's code.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const LOADER = join(ROOT, 'bin/fast-loader.cjs');

/** The full build, whatever the router would choose. */
function runFull(args: string[], cwd: string, env: NodeJS.ProcessEnv, input = '') {
  const script = `const m = await import(${JSON.stringify(join(ROOT, 'dist/cli.js'))}); process.exit(await m.cli(process.argv.slice(1)));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, '--', ...args], { cwd, env, input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Loads a fast build through the loader in a child process and reports what it used. */
function probe(dist: string, name: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const script = `
    const { loadFast } = require(${JSON.stringify(LOADER)});
    const r = loadFast(${JSON.stringify(name)}, { dist: ${JSON.stringify(dist)} });
    const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), env: process.env, cwd: process.cwd(), interactive: () => false, stderrIsTTY: false, colour: () => false, ask: async () => null };
    r.exports.main(${JSON.stringify(argv)}, io).then((code) => { process.stderr.write('cacheUsed=' + r.cacheUsed + ' rejected=' + r.script.cachedDataRejected + '\\n'); process.exitCode = code; });`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const LEDGER = [
  '# Gates: both builds',
  '',
  '- [ ] G1: greets',
  '  CHECK: echo hello',
  '  EXPECT: hello',
  '',
  '- [x] G2: a manual gate that is met',
  '- [x] G3: claims evidence it has not',
  '  CHECK: echo three',
  '  EXPECT: three',
  '  EVIDENCE: 2026-01-01T00:00:00Z sha256=0000000000000000000000000000000000000000000000000000000000000000; receipt=000000000000',
  '',
].join('\n');

describe('the fast builds', () => {
  it('--status answers as the full build does: text, JSON, strict, usage errors, a bad ledger', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER, 'bad.md': '- [ ] G1: one\n- [ ] G1: twice\n' });
    for (const args of [['--status'], ['--status', '--json'], ['--status', '--strict'], ['--status', '--approve'], ['--status', '--jobs', 'x'], ['--status', 'bad.md'], ['--status', 'missing.md']]) {
      const fast = runCli(args, { cwd: s.repo, env: s.env });
      const full = runFull(args, s.repo, s.env);
      expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr }, args.join(' ')).toEqual(full);
    }
  });

  it('the Stop hook answers as the full build does', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER });
    const payload = JSON.stringify({ session_id: 's1', cwd: s.repo, hook_event_name: 'Stop', stop_hook_active: false });
    const env = { ...s.env, CLAUDE_PROJECT_DIR: s.repo };
    const fast = runCli(['hook', 'claude-stop'], { cwd: s.repo, env, input: payload });
    const full = runFull(['hook', 'claude-stop'], s.repo, env, payload);
    expect(fast.stdout).toContain('"decision":"block"');
    expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr }).toEqual(full);
  });

  it('uses the code cache the build made, and not a cache of another build or a damaged one', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER });
    expect(probe(join(ROOT, 'dist'), 'status', ['--status'], s.repo, s.env).stderr).toContain('cacheUsed=true rejected=false');
    // A copy of the build whose cache carries another build id: not handed to V8.
    const dist = join(tempDir('gc-dist-'), 'dist');
    mkdirSync(dist);
    for (const f of ['status.cjs', 'fast-glob.cjs']) copyFileSync(join(ROOT, 'dist', f), join(dist, f));
    const cache = readFileSync(join(ROOT, 'dist/status.cjs.cache'));
    writeFileSync(join(dist, 'status.cjs.cache'), Buffer.concat([Buffer.from('0'.repeat(32) + '\n'), cache.subarray(33)]));
    const other = probe(dist, 'status', ['--status'], s.repo, s.env);
    expect(other.stderr).toContain('cacheUsed=false rejected=undefined'); // no cache was given to V8
    expect(other.code).toBe(1);
    // The right id over a cache cut short, or of another V8 (its header says so): V8 rejects
    // it, and the status is the same. (Damage inside the data is not detected: V8 checks no
    // checksum of a code cache; SECURITY.md says so.)
    const expected = runCli(['--status'], { cwd: s.repo, env: s.env }).stdout;
    for (const bad of [cache.subarray(0, cache.length - 1000), Buffer.concat([cache.subarray(0, 33), Buffer.alloc(8, 0xff), cache.subarray(41)])]) {
      writeFileSync(join(dist, 'status.cjs.cache'), bad);
      const r = probe(dist, 'status', ['--status'], s.repo, s.env);
      expect(r.stderr).toContain('cacheUsed=false rejected=true');
      expect(r.stdout).toBe(expected);
    }
    // An edited fast build keeps its id line but not its length: the cache is rejected.
    writeFileSync(join(dist, 'status.cjs.cache'), cache);
    writeFileSync(join(dist, 'status.cjs'), `/* edited */${readFileSync(join(ROOT, 'dist/status.cjs'), 'utf8')}`);
    expect(probe(dist, 'status', ['--status'], s.repo, s.env).stderr).toContain('cacheUsed=false rejected=true');
  });

  it('a command line that reaches code a fast build lacks fails with exit 2, running nothing', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: would write a file\n  CHECK: touch ran.txt && echo ok\n  EXPECT: ok\n' });
    for (const [name, argv] of [['status', ['--approve']], ['status', ['hook', 'claude-stop']], ['hook', ['--approve']], ['hook', ['lint']], ['status', ['--help']]] as const) {
      const r = probe(join(ROOT, 'dist'), name, [...argv], s.repo, s.env);
      expect(r.code, `${name}: ${argv.join(' ')}`).toBe(2);
      expect(r.stderr).toContain(`reached dist/${name}.cjs, which does not serve it`);
    }
    expect(runCli(['--status'], { cwd: s.repo, env: s.env }).code).toBe(1);
    expect(spawnSync('ls', [s.repo], { encoding: 'utf8' }).stdout).not.toContain('ran.txt');
  });

  it('the bin reports a missing fast build as a start failure, exit 2', () => {
    const copy = tempDir('gc-copy-');
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    mkdirSync(join(copy, 'dist'));
    copyFileSync(join(ROOT, 'dist/route.cjs'), join(copy, 'dist/route.cjs'));
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER });
    const r = spawnSync(process.execPath, [join(copy, 'bin/gate-check.js'), '--status'], { cwd: s.repo, env: s.env, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^gate-check: cannot start: .*status\.cjs/m);
    expect(BIN).toContain('bin/gate-check.js');
  });
});
