// The fast builds (dist/status.cjs, dist/hook.cjs) and their loader (bin/fast-loader.cjs):
// the same answers as the full build, a code cache that is used only when it belongs to the
// file, and a stub that fails closed where a fast build lacks a command's code.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationWords } from '../../lib/program/invocation.js';
import { shellCommand } from '../../lib/text/shell-quote.js';
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

/** How the bin is started, as a suggested command names it. */
const startedAs = (env: NodeJS.ProcessEnv) => shellCommand(invocationWords(env, BIN, process.execPath, '/'))!;

describe('the fast builds', () => {
  it('--status answers as the full build does: text, JSON, strict, usage errors, a bad ledger', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER, 'bad.md': '- [ ] G1: one\n- [ ] G1: twice\n' });
    for (const args of [['--status'], ['--status', '--json'], ['--status', '--strict'], ['--status', '--approve'], ['--status', '--jobs', 'x'], ['--status', 'bad.md'], ['--status', 'missing.md']]) {
      const fast = runCli(args, { cwd: s.repo, env: s.env });
      const full = runFull(args, s.repo, s.env);
      // A hint names gate-check as it was started: here the bin, there an import.
      expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr.replaceAll(startedAs(s.env), 'gate-check') }, args.join(' ')).toEqual(full);
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
    // The suggested command starts gate-check as it was started: here the bin, there an import.
    const started = JSON.stringify(shellCommand(invocationWords(env, BIN, process.execPath, '/'))).slice(1, -1);
    expect({ code: fast.code, stdout: fast.stdout.replaceAll(started, 'gate-check'), stderr: fast.stderr }).toEqual(full);
  });

  it('runs answer as the full build does: approve, run, reverify, JSON, claims, usage errors', () => {
    const ledger = '- [ ] G1: greets\n  CHECK: echo hello\n  EXPECT: hello\n\n- [ ] G2: fails\n  CHECK: echo no\n  EXPECT: yes\n';
    const a = sandbox();
    const b = sandbox();
    for (const s of [a, b]) writeFiles(s.repo, { 'GATES.md': ledger });
    // What differs between two sandboxes and two runs: paths (and so signatures), times, receipts.
    const mask = (text: string, s: ReturnType<typeof sandbox>) =>
      text
        .replaceAll(s.repo, 'REPO')
        .replaceAll(s.home, 'HOME')
        .replace(/\(\d+ ms\)/g, '(N ms)')
        .replace(/"(durationMs|startedAt|finishedAt|at)":\s*("[^"]*"|\d+)/g, '"$1":X')
        .replace(/\b[0-9a-f]{12,64}\b/g, 'HEX');
    for (const args of [['--approve'], [], ['--reverify'], ['--reverify', '--json'], ['--list-scopes'], ['--jobs', 'x'], ['--claim']]) {
      const fast = runCli(args, { cwd: a.repo, env: a.env });
      const full = runFull(args, b.repo, b.env);
      expect({ code: fast.code, stdout: mask(fast.stdout, a), stderr: mask(fast.stderr.replaceAll(startedAs(a.env), 'gate-check'), a) }, args.join(' ')).toEqual({ code: full.code, stdout: mask(full.stdout, b), stderr: mask(full.stderr, b) });
      expect(mask(readFileSync(join(a.repo, 'GATES.md'), 'utf8'), a)).toBe(mask(readFileSync(join(b.repo, 'GATES.md'), 'utf8'), b));
    }
  });

  it('uses the code cache the build made, and not a cache made from other source, however alike', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER });
    // Every fast build's cache fits a fresh process (a warm-up that turned on a V8 flag made one that did not).
    for (const [name, argv] of [['status', ['--status']], ['hook', ['--version']], ['run', ['--version']]] as const) {
      expect(probe(join(ROOT, 'dist'), name, [...argv], s.repo, s.env).stderr, name).toContain('cacheUsed=true rejected=false');
    }
    const expected = runCli(['--status'], { cwd: s.repo, env: s.env }).stdout;
    const dist = join(tempDir('gc-dist-'), 'dist');
    mkdirSync(dist);
    copyFileSync(join(ROOT, 'dist/fast-glob.cjs'), join(dist, 'fast-glob.cjs'));
    const source = readFileSync(join(ROOT, 'dist/status.cjs'));
    const cache = readFileSync(join(ROOT, 'dist/status.cjs.cache'));
    const use = (src: Buffer, cached: Buffer) => {
      writeFileSync(join(dist, 'status.cjs'), src);
      writeFileSync(join(dist, 'status.cjs.cache'), cached);
      return probe(dist, 'status', ['--status'], s.repo, s.env);
    };
    // The copy works with its cache.
    expect(use(source, cache).stderr).toContain('cacheUsed=true rejected=false');
    // An edit of the same length (V8 compares only lengths, and would run the old bytecode):
    // the cache is not given to V8, and the edit is what runs.
    const edited = Buffer.from(source.toString('latin1').replace('unchecked', 'UNCHECKED'), 'latin1');
    expect(edited.length).toBe(source.length);
    const afterEdit = use(edited, cache);
    expect(afterEdit.stderr).toContain('cacheUsed=false rejected=undefined');
    expect(afterEdit.stdout).toBe(expected.replaceAll('unchecked', 'UNCHECKED'));
    // A cache cut inside V8's data, or with V8's header damaged: V8 rejects it, same answer.
    for (const bad of [cache.subarray(0, cache.length - 1000), Buffer.concat([cache.subarray(0, cache.length - (cache.length - source.length - 40)), Buffer.alloc(8, 0xff), cache.subarray(cache.length - (cache.length - source.length - 48))])]) {
      const r = use(source, bad);
      expect(r.stderr).toContain('cacheUsed=false rejected=true');
      expect(r.stdout).toBe(expected);
    }
    // A cache cut inside its copy of the source, or without its header: not given to V8.
    for (const bad of [cache.subarray(0, 1000), cache.subarray(30)]) {
      const r = use(source, bad);
      expect(r.stderr).toContain('cacheUsed=false rejected=undefined');
      expect(r.stdout).toBe(expected);
    }
  });

  it('a command line that reaches code a fast build lacks fails with exit 2, running nothing', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: would write a file\n  CHECK: touch ran.txt && echo ok\n  EXPECT: ok\n' });
    for (const [name, argv] of [['status', ['--approve']], ['status', ['hook', 'claude-stop']], ['hook', ['--approve']], ['hook', ['lint']], ['status', ['--help']], ['run', ['lint']], ['run', ['hook', 'claude-stop']], ['run', ['--help']]] as const) {
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
