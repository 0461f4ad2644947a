// What git's index holds beyond its entries, for --assert-clean: the extensions after the
// entries, each by a digest of its bytes. `git ls-files --stage -v` shows the entries; the cache
// tree (TREE) is what `git commit` writes for every folder it does not rebuild, so a check that
// pointed it at a tree of its own making, with every entry put back, had its tree committed
// next time, unseen by git status and git diff (round-39c F2). Volatile extensions that git
// rewrites as it looks (the untracked cache, fsmonitor's token, the offset tables) are left
// out. Pure: the caller reads the file. Formats: git's Documentation/gitformat-index.txt,
// versions 2 to 4, SHA-1 or SHA-256 object ids.
//
// git reads an index with several threads (index.threads, as scalar sets it) from the offsets
// that its EOIE and IEOT extensions name, not in file order: a check laid out an EOIE naming
// a TREE hidden inside an UNTR, which this reading skipped and git took (round-39d F1). So an
// index whose EOIE (found where git looks for it, just before the checksum) or IEOT names
// anything but where this reading finds the extensions and the entries is no index here (null).

import { createHash } from 'node:crypto';

/** Extensions git rewrites while it only looks (git status with core.untrackedCache or core.fsmonitor). */
const VOLATILE = new Set(['UNTR', 'FSMN', 'EOIE', 'IEOT']);

/** Extension signature to the first 16 hex of the SHA-256 of its data; null when `bytes` is no index of that object id length. */
function extensionsWith(bytes: Buffer, oidLength: number): Map<string, string> | null {
  if (bytes.length < 12 + oidLength || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  const count = bytes.readUInt32BE(8);
  if (version < 2 || version > 4) return null;
  const end = bytes.length - oidLength;
  let at = 12;
  const entryStarts: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = at;
    entryStarts.push(start);
    // ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the object id, the flags.
    if (at + 40 + oidLength + 2 > end) return null;
    const flags = bytes.readUInt16BE(at + 40 + oidLength);
    at += 40 + oidLength + 2;
    if (flags & 0x4000) {
      if (version < 3) return null;
      at += 2;
    }
    if (version === 4) {
      // A varint (how much of the previous path to drop), then the rest of the path, NUL-ended:
      // git too ends the entry at that NUL.
      let more = true;
      for (let n = 0; more; n++) {
        if (at >= end || n > 9) return null;
        more = (bytes[at++]! & 0x80) !== 0;
      }
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return null;
      at = nul + 1;
    } else {
      // git ends the path where the length in the flags says (unless it is 0xFFF: at the NUL),
      // then pads the entry with NULs to a multiple of 8. A length that disagrees with the first
      // NUL moved git's end of the entries 8 bytes on from this reading's, onto a TREE hidden
      // inside an UNTR (round-39e F1): such an index is no index here.
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return null;
      const length = flags & 0x0fff;
      if (length !== 0x0fff && nul !== at + length) return null;
      at = start + ((at - start + (nul - at) + 8) & ~7);
    }
  }
  const entriesEnd = at;
  // Where git looks for an EOIE: the last extension, of its exact size.
  const eoieSize = 4 + oidLength;
  const eoieAt = end - 8 - eoieSize;
  const tailIsEoie = eoieAt >= entriesEnd && bytes.toString('latin1', eoieAt, eoieAt + 4) === 'EOIE' && bytes.readUInt32BE(eoieAt + 4) === eoieSize;
  const found = new Map<string, string>();
  let eoieMet = false;
  while (at + 8 <= end) {
    const signature = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32BE(at + 4);
    if (at + 8 + size > end) return null;
    const data = bytes.subarray(at + 8, at + 8 + size);
    if (signature === 'EOIE') {
      if (!(at === eoieAt && tailIsEoie && data.readUInt32BE(0) === entriesEnd)) return null;
      eoieMet = true;
    }
    if (signature === 'IEOT' && !offsetTableHolds(data, entryStarts)) return null;
    if (!VOLATILE.has(signature)) found.set(signature, createHash('sha256').update(data).digest('hex').slice(0, 16));
    at += 8 + size;
  }
  // Bytes where git looks for an EOIE that this reading did not meet as one (inside another extension).
  if (at !== end || tailIsEoie !== eoieMet) return null;
  return found;
}

/** Whether an IEOT (version 1: offset and entry count per block) names blocks that start where entries start, in order, covering all of them. */
function offsetTableHolds(data: Buffer, entryStarts: readonly number[]): boolean {
  if (data.length < 4 || (data.length - 4) % 8 !== 0 || data.readUInt32BE(0) !== 1) return false;
  let entry = 0;
  for (let at = 4; at < data.length; at += 8) {
    if (entry >= entryStarts.length || data.readUInt32BE(at) !== entryStarts[entry]) return false;
    entry += data.readUInt32BE(at + 4);
  }
  return entry === entryStarts.length;
}

/**
 * The index's extensions that decide what git does next, as `SIG=digest` joined by spaces
 * (sorted; '' for none), or null when `bytes` cannot be read as an index (the caller then
 * falls back to the file's stat data, which any write changes).
 */
export function indexExtensionDigest(bytes: Buffer): string | null {
  const found = extensionsWith(bytes, 20) ?? extensionsWith(bytes, 32);
  if (found === null) return null;
  return [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([sig, digest]) => `${sig}=${digest}`).join(' ');
}
