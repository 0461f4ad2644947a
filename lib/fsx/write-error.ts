// How a failed system call reads in a message: its code and, for the ones a write meets
// (full disk, quota, size limit, permissions), what it means. Every write error names its
// path in the message it is part of; this is only the reason.
const MEANING: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file size limit exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  ENXIO: 'no reader on the other end (a FIFO or socket?)',
  EXDEV: 'not on the same file system',
};

export function systemError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return (e as Error).message;
  const meaning = MEANING[code];
  return meaning ? `${code}: ${meaning}` : code;
}
