// The scheduler with real supervised checks: results in input order, and a task that throws
// ends every running check (onError) before the error reaches the caller.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInOrder } from '../../lib/run/scheduler.js';
import { RunningChecks, superviseCheck, type CheckOutcome } from '../../lib/run/supervisor.js';
import { tempDir } from '../helpers/cli.js';
import { isDead, pidFrom, processesIn, sleep } from '../helpers/process.js';

const testDirs: string[] = [];
afterEach(() => {
  for (const pid of processesIn(testDirs.splice(0))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function check(cmd: string, cwd: string, running: RunningChecks): Promise<CheckOutcome> {
  return superviseCheck({ shell: '/bin/sh', args: ['-c', cmd], cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 60_000, outputCap: 1 << 20 }, running);
}

describe('runInOrder', () => {
  it('delivers results in input order whatever order they finish in', async () => {
    const order: number[] = [];
    const results = await runInOrder(4, async (i) => {
      await sleep((4 - i) * 30);
      return i * 10;
    }, { jobs: 4, mayStart: () => true, onOrdered: (i) => order.push(i) });
    expect(order).toEqual([0, 1, 2, 3]);
    expect(results).toEqual([0, 10, 20, 30]);
  });

  it('stops starting tasks when mayStart says no', async () => {
    let started = 0;
    const results = await runInOrder(5, async (i) => (started++, i), { jobs: 1, mayStart: () => started < 2, onOrdered: () => {} });
    expect(results).toEqual([0, 1, undefined, undefined, undefined]);
  });

  it('a task that throws: no new task starts, the running check is killed, and the error comes only after it settled', async () => {
    const dir = tempDir('gc-sched-');
    testDirs.push(dir);
    const running = new RunningChecks();
    let longSettled = false;
    let onErrorCalls = 0;
    const started: number[] = [];
    const tasks = [
      async () => {
        // sh.pid first: once bg.pid is there (what the throwing task waits for), both are (a kill
        // between the two writes left sh.pid unwritten under load).
        const o = await check('echo $$ > sh.pid; sleep 300 & echo $! > bg.pid; wait', dir, running);
        longSettled = true;
        return o.failure;
      },
      async () => {
        await pidFrom(join(dir, 'bg.pid'));
        throw new Error('worker failed');
      },
      async () => 'never',
    ];
    const outcome = runInOrder(tasks.length, (i) => (started.push(i), tasks[i]!()), {
      jobs: 2,
      mayStart: () => true,
      onOrdered: () => {},
      onError: () => {
        onErrorCalls++;
        running.abortAll();
      },
    });
    await expect(outcome).rejects.toThrow('worker failed');
    // Nothing this run started is still running when the caller sees the error.
    expect(longSettled).toBe(true);
    for (const name of ['bg.pid', 'sh.pid']) expect(isDead(Number(readFileSync(join(dir, name), 'utf8'))), name).toBe(true);
    expect(onErrorCalls).toBe(1);
    expect(started).toEqual([0, 1]);
    expect(running.size).toBe(0);
  }, 20_000);

  it('an exception in onOrdered is handled the same way', async () => {
    let onErrorCalls = 0;
    const outcome = runInOrder(3, async (i) => i, {
      jobs: 1,
      mayStart: () => true,
      onOrdered: (i) => {
        if (i === 1) throw new Error('report failed');
      },
      onError: () => onErrorCalls++,
    });
    await expect(outcome).rejects.toThrow('report failed');
    expect(onErrorCalls).toBe(1);
  });
});
