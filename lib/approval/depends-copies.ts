// Copies of approved DEPENDS files, so that a person asked to approve a gate again because a
// DEPENDS file changed reviews the change (a unified diff), not the whole file. Kept in the
// private store (<base>/copies, 0700), one file per content, named by its SHA-256: a copy is
// used only if its content still has that digest, so a copy that was altered shows as
// missing, never as a wrong "approved version". Bounded: small text files only, a few per
// approval; `approvals prune` removes the copies no approval refers to. A copy is an aid to
// review: failing to keep one never fails an approval, and nothing is decided by one.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { removeFile } from '../fsx/create.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { lstatOrNull, safeReadFile } from '../fsx/safe-read.js';
import { sha256HexOfParts } from '../oracle/sha256.js';
import type { DependsEntry } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFileBytes } from '../store/private-file.js';

/** A larger DEPENDS file is not copied (nor shown as a diff): a script, not a data file. */
export const COPY_MAX_BYTES = 256 * 1024;
/** Files copied per approval, at most (the first in path order). */
export const COPIES_PER_APPROVAL = 64;

const COPY_NAME = /^[0-9a-f]{64}$/;

function copiesDir(locations: StoreLocations, repoRoot: string, create: boolean): PrivateDir | null {
  const path = join(locations.base, 'copies');
  if (!create && !privateDirExists(path)) return null;
  openPrivateDir(locations.base, { repoRoot, create });
  return openPrivateDir(path, { repoRoot, create });
}

/** The bytes of a repository file as they are now, or null when it cannot be read safely or is over the cap. */
export function readCurrentFile(repoRoot: string, rel: string): Buffer | null {
  try {
    return safeReadFile(join(repoRoot, rel), COPY_MAX_BYTES, 'DEPENDS file').bytes;
  } catch {
    return null;
  }
}

/**
 * Keeps a copy of each approved DEPENDS file whose content still has the approved digest.
 * Returns how many copies exist for the approval afterwards; never throws.
 */
export function keepApprovedCopies(locations: StoreLocations, repoRoot: string, depends: readonly DependsEntry[] | null): number {
  if (depends === null || depends.length === 0) return 0;
  let dir: PrivateDir | null;
  try {
    dir = copiesDir(locations, repoRoot, true);
  } catch {
    return 0;
  }
  if (dir === null) return 0;
  let kept = 0;
  for (const [rel, digest] of depends.slice(0, COPIES_PER_APPROVAL)) {
    const target = join(dir.path, digest);
    try {
      if (lstatOrNull(target) !== null) {
        kept += 1;
        continue;
      }
      const bytes = readCurrentFile(repoRoot, rel);
      // Changed since it was hashed for the approval: that is not the approved version.
      if (bytes === null || sha256HexOfParts([bytes]) !== digest) continue;
      dir.verify();
      atomicWriteFile(target, bytes, { mode: 0o600, create: true });
      kept += 1;
    } catch {
      // A copy is an aid to review; the approval stands without it.
    }
  }
  return kept;
}

/** The approved version of a file by its digest, or null when there is no usable copy. */
export function approvedCopy(locations: StoreLocations, repoRoot: string, digest: string): Buffer | null {
  // Mutation note: equivalent to the content check below (no file's SHA-256 is a name that is not one); kept so a
  // hostile digest never names a path to open.
  if (!COPY_NAME.test(digest)) return null;
  try {
    const dir = copiesDir(locations, repoRoot, false);
    // Mutation note: equivalent: without the directory the read below throws, and the catch returns null too.
    if (dir === null) return null;
    const bytes = readPrivateFileBytes(dir, digest, COPY_MAX_BYTES, true);
    return bytes !== null && sha256HexOfParts([bytes]) === digest ? bytes : null;
  } catch {
    return null;
  }
}

/** Removes the copies whose digest no approval refers to (`referenced`); returns how many were (or, on a dry run, would be) removed. */
export function pruneCopies(locations: StoreLocations, repoRoot: string, referenced: ReadonlySet<string>, dryRun: boolean): number {
  const dir = copiesDir(locations, repoRoot, false);
  if (dir === null) return 0;
  let removed = 0;
  for (const name of readdirSync(dir.path)) {
    if (!COPY_NAME.test(name) || referenced.has(name)) continue;
    if (dryRun) {
      removed += 1;
      continue;
    }
    dir.verify();
    if (removeFile(join(dir.path, name))) removed += 1;
  }
  return removed;
}
