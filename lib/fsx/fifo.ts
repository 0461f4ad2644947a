// Named pipes for a check's output (lib/run/output-pipes.ts makes them with mkfifo): a
// batch of FIFOs in a fresh 0700 directory inside a private per-user directory, each opened
// for reading and unlinked at once, the batch directory removed before anything else runs.
// So no path names a check's output while any check runs: a FIFO is then an anonymous pipe
// that only gate-check holds, and its write end is opened through /proc/self/fd (the pipe
// itself, never a path that could have been replaced in between).
//
// The private directory is `gate-check-<uid>` in the first usable of $XDG_RUNTIME_DIR,
// /dev/shm (both memory file systems, where mkfifo is cheap) and the temporary directory: a
// real directory (not a link), owned by this user, without group or other permission bits;
// one that is not is refused and the next is tried. A batch directory left by a process that
// died between mkfifo and the removal (killed) is removed by the next process that uses the
// directory, once its pid is gone. Whatever another user does to the directories, a FIFO is
// taken only if it is this user's with one link (openFifoReadEnd): at worst a check does
// not start.
import { builtinModule } from '../builtin-module.js';
import { nativeCrypto } from '../oracle/native-crypto.js';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmdirSync, unlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import { isProcessAlive } from './lock.js';
import { systemError } from './write-error.js';

const BATCH_NAME = /^(\d+)-[0-9a-f]{12}$/;

const myUid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Where the private directory may be, in order of preference. */
export function fifoBaseCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const base of [env.XDG_RUNTIME_DIR, '/dev/shm', osModule().tmpdir()]) {
    if (base && isAbsolute(base) && !out.includes(base)) out.push(base);
  }
  return out;
}

/** Why `path` is not a private directory of this user, or null when it is one. */
function notPrivate(path: string): string | null {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    return `cannot use (${systemError(e)})`;
  }
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isDirectory()) return 'is not a directory';
  const uid = myUid();
  if (uid !== null && st.uid !== uid) return `is owned by uid ${st.uid}, not by you (uid ${uid})`;
  if ((st.mode & 0o077) !== 0) return `has permissions ${(st.mode & 0o777).toString(8).padStart(4, '0')}: group or other may access it`;
  return null;
}

/** The private directory in `base`, created 0700 when missing; throws when it is not private. */
export function privateFifoDir(base: string): string {
  const path = join(base, `gate-check-${myUid() ?? 'user'}`);
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UnsafeFileError(path, `cannot create the directory (${systemError(e)})`);
  }
  const why = notPrivate(path);
  if (why !== null) throw new UnsafeFileError(path, `${why} (refused: it would hold the checks' output pipes)`);
  return path;
}

/** Removes the batch directories of processes that are gone (best effort: nothing else is touched). */
export function removeStaleBatches(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = BATCH_NAME.exec(name);
    if (!m || Number(m[1]) === process.pid || isProcessAlive(Number(m[1]))) continue;
    removeBatchDir(join(dir, name));
  }
}

function removeBatchDir(batch: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(batch);
  } catch {
    /* already gone */
  }
  for (const name of names) {
    try {
      unlinkSync(join(batch, name));
    } catch {
      /* a directory planted there stays, and so does the batch directory */
    }
  }
  try {
    rmdirSync(batch);
  } catch {
    /* best effort */
  }
}

/**
 * Opens the FIFO at `path` for reading without waiting for a writer, checks that it is a
 * FIFO of this user with one link, and unlinks it. Returns the read end (close-on-exec).
 */
export function openFifoReadEnd(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    throw new UnsafeFileError(path, `cannot open the output pipe (${systemError(e)})`);
  }
  try {
    const st = fstatSync(fd);
    const uid = myUid();
    if (!st.isFIFO() || st.nlink !== 1 || (uid !== null && st.uid !== uid)) {
      throw new UnsafeFileError(path, 'is not the FIFO gate-check made (refused as a check output pipe)');
    }
    unlinkSync(path);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e instanceof UnsafeFileError ? e : new UnsafeFileError(path, `cannot use the output pipe (${systemError(e)})`);
  }
}

/** A batch directory and the paths its FIFOs are to have (newFifoBatch). */
export interface FifoBatch {
  dir: string;
  paths: string[];
}

/** A fresh batch directory inside `dir` for `count` FIFOs (made by the caller, then openFifoBatch). */
export function newFifoBatch(dir: string, count: number): FifoBatch {
  const batch = join(dir, `${process.pid}-${nativeCrypto().randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(batch, { mode: 0o700 });
  } catch (e) {
    throw new UnsafeFileError(batch, `cannot create the directory (${systemError(e)})`);
  }
  const paths: string[] = [];
  for (let i = 0; i < count; i++) paths.push(join(batch, String(i)));
  return { dir: batch, paths };
}

/** Removes the batch directory and every name in it (best effort). */
export function discardFifoBatch(batch: FifoBatch): void {
  removeBatchDir(batch.dir);
}

/**
 * The read ends of the batch's FIFOs: at least `minimum` or nothing (read ends opened
 * before a failure are kept only when there are that many). Whatever happens, the batch
 * directory and every name in it are gone on return.
 */
export function openFifoBatch(batch: FifoBatch, minimum: number): number[] {
  const fds: number[] = [];
  try {
    for (const path of batch.paths) {
      try {
        fds.push(openFifoReadEnd(path));
      } catch (e) {
        if (fds.length >= minimum) break;
        throw e;
      }
    }
    return fds;
  } catch (e) {
    for (const fd of fds.splice(0)) closeSync(fd);
    throw e;
  } finally {
    removeBatchDir(batch.dir);
  }
}

/**
 * Makes `count` FIFOs with `create` (given their paths) in a fresh batch directory inside
 * `dir`, and returns their read ends, as openFifoBatch.
 */
export function makeFifos(dir: string, count: number, minimum: number, create: (paths: string[]) => void): number[] {
  const batch = newFifoBatch(dir, count);
  try {
    create(batch.paths);
  } catch (e) {
    discardFifoBatch(batch);
    throw e;
  }
  return openFifoBatch(batch, minimum);
}

/**
 * Throws unless the pipe whose non-blocking read end is `readFd` holds no data. A pipe is
 * handed to a check only empty: bytes already in it were written by another process of the
 * user that opened its FIFO in the moment between mkfifo and gate-check's open (watching the
 * directory), and would count as the check's output (round-12 attack M2).
 */
export function assertPipeEmpty(readFd: number): void {
  let n: number;
  try {
    n = readSync(readFd, Buffer.alloc(1), 0, 1, null);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return; // empty, a writer still holds it: gate-check's own write end comes next
    throw new UnsafeFileError(`/proc/self/fd/${readFd}`, `cannot read the output pipe (${systemError(e)})`);
  }
  if (n > 0) throw new UnsafeFileError(`/proc/self/fd/${readFd}`, 'the output pipe already held data that another process wrote (refused: it would count as the check\'s output)');
}

/**
 * A write end of the pipe whose read end is `readFd`, opened through /proc/self/fd: the
 * same pipe whatever happened to any path, immediate (the read end is open), and an open
 * file description of its own, blocking, not shared with the non-blocking read end (libuv
 * also makes a child's fds 0-2 blocking; on a shared description that would reach the read
 * end). Close-on-exec, as every descriptor Node opens.
 */
export function openPipeWriteEnd(readFd: number): number {
  return openSync(`/proc/self/fd/${readFd}`, constants.O_WRONLY);
}

/** node:os, loaded when first needed (lib/builtin-module.ts). */
const osModule = () => builtinModule<typeof import('node:os')>('node:os');
