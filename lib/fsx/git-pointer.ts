// Reading a small file git follows to find a repository (a worktree's `.git` file, its
// `commondir`) the way git reads it: through symbolic links, whatever its link count. A
// stricter reader (no links, one link, 4 KiB) took such a file for absent while git used it,
// and a worktree fell out of the session's baseline, its binding and the lease registry
// (round-39m F1, F2). Still bounded and never blocking: a regular file only, opened
// non-blocking, at most MAX_POINTER_BYTES. Null when absent; an error when present but not
// readable, so that the caller fails closed. git takes the bytes as they are, and a path is
// bytes: text that is not UTF-8 would be decoded with U+FFFD in place of its odd bytes and name
// another path than git's (round-39o O1), so it is refused too.
import { isUtf8 } from 'node:buffer';
import { accessSync, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';

/** Larger than any path git would follow. */
const MAX_POINTER_BYTES = 64 * 1024;

export function readGitPointer(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UnsafeFileError(path, `cannot read (${(e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeFileError(path, 'is not a regular file');
    if (st.size > MAX_POINTER_BYTES) throw new UnsafeFileError(path, `is ${st.size} bytes (at most ${MAX_POINTER_BYTES})`);
    const buf = Buffer.alloc(MAX_POINTER_BYTES + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_POINTER_BYTES) throw new UnsafeFileError(path, `grew past ${MAX_POINTER_BYTES} bytes while being read`);
    }
    const bytes = buf.subarray(0, total);
    if (!isUtf8(bytes)) throw new UnsafeFileError(path, 'is not UTF-8 text (git would read other bytes as the path than gate-check can name)');
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The path a `.git` file names, as git's read_gitfile_gently takes it: the text must begin
 * with exactly "gitdir: ", trailing CR and LF are dropped, and the rest is the path as it is
 * (leading or trailing spaces included: "gitdir:  x" names " x", round-39n N1), up to a NUL.
 * Null when git would refuse the file (no such prefix, or no path).
 */
export function gitdirOf(text: string): string | null {
  if (!text.startsWith('gitdir: ')) return null;
  const path = text.replace(/[\r\n]+$/, '').slice('gitdir: '.length);
  const end = path.indexOf('\0');
  const named = end < 0 ? path : path.slice(0, end);
  return named === '' ? null : named;
}

/**
 * The first `max` bytes of a file git opens and reads only the start of (a git directory's
 * HEAD: validate_headref reads 255 bytes), through links: null when absent, or when git could
 * not read it either (a folder), or would wait on it (a FIFO, which this opens non-blocking
 * and refuses).
 */
export function readGitFileStart(path: string, max: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    // Mutation note: equivalent (a folder fails the read, and a FIFO opened non-blocking reads
    // nothing or fails: null or no bytes, which no HEAD test takes).
    if (!fstatSync(fd).isFile()) return null;
    const buf = Buffer.alloc(max);
    let total = 0;
    while (total < max) {
      const n = readSync(fd, buf, total, max - total, null);
      if (n === 0) break;
      total += n;
    }
    return buf.subarray(0, total);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** What git's access(path, X_OK) says of a git directory's objects/ or refs/: there, through links, and searchable. */
export function isSearchable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
