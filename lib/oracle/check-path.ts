// The PATH a check's shell is given. An entry whose meaning depends on the working directory
// (relative, empty, `.`, /proc/self/cwd/…) is made absolute against the check's folder, where
// the approval bound the executables it holds (path-bound.ts): as written, a `cd` in the CHECK
// (or in anything it runs) would make the shell search a folder nothing binds (round-25 F1).
// Pure: the result depends only on the PATH text and the folder, both part of the oracle.
import { delimiter, isAbsolute } from 'node:path';
import { RunSetupError } from '../errors.js';

const PROCESS_CWD = /^\/proc\/(?:self|thread-self)\/cwd(?=\/|$)/;

/** `path` with every working-directory-relative entry anchored at `cwd` (absolute, canonical). */
export function pathForCheck(path: string, cwd: string): string {
  const anchor = (rest: string) => {
    if (cwd.includes(delimiter)) {
      throw new RunSetupError(`PATH has an entry relative to the check's folder (${rest === '' ? 'an empty one' : rest.slice(0, 200)}), and that folder's path holds "${delimiter}", so PATH cannot name it`, 'make the PATH entries absolute');
    }
    return `${cwd}${rest}`;
  };
  return path
    .split(delimiter)
    .map((entry) => {
      if (entry === '') return anchor('');
      // `~/…` is HOME for bash and text for dash (path-bound.ts binds both): not the folder's.
      if (entry.startsWith('~')) return entry;
      // Joined as text, not normalized: `sub/../bin` goes up from where sub leads, for the
      // kernel and for path-bound.ts alike.
      if (!isAbsolute(entry)) return anchor(`/${entry}`);
      const proc = PROCESS_CWD.exec(entry);
      return proc === null ? entry : anchor(entry.slice(proc[0].length));
    })
    .join(delimiter);
}

/** The environment a check is spawned with: `env` with its PATH anchored (pathForCheck). */
export function checkEnvironment(env: NodeJS.ProcessEnv, cwd: string): NodeJS.ProcessEnv {
  const path = env.PATH;
  if (path === undefined) return env;
  const anchored = pathForCheck(path, cwd);
  return anchored === path ? env : { ...env, PATH: anchored };
}
