// Test runners and task runners a CHECK calls: which one, where its definition lives, and
// what it reads. Pure: the rules decide with this what a gate's approval and evidence bind.
import { programName, unwrapped, withoutKeywords } from './commands.js';
import type { SimpleCommand } from './shell-list.js';
import { makeOptions } from './make-options.js';
import type { Word } from './shell-words.js';

export type RunnerId = 'node-test' | 'vitest' | 'jest' | 'pytest' | 'go-test' | 'cargo-test' | 'package-script' | 'make';

export interface RunnerCall {
  id: RunnerId;
  /** How the CHECK names it: "node --test", "npm test", "make check". */
  shown: string;
  /** The arguments after the runner's own words, for flags such as --passWithNoTests. */
  args: readonly Word[];
  /** The package script or make target it runs, when named. */
  target: string | null;
  /** Files named on the command line that define what runs (make -f, --config), relative to its directory. */
  definitions: string[];
  /** The directory it runs in, relative to the command's (make -C, npm --prefix), or null. */
  subdir: string | null;
  /** Whether what it runs is a test suite (not `npm run build`, not `make dist`). */
  runsTests: boolean;
  /** A package manager told to run the scripts of workspaces (-w, --workspace, --filter, -r): not the folder's own. */
  workspaces?: boolean;
}

export interface RunnerInfo {
  /** Files that define what the runner runs, in the order the runner looks for them; only the ones that exist count. */
  definitions: readonly string[];
  /** make and jest read only the first of their definition files that exists; the others read every one. */
  firstDefinitionOnly?: boolean;
  /** Directories (or globs) of the tests and code it reads; only the ones with files are suggested. */
  inputs: readonly string[];
}

const JS_INPUTS = ['test/**', 'tests/**', '__tests__/**', 'spec/**', 'src/**', 'lib/**'];
const CONFIG_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'];

