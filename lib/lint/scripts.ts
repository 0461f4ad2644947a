// Which repository scripts a CHECK runs (`node scripts/x.mjs`, `./tools/run.sh`,
// `npx tsx a.ts`, `deno run b.ts`, `python c.py`, `. ./env.sh`, `source x.sh`, `sh < x.sh`,
// `cat x.sh | sh`, and the same inside `if … fi` or `while … done`), as repository-relative
// paths. Inline code (-e, -c), modules (python -m) and package scripts (npm run) are not
// files and are skipped. Pure: resolution is lexical, against the gate's working directory.
import { posix } from 'node:path';
import { isBoundVariable } from '../oracle/bound-env.js';
import { programName, unwrapped, withoutKeywords } from './commands.js';
import type { ShellList, SimpleCommand } from './shell-list.js';
import type { Word } from './shell-words.js';
import { makeOptions } from './make-options.js';

interface Interpreter {
  /** Options after which there is no script file (inline code, a module). */
  inline: (option: string) => boolean;
  /** Options whose value is code loaded before the script: a file when written as a relative path (`node -r ./pre.js`), else a package. */
  preloads?: (option: string) => boolean;
  /** Options after which every operand is a file that runs (`node --test a.test.js b.test.js`); none: files it finds itself. */
  runsEach?: (option: string) => boolean;
  /** Options after which the script is read from standard input. */
  stdin: (option: string) => boolean;
  /** Options that take the next word as their value. */
  valued: (option: string) => boolean;
  /** Options whose value is a program file (`awk -f x.awk`, `sed -f x.sed`); several may be given. */
  scriptFile?: (option: string) => boolean;
  /** The first operand is program text, not a file, unless a scriptFile option was given (awk, sed). */
  operandIsCode?: boolean;
  /** Operands are names, not files (make's targets): only scriptFile options name files. */
  operandsAreNames?: boolean;
  /**
   * Options that take no value (the rest of the dashed words are taken to take one, or
   * not): after an option in neither list, the next word may be its value or the script,
   * and both are named.
   */
  flags?: (option: string) => boolean;
  /** Modules that run a script given after their own options (`python3 -m cProfile x.py`), with how to read those. */
  moduleRunners?: Record<string, Interpreter>;
  /** Single-letter options that may be grouped (`-BX`): which letters start inline code, which take a value. */
  groups?: { inline: string; valued: string };
  /** Options after which the script file is only read (a syntax check), not run. */
  readOnly?: (option: string) => boolean;
  /** A first word to skip (`deno run`), required when `requiredVerb`. */
  verb?: string;
  requiredVerb?: boolean;
  /**
   * Whether the first operand may name something other than a file (`bun run test` runs a
   * package script): it then counts only when it looks like a path. For the others it is
   * always the program (`sh verify`, `node .`, `python3 pkg`).
   */
  namesScripts?: boolean;
}

const oneOf = (...flags: string[]) => {
  const set = new Set(flags);
  return (option: string) => set.has(option);
};

/** Node options known to take no value (the rest are judged by flags() below). */
const NODE_FLAGS = new Set([
  '--test', '--watch', '--check', '--interactive', '-i', '--version', '-v', '--help', '-h', '--no-warnings', '--no-deprecation', '--throw-deprecation',
  '--trace-deprecation', '--trace-warnings', '--pending-deprecation', '--enable-source-maps', '--preserve-symlinks', '--preserve-symlinks-main', '--cpu-prof',
  '--heap-prof', '--no-addons', '--permission', '--experimental-permission', '--test-only', '--test-update-snapshots', '--test-force-exit',
  '--experimental-test-coverage', '--experimental-strip-types', '--experimental-transform-types', '--no-experimental-strip-types', '--watch-preserve-output',
  '--report-on-fatalerror', '--report-on-signal', '--report-uncaught-exception', '--report-compact', '--insecure-http-parser', '--force-fips', '--enable-fips',
  '--jitless', '--no-force-async-hooks-checks', '--no-global-search-paths', '--node-memory-debug', '--prof-process', '--completion-bash', '--v8-options',
  '--expose-gc', '--zero-fill-buffers', '--abort-on-uncaught-exception', '--disallow-code-generation-from-strings', '--frozen-intrinsics', '--inspect',
  '--inspect-brk', '--inspect-wait', '--no-extra-info-on-fatal-exception', '--use-bundled-ca', '--use-openssl-ca', '--use-system-ca', '--experimental-vm-modules',
  '--experimental-require-module', '--no-experimental-require-module', '--experimental-detect-module', '--no-experimental-detect-module', '--experimental-wasm-modules',
  '--experimental-import-meta-resolve', '--experimental-network-imports', '--experimental-print-required-tla', '--experimental-websocket', '--no-experimental-websocket',
  '--experimental-eventsource', '--experimental-sqlite', '--no-experimental-global-navigator', '--experimental-shadow-realm', '--experimental-addon-modules',
  '--build-snapshot', '--trace-uncaught', '--trace-exit', '--trace-sigint', '--trace-sync-io', '--trace-tls', '--trace-atomics-wait', '--verify-base-objects',
  '--entry-url', '--experimental-global-customevent', '--experimental-global-webcrypto', '--experimental-fetch', '--no-experimental-fetch', '--openssl-legacy-provider',
  '--openssl-shared-config', '--tls-max-v1.2', '--tls-max-v1.3', '--tls-min-v1.0', '--tls-min-v1.1', '--tls-min-v1.2', '--tls-min-v1.3', '--security-revert',
]);

