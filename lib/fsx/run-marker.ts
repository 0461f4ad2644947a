// A live run's marker in the approvals directory: a file that says "a run that starts checks
// is under way, since <time>", kept fresh by a heartbeat while the run lives. A nested
// `--approve` finds runs through /proc (process titles, ancestry), but a check can hide
// /proc from itself (a PID namespace with its own /proc, `unshare -Urpf --mount-proc`, or
// a file system mounted over /proc): the marker is where it writes its approvals, so it
// cannot approve into the run's store without passing the run's marker.
//
// The name carries everything (no body to read): `.run-<pid namespace>-<pid>-<start ms>.live`.
import { closeSync, constants, fstatSync, futimesSync, lstatSync, openSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';

/** How often a run refreshes its marker, and how long a marker counts as live without a refresh. */
const HEARTBEAT_MS = 1_000;
export const MARKER_FRESH_MS = 15_000;

const FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const NAME = /^\.run-(\d{1,20})-(\d{1,10})-(\d{1,16})\.live$/;

export interface RunMarker {
  /** PID namespace of the run (the inode of /proc/self/ns/pid; 0 when unknown). */
  namespace: number;
  pid: number;
  /** When the run published it, in ms since the epoch. */
  start: number;
}

/**
 * Publishes this process's marker in each of `dirs` and keeps it fresh until the process
 * exits (then it is removed). Failing to publish it is an error: a run without a marker is
 * one a nested --approve in another PID namespace would not see.
 */
export function publishRunMarker(dirs: readonly string[], namespace: number): void {
  const name = `.run-${namespace}-${process.pid}-${Date.now()}.live`;
  // fd -1: to be made again; null: on a read-only file system, where no approval can be
  // written either, so there is nothing to guard.
  const markers: { path: string; fd: number | null }[] = [];
  for (const dir of dirs) {
    const path = join(dir, name);
    try {
      markers.push({ path, fd: openSync(path, FLAGS, 0o600) });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EROFS') continue;
      // The markers already made would refuse approvals for MARKER_FRESH_MS after this run
      // has ended (and stay behind): a run that cannot start leaves none.
      for (const made of markers) removeOwnMarker(made);
      throw new UnsafeStoreError(path, `cannot make this run's marker (${code ?? (e as Error).message}): without it, a check in a PID namespace of its own could approve checks`);
    }
  }
  const beat = setInterval(() => {
    const now = Date.now() / 1000;
    for (const m of markers) {
      try {
        // Removed, renamed or replaced by hand (a check can reach the store): made again.
        if (m.fd !== null && m.fd >= 0 && !namesDescriptor(m.path, m.fd)) {
          closeSync(m.fd);
          m.fd = -1;
          rmSync(m.path, { force: true });
        }
        if (m.fd === -1) m.fd = openSync(m.path, FLAGS, 0o600);
        if (m.fd !== null) futimesSync(m.fd, now, now);
      } catch {
        /* the directory is gone or full: the next beat tries again */
      }
    }
  }, HEARTBEAT_MS);
  beat.unref();
  process.once('exit', () => {
    clearInterval(beat);
    for (const m of markers) removeOwnMarker(m);
  });
}

/** Closes a marker and removes its file if the name still leads to it (not one made by hand). */
function removeOwnMarker(m: { path: string; fd: number | null }): void {
  try {
    if (m.fd !== null && m.fd >= 0) {
      const ours = namesDescriptor(m.path, m.fd);
      closeSync(m.fd);
      if (ours) unlinkSync(m.path);
    }
  } catch {
    /* already gone */
  }
}

/** Whether `path` is still the file open as `fd` (not removed, renamed away or replaced). */
function namesDescriptor(path: string, fd: number): boolean {
  const own = fstatSync(fd);
  const at = lstatSync(path, { throwIfNoEntry: false });
  return at !== undefined && at.ino === own.ino && at.dev === own.dev;
}

/**
 * The markers in `dir` refreshed within MARKER_FRESH_MS of `now` (a crashed run's marker goes
 * stale); none where `dir` does not exist or is not a directory; null when it cannot be read
 * (whether a run is under way cannot be told).
 */
export function freshRunMarkers(dir: string, now: number = Date.now()): RunMarker[] | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    // Missing, or not a directory (the store refuses that itself, naming it): no run marks it.
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : null;
  }
  const out: RunMarker[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (m === null) continue;
    let mtime: number;
    try {
      mtime = lstatSync(join(dir, name)).mtimeMs;
    } catch {
      continue;
    }
    if (now - mtime > MARKER_FRESH_MS) continue;
    out.push({ namespace: Number(m[1]), pid: Number(m[2]), start: Number(m[3]) });
  }
  return out;
}
