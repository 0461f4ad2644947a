// The lock: exclusive, bounded wait, never stolen, released only by its owner.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError, LockTimeoutError, UnsafeFileError } from '../../lib/errors.js';
import { acquireLock, lockTimeoutFromEnv } from '../../lib/fsx/lock.js';
import { fsyncFault } from '../../lib/fsx/sync.js';
import { tempDir } from '../helpers/cli.js';

describe('acquireLock', () => {
  it('records the owner PID, excludes a second taker, and releases', async () => {
    const path = join(tempDir(), 'x.lock');
    const lock = await acquireLock(path, 1000);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    await expect(acquireLock(path, 100)).rejects.toThrow(LockTimeoutError);
    lock.release();
    expect(existsSync(path)).toBe(false);
    (await acquireLock(path, 100)).release();
  });

  it('waits for a holder that releases within the bound', async () => {
    const path = join(tempDir(), 'x.lock');
    const first = await acquireLock(path, 1000);
    setTimeout(() => first.release(), 100);
    const second = await acquireLock(path, 2000);
    second.release();
  });

  it('never steals a lock of a dead process: it fails after the bounded wait, naming path and PID', async () => {
    const path = join(tempDir(), 'x.lock');
    const body = JSON.stringify({ pid: 999999, token: 'theirs' });
    writeFileSync(path, body);
    const t0 = Date.now();
    const err = await acquireLock(path, 300).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).message).toContain(path);
    expect((err as LockTimeoutError).message).toMatch(/PID 999999 \(not running\)/);
    expect((err as LockTimeoutError).hint).toMatch(/remove the lock by hand/);
    expect(readFileSync(path, 'utf8')).toBe(body);
  });

  it('an interrupt is an interrupt even when it comes as the bound runs out (exit 130, not a lock error)', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: 999999, token: 'theirs' }));
    const err = await acquireLock(path, 0, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as Error).message).toBe(`interrupted while waiting for the lock ${path}`);
  });

  it('releases only a lock it owns: a lock replaced by hand is left alone', async () => {
    const path = join(tempDir(), 'x.lock');
    const lock = await acquireLock(path, 1000);
    writeFileSync(path, JSON.stringify({ pid: 1, token: 'someone-else' }));
    lock.release();
    expect(existsSync(path)).toBe(true);
  });

  it('does not follow a symlink planted at the lock path', async () => {
    const d = tempDir();
    writeFileSync(join(d, 'target'), 'keep');
    symlinkSync(join(d, 'target'), join(d, 'x.lock'));
    await expect(acquireLock(join(d, 'x.lock'), 100)).rejects.toThrow(LockTimeoutError);
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('keep');
  });

  it('takes its bound from GATE_CHECK_LOCK_TIMEOUT_MS, ignoring nonsense', () => {
    expect(lockTimeoutFromEnv({ GATE_CHECK_LOCK_TIMEOUT_MS: '250' })).toBe(250);
    expect(lockTimeoutFromEnv({ GATE_CHECK_LOCK_TIMEOUT_MS: 'forever' })).toBe(10_000);
    expect(lockTimeoutFromEnv({ GATE_CHECK_LOCK_TIMEOUT_MS: '-1' })).toBe(10_000);
    expect(lockTimeoutFromEnv({})).toBe(10_000);
  });
});

describe('a lock is published only complete, and every failure names it', () => {
  afterEach(() => {
    fsyncFault.fail = null;
  });

  it('leaves no temporary file behind, held or released', async () => {
    const d = tempDir();
    const path = join(d, 'x.lock');
    const lock = await acquireLock(path, 1000);
    expect(readdirSync(d)).toEqual(['x.lock']);
    await expect(acquireLock(path, 50)).rejects.toThrow(LockTimeoutError);
    expect(readdirSync(d)).toEqual(['x.lock']);
    lock.release();
    expect(readdirSync(d)).toEqual([]);
  });

  it('a failure while writing the body (injected fsync error) leaves no lock, names the lock, and the next taker gets it', async () => {
    const d = tempDir();
    const path = join(d, 'x.lock');
    fsyncFault.fail = () => Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    const err = await acquireLock(path, 100).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeFileError);
    expect((err as Error).message).toBe(`${path}: cannot create (ENOSPC: no space left on the device)`);
    expect(readdirSync(d)).toEqual([]);
    fsyncFault.fail = null;
    (await acquireLock(path, 100)).release();
  });

  it('durable: false publishes the same complete body without an fsync, and excludes as well', async () => {
    const d = tempDir();
    const path = join(d, 'x.lock');
    const synced: string[] = [];
    fsyncFault.fail = (p) => (synced.push(p), null);
    const lock = await acquireLock(path, 1000, { durable: false });
    expect(synced).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await expect(acquireLock(path, 50, { durable: false })).rejects.toThrow(LockTimeoutError);
    lock.release();
    expect(readdirSync(d)).toEqual([]);
    (await acquireLock(path, 100)).release();
    expect(synced).toEqual([path]);
  });
});

describe('a lock that cannot be taken says who holds it and how to remove it', () => {
  it('held by a live process: wait for it, and once it is gone remove the lock by hand', async () => {
    const path = join(tempDir(), "it's.lock");
    const holder = spawn('sleep', ['30']);
    try {
      writeFileSync(path, JSON.stringify({ pid: holder.pid, token: 'theirs' }));
      const err = (await acquireLock(path, 50).catch((e: unknown) => e)) as LockTimeoutError;
      expect(err).toBeInstanceOf(LockTimeoutError);
      expect(err.message).toContain(`is held by PID ${holder.pid} (still running)`);
      expect(err.hint).toBe(`wait for PID ${holder.pid} to finish, then retry; if PID ${holder.pid} is gone and the lock is still there, remove it by hand: rm '${path.replace("'", "'\\''")}'`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('an empty or unreadable lock (no PID): held by an unknown process, with the removal command', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, '');
    const err = (await acquireLock(path, 50).catch((e: unknown) => e)) as LockTimeoutError;
    expect(err.message).toMatch(/is held by an unknown process/);
    expect(err.hint).toBe(`if no gate-check process is running, remove the lock by hand: rm '${path}'`);
  });
});
