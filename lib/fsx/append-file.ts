// Appending without following links, and only to a regular file: a FIFO, a device or a socket
// is refused (on the opened descriptor) before anything is written, and never waited on. Each record goes out in one
// write(2), so a full disk tears at most that one record; a short write is an error. With
// `privateLog` (the audit log), the file must also be single-link, private to the user and
// theirs, a record that would follow a torn one starts on a fresh line, and it is fsynced.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync, type Stats } from 'node:fs';
import { UnsafeFileError } from '../errors.js';
import { describeType } from './safe-read.js';
import { syncFile } from './sync.js';
import { systemError } from './write-error.js';

export interface AppendOptions {
  /** Refuse a file with a second hard link or group/other bits, or not ours; start on a fresh line; fsync after writing. */
  privateLog?: boolean;
  /** Mode of a file created by the append. */
  mode?: number;
  /** A reason to refuse the opened file (checked on the descriptor, so it cannot be swapped after), or null. */
  refuse?: (st: Stats) => string | null;
}

// O_NONBLOCK: a FIFO is never waited on; O_NOCTTY: a terminal never becomes ours.
const FLAGS = constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const NEWLINE = 0x0a;

function notRegular(st: Stats): string {
  return `is ${describeType(st)} (refused: only a regular file is appended to)`;
}

/** Does the file end in the middle of a line (a record torn by an earlier failed write)? */
function endsMidLine(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== NEWLINE;
}

/** Appends each record with one write; records carry their own line ends. */
export function appendRecords(path: string, records: readonly string[], options: AppendOptions = {}): void {
  if (records.length === 0) return;
  let fd: number;
  try {
    fd = openSync(path, (options.privateLog ? constants.O_RDWR : constants.O_WRONLY) | FLAGS, options.mode ?? 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UnsafeFileError(path, 'is a symbolic link (refused)');
    if (code === 'ENXIO') throw new UnsafeFileError(path, 'is a FIFO or socket (refused: only a regular file is appended to)');
    if (code === 'EISDIR') throw new UnsafeFileError(path, 'is a directory (refused: only a regular file is appended to)');
    throw new UnsafeFileError(path, `cannot append (${systemError(e)})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeFileError(path, notRegular(st));
    if (options.privateLog) {
      if (st.nlink !== 1) throw new UnsafeFileError(path, `has ${st.nlink} hard links (refused)`);
      if ((st.mode & 0o077) !== 0) throw new UnsafeFileError(path, 'is accessible to group or other (refused)');
      const uid = typeof process.getuid === 'function' ? process.getuid() : null;
      if (uid !== null && st.uid !== uid) throw new UnsafeFileError(path, `is owned by uid ${st.uid}, not by you`);
    }
    const refusal = options.refuse?.(st) ?? null;
    if (refusal !== null) throw new UnsafeFileError(path, refusal);
    let prefix = options.privateLog && endsMidLine(fd, st.size) ? '\n' : '';
    for (const record of records) {
      const buf = Buffer.from(prefix + record, 'utf8');
      prefix = '';
      const n = writeSync(fd, buf, 0, buf.length, null);
      if (n !== buf.length) {
        throw new UnsafeFileError(path, `cannot append: wrote ${n} of ${buf.length} bytes of a record (is the file system full, or a file size limit reached?)`);
      }
    }
    if (options.privateLog) syncFile(fd, path);
  } catch (e) {
    if (e instanceof UnsafeFileError) throw e;
    throw new UnsafeFileError(path, `cannot append (${systemError(e)})`);
  } finally {
    closeSync(fd);
  }
}

/** Appends one piece of text (one write). */
export function appendNoFollow(path: string, text: string, options: AppendOptions = {}): void {
  appendRecords(path, [text], options);
}
