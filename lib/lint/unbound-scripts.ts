// The scripts a CHECK runs that DEPENDS does not bind, for the approval screen. The person
// who approves is often not the ledger's author: they are told that an edit to such a script
// later runs without asking them again. The same judgement as lint's undeclared-script,
// made on the files DEPENDS matched for the oracle being approved. Pure.
import { isAbsolute, posix } from 'node:path';
import { absoluteInRepository, repositoryDir } from './repository-paths.js';
import { globMatches } from './glob.js';
import { scriptsNamed } from './rule-scripts.js';
import { inlineShellWord } from './inline-shell.js';
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { inDirectory, invokedScripts, isInterpreter, readsUnknownInput, runsNoFile, runsUnnamed, setsPhysical, walkCommands, type PathResolver } from './scripts.js';
import type { ShellList, SimpleCommand } from './shell-list.js';

/** Where a path leads read as text: what the CHECK's words say, for what is not on disk (yet). */
export const lexicalPath: PathResolver = inDirectory;
import { parseShellList } from './shell-list.js';

/**
 * `root` and `cwd`: the repository and the directory the CHECK runs in, absolute (outside the
 * repository, nothing is judged). `matched`: the files DEPENDS matched; `globs`: DEPENDS as
 * written, which bind a script not written yet once it is. `bindableLater`: whether a glob
 * can match a path once it is written (nothing there yet, no symlinked folder on the way,
 * which a glob does not enter; fsx/physical-path.ts): otherwise a glob that names it as
 * text binds nothing of it. `resolve`: where a path written in
 * the CHECK leads (lint/scripts.ts PathResolver; lexical when absent).
 */
export function unboundScripts(
  check: string,
  root: string,
  cwd: string,
  matched: readonly string[],
  globs: readonly string[] | null,
  bindableLater: (path: string) => boolean,
  resolve?: PathResolver,
): string[] {
  const workdir = repositoryDir(root, cwd);
  if (workdir === null) return [];
  const bound = new Set(matched);
  const later = (p: string) => bindableLater(p) && (globs ?? []).some((g) => globMatches(g, p));
  const inRepository = resolve ?? lexicalPath;
  // A script outside the repository (`sh ../tools/x.sh`) is bound by nothing either: named as
  // written from the root. An absolute path inside the repository is its repository path.
  const named: PathResolver = (path, dir) => {
    // Outside it, or through ~ or /proc (`sh ~/../repo/x.sh`, `sh /proc/self/cwd/x.sh`): as written.
    if (isAbsolute(path)) {
      const inside = absoluteInRepository(root, path);
      return inside === null ? path : inRepository(inside, '.');
    }
    return path.startsWith('~') ? path : (inRepository(path, dir) ?? posix.join(dir, path));
  };
  return scriptsNamed(parseShellList(check), workdir, invokedScripts, named).filter((p) => !bound.has(p) && !later(p));
}

/**
 * Where the reading of the CHECK stopped before its end, or null when it read it all: after
 * a `cd` it cannot follow (a variable, `cd -`, `cd -P`, through CDPATH, …), `pushd`, `set -P`,
 * or at a script named only at run time (`sh "$PWD/x.sh"`). The screen says so: what comes
 * after is the reader's to judge. `cdpath`: CDPATH is set in the environment the CHECK runs with.
 * `home`: what `$HOME` in a PATH the CHECK sets stands for (a folder outside leading into the
 * repository is judged by the oracle: path-bound.ts).
 */
export function unboundNotJudged(check: string, root: string, cwd: string, cdpath: boolean, home?: string): string | null {
  const workdir = repositoryDir(root, cwd);
  if (workdir === null) return null;
  let why: string | null = definesFunction(check) ? 'a function definition' : null;
  if (why !== null) return why;
  const walk = (list: ShellList, dir: string, depth: number) =>
    walkCommands(
      list,
      dir,
      (cmd, at, previous) => {
        if (why !== null) return;
        if (runsUnnamed(cmd)) why = 'a program named at run time';
        else if (readsUnknownInput(cmd, previous)) why = 'a program fed on standard input';
        else why = unreadPart(cmd);
        if (why !== null) return;
        const word = inlineShellWord(cmd);
        if (word === null) return;
        // The names in `sh -c '…'` are read one level deep (lint/rule-scripts.ts).
        if (word.dynamic) why = 'a shell command line made at run time';
        else if (depth > 0) why = 'a sh -c inside a sh -c';
        if (why !== null) return;
        // bash -P -c '…', bash -o physical -c '…': every cd in it resolves links.
        const words = unwrapped(withoutKeywords(cmd));
        if (programName(words[0]) !== null && setsPhysical(words.slice(1))) why = 'a shell started with -P (cd resolves links)';
        else walk(parseShellList(word.value), at, depth + 1);
      },
      { cdpath, onStop: (reason) => (why ??= reason), onUnsure: (reason) => (why ??= reason), inRepository: (p) => repositoryDir(root, p) !== null, ...(home !== undefined ? { home } : {}) },
    );
  walk(parseShellList(check), workdir, 0);
  return why;
}

