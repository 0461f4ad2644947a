// What lies outside the repository (PATH folders, the commands found there, the interpreters
// their starts name) is judged once and kept from one check to the next only while the file
// system says that nothing those judgements read has changed. Before each read, every path
// the kernel looks at to resolve it is noted with its identity (device, inode, mode, size,
// mtime, ctime): a folder's mtime and ctime change when a name in it is added, removed or
// replaced, a link cannot be rewritten in place, and a file's ctime changes with its bytes or
// its mode. No unprivileged process can set a ctime back. A name that is not there is not
// noted itself: making it changes the folder it would be in, which is.
//
// A file whose bytes a judgement read (the start of an outside executable) is noted by those
// bytes too, read again at each look: a write through a shared memory mapping whose page is
// already dirty changes its bytes and no time at all (round-36 F2).
//
// Timestamps are coarse (a clock tick; 2 s on FAT), so a change within the tick of a noted
// one could keep it: a path whose ctime is younger than RACY_MARGIN_MS when it is noted makes
// the whole witness "racy", and every judgement is made again after the next check. Past
// that margin, any later change gives a ctime of "now", which differs from the noted one.
import { lstatSync } from 'node:fs';
import { headEquals } from './hash-file.js';
import { resolutionSteps } from './physical-path.js';
import { RACY_MARGIN_MS } from './stat-cache.js';

/** At most this many paths are noted; a witness past it is not kept (its look would cost what it saves). */
export const MAX_WITNESSED_PATHS = 1024;

/** The identity of what is at `path` (not followed), or null when nothing is. */
function identityOf(path: string): { id: string; ctimeMs: number } | null {
  let st;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    // ENOTDIR, EACCES, ELOOP: what the kernel would meet too, kept as it is.
    return { id: `error:${(e as NodeJS.ErrnoException).code ?? ''}`, ctimeMs: 0 };
  }
  if (st === undefined) return null;
  return { id: `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`, ctimeMs: st.ctimeMs };
}

export class PathWitness {
  /** Path to its identity (a name that is not there is never noted: its folder is). */
  private readonly noted = new Map<string, string>();
  /** Files whose start a judgement read: the bytes its answer depends on, and how many were asked for. */
  private readonly read = new Map<string, { bytes: Buffer; length: number }>();
  private kept = true;

  /** `now` is the clock ctimes are compared with (injected by unit tests only). */
  constructor(private readonly now: () => number = Date.now) {}

  /** Notes how `path` (absolute) resolves now: call it before reading what it leads to. */
  witness(path: string): void {
    if (!this.kept) return;
    const settled = this.now() - RACY_MARGIN_MS;
    for (const step of resolutionSteps(path)) {
      if (this.noted.has(step)) continue;
      const identity = identityOf(step);
      // Nothing there: the walk ends here, and its folder (the step before) is noted.
      if (identity === null) return;
      this.noted.set(step, identity.id);
      if (identity.ctimeMs > settled || this.noted.size > MAX_WITNESSED_PATHS) {
        this.kept = false;
        return;
      }
    }
  }

  /**
   * Notes the start of the file at `path` (absolute, resolved) as a judgement read it
   * (`head`, from readHead), of which the first `extent` bytes decided it (all: Infinity).
   */
  witnessBytes(path: string, head: Buffer, extent: number): void {
    if (!this.kept || this.read.has(path)) return;
    const length = Math.min(extent, head.length + 1);
    this.read.set(path, { bytes: Buffer.from(head.subarray(0, length)), length });
  }

  /** Whether every noted path is as it was, every noted start holds the same bytes (and none was too young to tell). */
  holds(): boolean {
    if (!this.kept) return false;
    for (const [path, id] of this.noted) if (identityOf(path)?.id !== id) return false;
    for (const [path, start] of this.read) if (!headEquals(path, start.bytes, start.length)) return false;
    return true;
  }

  /** Forgets everything noted: the judgements it witnessed are made again. */
  clear(): void {
    this.noted.clear();
    this.read.clear();
    this.kept = true;
  }
}
