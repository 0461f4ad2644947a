// Building each gate's oracle from the ledger and the run's settings. The I/O here is the
// resolution of the working directory and the matching and hashing of DEPENDS files, all
// through fsx primitives.
//
// Cost: within a pass every glob is matched once, every file hashed once, and every distinct
// DEPENDS pattern list turned into its sorted entry list once; gates that list the same
// patterns share that (frozen) list, so its canonical JSON and digest are computed once too
// (oracle.ts). Across passes, a stat cache (fsx/stat-cache.ts), when the caller gives one,
// skips re-reading files whose device, inode, size, mtime and ctime did not change.
import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DeadlineError, RunSetupError } from '../errors.js';
import { matchDependsGlob } from '../fsx/depends-glob.js';
import { isInside } from '../fsx/discover.js';
import type { HashOptions } from '../fsx/hash-file.js';
import { hashWithCache, type StatCache } from '../fsx/stat-cache.js';
import type { Gate } from '../ledger/types.js';
import type { LoadedLedger } from '../workspace/load.js';
import { changedFields, lazyOracle, ORACLE_VERSION, shareDepends, type DependsEntry, type Oracle, type OracleFields } from './oracle.js';

/** The largest file a DEPENDS glob may match: a larger one makes its gate's oracle uncomputable (stale, never a hang). */
export const DEPENDS_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** The run-wide part of every oracle, plus where relative working directories anchor. */
export type OracleSettings = Pick<OracleFields, 'shell' | 'timeoutMs' | 'outputCap' | 'regexCapMs' | 'platform' | 'path'> & {
  /** Canonical repository root. */
  root: string;
  /** Ledgers named on the command line anchor relative CWD beside themselves. */
  explicit: boolean;
  /** Canonical --cwd, the working directory of gates without CWD; null for the anchor. */
  defaultCwd: string | null;
};

/**
 * Caches of one pass over the files. The run has one, filled when it starts; a re-check
 * (before writing results) uses a fresh one, so that every directory and file is looked at
 * again, once per pass rather than once per gate.
 */
export class ResolutionPass {
  readonly cwds = new Map<string, string>();
  readonly globs = new Map<string, string[]>();
  readonly hashes = new Map<string, string>();
  /** Entry list per distinct set of DEPENDS patterns, shared by every gate with that set. */
  readonly lists = new Map<string, DependsEntry[]>();
  /** A glob or a file that failed is not matched or read again in this pass (5,000 gates sharing one bad file fail once). */
  readonly failures = new Map<string, { label: string; error: Error }>();
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The same error, naming another gate: DEPENDS messages start with `DEPENDS of <gate>:`. */
function relabel(error: Error, from: string, to: string): Error {
  if (from === to) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  Object.assign(copy, error);
  Object.defineProperty(copy, 'message', { value: error.message.replace(`DEPENDS of ${from}:`, `DEPENDS of ${to}:`), writable: true, configurable: true });
  return copy;
}

export class OracleResolver {
  private readonly initial = new ResolutionPass();
  /** None by default: one pass gains nothing from remembering what it hashed (see useStatCache). */
  private statCache: StatCache | null = null;
  private checkpoint: (() => void) | undefined = undefined;

  constructor(readonly settings: OracleSettings) {}

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

  /** A failure remembered in this pass, thrown again naming this gate. */
  private static rethrow(pass: ResolutionPass, key: string, label: string): void {
    const failed = pass.failures.size === 0 ? undefined : pass.failures.get(key);
    if (failed) throw relabel(failed.error, failed.label, label);
  }

  /** Remembers a failure (not a deadline: that says nothing about the file) for the rest of the pass. */
  private static remember(pass: ResolutionPass, key: string, label: string, e: unknown): void {
    if (e instanceof Error && !(e instanceof DeadlineError)) pass.failures.set(key, { label, error: e });
  }

  private async matchOnce(pass: ResolutionPass, pattern: string, label: string): Promise<string[]> {
    OracleResolver.rethrow(pass, `glob:${pattern}`, label);
    this.checkpoint?.();
    try {
      return await matchDependsGlob(this.settings.root, pattern, label);
    } catch (e) {
      OracleResolver.remember(pass, `glob:${pattern}`, label, e);
      throw e;
    }
  }

  /** Synchronous on purpose: thousands of files per pass, no promise per file. */
  private hashOnce(pass: ResolutionPass, rel: string, label: string, options: HashOptions): string {
    if (pass.failures.size > 0) OracleResolver.rethrow(pass, `file:${rel}`, label);
    this.checkpoint?.();
    try {
      return hashWithCache(this.statCache, join(this.settings.root, rel), `DEPENDS of ${label}: ${rel}`, options);
    } catch (e) {
      OracleResolver.remember(pass, `file:${rel}`, label, e);
      throw e;
    }
  }