/**
 * Programs that run another command the reading does not follow: their own options and
 * arguments decide what runs (`xargs sh`, `sudo -u x sh y.sh`, `watch 'sh x.sh'`,
 * `find . -exec sh x.sh \;`).
 */
const RUNS_A_COMMAND = new Set([
  'xargs', 'parallel', 'taskset', 'chrt', 'unshare', 'nsenter', 'chroot', 'strace', 'ltrace', 'valgrind', 'gdb', 'perf',
  'sudo', 'doas', 'su', 'runuser', 'sg', 'watch', 'coproc', 'script', 'firejail', 'bwrap', 'systemd-run', 'setpriv', 'prlimit',
  'cgexec', 'numactl', 'faketime', 'fakeroot', 'proot', 'catchsegv', 'entr', 'ssh', 'find', 'setarch', 'linux32', 'linux64',
  'i386', 'x86_64', 'run-parts', 'dbus-run-session', 'dbus-launch', 'xvfb-run', 'unbuffer', 'expect',
]);

/** npm and the runners that read npm's options. */
const NPM_FAMILY = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn']);
/** npm options that choose the shell of every script, node's options, or a configuration file that may set them. */
const NPM_RUNNER_OPTION = /^--(?:script-shell|node-options|shell|userconfig|globalconfig|onload-script|prefix)(?:=|$)/;
const MAKES = new Set(['make', 'gmake']);
/** make variables and options that choose the shell of every recipe or add code: SHELL=, .SHELLFLAGS=, MAKEFLAGS=, --eval. */
// (Any of make's assignment operators: = := ::= :::= += ?= !=, and `override`: round-14 H2.)
const MAKE_RUNNER_SETTING = /^(?:(?:override\s+|export\s+)*(?:SHELL|\.SHELLFLAGS|MAKEFLAGS|MAKEFILES|MFLAGS|GNUMAKEFLAGS|MAKESHELL)\s*(?::{1,3}|[+?!])?=|--eval(?:=|$)|-E$)/;

/** Options through which these programs run a program or a command line. */
const RUNS_BY_OPTION: Record<string, RegExp> = {
  tar: /^(?:-[A-Za-z]*[IF]|--use-compress-program|--checkpoint-action|--to-command|--info-script|--new-volume-script|--rsh-command)/,
  sort: /^--compress-program/,
  rsync: /^(?:-[A-Za-z]*e|--rsh|--rsync-path)/,
  // Round 14 (H4): programs that otherwise only read what they are given.
  zip: /^(?:-TT|--unzip-command)/,
  split: /^--filter/,
  sdiff: /^--diff-program/,
  diff3: /^--diff-program/,
  install: /^--strip-program/,
  git: /^--(?:upload-pack|receive-pack|exec)(?:=|$)/,
};

/** Environment settings through which git runs a command (an alias, an ssh or editor command, a config). */
const GIT_COMMAND_SETTING = /^GIT_(?:CONFIG_\w*|SSH\w*|EXEC_PATH|EDITOR|SEQUENCE_EDITOR|PAGER|ASKPASS|EXTERNAL_DIFF|PROXY_COMMAND|TEMPLATE_DIR)=/;

/** Shells: their command lines are read (inline-shell.ts), not searched for calls. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);

/**
 * What in a word of interpreter code runs a command line: system(), popen, child_process,
 * subprocess, os.system, backticks and qx//, %x(), shell_exec, proc_open, os.execute, an awk
 * pipe to or from a command (`print | "sh"`, `"cmd" | getline`).
 */
