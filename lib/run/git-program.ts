// Which git gate-check runs (--assert-clean's snapshot, the hook installer, diff): the first
// `git` on PATH in an absolute folder outside the repository. A relative PATH entry
// (`./node_modules/.bin`) would resolve in the folder git runs in, and a folder inside the
// repository holds what the repository (a check, a pull request) put there: either would
// run a `git` nobody approved (round-39j F3). None found is an error, never a guess.
//
// "The repository" is every checkout of it, not only the one the ledger is in: its other
// worktrees hold other branches of the same files (a pull request's among them), and its git
// directory holds its hooks and configuration (round-39n N3).
import { readdirSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { RunSetupError } from '../errors.js';
import { readGitPointer } from '../fsx/git-pointer.js';
import { realPath } from '../fsx/physical-path.js';
import { hasDotGit, writableTree } from '../fsx/repo-root.js';
import { leaseRepository } from '../lease/repository.js';
import { isExecutableFile } from './shell.js';

const found = new Map<string, string>();

const within = (dir: string, top: string) => dir === top || dir.startsWith(top.endsWith('/') ? top : `${top}/`);

/** The absolute path of the git to run for the repository around `root`. */
export function gitProgram(env: NodeJS.ProcessEnv, root: string): string {
  const tree = writableTree(root);
  const key = `${tree}\0${env.PATH ?? ''}`;
  const known = found.get(key);
  if (known !== undefined) return known;
  let repository = 'dir:';
  try {
    repository = leaseRepository(tree);
  } catch {
    // Unreadable git files: the tree itself only (git will refuse to run there anyway).
  }
  // By real paths: a folder reached through a link, or written `//repo/…`, is where it is
  // (round-39k F2).
  const trees = [realPath(tree) ?? tree, ...repositoryFolders(repository)];
  const inside = (dir: string) => trees.some((t) => within(dir, t)) || inCheckoutOf(repository, dir);
  for (const entry of (env.PATH ?? '').split(delimiter)) {
    if (!entry || !isAbsolute(entry)) continue;
    const dir = realPath(entry);
    if (dir === null || inside(dir)) continue;
    // The program itself by its real path too: a `git` that is a link into the repository
    // runs the repository's program (round-39l F3).
    const candidate = realPath(join(dir, 'git'));
    if (candidate !== null && !inside(candidate) && isExecutableFile(candidate)) {
      found.set(key, candidate);
      return candidate;
    }
  }
  throw new RunSetupError('git is not installed (not found on PATH; only absolute folders outside the repository are searched)', 'install git, or put the folder that holds it on PATH');
}

/**
 * The folders git's own records name for a repository (`git:<common dir>`): the common
 * directory, the main worktree when the common directory is its `.git` (round-39m F3), and
 * every linked worktree listed in `worktrees/<name>/gitdir`. Unreadable records name nothing:
 * inCheckoutOf still finds a checkout by its own `.git`.
 */
function repositoryFolders(repository: string): string[] {
  if (!repository.startsWith('git:')) return [];
  const common = repository.slice('git:'.length);
  const folders = [common];
  if (basename(common) === '.git') folders.push(dirname(common));
  let names: string[] = [];
  try {
    names = readdirSync(join(common, 'worktrees'));
  } catch {
    // No linked worktrees.
  }
  for (const name of names) {
    let text: string | null = null;
    try {
      text = readGitPointer(join(common, 'worktrees', name, 'gitdir'));
    } catch {
      continue;
    }
    // The path of the worktree's `.git` file, one line.
    const dotGit = text?.replace(/[\r\n]+$/, '') ?? '';
    if (!isAbsolute(dotGit)) continue;
    const folder = realPath(dirname(dotGit));
    if (folder !== null) folders.push(folder);
  }
  return folders;
}

/**
 * Whether `dir` lies in a checkout of the same repository, found by walking up to a `.git` that
 * leads to the same common directory: a sibling worktree, or the main checkout of a repository
 * made with --separate-git-dir, whose common directory is named nothing like `.git`. A `.git`
 * that cannot be read counts as the same repository (fail closed: that folder is skipped).
 */
function inCheckoutOf(repository: string, dir: string): boolean {
  if (!repository.startsWith('git:')) return false;
  for (let at = dir; ; at = dirname(at)) {
    if (hasDotGit(at)) {
      let other: string;
      try {
        other = leaseRepository(at);
      } catch {
        return true;
      }
      if (other === repository) return true;
    }
    if (dirname(at) === at) return false;
  }
}
