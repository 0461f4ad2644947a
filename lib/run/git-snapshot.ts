// --assert-clean: what git sees in the working tree (tracked changes, untracked and ignored
// files, each with its size, mtime, inode and mode), before and after a check. Runs git
// with core.fsmonitor and the untracked cache off, so that repository config cannot make
// `git status` run a command of its own.
import { execFile } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { RunSetupError } from '../errors.js';

export type TreeSnapshot = Map<string, string>;

const GIT_ARGS = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'status.showUntrackedFiles=all'];

function git(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...GIT_ARGS, ...args], { cwd: root, env, maxBuffer: 256 * 1024 * 1024, timeout: 120_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new RunSetupError(`--assert-clean: git ${args[0]} failed: ${(stderr || err.message).trim().split('\n')[0]}`, '--assert-clean needs git and a git working tree at --root'));
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