// Config files are code or change what runs (vitest/jest setup files, pytest's conftest.py,
// cargo's build.rs): DEPENDS. Tests and sources are data to the gate: INPUTS.
export const RUNNER_INFO: Record<RunnerId, RunnerInfo> = {
  'node-test': { definitions: [], inputs: JS_INPUTS },
  vitest: {
    definitions: [...CONFIG_EXTENSIONS.map((e) => `vitest.config.${e}`), ...CONFIG_EXTENSIONS.map((e) => `vite.config.${e}`), 'vitest.workspace.ts', 'vitest.workspace.js', 'vitest.workspace.json'],
    inputs: JS_INPUTS,
  },
  // jest takes its configuration from one place: a jest.config.* file, else package.json's "jest" key.
  jest: { definitions: ['jest.config.js', 'jest.config.ts', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.json', 'package.json'], firstDefinitionOnly: true, inputs: JS_INPUTS },
  pytest: { definitions: ['pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg', 'conftest.py'], inputs: ['tests/**', 'test/**', 'src/**'] },
  'go-test': { definitions: ['go.mod'], inputs: ['**/*.go', 'go.sum'] },
  'cargo-test': { definitions: ['Cargo.toml', 'build.rs'], inputs: ['src/**', 'tests/**', 'benches/**', 'Cargo.lock'] },
  'package-script': { definitions: ['package.json'], inputs: JS_INPUTS },
  make: { definitions: ['GNUmakefile', 'makefile', 'Makefile'], firstDefinitionOnly: true, inputs: ['src/**', 'test/**', 'tests/**', 'lib/**'] },
};

/** npm/yarn/pnpm/bun options that take a value, and the ones among them that name a directory. */
const PM_VALUED = new Set(['--prefix', '-C', '--dir', '--cwd', '--workspace', '-w', '--filter', '-F', '--loglevel', '--registry', '--userconfig']);
const PM_DIRECTORY = new Set(['--prefix', '-C', '--dir', '--cwd']);
const PM_RUN = new Set(['run', 'run-script', 'rum', 'urn']);
const PM_TEST = new Set(['test', 't', 'tst']);
/** Verbs that run the package.json script of their name (`npm start` runs `node server.js` without one). */
const PM_LIFECYCLE = new Set(['start', 'stop', 'restart']);

const TEST_TARGETS = new Set(['test', 'tests', 'check', 'unit', 'unittest', 'test-unit', 'test-all']);

/** The runner a command invokes, seen through wrappers (npx, env, timeout) and `if`/`then`. */
export function runnerOf(command: SimpleCommand): RunnerCall | null {
  const words = unwrapped(withoutKeywords(command));
  const name = programName(words[0]);
  if (name === null) return null;
  const rest = words.slice(1);
  const call = (id: RunnerId, shown: string, args: readonly Word[], extra: Partial<RunnerCall> = {}): RunnerCall => ({
    id,
    shown,
    args,
    target: null,
    definitions: [],
    subdir: null,
    runsTests: true,
    ...extra,
  });
  switch (name) {
    case 'node':
    case 'nodejs':
      return nodeRunsTests(rest) ? call('node-test', 'node --test', rest) : null;
    case 'vitest':
      return call('vitest', 'vitest', rest, { definitions: optionValues(rest, ['--config', '-c']) });
    case 'jest':
      return call('jest', 'jest', rest, { definitions: optionValues(rest, ['--config', '-c']) });
    case 'pytest':
    case 'py.test':
      return call('pytest', 'pytest', rest, { definitions: optionValues(rest, ['-c']) });
    case 'python':
    case 'python3':
      return rest[0]?.value === '-m' && rest[1]?.value === 'pytest' ? call('pytest', 'python -m pytest', rest.slice(2), { definitions: optionValues(rest.slice(2), ['-c']) }) : null;
    case 'go':
      return rest[0]?.value === 'test' ? call('go-test', 'go test', rest.slice(1)) : null;
    case 'cargo':
      return rest[0]?.value === 'test' ? call('cargo-test', 'cargo test', rest.slice(1)) : null;
    case 'npm':
    case 'yarn':
    case 'pnpm':
    case 'bun':
      return packageScript(name, rest);
    case 'make':
    case 'gmake':
      return makeCall(name, rest);
    default:
      return null;
  }
}

/** `node --test`, `node --import tsx --test`: --test among the options before any script. */
function nodeRunsTests(args: readonly Word[]): boolean {
  for (const w of args) {
    if (w.value === '--test') return true;
    if (!w.value.startsWith('-')) return false;
  }
  return false;
}

function optionValues(args: readonly Word[], options: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    for (const o of options) {
      if (v === o && args[i + 1] && !args[i + 1]!.dynamic) values.push(args[i + 1]!.value);
      else if (o.startsWith('--') && v.startsWith(o + '=') && !args[i]!.dynamic) values.push(v.slice(o.length + 1));
    }
  }
  return values;
}

function packageScript(pm: string, args: readonly Word[]): RunnerCall | null {
  let subdir: string | null = null;
  const workspaces = args.some((w) => /^(?:-w|--workspaces?(?:=.*)?|--filter(?:=.*)?|-F|-r|--recursive)$/.test(w.value));
  let i = 0;
  while (i < args.length && args[i]!.value.startsWith('-')) {
    const v = args[i]!.value;
    if (PM_DIRECTORY.has(v)) subdir = args[i + 1] && !args[i + 1]!.dynamic ? args[i + 1]!.value : null;
    i += PM_VALUED.has(v) ? 2 : 1;
  }
  const verb = args[i];
  if (!verb || verb.dynamic) return null;
  let script: string | null = null;
  if (PM_TEST.has(verb.value) && pm !== 'bun') script = 'test';
  else if (PM_LIFECYCLE.has(verb.value)) script = verb.value;
  else if (PM_RUN.has(verb.value)) {
    const named = args.slice(i + 1).find((w) => !w.value.startsWith('-'));
    script = named && !named.dynamic ? named.value : null;
  }
  if (script === null) return null;
  const shown = (script === 'test' && PM_TEST.has(verb.value)) || PM_LIFECYCLE.has(verb.value) ? `${pm} ${verb.value}` : `${pm} run ${script}`;
  return {
    id: 'package-script',
    shown,
    args: args.slice(i + 1),
    target: script,
    definitions: [],
    subdir,
    runsTests: /^tests?(?:$|[:_-])/.test(script),
    ...(workspaces ? { workspaces } : {}),
  };
}

function makeCall(name: string, args: readonly Word[]): RunnerCall {
  const { definitions, subdir, target } = makeOptions(args);
  const shown = target === null ? name : `${name} ${target}`;
  return { id: 'make', shown, args, target, definitions, subdir, runsTests: target !== null && TEST_TARGETS.has(target) };
}

/** Whether the arguments include one of these flags (`--passWithNoTests`, `--passWithNoTests=true`). */
export function hasFlag(args: readonly Word[], flags: readonly string[]): boolean {
  return args.some((w) => flags.some((f) => w.value === f || (w.value.startsWith(f + '=') && !/=(?:false|0)$/.test(w.value))));
}
