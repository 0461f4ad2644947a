// The supervisor and EXPECT matching, with real processes (no mocks): exit codes and
// signals, the stdout-then-stderr digest, the output cap, spawn failures, closed stdin, the
// environment and working directory given to the shell, interrupts, and regex matching
// under a time cap.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { matchExpect } from '../../lib/run/expect-match.js';
import { killEveryGroupNow, liveCheckCount, RunningChecks, superviseCheck, type CheckOutcome, type CheckSpec } from '../../lib/run/supervisor.js';
import { tempDir } from '../helpers/cli.js';
import { processesIn, sleep, waitDead } from '../helpers/process.js';

const SHELL = '/bin/sh';

/** A fresh directory whose processes are killed after the test, whatever happened. */
const testDirs: string[] = [];
function testDir(): string {
  const d = tempDir('gc-sup-');
  testDirs.push(d);
  return d;
}

function spec(cmd: string, over: Partial<CheckSpec> = {}): CheckSpec {
  return {
    shell: SHELL,
    args: ['-c', cmd],
    cwd: testDir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    outputCap: 1024 * 1024,
    ...over,
  };
}

function run(cmd: string, over: Partial<CheckSpec> = {}, running?: RunningChecks): Promise<CheckOutcome> {
  return superviseCheck(spec(cmd, over), running);
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');



const leftovers: number[] = [];
afterEach(() => {
  for (const pid of [...leftovers.splice(0), ...processesIn(testDirs.splice(0))]) {
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
  const pid = Number(readFileSync(file, 'utf8').trim());
  expect(Number.isInteger(pid) && pid > 1).toBe(true);
  leftovers.push(pid);
  return pid;
}

describe('superviseCheck: exit status', () => {
  it('reports exit 0 with no failure and the shell pid', async () => {
    const o = await run('exit 0');
    expect(o).toMatchObject({ exitCode: 0, signal: null, failure: null, spawnError: null, bytes: 0 });
    expect(o.output.length).toBe(0);
    expect(o.sha256).toBe(sha256(''));
    expect(typeof o.pid).toBe('number');
    expect(o.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a non-zero exit code as it is', async () => {
    expect(await run('exit 7')).toMatchObject({ exitCode: 7, signal: null, failure: null });
    expect(await run('false')).toMatchObject({ exitCode: 1, signal: null, failure: null });
  });

  it('reports death by a signal as the signal, with no exit code', async () => {
    expect(await run('kill -TERM $$')).toMatchObject({ exitCode: null, signal: 'SIGTERM', failure: null });
    expect(await run('kill -KILL $$')).toMatchObject({ exitCode: null, signal: 'SIGKILL', failure: null });
  });

  it('times out a long command: failure timeout, the shell killed by SIGTERM, promptly', async () => {
    const o = await run('sleep 30', { timeoutMs: 300 });
    expect(o.failure).toBe('timeout');
    expect(o.exitCode).toBeNull();
    expect(o.signal).toBe('SIGTERM');
    expect(o.durationMs).toBeGreaterThanOrEqual(250);
    expect(o.durationMs).toBeLessThan(2000);
  });
});

describe('superviseCheck: output and digest', () => {
  it('keeps stdout then stderr, and digests exactly that concatenation', async () => {
    const o = await run("printf 'out1\\n'; printf 'err1\\n' >&2; printf 'out2\\n'");
    expect(o.failure).toBeNull();
    expect(o.output.toString('utf8')).toBe('out1\nout2\nerr1\n');
    expect(o.bytes).toBe(15);
    expect(o.sha256).toBe(sha256('out1\nout2\nerr1\n'));
  });

  it('puts stdout first even when stderr is written (and arrives) first', async () => {
    const o = await run("printf 'EEE' >&2; sleep 0.2; printf 'OOO'");
    expect(o.output.toString('utf8')).toBe('OOOEEE');
    expect(o.sha256).toBe(sha256('OOOEEE'));
    expect(o.sha256).not.toBe(sha256('EEEOOO'));
  });

  it('digests multi-chunk and binary output of both streams byte for byte', async () => {
    const cmd = "head -c 300000 /dev/zero | tr '\\000' x; printf '\\000\\377\\n'; head -c 70000 /dev/zero >&2; printf 'tail' >&2";
    const o = await run(cmd);
    const stdout = Buffer.concat([Buffer.alloc(300000, 'x'), Buffer.from([0, 0xff, 0x0a])]);
    const stderr = Buffer.concat([Buffer.alloc(70000, 0), Buffer.from('tail')]);
    const both = Buffer.concat([stdout, stderr]);
    expect(o.failure).toBeNull();
    expect(o.bytes).toBe(both.length);
    expect(o.output.equals(both)).toBe(true);
    expect(o.sha256).toBe(sha256(both));
  });

  it('for a stdout-only command, equals the sha256 of the bytes a separate run of sh -c prints', async () => {
    const cmd = "seq 1 20000; printf 'caf\\303\\251 \\001\\n'";
    const direct = spawnSync(SHELL, ['-c', cmd], { maxBuffer: 16 * 1024 * 1024 });
    expect(direct.status).toBe(0);
    expect(direct.stdout.length).toBeGreaterThan(100_000);
    const o = await run(cmd);
    expect(o.failure).toBeNull();
    expect(o.bytes).toBe(direct.stdout.length);
    expect(o.sha256).toBe(sha256(direct.stdout));
    // And what sha256sum says about the same output, when the tool is there.
    if (existsSync('/usr/bin/sha256sum')) {
      const sum = spawnSync(SHELL, ['-c', `(${cmd}) | /usr/bin/sha256sum`], { encoding: 'utf8' });
      expect(sum.stdout.split(' ')[0]).toBe(o.sha256);
    }
  });
});

describe('superviseCheck: the output cap', () => {
  const CAP = 4096;

  it('accepts exactly cap bytes and keeps all of them', async () => {
    const o = await run(`head -c ${CAP} /dev/zero`, { outputCap: CAP });
    expect(o.failure).toBeNull();
    expect(o.exitCode).toBe(0);
    expect(o.bytes).toBe(CAP);
    expect(o.output.length).toBe(CAP);
    expect(o.sha256).toBe(sha256(Buffer.alloc(CAP, 0)));
  });

  it('fails cap + 1 bytes with overflow and keeps no more than the cap', async () => {
    const o = await run(`head -c ${CAP + 1} /dev/zero`, { outputCap: CAP });
    expect(o.failure).toBe('overflow');
    expect(o.bytes).toBeGreaterThan(CAP);
    expect(o.output.length).toBeLessThanOrEqual(CAP);
  });

  it('counts stdout and stderr together against the cap', async () => {
    const ok = await run(`head -c 3000 /dev/zero; head -c ${CAP - 3000} /dev/zero >&2`, { outputCap: CAP });
    expect(ok.failure).toBeNull();
    expect(ok.bytes).toBe(CAP);
    expect(ok.output.length).toBe(CAP);
    const over = await run(`head -c 3000 /dev/zero; head -c ${CAP - 3000 + 1} /dev/zero >&2`, { outputCap: CAP });
    expect(over.failure).toBe('overflow');
    expect(over.output.length).toBeLessThanOrEqual(CAP);
  });

  it('stops an endless writer quickly, long before its timeout', async () => {
    // A slow writer (a shell loop), so that a broken cap cannot fill this process's memory.
    const o = await run('while :; do echo 0123456789abcdef; done', { outputCap: CAP, timeoutMs: 3000 });
    expect(o.failure).toBe('overflow');
    expect(o.output.length).toBeLessThanOrEqual(CAP);
    expect(o.exitCode).toBeNull();
    expect(o.durationMs).toBeLessThan(1500);
  });
});

describe('superviseCheck: spawning', () => {
  it('a nonexistent shell fails with spawn, promptly and without a pid', async () => {
    const t0 = performance.now();
    const o = await run('echo hi', { shell: '/nonexistent/gc-no-such-shell' });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(o.failure).toBe('spawn');
    expect(o.spawnError).toMatch(/ENOENT/);
    expect(o.exitCode).toBeNull();
    expect(o.signal).toBeNull();
    expect(o.pid).toBeNull();
    expect(o.output.length).toBe(0);
  }, 5000);

  it('a shell that is not executable fails with spawn', async () => {
    const dir = testDir();
    const fake = join(dir, 'not-exec');
    writeFileSync(fake, '#!/bin/sh\necho hi\n');
    chmodSync(fake, 0o644);
    const o = await run('echo hi', { shell: fake });
    expect(o.failure).toBe('spawn');
    expect(o.spawnError).toMatch(/EACCES/);
  }, 5000);

  it('a nonexistent working directory fails with spawn', async () => {
    const o = await run('echo hi', { cwd: join(testDir(), 'missing') });
    expect(o.failure).toBe('spawn');
    expect(o.spawnError).not.toBeNull();
  }, 5000);

  it('closes stdin: cat ends at once with no output, read sees end of file', async () => {
    const cat = await run('cat', { timeoutMs: 5000 });
    expect(cat.failure).toBeNull();
    expect(cat.exitCode).toBe(0);
    expect(cat.output.length).toBe(0);
    expect(cat.durationMs).toBeLessThan(2000);
    const read = await run('read line; echo "status=$?"', { timeoutMs: 5000 });
    expect(read.output.toString()).toBe('status=1\n');
  });

  it('passes exactly the given environment', async () => {
    process.env.GC_SUPERVISOR_NOT_PASSED = 'leaked';
    try {
      const o = await run('printf "%s|%s" "$GC_PASSED" "${GC_SUPERVISOR_NOT_PASSED-unset}"', {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GC_PASSED: 'hello world $HOME' },
      });
      expect(o.output.toString()).toBe('hello world $HOME|unset');
    } finally {
      delete process.env.GC_SUPERVISOR_NOT_PASSED;
    }
  });

  it('runs in the given working directory', async () => {
    const dir = testDir();
    const o = await run('pwd -P; ls', { cwd: dir });
    expect(o.output.toString()).toBe(`${dir}\n`);
    writeFileSync(join(dir, 'marker.txt'), 'm');
    expect((await run('cat marker.txt', { cwd: dir })).output.toString()).toBe('m');
  });

  it('runs the shell as the leader of its own process group', async () => {
    const o = await run("cut -d' ' -f5 /proc/$$/stat");
    expect(o.output.toString().trim()).toBe(String(o.pid));
  });
});

describe('superviseCheck: a stalled event loop', () => {
  // A long synchronous step elsewhere in gate-check (another job's DEPENDS hashed, a batch of
  // results written) holds the event loop while a check ends. The timers that came due in the
  // meantime must not judge it before the exit or end of file that is already waiting.
  const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  // Held after a poll, as a result handled in an I/O callback would hold it: timers come first next.
  const stallAfterPoll = (ms: number) => new Promise<void>((resolve) => setImmediate(() => resolve(void stall(ms))));

  it('an end of file that came during the stall is read before the drain judges: not escaped', async () => {
    const dir = testDir();
    // A process outside the group holds the output 0.3 s after the shell exits, well within the drain.
    const pending = run("setsid sleep 0.3 & echo ok; touch shell-exits", { cwd: dir, drainMs: 700 });
    const marker = join(dir, 'shell-exits');
    while (!existsSync(marker)) await sleep(5);
    await sleep(100); // the exit is seen: the drain has begun
    await stallAfterPoll(1200); // the holder exits and the drain comes due, both while the loop is held
    const o = await pending;
    expect(o.failure).toBeNull();
    expect(o.outputHeld).toBe(false);
    expect(o.exitCode).toBe(0);
    expect(o.output.toString()).toBe('ok\n');
  }, 10_000);

  it('a check that ended during the stall is not timed out by the timer that came due with it', async () => {
    for (let i = 0; i < 4; i++) {
      const pending = run('echo ok', { timeoutMs: 300 });
      await stallAfterPoll(600);
      const o = await pending;
      expect(o.failure).toBeNull();
      expect(o.exitCode).toBe(0);
      expect(o.output.toString()).toBe('ok\n');
    }
  }, 15_000);

  it('a check still running when its timeout comes due is still timed out', async () => {
    const o = await run('sleep 5', { timeoutMs: 300, graceMs: 200 });
    expect(o.failure).toBe('timeout');
    expect(o.durationMs).toBeLessThan(3000);
  }, 10_000);
});

describe('RunningChecks', () => {
  it('abortAll ends running checks quickly with failure interrupted and kills their groups', async () => {
    const running = new RunningChecks();
    const dir = testDir();
    const a = run('sleep 30 & echo $! > bg.pid; sleep 30', { cwd: dir, timeoutMs: 60_000 }, running);
    const b = run('sleep 30', { timeoutMs: 60_000 }, running);
    expect(running.size).toBe(2);
    const pidFile = join(dir, 'bg.pid');
    const end = Date.now() + 5000;
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') {
      if (Date.now() > end) throw new Error('the check did not start');
      await sleep(20);
    }
    const bg = readPid(pidFile);
    const t0 = performance.now();
    running.abortAll();
    const [oa, ob] = await Promise.all([a, b]);
    expect(performance.now() - t0).toBeLessThan(2000);
    for (const o of [oa, ob]) {
      expect(o.failure).toBe('interrupted');
      expect(o.exitCode).toBeNull();
      expect(o.signal).not.toBeNull();
    }
    expect(running.size).toBe(0);
    expect(await waitDead(bg)).toBe(true);
  }, 10_000);

  it('a finished check unregisters itself', async () => {
    const running = new RunningChecks();
    const p = run('true', {}, running);
    expect(running.size).toBe(1);
    await p;
    expect(running.size).toBe(0);
    running.abortAll();
  });
});

describe('interrupts and every way out', () => {
  it('an already aborted signal starts nothing', async () => {
    const dir = testDir();
    const controller = new AbortController();
    controller.abort();
    const o = await run('touch ran; echo ok', { cwd: dir, signal: controller.signal });
    expect(o.failure).toBe('interrupted');
    expect(o.pid).toBeNull();
    await sleep(200);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('aborting the signal terminates the check as interrupted and kills its group', async () => {
    const dir = testDir();
    const controller = new AbortController();
    const p = run('sleep 30 & echo $! > bg.pid; sleep 30', { cwd: dir, signal: controller.signal, timeoutMs: 60_000 });
    const bg = await waitForPid(join(dir, 'bg.pid'));
    controller.abort();
    const o = await p;
    expect(o.failure).toBe('interrupted');
    expect(o.signal).toBe('SIGTERM');
    expect(await waitDead(bg)).toBe(true);
  }, 10_000);

  it('killEveryGroupNow SIGKILLs every running group at once, even one that ignores SIGTERM', async () => {
    const dir = testDir();
    const p = run("trap '' TERM; sleep 30 & echo $! > bg.pid; while :; do sleep 0.05; done", { cwd: dir, timeoutMs: 60_000, graceMs: 60_000 });
    const bg = await waitForPid(join(dir, 'bg.pid'));
    expect(liveCheckCount()).toBe(1);
    killEveryGroupNow();
    const o = await p;
    expect(o.signal).toBe('SIGKILL');
    expect(o.failure).toBe('interrupted');
    expect(await waitDead(bg)).toBe(true);
    expect(liveCheckCount()).toBe(0);
  }, 10_000);

  it('a check that ended by itself is no longer tracked, so nothing signals its group again', async () => {
    await run('true');
    expect(liveCheckCount()).toBe(0);
  });
});

async function waitForPid(file: string): Promise<number> {
  const end = Date.now() + 5000;
  while (!existsSync(file) || readFileSync(file, 'utf8').trim() === '') {
    if (Date.now() > end) throw new Error('the check did not start');
    await sleep(20);
  }
  return readPid(file);
}

describe('matchExpect', () => {
  it('matches a substring literally', () => {
    expect(matchExpect({ kind: 'substring', text: 'world' }, 'hello world\n', 250)).toMatchObject({ ok: true, matched: true });
    expect(matchExpect({ kind: 'substring', text: 'World' }, 'hello world\n', 250)).toMatchObject({ ok: true, matched: false });
    expect(matchExpect({ kind: 'substring', text: 'a.c' }, 'abc', 250)).toMatchObject({ ok: true, matched: false });
    expect(matchExpect({ kind: 'substring', text: '(x+)+' }, 'see (x+)+ here', 250)).toMatchObject({ ok: true, matched: true });
    expect(matchExpect({ kind: 'substring', text: 'x' }, '', 250)).toMatchObject({ ok: true, matched: false });
  });

  it('matches a regex', () => {
    expect(matchExpect({ kind: 'regex', source: '^\\d+ passed$', flags: '' }, '12 passed', 250)).toMatchObject({ ok: true, matched: true });
    expect(matchExpect({ kind: 'regex', source: '^\\d+ passed$', flags: '' }, '12 failed', 250)).toMatchObject({ ok: true, matched: false });
    expect(matchExpect({ kind: 'regex', source: 'a.c', flags: '' }, 'abc', 250)).toMatchObject({ ok: true, matched: true });
  });

  it('honours regex flags', () => {
    const m = (source: string, flags: string, subject: string) => matchExpect({ kind: 'regex', source, flags }, subject, 250);
    expect(m('OK', '', 'all ok')).toMatchObject({ ok: true, matched: false });
    expect(m('OK', 'i', 'all ok')).toMatchObject({ ok: true, matched: true });
    expect(m('^done$', '', 'a\ndone\nb')).toMatchObject({ ok: true, matched: false });
    expect(m('^done$', 'm', 'a\ndone\nb')).toMatchObject({ ok: true, matched: true });
    expect(m('start.end', '', 'start\nend')).toMatchObject({ ok: true, matched: false });
    expect(m('start.end', 's', 'start\nend')).toMatchObject({ ok: true, matched: true });
    expect(m('^\\p{Lu}', 'u', 'Émile')).toMatchObject({ ok: true, matched: true });
    // A stateful flag gives the same answer every time.
    for (let i = 0; i < 3; i++) expect(m('x', 'g', 'x')).toMatchObject({ ok: true, matched: true });
    expect(m('b', 'y', 'ab')).toMatchObject({ ok: true, matched: false });
  });

  it('reports an invalid regex instead of throwing', () => {
    const r = matchExpect({ kind: 'regex', source: '(', flags: '' }, 'x', 250);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/invalid EXPECT regex/);
  });

  it('answers a catastrophic pattern at once when the linear-time engine can run it', () => {
    const t0 = performance.now();
    const r = matchExpect({ kind: 'regex', source: '^(a+)+$', flags: '' }, 'a'.repeat(40) + 'b', 250);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(r).toMatchObject({ ok: true, matched: false });
    expect(matchExpect({ kind: 'regex', source: '^(a+)+$', flags: '' }, 'aaaa', 250)).toMatchObject({ ok: true, matched: true });
  });

  it('gives up on catastrophic backtracking it must run with backtracking, within about a second, and keeps working afterwards', () => {
    // The i flag and backreferences are outside the linear engine: these run under the time cap.
    for (const [source, flags] of [['^(a+)+$', 'i'], ['^(a+)+\\1$', '']] as const) {
      const t0 = performance.now();
      const r = matchExpect({ kind: 'regex', source, flags }, 'a'.repeat(40) + 'b', 250);
      const took = performance.now() - t0;
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/longer than 250 ms/);
      expect(took).toBeLessThan(1500);
    }
    expect(matchExpect({ kind: 'regex', source: '^(a+)+$', flags: 'i' }, 'aaaa', 250)).toMatchObject({ ok: true, matched: true });
    expect(matchExpect({ kind: 'regex', source: 'b$', flags: '' }, 'a'.repeat(40) + 'b', 250)).toMatchObject({ ok: true, matched: true });
  });

  it('uses the time cap for large outputs even with a linear pattern', () => {
    const big = 'x'.repeat(1_000_000);
    expect(matchExpect({ kind: 'regex', source: 'x{1,5}y', flags: '' }, big, 250)).toMatchObject({ ok: true, matched: false });
  });
});
