// The PATH a check's shell is given. An entry whose meaning depends on the working directory
// (relative, empty, `.`, /proc/self/cwd/…, and `~/…`, which dash reads as relative) is made
// absolute (in the check's folder; `~/` as HOME), where the approval bound the executables it
// holds (path-bound.ts): as written, a `cd` in the CHECK (or in anything it runs) would make
// the shell search a folder nothing binds (round-25 F1, round-26 02). Pure.
import { delimiter, isAbsolute } from 'node:path';
import { RunSetupError } from '../errors.js';

const PROCESS_CWD = /^\/proc\/(?:self|thread-self)\/cwd(?=\/|$)/;

/** `path` with every working-directory-relative entry anchored at `cwd` (absolute, canonical), `~/` at `home`. */
export function pathForCheck(path: string, cwd: string, home: string): string {
  const anchorAt = (dir: string, rest: string) => {
    if (dir.includes(delimiter)) {
      throw new RunSetupError(`PATH has an entry relative to a folder (${rest === '' ? 'an empty one' : rest.slice(0, 200)}) whose path holds "${delimiter}", so PATH cannot name it`, 'make the PATH entries absolute');
    }
    return `${dir}${rest}`;
  };
  const anchor = (rest: string) => anchorAt(cwd, rest);
  return path
    .split(delimiter)
    .map((entry) => {
      if (entry === '') return anchor('');
      // `~/…` is HOME for bash and a folder named ~ for dash (path-bound.ts binds both): it is
      // given as HOME, one of the two, which no `cd` moves (round-26 02). `~user` is refused
      // before (path-bound.ts).
      if (entry === '~' || entry.startsWith('~/')) {
        // A relative HOME would be searched from wherever a `cd` takes the shell (round-27 10).
        if (!isAbsolute(home)) {
          throw new RunSetupError(`PATH has the entry ${entry.slice(0, 200)}, and HOME (${JSON.stringify(home.slice(0, 200))}) is not an absolute path, so where it leads moves with the check's folder`, 'set HOME to an absolute path, or write the PATH entry as one');
        }
        // HOME=/proc/self/cwd is the check's folder too (round-28 06): anchored like the entry it makes.
        const fromHome = `${home}${entry.slice(1)}`;
        const proc = PROCESS_CWD.exec(fromHome);
        return proc === null ? anchorAt(home, entry.slice(1)) : anchor(fromHome.slice(proc[0].length));
      }
      if (entry.startsWith('~')) return entry;
      // Joined as text, not normalized: `sub/../bin` goes up from where sub leads, for the
      // kernel and for path-bound.ts alike.
      if (!isAbsolute(entry)) return anchor(`/${entry}`);
      const proc = PROCESS_CWD.exec(entry);
      return proc === null ? entry : anchor(entry.slice(proc[0].length));
    })
    .join(delimiter);
}

/**
 * GitHub Actions' file commands: files that set the job summary, the step's outputs and the
 * next steps' environment and PATH. A check (the code it tests) that wrote a green table and
 * an unclosed `<!--` there hid gate-check's own table (round-39v V5): checks never get them.
 */
const WORKFLOW_FILES = ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'];

/**
 * The environment a check is spawned with: `env` with its PATH anchored (pathForCheck), and
 * without the workflow's file commands; `home` as path-bound.ts reads `~`.
 */
export function checkEnvironment(env: NodeJS.ProcessEnv, cwd: string, home: () => string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = WORKFLOW_FILES.some((k) => env[k] !== undefined) ? { ...env } : env;
  for (const k of WORKFLOW_FILES) if (out !== env) delete out[k];
  const path = env.PATH;
  if (path === undefined) return out;
  const anchored = pathForCheck(path, cwd, path.includes('~') ? home() : '');
  return anchored === path ? out : { ...out, PATH: anchored };
}
