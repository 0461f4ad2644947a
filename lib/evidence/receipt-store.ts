// The run records of the private store: <store>/receipts/<16 hex of the ledger path>.records.json,
// read through readPrivateFile, written atomically (0600) while the ledger's lock is held.
import { join, relative } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { setAside } from '../fsx/create.js';
import { acquireLock } from '../fsx/lock.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { sha256Hex } from '../oracle/oracle.js';
import { shellQuote } from '../text/shell-quote.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { isForeignPass, mergeRecords, parseReceiptFile, RECEIPTS_SCHEMA, RECORDS_PER_GATE, serializeReceiptFile, type ReceiptFile, type RunRecord } from './receipt.js';
import { CHECK_RESULTS_SCHEMA, laterFailure, mergeResults, parseCheckResults, resultsOf, serializeCheckResults, type CheckResult, type CheckResultsFile } from './check-results.js';

export const MAX_RECEIPT_FILE_BYTES = 16 * 1024 * 1024;
/** The repository's check results (check-results.ts): MAX_CHECKS checks of two results each, about 300 bytes a result. */
const MAX_CHECK_RESULTS_BYTES = 16 * 1024 * 1024;

function stamp(path: string): string {
  const st = lstatOrNull(path);
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : 'missing';
}

/** What a store is opened for (ReceiptStore.open). */
export type ReceiptUse = 'run' | 'view';

export class ReceiptStore {
  private readonly cache = new Map<string, ReceiptFile>();
  /** What each receipts file looked like when this process last read or wrote it (its copy in `cache` is that). */
  private readonly cachedStamp = new Map<string, string>();
  private readonly byGate = new Map<string, Map<string, RunRecord[]>>();
  /** Records read from disk (this process's own are never foreign), and what isForeign found of them. */
  private readonly fromDisk = new WeakMap<RunRecord, boolean | null>();

  private constructor(
    readonly dir: PrivateDir,
    private readonly repoRoot: string,
    private readonly use: ReceiptUse,
  ) {}

  /**
   * Opens the receipts directory. For a run, it is created (0700) when missing, and files are
   * read again when another process changed them since (the run's own writes race theirs).
   * For a view, null when it does not exist, and each file is read once: a view writes
   * nothing, and its verdict is of the store as first read (re-checking a file per gate only
   * cost one lstat per gate: 30 ms over 5,000 gates, and gave no firmer verdict).
   */
  static open(locations: StoreLocations, repoRoot: string, use: ReceiptUse): ReceiptStore | null {
    const create = use === 'run';
    if (!create && !privateDirExists(locations.receipts)) return null;
    openPrivateDir(locations.base, { repoRoot, create });
    return new ReceiptStore(openPrivateDir(locations.receipts, { repoRoot, create }), repoRoot, use);
  }

  /** The repository's newest result of each check, as read (or written) by this process, and what the file looked like then. */
  private results: { file: CheckResultsFile; stamp: string } | null = null;

  private get resultsName(): string {
    return `${sha256Hex(this.repoRoot).slice(0, 16)}.checks.json`;
  }

  /** The repository's check results as the file says now (read again when it changed since). */
  private readResults(): CheckResultsFile {
    if (this.use === 'view' && this.results !== null) return this.results.file;
    const path = join(this.dir.path, this.resultsName);
    const before = stamp(path);
    if (this.results !== null && this.results.stamp === before) return this.results.file;
    this.dir.verify();
    const text = readPrivateFile(this.dir, this.resultsName, MAX_CHECK_RESULTS_BYTES, true);
    let file: CheckResultsFile = { schema: CHECK_RESULTS_SCHEMA, root: this.repoRoot, results: [] };
    if (text !== null) {
      const parsed = parseCheckResults(text, this.repoRoot);
      if (!parsed.ok) throw new UnsafeStoreError(path, `invalid check results file: ${parsed.reason}`, `remove the whole folder by hand (rm -r ${shellQuote(this.dir.path)}): every gate is then unverified here and runs again; removing only this file would let an older pass count over a later failure recorded in it (round-38c F8)`);
      file = parsed.file;
    }
    this.results = { file, stamp: before };
    return file;
  }

