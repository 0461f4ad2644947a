// What this process can learn about the processes around it, from /proc (Linux): its
// ancestors, which processes are gate-check runs, and whether it has a controlling terminal.
// Used to refuse approvals from inside a run. Reads only; where /proc is missing (not Linux),
// every answer is "unknown" and callers say so.
import { closeSync, constants, lstatSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The title every gate-check run that spawns checks takes (visible in ps and /proc/PID/cmdline), followed by its repository key. */
export const RUN_TITLE = 'gate-check-run';

/** The process title of a run in the repository with this key (16 hex). */
export function runTitle(repoKey: string): string {
  return `${RUN_TITLE} ${repoKey}`;
}
const MAX_DEPTH = 256;

export function hasProcFs(): boolean {
  try {
    return lstatSync('/proc/self/stat').isFile();
  } catch {
    return false;
  }
}

/** Parent PID from /proc/PID/stat (the command name in parentheses may itself contain ") "). */
function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  const ppid = fields ? Number(fields[1]) : NaN;
  return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/** Ancestors of this process, nearest first, up to (not including) PID 1. */
export function ancestors(): number[] {
  const out: number[] = [];
  for (let pid = process.ppid; pid > 1 && out.length < MAX_DEPTH; ) {
    out.push(pid);
    const parent = parentOf(pid);
    if (parent === null) break;
    pid = parent;
  }
  return out;
}

/** The repository key of a run of this user (null: not a run; '' when the title was cut short). */
function runKeyOf(pid: number, uid: number | null): string | null {
  try {
    // Mutation note: removing this only refuses more (another user's run would count as yours).
    if (uid !== null && lstatSync(`/proc/${pid}`).uid !== uid) return null;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    const end = cmdline.indexOf('\u0000');
    const title = end === -1 ? cmdline : cmdline.slice(0, end);
    if (title === RUN_TITLE) return '';
    return title.startsWith(`${RUN_TITLE} `) ? title.slice(RUN_TITLE.length + 1) : null;
  } catch {
    return null;
  }
}

const myUid = () => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Fields of /proc/PID/stat after the command name: [0] is field 3 (state). */
function statFields(pid: number | 'self'): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Start time of a process in clock ticks since boot (field 22), or null when it is gone. */
function startTime(pid: number | 'self'): number | null {
  const f = statFields(pid);
  const t = f ? Number(f[19]) : NaN;
  return Number.isSafeInteger(t) ? t : null;
}

/**
 * When this process's session began, as far as /proc shows: the earliest start time among
 * its session leader and those of itself and its ancestors that share its session. A session
 * a check made (setsid) holds only processes started after it, so this is never earlier than
 * the check; a session whose leader is gone or lives outside this PID namespace (session 0,
 * as in a container) still dates from its oldest visible member, such as the CI runner's
 * shell, which began before any run it started.
 */
export function sessionStart(): number | null {
  const self = statFields('self');
  const sid = self ? Number(self[3]) : NaN;
  // Mutation note: equivalent where /proc is Linux's (field 6 of stat is always a session id).
  if (!Number.isInteger(sid) || sid < 0) return null;
  let earliest: number | null = null;
  const consider = (t: number | null) => {
    if (t !== null && (earliest === null || t < earliest)) earliest = t;
  };
  if (sid > 0 && statFields(sid)?.[3] === String(sid)) consider(startTime(sid));
  consider(startTime('self'));
  for (const pid of ancestors()) {
    const f = statFields(pid);
    if (f === null || f[3] !== String(sid)) continue;
    consider(startTime(pid));
  }
  return earliest;
}

/** The nearest ancestor that is a gate-check run of this user, or null. */
export function ancestorRun(): number | null {
  const uid = myUid();
  for (const pid of ancestors()) if (runKeyOf(pid, uid) !== null) return pid;
  return null;
}

/** The session id of a process (field 6 of stat), or null when /proc does not say. */
export function sessionIdOf(pid: number | 'self'): number | null {
  const f = statFields(pid);
  const sid = f ? Number(f[3]) : NaN;
  return Number.isInteger(sid) && sid >= 0 ? sid : null;
}

/** This process's session id, or null. */
export function sessionId(): number | null {
  return sessionIdOf('self');
}

/** Whether /proc shows `pid` as a live gate-check run of this user. */
export function isVisibleRun(pid: number): boolean {
  return runKeyOf(pid, myUid()) !== null;
}

export interface LiveRun {
  pid: number;
  /** Start time in clock ticks since boot, or null when it is gone. */
  start: number | null;
  /** Its session id, or null when /proc does not say. */
  session: number | null;
  /** Its working directory (where it was started: for the refusal to name), or null when /proc does not say. */
  cwd?: string | null;
}

/** Where a process works, or null when /proc does not say. */
export function workingDirectoryOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/** Every live gate-check run of this user (any repository), except this process. */
export function liveRuns(): LiveRun[] {
  const uid = myUid();
  const out: LiveRun[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    if (runKeyOf(pid, uid) !== null) out.push({ pid, start: startTime(pid), session: sessionIdOf(pid) });
  }
  return out;
}

/**
 * Whether this process has a controlling terminal: opening /dev/tty fails (ENXIO) without
 * one. A check has none: it runs in a session of its own with stdin closed.
 */
export function hasControllingTerminal(): boolean {
  try {
    closeSync(openSync('/dev/tty', constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false;
  }
}

/** This process's PID namespace: the inode in /proc/self/ns/pid ("pid:[4026531836]"), or 0 when /proc does not say. */
export function pidNamespace(): number {
  try {
    const m = /^pid:\[(\d{1,20})\]$/.exec(readlinkSync('/proc/self/ns/pid'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc/PID/stat start times (USER_HZ: 100 on every Linux port Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * When this process's session began (sessionStart), in ms since the epoch: boot time from
 * /proc/stat plus the start time in ticks. Exact to about a second (btime is in whole
 * seconds); both are shifted alike in a time namespace, so the sum is not. Null when /proc
 * does not tell.
 */
export function sessionStartMs(): number | null {
  const ticks = sessionStart();
  if (ticks === null) return null;
  let btime: number;
  try {
    const m = /^btime (\d{1,12})$/m.exec(readFileSync('/proc/stat', 'latin1'));
    // Mutation note: equivalent (without it, m[1] throws inside this try, which returns null too).
    if (m === null) return null;
    btime = Number(m[1]);
  } catch {
    return null;
  }
  return btime * 1000 + (ticks * 1000) / TICKS_PER_SECOND;
}
