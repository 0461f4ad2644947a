// Building each gate's oracle from the ledger and the run's settings. The I/O here is the
// resolution of the working directory and the matching and hashing of DEPENDS files, all
// through fsx primitives.
//
// Cost: within a pass every glob is matched once, every file hashed once, and every distinct
// DEPENDS pattern list turned into its sorted entry list once; gates that list the same
// patterns share that (frozen) list, so its canonical JSON and digest are computed once too
// (oracle.ts). Across passes, a stat cache (fsx/stat-cache.ts), when the caller gives one,
// skips re-reading files whose device, inode, size, mtime and ctime did not change.
import { statSync } from 'node:fs';
import { realPath } from '../fsx/physical-path.js';
import { relative, resolve, sep } from 'node:path';
import { NotRunnableError, NotRunnableYetError } from '../errors.js';
import { isInside } from '../fsx/discover.js';
import { checksStarted } from '../run/checks-started.js';
import type { Gate } from '../ledger/types.js';
import type { LoadedLedger } from '../workspace/load.js';
import { FileDigests, ResolutionPass } from './file-digests.js';
import { checkPathEntries, sourcedNames } from './check-words.js';
import { boundExecutables, checkInRepoPathEntries, environmentWithHome, forgetOutside, outsideLinksIntoRepository, signedPath } from './path-bound.js';
import { changedFields, lazyOracle, ORACLE_VERSION, type DependsEntry, type Oracle, type OracleFields } from './oracle.js';
import type { StatCache } from '../fsx/stat-cache.js';

export { DEPENDS_MAX_FILE_BYTES } from './file-digests.js';

/** The run-wide part of every oracle, plus where relative working directories anchor. */
export type OracleSettings = Pick<OracleFields, 'shell' | 'timeoutMs' | 'outputCap' | 'regexCapMs' | 'platform' | 'path'> & {
  /** The bound environment variables that are set (bound-env.ts), or null. */
  env: [string, string][] | null;
  /** Canonical repository root. */
  root: string;
  /** Canonical --cwd, the working directory of gates without CWD; null for the anchor. */
  defaultCwd: string | null;
};

function cwdLabel(loaded: LoadedLedger, gate: Gate): string {
  return `CWD of ${loaded.stem}:${gate.id} (${loaded.location.display}:${gate.attributeLines.CWD ?? gate.line})`;
}

/** The real directory at `lexical`; a gate whose CWD is missing or not a directory is not runnable. */
function canonicalCwd(lexical: string, label: string): string {
  let real: string | null;
  try {
    real = realPath(lexical);
  } catch {
    // Node decodes such a path lossily: a folder beside it whose name decodes alike would be
    // the same CWD to every later look, and a link re-pointed to it kept the pass (round-39r R2).
    throw new NotRunnableError(`${label} leads to a folder whose path is not UTF-8 text, which gate-check cannot name as the file system does: ${lexical}`);
  }
  if (real === null) throw new NotRunnableYetError(`${label} does not exist: ${lexical}`);
  if (!statSync(real).isDirectory()) throw new NotRunnableError(`${label} is not a directory: ${lexical}`);
  return real;
}

function refuseOutside(root: string, real: string, label: string): void {
  if (!isInside(root, real)) throw new NotRunnableError(`${label} resolves outside the repository: ${real} (refused)`);
}

/**
 * Throws what a run would say of a gate's own CWD (missing, not a directory, outside the
 * repository), for --status to show before any run. `root` is the canonical repository root.
 */
export function checkGateCwd(root: string, loaded: LoadedLedger, gate: Gate): void {
  if (gate.cwd === null) return;
  refuseOutside(root, canonicalCwd(resolve(root, gate.cwd), cwdLabel(loaded, gate)), cwdLabel(loaded, gate));
}

export class OracleResolver {
  private readonly initial = new ResolutionPass();
  readonly files: FileDigests;

  constructor(readonly settings: OracleSettings) {
    this.files = new FileDigests(settings.root);
  }

  /** See FileDigests.useStatCache. */
  useStatCache(cache: StatCache | null): void {
    this.files.useStatCache(cache);
  }

  /** See FileDigests.setCheckpoint. */
  setCheckpoint(checkpoint: (() => void) | undefined): void {
    this.files.setCheckpoint(checkpoint);
  }

  /** CWD: is relative to the repository root, for discovered and named ledgers alike (like DEPENDS). */
  private anchor(): string {
    return this.settings.root;
  }

