// Writing results in batches: per ledger, at most one batch in flight, one write per batch
// (under the ledger's lock, the run records of the results that are not stale, then the
// ledger; then the audit log). A written batch survives a later crash; results arriving
// meanwhile wait for the next batch.
import { InterruptedError, RunSetupError } from '../errors.js';
import type { HistoryLog } from '../history/log.js';
import type { Gate, Ledger } from '../ledger/types.js';
import type { Oracle } from '../oracle/oracle.js';
import { ResolutionPass, type OracleResolver } from '../oracle/resolve.js';
import type { LoadedLedger } from '../workspace/load.js';
import type { AttemptEvent } from '../history/event.js';
import { RECORDS_PER_GATE, type RunRecord } from './receipt.js';
import type { ReceiptStore } from './receipt-store.js';
import { writeResults, type FlushOutcome, type PendingWrite } from './writeback.js';
import { sanitizeLine, visibleNonAscii } from '../text/sanitize.js';

/** What one finished attempt leaves to be written. */
export interface BatchItem {
  write: PendingWrite | null;
  record: RunRecord | null;
  event: AttemptEvent | null;
}

/** What became of one result: written into the ledger, discarded as stale, or not written because the batch failed. */
export type WriteOutcome = { kind: 'written' } | { kind: 'stale'; reason: string } | { kind: 'failed' };

interface Queued {
  item: BatchItem;
  settle: (outcome: WriteOutcome) => void;
}

/** Results are written at most this long after they arrive. */
const FLUSH_DELAY_MS = 1000;

/** Writes results per ledger in batches: receipts and the ledger under its lock, then the audit log. */
export class BatchWriter {
  private readonly pending = new Map<LoadedLedger, Queued[]>();
  private readonly inFlight = new Map<LoadedLedger, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private failure: unknown = null;
  readonly written = new Set<string>();
  readonly stale = new Map<string, string>();

  constructor(
    private readonly resolver: OracleResolver,
    private readonly receipts: ReceiptStore,
    private readonly history: HistoryLog,
    private readonly lockTimeoutMs: number,
  ) {}

  /** Queues a result; the promise says, once its batch is written, what became of it (it never rejects). */
  add(loaded: LoadedLedger, attempt: BatchItem): Promise<WriteOutcome> {
    return new Promise((settle) => {
      const queued = { item: attempt, settle };
      const list = this.pending.get(loaded);
      if (list) list.push(queued);
      else this.pending.set(loaded, [queued]);
      this.timer ??= setTimeout(() => {
        this.timer = null;
        void this.flushAll().catch(() => {});
      }, FLUSH_DELAY_MS);
    });
  }

  private async flushQueued(loaded: LoadedLedger, queued: Queued[]): Promise<void> {
    let stale: ReadonlyMap<string, string>;
    try {
      stale = await this.flushBatch(loaded, queued.map((q) => q.item));
    } catch (e) {
      for (const q of queued) q.settle({ kind: 'failed' });
      throw e;
    }
    for (const q of queued) {
      const id = q.item.write?.gateId;
      const reason = id === undefined ? undefined : stale.get(id);
      q.settle(reason === undefined ? { kind: 'written' } : { kind: 'stale', reason });
    }
  }