const RUNS_COMMANDS_IN_CODE =
  /\bsystem\b(?!\s*\(\s*\))|\b(?:popen[0-9]?|Popen|spawn(?:Sync|[lv]\w*)?|posix_spawn\w*|exec[lv]\w*|execSync|execFile(?:Sync)?|shell_exec|passthru|proc_open|pcntl_exec|Open3|execute|getline|readpipe)\b|child_process|subprocess|`|\bqx\s*[({[\/'"|]|%x[({[]|\|\s*"|\|&/;

/** GNU sed's `e` command (`1e sh x.sh`, `e cmd`) and the `e` flag of `s///e`: they run a command line. */
const SED_RUNS_COMMANDS = /(?:^|[;\n{}0-9$\/])\s*e(?:\s|;|$)|\/[gpiImMw0-9]*e[gpiImMw0-9]*\s*(?:;|$|\}|\s)/;

/**
 * A call that loads or evaluates code by a name or text the reading cannot see: its argument
 * is not one quoted string (`require('./scri' + 'pts/x')`, `eval(readFileSync(…))`,
 * `exec(open(…).read())`, `runpy.run_path(p)`, `dofile(p)`). A quoted literal (`require('fs')`,
 * `import('./x.mjs')`) is read as a name instead (lint/scripts.ts).
 */
