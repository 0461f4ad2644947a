// Adversarial checks against the supervisor's bounds, directly and through the real CLI:
// background children, SIGTERM-ignoring checks, setsid escapes holding the pipe, an output
// flood, catastrophic regexes and timeouts. Each test would fail (or hang past its own
// timeout) if the protection it names were removed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { superviseCheck, type CheckOutcome, type CheckSpec } from '../../lib/run/supervisor.js';
import { BIN, sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { approveOnTerminal, isDead, processesIn, waitDead } from '../helpers/process.js';



// Every pid a test learns, and every process still working in a test's own temp directory,
// is killed afterwards, so a failing (or timed-out) test leaves nothing behind.
const leftovers: number[] = [];
const testDirs: string[] = [];
function testDir(): string {
  const d = tempDir('gc-adv-');
  testDirs.push(d);
  return d;
}
afterEach(() => {
  const dirs = testDirs.splice(0);
  for (const pid of [...leftovers.splice(0), ...processesIn(dirs)]) {
    // Never 0 or 1 (a pid file read empty): kill(0) is this test's own process group.
    if (!(Number.isInteger(pid) && pid > 1)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function readPid(file: string): number {
  expect(existsSync(file), `${file} was not written`).toBe(true);
  const pid = Number(readFileSync(file, 'utf8').trim());
  expect(Number.isInteger(pid) && pid > 1, `pid file ${file}`).toBe(true);
  leftovers.push(pid);
  return pid;
}

function check(cmd: string, cwd: string, over: Partial<CheckSpec> = {}): Promise<CheckOutcome> {
  return superviseCheck({
    shell: '/bin/sh',
    args: ['-c', cmd],
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    outputCap: 1024 * 1024,
    ...over,
  });
}

describe('process groups', () => {
  it('kills the background child of a timed-out check', async () => {
    const dir = testDir();
    const o = await check('sleep 300 & echo $! > bg.pid; sleep 300', dir, { timeoutMs: 500 });
    expect(o.failure).toBe('timeout');
    expect(o.durationMs).toBeLessThan(2500);
    const bg = readPid(join(dir, 'bg.pid'));
    expect(await waitDead(bg)).toBe(true);
  }, 15_000);

  it('kills background children when the shell exits normally, and settles at once', async () => {
    const dir = testDir();
    // A long drain: if the group were not killed at exit, the sleep would hold the pipe until it.
    const o = await check('sleep 300 & echo $! > bg.pid; echo done', dir, { drainMs: 5000 });
    expect(o.failure).toBeNull();
    expect(o.exitCode).toBe(0);
    expect(o.output.toString()).toBe('done\n');
    expect(o.durationMs).toBeLessThan(1500);
    const bg = readPid(join(dir, 'bg.pid'));
    expect(await waitDead(bg)).toBe(true);
  }, 15_000);

  it('kills a SIGTERM-ignoring check with SIGKILL after the grace period', async () => {
    const dir = testDir();
    const t0 = performance.now();
    const o = await check("trap '' TERM; sleep 300 & echo $! > bg.pid; wait", dir, { timeoutMs: 300, graceMs: 500 });
    const took = performance.now() - t0;
    expect(o.failure).toBe('timeout');
    expect(o.signal).toBe('SIGKILL');
    // It did survive SIGTERM (so the grace period was used), and no more than that.
    expect(took).toBeGreaterThanOrEqual(700);
    expect(took).toBeLessThan(3000);
    const bg = readPid(join(dir, 'bg.pid'));
    expect(await waitDead(bg)).toBe(true);
  }, 15_000);

  it('gives a SIGTERM-ignoring child the grace period after its shell dies of the SIGTERM, then kills it', async () => {
    const dir = testDir();
    const t0 = performance.now();
    const o = await check("(trap '' TERM; exec sleep 300) & echo $! > bg.pid; sleep 300", dir, { timeoutMs: 300, graceMs: 1500 });
    const took = performance.now() - t0;
    expect(o.failure).toBe('timeout');
    expect(o.signal).toBe('SIGTERM');
    // The shell died at once; the rest of its group had the grace, and not forever.
    expect(took).toBeGreaterThanOrEqual(1700);
    expect(took).toBeLessThan(5000);
    const bg = readPid(join(dir, 'bg.pid'));
    expect(await waitDead(bg)).toBe(true);
  }, 15_000);

  it("the grace reaches the real command: a child's SIGTERM handler completes after dash died of the SIGTERM", async () => {
    const dir = testDir();
    // dash (the shell) has no trap and dies at once; the inner shell cleans up for 200 ms.
    const inner = `trap 'sleep 0.2; echo cleaned > cleaned.txt; exit 1' TERM; echo $$ > inner.pid; while :; do sleep 0.05; done`;
    const o = await check(`sh -c "${inner}"; echo not reached`, dir, { timeoutMs: 500, graceMs: 8000 });
    expect(o.failure).toBe('timeout');
    expect(o.signal).toBe('SIGTERM');
    expect(readFileSync(join(dir, 'cleaned.txt'), 'utf8')).toBe('cleaned\n');
    const innerPid = readPid(join(dir, 'inner.pid'));
    expect(await waitDead(innerPid)).toBe(true);
    // Settled when the group emptied (a probe found it gone), not at the end of the grace.
    expect(o.durationMs).toBeLessThan(7000);
  }, 15_000);

  it('a setsid descendant holding the output pipe cannot hang the run: it settles after the drain as escaped', async () => {
    const dir = testDir();
    // Wait until the escaped process exists (it has left the group) before the shell exits.
    const cmd = "setsid sh -c 'echo $$ > esc.pid; exec sleep 30' & while [ ! -s esc.pid ]; do sleep 0.02; done; echo started";
    const t0 = performance.now();
    const o = await check(cmd, dir, { drainMs: 1000 });
    const took = performance.now() - t0;
    const escaped = readPid(join(dir, 'esc.pid'));
    expect(o.failure).toBe('escaped');
    expect(o.exitCode).toBe(0);
    expect(o.output.toString()).toBe('started\n');
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);
    expect(o.outputHeld).toBe(true);
    // The escape was real: the supervisor could not (and says it did not) kill it.
    expect(isDead(escaped)).toBe(false);
    process.kill(escaped, 'SIGKILL');
    expect(await waitDead(escaped)).toBe(true);
  }, 10_000);

  it('a timeout whose escaped child holds the output stays a timeout, and says the output was held', async () => {
    const dir = testDir();
    const cmd = "setsid sh -c 'echo $$ > esc.pid; exec sleep 30' & while [ ! -s esc.pid ]; do sleep 0.02; done; sleep 30";
    const o = await check(cmd, dir, { timeoutMs: 300, drainMs: 500 });
    const escaped = readPid(join(dir, 'esc.pid'));
    expect(o.failure).toBe('timeout');
    expect(o.outputHeld).toBe(true);
    expect(isDead(escaped)).toBe(false);
    process.kill(escaped, 'SIGKILL');
  }, 10_000);
});

// ---- through the real CLI ---------------------------------------------------------------

// The check fails at once until `go` exists: approved as a person does (on a terminal, which
// --approve needs while other runs are alive), then measured in a plain run.
function ledger(check: string, expectText: string): string {
  return `- [ ] G1: adversarial\n  CHECK: test -f go || exit 1; ${check}\n  EXPECT: ${expectText}\n`;
}

async function approved(s: { repo: string; env: NodeJS.ProcessEnv }, args: string[]): Promise<void> {
  const r = await approveOnTerminal([process.execPath, BIN, '--approve', ...args], { cwd: s.repo, env: s.env });
  expect(r.code, r.output).toBe(1);
  writeFiles(s.repo, { go: '' });
}

/**
 * Runs the CLI as a subprocess and returns its result, wall time and peak RSS in KiB. The peak
 * is the CLI process's own (getrusage maxRSS, i.e. VmHWM), written by a preloaded module when
 * it exits. A CLI stuck past the timeout is SIGKILLed: its SIGTERM handler cannot run while a
 * synchronous regex holds the thread.
 */
function runCliMeasured(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const rssFile = join(tempDir('gc-rss-'), 'maxrss');
  const hook = `import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(${JSON.stringify(rssFile)},String(process.resourceUsage().maxRSS)))`;
  const argv = ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, BIN, ...args];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8', timeout: 12_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - t0;
  if (r.error && (r.error as NodeJS.ErrnoException).code !== 'ETIMEDOUT') throw r.error;
  const maxRssKiB = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim()) : NaN;
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, wallMs, maxRssKiB };
}

describe('through the CLI', () => {
  it('a 1 GiB output flood fails fast with overflow while gate-check stays small', async () => {
    const s = sandbox();
    testDirs.push(s.repo);
    writeFiles(s.repo, { 'GATES.md': ledger('head -c 1073741824 /dev/zero', 'never') });
    await approved(s, ['--timeout', '60']);
    const r = runCliMeasured(['--timeout', '60'], s.repo, s.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:G1 \(\d+ ms\)  adversarial: output exceeded the cap of 1048576 bytes \(process group killed; nothing of it is kept\)$/m);
    expect(r.stdout).toMatch(/^ {2}\| \(the output passed the cap and was not kept\)$/m);
    expect(r.stdout).not.toMatch(/\(no output\)/);
    expect(r.wallMs).toBeLessThan(5000);
    expect(Number.isFinite(r.maxRssKiB) && r.maxRssKiB > 0).toBe(true);
    expect(r.maxRssKiB).toBeLessThan(100 * 1024);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/EVIDENCE: pending/);
  }, 15_000);

  it('a catastrophic EXPECT regex fails within a second or two instead of hanging', async () => {
    const s = sandbox();
    testDirs.push(s.repo);
    // The i flag keeps this pattern on the backtracking engine, under the time cap.
    writeFiles(s.repo, { 'GATES.md': ledger(`printf '${'a'.repeat(40)}b'`, '/^(a+)+$/i') });
    await approved(s, ['--timeout', '10']);
    const r = runCliMeasured(['--timeout', '10'], s.repo, s.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:G1 .*EXPECT regex ran longer than \d+ ms \(catastrophic backtracking\?\); failed instead of hanging$/m);
    expect(r.wallMs).toBeLessThan(2500);
  }, 15_000);

  it('--timeout 1 on sleep 30 fails in well under 5 s and leaves no sleep behind', async () => {
    const s = sandbox();
    testDirs.push(s.repo);
    writeFiles(s.repo, { 'GATES.md': ledger('sleep 30 & echo $! > sleep.pid; sleep 30', 'never') });
    await approved(s, ['--timeout', '1']);
    const r = runCliMeasured(['--timeout', '1'], s.repo, s.env);
    const bg = readPid(join(s.repo, 'sleep.pid'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:G1 \(\d+ ms\)  adversarial: timed out after 1 s \(process group killed\); a slower check needs TIMEOUT: <seconds> in the gate \(or --timeout\), and a new approval$/m);
    expect(r.wallMs).toBeLessThan(4000);
    expect(await waitDead(bg)).toBe(true);
  }, 15_000);

  it('a gate with its own TIMEOUT: is killed at it, and the hint names that TIMEOUT, not --timeout (which does not apply to it)', async () => {
    const s = sandbox();
    testDirs.push(s.repo);
    writeFiles(s.repo, { 'GATES.md': `${ledger('sleep 30', 'never').trimEnd()}\n  TIMEOUT: 1\n` });
    await approved(s, []);
    const r = runCliMeasured(['--timeout', '60'], s.repo, s.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:G1 \(\d+ ms\)  adversarial: timed out after 1 s \(process group killed\); a slower check needs a larger TIMEOUT: in the gate, and a new approval$/m);
    expect(r.wallMs).toBeLessThan(4000);
  }, 15_000);
});
