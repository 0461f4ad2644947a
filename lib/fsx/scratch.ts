// A private scratch file for a process gate-check starts to rewrite: a new directory (mode
// 700, a name no one can guess: mkdtemp) under the system's temporary directory, a new file
// in it (O_EXCL, mode 600) with the bytes given (and a time, if asked), removed with its
// directory whatever happens.
// Used by run/repo-snapshot.ts for git's own rewrite of a copy of the index (--assert-clean), so that
// nothing is written into the repository.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import { safeReadFile } from './safe-read.js';

export interface ScratchFile {
  /** The file's path, for the process to rewrite. */
  path: string;
  /** Reads the file back (no link followed, at most `maxBytes`). */
  read(maxBytes: number): Buffer;
}

export interface ScratchOptions {
  /** The file's modification (and access) time, in seconds since the epoch. */
  mtimeSeconds?: number;
}

export async function withScratchFile<T>(name: string, bytes: Uint8Array, options: ScratchOptions, use: (file: ScratchFile) => Promise<T>): Promise<T> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'gate-check-'));
  } catch (e) {
    throw new UnsafeFileError(join(tmpdir(), 'gate-check-*'), `cannot create (${(e as Error).message})`);
  }
  try {
    const path = join(dir, name);
    writeFileSync(path, bytes, { flag: 'wx', mode: 0o600 });
    if (options.mtimeSeconds !== undefined) utimesSync(path, options.mtimeSeconds, options.mtimeSeconds);
    return await use({ path, read: (maxBytes) => safeReadFile(path, maxBytes, 'scratch copy').bytes });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
