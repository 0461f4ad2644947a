// The approval store (DESIGN §2.5): one record per oracle in a private directory outside
// the repository. Records are read through safeReadFile (no-follow, single link, bounded,
// identity-checked), must be private to the user, and are written atomically under a
// per-record lock that is never stolen. A record is written only if it could be read back
// (the same size bound), and any record can be removed by its file name, even one that can
// no longer be read.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RunSetupError, UnsafeStoreError, UsageError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { isInside } from '../fsx/discover.js';
import { removeFile } from '../fsx/create.js';
import { acquireLock } from '../fsx/lock.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { changedFields, sha256Hex, type Oracle, type OracleFields } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { restat, type FileStamp } from '../fsx/safe-read.js';
import { readPrivateFile, readPrivateFileStamped } from '../store/private-file.js';
import { parseApprovalRecord, serializeApprovalRecord, type ApprovalRecord } from './record.js';

/**
 * A record holds its oracle, DEPENDS list included (a path and a digest, about 100 bytes
 * plus the path, per matched file): 16 MiB is room for some 150,000 files, the bound of a
 * receipts file too. The same bound refuses a record at approval and on reading.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** What a record's file name looks like: <gate key>-<signature>.json. */
export const RECORD_NAME = /^[0-9a-f]{16}-[0-9a-f]{64}\.json$/;

/** Records of one gate share a prefix, so earlier approvals are found by one readdir. */
export function gateKey(ledger: string, gate: string): string {
  return sha256Hex(`${ledger}\u0000${gate}`).slice(0, 16);
}

/**
 * A record read earlier is trusted again without a read while one lstat shows the same file
 * (device, inode, size, mtime, ctime) and it had last changed this long before it was read.
 * Every write of gate-check replaces a record (a new inode) and a revocation removes it, so
 * both are seen whatever the clock. The margin covers an in-place write in the same
 * timestamp tick as the earlier read (file systems stamp with a coarse clock); an in-place
 * forgery that keeps size and times otherwise is the same-user boundary (SECURITY.md).
 */
const SETTLED_MS = 2000;

interface KnownRecord {
  stamp: FileStamp;
  signature: string;
  record: ApprovalRecord;
}

export function recordFileName(ledger: string, gate: string, signature: string): string {
  return `${gateKey(ledger, gate)}-${signature}.json`;
}

export class ApprovalStore {
  private constructor(readonly dir: PrivateDir) {}

  /** Opens the store only if it exists (read-only callers never create it); null otherwise. */
  static openIfExists(locations: StoreLocations, repoRoot: string): ApprovalStore | null {
    if (!privateDirExists(locations.approvals)) return null;
    return ApprovalStore.open(locations, repoRoot, false);
  }

  /** Opens the store, creating it (0700) when `create`; refuses anything unsafe before a command runs. */
  static open(locations: StoreLocations, repoRoot: string, create: boolean): ApprovalStore {
    if (locations.approvalsUnderBase) openPrivateDir(locations.base, { repoRoot, create });
    return new ApprovalStore(openPrivateDir(locations.approvals, { repoRoot, create }));
  }

  private parse(name: string): ApprovalRecord {
    this.dir.verify();
    const text = readPrivateFile(this.dir, name, MAX_RECORD_BYTES)!;
    const parsed = parseApprovalRecord(text);
    if (!parsed.ok) throw new UnsafeStoreError(join(this.dir.path, name), `invalid approval record: ${parsed.reason}`, 'remove it by hand and approve again');
    return parsed.record;
  }

  /** File names of the entries that are (or claim to be) records. */
  names(): string[] {
    this.dir.verify();
    return readdirSync(this.dir.path).filter((n) => n.endsWith('.json'));
  }

  /** The record for exactly this signature of this gate, or null (for explaining a change). */
  bySignature(ledger: string, gate: string, signature: string): ApprovalRecord | null {
    const text = readPrivateFile(this.dir, recordFileName(ledger, gate, signature), MAX_RECORD_BYTES, true);
    // Mutation note: equivalent (the parser reads a missing text as no record, not ok, too).
    if (text === null) return null;
    const parsed = parseApprovalRecord(text);
    return parsed.ok && parsed.record.oracle.ledger === ledger && parsed.record.oracle.gate === gate ? parsed.record : null;
  }

  /** Throws unless the store directory is still the one that was opened. */
  verify(): void {
    this.dir.verify();
  }

