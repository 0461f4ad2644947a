// The lease registry of one repository: <store>/leases/<32 hex of the repository>/, one file per
// lease, in the private store (outside every checkout, where an agent's repository writes do
// not reach), under one registry lock (<store>/leases/<32 hex>.lock, never stolen). A claim
// compares itself with every lease there; a file that cannot be trusted (not a lease, a link,
// a FIFO, oversized, another owner, readable by others, a name that is not the hash of its
// identity) counts as holding every path, so claims fail closed. Nothing expires by itself.
import { builtinModule } from '../builtin-module.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LeaseConflictError, type LeaseConflict } from '../errors.js';
import { publishNewFile, removeFile } from '../fsx/create.js';
import { acquireLock, isProcessAlive } from '../fsx/lock.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { overlappingPairs } from './overlap.js';
import { LEASE_FILE_NAME, LEASE_SCHEMA, leaseFileName, parseLease, serializeLease, type Lease } from './record.js';
import { leaseRepository } from './repository.js';

export const MAX_LEASE_BYTES = 64 * 1024;
// atomic-write.ts and create.ts temporary files: never a lease (a lease appears only whole, by a link).
const TEMP_FILE = /^\..+\.gate-check-\d+-[0-9a-f]+\.tmp$/;

/** One entry of the registry: a lease, or a file that cannot be trusted (then it holds everything). */
export interface HeldLease {
  path: string;
  name: string;
  lease: Lease | null;
  untrusted: string | null;
}

export interface Registry {
  dir: PrivateDir;
  lockPath: string;
}

function registryPaths(locations: StoreLocations, root: string): { base: string; dir: string; lock: string } {
  const key = sha256Hex(leaseRepository(root)).slice(0, 32);
  const base = join(locations.base, 'leases');
  return { base, dir: join(base, key), lock: join(base, `${key}.lock`) };
}

function openRegistry(locations: StoreLocations, root: string, create: boolean): Registry | null {
  const p = registryPaths(locations, root);
  if (!create && !privateDirExists(p.dir)) return null;
  openPrivateDir(locations.base, { repoRoot: root, create });
  openPrivateDir(p.base, { repoRoot: root, create });
  return { dir: openPrivateDir(p.dir, { repoRoot: root, create }), lockPath: p.lock };
}

/** Every entry of the registry, each a lease or untrusted. */
export function readLeases(dir: PrivateDir): HeldLease[] {
  dir.verify();
  const out: HeldLease[] = [];
  for (const name of readdirSync(dir.path).sort()) {
    if (TEMP_FILE.test(name)) continue;
    const path = join(dir.path, name);
    if (!LEASE_FILE_NAME.test(name)) {
      out.push({ path, name, lease: null, untrusted: 'not a lease file name' });
      continue;
    }
    let text: string | null;
    try {
      text = readPrivateFile(dir, name, MAX_LEASE_BYTES, true);
    } catch (e) {
      out.push({ path, name, lease: null, untrusted: (e as Error).message.replace(`${path}: `, '') });
      continue;
    }
    if (text === null) continue; // removed since the listing (only by hand: we hold the lock)
    const parsed = parseLease(name, text);
    out.push(parsed.ok ? { path, name, lease: parsed.lease, untrusted: null } : { path, name, lease: null, untrusted: parsed.reason });
  }
  // Untrusted files first, then leases in the order they were claimed: conflicts read as a history.
  const key = (h: HeldLease) => (h.lease === null ? '' : h.lease.claimedAt);
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.name < b.name ? -1 : 1));
}

function quote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

function holder(l: Lease): string {
  const alive = isProcessAlive(l.pid);
  return `claimed ${l.claimedAt} by PID ${l.pid}${alive ? ' (still running)' : ' (not running)'} on ${l.host} in ${l.root}`;
}

/** The same instruction as a lock left behind: nothing is stolen; remove it by hand once its holder is gone. */
function releaseRemedy(l: Lease, path: string): string {
  return `leases are never stolen or expired: once PID ${l.pid} is gone and no one works on scope ${l.scope} leaf ${l.leaf}, remove it by hand: gate-check --release --scope ${l.scope} --leaf ${l.leaf} (or rm ${quote(path)})`;
}

