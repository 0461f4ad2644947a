// SHA-256 of a file's bytes, read through a no-follow, non-blocking descriptor (a FIFO or a
// link planted where a dependency was is refused, never hashed or waited on). A size cap
// refuses a file before reading it (a 64 GiB sparse file is one fstat, not minutes of
// zeros), and a checkpoint between chunks lets a deadline stop a long hash.
import { nativeCrypto } from '../oracle/native-crypto.js';
import { sha256HexOfParts } from '../oracle/sha256.js';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UnsafeFileError } from '../errors.js';
import { execHeader, type ExecHeader } from '../oracle/exec-header.js';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1 << 16;
// Reads are synchronous, so one buffer serves every call (allocating one per file made
// hashing thousands of small DEPENDS files a garbage-collection benchmark).
const buffer = Buffer.allocUnsafe(CHUNK);

export interface HashOptions {
  /** A larger file is refused (before any read, and if it grows past the cap while read). */
  maxBytes?: number | undefined;
  /** Called before every chunk after the first; throws to abandon the hash (a deadline). */
  checkpoint?: (() => void) | undefined;
  /** Also read what the kernel reads before running the file (HashedFile.header). */
  header?: boolean | undefined;
}

export interface HashedFile {
  sha256: string;
  /** fstat of the open descriptor before the first read. */
  before: Stats;
  /** With options.header: its `#!` line or ELF loader (execHeader, from the first 64 KiB), else null. */
  header?: ExecHeader | null;
}

/** A byte count as people read it, for refusal messages. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${n} bytes`;
  return Number.isInteger(v) ? `${v} ${units[u]}` : `${v.toFixed(1)} ${units[u]} (${n} bytes)`;
}

function tooLarge(label: string, size: number, max: number): UnsafeFileError {
  return new UnsafeFileError(label, `is ${formatBytes(size)}, over the ${formatBytes(max)} limit for a DEPENDS or INPUTS file (refused)`);
}

export function sha256FileWithStat(path: string, label = path, options: HashOptions = {}): HashedFile {
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnsafeFileError(label, code === 'ELOOP' ? 'is a symbolic link (refused)' : `cannot read (${code ?? (e as Error).message})`);
  }
  try {
    const before = fstatSync(fd);
    if (!before.isFile()) throw new UnsafeFileError(label, 'is not a regular file (refused)');
    if (before.size > max) throw tooLarge(label, before.size, max);
    const first = readSync(fd, buffer, 0, CHUNK, null);
    const header = options.header ? execHeader(buffer.subarray(0, first)) : undefined;
    let total = first;
    let sha256: string;
    // A small file (one short read) is hashed in one shot, without a Hash object.
    if (first < CHUNK) {
      sha256 = sha256HexOfParts([buffer.subarray(0, first)]);
    } else {
      const hash = nativeCrypto().createHash('sha256');
      hash.update(buffer.subarray(0, first));
      for (;;) {
        options.checkpoint?.();
        const n = readSync(fd, buffer, 0, CHUNK, null);
        if (n === 0) break;
        total += n;
        if (total > max) throw tooLarge(label, total, max);
        hash.update(n === CHUNK ? buffer : buffer.subarray(0, n));
      }
      sha256 = hash.digest('hex');
    }
    return header === undefined ? { sha256, before } : { sha256, before, header };
  } finally {
    closeSync(fd);
  }
}

export function sha256File(path: string, label = path, options: HashOptions = {}): string {
  return sha256FileWithStat(path, label, options).sha256;
}

/** The first `bytes` of a regular file (a copy), for execHeader; non-blocking, so a FIFO planted there never waits. */
/**
 * Whether the file at `path` starts with exactly `expected`, read as readHead reads `length`
 * bytes (no copy: a look made before every check). False when it cannot be read.
 */
export function headEquals(path: string, expected: Buffer, length: number): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    const n = readSync(fd, buffer, 0, Math.min(length, CHUNK), 0);
    return buffer.subarray(0, n).equals(expected);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

export function readHead(path: string, label: string, bytes = CHUNK): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UnsafeFileError(label, `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new UnsafeFileError(label, 'is not a regular file (refused)');
    const n = readSync(fd, buffer, 0, Math.min(bytes, CHUNK), 0);
    return Buffer.from(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}
