// What the file system says about the files an oracle binds (DEPENDS, INPUTS, executables of
// PATH entries inside the repository), taken right before a check starts and compared when
// it ends. A process that writes a bound file after the last hash and puts the old bytes
// back once the check has read it leaves the contents as approved; it cannot leave the
// ctime: a write sets it to "now", and no unprivileged process can set it back.
//
// Timestamps are coarse (a clock tick, a few milliseconds on Linux), so a write within the
// tick of the previous one keeps its ctime. A file whose ctime is that close to the moment
// it was looked at is "racy" (git's term): a pass that depended on it cannot be told apart
// from one that read another version, and is discarded like a changed one.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';

/** How recent a ctime makes a file racy: well over a clock tick. */
export const RACY_CTIME_MS = 20;

export interface FileIdentities {
  /** Repository-relative path to "dev:ino:size:mtime:ctime" (nanoseconds), or "missing". */
  readonly stats: ReadonlyMap<string, string>;
  /** Paths whose ctime was within RACY_CTIME_MS of the moment they were looked at. */
  readonly racy: ReadonlySet<string>;
}

function identityOf(path: string): { id: string; ctimeMs: number } {
  try {
    const st = lstatSync(path, { bigint: true });
    return { id: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, ctimeMs: Number(st.ctimeNs / 1_000_000n) };
  } catch (e) {
    return { id: `missing:${(e as NodeJS.ErrnoException).code ?? ''}`, ctimeMs: 0 };
  }
}

export function fileIdentities(root: string, paths: Iterable<string>, now: () => number = Date.now): FileIdentities {
  const stats = new Map<string, string>();
  const racy = new Set<string>();
  const at = now();
  for (const rel of paths) {
    if (stats.has(rel)) continue;
    const { id, ctimeMs } = identityOf(join(root, rel));
    stats.set(rel, id);
    if (ctimeMs > at - RACY_CTIME_MS) racy.add(rel);
  }
  return { stats, racy };
}

/** The paths (sorted) that changed since `before` was taken, or were racy then. */
export function changedSince(root: string, before: FileIdentities): string[] {
  const out: string[] = [];
  for (const [rel, id] of before.stats) if (before.racy.has(rel) || identityOf(join(root, rel)).id !== id) out.push(rel);
  return out.sort();
}

/**
 * The paths (in the order given) whose ctime is later than `sinceMs`: written, renamed or
 * re-permissioned since then. A hint for a message (which files changed since a run), never a
 * verdict: a file whose time says nothing still changes the digest that decides.
 */
export function touchedSince(root: string, paths: Iterable<string>, sinceMs: number, max: number): string[] {
  const out: string[] = [];
  let looked = 0;
  for (const rel of paths) {
    // A bounded look: the hint must not cost what hashing a large INPUTS list already did.
    if (++looked > TOUCHED_LOOK_LIMIT) break;
    if (identityOf(join(root, rel)).ctimeMs > sinceMs) out.push(rel);
    if (out.length >= max) break;
  }
  return out;
}

/** Files looked at, at most, for touchedSince. */
const TOUCHED_LOOK_LIMIT = 4096;
