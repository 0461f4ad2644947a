// How the person started gate-check, so that a command we suggest runs the same program with
// the same environment: an approval binds PATH and some variables, so a pin shown under
// `npx --no-install gate-check` is refused under a bare `gate-check` whose PATH differs, and a
// bare `gate-check` is no command at all where it is not on PATH. Pure.
import { basename, delimiter, dirname, isAbsolute } from 'node:path';
import { shellCommand } from '../text/shell-quote.js';

/**
 * The words that start gate-check again the way it was started: `npx --no-install
 * gate-check` under npm exec; `gate-check` when that name on PATH is how it was found;
 * otherwise node and the script's absolute path.
 */
export function invocationWords(env: NodeJS.ProcessEnv, script: string | undefined, execPath: string, cwd: string): string[] {
  // npm_command is inherited by everything an npx-started process starts (an agent host, its
  // hooks): it says how gate-check was started only when the running script is the copy that
  // `npx --no-install gate-check` finds from here, in the node_modules of this folder or one
  // above. Elsewhere that command would run whatever a node_modules/.bin/gate-check here holds,
  // a file an agent can plant (round-38c F3).
  if (env.npm_command === 'exec' && script !== undefined && foundByNpxFrom(cwd, script)) return ['npx', '--no-install', 'gate-check'];
  const path = (env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d));
  if (script === undefined || !isAbsolute(script)) return ['gate-check'];
  if (basename(script) === 'gate-check' && path.includes(dirname(script))) return ['gate-check'];
  const node = path.includes(dirname(execPath)) && basename(execPath) === 'node' ? 'node' : execPath;
  return [node, script];
}

/** Whether `script` is gate-check's bin in the node_modules of `cwd` or of a folder above it. */
function foundByNpxFrom(cwd: string, script: string): boolean {
  const m = /^(.*)\/node_modules\/(?:\.bin\/gate-check|gate-check\/bin\/gate-check\.js)$/.exec(script);
  if (m === null || !isAbsolute(script)) return false;
  const project = m[1] === '' ? '/' : m[1]!;
  const here = cwd.replace(/\/+$/, '') || '/';
  return !project.includes('/node_modules/') && (here === project || here.startsWith(project === '/' ? '/' : `${project}/`));
}

/** The same, for the running process. */
export function currentInvocation(env: NodeJS.ProcessEnv): string[] {
  return invocationWords(env, process.argv[1], process.execPath, process.cwd());
}

/**
 * The words the Stop hook suggests to the agent. A host starts the hook by node and the
 * script's path; when that script is the package installed in the repository `root`
 * (its node_modules/gate-check),
 * the person approved with `npx --no-install gate-check`, as the README says, and that is the
 * PATH those approvals bind: `node …/gate-check.js` from the agent's shell would ask for every
 * approval again (round-31b F5).
 */
export function hookInvocationWords(env: NodeJS.ProcessEnv, script: string | undefined, execPath: string, root: string): string[] {
  // Only the repository's own: npx in the repository would run whatever its node_modules/.bin
  // holds, which for a CLI installed elsewhere is a file the agent can plant (round-34 F5).
  const own = `${root.replace(/\/+$/, '')}/node_modules/`;
  if (script !== undefined && script.startsWith(own) && /^(?:gate-check\/bin\/gate-check\.js|\.bin\/gate-check)$/.test(script.slice(own.length))) return ['npx', '--no-install', 'gate-check'];
  return invocationWords(env, script, execPath, root);
}

/**
 * A hint's quoted commands (`'gate-check init'`) as the person started gate-check, so that
 * they run where a bare `gate-check` is no command (an npm-installed project: round-38b F8).
 * Left as written when the words would need quotes of their own.
 */
export function asInvoked(text: string, words: readonly string[]): string {
  const start = shellCommand(words);
  if (start === null || start === 'gate-check' || start.includes("'")) return text;
  return text.replace(/'gate-check(?=[ '])/g, `'${start}`);
}