  /** Writes one batch; returns the gates whose results were discarded as stale, with why. */
  private async flushBatch(loaded: LoadedLedger, batch: BatchItem[]): Promise<ReadonlyMap<string, string>> {
    const records = batch.flatMap((a) => (a.record ? [a.record] : []));
    // Every failure first, whatever becomes of the ledger (a lock held by another process, a
    // ledger that no longer parses, a stale result): a failure under the definition and
    // DEPENDS the run started with is the newest result for them, even when a file changed
    // meanwhile, and restoring the file or the ledger must not bring an older pass back.
    const failures = records.filter((r) => r.status === 'fail');
    try {
      await this.receipts.add(loaded.location.path, failures, this.lockTimeoutMs);
    } catch (e) {
      // Interrupted (Ctrl-C during the lock wait): still no older pass may stand, but nothing
      // more is waited for, and the interrupt stays the exit (130).
      if (e instanceof InterruptedError) {
        if (failures.length > 0) this.receipts.forget(loaded.location.path);
        throw e;
      }
      throw await this.failureNotRecorded(loaded, batch, failures, e);
    }
    const pass = new ResolutionPass();
    let outcome: FlushOutcome;
    try {
      outcome = await writeResults(
        loaded.location.path,
        batch.flatMap((a) => (a.write ? [a.write] : [])),
        (ledger: Ledger, gate: Gate, original: Oracle) => this.resolver.changesSince({ ...loaded, ledger }, gate, original, pass),
        {
          lockTimeoutMs: this.lockTimeoutMs,
          directories: loaded.directories,
          // A slow pass that started before a newer run of the same gate failed: the failure is
          // the newest result, and the pass must not tick the gate over it (round-15b F1).
          superseded: (gateId) => {
            const mine = records.find((r) => r.gate === gateId && r.status === 'pass');
            const newer = mine ? this.receipts.newerFailure(loaded.location.path, mine) : null;
            if (newer !== null) return `a newer run of this gate failed while it ran (started ${newer.time}): that failure stands`;
            if (mine && this.receipts.forgottenSince(loaded.location.path, mine)) return 'run records were set aside while it ran, as a failure in this repository could not be recorded: it is weighed against nothing';
            if (mine && this.receipts.outrun(loaded.location.path, mine)) return `${RECORDS_PER_GATE} newer runs of this gate started while it ran, and only the ${RECORDS_PER_GATE} newest are kept: its result would not be, and may hide a newer failure`;
            // The same check run under another gate id or in another ledger file (round-38c F2).
            const elsewhere = mine ? this.receipts.laterFailureOfCheck(mine) : null;
            return elsewhere === null ? null : `a newer run of the same check failed while it ran (as ${visibleNonAscii(sanitizeLine(elsewhere.gate, 80)).text} in ${visibleNonAscii(sanitizeLine(elsewhere.ledger, 120)).text}, started ${elsewhere.time}): that failure stands`;
          },
          // The records of the passes that are written (a stale pass proves nothing and leaves none).
          beforeWrite: async (gateIds) => {
            const kept = new Set(gateIds);
            await this.receipts.add(loaded.location.path, records.filter((r) => r.status === 'pass' && kept.has(r.gate)), this.lockTimeoutMs);
          },
        },
      );
    } catch (e) {
      // Nothing was written to the ledger; the attempts happened all the same. The ledger's
      // error is the one reported (exit 2): a log that fails too (a full disk) must not hide it.
      try {
        this.history.append(batch.flatMap((a) => (a.event ? [a.event] : [])));
      } catch {
        // reported through `e`
      }
      throw e;
    }
    for (const id of outcome.written) this.written.add(`${loaded.stem}:${id}`);
    const staleIds = new Set<string>();
    const staleById = new Map<string, string>();
    for (const s of outcome.stale) {
      this.stale.set(`${loaded.stem}:${s.gateId}`, s.reason);
      staleIds.add(`${loaded.stem}:${s.gateId}`);
      staleById.set(s.gateId, s.reason);
    }
    this.history.append(batch.flatMap((a) => (a.event ? [staleIds.has(a.event.gate) ? { ...a.event, status: 'stale' as const } : a.event] : [])));
    return staleById;
  }

  /**
   * A failure that could not be recorded must not leave an older pass in force: the ledger's
   * run records are removed (so no gate of it verifies here until it runs again), the failed
   * gates are un-ticked in the ledger if it can be written, and the run fails (exit 2) saying
   * so. Returns the error to throw.
   */
  private async failureNotRecorded(loaded: LoadedLedger, batch: BatchItem[], failures: RunRecord[], cause: unknown): Promise<RunSetupError> {
    const why = cause instanceof Error ? cause.message : String(cause);
    const forgot = this.receipts.forget(loaded.location.path);
    const failed = new Set(failures.map((r) => r.gate));
    let unticked: string;
    try {
      const outcome = await writeResults(
        loaded.location.path,
        batch.flatMap((a) => (a.write && failed.has(a.write.gateId) ? [a.write] : [])),
        (ledger: Ledger, gate: Gate, original: Oracle) => this.resolver.changesSince({ ...loaded, ledger }, gate, original, new ResolutionPass()),
        { lockTimeoutMs: this.lockTimeoutMs, directories: loaded.directories, beforeWrite: async () => {} },
      );
      // A gate changed since it ran is left as it stands: its line no longer describes that run.
      const left = outcome.stale.map((st) => `${loaded.stem}:${st.gateId} (${st.reason})`);
      unticked =
        left.length === 0
          ? 'the failed gates were un-ticked in the ledger'
          : outcome.written.length === 0
            ? `the ledger was left as it stands, as the failed gates changed since they ran: ${left.join(', ')}`
            : `the failed gates were un-ticked in the ledger, except those that changed since they ran: ${left.join(', ')}`;
    } catch (e) {
      unticked = `the ledger could not be written either (${e instanceof Error ? e.message : String(e)})`;
    }
    try {
      this.history.append(batch.flatMap((a) => (a.event ? [a.event] : [])));
    } catch {
      // reported below: the failure itself is what could not be recorded
    }
    const ids = [...failed].map((id) => `${loaded.stem}:${id}`).join(', ');
    return new RunSetupError(
      `the failure of ${ids} could not be recorded: ${why}; ${forgot ? `the run records of ${loaded.location.display} and the repository's check results were set aside, so that no earlier pass counts as verified (its gates, and those running the same checks, run again)` : `the run records of ${loaded.location.display} could not be set aside either: do not trust a verified gate of this repository until a run records its results`}; ${unticked}`,
      'free space in (or fix) the private store, then run gate-check again',
    );
  }

  private flushOne(loaded: LoadedLedger): Promise<void> {
    const previous = this.inFlight.get(loaded) ?? Promise.resolve();
    const next = previous.then(async () => {
      const queued = this.pending.get(loaded) ?? [];
      this.pending.delete(loaded);
      if (queued.length > 0) await this.flushQueued(loaded, queued);
    });
    const guarded = next.catch((e) => {
      this.failure ??= e;
    });
    this.inFlight.set(loaded, guarded);
    return guarded;
  }

  async flushAll(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await Promise.all([...new Set([...this.pending.keys(), ...this.inFlight.keys()])].map((l) => this.flushOne(l)));
    if (this.failure) throw this.failure;
  }
}

