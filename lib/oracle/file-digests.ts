// Matching and hashing the files a gate names (DEPENDS, INPUTS): what runs bind into their
// oracles and what verification compares with the evidence. Needs only the repository root,
// nothing of the environment. I/O through fsx primitives; bounded in file size, and
// interruptible between files and chunks (the Stop hook's deadline).
import { join } from 'node:path';
import { DeadlineError } from '../errors.js';
import { matchDependsGlob } from '../fsx/depends-glob.js';
import type { HashOptions } from '../fsx/hash-file.js';
import { hashWithCache, type StatCache } from '../fsx/stat-cache.js';
import type { Gate } from '../ledger/types.js';
import { shareDepends, type DependsEntry } from './oracle.js';

/** The largest file a DEPENDS or INPUTS glob may match: a larger one makes its gate stale or its run refused, never a hang. */
export const DEPENDS_MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The most list entries one pass remembers for sharing. Gates with distinct DEPENDS sets would
 * otherwise keep every list (and its encoded JSON) alive: 20,000 gates of 4,001 files each
 * held 0.6 MB per gate and filled a 192 MiB heap. Past this, a list is used and dropped.
 */
export const LIST_MEMO_MAX_ENTRIES = 1 << 18;

/**
 * Caches of one pass over the files. A run has one, filled when it starts; a re-check (before
 * a spawn, before writing results) uses a fresh one, so that every directory and file is
 * looked at again, once per pass rather than once per gate.
 */
export class ResolutionPass {
  readonly cwds = new Map<string, string>();
  readonly globs = new Map<string, string[]>();
  readonly hashes = new Map<string, string>();
  /** Entry list per distinct set of patterns, shared by every gate with that set. */
  readonly lists = new Map<string, DependsEntry[]>();
  /** Entries held by `lists`, bounded by LIST_MEMO_MAX_ENTRIES. */
  listEntries = 0;
  /** A glob or a file that failed is not matched or read again in this pass (5,000 gates sharing one bad file fail once). */
  readonly failures = new Map<string, { label: string; error: Error }>();
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The same error, naming another gate: messages name the gate as `of <gate>` (DEPENDS of GATES:G1: …). */
function relabel(error: Error, from: string, to: string): Error {
  if (from === to) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  Object.assign(copy, error);
  Object.defineProperty(copy, 'message', { value: error.message.replaceAll(` of ${from}`, ` of ${to}`), writable: true, configurable: true });
  return copy;
}

export class FileDigests {
  readonly initial = new ResolutionPass();
  /** None by default: one pass gains nothing from remembering what it hashed (see useStatCache). */
  private statCache: StatCache | null = null;
  private checkpoint: (() => void) | undefined = undefined;

  constructor(readonly root: string) {}

  /**
   * Hash through this cache: files whose device, inode, size, mtime and ctime did not change
   * since they were hashed are not read again, in a later pass or (with a cache loaded from
   * the private store) a later process.
   */
  useStatCache(cache: StatCache | null): void {
    this.statCache = cache;
  }

  /**
   * Called before every glob is matched and every file hashed, and between the chunks of a
   * large file; the DeadlineError it throws abandons the resolution.
   */
  setCheckpoint(checkpoint: (() => void) | undefined): void {
    this.checkpoint = checkpoint;
  }

  /** Sorted [path, sha256] of every file the gate's DEPENDS globs match (each file hashed once per pass; the list shared and frozen). */
  depends(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    return this.matchAndHash(gate.depends, 'DEPENDS', label, pass);
  }

  /** The same for INPUTS: files whose change makes evidence stale without needing a new approval. */
  inputs(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    return this.matchAndHash(gate.inputs, 'INPUTS', label, pass);
  }

  /** A failure remembered in this pass, thrown again naming this gate. */
  private static rethrow(pass: ResolutionPass, key: string, label: string): void {
    const failed = pass.failures.size === 0 ? undefined : pass.failures.get(key);
    if (failed) throw relabel(failed.error, failed.label, label);
  }

  /** Remembers a failure (not a deadline: that says nothing about the file) for the rest of the pass. */
  private static remember(pass: ResolutionPass, key: string, label: string, e: unknown): void {
    if (e instanceof Error && !(e instanceof DeadlineError)) pass.failures.set(key, { label, error: e });
  }

  private async matchOnce(pass: ResolutionPass, pattern: string, what: string, label: string): Promise<string[]> {
    const key = `glob:${what}:${pattern}`;
    FileDigests.rethrow(pass, key, label);
    this.checkpoint?.();
    try {
      return await matchDependsGlob(this.root, pattern, label, what);
    } catch (e) {
      FileDigests.remember(pass, key, label, e);
      throw e;
    }
  }

  /** Synchronous on purpose: thousands of files per pass, no promise per file. */
  private hashOnce(pass: ResolutionPass, rel: string, what: string, label: string, options: HashOptions): string {
    const key = `file:${rel}`;
    if (pass.failures.size > 0) FileDigests.rethrow(pass, key, label);
    this.checkpoint?.();
    try {
      return hashWithCache(this.statCache, join(this.root, rel), `${what} of ${label}: ${rel}`, options);
    } catch (e) {
      FileDigests.remember(pass, key, label, e);
      throw e;
    }
  }

  private async matchAndHash(patterns: readonly string[] | null, what: string, label: string, pass: ResolutionPass): Promise<DependsEntry[] | null> {
    if (patterns === null) return null;
    const sorted = [...new Set(patterns)].sort(byCodeUnit);
    const key = `${what}\n${sorted.join('\n')}`;
    const known = pass.lists.get(key);
    if (known) return known;
    const files = new Set<string>();
    for (const pattern of sorted) {
      let matched = pass.globs.get(pattern);
      if (matched === undefined) {
        matched = await this.matchOnce(pass, pattern, what, label);
        pass.globs.set(pattern, matched);
      }
      for (const f of matched) files.add(f);
    }
    const entries: DependsEntry[] = [];
    const options: HashOptions = { maxBytes: DEPENDS_MAX_FILE_BYTES, checkpoint: this.checkpoint };
    for (const rel of [...files].sort(byCodeUnit)) {
      let hash = pass.hashes.get(rel);
      if (hash === undefined) {
        hash = this.hashOnce(pass, rel, what, label, options);
        pass.hashes.set(rel, hash);
      }
      entries.push([rel, hash]);
    }
    if (pass.listEntries + entries.length > LIST_MEMO_MAX_ENTRIES) return entries;
    const shared = shareDepends(entries);
    pass.lists.set(key, shared);
    pass.listEntries += entries.length;
    return shared;
  }
}
