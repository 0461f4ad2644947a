// Where a repository's dispatch state lives in the private store. Its own module so that the
// status path can ask "is there any?" with one lstat, without loading the store code.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreLocations } from '../store/locations.js';

/** <store>/dispatch/<32 hex of the canonical repository root>: waves belong to one checkout. */
export function dispatchDirPath(locations: StoreLocations, repoRoot: string): string {
  return join(locations.base, 'dispatch', createHash('sha256').update(repoRoot, 'utf8').digest('hex').slice(0, 32));
}

/** Might this repository have dispatch state? True for anything at the path (the loader decides what it is). */
export function mayHaveDispatchState(locations: StoreLocations, repoRoot: string): boolean {
  try {
    lstatSync(dispatchDirPath(locations, repoRoot));
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
