// A lock file that is never stolen: created with O_EXCL | O_NOFOLLOW, holding the owner's
// PID and a random token. A lock left behind by a crashed process makes later callers fail
// closed after a bounded wait, naming the lock and its PID. proper-lockfile is not used: it
// always removes a lock it judges stale, and records no PID.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { InterruptedError, LockTimeoutError, UnsafeFileError } from '../errors.js';
import { interruptibleSleep, interruptSignal } from '../run/interrupts.js';
import { safeReadFile } from './safe-read.js';

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const MAX_LOCK_FILE = 4096;
const LOCK_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export interface LockHandle {
  path: string;
  release(): void;
}

interface LockInfo {
  pid: number | null;
  token: string | null;
}

/** Bounded wait from GATE_CHECK_LOCK_TIMEOUT_MS (milliseconds), else the default. */
export function lockTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.GATE_CHECK_LOCK_TIMEOUT_MS;
  if (raw === undefined || raw === '') return DEFAULT_LOCK_TIMEOUT_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 300_000) return DEFAULT_LOCK_TIMEOUT_MS;
  return n;
}

function readLockInfo(path: string): LockInfo {
  try {
    const text = safeReadFile(path, MAX_LOCK_FILE, 'lock').bytes.toString('utf8');
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null) return { pid: null, token: null };
    const pid = Object.hasOwn(data, 'pid') ? (data as Record<string, unknown>).pid : null;
    const token = Object.hasOwn(data, 'token') ? (data as Record<string, unknown>).token : null;
    return { pid: Number.isInteger(pid) ? (pid as number) : null, token: typeof token === 'string' ? token : null };
  } catch {
    return { pid: null, token: null };
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, LOCK_FLAGS, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    throw new UnsafeFileError(path, `cannot create lock (${code ?? (e as Error).message})`);
  }
  try {
    const body = JSON.stringify({ pid: process.pid, token, host: hostname(), createdAt: new Date().toISOString() }) + '\n';
    writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

export interface LockWaitOptions {
  /** Ends the wait with InterruptedError. Default: the process's interrupt signal (lib/run/interrupts.ts). */
  signal?: AbortSignal;
}

/**
 * Takes the lock at `path`, waiting at most timeoutMs; never removes a lock it does not own.
 * A free lock is taken even after an interrupt (finished results are still written); only
 * the wait for a held one is interrupted.
 */
export async function acquireLock(path: string, timeoutMs: number, options: LockWaitOptions = {}): Promise<LockHandle> {
  const signal = options.signal ?? interruptSignal();
  const token = randomBytes(16).toString('hex');
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  while (!tryCreate(path, token)) {
    if (signal.aborted) throw new InterruptedError(`interrupted while waiting for the lock ${path}`);
    if (Date.now() >= deadline) {
      const holder = readLockInfo(path);
      const alive = holder.pid !== null && isProcessAlive(holder.pid);
      const who = holder.pid === null ? 'an unknown process' : `PID ${holder.pid}${alive ? ' (still running)' : ' (not running)'}`;
      throw new LockTimeoutError(
        path,
        holder.pid,
        `lock ${path} is held by ${who}; gave up after ${timeoutMs} ms (locks are never stolen)`,
        alive
          ? `wait for PID ${holder.pid} to finish, then retry`
          : `if no gate-check process is running, remove the lock by hand: rm '${path}'`,
      );
    }
    try {
      await interruptibleSleep(Math.min(delay, Math.max(1, deadline - Date.now())), signal);
    } catch {
      throw new InterruptedError(`interrupted while waiting for the lock ${path}`);
    }
    delay = Math.min(delay * 2, 100);
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Release only a lock we own: if the token differs, someone removed ours by hand.
      if (readLockInfo(path).token !== token) return;
      try {
        unlinkSync(path);
      } catch {
        /* already removed by hand */
      }
    },
  };
}
