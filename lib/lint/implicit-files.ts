// The files a program reads by itself from the folder it runs in, which decide what it runs:
// `npm test` runs what package.json says (and .npmrc may give it another shell), `make` reads
// its makefile, pytest its conftest.py, `ninja` build.ninja, `python3 -m pdb` .pdbrc, `perl -d`
// .perldb, `pip install .` setup.py. A CHECK names none of them, yet an edit to one runs
// unasked (round-15 M2 and noise: the screen was quiet where the most unbound code runs).
// What they name in turn is read too: an npm script's commands (and its pre and post), a
// makefile's includes and recipes, a configuration's `extends` and setup files (round 16 H2).
// Each file is relative to the folder the program runs in; the caller names those that exist
// (named-files.ts). Pure.
import { posix } from 'node:path';
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { makeOptions } from './make-options.js';
import { RUNNER_INFO, runnerOf } from './runners.js';
import type { SimpleCommand } from './shell-list.js';

export interface ImplicitFiles {
  /** The folder they are read from, relative to the command's ('.' for its own). */
  dir: string;
  /** Files it reads by itself, where they exist. */
  files: string[];
  /** Shell patterns of the files it finds by itself (the tests it discovers), from `dir`. */
  patterns: string[];
  /** Whether the files' text names more files it reads or runs (a makefile, a configuration). */
  scan: boolean;
  /** Whether they are build files (make, ninja) whose variables and folders the text does not resolve. */
  build: boolean;
  /** The scripts of `dir`'s package.json it runs (npm: pre<name>, <name>, post<name>). */
  scripts: string[];
  /** Why what it runs cannot be read from here (`npm test --workspaces`), or null. */
  unread: string | null;
}

