// Writing results into a ledger: under the ledger's lock, re-read and re-parse it, discard a
// result whose gate disappeared or whose oracle changed while it ran ("stale"), then
// replace the file atomically. Results are written in batches: one write per ledger per
// batch, not one per result; a batch that has been written survives a later crash.
import { dirname } from 'node:path';
import { ParseError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { acquireLock } from '../fsx/lock.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { formatLedger, type GateEdit } from '../ledger/format.js';
import { parseLedger } from '../ledger/parse.js';
import type { Gate, Ledger } from '../ledger/types.js';
import { decodeLedger, MAX_LEDGER_BYTES } from '../workspace/load.js';

export interface PendingWrite {
  gateId: string;
  /** The oracle the result was produced under. */
  signature: string;
  edit: GateEdit;
}

export interface StaleResult {
  gateId: string;
  reason: string;
}

export interface FlushOutcome {
  written: string[];
  stale: StaleResult[];
}

/** Recomputes a gate's current oracle signature (fresh: DEPENDS files re-hashed) and explains a difference. */
export type OracleCheck = (ledger: Ledger, gate: Gate, signature: string) => Promise<{ same: true } | { same: false; reason: string }>;

export async function writeResults(ledgerPath: string, writes: readonly PendingWrite[], check: OracleCheck, lockTimeoutMs: number): Promise<FlushOutcome> {
  const outcome: FlushOutcome = { written: [], stale: [] };
  if (writes.length === 0) return outcome;
  const lock = await acquireLock(`${ledgerPath}.lock`, lockTimeoutMs);
  try {
    const read = safeReadFile(ledgerPath, MAX_LEDGER_BYTES, 'ledger');
    const source = decodeLedger(read.bytes);
    if (source === null) throw new ParseError([{ file: ledgerPath, message: 'ledger is no longer valid UTF-8; results not written' }]);
    const parsed = parseLedger(source);
    if (!parsed.ok) {
      throw new ParseError(parsed.errors.map((d) => ({ ...d, file: ledgerPath, message: `${d.message} (the ledger changed during the run; results not written)` })));
    }
    const edits: GateEdit[] = [];
    for (const w of writes) {
      const gate = parsed.ledger.gates.find((g) => g.id === w.gateId);
      if (!gate) {
        outcome.stale.push({ gateId: w.gateId, reason: 'the gate disappeared from the ledger while it ran' });
        continue;
      }
      if (gate.kind !== 'runnable') {
        outcome.stale.push({ gateId: w.gateId, reason: 'the gate is no longer runnable' });
        continue;
      }
      const same = await check(parsed.ledger, gate, w.signature);
      if (!same.same) {
        outcome.stale.push({ gateId: w.gateId, reason: `its oracle changed while it ran (${same.reason})` });
        continue;
      }
      edits.push(w.edit);
      outcome.written.push(w.gateId);
    }
    const next = formatLedger(parsed.ledger, edits);
    if (next !== source) {
      atomicWriteFile(ledgerPath, next, { mode: read.mode & 0o7777, expect: read.identity });
    }
    return outcome;
  } finally {
    lock.release();
  }
}

/** Where a ledger's lock and temporary files live (beside it). */
export function ledgerDirectory(ledgerPath: string): string {
  return dirname(ledgerPath);
}
