// What this process can learn about the processes around it, from /proc (Linux): its
// ancestors, which processes are gate-check runs, and whether it has a controlling terminal.
// Used to refuse approvals from inside a run. Reads only; where /proc is missing (not Linux),
// every answer is "unknown" and callers say so.
import { closeSync, constants, lstatSync, openSync, readdirSync, readFileSync } from 'node:fs';

/** The title every gate-check run that spawns checks takes (visible in ps and /proc/PID/cmdline). */
export const RUN_TITLE = 'gate-check-run';
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
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
  } catch {
    return null;
  }
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

function isRunOfThisUser(pid: number, uid: number | null): boolean {
  try {
    if (uid !== null && lstatSync(`/proc/${pid}`).uid !== uid) return false;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    const end = cmdline.indexOf('\u0000');
    return (end === -1 ? cmdline : cmdline.slice(0, end)) === RUN_TITLE;
  } catch {
    return false;
  }
}

const myUid = () => (typeof process.getuid === 'function' ? process.getuid() : null);

/** The nearest ancestor that is a gate-check run of this user, or null. */
export function ancestorRun(): number | null {
  const uid = myUid();
  for (const pid of ancestors()) if (isRunOfThisUser(pid, uid)) return pid;
  return null;
}

/** Every live gate-check run of this user except this process. */
export function liveRuns(): number[] {
  const uid = myUid();
  const out: number[] = [];
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
    if (pid !== process.pid && isRunOfThisUser(pid, uid)) out.push(pid);
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
