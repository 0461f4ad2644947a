// A lock file that is never stolen: published complete (its body, the owner's PID, host and a
// random token, is written to a temporary file and hard-linked into place, which fails if
// anything is there), so that no crash or full disk leaves an empty lock. A lock left behind
// by a crashed process makes later callers fail closed after a bounded wait, naming the lock,
// its PID, and how to remove it by hand. proper-lockfile is not used: it always removes a
// lock it judges stale, and records no PID.
import { builtinModule } from '../builtin-module.js';
import { nativeCrypto } from '../oracle/native-crypto.js';
import { unlinkSync } from 'node:fs';
import { InterruptedError, LockTimeoutError } from '../errors.js';
import { interruptibleSleep, interruptSignal } from '../run/interrupts.js';
import { publishNewFile } from './create.js';
import { lstatOrNull, safeReadFile } from './safe-read.js';

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const MAX_LOCK_FILE = 4096;

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

function tryCreate(path: string, token: string, durable: boolean): boolean {
  // Held: no temporary file (and no fsync) per retry; the link below decides races anyway.
  if (lstatOrNull(path) !== null) return false;
  const body = JSON.stringify({ pid: process.pid, token, host: osModule().hostname(), createdAt: new Date().toISOString() }) + '\n';
  return publishNewFile(path, body, 0o600, { durable });
}

/** A path as one shell word, for the removal command the user is told to type. */
function shellQuote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

/** Who holds the lock, and what the user can do about it once that process is gone. */
export function lockHeldError(path: string, timeoutMs: number): LockTimeoutError {
  const holder = readLockInfo(path);
  const rm = `rm ${shellQuote(path)}`;
  if (holder.pid === null) {
    return new LockTimeoutError(
      path,
      null,
      `lock ${path} is held by an unknown process (its body is missing or unreadable); gave up after ${timeoutMs} ms (locks are never stolen)`,
      `if no gate-check process is running, remove the lock by hand: ${rm}`,
    );
  }
  const alive = isProcessAlive(holder.pid);
  return new LockTimeoutError(
    path,
    holder.pid,
    `lock ${path} is held by PID ${holder.pid}${alive ? ' (still running)' : ' (not running)'}; gave up after ${timeoutMs} ms (locks are never stolen)`,
    alive
      ? `wait for PID ${holder.pid} to finish, then retry; if PID ${holder.pid} is gone and the lock is still there, remove it by hand: ${rm}`
      : `PID ${holder.pid} is gone: if no gate-check process is running, remove the lock by hand: ${rm}`,
  );
}

export interface LockWaitOptions {
  /** Ends the wait with InterruptedError. Default: the process's interrupt signal (lib/run/interrupts.ts). */
  signal?: AbortSignal;
  /**
   * false: the body is not synced before the lock is published. Only for a lock held for
   * moments on a path paid on every call (the Stop hook's count): a machine crash while it is
   * held can then leave it empty, which fails closed like a lock whose body names a process
   * that is gone (the bounded wait, then the removal command), only without the PID.
   */
  durable?: boolean;
}

/**
 * Takes the lock at `path`, waiting at most timeoutMs; never removes a lock it does not own.
 * A free lock is taken even after an interrupt (finished results are still written); only
 * the wait for a held one is interrupted.
 */
export async function acquireLock(path: string, timeoutMs: number, options: LockWaitOptions = {}): Promise<LockHandle> {
  const signal = options.signal ?? interruptSignal();
  const token = nativeCrypto().randomBytes(16).toString('hex');
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  const durable = options.durable !== false;
  while (!tryCreate(path, token, durable)) {
    if (signal.aborted) throw new InterruptedError(`interrupted while waiting for the lock ${path}`);
    if (Date.now() >= deadline) throw lockHeldError(path, timeoutMs);
    try {
      await interruptibleSleep(Math.min(delay, Math.max(1, deadline - Date.now())), signal);
    } catch {
      // Mutation note: equivalent (the sleep ends early only for an aborted signal, which the
      // loop's next turn refuses with the same error).
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

/** node:os, loaded when first needed (lib/builtin-module.ts). */
const osModule = () => builtinModule<typeof import('node:os')>('node:os');