/** The conflicts of a claim for (scope, leaf, globs) with what the registry holds. Pure apart from the PID probe. */
export function conflictsOf(held: readonly HeldLease[], scope: string, leaf: string, globs: readonly string[]): LeaseConflict[] {
  const out: LeaseConflict[] = [];
  for (const h of held) {
    if (h.lease === null) {
      out.push({
        message: `${h.path} cannot be trusted (${h.untrusted}): it counts as holding every path`,
        remedy: `inspect it; if it is no lease anyone needs, remove it by hand: rm ${quote(h.path)}`,
      });
      continue;
    }
    const l = h.lease;
    if (l.scope === scope && l.leaf === leaf) {
      out.push({ message: `scope ${scope} leaf ${leaf} already holds a lease (${holder(l)})`, remedy: releaseRemedy(l, h.path) });
      continue;
    }
    for (const [mine, theirs] of overlappingPairs(globs, l.globs)) {
      out.push({ message: `OWNS ${mine} overlaps ${theirs} held by scope ${l.scope} leaf ${l.leaf} (${holder(l)})`, remedy: releaseRemedy(l, h.path) });
    }
  }
  return out;
}

export interface ClaimRequest {
  root: string;
  scope: string;
  leaf: string;
  globs: readonly string[];
  lockTimeoutMs: number;
  now?: Date;
}

/** Takes the lease or throws LeaseConflictError (exit 3) naming every conflict. */
export async function claimLease(locations: StoreLocations, request: ClaimRequest): Promise<{ lease: Lease; path: string }> {
  const registry = openRegistry(locations, request.root, true)!;
  const lock = await acquireLock(registry.lockPath, request.lockTimeoutMs);
  try {
    const conflicts = conflictsOf(readLeases(registry.dir), request.scope, request.leaf, request.globs);
    if (conflicts.length > 0) throw new LeaseConflictError(conflicts, `CLAIM REFUSED (${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}): nothing was claimed`);
    const lease: Lease = {
      schema: LEASE_SCHEMA,
      scope: request.scope,
      leaf: request.leaf,
      globs: [...request.globs],
      pid: process.ppid > 0 ? process.ppid : process.pid,
      host: osModule().hostname() || 'unknown',
      root: request.root,
      claimedAt: (request.now ?? new Date()).toISOString(),
    };
    const path = join(registry.dir.path, leaseFileName(lease.scope, lease.leaf));
    registry.dir.verify();
    // A new file only, published whole: even a writer that skipped the lock cannot be overwritten.
    if (!publishNewFile(path, serializeLease(lease), 0o600)) {
      throw new LeaseConflictError([{ message: `${path} appeared while the claim was being made`, remedy: null }], 'CLAIM REFUSED (1 conflict): nothing was claimed');
    }
    return { lease, path };
  } finally {
    lock.release();
  }
}

export interface ReleaseResult {
  released: { scope: string; leaf: string; path: string }[];
  /** Registry files that cannot be trusted: they still block every claim. */
  untrusted: HeldLease[];
}

/**
 * Gives back the lease of (scope, leaf), or with leaf undefined every lease of the scope. Never
 * reads the scope's ledgers, so it works when the folder is gone or the ledger does not parse.
 * With a leaf, the file of that identity goes whatever it holds (it is that leaf's lease slot).
 */
export async function releaseLeases(locations: StoreLocations, root: string, scope: string, leaf: string | undefined, lockTimeoutMs: number): Promise<ReleaseResult> {
  const registry = openRegistry(locations, root, false);
  if (registry === null) return { released: [], untrusted: [] };
  const lock = await acquireLock(registry.lockPath, lockTimeoutMs);
  try {
    const held = readLeases(registry.dir);
    const released: ReleaseResult['released'] = [];
    const mine = leaf === undefined ? null : leaseFileName(scope, leaf);
    for (const h of held) {
      const match = mine !== null ? h.name === mine : h.lease !== null && h.lease.scope === scope;
      if (!match) continue;
      registry.dir.verify();
      removeFile(h.path);
      released.push({ scope, leaf: h.lease?.leaf ?? leaf ?? '?', path: h.path });
    }
    return { released, untrusted: held.filter((h) => h.lease === null && h.name !== mine) };
  } finally {
    lock.release();
  }
}

/** The leases of this repository (for tests and for a future listing; read-only, creates nothing). */
export function listLeases(locations: StoreLocations, root: string): HeldLease[] {
  const registry = openRegistry(locations, root, false);
  return registry === null ? [] : readLeases(registry.dir);
}

/** node:os, loaded when first needed (lib/builtin-module.ts). */
const osModule = () => builtinModule<typeof import('node:os')>('node:os');