const NODE: Interpreter = {
  inline: oneOf('-e', '--eval', '-p', '--print'),
  // node -pe code: -p and -e in one word.
  groups: { inline: 'ep', valued: '' },
  runsEach: oneOf('--test'),
  // (A test reporter or global setup given as a path is code node loads too.)
  preloads: oneOf('-r', '--require', '--import', '--loader', '--experimental-loader', '--test-reporter', '--test-global-setup'),
  stdin: oneOf('-'),
  valued: oneOf(
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
    '-C',
    '--conditions',
    '--input-type',
    '--env-file',
    '--tsconfig',
    '--test-reporter',
    '--test-reporter-destination',
    '--test-name-pattern',
    '--test-skip-pattern',
    '--test-concurrency',
    '--test-timeout',
    '--test-shard',
    '--test-isolation',
    '--test-coverage-include',
    '--test-coverage-exclude',
    '--test-global-setup',
    '--watch-path',
    '--title',
    '--disable-warning',
    '--unhandled-rejections',
    '--env-file-if-exists',
    '--inspect-port',
    '--debug-port',
    '--inspect-publish-uid',
    '--redirect-warnings',
    '--cpu-prof-dir',
    '--cpu-prof-interval',
    '--cpu-prof-name',
    '--heap-prof-dir',
    '--heap-prof-interval',
    '--heap-prof-name',
    '--diagnostic-dir',
    '--report-dir',
    '--report-directory',
    '--report-filename',
    '--report-signal',
    '--heapsnapshot-signal',
    '--heapsnapshot-near-heap-limit',
    '--icu-data-dir',
    '--openssl-config',
    '--tls-cipher-list',
    '--tls-keylog',
    '--trace-event-categories',
    '--trace-event-file-pattern',
    '--secure-heap',
    '--secure-heap-min',
    '--snapshot-blob',
    '--localstorage-file',
    '--max-http-header-size',
    '--experimental-sea-config',
    '--experimental-default-type',
    '--es-module-specifier-resolution',
    '--experimental-policy',
    '--policy-integrity',
    '--allow-fs-read',
    '--allow-fs-write',
    '--use-largepages',
    '--dns-result-order',
    '--stack-trace-limit',
    '--run',
    '--test-coverage-branches',
    '--test-coverage-functions',
    '--test-coverage-lines',
  ),
  // Every other option is either of these or taken for one that may have a value.
  flags: (o) => o.includes('=') || /^-[A-Za-z]$/.test(o) ? !['-r', '-C', '-e', '-p'].includes(o) : NODE_FLAGS.has(o) || /^--(?:no-)?(?:experimental|trace|inspect(?:-brk|-wait)?$|enable|frozen|pending|preserve|prof$|throw|abort|zero|expose|harmony|allow-(?:addons|child-process|wasi|worker)$)/.test(o),
  readOnly: oneOf('-c', '--check'),
};
// After `-m cProfile`, `-m profile`, `-m trace`, `-m pdb`: their own options, then the script.
const PYTHON_RUNNER: Interpreter = {
  inline: oneOf('-m', '--module'),
  stdin: oneOf(),
  valued: oneOf('-o', '--outfile', '-s', '--sort', '-f', '--file', '-C', '--coverdir', '--ignore-module', '--ignore-dir'),
};
// pdb -c COMMAND (trace's -c is --count, a flag).
const PYTHON_PDB: Interpreter = { ...PYTHON_RUNNER, valued: oneOf('-c', '--command') };
const PYTHON: Interpreter = {
  inline: oneOf('-c', '-m'),
  stdin: oneOf('-'),
  valued: oneOf('-W', '-X', '--check-hash-based-pycs'),
  groups: { inline: 'cm', valued: 'WX' },
  moduleRunners: { cProfile: PYTHON_RUNNER, profile: PYTHON_RUNNER, trace: PYTHON_RUNNER, pdb: PYTHON_PDB },
};
// sh -c, bash -lc: the command is the argument; sh -s, sh -: it is read from stdin.
// -o / -euo take an option name (pipefail) as their value.
const SHELL: Interpreter = {
  inline: (o) => /^-[A-Za-z]*$/.test(o) && o.includes('c'),
  stdin: (o) => o === '-' || (/^-[A-Za-z]*$/.test(o) && o.includes('s')),
  valued: (o) => /^[-+][A-Za-z]*[oO]$/.test(o) || o === '--rcfile' || o === '--init-file',
  // sh -n: read the commands, execute none.
  readOnly: (o) => /^-[A-Za-z]*$/.test(o) && o.includes('n'),
};

// awk 'program' files, or awk -f prog.awk files (-e/--source add program text).
// gawk -E file (--exec) and -i file (--include) are program files as well.
const AWK: Interpreter = { inline: oneOf(), stdin: oneOf(), valued: oneOf('-v', '-F', '--assign', '--field-separator', '-e', '--source', '-l', '--load'), scriptFile: oneOf('-f', '--file', '-E', '--exec', '-i', '--include'), operandIsCode: true };

// sed 's/a/b/' files, or sed -f x.sed files (-e adds program text).
const SED: Interpreter = { inline: oneOf(), stdin: oneOf(), valued: oneOf('-e', '--expression', '-l', '--line-length'), scriptFile: oneOf('-f', '--file'), operandIsCode: true };

const INTERPRETERS: Record<string, Interpreter> = {
  node: NODE,
  nodejs: NODE,
  tsx: NODE,
  'ts-node': NODE,
  'ts-node-esm': NODE,
  'vite-node': NODE,
  esno: NODE,
  bun: { ...NODE, verb: 'run', namesScripts: true },
  deno: { inline: oneOf(), stdin: oneOf('-'), valued: oneOf('-c', '--config', '--import-map', '--lock', '--cert', '--location', '--seed'), verb: 'run', requiredVerb: true, namesScripts: true },
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  ruby: { inline: oneOf('-e'), stdin: oneOf('-'), valued: oneOf('-I', '-r', '-C'), readOnly: oneOf('-c'), groups: { inline: 'e', valued: 'IrC' } },
  perl: { inline: oneOf('-e', '-E'), stdin: oneOf('-'), valued: oneOf('-I', '-M'), groups: { inline: 'eE', valued: 'IMm' } },
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  sed: SED,
  gsed: SED,
  // make -f x.mk: the makefile's recipes run (a plain `make` reads ./Makefile, as npm reads package.json).
  make: { inline: oneOf(), stdin: oneOf(), valued: oneOf('-C', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '--new-file', '--assume-new', '--assume-old'), scriptFile: oneOf('-f', '--file', '--makefile'), operandsAreNames: true },
  gmake: { inline: oneOf(), stdin: oneOf(), valued: oneOf('-C', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '--new-file', '--assume-new', '--assume-old'), scriptFile: oneOf('-f', '--file', '--makefile'), operandsAreNames: true },
  tclsh: { inline: oneOf(), stdin: oneOf('-'), valued: oneOf('-encoding') },
  wish: { inline: oneOf(), stdin: oneOf('-'), valued: oneOf('-encoding') },
  php: { inline: oneOf('-r'), stdin: oneOf(), valued: oneOf('-c', '-d', '-z'), scriptFile: oneOf('-f') },
  lua: { inline: oneOf('-e'), stdin: oneOf('-'), valued: oneOf('-l') },
  Rscript: { inline: oneOf('-e'), stdin: oneOf(), valued: oneOf() },
  sh: SHELL,
  bash: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  mksh: SHELL,
  ash: SHELL,
};

/**
 * Programs known to run none of the files they are given: they print, compare, move, hash or
 * format them (a word naming an interpreter among their arguments is data too: `grep node x`).
 */