  /**
   * A failure of the check that `pass` ran (same definition and folder) that started after it,
   * under any gate id or ledger file of the repository, with no pass of that check since; or null.
   */
  laterFailureOfCheck(pass: RunRecord): CheckResult | null {
    return laterFailure(this.readResults(), pass);
  }

  /** Notes new results in the repository's check results, under a lock of that file's own. */
  private async noteResults(ledger: string, records: readonly RunRecord[], lockTimeoutMs: number): Promise<void> {
    const path = join(this.dir.path, this.resultsName);
    const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
    try {
      const merged = mergeResults(this.readResults(), resultsOf(this.ledgerInRepo(ledger), records));
      this.dir.verify();
      atomicWriteFile(path, serializeCheckResults(merged), { mode: 0o600, create: true });
      this.results = { file: merged, stamp: stamp(path) };
    } finally {
      lock.release();
    }
  }

  private fileName(ledger: string): string {
    return `${sha256Hex(ledger).slice(0, 16)}.records.json`;
  }

  private readonly inRepo = new Map<string, string>();

  /** The ledger's path inside the repository, as receipt ids name it. */
  ledgerInRepo(ledger: string): string {
    let name = this.inRepo.get(ledger);
    if (name === undefined) this.inRepo.set(ledger, (name = relative(this.repoRoot, ledger).split('\\').join('/')));
    return name;
  }

  /** The receipts of one ledger (read once per run), empty when there are none. */
  read(ledger: string): ReceiptFile {
    const known = this.cache.get(ledger);
    if (known) return known;
    this.dir.verify();
    // What the file looked like before it was read: unchanged since, the copy held is current.
    const before = stamp(join(this.dir.path, this.fileName(ledger)));
    const text = readPrivateFile(this.dir, this.fileName(ledger), MAX_RECEIPT_FILE_BYTES, true);
    let file: ReceiptFile = { schema: RECEIPTS_SCHEMA, ledger, records: [] };
    if (text !== null) {
      const parsed = parseReceiptFile(text, ledger);
      if (!parsed.ok) throw new UnsafeStoreError(join(this.dir.path, this.fileName(ledger)), `invalid receipts file: ${parsed.reason}`, 'remove it by hand; the next passing runs write new receipts');
      file = parsed.file;
      for (const r of file.records) this.fromDisk.set(r, null);
    }
    this.cache.set(ledger, file);
    this.cachedStamp.set(ledger, before);
    return file;
  }

  /** Whether `record` (one of recordsOf(ledger, …)) is a pass read from disk that cannot verify an evidence line here (isForeignPass). */
  isForeign(ledger: string, record: RunRecord): boolean {
    const known = this.fromDisk.get(record);
    if (known === undefined) return false;
    if (known !== null) return known;
    const foreign = isForeignPass(record, this.ledgerInRepo(ledger));
    this.fromDisk.set(record, foreign);
    return foreign;
  }

  /** The records of one gate, newest first. */
  recordsOf(ledger: string, gate: string): RunRecord[] {
    let index = this.byGate.get(ledger);
    if (!index) {
      index = new Map();
      for (const r of this.read(ledger).records) {
        const list = index.get(r.gate);
        if (list) list.push(r);
        else index.set(r.gate, [r]);
      }
      this.byGate.set(ledger, index);
    }
    return index.get(gate) ?? [];
  }

  /**
   * A failure of the same gate, under any definition and contents, that started when or after
   * `record` did, as the records file says now (re-read when another process wrote it since),
   * or null: the rule verification applies (verify.ts). A failure under an edited TIMEOUT,
   * with the old ledger checked out before the slow pass ended, let that pass tick the gate
   * and exit 0 (round-39a F2).
   */
  newerFailure(ledger: string, record: RunRecord): RunRecord | null {
    this.refresh(ledger);
    const started = Date.parse(record.time);
    return this.recordsOf(ledger, record.gate).find((r) => r.status === 'fail' && Date.parse(r.time) >= started) ?? null;
  }

  /**
   * Whether RECORDS_PER_GATE runs of the gate that started when or after `record` did are kept,
   * as the records file says now: then `record` would not be kept, and a newer failure may have
   * been dropped already to make room (records go oldest start first), so the pass proves
   * nothing (round-39b F5: ten runs during a slow pass pushed out the failure it raced).
   */
  outrun(ledger: string, record: RunRecord): boolean {
    this.refresh(ledger);
    const started = Date.parse(record.time);
    const kept = this.recordsOf(ledger, record.gate);
    return kept.length >= RECORDS_PER_GATE && kept.every((r) => Date.parse(r.time) >= started);
  }

