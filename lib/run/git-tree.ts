// git's raw tree object format, as `git cat-file --batch` prints it: entries of
// "<octal mode> <name>\0<binary object id>". The bytes come from a repository gate-check does
// not trust, so every length is checked and a malformed tree is an error, never a shorter
// list. Pure.

export type TreeEntryKind = 'tree' | 'blob' | 'symlink' | 'gitlink' | 'unknown';

export interface TreeEntry {
  /** The name as stored: bytes, not yet decoded (git does not require UTF-8). */
  name: Buffer;
  kind: TreeEntryKind;
  /** Lower-case hex object id. */
  oid: string;
}

const KIND_BY_MODE: ReadonlyMap<string, TreeEntryKind> = new Map([
  ['40000', 'tree'],
  ['100644', 'blob'],
  ['100755', 'blob'],
  // Written by very old git versions; still a regular file.
  ['100664', 'blob'],
  ['120000', 'symlink'],
  ['160000', 'gitlink'],
]);

const SPACE = 0x20;
const NUL = 0;
const MAX_MODE_LENGTH = 7;

/**
 * The entries of a raw tree object, or null when the bytes are not a well-formed tree. A name
 * that git itself would refuse to check out (empty, ".", "..", containing "/") or one that
 * appears twice is malformed too: two entries with one name would make one of them invisible.
 */
export function parseTree(bytes: Uint8Array, oidBytes: number): TreeEntry[] | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: TreeEntry[] = [];
  const names = new Set<string>();
  let at = 0;
  while (at < buf.length) {
    const space = buf.indexOf(SPACE, at);
    if (space < 0 || space === at || space - at > MAX_MODE_LENGTH) return null;
    const mode = buf.toString('latin1', at, space);
    if (!/^[0-7]+$/.test(mode)) return null;
    const nul = buf.indexOf(NUL, space + 1);
    if (nul < 0 || nul === space + 1) return null;
    const end = nul + 1 + oidBytes;
    if (end > buf.length) return null;
    const key = buf.toString('latin1', space + 1, nul);
    if (key === '.' || key === '..' || key.includes('/') || names.has(key)) return null;
    names.add(key);
    entries.push({ name: Buffer.from(buf.subarray(space + 1, nul)), kind: KIND_BY_MODE.get(mode) ?? 'unknown', oid: buf.toString('hex', nul + 1, end) });
    at = end;
  }
  return entries;
}

/** The entry called exactly `name` (compared as bytes), or null. */
export function findEntry(entries: readonly TreeEntry[], name: string): TreeEntry | null {
  const wanted = Buffer.from(name, 'utf8');
  for (const e of entries) if (e.name.equals(wanted)) return e;
  return null;
}
