// Where a repository's dispatch state lives in the private store. Its own module so that the
// status path can ask "is there any?" with one lstat, without loading the store code.
import { sha256Hex } from '../oracle/sha256.js';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreLocations } from '../store/locations.js';

/** <store>/dispatch/<32 hex of the canonical repository root>: waves belong to one checkout. */
export function dispatchDirPath(locations: StoreLocations, repoRoot: string): string {
  return join(locations.base, 'dispatch', sha256Hex(repoRoot).slice(0, 32));
}

/** True for anything at the path (the loader decides what it is), and for any error but ENOENT. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * Might this repository have dispatch state? Without a dispatch directory in the store (most
 * stores), nothing is hashed.
 */
export function mayHaveDispatchState(locations: StoreLocations, repoRoot: string): boolean {
  return present(join(locations.base, 'dispatch')) && present(dispatchDirPath(locations, repoRoot));
}
