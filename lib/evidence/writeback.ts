// Writing results into a ledger: under the ledger's lock, re-read and re-parse it, discard a
// result whose gate disappeared or whose oracle changed while it ran ("stale"), then
// replace the file atomically. Results are written in batches: one write per ledger per
// batch, not one per result; a batch that has been written survives a later crash.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ParseError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { removeFile } from '../fsx/create.js';
import { acquireLock, isProcessAlive } from '../fsx/lock.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { formatLedger, type GateEdit } from '../ledger/format.js';
import { parseLedger } from '../ledger/parse.js';
import type { Gate, Ledger } from '../ledger/types.js';
import type { Oracle } from '../oracle/oracle.js';
import { decodeLedger, MAX_LEDGER_BYTES } from '../workspace/load.js';

export interface PendingWrite {
  gateId: string;
  /** The oracle the result was produced under. */
  oracle: Oracle;
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

/** What changed in the gate's oracle since the result's oracle (empty: nothing); a thrown error means it cannot be resolved any more. */
export type OracleCheck = (ledger: Ledger, gate: Gate, original: Oracle) => Promise<string[]>;

/**
 * `underLock` runs first while the ledger's lock is held: files that only this ledger's
 * writers touch (its receipts) are written there without a lock of their own.
 */
export async function writeResults(
  ledgerPath: string,
  writes: readonly PendingWrite[],
  check: OracleCheck,
  lockTimeoutMs: number,
  underLock: () => void = () => {},
): Promise<FlushOutcome> {
  const outcome: FlushOutcome = { written: [], stale: [] };
  if (writes.length === 0) return outcome;
  const lock = await acquireLock(`${ledgerPath}.lock`, lockTimeoutMs);
  try {
    underLock();
    removeOrphanedTemporaries(ledgerPath);
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
      let changes: string[];
      try {
        changes = await check(parsed.ledger, gate, w.oracle);
      } catch (e) {
        changes = [(e as Error).message];
      }
      if (changes.length > 0) {
        outcome.stale.push({ gateId: w.gateId, reason: `its oracle changed while it ran (${changes.join(', ')})` });
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

/**
 * A process killed between creating its temporary file and renaming it leaves the file
 * behind (the ledger itself is intact). Under the lock, remove those whose writer is dead.
 */
function removeOrphanedTemporaries(ledgerPath: string): void {
  const dir = dirname(ledgerPath);
  const prefix = `.${basename(ledgerPath)}.gate-check-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || isProcessAlive(Number(m[1]))) continue;
    try {
      removeFile(join(dir, name));
    } catch {
      /* best effort: a leftover temporary file is harmless */
    }
  }
}
