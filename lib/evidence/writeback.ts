// Writing results into a ledger: under the ledger's lock, check that the directories above
// it are still the ones the run started with, re-read and re-parse it, discard a result whose
// gate disappeared or whose oracle changed while it ran ("stale"), then replace the file
// atomically, refusing if it was edited meanwhile, if it would outgrow what every command
// reads, or if a directory above it was swapped. Results are written in batches: one write
// per ledger per batch, not one per result; a batch that has been written survives a later
// crash.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ParseError, UnsafeFileError } from '../errors.js';
import { atomicWriteFile, checkUnchanged } from '../fsx/atomic-write.js';
import { removeFile } from '../fsx/create.js';
import { verifyDirectoryChain, type DirectoryChain } from '../fsx/dir-chain.js';
import { acquireLock, isProcessAlive } from '../fsx/lock.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { gateClaim } from '../ledger/claim.js';
import { formatLedger, type GateEdit } from '../ledger/format.js';
import { parseLedger } from '../ledger/parse.js';
import type { Gate, Ledger } from '../ledger/types.js';
import type { Oracle } from '../oracle/oracle.js';
import { decodeLedger, MAX_LEDGER_BYTES } from '../workspace/load.js';
import { titleDigest } from './receipt.js';

export interface PendingWrite {
  gateId: string;
  /** The oracle the result was produced under. */
  oracle: Oracle;
  edit: GateEdit;
  /** For a pass: the digest of the gate's claim (its title and prose) when it ran (evidence/receipt.ts titleDigest). */
  claim?: string;
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

export interface WriteContext {
  lockTimeoutMs: number;
  /** The directories from the repository root down to the ledger, as they were when the run started. */
  directories: DirectoryChain;
  /**
   * Runs under the ledger's lock after the stale checks, right before the ledger is replaced,
   * with the ids of the results that will be written (never a stale one; possibly none): their
   * run records are written first, so that a ticked line never lacks its receipt.
   */
  beforeWrite?: (gateIds: readonly string[]) => unknown;
  /**
   * Under the lock, after the oracle checks: why a result must not be written although its
   * oracle holds (a newer run of the gate failed while it ran), or null.
   */
  superseded?: (gateId: string) => string | null;
}

export async function writeResults(ledgerPath: string, writes: readonly PendingWrite[], check: OracleCheck, context: WriteContext): Promise<FlushOutcome> {
  const outcome: FlushOutcome = { written: [], stale: [] };
  if (writes.length === 0) return outcome;
  // Before the lock too: the lock file must not be created through a swapped directory.
  verifyDirectoryChain(context.directories);
  const lock = await acquireLock(`${ledgerPath}.lock`, context.lockTimeoutMs);
  try {
    verifyDirectoryChain(context.directories);
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
      // A pass proves the claim as it read when the run started, not one written while it ran (round-19 F6).
      if (w.claim !== undefined && w.claim !== titleDigest(gateClaim(parsed.ledger.lines, gate))) {
        outcome.stale.push({ gateId: w.gateId, reason: 'the title or the text in its item changed while it ran: the pass proved the claim as it read when it started' });
        continue;
      }
      const newer = context.superseded?.(w.gateId) ?? null;
      if (newer !== null) {
        outcome.stale.push({ gateId: w.gateId, reason: newer });
        continue;
      }
      edits.push(w.edit);
      outcome.written.push(w.gateId);
    }
    const next = formatLedger(parsed.ledger, edits);
    const size = Buffer.byteLength(next, 'utf8');
    if (size > MAX_LEDGER_BYTES) {
      throw new UnsafeFileError(
        ledgerPath,
        `the results would make the ledger ${size} bytes, over the ${MAX_LEDGER_BYTES} bytes every command reads (refused; nothing was written)`,
        'split the ledger into several files (gates/*.md)',
      );
    }
    const expect = { ...read.identity, stamp: read.stamp, bytes: read.bytes };
    if (context.beforeWrite) {
      // Edited during the stale checks: refuse before the records of results never written.
      checkUnchanged(ledgerPath, expect);
      await context.beforeWrite(outcome.written);
    }
    if (next !== source) {
      atomicWriteFile(ledgerPath, next, {
        mode: read.mode,
        keep: { mode: read.mode, uid: read.uid, gid: read.gid },
        expect,
        beforeRename: () => verifyDirectoryChain(context.directories),
      });
    }
    return outcome;
  } finally {
    lock.release();
  }
}

/**
 * A process killed between creating a temporary file (of the ledger, or of its lock) and
 * renaming or linking it leaves the file behind (the ledger itself is intact). Under the
 * lock, remove those whose writer is dead.
 */
function removeOrphanedTemporaries(ledgerPath: string): void {
  const dir = dirname(ledgerPath);
  const prefixes = [`.${basename(ledgerPath)}.gate-check-`, `.${basename(ledgerPath)}.lock.gate-check-`];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (prefix === undefined) continue;
    const m = /^(\d+)-[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || isProcessAlive(Number(m[1]))) continue;
    try {
      removeFile(join(dir, name));
    } catch {
      /* best effort: a leftover temporary file is harmless */
    }
  }
}