const ESLINT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.json', '.eslintrc.yml', '.eslintrc.yaml', '.eslintrc'];
const MOCHA_CONFIGS = ['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.json', '.mocharc.jsonc', '.mocharc.yml', '.mocharc.yaml'];
const PYTHON_BUILD = ['setup.py', 'pyproject.toml', 'setup.cfg'];
/** What `node --test` runs when it is given no file (Node 20 to 24). */
const NODE_TEST_DEFAULT = ['**/*.test.{js,mjs,cjs}', '**/*-test.{js,mjs,cjs}', '**/*_test.{js,mjs,cjs}', '**/test-*.{js,mjs,cjs}', '**/test.{js,mjs,cjs}', '**/test/**/*.{js,mjs,cjs}'];
/** What pytest collects and loads when it searches the folder. */
const PYTEST_FOUND = ['**/conftest.py', '**/test_*.py', '**/*_test.py'];

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** Programs, and what they read by themselves (beyond runners.ts's test and task runners). */
const READS_BY_ITSELF: Record<string, (args: readonly string[]) => string[]> = {
  ninja: (args) => (args.some((a) => a === '-f' || a.startsWith('-f')) ? [] : ['build.ninja']),
  // `tsc -p .` reads ./tsconfig.json; `-p cfg/x.json` that file (round-17).
  tsc: (args) => {
    // `tsc -b a b` builds the projects given (the folder's tsconfig.json without one: round-19 T2).
    if (args.includes('-b') || args.includes('--build')) {
      const projects = args.filter((a) => a !== '' && !a.startsWith('-'));
      return (projects.length > 0 ? projects : ['.']).flatMap((p) => [posix.normalize(p), posix.join(p, 'tsconfig.json')]);
    }
    // tsc reads a backslash as a folder separator (`tsc -p sub\\tsconfig.json`: round-20 G4).
    const project = optionValue(args, ['-p', '--project'])?.replace(/\\/g, '/') ?? null;
    return project === null ? ['tsconfig.json'] : [posix.normalize(project), posix.join(project, 'tsconfig.json')];
  },
  eslint: () => ESLINT_CONFIGS,
  mocha: () => [...MOCHA_CONFIGS, 'package.json'],
  pip: (args) => (args.includes('install') && args.some((a) => a === '.' || a === './' || a === '-e') ? PYTHON_BUILD : []),
  pip3: (args) => READS_BY_ITSELF.pip!(args),
  tox: () => ['tox.ini', ...PYTHON_BUILD],
  nox: () => ['noxfile.py'],
  rake: () => ['Rakefile', 'rakefile', 'Rakefile.rb'],
  gradle: () => ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
  mvn: () => ['pom.xml'],
  cmake: () => ['CMakeLists.txt'],
  just: () => ['justfile', 'Justfile', '.justfile'],
  task: () => ['Taskfile.yml', 'Taskfile.yaml'],
  deno: () => ['deno.json', 'deno.jsonc'],
  bun: () => ['bunfig.toml', 'package.json'],
  // npm install, ci, start, stop, pack, version…: lifecycle scripts of package.json (round-17).
  npm: () => ['package.json', '.npmrc'],
  pnpm: () => ['package.json', '.npmrc', 'pnpm-workspace.yaml'],
  yarn: () => ['package.json', '.yarnrc', '.yarnrc.yml'],
  // prove runs t/*.t with no operand and reads .proverc, which may set --exec (round-17).
  prove: () => ['.proverc'],
  // Task runners whose tasks are commands in a file of the repository (round-21 F2).
  composer: () => ['composer.json'],
  pdm: () => ['pyproject.toml', 'pdm.toml'],
  poe: () => ['pyproject.toml', 'poe_tasks.toml', 'poe_tasks.yaml', 'poe_tasks.json'],
  hatch: () => ['pyproject.toml', 'hatch.toml'],
  invoke: () => ['tasks.py', 'tasks/__init__.py', 'invoke.yaml', 'invoke.yml', 'invoke.json', 'invoke.py'],
  inv: () => READS_BY_ITSELF.invoke!([]),
  'pre-commit': () => ['.pre-commit-config.yaml', '.pre-commit-config.yml'],
  // mise also runs file tasks: `mise run test:unit` runs mise-tasks/test/unit (round-22 F2).
  mise: (args) => ['mise.toml', '.mise.toml', 'mise.local.toml', '.mise.local.toml', '.config/mise.toml', '.config/mise/config.toml', ...miseTaskFiles(args)],
  lefthook: () => ['lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml', 'lefthook-local.yml', '.lefthook-local.yml', 'lefthook.json', 'lefthook.toml'],
  // rspec reads .rspec (its options: --require spec_helper loads spec/spec_helper.rb).
  rspec: () => ['.rspec', '.rspec-local', 'spec/spec_helper.rb', 'spec/rails_helper.rb'],
};

const MISE_TASK_DIRS = ['mise-tasks', '.mise-tasks', '.mise/tasks', 'mise/tasks', '.config/mise/tasks'];

/** The files a `mise run TASK` (or `mise r TASK`) may run as a file task. */
function miseTaskFiles(args: readonly string[]): string[] {
  const words = args.filter((a) => a !== '' && !a.startsWith('-'));
  const at = words[0] === 'tasks' ? 1 : 0;
  if (words[at] !== 'run' && words[at] !== 'r') return [];
  const task = words[at + 1];
  if (task === undefined || task.includes('..')) return [];
  return MISE_TASK_DIRS.map((d) => `${d}/${task.replace(/:/g, '/')}`);
}

const entry = (dir: string, files: string[], more: Partial<ImplicitFiles> = {}): ImplicitFiles => ({ dir, files, patterns: [], scan: true, build: false, scripts: [], unread: null, ...more });

/** The value of `-C DIR`, `--directory=DIR` and the like among `args`, or null. */
function optionValue(args: readonly string[], names: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (names.includes(a)) return args[i + 1] || null;
    const eq = a.indexOf('=');
    if (eq !== -1 && names.includes(a.slice(0, eq))) return a.slice(eq + 1) || null;
  }
  return null;
}

