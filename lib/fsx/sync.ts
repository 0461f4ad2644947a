// fsync of a file gate-check writes, and the one test seam of lib/fsx. A write error is
// produced for real in the tests (a file size limit, a full tmpfs), but nothing makes
// fsync(2) fail on a healthy file system (EIO needs a failing device), so the tests that
// prove an fsync error surfaces set `fsyncFault` in-process. Nothing else sets it.
import { fsyncSync } from 'node:fs';

export const fsyncFault: { fail: ((path: string) => NodeJS.ErrnoException | null) | null } = { fail: null };

/** fsync(fd) of the file at `path` (the path only identifies it to the test seam). */
export function syncFile(fd: number, path: string): void {
  const injected = fsyncFault.fail?.(path);
  if (injected) throw injected;
  fsyncSync(fd);
}
