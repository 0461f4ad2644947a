// Which git gate-check runs (--assert-clean's snapshot, the hook installer, diff): the first
// `git` on PATH in an absolute folder outside the repository. A relative PATH entry
// (`./node_modules/.bin`) would resolve in the folder git runs in, and a folder inside the
// repository holds what the repository (a check, a pull request) put there: either would
// run a `git` nobody approved (round-39j F3). None found is an error, never a guess.
import { delimiter, isAbsolute, join } from 'node:path';
import { RunSetupError } from '../errors.js';
import { writableTree } from '../fsx/repo-root.js';
import { isExecutableFile } from './shell.js';

const found = new Map<string, string>();

/** The absolute path of the git to run for the repository around `root`. */
export function gitProgram(env: NodeJS.ProcessEnv, root: string): string {
  const tree = writableTree(root);
  const key = `${tree}\0${env.PATH ?? ''}`;
  const known = found.get(key);
  if (known !== undefined) return known;
  const inside = (dir: string) => dir === tree || dir.startsWith(tree.endsWith('/') ? tree : `${tree}/`);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir) || inside(dir)) continue;
    const candidate = join(dir, 'git');
    if (isExecutableFile(candidate)) {
      found.set(key, candidate);
      return candidate;
    }
  }
  throw new RunSetupError('git was not found on PATH (only absolute folders outside the repository are searched)', 'install git, or put the folder that holds it on PATH');
}