const RUNS_NO_FILE: ReadonlySet<string> = new Set([
  'echo', 'printf', 'test', '[', '[[', 'grep', 'egrep', 'fgrep', 'rg', 'cat', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut',
  'tr', 'diff', 'cmp', 'ls', 'mkdir', 'rmdir', 'rm', 'cp', 'mv', 'touch', 'ln', 'chmod', 'chown', 'true', 'false', 'exit',
  'set', 'export', 'unset', 'cd', 'pwd', 'sleep', 'date', 'tee', 'jq', 'stat', 'which', 'type', 'basename', 'dirname',
  'realpath', 'readlink', 'seq', 'printenv', 'id', 'whoami', 'uname', 'du', 'df', 'file', 'sha256sum', 'sha1sum', 'md5sum',
  'base64', 'od', 'xxd', 'hexdump', 'wait', 'kill', 'return', 'local', 'readonly', 'declare', 'typeset', 'shift', 'read',
  'sha512sum', 'sha224sum', 'sha384sum', 'b2sum', 'cksum', 'strings', 'nl', 'paste', 'join', 'comm', 'column', 'fold', 'fmt',
  'rev', 'tac', 'expand', 'unexpand', 'iconv', 'dos2unix', 'unix2dos', 'less', 'more', 'truncate', 'install', 'split', 'csplit',
  'zip', 'unzip', 'gzip', 'gunzip', 'zcat', 'bzip2', 'xz', 'zstd', 'patch', 'colordiff', 'wdiff', 'sdiff', 'diff3', 'yq', 'xmllint',
  // Linters and formatters read the files they are given (their configuration is another matter: lint's runner rules).
  'shellcheck', 'shfmt', 'tsc', 'eslint', 'prettier', 'stylelint', 'biome', 'black', 'ruff', 'flake8', 'pylint', 'mypy', 'pyright',
  'isort', 'gofmt', 'goimports', 'rustfmt', 'clang-format', 'yamllint', 'markdownlint', 'markdownlint-cli2', 'cspell', 'codespell', 'hadolint',
]);

/** Whether `name` is a program known to run none of the files it is given. */
export function runsNoFile(name: string): boolean {
  return RUNS_NO_FILE.has(name);
}

/**
 * A file of code that a program the reading does not know may run when given it (`java
 * T.java`, `cmake -P x.cmake`, `vim -es -S x.vim`, `sqlite3 db < x.sql`, `go run m.go`,
 * `bats t.bats`, `rake -f Rakefile`): by its extension, or the name of a build file. The
 * list of interpreters above has no end (round-13 H3): what any other program is given that
 * reads as code is named too, so the screen says more than it must, never less.
 */
const CODE_FILE =
  /\.(?:[cm]?[jt]sx?|py[wc]?|rb|pl|pm|t|sh|bash|zsh|ksh|fish|nu|xsh|ps1|psm1|bat|cmd|php|lua|tcl|exp|awk|sed|ed|vim|el|r|R|jl|java|kt|kts|groovy|gradle|scala|sc|clj|cljs|go|rs|c|cc|cpp|cxx|m|swift|cs|csx|fsx|vb|vbs|sql|cmake|m4|mk|bats|ex|exs|erl|hs|ml|nim|zig|dart|raku|rakumod|p6|coffee|wasm|so|dylib|jar|class|scm|rkt|lisp|applescript|scpt|ipynb|just|star|bzl)$/;
const BUILD_FILE = /^(?:[Mm]akefile|GNUmakefile|Rakefile|[Jj]ustfile|Snakefile|SConstruct|SConscript|Jenkinsfile|Vagrantfile|Taskfile\.ya?ml|CMakeLists\.txt|meson\.build|BUILD(?:\.bazel)?|WORKSPACE|Earthfile|pom\.xml|build\.xml|Gemfile|Brewfile|Tiltfile|Dangerfile|Fastfile|Podfile|Guardfile|Procfile)$/;

/** Whether a word given to a program reads as a file of code it may run (not a URL, a pattern or Go's `./...`). */
export function readsAsCodeFile(value: string): boolean {
  if (value === '' || value.includes('://') || /[*?[\]{}]/.test(value) || value.includes('...')) return false;
  const base = value.slice(value.lastIndexOf('/') + 1);
  return CODE_FILE.test(base) || BUILD_FILE.test(base);
}

/** The files of code a program the reading does not know is given: its operands, option values and standard input. */
function filesGivenTo(cmd: SimpleCommand | null, args: readonly Word[]): ScriptSource {
  const paths: string[] = [];
  const add = (v: string) => {
    if (readsAsCodeFile(v) && !paths.includes(v)) paths.push(v);
  };
  for (const w of args) {
    if (w.dynamic || w.value === '--') continue;
    const v = w.value;
    // --config=./x.js, -S=x.vim; a dashed word alone is an option (its value is the next word, read as one).
    if (v.startsWith('-')) {
      const eq = v.indexOf('=');
      if (eq !== -1) add(v.slice(eq + 1));
      continue;
    }
    add(v.includes('=') && !v.includes('/') ? v.slice(v.indexOf('=') + 1) : v);
  }
  const input = cmd === null ? null : stdinFile(cmd);
  if (input !== null) add(input);
  return paths.length > 0 ? { kind: 'file', paths, runs: true } : null;
}

/** Whether `name` is an interpreter whose script argument the reading knows. */
export function isInterpreter(name: string): boolean {
  return interpreterOf(name) !== undefined;
}

/** `python3.11`, `pypy3.10`, `ruby3.2`, `perl5.36`: a versioned name is the interpreter it names. */
function interpreterOf(name: string): Interpreter | undefined {
  // Own keys only: a program named `toString` is no interpreter.
  const base = name.replace(/^(python|pypy|ruby|perl)[0-9][0-9.]*$/, '$1');
  return Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name] : Object.hasOwn(INTERPRETERS, base) ? INTERPRETERS[base] : undefined;
}

/** The working directory of a gate, repository-relative; null when it lies outside the repository. */
export function gateWorkdir(cwd: string | null): string | null {
  // CWD: is relative to the repository root, for discovered and named ledgers alike (as oracle/resolve.ts does).
  const dir = posix.normalize(posix.join('.', cwd ?? '.'));
  return dir === '..' || dir.startsWith('../') ? null : dir;
}

/** Deeper than this, a `cd` chain (`cd x; cd x; …`) is no longer followed: each step would copy the whole path. */
const MAX_TRACKED_DIR = 1024;

/**
 * Where a script path written in a CHECK leads from a repository directory, as a repository
 * path, or null outside the repository. Lexical by default; the approval screen passes one
 * that asks the file system, as the kernel does when the script is opened (`cd tests && sh
 * ../x.sh` with `tests` a symlink). The directory itself is tracked as the shell tracks its
 * PWD: lexically (`cd tests; cd ..` is back where it started).
 */
export type PathResolver = (path: string, dir: string) => string | null;

/** `cd -L`, `cd -P`, `cd -e`, `cd --`: options, not the directory. */
const CD_OPTION = /^(?:-[LPe]+|--)$/;

/** What the walk needs to know of the environment, and whom to tell why it stopped. */
export interface WalkOptions {
  /** CDPATH is set where the CHECK runs: `cd NAME` may go to a folder CDPATH names. */
  cdpath?: boolean;
  /** Told why the walk stopped before the end (a cd it cannot follow), once. */
  onStop?: (why: string) => void;
  /** Told where the walk went on without knowing the folder for sure (after a sourced file, which may cd). */
  onUnsure?: (why: string) => void;
  /** Whether an absolute path lies in the repository (a PATH entry there chooses its code); unknown: no. */
  inRepository?: (absolute: string) => boolean;
  /** The home folder `$HOME`, `${HOME}` and `~` stand for in a PATH the CHECK sets; unknown: such an entry is taken as outside. */
  home?: string;
}

/** `set -P`, `set -o physical`: every later `cd` resolves links, which the walk does not. */
export function setsPhysical(words: readonly Word[]): boolean {
  return words.some((w, i) => /^-[A-Za-z]*P[A-Za-z]*$/.test(w.value) || (w.value === '-o' && words[i + 1]?.value === 'physical'));
}