/** What each command of the CHECK reads by itself, by the folder it reads it from. */
export function implicitFiles(cmd: SimpleCommand): ImplicitFiles[] {
  const found: ImplicitFiles[] = [];
  const runner = runnerOf(cmd);
  const words = unwrapped(withoutKeywords(cmd));
  const args = words.slice(1).map((w) => (w.dynamic ? '' : w.value));
  if (runner !== null) {
    const dir = runner.subdir === null ? '.' : posix.normalize(runner.subdir);
    // make -f FILE reads FILE, not also the default makefiles (round-20 G6).
    const defaults = runner.id === 'make' && runner.definitions.length > 0 ? [] : RUNNER_INFO[runner.id].definitions;
    const files = [...defaults, ...runner.definitions];
    if (runner.id === 'package-script') {
      // npm reads .npmrc beside package.json (it can set the shell of every script), and runs
      // the script with its pre and post scripts, in the workspace -w names.
      const name = runner.target ?? 'test';
      const scripts = [`pre${name}`, name, `post${name}`];
      // Without a restart script, npm restart runs stop and then start.
      if (name === 'restart' && runner.shown.endsWith(' restart')) scripts.push('prestop', 'stop', 'poststop', 'prestart', 'start', 'poststart');
      const config = ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', 'pnpm-workspace.yaml'];
      const workspace = optionValue(args, ['-w', '--workspace']);
      const every = args.some((a) => a === '--workspaces' || a === '-ws' || a === '--filter' || a.startsWith('--filter=') || a === '-r' || a === '--recursive');
      found.push(entry(dir, config, { scan: false, scripts, unread: every ? 'the scripts of every workspace' : null }));
      if (workspace !== null) found.push(entry(posix.join(dir, workspace), ['package.json', '.npmrc'], { scan: false, scripts }));
    } else {
      // node --test with no file runs the test files it finds; pytest loads every conftest.py.
      const given = runner.args.some((w) => !w.dynamic && !w.value.startsWith('-'));
      const patterns = runner.id === 'node-test' && !given ? NODE_TEST_DEFAULT : runner.id === 'pytest' ? (given ? ['**/conftest.py'] : PYTEST_FOUND) : [];
      found.push(entry(dir, files, { patterns, build: runner.id === 'make', unread: runner.id === 'make' ? makeOptions(runner.args).unread : null }));
    }
  }
  const name = programName(words[0]);
  if (name === null) return found;
  const base = name.replace(/^(python|pypy|perl)[0-9][0-9.]*$/, '$1');
  // `npm test`, `yarn run build`: the scripts it runs were read above, by name; package.json's
  // other scripts and its bin are not run, so its text names nothing more (round-31b F8).
  // Other verbs (install, ci, pack) run lifecycle scripts: the whole text is read for those.
  const scriptRun = runner?.id === 'package-script' && PACKAGE_MANAGERS.has(base);
  if (Object.hasOwn(READS_BY_ITSELF, base)) {
    // ninja -C build reads build/build.ninja.
    const dir = base === 'ninja' ? (optionValue(args, ['-C']) ?? '.') : '.';
    found.push(entry(dir, READS_BY_ITSELF[base]!(args), { build: base === 'ninja', scan: !scriptRun }));
  }
  if (base === 'python' || base === 'pypy') {
    const m = args.indexOf('-m');
    const module = m === -1 ? null : args[m + 1];
    // python3 -m pdb reads .pdbrc from the working folder: it runs code.
    if (module === 'pdb') found.push(entry('.', ['.pdbrc'], { scan: false }));
    if (module === 'pip') found.push(entry('.', READS_BY_ITSELF.pip!(args.slice(m + 2))));
    if (module === 'unittest') {
      const rest = args.slice(m + 2);
      // Positional words, without the values of -s, -p and -t (`discover -p 'chk*.py'`: round-17).
      const operands = rest.filter((a, i) => !a.startsWith('-') && !['-s', '-p', '-t', '--start-directory', '--pattern', '--top-level-directory'].includes(rest[i - 1] ?? ''));
      // Bare, or `discover`: it imports test*.py under the start folder, and the packages from the top down to it.
      if (operands.length === 0 || operands[0] === 'discover') {
        const start = optionValue(rest, ['-s', '--start-directory']) ?? operands[1] ?? '.';
        const pattern = optionValue(rest, ['-p', '--pattern']) ?? operands[2] ?? 'test*.py';
        const top = optionValue(rest, ['-t', '--top-level-directory']) ?? operands[3] ?? start;
        const inits = packagesBetween(top, start).map((d) => (d === '.' ? '__init__.py' : `${d}/__init__.py`));
        found.push(entry(start, [], { patterns: [`**/${pattern}`, '**/__init__.py'], scan: false }), entry('.', inits, { scan: false }));
      }
    }
  }
  // eslint --rulesdir loads every rule module in the folder (round-17).
  if (base === 'eslint') {
    const rules = optionValue(args, ['--rulesdir']);
    if (rules !== null) found.push(entry(rules, [], { patterns: ['**/*.{js,cjs,mjs}'], scan: false }));
  }
  // Bare prove runs t/*.t (-r: below too).
  if (base === 'prove' && !args.some((a) => a !== '' && !a.startsWith('-'))) found.push(entry('.', [], { patterns: ['t/**/*.t'], scan: false }));
  // perl -d reads .perldb from the working folder.
  if (base === 'perl' && args.some((a) => /^-[A-Za-z]*d/.test(a) && !a.startsWith('--'))) found.push(entry('.', ['.perldb', 'perl5db.pl'], { scan: false }));
  return found.filter((f) => f.files.length > 0 || f.patterns.length > 0 || f.scripts.length > 0 || f.unread !== null);
}

/** The folders from `top` down to `start` (both included), when `start` lies under `top`. */
function packagesBetween(top: string, start: string): string[] {
  const t = posix.normalize(top);
  const s = posix.normalize(start);
  if (t === s) return [s];
  const rel = posix.relative(t, s);
  if (rel.startsWith('..') || posix.isAbsolute(rel)) return [s];
  const parts = rel.split('/');
  return [t, ...parts.map((_, i) => posix.join(t, ...parts.slice(0, i + 1)))];
}
