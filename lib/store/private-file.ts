// Reading one file of a private store (approval, receipt, hook state): no-follow, single
// link, bounded, identity-checked (safeReadFile), and private to the user. Anything else is
// an unsafe store (exit 2), never a file that is silently skipped.
import { join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import type { PrivateDir } from '../fsx/private-dir.js';
import { lstatOrNull, safeReadFile, type FileStamp } from '../fsx/safe-read.js';

/** The file's text, or null when it does not exist and `missingOk`. */
export function readPrivateFile(dir: PrivateDir, name: string, maxBytes: number, missingOk = false): string | null {
  return readPrivateFileStamped(dir, name, maxBytes, missingOk)?.text ?? null;
}

/** The file's text and what the file looked like when read (to notice a later change by one lstat). */
export function readPrivateFileStamped(dir: PrivateDir, name: string, maxBytes: number, missingOk = false): { text: string; stamp: FileStamp } | null {
  const read = readPrivateFileRaw(dir, name, maxBytes, missingOk);
  return read === null ? null : { text: read.bytes.toString('utf8'), stamp: read.stamp };
}

/** The file's bytes, or null when it does not exist and `missingOk`. */
export function readPrivateFileBytes(dir: PrivateDir, name: string, maxBytes: number, missingOk = false): Buffer | null {
  return readPrivateFileRaw(dir, name, maxBytes, missingOk)?.bytes ?? null;
}

function readPrivateFileRaw(dir: PrivateDir, name: string, maxBytes: number, missingOk: boolean): { bytes: Buffer; stamp: FileStamp } | null {
  const path = join(dir.path, name);
  let read;
  try {
    read = safeReadFile(path, maxBytes, 'record');
  } catch (e) {
    // Missing when read (a concurrent writer may have renamed it into place since): missing.
    if (missingOk && (lstatOrNull(path) === null || (e as Error).message.endsWith(': record: no such file'))) return null;
    throw new UnsafeStoreError(path, (e as Error).message.replace(`${path}: `, ''), 'inspect it, then remove it by hand if it is not yours');
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  if (uid !== null && read.uid !== uid) throw new UnsafeStoreError(path, `record is owned by uid ${read.uid}, not by you`);
  if ((read.mode & 0o077) !== 0) throw new UnsafeStoreError(path, 'record is readable or writable by group or other (refused)');
  return { bytes: read.bytes, stamp: read.stamp };
}