/** `CDPATH=x`, `export CDPATH=x`: a later `cd NAME` may go to a folder CDPATH names. */
function setsCdpath(cmd: SimpleCommand, words: readonly Word[], name: string | null): boolean {
  if (cmd.assignments.some((w) => w.value.startsWith('CDPATH='))) return true;
  return (name === 'export' || name === 'readonly' || name === 'declare' || name === 'typeset' || name === 'local') && words.some((w) => /^CDPATH(=|$)/.test(w.value));
}

/** Why a `cd` cannot be followed, or the directory it leads to. */
function cdTarget(words: readonly Word[], dir: string, options: WalkOptions): { dir: string } | { stop: string } {
  let at = 1;
  let physical = false;
  while (words[at] && !words[at]!.dynamic && CD_OPTION.test(words[at]!.value)) {
    if (words[at]!.value.includes('P')) physical = true;
    at++;
  }
  const target = words[at];
  if (physical) return { stop: 'cd -P (it resolves links)' };
  if (!target) return { stop: 'a cd to $HOME' };
  if (target.dynamic) return { stop: 'a cd to a folder set at run time' };
  const v = target.value;
  if (v === '-') return { stop: 'cd -' };
  if (/[*?[]/.test(v)) return { stop: 'a cd to a pattern' };
  if (v.startsWith('/') || v.startsWith('~')) return { stop: 'a cd to an absolute path' };
  if (options.cdpath && !/^\.\.?(\/|$)/.test(v)) return { stop: 'a cd through CDPATH' };
  const next = repositoryPath(v, dir);
  if (next === null) return { stop: 'a cd out of the repository' };
  if (next.length > MAX_TRACKED_DIR) return { stop: 'a cd chain too deep to follow' };
  return { dir: next };
}

/** More folders than this that the CHECK may be in at one point, and the reading stops. */
const MAX_FOLDERS = 8;
/** Words that change the folder or the commands' meaning in ways the reading does not follow. */
const UNFOLLOWED: Record<string, string> = { pushd: 'pushd', popd: 'popd', eval: 'eval', trap: 'trap', alias: 'alias', shopt: 'shopt' };
/** Variables that make a shell run a file first or change how cd resolves (BASH_ENV=hook.sh bash x.sh). */
const STARTUP_VARIABLE = /^(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS)(?:=|$)/;
const SHELL_NAMES = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);

/** `BASH_ENV=x`, `env ENV=x sh`, `export SHELLOPTS=physical`: a shell started later runs a file or option first. */
function setsStartup(cmd: SimpleCommand): boolean {
  return cmd.assignments.some((w) => STARTUP_VARIABLE.test(w.value)) || cmd.words.some((w) => !w.dynamic && STARTUP_VARIABLE.test(w.value));
}

/** Programs whose `NAME=value` words set a variable. */
const VARIABLE_SETTERS = new Set(['env', 'export', 'declare', 'typeset', 'local', 'readonly']);
/** `NAME=…` or `NAME+=…`: the name of a variable set by a word. */
const SET_VARIABLE = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/**
 * A variable set in the CHECK itself (`NODE_OPTIONS=--require=./x.js node t.js`, `export
 * PYTHONPATH=scripts`, `env PATH=tools:$PATH run`) that chooses code a program loads or the
 * program a name runs: approvals bind these as the environment gives them (oracle/bound-env.ts),
 * not as the CHECK sets them, so the reading stops there (round-13 H1). Its name, or null.
 */
