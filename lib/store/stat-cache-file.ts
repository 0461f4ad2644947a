// The stat cache of one repository, kept between calls in the private store:
// <store>/stat-cache/<16 hex of the repository root>.json. Only files of at least
// PERSIST_MIN_BYTES are kept: re-hashing a small file costs about what checking its entry
// does, so the file stays small and the common case costs one lstat of a missing file.
// Written by the Stop hook (and, if they choose, runs); `--status` never writes it.
//
// Trust: an entry is believed like a receipt is, so it lives where receipts live, private
// to the user. A process running as the user can forge it (SECURITY.md: same-user boundary).
import { join } from 'node:path';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { openPrivateDir, privateDirExists } from '../fsx/private-dir.js';
import { StatCache, type StatEntry } from '../fsx/stat-cache.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from './locations.js';
import { readPrivateFile } from './private-file.js';

/** Smaller files are not worth an entry on disk. */
export const PERSIST_MIN_BYTES = 256 * 1024;
/** At most this many entries are kept (those used by the last call first). */
export const MAX_PERSISTED_ENTRIES = 10_000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const HEX64 = /^[0-9a-f]{64}$/;

export interface LoadedStatCache {
  cache: StatCache;
  /** The saved text, to write only when something changed. */
  text: string | null;
}

function dirOf(locations: StoreLocations): string {
  return join(locations.base, 'stat-cache');
}

function fileName(root: string): string {
  return `${sha256Hex(root).slice(0, 16)}.json`;
}

function validRelative(rel: unknown): rel is string {
  return typeof rel === 'string' && rel !== '' && rel.length <= 4096 && !rel.includes('\0') && !rel.startsWith('/') && !rel.split('/').includes('..');
}

function validNumber(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

function parse(text: string, root: string, cache: StatCache): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isPlainObject(v) || !hasExactKeys(v, ['root', 'entries']) || v.root !== root || !Array.isArray(v.entries)) return false;
  if (v.entries.length > MAX_PERSISTED_ENTRIES) return false;
  for (const e of v.entries as unknown[]) {
    if (!Array.isArray(e) || e.length !== 7) return false;
    const [rel, dev, ino, size, mtimeMs, ctimeMs, sha256] = e as unknown[];
    if (!validRelative(rel) || !validNumber(dev) || !validNumber(ino) || !validNumber(size) || !validNumber(mtimeMs) || !validNumber(ctimeMs)) return false;
    if (typeof sha256 !== 'string' || !HEX64.test(sha256)) return false;
    cache.load(join(root, rel), { dev, ino, size, mtimeMs, ctimeMs, sha256 });
  }
  return true;
}

/**
 * The saved cache of `root`, or an empty one. Reads only; a cache that is missing,
 * malformed or unsafe gives an empty cache (it can only make hashing slower, never decide).
 */
export function loadStatCache(locations: StoreLocations, root: string): LoadedStatCache {
  const empty = (): LoadedStatCache => ({ cache: new StatCache(PERSIST_MIN_BYTES), text: null });
  const dirPath = dirOf(locations);
  if (!privateDirExists(dirPath)) return empty();
  try {
    openPrivateDir(locations.base, { repoRoot: root, create: false });
    const dir = openPrivateDir(dirPath, { repoRoot: root, create: false });
    const text = readPrivateFile(dir, fileName(root), MAX_FILE_BYTES, true);
    if (text === null) return empty();
    const cache = new StatCache(PERSIST_MIN_BYTES);
    return parse(text, root, cache) ? { cache, text } : empty();
  } catch {
    return empty();
  }
}

function serialize(root: string, cache: StatCache): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const rows: string[] = [];
  const add = (path: string) => {
    const e: StatEntry | undefined = cache.get(path);
    if (e === undefined || e.size < PERSIST_MIN_BYTES || !path.startsWith(prefix) || rows.length >= MAX_PERSISTED_ENTRIES) return;
    rows.push(JSON.stringify([path.slice(prefix.length), e.dev, e.ino, e.size, e.mtimeMs, e.ctimeMs, e.sha256]));
  };
  const used = [...cache.used].sort();
  for (const p of used) add(p);
  for (const p of [...cache.paths()].sort()) if (!cache.used.has(p)) add(p);
  return `{"root":${JSON.stringify(root)},"entries":[${rows.join(',')}]}\n`;
}

/** Saves the cache when its on-disk form changed. Errors propagate: the caller decides whether they matter. */
export function saveStatCache(locations: StoreLocations, root: string, loaded: LoadedStatCache): void {
  const text = serialize(root, loaded.cache);
  if (text === loaded.text || (loaded.text === null && text.endsWith('"entries":[]}\n'))) return;
  openPrivateDir(locations.base, { repoRoot: root, create: true });
  const dir = openPrivateDir(dirOf(locations), { repoRoot: root, create: true });
  dir.verify();
  atomicWriteFile(join(dir.path, fileName(root)), text, { mode: 0o600, create: true });
  loaded.text = text;
}
