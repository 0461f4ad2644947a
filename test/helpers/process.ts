// Process liveness for supervisor tests: a process is gone when /proc has no entry for it,
// or when it is a zombie (an orphan reparented to a PID 1 that may never reap it).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function isDead(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

export async function waitDead(pid: number, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (isDead(pid)) return true;
    await sleep(25);
  }
  return isDead(pid);
}

/** PIDs of processes whose working directory lies in one of `dirs` (what a test left running there). */
export function processesIn(dirs: readonly string[]): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${name}/cwd`);
    } catch {
      continue;
    }
    if (dirs.some((d) => cwd === d || cwd.startsWith(d + '/'))) found.push(Number(name));
  }
  return found;
}