  /**
   * The record approving exactly this oracle, or null. A record for another ledger, gate or
   * signature is not an approval. Call verify() around a batch of lookups.
   */
  find(oracle: Oracle): ApprovalRecord | null {
    const name = recordFileName(oracle.fields.ledger, oracle.fields.gate, oracle.signature);
    const known = this.known.get(name);
    if (known !== undefined) {
      const now = restat(join(this.dir.path, name), known.stamp);
      if (now === 'missing') {
        this.known.delete(name);
        return null;
      }
      if (now === 'same' && known.signature === oracle.signature) return known.record;
      this.known.delete(name);
    }
    const readAt = Date.now();
    const read = readPrivateFileStamped(this.dir, name, MAX_RECORD_BYTES, true);
    if (read === null) return null;
    const parsed = parseApprovalRecord(read.text, oracle);
    if (parsed.ok) {
      if (readAt - read.stamp.ctimeMs >= SETTLED_MS) this.known.set(name, { stamp: read.stamp, signature: oracle.signature, record: parsed.record });
      return parsed.record;
    }
    if (parsed.reason === 'records another oracle') return null;
    throw new UnsafeStoreError(join(this.dir.path, name), `invalid approval record: ${parsed.reason}`, 'remove it by hand and approve again');
  }

  /** Records find() read and may trust again (see SETTLED_MS). */
  private readonly known = new Map<string, KnownRecord>();

  private cachedAll: ApprovalRecord[] | null = null;

  /**
   * The earlier approval of the same gate that is closest to `target` (fewest differing
   * fields; among equals the most recent), to say what changed: first for the same ledger;
   * failing that, the same gate id, CHECK and EXPECT in another ledger file of the same
   * repository (`repository`: a moved ledger). Approvals of other repositories are never
   * offered: a gate never approved here is shown whole, not as a move (round-25a F6). Without
   * `target`, the most recent. Informational only: find() decides.
   */
  previous(ledger: string, gate: string, exceptSignature: string, check?: string, expect?: string, target?: OracleFields, repository?: string): ApprovalRecord | null {
    const prefix = `${gateKey(ledger, gate)}-`;
    let best: ApprovalRecord | null = null;
    let bestDistance = Infinity;
    const consider = (r: ApprovalRecord) => {
      if (r.signature === exceptSignature) return;
      const distance = target ? changedFields(r.oracle, target).length : 0;
      if (distance < bestDistance || (distance === bestDistance && best !== null && r.approvedAt > best.approvedAt)) {
        best = r;
        bestDistance = distance;
      }
    };
    for (const name of this.names()) {
      if (!name.startsWith(prefix)) continue;
      try {
        const record = this.parse(name);
        if (record.oracle.ledger === ledger && record.oracle.gate === gate) consider(record);
      } catch {
        continue;
      }
    }
    if (best || check === undefined || repository === undefined) return best;
    this.cachedAll ??= this.all().records;
    for (const r of this.cachedAll) {
      if (r.oracle.gate === gate && r.oracle.ledger !== ledger && r.oracle.check === check && r.oracle.expect === expect && isInside(repository, r.oracle.ledger)) consider(r);
    }
    return best;
  }

  /** All valid records (for listing); unreadable ones are reported by name. */
  all(): { records: ApprovalRecord[]; invalid: string[] } {
    const records: ApprovalRecord[] = [];
    const invalid: string[] = [];
    for (const name of this.names()) {
      try {
        records.push(this.parse(name));
      } catch {
        invalid.push(name);
      }
    }
    return { records, invalid };
  }

  async approve(oracle: Oracle, now: Date, lockTimeoutMs: number): Promise<void> {
    const text = serializeApprovalRecord(oracle.fields, oracle.signature, now);
    const size = Buffer.byteLength(text, 'utf8');
    if (size > MAX_RECORD_BYTES) {
      const files = oracle.fields.depends?.length ?? 0;
      throw new RunSetupError(
        `cannot approve ${oracle.fields.gate}: its approval record would be ${size} bytes (DEPENDS matches ${files} files), over the ${MAX_RECORD_BYTES} bytes a record may have; it was not approved`,
        'narrow its DEPENDS patterns to the files the CHECK reads',
      );
    }
    this.dir.verify();
    const path = join(this.dir.path, recordFileName(oracle.fields.ledger, oracle.fields.gate, oracle.signature));
    const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
    try {
      this.dir.verify();
      atomicWriteFile(path, text, { mode: 0o600, create: true });
    } finally {
      lock.release();
    }
  }

  async remove(record: ApprovalRecord, lockTimeoutMs: number): Promise<void> {
    await this.removeByName(recordFileName(record.oracle.ledger, record.oracle.gate, record.signature), lockTimeoutMs);
  }

  /**
   * Removes the record with this file name under its lock, without reading it (it may be
   * too large, malformed, or not private any more); false when there is none.
   */
  async removeByName(name: string, lockTimeoutMs: number): Promise<boolean> {
    if (!RECORD_NAME.test(name)) throw new UsageError(`${name} is not an approval record name (<16 hex>-<64 hex>.json)`);
    this.dir.verify();
    const path = join(this.dir.path, name);
    const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
    try {
      this.dir.verify();
      return removeFile(path);
    } finally {
      lock.release();
    }
  }
}
