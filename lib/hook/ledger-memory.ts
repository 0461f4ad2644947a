// What the Stop hook remembers about a repository across sessions: which of its ledgers had
// open gates the last time it looked. A ledger on that list that is gone (removed, moved
// out of discovery, renamed) blocks every later stop, in any session, until it is back or a
// person runs `gate-check hook forget`: removing a ledger does not meet its gates. A ledger
// whose gates were all met when last seen may go.
//
// <store>/hooks/ledgers-<16 hex of the repository root>.json = {"root":…,"open":[…]}, in the
// private store (never the repository), written atomically under a lock that is never stolen.
import { join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { removeFile } from '../fsx/create.js';
import { acquireLock } from '../fsx/lock.js';
import { openPrivateDir, privateDirExists } from '../fsx/private-dir.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';

const MAX_MEMORY_BYTES = 256 * 1024;
/** More open ledgers than this are remembered as the first ones (sorted): the list stays readable. */
export const MAX_REMEMBERED_LEDGERS = 1000;
const MAX_PATH_CHARS = 4096;

export function memoryFileName(root: string): string {
  return `ledgers-${sha256Hex(root).slice(0, 16)}.json`;
}

export function memoryPath(locations: StoreLocations, root: string): string {
  return join(locations.hooks, memoryFileName(root));
}

function parseMemory(text: string, root: string): string[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isPlainObject(v) || !hasExactKeys(v, ['root', 'open']) || v.root !== root || !Array.isArray(v.open)) return null;
  const open = v.open as unknown[];
  if (open.length > MAX_REMEMBERED_LEDGERS) return null;
  if (!open.every((p) => typeof p === 'string' && p !== '' && p.length <= MAX_PATH_CHARS && !p.includes('\0'))) return null;
  return open as string[];
}

/** The ledgers of `root` that had open gates when last seen; null when nothing is remembered. Creates nothing. */
export function readLedgerMemory(locations: StoreLocations, root: string): string[] | null {
  if (!privateDirExists(locations.hooks)) return null;
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const name = memoryFileName(root);
  const text = readPrivateFile(dir, name, MAX_MEMORY_BYTES, true);
  if (text === null) return null;
  const open = parseMemory(text, root);
  if (open === null) throw new UnsafeStoreError(join(dir.path, name), 'invalid ledger memory', `if it is not yours, remove it by hand (or run \`gate-check hook forget\` in the repository)`);
  return open;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Replaces the memory of `root` with `open` (sorted, capped): read and written again under
 * the lock. Writes nothing (and takes no lock) when `known`, what was read before, is already
 * that list, and creates nothing for an empty list.
 */
export async function writeLedgerMemory(locations: StoreLocations, root: string, open: readonly string[], known: readonly string[] | null, lockTimeoutMs: number): Promise<void> {
  const next = [...new Set(open)].sort().slice(0, MAX_REMEMBERED_LEDGERS);
  if (known === null ? next.length === 0 : sameList(known, next)) return;
  openPrivateDir(locations.base, { repoRoot: root, create: true });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: true });
  const name = memoryFileName(root);
  const path = join(dir.path, name);
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
  try {
    dir.verify();
    const text = readPrivateFile(dir, name, MAX_MEMORY_BYTES, true);
    const previous = text === null ? null : parseMemory(text, root);
    if (previous !== null && sameList(previous, next)) return;
    if (previous === null && text === null && next.length === 0) return;
    dir.verify();
    atomicWriteFile(path, JSON.stringify({ root, open: next }) + '\n', { mode: 0o600, create: true });
  } finally {
    lock.release();
  }
}

/** Removes what is remembered about `root`; false when there was nothing. */
export async function forgetLedgers(locations: StoreLocations, root: string, lockTimeoutMs: number): Promise<boolean> {
  if (!privateDirExists(locations.hooks)) return false;
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const path = join(dir.path, memoryFileName(root));
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
  try {
    dir.verify();
    return removeFile(path);
  } finally {
    lock.release();
  }
}
