// Which git gate-check runs (--assert-clean's snapshot, the hook installer, diff): the first
// `git` on PATH in an absolute folder outside the repository. A relative PATH entry
// (`./node_modules/.bin`) would resolve in the folder git runs in, and a folder inside the
// repository holds what the repository (a check, a pull request) put there: either would
// run a `git` nobody approved (round-39j F3). None found is an error, never a guess.
//
// "The repository" is every checkout of every repository around the root, not only the one
// the ledger is in: the repositories of each `.git` from the outermost to the nearest (a
// repository made in a folder above the checkout must not take the real one's place), their
// other worktrees, which hold other branches of the same files (a pull request's among them),
// their git directories, which hold their hooks and configuration, and their submodules' git
// directories and worktrees (round-39n N3, round-39o O5, O6). A `.git` that cannot be read
// leaves that unknown: no git is run then.
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { RunSetupError } from '../errors.js';
import { checkoutsOf, GitNameError, linkedWorktrees, listGitFolder } from '../fsx/git-checkouts.js';
import { realPath } from '../fsx/physical-path.js';
import { enclosingWorkTrees, hasDotGit, writableTree } from '../fsx/repo-root.js';
import { leaseRepository } from '../lease/repository.js';
import { isExecutableFile } from './shell.js';

const found = new Map<string, string>();

/**
 * Folders under `modules/` looked into, at most, and how deep: beyond, no git is run. Far more
 * than --assert-clean watches (128 git directories, 8 deep), whose own refusal (every check
 * fails, naming what it cannot watch) then comes first.
 */
const MAX_MODULE_FOLDERS = 4096;
const MAX_MODULE_DEPTH = 32;

const within = (dir: string, top: string) => dir === top || dir.startsWith(top.endsWith('/') ? top : `${top}/`);

/** The absolute path of the git to run for the repository around `root`. */
export function gitProgram(env: NodeJS.ProcessEnv, root: string): string {
  const tree = writableTree(root);
  const key = `${root}\0${env.PATH ?? ''}`;
  const known = found.get(key);
  if (known !== undefined) return known;
  const commons = repositoriesAround(root);
  // By real paths: a folder reached through a link, or written `//repo/…`, is where it is
  // (round-39k F2).
  const trees = [realPath(tree) ?? tree, ...commons.flatMap(repositoryFolders)];
  const inside = (dir: string) => trees.some((t) => within(dir, t)) || inCheckoutOf(commons, dir);
  for (const entry of (env.PATH ?? '').split(delimiter)) {
    // An entry with U+FFFD may be Node's decoding of bytes that are not UTF-8 (an environment
    // is bytes): the folder it names as text is not the one on PATH (round-39p P2).
    if (!entry || !isAbsolute(entry) || entry.includes('\ufffd')) continue;
    const dir = resolvedQuietly(entry);
    if (dir === null || inside(dir)) continue;
    // The program itself by its real path too: a `git` that is a link into the repository
    // runs the repository's program (round-39l F3).
    const candidate = resolvedQuietly(join(dir, 'git'));
    if (candidate !== null && !inside(candidate) && isExecutableFile(candidate)) {
      found.set(key, candidate);
      return candidate;
    }
  }
  throw new RunSetupError('git is not installed (not found on PATH; only absolute folders outside the repository are searched)', 'install git, or put the folder that holds it on PATH');
}

/** A PATH entry's real path; null when it does not resolve, or resolves to a path that is not UTF-8 (realPath): that entry is passed over. */
function resolvedQuietly(path: string): string | null {
  try {
    return realPath(path);
  } catch {
    return null;
  }
}

/** The common directory of each repository whose `.git` is at or above `root`; an error for one that names none. */
function repositoriesAround(root: string): string[] {
  const commons: string[] = [];
  for (const dir of enclosingWorkTrees(root)) {
    if (!hasDotGit(dir)) continue;
    let repository: string;
    try {
      repository = leaseRepository(dir);
    } catch (e) {
      throw new RunSetupError(`cannot tell which folders hold the repository's files: ${(e as Error).message}`, 'repair the .git there (git itself must be able to use it)');
    }
    if (!repository.startsWith('git:')) throw new RunSetupError(`cannot tell which folders hold the repository's files: ${dir}/.git names no git repository gate-check can read`, 'repair the .git there (git itself must be able to use it)');
    commons.push(repository.slice('git:'.length));
  }
  return commons;
}

/**
 * The folders git's own records name for a repository (its common directory): the common
 * directory, the main worktree when the common directory is its `.git` (round-39m F3), every
 * linked worktree listed in `worktrees/<name>/gitdir`, and the same for each submodule's git
 * directory under `modules/`. Unreadable records name nothing: inCheckoutOf still finds a
 * checkout by its own `.git`.
 */
function repositoryFolders(common: string): string[] {
  try {
    const folders = [common, ...checkoutsOf(common)];
    for (const gitDir of moduleGitDirs(common)) folders.push(...linkedWorktrees(gitDir));
    return folders;
  } catch (e) {
    if (!(e instanceof GitNameError)) throw e;
    throw new RunSetupError(`${e.message}: cannot tell which folders hold the repository's files`);
  }
}

/** Every git directory under `<common>/modules` (a submodule's, or a nested submodule's under its own `modules/`). */
function moduleGitDirs(common: string): string[] {
  const dirs: string[] = [];
  let looked = 0;
  const visit = (folder: string, depth: number) => {
    if (++looked > MAX_MODULE_FOLDERS) throw new RunSetupError(`more than ${MAX_MODULE_FOLDERS} folders under ${common}/modules: cannot tell which folders hold the repository's files`);
    for (const name of listGitFolder(folder)) {
      const path = join(folder, name);
      if (hasDotGitFiles(path)) {
        dirs.push(path);
        visit(join(path, 'modules'), 0);
      } else {
        // A submodule named a/b keeps its git directory at modules/a/b.
        if (depth >= MAX_MODULE_DEPTH) throw new RunSetupError(`${path} is more than ${MAX_MODULE_DEPTH} folders deep under ${common}/modules: cannot tell which folders hold the repository's files`);
        visit(path, depth + 1);
      }
    }
  };
  visit(join(common, 'modules'), 0);
  return dirs;
}

function hasDotGitFiles(path: string): boolean {
  return listGitFolder(path).includes('HEAD');
}

/**
 * Whether `dir` lies in a checkout of one of the repositories, found by walking up to a `.git`
 * that leads to the same common directory, or to one inside it (a submodule's, under
 * `modules/`): a sibling worktree, or the main checkout of a repository made with
 * --separate-git-dir, whose common directory is named nothing like `.git`. A `.git` that
 * cannot be read counts as the same repository (fail closed: that folder is skipped).
 */
function inCheckoutOf(commons: string[], dir: string): boolean {
  // Mutation note: equivalent (an empty list matches no `.git`; this only spares the walk).
  if (commons.length === 0) return false;
  for (let at = dir; ; at = dirname(at)) {
    if (hasDotGit(at)) {
      let other: string;
      try {
        other = leaseRepository(at);
      } catch {
        return true;
      }
      if (other.startsWith('git:') && commons.some((c) => within(other.slice('git:'.length), c))) return true;
    }
    if (dirname(at) === at) return false;
  }
}
