// Creating, not replacing: a new file that appears only once it is complete (written to a
// temporary file, fsynced, then hard-linked into place, which fails on anything already
// there, a link included), a directory, and removing a file gate-check itself made.
import { closeSync, constants, linkSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';
import { tempNameFor } from './atomic-write.js';
import { syncFile } from './sync.js';
import { systemError } from './write-error.js';

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* never created, or already gone */
  }
}

/**
 * Publishes `text` at `path` only if nothing is there, and only complete: false when `path`
 * already exists (anything, even a dangling link). Every failure names `path` and leaves
 * neither `path` nor a temporary file behind. `durable: false` skips the fsync, for a file
 * that a machine crash may leave empty without harm.
 */
export function publishNewFile(path: string, text: string, mode: number, options: { durable?: boolean } = {}): boolean {
  const temp = tempNameFor(path);
  let fd: number | null = null;
  let linked = false;
  try {
    fd = openSync(temp, TEMP_FLAGS, mode & 0o777);
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) {
      const n = writeSync(fd, buf, off, buf.length - off);
      if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      off += n;
    }
    // Written before it is linked whatever `durable` says: an error (ENOSPC) publishes nothing.
    if (options.durable !== false) syncFile(fd, path);
    closeSync(fd);
    fd = null;
    try {
      linkSync(temp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    linked = true;
    unlinkSync(temp);
    return true;
  } catch (e) {
    // Linked but the temporary name could not be removed: the file has two links, which every
    // reader refuses; take back what we published.
    if (linked) removeQuietly(path);
    throw new UnsafeFileError(path, `cannot create (${systemError(e)})`);
  } finally {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        /* the error that brought us here is the one to report */
      }
    }
    removeQuietly(temp);
  }
}

export function createNewFile(path: string, text: string, mode: number): void {
  if (!publishNewFile(path, text, mode)) throw new UnsafeFileError(path, 'already exists (never overwritten)');
}

/** mkdir that tolerates a directory created concurrently; the caller inspects what is there. */
export function makeDirectory(path: string, mode: number, recursive = false): void {
  try {
    mkdirSync(path, { mode, recursive });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UnsafeFileError(path, `cannot create the directory (${systemError(e)})`);
  }
}

/**
 * Leaves a mark that `path`'s contents were set aside now: renames the file to `mark`
 * (replacing an earlier mark; a rename needs no free space), or makes `mark` empty where
 * there is no file. The mark's ctime is when. Throws when neither can be done.
 */
export function setAside(path: string, mark: string): void {
  try {
    renameSync(path, mark);
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new UnsafeFileError(path, `cannot set aside (${systemError(e)})`);
  }
  // No file (a failure that cannot be recorded before the ledger has any record): the mark
  // alone says when, by its ctime (test/fsx/create.test.ts).
  removeFile(mark);
  try {
    closeSync(openSync(mark, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
  } catch (e) {
    throw new UnsafeFileError(mark, `cannot create (${systemError(e)})`);
  }
}

/** Removes a file; false when it was already gone. */
export function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new UnsafeFileError(path, `cannot remove (${systemError(e)})`);
  }
}
