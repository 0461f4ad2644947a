// A list the Stop hook remembers about a directory across sessions, in the private store
// (never the repository): <store>/hooks/<kind>-<16 hex of the directory>.json =
// {"root": <directory>, <key>: [...]}, written atomically under a lock that is never stolen.
// Used for the ledgers that had open gates (ledger-memory.ts) and for the roots below a
// repository's top level that held ledgers (repository-roots.ts). The file is hostile JSON:
// exact shape, own properties, bounded; one that is not blocks (the caller's verdict).
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

const MAX_LIST_BYTES = 256 * 1024;
const MAX_PATH_CHARS = 4096;

export interface ListKind {
  /** The file name's prefix: `ledgers`, `roots`. */
  prefix: string;
  /** The list's key in the JSON object. */
  key: string;
  /** What it is, for the error that an invalid file is. */
  what: string;
  /** How many items are kept (the first ones, sorted); a file with more is invalid. */
  max: number;
  /** Whether an item may be on the list of `root` (beyond: a string, not empty, no NUL, bounded). */
  valid: (item: string, root: string) => boolean;
}

export function listFileName(kind: ListKind, root: string): string {
  return `${kind.prefix}-${sha256Hex(root).slice(0, 16)}.json`;
}

export function listPath(kind: ListKind, locations: StoreLocations, root: string): string {
  return join(locations.hooks, listFileName(kind, root));
}

function parseList(kind: ListKind, text: string, root: string): string[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isPlainObject(v) || !hasExactKeys(v, ['root', kind.key]) || v.root !== root) return null;
  const list = v[kind.key];
  if (!Array.isArray(list) || list.length > kind.max) return null;
  if (!list.every((p) => typeof p === 'string' && p !== '' && p.length <= MAX_PATH_CHARS && !p.includes('\0') && kind.valid(p, root))) return null;
  return list as string[];
}

/**
 * The list remembered for `root`; null when nothing is remembered. Creates nothing. `repoRoot`:
 * the repository the store must lie outside of, when `root` is a key and not that folder.
 */
export function readList(kind: ListKind, locations: StoreLocations, root: string, repoRoot = root): string[] | null {
  if (!privateDirExists(locations.hooks)) return null;
  openPrivateDir(locations.base, { repoRoot, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot, create: false });
  const name = listFileName(kind, root);
  const text = readPrivateFile(dir, name, MAX_LIST_BYTES, true);
  if (text === null) return null;
  const list = parseList(kind, text, root);
  if (list === null) throw new UnsafeStoreError(join(dir.path, name), `invalid ${kind.what}`, `if it is not yours, remove it by hand (or run \`gate-check hook forget\` in the repository)`);
  return list;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Replaces the list of `root` with `items` (sorted, capped): read and written again under the
 * lock. Writes nothing (and takes no lock) when `known`, what was read before, is already
 * that list, and creates nothing for an empty list.
 */
export async function writeList(kind: ListKind, locations: StoreLocations, root: string, items: readonly string[], known: readonly string[] | null, lockTimeoutMs: number, repoRoot = root): Promise<void> {
  const next = [...new Set(items)].sort().slice(0, kind.max);
  if (known === null ? next.length === 0 : sameList(known, next)) return;
  openPrivateDir(locations.base, { repoRoot, create: true });
  const dir = openPrivateDir(locations.hooks, { repoRoot, create: true });
  const name = listFileName(kind, root);
  const path = join(dir.path, name);
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
  try {
    dir.verify();
    const text = readPrivateFile(dir, name, MAX_LIST_BYTES, true);
    const previous = text === null ? null : parseList(kind, text, root);
    if (previous !== null && sameList(previous, next)) return;
    if (previous === null && text === null && next.length === 0) return;
    dir.verify();
    atomicWriteFile(path, JSON.stringify({ root, [kind.key]: next }) + '\n', { mode: 0o600, create: true });
  } finally {
    lock.release();
  }
}

/** Removes the list of `root`; false when there was none. */
export async function removeList(kind: ListKind, locations: StoreLocations, root: string, lockTimeoutMs: number): Promise<boolean> {
  // Mutation note: only a race reaches it (`hook forget` removes lists it has just read, so
  // their folder is there unless it was removed in between); without it, that race is exit 2.
  if (!privateDirExists(locations.hooks)) return false;
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const path = join(dir.path, listFileName(kind, root));
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
  try {
    dir.verify();
    return removeFile(path);
  } finally {
    lock.release();
  }
}