  /** Forgets what this process read of the ledger's records when another process wrote them since. */
  private refresh(ledger: string): void {
    if (this.cachedStamp.get(ledger) !== stamp(join(this.dir.path, this.fileName(ledger)))) {
      this.cache.delete(ledger);
      this.byGate.delete(ledger);
    }
  }

  /**
   * Whether the ledger's run records, or the repository's check results, were set aside
   * (forget) when or after `record` started: a failure that could not be recorded happened
   * while it ran, which it cannot be weighed against (round-39c lead: the slow pass of a run
   * still going then counted; round-39d F2: so did a pass of the same check in another ledger).
   */
  forgottenSince(ledger: string, record: RunRecord): boolean {
    const started = Date.parse(record.time);
    return [`${this.fileName(ledger)}.forgotten`, `${this.resultsName}.forgotten`].some((name) => {
      const mark = lstatOrNull(join(this.dir.path, name));
      return mark !== null && mark.ctimeMs >= started;
    });
  }

  /** When a failure in this repository last could not be recorded (ms; null: never), as this process first saw it. */
  private lostAt: number | null | undefined;

  /**
   * Whether a failure somewhere in this repository could not be recorded after `pass` started:
   * it may have been of the same check, under another gate or ledger, whose results were set
   * aside with it (round-39d F2). Read once per process (verification looks at every gate).
   */
  lostFailureAfter(pass: RunRecord): boolean {
    if (this.lostAt === undefined) this.lostAt = lstatOrNull(join(this.dir.path, `${this.resultsName}.forgotten`))?.ctimeMs ?? null;
    return this.lostAt !== null && this.lostAt >= Date.parse(pass.time);
  }

  /**
   * Sets a ledger's run records aside, without the lock: for a failure that could not be
   * recorded (a full disk, where creating a lock fails and a rename still works), so that no
   * older pass of the ledger counts as verified, and no pass of a run that started before it
   * is written after it (forgottenSince). Every gate of the ledger is then unverified here
   * until it runs again. Returns whether the records are gone.
   */
  forget(ledger: string): boolean {
    this.cache.delete(ledger);
    this.byGate.delete(ledger);
    this.cachedStamp.delete(ledger);
    this.results = null;
    try {
      this.dir.verify();
    } catch {
      return false;
    }
    // The repository's check results too, each tried whatever became of the other: the lost
    // failure may be of a check that gates of other ledgers run, whose earlier passes must not
    // stand either (lostFailureAfter).
    let gone = true;
    for (const path of [join(this.dir.path, this.fileName(ledger)), join(this.dir.path, this.resultsName)]) {
      try {
        setAside(path, `${path}.forgotten`);
      } catch {
        gone = false;
      }
    }
    return gone;
  }

  /**
   * Adds run records for a ledger: re-read, merge, atomic write, under a lock of the records
   * file's own in the private store. Not under the ledger's lock: a failure must be recorded
   * even when the ledger cannot be written (a lock file planted beside it would otherwise
   * erase the failure, and an older pass would stand).
   */
  async add(ledger: string, receipts: readonly RunRecord[], lockTimeoutMs: number): Promise<void> {
    if (receipts.length === 0) return;
    this.dir.verify();
    const path = join(this.dir.path, this.fileName(ledger));
    const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
    try {
      // Unchanged since our own last read or write (same inode, size, mtime and ctime, which no
      // one can set back): what we hold is what is on disk, and need not be read and re-validated.
      if (this.cachedStamp.get(ledger) !== stamp(path)) this.cache.delete(ledger);
      this.byGate.delete(ledger);
      const merged = mergeRecords(this.read(ledger), receipts);
      this.dir.verify();
      atomicWriteFile(path, serializeReceiptFile(merged), { mode: 0o600, create: true });
      this.cache.set(ledger, merged);
      this.cachedStamp.set(ledger, stamp(path));
    } finally {
      lock.release();
    }
    // After the ledger's own records: a failure that cannot be noted here fails the run as one
    // that cannot be recorded (batch-writer.ts), which then forgets the ledger's records.
    await this.noteResults(ledger, receipts, lockTimeoutMs);
  }
}