  private anchor(loaded: LoadedLedger): string {
    return this.settings.explicit ? dirname(loaded.location.path) : this.settings.root;
  }

  /** The canonical directory a gate's CHECK runs in; exit 2 if it is missing, not a directory, or (from the ledger) outside the root. */
  resolveCwd(loaded: LoadedLedger, gate: Gate, pass: ResolutionPass = this.initial): string {
    const label = `${loaded.stem}:${gate.id}`;
    const lexical = gate.cwd !== null ? resolve(this.anchor(loaded), gate.cwd) : (this.settings.defaultCwd ?? this.anchor(loaded));
    let real = pass.cwds.get(lexical);
    if (real === undefined) {
      try {
        real = realpathSync.native(lexical);
      } catch {
        throw new RunSetupError(`CWD of ${label} does not exist: ${lexical}`);
      }
      if (!statSync(real).isDirectory()) throw new RunSetupError(`CWD of ${label} is not a directory: ${lexical}`);
      pass.cwds.set(lexical, real);
    }
    if (gate.cwd !== null && !isInside(this.settings.root, real)) {
      throw new RunSetupError(`CWD of ${label} resolves outside the repository: ${real} (refused)`);
    }
    return real;
  }

  /** Sorted [path, sha256] of every file the gate's DEPENDS globs match (each file hashed once per pass; the list shared and frozen). */
  async depends(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    if (gate.depends === null) return null;
    const patterns = [...new Set(gate.depends)].sort(byCodeUnit);
    const key = patterns.join('\n');
    const known = pass.lists.get(key);
    if (known) return known;
    const files = new Set<string>();
    for (const pattern of patterns) {
      let matched = pass.globs.get(pattern);
      if (matched === undefined) {
        matched = await this.matchOnce(pass, pattern, label);
        pass.globs.set(pattern, matched);
      }
      for (const f of matched) files.add(f);
    }
    const entries: DependsEntry[] = [];
    const options: HashOptions = { maxBytes: DEPENDS_MAX_FILE_BYTES, checkpoint: this.checkpoint };
    for (const rel of [...files].sort(byCodeUnit)) {
      let hash = pass.hashes.get(rel);
      if (hash === undefined) {
        hash = this.hashOnce(pass, rel, label, options);
        pass.hashes.set(rel, hash);
      }
      entries.push([rel, hash]);
    }
    const shared = shareDepends(entries);
    pass.lists.set(key, shared);
    return shared;
  }

  private async fields(loaded: LoadedLedger, gate: Gate, pass: ResolutionPass): Promise<OracleFields> {
    if (gate.kind !== 'runnable' || gate.check === null || gate.expectRaw === null) {
      throw new Error(`resolve: ${gate.id} is not runnable`);
    }
    const s = this.settings;
    return {
      v: ORACLE_VERSION,
      ledger: loaded.location.path,
      gate: gate.id,
      check: gate.check,
      expect: gate.expectRaw,
      cwd: this.resolveCwd(loaded, gate, pass),
      shell: s.shell,
      timeoutMs: s.timeoutMs,
      outputCap: s.outputCap,
      regexCapMs: s.regexCapMs,
      platform: s.platform,
      path: s.path,
      depends: await this.depends(gate, `${loaded.stem}:${gate.id}`, pass),
    };
  }

  private readonly resolved = new WeakMap<Gate, Oracle>();

  /** The gate's oracle as the run started (memoized per parsed gate). */
  async resolve(loaded: LoadedLedger, gate: Gate): Promise<Oracle> {
    const known = this.resolved.get(gate);
    if (known) return known;
    // The signature is computed when first read: a gate whose evidence fails before the
    // receipt comparison never pays for hashing its canonical oracle.
    const oracle = lazyOracle(await this.fields(loaded, gate, this.initial));
    this.resolved.set(gate, oracle);
    return oracle;
  }

  /**
   * What changed in a gate's oracle since `original` was resolved, in a fresh pass: the
   * working directory is resolved again and DEPENDS files are re-hashed. Empty when nothing
   * changed.
   */
  async changesSince(loaded: LoadedLedger, gate: Gate, original: Oracle, pass: ResolutionPass): Promise<string[]> {
    return changedFields(original.fields, await this.fields(loaded, gate, pass));
  }
}
