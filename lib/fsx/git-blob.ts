// The git object id of a file of the working tree as a blob, from its bytes as they are: to
// tell whether a file still holds the object its index entry names (--assert-clean, run/repo-snapshot.ts).
// No filter or end-of-line conversion is applied (git would run the repository's clean filter
// for that, a command of the repository's choosing), so a converted file never matches.
import { readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { safeReadFile } from './safe-read.js';

/** Files larger than this are not read: no match. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

/**
 * Whether the file at `path` (bytes: a name git lists is not always UTF-8) holds the blob
 * `oid` (hex; SHA-1 or SHA-256 by its length): a regular
 * file by its bytes (one link, no link followed), a symbolic link (mode 120000) by its
 * target. False when it cannot be read.
 */
export function holdsBlob(path: Buffer, mode: number, oid: string): boolean {
  let bytes: Buffer;
  try {
    bytes = mode === 0o120000 ? readlinkSync(path, { encoding: 'buffer' }) : safeReadFile(path, MAX_BLOB_BYTES, 'tracked file').bytes;
  } catch {
    return false;
  }
  const hash = createHash(oid.length === 64 ? 'sha256' : 'sha1');
  return hash.update(`blob ${bytes.length}\0`).update(bytes).digest('hex') === oid;
}
