// The Stop hook's memory: how many times in a row it blocked without semantic progress.
// Kept in the private store (<store>/hooks/<root key>-<session key>.json), never in the
// repository where the agent could reset it; updated under a lock that is never stolen, so
// concurrent hook calls lose no count.
import { join } from 'node:path';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { acquireLock } from '../fsx/lock.js';
import { openPrivateDir, privateDirExists } from '../fsx/private-dir.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';

export interface StopState {
  /** Digest of the strict view of every gate (id and met/abandoned/open), order-independent. */
  fingerprint: string;
  /** Consecutive blocks with that fingerprint. */
  blocks: number;
}

const MAX_STATE_BYTES = 4096;

function parseState(text: string): StopState | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isPlainObject(v) || !hasExactKeys(v, ['fingerprint', 'blocks'])) return null;
  if (typeof v.fingerprint !== 'string' || !Number.isSafeInteger(v.blocks) || (v.blocks as number) < 0) return null;
  return { fingerprint: v.fingerprint, blocks: v.blocks as number };
}

function stateName(repoRoot: string, sessionId: string): string {
  return `${sha256Hex(repoRoot).slice(0, 16)}-${sha256Hex(sessionId).slice(0, 16)}.json`;
}

/**
 * Sets the state of one (repository, session) to `fingerprint` with no block counted (a
 * stop let through). A state that already says so is left as it is, without the lock or a
 * write: the common stop of a session whose gates stay met then writes nothing (three
 * fsyncs less). That read is as good as the locked one: whatever a concurrent call writes
 * after it, the outcome is one of the orders the lock allows.
 */
export async function resetStopState(locations: StoreLocations, repoRoot: string, sessionId: string, lockTimeoutMs: number, fingerprint: string): Promise<void> {
  if (privateDirExists(locations.hooks)) {
    const dir = openPrivateDir(locations.hooks, { repoRoot, create: false });
    const text = readPrivateFile(dir, stateName(repoRoot, sessionId), MAX_STATE_BYTES, true);
    const current = text === null ? null : parseState(text);
    if (current !== null && current.fingerprint === fingerprint && current.blocks === 0) return;
  }
  await updateStopState(locations, repoRoot, sessionId, lockTimeoutMs, () => ({ fingerprint, blocks: 0 }));
}

/**
 * Reads, updates and writes the state of one (repository, session) atomically under a lock.
 * `update` gets the previous state (null if none or unreadable) and returns the next one.
 */
export async function updateStopState(
  locations: StoreLocations,
  repoRoot: string,
  sessionId: string,
  lockTimeoutMs: number,
  update: (previous: StopState | null) => StopState,
): Promise<StopState> {
  openPrivateDir(locations.base, { repoRoot, create: true });
  const dir = openPrivateDir(locations.hooks, { repoRoot, create: true });
  const name = stateName(repoRoot, sessionId);
  const path = join(dir.path, name);
  // Neither the lock nor the count is synced (every stop would pay three fsyncs): see below.
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs, { durable: false });
  try {
    dir.verify();
    const text = readPrivateFile(dir, name, MAX_STATE_BYTES, true);
    const next = update(text === null ? null : parseState(text));
    dir.verify();
    // Not synced (every stop would pay two fsyncs): a machine crash can only bring back an
    // earlier state of this count, or an unreadable one, which counts from one again.
    atomicWriteFile(path, JSON.stringify(next) + '\n', { mode: 0o600, create: true, durable: false });
    return next;
  } finally {
    lock.release();
  }
}
