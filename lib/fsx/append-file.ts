// Appending without following links: only to a regular file. With `privateLog`, the file
// must also be single-link, private to the user, and is fsynced (the audit log).
import { closeSync, constants, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

export interface AppendOptions {
  /** Refuse a file with a second hard link or group/other bits, or not ours; fsync after writing. */
  privateLog?: boolean;
  /** Mode of a file created by the append. */
  mode?: number;
}

const FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export function appendNoFollow(path: string, text: string, options: AppendOptions = {}): void {
  let fd: number;
  try {
    fd = openSync(path, FLAGS, options.mode ?? 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnsafeFileError(path, code === 'ELOOP' ? 'is a symbolic link (refused)' : `cannot append (${code ?? (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeFileError(path, 'is not a regular file (refused)');
    if (options.privateLog) {
      if (st.nlink !== 1) throw new UnsafeFileError(path, `has ${st.nlink} hard links (refused)`);
      if ((st.mode & 0o077) !== 0) throw new UnsafeFileError(path, 'is accessible to group or other (refused)');
      const uid = typeof process.getuid === 'function' ? process.getuid() : null;
      if (uid !== null && st.uid !== uid) throw new UnsafeFileError(path, `is owned by uid ${st.uid}, not by you`);
    }
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (options.privateLog) fsyncSync(fd);
  } catch (e) {
    if (e instanceof UnsafeFileError) throw e;
    throw new UnsafeFileError(path, `cannot append (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}
