// What git's index holds beyond what `git ls-files --stage -v` shows, for --assert-clean:
// each entry's flags (intent-to-add: a tracked file that git leaves out of the next tree it
// builds for its folder, round-39f F3) and the extensions, above all the cache tree (TREE),
// which `git commit` writes for every folder it does not rebuild (round-39c F2). Pure: the
// caller reads the file.
//
// The bytes read here are never the index a check could have laid out, but git's own
// rewrite of a copy of it (run/repo-snapshot.ts: `git update-index --index-version 2
// --force-write-index` on a private copy). Reading a check's layout directly met a new way
// to make git and this reading disagree in every round (an EOIE, a name length, a second
// object id length: rounds 39d to 39f); what git writes is what git read, in the one
// layout it writes: versions 2 or 3, names of the length their flags say, no offset tables,
// and a checksum that says whether object ids are SHA-1 or SHA-256. Anything else is no
// index here (null), and the caller compares the index by its stat data.
//
// Left out of the digest: each entry's stat data (ctime, mtime, dev, ino, uid, gid, size),
// which a `git status` run by a check refreshes, returned apart for the caller to check
// against the files (`stats`); the untracked cache's content (its presence counts), which
// git status rewrites as it looks; fsmonitor's token and the offset tables, which the
// rewrite drops.
import { createHash } from 'node:crypto';

const VOLATILE = new Set(['UNTR', 'FSMN', 'EOIE', 'IEOT']);

/** On-disk flags of an entry: assume-unchanged (in the flags), skip-worktree and intent-to-add (in the extended flags). */
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;

export interface IndexFacts {
  /** SHA-256 over every entry without its stat data, and every lasting extension (of the untracked cache, that there is one). */
  digest: string;
  /** Paths whose entry is marked intent-to-add, skip-worktree or assume-unchanged, to their marks. */
  marked: Map<string, string>;
  /** Each stage-0 file or link entry's stored stat data (hex), object id (hex) and mode. */
  stats: Map<string, EntryStat>;
}

/**
 * What git compares with a file's own stat data to take it as unmodified without reading
 * it (ie_match_stat): a check that copied the file's stat data into the entry of a file the
 * person had edited made git take the edit for committed (round-39f F1).
 */
export interface EntryStat {
  stat: string;
  oid: string;
  mode: number;
  /** The path's bytes, relative to the top of the working tree. */
  name: Buffer;
}

/**
 * A path git lists, as a snapshot key: its text, or, for bytes that are no UTF-8, that text
 * (with U+FFFD for what does not decode) and the bytes in hex, so that two names never share
 * a key (round-39h lead: two names decoding alike hid each other).
 */
export function pathKey(raw: Buffer): string {
  const text = raw.toString('utf8');
  return Buffer.from(text, 'utf8').equals(raw) ? text : `${text}${LABEL} (name bytes ${raw.toString('hex')})`;
}

/**
 * Starts every part of a snapshot key that is not a file's path: no path holds a NUL, so no
 * file can be named like a label (round-39h F6). Removed for display.
 */
export const LABEL = '\0';

/** The length of the object ids the trailing checksum was made with (20: SHA-1, 32: SHA-256), or null. */
function checksumLength(bytes: Buffer): 20 | 32 | null {
  for (const [length, algorithm] of [
    [20, 'sha1'],
    [32, 'sha256'],
  ] as const) {
    if (bytes.length < 12 + length) continue;
    const body = bytes.subarray(0, bytes.length - length);
    if (createHash(algorithm).update(body).digest().equals(bytes.subarray(bytes.length - length))) return length;
  }
  return null;
}

function marksOf(flags: number, extended: number): string {
  const marks: string[] = [];
  if (extended & INTENT_TO_ADD) marks.push('intent-to-add');
  if (extended & SKIP_WORKTREE) marks.push('skip-worktree');
  if (flags & ASSUME_VALID) marks.push('assume-unchanged');
  return marks.join(',');
}

/** The facts of an index git itself wrote (see above), or null when `bytes` is not such an index. */
export function canonicalIndexFacts(bytes: Buffer): IndexFacts | null {
  const oidLength = checksumLength(bytes);
  if (oidLength === null || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  const count = bytes.readUInt32BE(8);
  if (version !== 2 && version !== 3) return null;
  const end = bytes.length - oidLength;
  const digest = createHash('sha256');
  const marked = new Map<string, string>();
  const stats = new Map<string, EntryStat>();
  let at = 12;
  for (let i = 0; i < count; i++) {
    // ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the object id, the flags.
    // (The checks of the name and of the end below would refuse what runs past the checksum
    // too; these keep every read inside the buffer.)
    let name = at + 40 + oidLength + 2;
    if (name > end) return null;
    const flags = bytes.readUInt16BE(name - 2);
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3 || name + 2 > end) return null;
      extended = bytes.readUInt16BE(name);
      name += 2;
    }
    const length = flags & 0x0fff;
    const nul = bytes.indexOf(0, name);
    // The name ends where its length says (at the first NUL only for a name of 0xFFF bytes or more).
    if (nul < 0 || nul >= end || (length !== 0x0fff && nul !== name + length)) return null;
    const next = at + ((name - at + (nul - name) + 8) & ~7);
    for (let p = nul; p < next; p++) if (bytes[p] !== 0) return null;
    digest.update(bytes.subarray(at + 24, at + 28)); // mode
    digest.update(bytes.subarray(at + 40, name)); // object id, flags, extended flags
    digest.update(bytes.subarray(name, nul + 1)); // name, NUL-ended
    const raw = bytes.subarray(name, nul);
    const path = pathKey(raw);
    const marks = marksOf(flags, extended);
    if (marks !== '') marked.set(path, marks);
    const mode = bytes.readUInt32BE(at + 24);
    // Stage 0 only (the stages of a conflict are compared by ls-files), no gitlinks (a submodule's commit).
    if ((flags & 0x3000) === 0 && (mode & 0o170000) !== 0o160000) {
      stats.set(path, { stat: bytes.toString('hex', at, at + 24) + bytes.toString('hex', at + 28, at + 40), oid: bytes.toString('hex', at + 40, at + 40 + oidLength), mode, name: Buffer.from(raw) });
    }
    at = next;
  }
  while (at + 8 <= end) {
    const signature = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32BE(at + 4);
    // The untracked cache by its presence only: git status rewrites it as it looks, but one
    // planted where there was none hid a new file from the person's git status (round-39g F3).
    if (signature === 'UNTR') digest.update('UNTR');
    else if (!VOLATILE.has(signature)) digest.update(bytes.subarray(at, at + 8 + size));
    at += 8 + size;
  }
  // An entry or extension that runs past the checksum ends past it.
  if (at !== end) return null;
  return { digest: digest.digest('hex'), marked, stats };
}