function setsCodeVariable(cmd: SimpleCommand, where: Pick<WalkOptions, 'inRepository' | 'home'> = {}): string | null {
  // (A word's value keeps `$PWD` as written: `PATH=$PWD/x:$PATH` still starts with the name.)
  // As a word, only after a program that sets it (`echo PATH=x` sets nothing).
  const words = withoutKeywords(cmd).words;
  const setter = words.findIndex((w) => VARIABLE_SETTERS.has(programName(w) ?? ''));
  for (const w of [...cmd.assignments, ...(setter === -1 ? [] : words.slice(setter + 1))]) {
    const m = SET_VARIABLE.exec(w.value);
    if (m !== null && choosesCode(m[1]!, w.value.slice(m[0].length), where)) return m[1]!;
  }
  // A name made at run time (`export "$x=…"`, `export PATH${x}=…`) or a reference to another
  // (`declare -n P=PATH`) may be PATH: the reading cannot say which (round-34 F1).
  if (setter !== -1) {
    for (const w of words.slice(setter + 1)) {
      if (/^-[A-Za-z]*n/.test(w.value) && programName(words[setter]) !== 'export') return 'a name reference (declare -n)';
      if (!w.value.startsWith('-') && /[$`]/.test(w.value.split('=')[0]!)) return COMPUTED_NAME;
    }
  }
  // Set without a `NAME=` word (round-14 H1): `for PATH in …`, `read PATH`, `printf -v PATH`,
  // `mapfile PATH`, `${PATH:=…}` (whose value the reading does not know).
  const first = programName(words[0]);
  const named = first === 'for' || first === 'select' ? words.slice(1, 2) : first !== null && READS_INTO.has(first) ? words.slice(1).filter((w) => !w.value.startsWith('-')) : [];
  for (const w of named) if (!w.dynamic && /^[A-Za-z_]\w*$/.test(w.value) && choosesCode(w.value, null)) return w.value;
  // `printf -v "$x"`, `read "$x"`: the variable is named at run time.
  if (first === 'printf') {
    const v = words.findIndex((w) => w.value === '-v');
    if (v !== -1 && /[$`]/.test(words[v + 1]?.value ?? '')) return COMPUTED_NAME;
  } else if (first !== null && READS_INTO.has(first)) {
    if (words.slice(1).some((w, i) => /[$`]/.test(w.value) && !w.value.startsWith('-') && !(words[i]?.value.startsWith('-') && i > 0))) return COMPUTED_NAME;
  }
  for (const w of [...cmd.assignments, ...cmd.words]) {
    for (const m of w.value.matchAll(DEFAULT_ASSIGNMENT)) if (choosesCode(m[1]!, null)) return m[1]!;
  }
  return null;
}

/** What setsCodeVariable says of a variable whose name is made at run time. */
const COMPUTED_NAME = 'a variable whose name is made at run time';

/** Builtins that read a value into the variables they are given. */
const READS_INTO = new Set(['read', 'mapfile', 'readarray', 'printf', 'getopts']);
/** `${NAME:=value}`, `${NAME=value}`: the variable is set where it is expanded. */
const DEFAULT_ASSIGNMENT = /\$\{([A-Za-z_]\w*):?=/g;

/**
 * Variables a CHECK may set that choose a program or code to load, beyond the ones approvals
 * bind from the environment (oracle/bound-env.ts): where programs find their configuration
 * (HOME: ~/.gitconfig, Python's usercustomize), the editors, pagers and shells programs run,
 * options tar and compressors read.
 */
const CHOOSES_PROGRAMS = new Set([
  'PATH', 'HOME', 'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'LESSOPEN', 'LESSCLOSE', 'TAR_OPTIONS', 'BZIP2', 'GZIP', 'XZ_OPT', 'ZIPOPT', 'UNZIP',
  'SHELL', 'CONFIG_SHELL', 'BROWSER', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'PROMPT_COMMAND', 'IFS',
]);
/** node options that load nothing and run nothing: set in a CHECK, they do not stop the reading. */
const INERT_NODE_OPTION = /^--(?:max-old-space-size|max-semi-space-size|stack-size|stack-trace-limit|enable-source-maps|no-warnings|no-deprecation|trace-warnings|trace-deprecation|trace-uncaught|throw-deprecation|pending-deprecation|unhandled-rejections|disable-warning|max-http-header-size|experimental-vm-modules|no-experimental-fetch|dns-result-order|use-openssl-ca|use-bundled-ca|title|test-concurrency|test-timeout)(?:=[\w.,:-]*)?$/;

/**
 * Whether setting `name` (to `value` when known) chooses code or a program: a bound variable
 * or one of the above; but not an absolute PATH of folders outside the repository or
 * `$PATH` (`PATH=/usr/local/go/bin:$PATH`: outside the repository, nothing binds those
 * either, as nothing binds /usr/bin), nor NODE_OPTIONS that load nothing (round-14 L1).
 */
function choosesCode(name: string, value: string | null, where: Pick<WalkOptions, 'inRepository' | 'home'> = {}): boolean {
  // (CDPATH is followed: a later cd through it stops the reading.)
  if (name === 'CDPATH' || !(CHOOSES_PROGRAMS.has(name) || isBoundVariable(name))) return false;
  if (value === null) return true;
  const bare = value.replace(/^(['"])(.*)\1$/, '$2');
  const outside = (e: string) => e.startsWith('/') && !/[$`\\]/.test(e) && !e.split('/').includes('..') && where.inRepository?.(posix.normalize(e)) !== true;
  if (name === 'PATH') return !bare.split(':').every((e) => e === '$PATH' || e === '${PATH}' || outside(homeExpanded(e, where.home)));
  if (name === 'HOME') return !outside(bare);
  if (name === 'NODE_OPTIONS') return !(bare !== '' && bare.split(/\s+/).every((o) => INERT_NODE_OPTION.test(o)));
  return true;
}

/**
 * A PATH entry as the shell gives it when it is plain: quotes taken out, `$HOME`, `${HOME}`
 * and `~` as the home (`PATH=$HOME/proj/cli:$PATH` is the repository when the repository
 * lies there: round-32 F1, round-33 F1). Where the home is unknown, `$HOME/x` is taken as
 * the user's folder outside, which a CHECK setting HOME would have stopped at.
 */
function homeExpanded(entry: string, home: string | undefined): string {
  const plain = /^[\w./~${}"'-]*$/.test(entry) ? entry.replace(/["']/g, '') : entry;
  const m = /^(?:\$HOME|\$\{HOME\}|~)(?=\/|$)/.exec(plain);
  if (m === null) return plain;
  return `${home ?? '/home'}${plain.slice(m[0].length)}`;
}

/** `bash --rcfile x`, `sh -i`, `bash -l`, `bash -O cdable_vars`: a shell that reads start-up files or takes options the reading does not follow. */
function startsWithOptions(words: readonly Word[]): boolean {
  if (!SHELL_NAMES.has(programName(words[0]) ?? '')) return false;
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === '--rcfile' || v === '--init-file' || v === '--login' || v === '-O' || v === '+O' || v === '--') return v !== '--';
    if (!/^[-+][A-Za-z]+$/.test(v)) return false;
    if (/[ilO]/.test(v.slice(1))) return true;
    if (/[oO]$/.test(v)) i++;
  }
  return false;
}

/** Whether `words` mention `cd` anywhere (a function body, `command cd`, `builtin cd`, after a keyword). */
function mentionsCd(cmd: SimpleCommand): boolean {
  return cmd.words.some((w) => !w.dynamic && /^(?:cd|pushd|popd)$/.test(w.value));
}

/** `cd x || exit 1`: the path where the cd failed ends there. */
function endsTheShell(cmd: SimpleCommand): boolean {
  const name = programName(unwrapped(withoutKeywords(cmd))[0]);
  return name === 'exit' || name === 'return';
}

/**
 * Visits every simple command with each repository-relative directory it may run in. A
 * literal `cd DIR` moves the directory for the commands that run only if it succeeded (joined
 * by `&&`); after a `;`, `||` or `&`, the commands may run where the `cd` left them or, had
 * it failed or not run, where it found them, and are visited for both. The reading stops,
 * and says why, where it cannot follow the shell: a `cd` to a variable, an absolute path or
 * out of the repository, `cd -`, `cd -P`, a `cd` through CDPATH, in a pipeline, in the
 * background, inside if/for/while/case or a function, or after a keyword; `pushd`, `eval`,
 * `trap`, `alias`, `set -P`. After a sourced file (which may `cd` itself) it goes on, unsure.
 */
export function walkCommands(list: ShellList, workdir: string, visit: (cmd: SimpleCommand, dir: string, previous: SimpleCommand | null) => void, options: WalkOptions = {}): void {
  let dirs = [workdir];
  // Where the commands are if the latest cd chain did not run or failed.
  let before: string[] = [];
  let cdpath = options.cdpath === true;
  const stop = (why: string) => options.onStop?.(why);
  for (let n = 0; n < list.items.length; n++) {
    const item = list.items[n]!;
    if (item.op !== null && item.op !== '&&' && before.length > 0) {
      // `cd x || exit 1; sh y`: the failed path ended; otherwise both paths go on.
      if (!(item.op === '||' && item.pipeline.length === 1 && endsTheShell(item.pipeline[0]!))) dirs = [...new Set([...dirs, ...before])];
      before = [];
      if (dirs.length > MAX_FOLDERS) return stop('more folders than the reading follows');
    }
    let previous: SimpleCommand | null = null;
    for (const cmd of item.pipeline) {
      const bare = withoutKeywords(cmd);
      const words = unwrapped(bare);
      const name = programName(words[0]);
      if (setsCdpath(cmd, words, name)) cdpath = true;
      if (name === 'cd') {
        if (list.complex || bare !== cmd) return stop('a cd inside if/for/while/case or a function');
        if (item.pipeline.length > 1) return stop('a cd in a pipeline');
        if (list.items[n + 1]?.op === '&' || (n === list.items.length - 1 && list.background)) return stop('a cd in the background');
        if (item.op === '||') return stop('a cd that runs only if a command failed');
        if (words.filter((w, i) => i > 0 && !CD_OPTION.test(w.value)).length > 1) return stop('a cd with more than one folder');
        const next: string[] = [];
        for (const dir of dirs) {
          const to = cdTarget(words, dir, { ...options, cdpath });
          if ('stop' in to) return stop(to.stop);
          next.push(to.dir);
        }
        // `a && cd x`: if a failed, neither the cd nor what hangs on it ran.
        before = [...new Set([...before, ...dirs])];
        dirs = [...new Set(next)];
        previous = cmd;
        continue;
      }
      if (name !== null && Object.hasOwn(UNFOLLOWED, name)) return stop(UNFOLLOWED[name]!);
      if (name === 'set' && setsPhysical(words)) return stop('set -P (cd resolves links)');
      if (list.complex && mentionsCd(cmd)) return stop('a cd inside if/for/while/case or a function');
      for (const dir of dirs) visit(cmd, dir, previous);
      // What the shell runs first or how its cd resolves, set here: named above, not followed past.
      if (setsStartup(cmd)) return stop('a shell start-up file or option set in the CHECK');
      const variable = setsCodeVariable(cmd, options);
      if (variable !== null) return stop(`${variable} set in the CHECK (it chooses what runs; ${variable === 'PATH' ? 'an approval binds its repository folders only where they are spelled plainly' : 'an approval binds it only as the environment gives it'})`);
      if (startsWithOptions(words)) return stop('a shell started with start-up files or options');
      if (!words[0]?.quoted && (words[0]?.value === '.' || words[0]?.value === 'source')) options.onUnsure?.('a sourced file (it may cd)');
      previous = cmd;
    }
  }
}

/**
 * Whether a command runs a program named at run time (`"$PWD/run.sh"`,
 * `sh $(pwd)/x.sh`, `. "$ENV_FILE"`): no reading of the words can say which file it is.
 */
export function runsUnnamed(command: SimpleCommand): boolean {
  const words = unwrapped(withoutKeywords(command));
  const first = words[0];
  if (!first) return false;
  if (first.dynamic) return true;
  if (!first.quoted && (first.value === '.' || first.value === 'source')) return words[1]?.dynamic === true;
  const name = programName(first);
  const spec = name === null ? undefined : interpreterOf(name);
  if (!spec) return false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w.dynamic) return true;
    if (w.value === '--') continue;
    if (w.value.startsWith('-') || w.value.startsWith('+')) {
      if (spec.inline(w.value)) return false;
      if (spec.valued(w.value)) i++;
      continue;
    }
    return false;
  }
  return false;
}

/** Repository-relative scripts the CHECK runs, in order, without duplicates. */
export function invokedScripts(list: ShellList, workdir: string, resolve: PathResolver = repositoryPath): string[] {
  return scriptFiles(list, workdir, true, resolve);
}

/** Repository-relative script files the CHECK only reads as code without running them (`node --check x.js`, `sh -n x.sh`). */
export function syntaxCheckedFiles(list: ShellList, workdir: string, resolve: PathResolver = repositoryPath): string[] {
  return scriptFiles(list, workdir, false, resolve);
}

function scriptFiles(list: ShellList, workdir: string, runs: boolean, resolve: PathResolver): string[] {
  const found = new Set<string>();
  walkCommands(list, workdir, (cmd, dir, previous) => {
    const script = scriptSource(cmd, previous);
    if (script === null || script.runs !== runs) return;
    for (const written of script.paths) {
      const path = resolve(written, dir);
      if (path !== null) found.add(path);
    }
  });
  return [...found];
}

type ScriptSource = { kind: 'file'; paths: string[]; runs: boolean } | { kind: 'stdin'; runs: boolean } | null;

/**
 * The script file a command runs, as written, or null. `previous` is the command before it
 * in its pipeline, whose output is its standard input (`cat x.sh | sh`).
 */
export function scriptOf(command: SimpleCommand, previous: SimpleCommand | null = null): string | null {
  const source = scriptSource(command, previous);
  return source !== null && source.runs ? (source.paths[0] ?? null) : null;
}

/** The script files a command names as code, as written, and whether it runs them (not a syntax check only). */
function scriptSource(command: SimpleCommand, previous: SimpleCommand | null): { paths: string[]; runs: boolean } | null {
  const cmd = withoutKeywords(command);
  // `bash <(cat x.sh)`: the words of a process substitution are mixed into the command's (the
  // reading stops there and says so: unbound-scripts.ts), so none of them is named.
  if (cmd.redirects.some((r) => r.target === null)) return null;
  const words = unwrapped(cmd);
  const first = words[0];
  if (!first || first.dynamic) return null;
  // `. ./env.sh`, `source tools/env.sh`: the shell reads the file and runs it.
  if (!first.quoted && (first.value === '.' || first.value === 'source')) {
    const file = words[1];
    return file && !file.dynamic && looksLikeSourced(file.value) ? { paths: [file.value], runs: true } : null;
  }
  // A command word with a '/' runs that file: ./scripts/run.sh, tools/check; an interpreter
  // there (`v/bin/python x.py`, a virtualenv's) runs its script too.
  if (first.value.includes('/') && !first.value.startsWith('/')) {
    const base = first.value.slice(first.value.lastIndexOf('/') + 1);
    const inner = interpreterOf(base);
    // node_modules/.bin/jest t.test.js: the package is not the repository's code (lint's runner rules), what it is given may be.
    const installed = first.value.includes('node_modules/');
    const also = inner !== undefined ? scriptArgument(words.slice(1), inner) : installed && !RUNS_NO_FILE.has(base) ? filesGivenTo(cmd, words.slice(1)) : null;
    const paths = also !== null && also.kind === 'file' ? also.paths.map((p) => realFile(p, cmd, previous)) : [];
    return installed && paths.length === 0 ? null : { paths: installed ? paths : [first.value, ...paths], runs: true };
  }
  const name = programName(first);
  const spec = name === null ? undefined : interpreterOf(name);
  if (!spec) {
    if (name === null || RUNS_NO_FILE.has(name)) return null;
    // git reads the files it is given, except what `git bisect run` and `rebase --exec` run.
    if (name === 'git' && !words.some((w) => w.value === 'bisect' || /^(?:-x|--exec)(?:=|$)/.test(w.value))) return null;
    const given = filesGivenTo(cmd, words.slice(1));
    return given !== null && given.kind === 'file' ? { paths: given.paths, runs: true } : null;
  }
  const source = scriptArgument(words.slice(1), spec);
  if (source === null) return null;
  if (source.kind === 'file') {
    const paths = name === 'make' || name === 'gmake' ? makeFiles(words.slice(1), source.paths) : source.paths;
    return { paths: paths.map((p) => realFile(p, cmd, previous)), runs: source.runs };
  }
  const file = stdinFile(cmd) ?? catFile(previous);
  return file === null ? null : { paths: [file], runs: source.runs };
}

/** make reads its -f files from the folder -C leads to, whatever their order (`make -C sub -f ../x.mk` reads x.mk: round-20 G6). */
function makeFiles(args: readonly Word[], written: readonly string[]): string[] {
  const { subdir } = makeOptions(args);
  return subdir === null ? [...written] : written.map((p) => (p.startsWith('/') ? p : posix.join(subdir, p)));
}

/**
 * Whether an interpreter reads its program from standard input that the reading cannot name
 * a file for: `echo 'sh x.sh' | sh`, `sh <>x.sh`, `sh <&3`, `bash <<< '…'`, `sh <<EOF`.
 */
export function readsUnknownInput(command: SimpleCommand, previous: SimpleCommand | null): boolean {
  const cmd = withoutKeywords(command);
  if (cmd.redirects.some((r) => r.target === null)) return false; // a process substitution: said elsewhere
  const words = unwrapped(cmd);
  const first = words[0];
  if (!first || first.dynamic) return false;
  const name = programName(first);
  const spec = name === null ? undefined : interpreterOf(name);
  if (!spec) return false;
  // Without a pipe or a redirection into it, its input is the check's: /dev/null (`node --version`).
  if (previous === null && !cmd.redirects.some((r) => /^0?</.test(r.op))) return false;
  const source = scriptArgument(words.slice(1), spec);
  if (source === null || source.kind !== 'stdin') return false;
  // Standard input given another way than `< FILE`: a here-document, a here-string, a descriptor.
  if (cmd.redirects.some((r) => /^0?<(?:>|&|<|<<|<-)$/.test(r.op) || /^0?<<-?$/.test(r.op))) return true;
  return stdinFile(cmd) === null && catFile(previous) === null;
}

/**
 * The file behind a path that names a descriptor (round-13 L1): `awk -f - < x.awk`, `awk -f
 * /dev/stdin`, `sh /dev/fd/3 3< x.sh` run the file redirected there, which is what the
 * screen must name. Other paths are themselves.
 */
function realFile(path: string, cmd: SimpleCommand, previous: SimpleCommand | null): string {
  if (path === '-' || STDIN_PATHS.has(path)) return stdinFile(cmd) ?? catFile(previous) ?? path;
  const fd = /^\/(?:dev\/fd|proc\/self\/fd)\/([0-9]+)$/.exec(path)?.[1];
  if (fd === undefined) return path;
  let file: string | null = null;
  for (const r of cmd.redirects) if (r.op === `${fd}<` || r.op === `${fd}<>`) file = r.target && !r.target.dynamic ? r.target.value : null;
  return file ?? path;
}

/** `sh < tools/ci.sh`: the file standard input is redirected from. */
function stdinFile(cmd: SimpleCommand): string | null {
  let file: string | null = null;
  for (const r of cmd.redirects) {
    if (r.op !== '<' && r.op !== '0<') continue;
    file = r.target && !r.target.dynamic ? r.target.value : null;
  }
  // `python3 -i </dev/null`: empty input is no script (round-14 leftover: it was named).
  return file === '/dev/null' ? null : file;
}

/** `cat tools/ci.sh | sh`: the one file a cat before the interpreter prints. */
function catFile(previous: SimpleCommand | null): string | null {
  if (previous === null) return null;
  let words = unwrapped(withoutKeywords(previous));
  if (words[1]?.value === '--' && !words[1].dynamic) words = [words[0]!, ...words.slice(2)];
  if (programName(words[0]) !== 'cat' || words.length !== 2 || previous.redirects.length > 0) return null;
  const file = words[1]!;
  return file.dynamic || file.value.startsWith('-') ? null : file.value;
}

function scriptArgument(args: readonly Word[], interpreter: Interpreter): ScriptSource {
  let spec = interpreter;
  let i = 0;
  let verbSeen = spec.verb === undefined;
  let runs = true;
  let each = false;
  const files: string[] = [];
  // node -r ./pre.js t.js: the preload runs first, then the script.
  const preloaded: string[] = [];
  // awk -f a.awk -f b.awk: program files given as options.
  const programFiles: string[] = [];
  // Words after options it does not know: each may be the script.
  const maybeValues: string[] = [];
  const withPreloads = (source: ScriptSource): ScriptSource => {
    const extra = [...preloaded, ...maybeValues];
    if (extra.length === 0 || (source !== null && source.kind !== 'file')) return source;
    return { kind: 'file', paths: [...extra, ...(source?.paths ?? [])], runs };
  };
  while (i < args.length) {
    const word = args[i]!;
    const v = word.value;
    if (word.dynamic) return withPreloads(files.length > 0 ? { kind: 'file', paths: files, runs } : null);
    if (v === '--') {
      i++;
      continue;
    }
    // python3 -BX val x.py, perl -we 'code', ruby -Ilib x.rb: single letters in one word;
    // python3 -c"code", perl -le'code', node -pe code: inline code attached or next.
    if (spec.groups && /^-[A-Za-z]./.test(v) && !v.startsWith('--') && !spec.inline(v) && !spec.valued(v)) {
      const group = readGroup(v.slice(1), spec.groups);
      if (typeof group === 'object') return withPreloads(filesInCode(group.code ?? codeAfter(args, i + 1, spec), runs));
      if (group !== 'none') {
        i += group === 'next' ? 2 : 1;
        continue;
      }
    }
    // python3 -m cProfile x.py, -m trace --trace x.py, -m pdb x.py: the module runs the script.
    if (v === '-m' && spec.moduleRunners && !args[i + 1]?.dynamic && Object.hasOwn(spec.moduleRunners, args[i + 1]?.value ?? '')) {
      spec = spec.moduleRunners[args[i + 1]!.value]!;
      i += 2;
      continue;
    }
    if (v.startsWith('-') || v.startsWith('+')) {
      // --eval=code is inline code too.
      const bare = v.startsWith('--') && v.includes('=') ? v.slice(0, v.indexOf('=')) : v;
      // python3 -m unittest t/test_x.py, -m doctest x.py: a module the reading does not know may run the files it is given.
      if (spec.inline(bare)) return withPreloads(bare === '-m' || bare === '--module' ? filesGivenTo(null, args.slice(i + 2)) : filesInCode(inlineCode(v, args, i + 1, spec), runs));
      if (spec.runsEach?.(v)) each = true;
      const preload = spec.preloads ? preloadFile(v, args[i + 1], spec.preloads) : null;
      if (preload !== null) preloaded.push(preload);
      if (spec.readOnly?.(v)) runs = false;
      if (spec.stdin(v)) return { kind: 'stdin', runs };
      const fileValue = spec.scriptFile ? optionValue(v, args[i + 1], spec.scriptFile) : null;
      if (fileValue !== null) {
        programFiles.push(fileValue);
        i += v.includes('=') || attachedValue(v, spec.scriptFile!) !== null ? 1 : 2;
        continue;
      }
      // An option it does not know: its next word may be its value or the script; both are named.
      // (Taken as its value, so the script is the operand after it: the two are named.)
      // (Whatever the word looks like: `--disable-proto throw x.js` runs x.js.)
      if (spec.flags && !spec.valued(v) && !spec.flags(v)) {
        const next = args[i + 1];
        if (next && !next.value.startsWith('-')) {
          if (!next.dynamic) maybeValues.push(next.value);
          i += 2;
          continue;
        }
      }
      i += spec.valued(v) ? 2 : 1;
      continue;
    }
    if (spec.operandsAreNames) {
      i++;
      continue;
    }
    if (spec.operandIsCode) return withPreloads(programFiles.length > 0 ? { kind: 'file', paths: programFiles, runs } : null);
    // sh /dev/stdin < x.sh: the script is standard input.
    if (STDIN_PATHS.has(v)) return { kind: 'stdin', runs };
    if (!verbSeen && v === spec.verb) {
      verbSeen = true;
      i++;
      continue;
    }
    if (!verbSeen && spec.requiredVerb) return null; // deno test, deno task: no script file
    // node --test a.test.js b.test.js: each operand runs (a pattern names no one file).
    if (each) {
      if (!/[*?[\]{}]/.test(v)) files.push(v);
      i++;
      continue;
    }
    return withPreloads(!spec.namesScripts || looksLikeFile(v) ? { kind: 'file', paths: [v], runs } : null);
  }
  if (programFiles.length > 0) return withPreloads({ kind: 'file', paths: programFiles, runs });
  if (spec.operandIsCode || spec.operandsAreNames) return withPreloads(null);
  if (each) return withPreloads(files.length > 0 ? { kind: 'file', paths: files, runs } : null);
  // No script argument: the interpreter reads its program from standard input.
  return verbSeen ? { kind: 'stdin', runs } : null;
}

/**
 * What a group of single-letter options does: 'inline' when a letter starts inline code or
 * a module (the rest of the group or the next word is its text), 'next' when a letter takes
 * the next word as its value, 'done' otherwise (a value letter inside the group takes the
 * rest of the group).
 */
function readGroup(letters: string, groups: { inline: string; valued: string }): { code: string | null } | 'next' | 'done' | 'none' {
  for (let k = 0; k < letters.length; k++) {
    const letter = letters[k]!;
    if (groups.inline.includes(letter)) {
      // The rest of the word is the code (`-c"code"`, `-le'code'`), unless it is only more
      // code-taking letters (`node -pe code`): then the code is the next word.
      const rest = letters.slice(k + 1);
      return { code: rest === '' || [...rest].every((l) => groups.inline.includes(l)) ? null : rest };
    }
    if (groups.valued.includes(letter)) return k === letters.length - 1 ? 'next' : 'done';
    // Not a group of letters (`-1`, `-W.`): read as an option.
    if (!/[A-Za-z]/.test(letter)) return 'none';
  }
  return 'done';
}

/** The code after an option that takes it: the next word, past more such options (`node -p -e code`). */
function codeAfter(args: readonly Word[], from: number, spec: Interpreter): string | undefined {
  let k = from;
  while (k < args.length && spec.inline(args[k]!.value)) k++;
  return args[k]?.value;
}

/** The inline code an option gives: its value after `=` (`--eval=code`), else the next word. */
function inlineCode(option: string, args: readonly Word[], from: number, spec: Interpreter): string | undefined {
  const eq = option.indexOf('=');
  return option.startsWith('--') && eq > 0 ? option.slice(eq + 1) : codeAfter(args, from, spec);
}

// A quoted string in inline code that reads as a file of code: `.`, `..`, a path that starts
// with ./, ../, / or ~/, any path with a slash, or a name with a script's extension (`require('./x.js')`,
// `exec(open('x.py').read())`, `runpy.run_path("t/x.py")`, `load 'x.rb'`).
const QUOTED_PATH = /(['"`])((?:\.{1,2}\/|\/|~\/)?[\w.@+-]+(?:\/[\w.@+-]+)*\/?)\1/g;
/** Just before a quoted name: a call that loads the file of that name as code (not require/import: a bare name is a package there). */
const LOADS_FILE_BEFORE = /\b(?:run_path|execfile|dofile|loadfile|require_relative|include|include_once|require_once|load)\s*\(?\s*$/;
const CODE_EXTENSION = /\.(?:[cm]?[jt]sx?|py|pyw|rb|pl|pm|sh|bash|zsh|php|lua|tcl|awk|sed|r|R|ps1|mk)$/;

/**
 * The files of code that inline code names in quotes (`node -e "require('./x.js')"`): it
 * loads them, so they are named like a script (a string that only looks like one is named
 * too: the screen then says more than it must, never less). Null when it names none.
 */
function filesInCode(code: string | undefined, runs: boolean): ScriptSource {
  if (code === undefined) return null;
  const paths: string[] = [];
  for (const m of code.matchAll(QUOTED_PATH)) {
    const p = m[2]!;
    // The file a loading call is given by name, whatever it looks like (`runpy.run_path('scripts')`, `dofile("x")`).
    const loads = LOADS_FILE_BEFORE.test(code.slice(Math.max(0, m.index! - 40), m.index!));
    if (!loads && !/^(?:\.{1,2}\/?$|\.{1,2}\/|\/|~\/)/.test(p) && !CODE_EXTENSION.test(p) && !p.includes('/')) continue;
    if (p === '/' || p === '~/') continue;
    if (!paths.includes(p)) paths.push(p);
  }
  return paths.length > 0 ? { kind: 'file', paths, runs } : null;
}

/** Paths that name standard input. */
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** The value of an option `matches` names (`-f x.awk`, `--file=x.sed`), or null. */
/** `-fFILE`: a one-letter option with its value attached (awk, sed), or null. */
function attachedValue(option: string, matches: (option: string) => boolean): string | null {
  return !option.startsWith('--') && option.length > 2 && matches(option.slice(0, 2)) ? option.slice(2) : null;
}

function optionValue(option: string, next: Word | undefined, matches: (option: string) => boolean): string | null {
  const attached = attachedValue(option, matches);
  if (attached !== null) return attached;
  const eq = option.indexOf('=');
  if (!matches(eq === -1 ? option : option.slice(0, eq))) return null;
  if (eq !== -1) return option.slice(eq + 1);
  return next && !next.dynamic ? next.value : null;
}

/** The file a preload option names (`-r ./pre.js`, `--import=./setup.mjs`), or null (a package, a variable). */
function preloadFile(option: string, next: Word | undefined, preloads: (option: string) => boolean): string | null {
  const eq = option.indexOf('=');
  const name = eq === -1 ? option : option.slice(0, eq);
  if (!preloads(name)) return null;
  let value: string;
  if (eq !== -1) value = option.slice(eq + 1);
  else if (next && !next.dynamic) value = next.value;
  else return null;
  return /^\.{1,2}\//.test(value) ? value : null;
}

/** `scripts/a`, `check.py`: a path or a name with an extension, not a package script name. */
function looksLikeFile(v: string): boolean {
  return v.includes('/') || /\.[A-Za-z0-9]+$/.test(v);
}

/** `. ./env.sh`, `source env`: anything but an option (a bare name is searched on PATH by dash, and in the directory by bash). */
function looksLikeSourced(v: string): boolean {
  return v !== '' && !v.startsWith('-');
}

function repositoryPath(script: string, workdir: string): string | null {
  const slashed = script.replace(/\\/g, '/');
  if (slashed.startsWith('/') || slashed.startsWith('~') || /^[A-Za-z]:/.test(slashed)) return null;
  const path = posix.normalize(posix.join(workdir, slashed));
  return path === '..' || path.startsWith('../') ? null : path;
}

/** A path relative to a repository directory, as a repository-relative path; null outside it. */
export function inDirectory(path: string, dir: string): string | null {
  return repositoryPath(path, dir);
}
