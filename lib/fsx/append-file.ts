// Appending to a file named by the environment (GitHub's step summary): never through a
// symlink, only to a regular file.
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

export function appendNoFollow(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnsafeFileError(path, code === 'ELOOP' ? 'is a symbolic link (refused)' : `cannot append (${code ?? (e as Error).message})`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new UnsafeFileError(path, 'is not a regular file (refused)');
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  } finally {
    closeSync(fd);
  }
}
