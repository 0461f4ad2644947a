// SHA-256 of a file's bytes, read through a no-follow, non-blocking descriptor (a FIFO or a
// link planted where a dependency was is refused, never hashed or waited on).
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1 << 20;

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
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(n === CHUNK ? buf : buf.subarray(0, n));
    }
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}
