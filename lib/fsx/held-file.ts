// A regular file opened once and held open, to be rewritten later through that descriptor:
// what a later process does to the file's mode or to its folder's (chmod 0444, chmod 555 of
// the folder: round-39y Y3) does not take back a descriptor already open for writing. Used
// for GitHub's job summary, which a check can reach (ci-outputs.ts). Opened without following
// a link and without waiting on a FIFO; read whole, up to a cap.
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, lstatSync, openSync, readSync, writeSync, type Stats } from 'node:fs';

export interface HeldFile {
  fd: number;
  dev: number;
  ino: number;
  /** The file's bytes when it was opened. */
  bytes: Buffer;
  /** Its permission bits then. */
  mode: number;
}

const FLAGS = constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Opens the regular file at `path` and reads it; null when that cannot be done (none there,
 * a link, a FIFO, a device, larger than `maxBytes`, no permission): the caller then writes
 * the file the ordinary way, with its refusals.
 */
export function holdFile(path: string, maxBytes: number): HeldFile | null {
  let fd: number;
  try {
    fd = openSync(path, FLAGS, 0o644);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) throw new Error('not held');
    const bytes = Buffer.alloc(st.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    if (at !== bytes.length) throw new Error('not held');
    return { fd, dev: st.dev, ino: st.ino, bytes, mode: st.mode & 0o777 };
  } catch {
    closeSync(fd);
    return null;
  }
}

/** Whether `path` still names the held file (not a link, a FIFO or another file put in its place). */
export function stillNames(held: HeldFile, path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isFile() && st.dev === held.dev && st.ino === held.ino;
  } catch {
    return false;
  }
}

/** Whether the held file holds exactly the bytes it held when opened. */
export function holdsWhatItHeld(held: HeldFile): boolean {
  const st = fstatSync(held.fd);
  if (st.size !== held.bytes.length) return false;
  const now = Buffer.alloc(st.size);
  let at = 0;
  while (at < now.length) {
    const n = readSync(held.fd, now, at, now.length - at, at);
    if (n === 0) break;
    at += n;
  }
  return at === now.length && now.equals(held.bytes);
}

/** What the held file is now (by its descriptor), for a caller's refusals. */
export function heldStats(held: HeldFile): Stats {
  return fstatSync(held.fd);
}

/** Makes the held file hold exactly `data`, through its descriptor; throws a system error on failure. */
export function rewriteHeld(held: HeldFile, data: Buffer): void {
  ftruncateSync(held.fd, 0);
  let at = 0;
  while (at < data.length) {
    const n = writeSync(held.fd, data, at, data.length - at, at);
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
    at += n;
  }
}

const OPEN_FLAGS = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Makes the regular, single-link file of yours now at `path` (another one than was held: put
 * there by a rename) hold exactly `data`, writing into it without following a link, and
 * giving it back your write permission if it was taken away; false when that cannot be done
 * (none there, a link, a FIFO, a second link, not yours).
 */
export function rewriteInPlace(path: string, data: Buffer, refuse: (st: Stats) => string | null): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | OPEN_FLAGS);
  } catch {
    return false;
  }
  let writer: number | null = null;
  try {
    const st = fstatSync(fd);
    const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
    if (!st.isFile() || st.nlink !== 1 || st.uid !== uid || refuse(st) !== null) return false;
    if ((st.mode & 0o200) === 0) fchmodSync(fd, (st.mode & 0o777) | 0o200);
    writer = openSync(path, constants.O_WRONLY | OPEN_FLAGS);
    const again = fstatSync(writer);
    if (again.dev !== st.dev || again.ino !== st.ino) return false;
    rewriteHeld({ fd: writer, dev: st.dev, ino: st.ino, bytes: Buffer.alloc(0), mode: st.mode & 0o777 }, data);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
    if (writer !== null) closeSync(writer);
  }
}

export function releaseHeld(held: HeldFile): void {
  try {
    closeSync(held.fd);
  } catch {
    /* already closed */
  }
}
