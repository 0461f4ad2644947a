// The checkouts git's own records name for a repository: the main one when its common
// directory is that checkout's `.git`, and each linked worktree that `worktrees/<name>/gitdir`
// lists (the path of its `.git` file). These records live in the git directory, not in the
// checkout: a worktree whose own `.git` file was moved away is still listed (round-39r R1).
// Reads only; an unreadable record names nothing.
import { isUtf8 } from 'node:buffer';
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readGitPointer } from './git-pointer.js';
import { realPath } from './physical-path.js';

/** Raised for a name in git's folders that is not UTF-8 text: what it names cannot be looked into. */
export class GitNameError extends Error {}

/** The names in a folder of git's (`worktrees/`, `modules/`): none when it cannot be listed. */
export function listGitFolder(folder: string): string[] {
  let names: Buffer[];
  try {
    names = readdirSync(folder, { encoding: 'buffer' });
  } catch {
    return [];
  }
  for (const name of names) {
    if (!isUtf8(name)) throw new GitNameError(`${folder} holds a name that is not UTF-8 text`);
  }
  return names.map((name) => name.toString('utf8'));
}

/**
 * The linked worktrees a git directory lists, by real path. The record is read as git reads
 * it: a path relative to the record's own folder (what git 2.48 and later write with
 * `worktree.useRelativePaths`), and the worktree is that path with a final `/.git` taken off,
 * whether or not it has one (git 2.39 still lists `/abs/w` and `/abs/w/`: round-39s S1).
 */
export function linkedWorktrees(gitDir: string): string[] {
  const folders: string[] = [];
  for (const name of listGitFolder(join(gitDir, 'worktrees'))) {
    const admin = join(gitDir, 'worktrees', name);
    let text: string | null = null;
    try {
      text = readGitPointer(join(admin, 'gitdir'));
    } catch {
      continue;
    }
    const written = text?.replace(/[\r\n]+$/, '') ?? '';
    if (written === '') continue;
    const path = resolve(admin, written);
    const folder = realPath(basename(path) === '.git' ? dirname(path) : path);
    if (folder !== null) folders.push(folder);
  }
  return folders;
}

/** The main checkout (when the common directory is its `.git`) and the linked worktrees of a repository's common directory. */
export function checkoutsOf(common: string): string[] {
  return [...(basename(common) === '.git' ? [dirname(common)] : []), ...linkedWorktrees(common)];
}
