// Writing results in batches: per ledger, at most one batch in flight, one write per batch
// (under the ledger's lock, the run records of the results that are not stale, then the
// ledger; then the audit log). A written batch survives a later crash; results arriving
// meanwhile wait for the next batch.
import type { HistoryLog } from '../history/log.js';
import type { Gate, Ledger } from '../ledger/types.js';
import type { Oracle } from '../oracle/oracle.js';
import { ResolutionPass, type OracleResolver } from '../oracle/resolve.js';
import type { LoadedLedger } from '../workspace/load.js';
import type { AttemptEvent } from '../history/event.js';
import type { RunRecord } from './receipt.js';
import type { ReceiptStore } from './receipt-store.js';
import { writeResults, type PendingWrite } from './writeback.js';

/** What one finished attempt leaves to be written. */
export interface BatchItem {
  write: PendingWrite | null;
  record: RunRecord | null;
  event: AttemptEvent | null;
}

/** Results are written at most this long after they arrive. */
const FLUSH_DELAY_MS = 1000;

/** Writes results per ledger in batches: receipts and the ledger under its lock, then the audit log. */
export class BatchWriter {
  private readonly pending = new Map<LoadedLedger, BatchItem[]>();
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

  add(loaded: LoadedLedger, attempt: BatchItem): void {
    const list = this.pending.get(loaded);
    if (list) list.push(attempt);
    else this.pending.set(loaded, [attempt]);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flushAll().catch(() => {});
    }, FLUSH_DELAY_MS);
  }

  private async flushBatch(loaded: LoadedLedger, batch: BatchItem[]): Promise<void> {
    const records = batch.flatMap((a) => (a.record ? [a.record] : []));
    const pass = new ResolutionPass();
    const outcome = await writeResults(
      loaded.location.path,
      batch.flatMap((a) => (a.write ? [a.write] : [])),
      (ledger: Ledger, gate: Gate, original: Oracle) => this.resolver.changesSince({ ...loaded, ledger }, gate, original, pass),
      {
        lockTimeoutMs: this.lockTimeoutMs,
        directories: loaded.directories,
        // Only the run records of results that are written: a stale result leaves none.
        beforeWrite: (gateIds) => {
          const kept = new Set(gateIds);
          this.receipts.addUnderLedgerLock(loaded.location.path, records.filter((r) => kept.has(r.gate)));
        },
      },
    );
    for (const id of outcome.written) this.written.add(`${loaded.stem}:${id}`);
    const staleIds = new Set<string>();
    for (const s of outcome.stale) {
      this.stale.set(`${loaded.stem}:${s.gateId}`, s.reason);
      staleIds.add(`${loaded.stem}:${s.gateId}`);
    }
    this.history.append(batch.flatMap((a) => (a.event ? [staleIds.has(a.event.gate) ? { ...a.event, status: 'stale' as const } : a.event] : [])));
  }

  private flushOne(loaded: LoadedLedger): Promise<void> {
    const previous = this.inFlight.get(loaded) ?? Promise.resolve();
    const next = previous.then(async () => {
      const batch = this.pending.get(loaded) ?? [];
      this.pending.delete(loaded);
      if (batch.length > 0) await this.flushBatch(loaded, batch);
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