const LOADS_COMPUTED =
  /(?:\b(?:require|import|exec|eval|execfile|Function|runInThisContext|runInNewContext|compileFunction|run_path|run_module|import_module|__import__|dofile|loadfile|require_relative|include|include_once|require_once)|(?<![.\w])load)\s*\(\s*(?!(['"`])[^'"`]*\1\s*[,)])/;

/** Code that changes its working directory: the paths it names after that are read from elsewhere. */
const CHANGES_DIRECTORY = /\bchdir\b|\bchdir!|Dir\.chdir|process\.chdir/;

/** Whether a word given to the interpreter `name` is code that runs a command line (only a word that reads as code: spaces, brackets, quotes). */
function runsCommands(word: string, name: string): boolean {
  if ((name === 'sed' || name === 'gsed') && !word.startsWith('-') && SED_RUNS_COMMANDS.test(word)) return true;
  if (!/[\s(){};`'"|]/.test(word)) return false;
  // exec in Python runs Python code; in Perl, Ruby, PHP and Lua it replaces the process with a command.
  return RUNS_COMMANDS_IN_CODE.test(word) || (!/^(?:python|pypy)/.test(name) && /\bexec\b/.test(word));
}

/** Names of programs that run a script or a command line they are given. */
const INTERPRETER_WORD = /^(?:sh|bash|dash|zsh|ksh|mksh|ash|busybox|node|nodejs|deno|bun|tsx|ts-node|python[0-9.]*|pypy[0-9.]*|ruby[0-9.]*|perl[0-9.]*|php|lua|Rscript)$/;

/** `f() { …; }`, `function f`: a function's body runs where it is called, which the reading does not follow. */
function definesFunction(check: string): boolean {
  // Outside quotes: `node -e "main()"` calls a function of its own language.
  const bare = check.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, ' ');
  return /(?:^|[\s;&|(){}])(?:function\s+[A-Za-z_][\w.-]*|[A-Za-z_][\w.-]*\s*\(\s*\))/.test(bare);
}

/** Why a command holds code the reading does not see, or null: a substitution, `env -S`, a program that runs another. */
function unreadPart(cmd: SimpleCommand): string | null {
  const words = withoutKeywords(cmd).words;
  if ([...words, ...cmd.assignments, ...cmd.redirects.flatMap((r) => (r.target ? [r.target] : []))].some((w) => w.substitution)) {
    return 'a command substitution $(…)';
  }
  // `diff <(sh a.sh) b`: the list parser sees a redirection with no file.
  if (cmd.redirects.some((r) => r.target === null && /^[0-9]*[<>]$/.test(r.op))) return 'a process substitution <(…)';
  const first = programName(words[0]);
  if (first === 'case' || first === 'select' || first === 'function') return `${first} (its branches are not read)`;
  // git settings from the environment run commands as `git -c` does (an alias, an ssh command).
  if ([...cmd.assignments, ...words].some((w) => GIT_COMMAND_SETTING.test(w.value))) return 'git settings given in the environment (GIT_CONFIG_…, GIT_SSH_COMMAND, …)';
  // env -S behind any wrapper (`nice env -S '…'`).
  const envAt = words.findIndex((w) => programName(w) === 'env');
  if (envAt !== -1 && words.slice(envAt + 1).some((w) => /^(?:-[A-Za-z]*S|--split-string)/.test(w.value))) return 'env -S (a command line split at run time)';
  // A command line given as an option's value: flock -c, npx -c/--call, su -c, sg.
  const commandOption = words.findIndex((w, i) => i > 0 && /^(?:-c|--command|--call)(?:=|$)/.test(w.value));
  // For npm and its kin, only before the command they run: `npx eslint -c conf.js` is eslint's -c (round-14 L1).
  const runsFrom = first !== null && NPM_FAMILY.has(first) ? words.findIndex((w, i) => i > 0 && !w.value.startsWith('-')) : -1;
  const own = commandOption !== -1 && (runsFrom === -1 || commandOption < runsFrom);
  if (own && first !== null && ['flock', 'npx', 'su', 'runuser', 'sg', 'pnpm', 'yarn', 'npm'].includes(first)) return `a command line given to ${first}`;
  if (first === 'git' && words.some((w) => /^alias\./i.test(w.value) || /^-c$/.test(w.value))) return 'git -c (an alias or a setting that runs a command)';
  // Another git directory (its config may run core.fsmonitor, hooks, aliases): round-14 B10.
  if (first === 'git' && words.some((w) => /^--(?:git-dir|exec-path|config-env)(?:=|$)/.test(w.value))) return 'git given another git directory or its settings on its command line';
  if ((first === 'npm' || first === 'pnpm' || first === 'yarn') && words.some((w) => ['exec', 'x', 'dlx'].includes(w.value))) return `a command run through ${first} exec`;
  // `npm test --script-shell=scripts/sh`, `npx --node-options=--require=./x.js`: a shell or code for every script (round-13 H2).
  if (first !== null && NPM_FAMILY.has(first) && words.some((w) => NPM_RUNNER_OPTION.test(w.value))) return `a shell, node options or configuration given to ${first}`;
  // `make SHELL=scripts/sh test`, `make --eval='…'`: every recipe line runs through them.
  const makeAt = words.findIndex((w) => MAKES.has(programName(w) ?? ''));
  if (makeAt !== -1 && words.slice(makeAt + 1).some((w) => MAKE_RUNNER_SETTING.test(w.value))) return `a shell, settings or code given to make`;
  const inner = unwrapped(withoutKeywords(cmd));
  const name = programName(inner[0]);
  if (name === 'find' && !words.some((w) => /^-(?:exec|execdir|ok|okdir)$/.test(w.value))) return null;
  // A program run by an option of tar, sort or rsync (`tar -I x.sh`, `--checkpoint-action=exec=…`).
  const runsByOption = name === null || !Object.hasOwn(RUNS_BY_OPTION, name) ? undefined : RUNS_BY_OPTION[name];
  if (runsByOption && inner.slice(1).some((w) => runsByOption.test(w.value))) return `a command run through ${name}`;
  if (name !== null && RUNS_A_COMMAND.has(name)) return `a command run through ${name}`;
  // Code given to an interpreter that runs commands itself: `node -e "execSync('sh x.sh')"`,
  // `python3 -c "os.system('sh x.sh')"`, `awk 'BEGIN { system("sh x.sh") }'`, `perl -e '`sh x.sh`'`.
  if (name !== null && isInterpreter(name) && !SHELLS.has(name) && inner.slice(1).some((w) => runsCommands(w.value, name))) {
    return `${name} code that runs commands`;
  }
  if (name !== null && isInterpreter(name) && !SHELLS.has(name) && inner.slice(1).some((w) => /[\s(){};'"]/.test(w.value) && CHANGES_DIRECTORY.test(w.value))) {
    return `${name} code that changes its directory`;
  }
  if (name !== null && isInterpreter(name) && !SHELLS.has(name) && inner.slice(1).some((w) => /[(]/.test(w.value) && LOADS_COMPUTED.test(w.value))) {
    return `${name} code that loads code by a computed name`;
  }
  // A program it does not know, given an interpreter's name or a command line: it may run it.
  if (name !== null && !runsNoFile(name) && !isInterpreter(name)) {
    if (inner.slice(1).some((w) => !w.dynamic && (INTERPRETER_WORD.test(w.value) || /^(?:sh|bash|node|python3?)\s/.test(w.value)))) return `a command run through ${name}`;
  }
  return null;
}
