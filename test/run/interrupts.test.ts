// The process-wide interrupt state, in this test process: the first interrupt aborts every
// wait and terminates every running check (with its grace); a second one SIGKILLs every
// group at once; and main() answers 130 for a command that finished regardless. The tests
// run in order: the interrupt is one-shot for the process.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../lib/cli/main.js';
import type { Io } from '../../lib/program/io.js';
import { InterruptedError } from '../../lib/errors.js';
import { acquireLock } from '../../lib/fsx/lock.js';
import { interrupt, interruptedBy, interruptibleSleep, interruptSignal, onInterrupt, throwIfInterrupted } from '../../lib/run/interrupts.js';
import { superviseCheck } from '../../lib/run/supervisor.js';
import { sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { pidFrom, processesIn, waitDead } from '../helpers/process.js';

const dirs: string[] = [];
afterAll(() => {
  for (const pid of processesIn(dirs)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

function captureIo(cwd: string, env: NodeJS.ProcessEnv): Io & { out: () => string } {
  let out = '';
  return {
    stdout: (t) => void (out += t),
    stderr: () => {},
    env,
    cwd,
    interactive: () => false,
    stderrIsTTY: false,
    ask: async () => null,
    out: () => out,
  };
}

describe('interrupts (in order: the interrupt is one-shot)', () => {
  const s = sandbox();
  dirs.push(s.repo);
  writeFiles(s.repo, { 'GATES.md': '- [x] M: a person decided\n  EVIDENCE: reviewed the design doc\n' });

  it('before any interrupt: nothing is aborted, main answers what the command says', async () => {
    expect(interruptedBy()).toBeNull();
    expect(interruptSignal().aborted).toBe(false);
    expect(() => throwIfInterrupted()).not.toThrow();
    const io = captureIo(s.repo, s.env);
    expect(await main(['--status'], io)).toBe(0);
  });

  it('the first interrupt aborts waits and terminates running checks; a second SIGKILLs every group at once', async () => {
    const dir = tempDir('gc-int-');
    dirs.push(dir);
    // Both ignore SIGTERM and have a grace far longer than this test may take: only the second interrupt ends them.
    const start = (name: string) =>
      superviseCheck({ shell: '/bin/sh', args: ['-c', `trap '' TERM; sleep 300 & echo $! > ${name}; while :; do sleep 0.05; done`], cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 600_000, outputCap: 1 << 20, graceMs: 600_000 });
    const a = start('a.bg');
    const b = start('b.bg');
    const bgs = [await pidFrom(join(dir, 'a.bg')), await pidFrom(join(dir, 'b.bg'))];
    const lockFile = join(dir, 'held.lock');
    writeFiles(dir, { 'held.lock': JSON.stringify({ pid: process.pid, token: 'x' }) + '\n' });
    const waiting = acquireLock(lockFile, 600_000);
    const napping = interruptibleSleep(600_000);
    const seen: number[] = [];
    onInterrupt((_, count) => seen.push(count));

    interrupt('SIGTERM');
    expect(interruptedBy()).toBe('SIGTERM');
    expect(interruptSignal().aborted).toBe(true);
    expect(() => throwIfInterrupted()).toThrow(InterruptedError);
    await expect(waiting).rejects.toThrow(/interrupted while waiting for the lock/);
    await expect(napping).rejects.toBeInstanceOf(InterruptedError);
    expect(readFileSync(lockFile, 'utf8')).toMatch(/"token":"x"/); // never stolen

    interrupt('SIGINT');
    expect(seen).toEqual([1, 2]);
    expect(interruptedBy()).toBe('SIGTERM'); // the first reason stays
    const [oa, ob] = await Promise.all([a, b]);
    for (const o of [oa, ob]) {
      expect(o.failure).toBe('interrupted');
      expect(o.signal).toBe('SIGKILL');
    }
    for (const pid of bgs) expect(await waitDead(pid)).toBe(true);
  }, 20_000);

  it('after an interrupt, no check starts', async () => {
    const dir = tempDir('gc-int-');
    const o = await superviseCheck({ shell: '/bin/sh', args: ['-c', 'touch ran'], cwd: dir, env: {}, timeoutMs: 5000, outputCap: 1024 });
    expect(o.failure).toBe('interrupted');
    expect(o.pid).toBeNull();
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('a free lock is still taken after an interrupt (finished results are written)', async () => {
    const dir = tempDir('gc-int-');
    const lock = await acquireLock(join(dir, 'free.lock'), 1000);
    expect(existsSync(join(dir, 'free.lock'))).toBe(true);
    lock.release();
  });

  it('main answers 130 for a command that finished regardless of the interrupt', async () => {
    const io = captureIo(s.repo, s.env);
    expect(await main(['--status'], io)).toBe(130);
    expect(io.out()).toMatch(/ALL MET/);
  });

  it('…except the Stop hook, whose exit code is its answer to the host', async () => {
    const io = captureIo(s.repo, s.env);
    expect(await main(['hook', '--help'], io)).toBe(0);
  });
});
