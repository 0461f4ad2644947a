// What list, revoke and prune share: option checks, and the approval store opened without
// ever creating it, with every check a run applies.
import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApprovalRecord } from '../../approval/record.js';
import { ApprovalStore, recordFileName } from '../../approval/store.js';
import type { Io } from '../../program/io.js';
import { UsageError } from '../../errors.js';
import type { Root } from '../../fsx/discover.js';
import { lockTimeoutFromEnv } from '../../fsx/lock.js';
import { openPrivateDir } from '../../fsx/private-dir.js';
import { storeLocations } from '../../store/locations.js';
import { sanitizeLine } from '../../text/sanitize.js';

export interface CommonOptions {
  root?: string;
  scope?: string;
  dryRun?: boolean;
}

export function nonEmpty(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === '' || raw.includes('\u0000')) throw new UsageError(`${flag} needs a non-empty value`, "see 'gate-check approvals --help'");
  return raw;
}

export function checkFiles(files: readonly string[]): void {
  for (const f of files) if (f === '' || f.includes('\u0000')) throw new UsageError('empty ledger file name');
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface OpenedStore {
  /** Null when the store directory does not exist yet (then there is nothing in it). */
  store: ApprovalStore | null;
  path: string;
}

function existsNoFollow(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    // Anything else (permission, a parent that is not a directory) is for open() to refuse.
    return true;
  }
}

/** Opens the approval store read-only-safe: never created, every check of a run applies. */
export function openExistingStore(io: Io, root: Root): OpenedStore {
  const locations = storeLocations(io.env);
  if (!existsNoFollow(locations.approvals)) {
    // The base directory, when it exists, must still be safe (a run would refuse it).
    if (locations.approvalsUnderBase && existsNoFollow(locations.base)) openPrivateDir(locations.base, { repoRoot: root.path, create: false });
    return { store: null, path: resolve(locations.approvals) };
  }
  const store = ApprovalStore.open(locations, root.path, false);
  store.verify();
  return { store, path: store.dir.path };
}

/** Every valid record, and the names of the ones the store reports as invalid. */
export function readAll(store: ApprovalStore): { records: ApprovalRecord[]; invalid: string[] } {
  store.verify();
  const all = store.all();
  // all() reports a record it cannot read as invalid; a replaced directory must stop us.
  store.verify();
  return all;
}

export function fileNameOf(r: ApprovalRecord): string {
  return recordFileName(r.oracle.ledger, r.oracle.gate, r.signature);
}

/** One record per file name (a copy under another name is not an approval anyway). */
export function uniqueRecords(records: readonly ApprovalRecord[]): ApprovalRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const name = fileNameOf(r);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

/**
 * Removes records, each under its lock; one already gone (removed concurrently, or a copy
 * under another name) is not an error. Returns the records that were removed.
 */
export async function removeRecords(store: ApprovalStore, records: readonly ApprovalRecord[], io: Io): Promise<Set<ApprovalRecord>> {
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  const removed = new Set<ApprovalRecord>();
  store.verify();
  for (const r of records) {
    try {
      await store.remove(r, lockTimeoutMs);
      removed.add(r);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      if (removed.size > 0) io.stderr(`gate-check: stopped after removing ${plural(removed.size, 'approval')} of ${records.length}\n`);
      throw e;
    }
  }
  store.verify();
  return removed;
}

export function recordTime(r: ApprovalRecord): string {
  return sanitizeLine(r.approvedAt, 40);
}

/** The line that names the records no subcommand could read. */
export function invalidRecordsLine(invalid: readonly string[]): string {
  return `left alone: ${plural(invalid.length, 'invalid record')} (${sanitizeLine(invalid.join(', '), 600)}); inspect, then remove one with 'gate-check approvals revoke NAME'`;
}
