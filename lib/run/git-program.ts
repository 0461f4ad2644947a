// Which git gate-check runs (--assert-clean's snapshot, the hook installer, diff): the first
// `git` on PATH in an absolute folder outside the repository. A relative PATH entry
// (`./node_modules/.bin`) would resolve in the folder git runs in, and a folder inside the
// repository holds what the repository (a check, a pull request) put there: either would
// run a `git` nobody approved (round-39j F3). None found is an error, never a guess.
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { RunSetupError } from '../errors.js';
import { realPath } from '../fsx/physical-path.js';
import { writableTree } from '../fsx/repo-root.js';
import { leaseRepository } from '../lease/repository.js';
import { isExecutableFile } from './shell.js';

const found = new Map<string, string>();

/** The absolute path of the git to run for the repository around `root`. */
export function gitProgram(env: NodeJS.ProcessEnv, root: string): string {
  const tree = writableTree(root);
  const key = `${tree}\0${env.PATH ?? ''}`;
  const known = found.get(key);
  if (known !== undefined) return known;
  // By real paths: a folder reached through a link, or written `//repo/…`, is where it is
  // (round-39k F2).
  // The repository's main worktree too, when the root is in a linked one (round-39m F3).
  const trees = [realPath(tree) ?? tree];
  let repository = 'dir:';
  try {
    repository = leaseRepository(tree);
  } catch {
    // Unreadable git files: the tree itself only (git will refuse to run there anyway).
  }
  if (repository.startsWith('git:') && basename(repository) === '.git') trees.push(dirname(repository.slice('git:'.length)));
  const inside = (dir: string) => trees.some((t) => dir === t || dir.startsWith(t.endsWith('/') ? t : `${t}/`));
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
