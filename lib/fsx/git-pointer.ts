// Reading a small file git follows to find a repository (a worktree's `.git` file, its
// `commondir`) the way git reads it: through symbolic links, whatever its link count. A
// stricter reader (no links, one link, 4 KiB) took such a file for absent while git used it,
// and a worktree fell out of the session's baseline, its binding and the lease registry
// (round-39m F1, F2). Still bounded and never blocking: a regular file only, opened
// non-blocking, at most MAX_POINTER_BYTES. Null when absent; an error when present but not
// readable, so that the caller fails closed.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
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
    return buf.toString('utf8', 0, total);
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
