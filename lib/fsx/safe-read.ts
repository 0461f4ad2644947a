// Reading a file the checker does not trust: no symlink is followed, only a single-link
// regular file of bounded size is read, a FIFO is refused without blocking, and the file
// must keep its identity (dev, ino) and size from before the open until after the read.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

export interface FileIdentity {
  dev: number;
  ino: number;
}

/** What a file looked like when it was read: a write that changes it changes one of these (ctime cannot be set back). */
export interface FileStamp extends FileIdentity {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface SafeReadResult {
  bytes: Buffer;
  identity: FileIdentity;
  stamp: FileStamp;
  mode: number;
  uid: number;
  gid: number;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export function describeType(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function systemReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'is a symbolic link (refused)';
  if (code === 'ENOTDIR') return 'a parent is not a directory';
  return `cannot read (${code ?? (e as Error).message})`;
}

/** lstat that maps errors to UnsafeFileError; null when the file does not exist. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UnsafeFileError(path, systemReason(e));
  }
}

/**
 * Whether the file at `path` still has `stamp`: 'same', 'missing', or 'changed' (a changed
 * stamp, anything but a regular file, or an lstat error: the caller reads the file again
 * under every rule). One lstat, so that a file read earlier can be re-checked cheaply.
 */
export function restat(path: string, stamp: FileStamp): 'same' | 'missing' | 'changed' {
  let st: Stats | undefined;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return 'changed';
  }
  if (st === undefined) return 'missing';
  const same = st.isFile() && st.dev === stamp.dev && st.ino === stamp.ino && st.size === stamp.size && st.mtimeMs === stamp.mtimeMs && st.ctimeMs === stamp.ctimeMs;
  return same ? 'same' : 'changed';
}

/** The file was atomically replaced (renamed over) around the read: a new read sees the new file. */
class ReplacedDuringRead extends UnsafeFileError {}

/** Reads taken before a file that keeps being replaced is refused. */
const REPLACED_RETRIES = 5;

/**
 * Reads an untrusted file under the rules above. A file renamed over while it was opened or
 * read (as every atomic writer, gate-check's included, replaces files) is read again: each
 * read is whole and checked on its own, and only the last one counts. `path` may be bytes: a
 * name git listed that is no UTF-8 (run/repo-snapshot.ts); errors name it as text.
 */
export function safeReadFile(path: string | Buffer, maxBytes: number, what = 'file'): SafeReadResult {
  for (let attempt = 1; ; attempt++) {
    try {
      return readOnce(path, maxBytes, what);
    } catch (e) {
      if (!(e instanceof ReplacedDuringRead) || attempt >= REPLACED_RETRIES) throw e;
    }
  }
}

function readOnce(file: string | Buffer, maxBytes: number, what: string): SafeReadResult {
  const path = typeof file === 'string' ? file : file.toString('utf8');
  let before: Stats;
  try {
    before = lstatSync(file);
  } catch (e) {
    throw new UnsafeFileError(path, `${what}: ${systemReason(e)}`);
  }
  if (!before.isFile()) throw new UnsafeFileError(path, `${what} is ${describeType(before)} (refused)`);

  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (e) {
    throw new UnsafeFileError(path, `${what}: ${systemReason(e)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeFileError(path, `${what} is ${describeType(st)} (refused)`);
    if (st.dev !== before.dev || st.ino !== before.ino) throw new ReplacedDuringRead(path, `${what} was replaced while it was opened (refused)`);
    if (st.nlink === 0) throw new ReplacedDuringRead(path, `${what} was replaced while it was opened (refused)`);
    if (st.nlink !== 1) throw new UnsafeFileError(path, `${what} has ${st.nlink} hard links (refused: a hard link can alias a file outside the repository)`);
    if (st.size > maxBytes) throw new UnsafeFileError(path, `${what} is ${st.size} bytes (at most ${maxBytes})`);

    // Read until EOF, one byte past the cap at most, so growth during the read is seen. A
    // short read of a regular file is EOF, so a file that does not grow takes one read.
    const chunks: Buffer[] = [];
    let total = 0;
    const chunkSize = Math.min(Math.max(st.size + 1, 4096), maxBytes + 1);
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(chunkSize, maxBytes + 1 - total));
      if (buf.length === 0) break;
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (n < buf.length) break;
    }
    if (total > maxBytes) throw new UnsafeFileError(path, `${what} grew past ${maxBytes} bytes while being read (refused)`);
    const after = fstatSync(fd);
    if (after.size === total && after.mtimeMs === st.mtimeMs && after.nlink === 0) throw new ReplacedDuringRead(path, `${what} was replaced while being read (refused)`);
    if (after.size !== total || after.mtimeMs !== st.mtimeMs || after.nlink !== 1) {
      throw new UnsafeFileError(path, `${what} changed while being read (refused)`);
    }
    let again: Stats;
    try {
      again = lstatSync(file);
    } catch (e) {
      throw new UnsafeFileError(path, `${what} disappeared while being read (${systemReason(e)})`);
    }
    if (again.dev !== st.dev || again.ino !== st.ino) throw new ReplacedDuringRead(path, `${what} was replaced while being read (refused)`);
    return {
      bytes: Buffer.concat(chunks, total),
      identity: { dev: st.dev, ino: st.ino },
      stamp: { dev: st.dev, ino: st.ino, size: after.size, mtimeMs: after.mtimeMs, ctimeMs: after.ctimeMs },
      mode: st.mode,
      uid: st.uid,
      gid: st.gid,
    };
  } finally {
    closeSync(fd);
  }
}
