// SHA-256 of a file's bytes, read through a no-follow, non-blocking descriptor (a FIFO or a
// link planted where a dependency was is refused, never hashed or waited on).
import * as crypto from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1 << 16;
// Reads are synchronous, so one buffer serves every call (allocating one per file made
// hashing thousands of small DEPENDS files a garbage-collection benchmark).
const buffer = Buffer.allocUnsafe(CHUNK);

export function sha256File(path: string, label = path): string {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnsafeFileError(label, code === 'ELOOP' ? 'is a symbolic link (refused)' : `cannot read (${code ?? (e as Error).message})`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new UnsafeFileError(label, 'is not a regular file (refused)');
    const first = readSync(fd, buffer, 0, CHUNK, null);
    // A small file (one short read) is hashed in one shot, without a Hash object.
    if (first < CHUNK && typeof crypto.hash === 'function') return crypto.hash('sha256', buffer.subarray(0, first), 'hex');
    const hash = crypto.createHash('sha256');
    hash.update(buffer.subarray(0, first));
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(n === CHUNK ? buffer : buffer.subarray(0, n));
    }
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}
