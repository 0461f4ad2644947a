// The lock: exclusive, bounded wait, never stolen, released only by its owner.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockTimeoutError } from '../../lib/errors.js';
import { acquireLock, lockTimeoutFromEnv } from '../../lib/fsx/lock.js';
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
