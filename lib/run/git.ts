// The only places besides the supervisor where gate-check starts a process: git, for
// --assert-clean (what the working tree looks like before and after a check: tracked
// changes, untracked and ignored files, each with size, mtime, inode and mode) and for the
// hook installer (is a settings file tracked?). git runs with core.fsmonitor and the
// untracked cache off, so that repository config cannot make it run a command of its own.
import { execFile } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { RunSetupError } from '../errors.js';
import { interruptedError, interruptSignal } from './interrupts.js';

export type TreeSnapshot = Map<string, string>;

const GIT_ARGS = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'status.showUntrackedFiles=all'];

function git(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const signal = interruptSignal();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(interruptedError('git snapshot not taken'));
    // An interrupt kills git (the snapshot is a wait like any other) and nothing is started after it.
    execFile('git', [...GIT_ARGS, ...args], { cwd: root, env, maxBuffer: 256 * 1024 * 1024, timeout: 120_000, encoding: 'utf8', signal }, (err, stdout, stderr) => {
      if (err && signal.aborted) reject(interruptedError('git snapshot not finished'));
      else if (err) reject(new RunSetupError(`--assert-clean: git ${args[0]} failed: ${(stderr || err.message).trim().split('\n')[0]}`, '--assert-clean needs git and a git working tree at --root'));
      else resolve(stdout);
    });
  });
}

export async function snapshotWorkingTree(root: string, env: NodeJS.ProcessEnv): Promise<TreeSnapshot> {
  const out = await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=traditional'], env);
  const snapshot: TreeSnapshot = new Map();
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const path = entry.slice(3);
    if (code[0] === 'R' || code[0] === 'C') i++; // the rename source follows
    let meta = 'missing';
    try {
      const st = lstatSync(join(root, path));
      meta = `${st.size}:${st.mtimeMs}:${st.ino}:${st.mode}`;
    } catch {
      /* deleted */
    }
    snapshot.set(path, `${code}|${meta}`);
  }
  return snapshot;
}

/** Paths that differ between two snapshots, sorted; `ignore` filters gate-check's own files. */
export function changedPaths(before: TreeSnapshot, after: TreeSnapshot, ignore: (path: string) => boolean): string[] {
  const out = new Set<string>();
  for (const [p, v] of after) if (before.get(p) !== v) out.add(p);
  for (const p of before.keys()) if (!after.has(p)) out.add(p);
  return [...out].filter((p) => !ignore(p)).sort();
}

/** True when git tracks `rel` under `root`, false when not (or not a repository), null when git cannot be run. */
export function gitTracks(root: string, rel: string, env: NodeJS.ProcessEnv, timeoutMs = 5000): Promise<boolean | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', 'ls-files', '--error-unmatch', '--', rel],
      { cwd: root, env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' }, timeout: timeoutMs, maxBuffer: 64 * 1024, windowsHide: true },
      (error) => {
        if (!error) return resolve(true);
        const code = (error as NodeJS.ErrnoException).code;
        resolve(typeof code === 'string' || error.killed ? null : false);
      },
    );
  });
}
