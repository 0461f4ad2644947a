// The files a program reads by itself from the folder it runs in, which decide what it runs:
// `npm test` runs what package.json says (and .npmrc may give it another shell), `make` reads
// its makefile, pytest its conftest.py, `ninja` build.ninja, `python3 -m pdb` .pdbrc, `perl -d`
// .perldb, `pip install .` setup.py. A CHECK names none of them, yet an edit to one runs
// unasked (round-15 M2 and noise: the screen was quiet where the most unbound code runs).
// Each file is relative to the folder the program runs in; the caller names those that exist
// (unbound-scripts.ts namedFiles). Pure.
import { posix } from 'node:path';
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { RUNNER_INFO, runnerOf } from './runners.js';
import type { SimpleCommand } from './shell-list.js';

export interface ImplicitFiles {
  /** The folder they are read from, relative to the command's ('.' for its own). */
  dir: string;
  files: string[];
}

const ESLINT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.json', '.eslintrc.yml', '.eslintrc.yaml', '.eslintrc'];
const PYTHON_BUILD = ['setup.py', 'pyproject.toml', 'setup.cfg'];

/** Programs, and what they read by themselves (beyond runners.ts's test and task runners). */
const READS_BY_ITSELF: Record<string, (args: readonly string[]) => string[]> = {
  ninja: (args) => (args.some((a) => a === '-f' || a.startsWith('-f')) ? [] : ['build.ninja']),
  tsc: (args) => (args.some((a) => a === '-p' || a === '--project' || a.startsWith('--project=')) ? [] : ['tsconfig.json']),
  eslint: () => ESLINT_CONFIGS,
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
};

/** What each command of the CHECK reads by itself, by the folder it reads it from. */
export function implicitFiles(cmd: SimpleCommand): ImplicitFiles[] {
  const found: ImplicitFiles[] = [];
  const runner = runnerOf(cmd);
  if (runner !== null) {
    const dir = runner.subdir === null ? '.' : posix.normalize(runner.subdir);
    const files = [...RUNNER_INFO[runner.id].definitions, ...runner.definitions];
    // npm reads .npmrc beside package.json: it can set the shell of every script.
    if (runner.id === 'package-script') files.push('.npmrc', '.yarnrc', '.yarnrc.yml', 'pnpm-workspace.yaml');
    found.push({ dir, files });
  }
  const words = unwrapped(withoutKeywords(cmd));
  const name = programName(words[0]);
  if (name === null) return found;
  const args = words.slice(1).map((w) => (w.dynamic ? '' : w.value));
  const base = name.replace(/^(python|pypy|perl)[0-9][0-9.]*$/, '$1');
  if (Object.hasOwn(READS_BY_ITSELF, base)) found.push({ dir: '.', files: READS_BY_ITSELF[base]!(args) });
  // python3 -m pdb reads .pdbrc, perl -d reads .perldb, from the working folder: both run code.
  if (/^(?:python[0-9.]*|pypy[0-9.]*)$/.test(name)) {
    const m = args.indexOf('-m');
    if (m !== -1 && args[m + 1] === 'pdb') found.push({ dir: '.', files: ['.pdbrc'] });
    if (m !== -1 && args[m + 1] === 'pip') found.push({ dir: '.', files: READS_BY_ITSELF.pip!(args.slice(m + 2)) });
  }
  if (base === 'perl' && args.some((a) => /^-[A-Za-z]*d/.test(a) && !a.startsWith('--'))) found.push({ dir: '.', files: ['.perldb', 'perl5db.pl'] });
  return found.filter((f) => f.files.length > 0);
}
