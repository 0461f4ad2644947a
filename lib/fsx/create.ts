// Creating, not replacing: a new file (O_EXCL | O_NOFOLLOW: never through a link, never over
// an existing file), a directory, and removing a file gate-check itself made.
import { closeSync, constants, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

export function createNewFile(path: string, text: string, mode: number): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnsafeFileError(path, code === 'EEXIST' ? 'already exists (never overwritten)' : `cannot create (${code ?? (e as Error).message})`);
  }
  try {
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  } finally {
    closeSync(fd);
  }
}

/** mkdir that tolerates a directory created concurrently; the caller inspects what is there. */
export function makeDirectory(path: string, mode: number, recursive = false): void {
  try {
    mkdirSync(path, { mode, recursive });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UnsafeFileError(path, `cannot create the directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Removes a file; false when it was already gone. */
export function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new UnsafeFileError(path, `cannot remove (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
