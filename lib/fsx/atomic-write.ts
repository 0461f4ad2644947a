// Replacing a file atomically without ever writing through a link: a fresh temporary file
// in the same directory (O_EXCL | O_NOFOLLOW), fsync, a last identity check of the target,
// rename over it, fsync of the directory. write-file-atomic is not used: it resolves
// symlinks and replaces their target, and does not fsync the directory.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import type { FileIdentity } from './safe-read.js';

export interface AtomicWriteOptions {
  /** Permission bits of the new file. */
  mode: number;
  /** When set, the target must still be this file (dev, ino) right before the rename. */
  expect?: FileIdentity;
  /** When true, the target may not exist yet (then `expect` must be unset). */
  create?: boolean;
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export function tempNameFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.gate-check-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

function checkTarget(target: string, options: AtomicWriteOptions): void {
  let st;
  try {
    st = lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && options.create && !options.expect) return;
    throw new UnsafeFileError(target, `cannot write: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (st.isSymbolicLink()) throw new UnsafeFileError(target, 'is a symbolic link (refused to write through it)');
  if (!st.isFile()) throw new UnsafeFileError(target, 'is not a regular file (refused to write)');
  if (st.nlink !== 1) throw new UnsafeFileError(target, `has ${st.nlink} hard links (refused to write)`);
  if (options.expect && (st.dev !== options.expect.dev || st.ino !== options.expect.ino)) {
    throw new UnsafeFileError(target, 'was replaced by another file (refused to write)');
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Atomically replaces (or, with create, creates) `target` with `data`. Synchronous on purpose: a signal cannot land between write and rename. */
export function atomicWriteFile(target: string, data: Uint8Array | string, options: AtomicWriteOptions): void {
  checkTarget(target, options);
  const temp = tempNameFor(target);
  let fd: number | null = null;
  let renamed = false;
  try {
    fd = openSync(temp, TEMP_FLAGS, options.mode);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    checkTarget(target, options);
    renameSync(temp, target);
    renamed = true;
    fsyncDirectory(dirname(target));
  } catch (e) {
    if (e instanceof UnsafeFileError) throw e;
    throw new UnsafeFileError(target, `write failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    if (fd !== null) closeSync(fd);
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        /* never created, or already gone */
      }
    }
  }
}