  /**
   * The canonical directory a gate's CHECK runs in. Missing, not a directory, or (from the
   * ledger) outside the root: that gate is not runnable (the others run; see errors.ts).
   */
  resolveCwd(loaded: LoadedLedger, gate: Gate, pass: ResolutionPass = this.initial): string {
    const lexical = gate.cwd !== null ? resolve(this.anchor(), gate.cwd) : (this.settings.defaultCwd ?? this.anchor());
    let real = pass.cwds.get(lexical);
    if (real === undefined) {
      real = canonicalCwd(lexical, cwdLabel(loaded, gate));
      pass.cwds.set(lexical, real);
    }
    if (gate.cwd !== null) refuseOutside(this.settings.root, real, cwdLabel(loaded, gate));
    return real;
  }

  /** Sorted [path, sha256] of every file the gate's DEPENDS globs match (each file hashed once per pass). */
  depends(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    return this.files.depends(gate, label, pass);
  }

  inputs(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    return this.files.inputs(gate, label, pass);
  }

  private async fields(loaded: LoadedLedger, gate: Gate, pass: ResolutionPass): Promise<OracleFields> {
    if (gate.kind !== 'runnable' || gate.check === null || gate.expectRaw === null) {
      throw new Error(`resolve: ${gate.id} is not runnable`);
    }
    const s = this.settings;
    const label = `${loaded.stem}:${gate.id}`;
    // A check started since the last look, or anything else since the run began (the look
    // right before a spawn, after a person read the prompt: round-36 F1), may have relinked
    // something outside the repository into it: judged again where anything it read changed.
    // One look per pass: the gates of one pass (a batch written together) are resolved while no
    // check of this process starts (one that does changes checksStarted()).
    if ((pass !== this.initial && pass !== this.outsideJudgedIn) || checksStarted() !== this.outsideJudgedAt) {
      forgetOutside();
      this.outsideJudgedAt = checksStarted();
      this.outsideJudgedIn = pass;
    }
    const cwd = this.resolveCwd(loaded, gate, pass);
    const fields: OracleFields = {
      v: ORACLE_VERSION,
      ledger: loaded.location.path,
      gate: gate.id,
      check: gate.check,
      expect: gate.expectRaw,
      cwd,
      shell: s.shell,
      timeoutMs: gate.timeoutSeconds !== null ? gate.timeoutSeconds * 1000 : s.timeoutMs,
      outputCap: s.outputCap,
      regexCapMs: s.regexCapMs,
      platform: s.platform,
      path: s.path,
      depends: await this.depends(gate, label, pass),
    };
    for (const hit of outsideLinksIntoRepository(s.path, s.root, cwd, gate.check)) {
      const inRoot = relative(s.root, hit.real).split(sep).join('/');
      if (hit.folder) throw new NotRunnableError(`${label}: the CHECK's "${hit.word}" leads into the repository's folder ${inRoot || '.'}, so the files it names there go by names the reader does not know for them: write the repository's own path`);
      if (fields.depends?.some(([p]) => p === inRoot)) continue;
      const at = hit.found === hit.word ? '' : ` is found in PATH at ${hit.found},`;
      const where = hit.start !== undefined ? `${at || ' is'} an outside file whose #! line or ELF loader names ${inRoot}` : hit.found === hit.word ? ' leads into the repository' : `${at} a link into the repository`;
      throw new NotRunnableError(`${label}: the CHECK's "${hit.word}"${where}${hit.start !== undefined ? '' : ` (${inRoot})`}: that file is not bound into an approval unless DEPENDS lists it`);
    }
    const moved = checkPathEntries(gate.check, environmentWithHome(), cwd).moved;
    if (moved !== null) throw new NotRunnableError(`${label}: the CHECK changes folder (cd) and puts "${moved.slice(0, 100)}" on PATH, relative to wherever it then is: what runs from there cannot be bound; write the folder from the repository's top ($PWD/… before any cd, or an absolute path)`);
    const entries = checkInRepoPathEntries(gate.check, s.path, s.root, cwd);
    const bound = boundExecutables(entries, s.root, label, sourcedNames(gate.check), cwd);
    if (bound !== null) fields.pathBound = bound;
    fields.path = signedPath(s.path, entries, bound, s.root, cwd);
    if (s.env !== null) fields.env = s.env;
    return fields;
  }

  private readonly resolved = new WeakMap<Gate, Oracle>();
  /** checksStarted() when what lies outside the repository was last judged afresh. */
  private outsideJudgedAt = checksStarted();
  /** The pass in which it was (a fresh pass is one look at the files as they are now). */
  private outsideJudgedIn: ResolutionPass | null = null;

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
   * The gate's oracle as the files are now, in the given (fresh) pass: the working directory
   * is resolved again and DEPENDS files are re-hashed. Throws RunSetupError when it can no
   * longer be resolved (a CWD that now leads outside the repository, a DEPENDS file gone).
   */
  async fresh(loaded: LoadedLedger, gate: Gate, pass: ResolutionPass): Promise<Oracle> {
    // Signed when read: the check before each spawn compares the fields, and only a refusal shows the signature.
    return lazyOracle(await this.fields(loaded, gate, pass));
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

export { ResolutionPass };
