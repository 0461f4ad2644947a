// File digests remembered by what the file system says about the file, as git's index does:
// an entry is used only while device, inode, size, mtime and ctime are all unchanged. ctime
// cannot be set back by an unprivileged process (utimes moves it to now), so an edit, a
// replacement or a restored mtime all miss the cache.
//
// "Racy clean" (git's term): timestamps are coarse (a jiffy on Linux, 2 s on FAT), so a file
// written again within the same tick as the version that was hashed keeps its times. An
// entry is therefore recorded only when the file's mtime and ctime are at least
// RACY_MARGIN_MS older than the moment hashing started; a younger file is hashed again the
// next time, until it has aged. The entry is keyed by the stat taken before the read: a write
// during the read gives the file a ctime of "now", past that settled one, so the entry (whose
// digest may mix two versions) never matches the file again.
import { lstatSync, type Stats } from 'node:fs';
import { UnsafeFileError } from '../errors.js';
import { sha256FileWithStat, type HashOptions } from './hash-file.js';

/** How much older than "now" a file's mtime and ctime must be before its digest is remembered. */
export const RACY_MARGIN_MS = 3000;

export interface StatEntry {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  sha256: string;
}

function matches(e: StatEntry, st: Stats): boolean {
  return e.dev === st.dev && e.ino === st.ino && e.size === st.size && e.mtimeMs === st.mtimeMs && e.ctimeMs === st.ctimeMs;
}

/** Safe to remember: both timestamps are well in the past of the moment hashing started (and not in the future). */
export function settledBefore(st: Stats, startedAtMs: number): boolean {
  return Math.max(st.mtimeMs, st.ctimeMs) < startedAtMs - RACY_MARGIN_MS;
}

export class StatCache {
  /**
   * @param minBytes smaller files are neither remembered nor looked up: for a single pass
   *   (the Stop hook) remembering a small file costs more than hashing it again would.
   */
  constructor(readonly minBytes = 0) {}

  private readonly entries = new Map<string, StatEntry>();
  /** Paths looked up or recorded by this process (what is worth keeping when the cache is saved). */
  readonly used = new Set<string>();
  /** True once an entry was recorded that was not known before. */
  changed = false;

  /** Entries as loaded from a saved cache; they are trusted exactly like recorded ones. */
  load(path: string, entry: StatEntry): void {
    this.entries.set(path, entry);
  }

  get(path: string): StatEntry | undefined {
    return this.entries.get(path);
  }

  paths(): IterableIterator<string> {
    return this.entries.keys();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The remembered digest of `path` if `st` (an lstat of it now) still matches, else null. */
  lookup(path: string, st: Stats): string | null {
    const e = this.entries.get(path);
    if (e === undefined) return null;
    this.used.add(path);
    return matches(e, st) ? e.sha256 : null;
  }

  record(path: string, entry: StatEntry): void {
    const known = this.entries.get(path);
    this.used.add(path);
    if (known && known.sha256 === entry.sha256 && known.dev === entry.dev && known.ino === entry.ino && known.size === entry.size && known.mtimeMs === entry.mtimeMs && known.ctimeMs === entry.ctimeMs) return;
    this.entries.set(path, entry);
    this.changed = true;
  }

  forget(path: string): void {
    this.entries.delete(path);
  }
}

/**
 * The SHA-256 of the regular file at `path`, from the cache when the file is unchanged, else
 * read (and remembered when it is settled). Refuses what sha256File refuses: a link, a
 * non-regular file, a file over `options.maxBytes`.
 */
export function hashWithCache(cache: StatCache | null, path: string, label: string, options: HashOptions = {}, now: () => number = Date.now): string {
  // Only a path with an entry costs an lstat; a cold cache adds nothing to the read below.
  if (cache !== null && cache.get(path) !== undefined) {
    let st: Stats | null = null;
    try {
      st = lstatSync(path);
    } catch {
      // Missing or unreadable: the read below says why.
    }
    if (st !== null) {
      if (st.isSymbolicLink()) throw new UnsafeFileError(label, 'is a symbolic link (refused)');
      if (!st.isFile()) throw new UnsafeFileError(label, 'is not a regular file (refused)');
      const known = cache.lookup(path, st);
      if (known !== null && (options.maxBytes === undefined || st.size <= options.maxBytes)) return known;
    }
  }
  if (cache === null) return sha256FileWithStat(path, label, options).sha256;
  const startedAt = now();
  const h = sha256FileWithStat(path, label, options);
  if (h.before.size >= cache.minBytes) {
    if (settledBefore(h.before, startedAt)) {
      const b = h.before;
      cache.record(path, { dev: b.dev, ino: b.ino, size: b.size, mtimeMs: b.mtimeMs, ctimeMs: b.ctimeMs, sha256: h.sha256 });
    } else {
      cache.forget(path);
    }
  }
  return h.sha256;
}
