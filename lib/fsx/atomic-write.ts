// Replacing a file atomically without ever writing through a link: a fresh temporary file
// in the same directory (O_EXCL | O_NOFOLLOW), fsync, a last check of the target (identity,
// and when asked, unchanged size, times and bytes), rename over it, fsync of the directory
// (both fsyncs skipped with `durable: false`, for a file a crash may roll back without harm).
// Every failure names the target and leaves no temporary file. write-file-atomic is not
// used: it resolves symlinks and replaces their target, and does not fsync the directory.
import { nativeCrypto } from '../oracle/native-crypto.js';
import { closeSync, constants, fchmodSync, fchownSync, fstatSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import type { FileIdentity, FileStamp } from './safe-read.js';
import { syncFile } from './sync.js';
import { systemError } from './write-error.js';

/** The file the caller read and means to replace. */
export interface ExpectedTarget extends FileIdentity {
  /** When set, the target must still have this size, mtime and ctime... */
  stamp?: FileStamp;
  /** ...and these bytes: an in-place edit within one timestamp tick is still seen. */
  bytes?: Uint8Array;
}

/** What the replacement keeps of the file it replaces. */
export interface KeptAttributes {
  /** Permission bits, set exactly (the umask does not apply); setuid, setgid and sticky are dropped. */
  mode: number;
  /** Owner and group, kept where the system permits it (always for root). */
  uid: number;
  gid: number;
}

export interface AtomicWriteOptions {
  /** Permission bits of the new file (the umask applies); setuid, setgid and sticky are never set. */
  mode: number;
  /** When replacing: the attributes the new file keeps from the old one. */
  keep?: KeptAttributes;
  /** When set, the target must still be this file right before the rename. */
  expect?: ExpectedTarget;
  /** When true, the target may not exist yet (then `expect` must be unset). */
  create?: boolean;
  /** A reason to refuse an existing target (asked at the start and right before the rename), or null. */
  refuse?: (st: Stats) => string | null;
  /** Last check right before the rename (for example, of the directories above the target); throws to refuse. */
  beforeRename?: () => void;
  /**
   * False skips both fsyncs (file and directory): for a file that a machine crash may roll
   * back to an earlier state without harm (the Stop hook's count of blocks, written on every
   * stop). Atomicity, the checks and the refusals are the same. Default true.
   */
  durable?: boolean;
  /**
   * Replaces whatever is at `target` that is not a directory (a symbolic link itself, not what
   * it names; a FIFO; a file of any mode or link count), without the checks and refusals
   * above: only for a file gate-check noted earlier and must put back whatever a check made of
   * it (the job summary). A directory there fails the write.
   */
  replaceAnything?: boolean;
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const PERMISSION_BITS = 0o777;

export function tempNameFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.gate-check-${process.pid}-${nativeCrypto().randomBytes(6).toString('hex')}.tmp`);
}

/** True when the file at `path` holds exactly `bytes` (read without following a link). */
function holdsBytes(path: string, bytes: Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch {
    return false;
  }
  try {
    const buf = Buffer.allocUnsafe(bytes.length + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total === buf.length) break;
    }
    return total === bytes.length && buf.subarray(0, total).equals(bytes);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

const MODIFIED = 'was modified while gate-check was writing it (refused to overwrite the change; nothing was written)';

function checkTarget(target: string, options: AtomicWriteOptions): void {
  let st;
  try {
    st = lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && options.create && !options.expect) return;
    throw new UnsafeFileError(target, `cannot write (${systemError(e)})`);
  }
  if (st.isSymbolicLink()) throw new UnsafeFileError(target, 'is a symbolic link (refused to write through it)');
  if (!st.isFile()) throw new UnsafeFileError(target, 'is not a regular file (refused to write)');
  if (st.nlink !== 1) throw new UnsafeFileError(target, `has ${st.nlink} hard links (refused to write)`);
  const refusal = options.refuse?.(st) ?? null;
  if (refusal !== null) throw new UnsafeFileError(target, refusal);
  const expected = options.expect;
  if (!expected) return;
  if (st.dev !== expected.dev || st.ino !== expected.ino) throw new UnsafeFileError(target, 'was replaced by another file (refused to write)');
  const stamp = expected.stamp;
  if (stamp && (st.size !== stamp.size || st.mtimeMs !== stamp.mtimeMs || st.ctimeMs !== stamp.ctimeMs)) throw new UnsafeFileError(target, MODIFIED);
  if (expected.bytes && !holdsBytes(target, expected.bytes)) throw new UnsafeFileError(target, MODIFIED);
}

/** Throws (naming the file) unless `target` is still the file `expect` describes. */
export function checkUnchanged(target: string, expect: ExpectedTarget): void {
  checkTarget(target, { mode: 0, expect });
}

/** The new file gets the old one's permission bits exactly, and its owner and group where permitted. */
function keepAttributes(fd: number, keep: KeptAttributes): void {
  const st = fstatSync(fd);
  if (st.uid !== keep.uid || st.gid !== keep.gid) {
    try {
      fchownSync(fd, keep.uid, keep.gid);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
      // Not root: the owner cannot be given away, but the group can be kept if we belong to it.
      if (st.gid !== keep.gid) {
        try {
          fchownSync(fd, st.uid, keep.gid);
        } catch (g) {
          if ((g as NodeJS.ErrnoException).code !== 'EPERM') throw g;
        }
      }
    }
  }
  // After chown, which may clear mode bits; never setuid, setgid or sticky.
  fchmodSync(fd, keep.mode & PERMISSION_BITS);
}

function writeAll(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) {
    const n = writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
    off += n;
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    syncFile(fd, dir);
  } finally {
    closeSync(fd);
  }
}

/** Atomically replaces (or, with create, creates) `target` with `data`. Synchronous on purpose: a signal cannot land between write and rename. */
export function atomicWriteFile(target: string, data: Uint8Array | string, options: AtomicWriteOptions): void {
  const check = options.replaceAnything === true ? () => {} : () => checkTarget(target, options);
  check();
  const temp = tempNameFor(target);
  let fd: number | null = null;
  let renamed = false;
  try {
    fd = openSync(temp, TEMP_FLAGS, options.mode & PERMISSION_BITS);
    if (options.keep) keepAttributes(fd, options.keep);
    writeAll(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (options.durable !== false) syncFile(fd, target);
    closeSync(fd);
    fd = null;
    options.beforeRename?.();
    check();
    renameSync(temp, target);
    renamed = true;
  } catch (e) {
    if (e instanceof UnsafeFileError) throw e;
    throw new UnsafeFileError(target, `write failed (${systemError(e)}); the file was left as it was`);
  } finally {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        /* the error that brought us here is the one to report */
      }
    }
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        /* never created, or already gone */
      }
    }
  }
  if (options.durable === false) return;
  try {
    fsyncDirectory(dirname(target));
  } catch (e) {
    throw new UnsafeFileError(target, `was written, but its directory could not be synced (${systemError(e)}): the change may not survive a crash`);
  }
}
