// Environment variables that make the programs a check runs load code of their own choosing
// or change what a command line means: a preloaded library (LD_PRELOAD), a module required
// before the script (NODE_OPTIONS=--require x.cjs), a sitecustomize.py found on PYTHONPATH,
// a file the shell sources first (BASH_ENV), exported shell functions, git configuration
// given in the environment. Like PATH, they are code the CHECK text does not show, so each
// one that is set is bound into the oracle: set, changed or unset after approval, it asks
// again. The list is of known loaders, not every variable: SECURITY.md says what remains.
// Pure.

/** Variables bound by exact name. */
const NAMES: ReadonlySet<string> = new Set([
  // Where programs find their user configuration (~/.config/git/config, …). HOME itself is
  // bound by where the approvals are (~/.gate-check), unless GATE_CHECK_HOME moves them
  // (boundEnvironment).
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_DIRS',
  // Shells: a file sourced at start, options, functions, cd's search path.
  // PS4 is expanded (command substitutions included) before each traced command under set -x;
  // ZDOTDIR chooses zsh's startup files.
  'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'CDPATH', 'GLOBIGNORE', 'PS4', 'ZDOTDIR',
  // make: a SHELL or makefiles of its own, and MAKE, which every recipe's $(MAKE) runs (round-39u U1).
  'MAKEFLAGS', 'MFLAGS', 'MAKEFILES', 'GNUMAKEFLAGS', 'MAKE',
  // Options a program reads from the environment that run commands (tar's --to-command and
  // --checkpoint-action=exec), remote shells and password helpers, awk's @include path, the
  // file coverage.py starts from in every Python process, where pip takes packages from.
  'TAR_OPTIONS', 'RSYNC_RSH', 'RSYNC_CONNECT_PROG', 'CVS_RSH', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'AWKPATH', 'AWKLIBPATH',
  'COVERAGE_PROCESS_START', 'PIP_CONFIG_FILE', 'PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'PIP_FIND_LINKS',
  // Node.js and the JVM.
  // Build tools that pass options (an agent, a -javaagent) to the JVM they start; .NET startup hooks.
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH',
  'JAVA_OPTS', 'MAVEN_OPTS', 'GRADLE_OPTS', 'SBT_OPTS', 'ANT_OPTS', 'DOTNET_STARTUP_HOOKS',
  // git: another repository, work tree or index, its helper programs. (Not the author,
  // committer and date variables git sets in every hook: they change with each commit.)
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_TEMPLATE_DIR', 'GIT_ATTR_SOURCE',
  'GIT_EXEC_PATH', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'GIT_PROXY_COMMAND', 'GIT_PAGER', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR',
  // Libraries that load modules named in the environment (GTK, Qt, GIO, GStreamer, Cyrus SASL:
  // round-41b); vim's and ex's start-up commands (approval.md counts a vim -es script as code).
  'GCONV_PATH', 'OPENSSL_CONF', 'OPENSSL_ENGINES', 'OPENSSL_MODULES',
  'GTK_MODULES', 'GTK_PATH', 'QT_PLUGIN_PATH', 'GIO_MODULE_DIR', 'GIO_EXTRA_MODULES', 'GST_PLUGIN_PATH', 'GST_PLUGIN_SYSTEM_PATH', 'SASL_PATH', 'VIMINIT', 'EXINIT', 'MYVIMRC', 'VIMRUNTIME',
  // Ruby gems, Go, Rust and C toolchains, Lua, PHP, R, Tcl.
  'GEM_HOME', 'GEM_PATH', 'BUNDLE_GEMFILE', 'GOFLAGS', 'RUSTC_WRAPPER', 'RUSTC_WORKSPACE_WRAPPER', 'RUSTFLAGS', 'CARGO_BUILD_RUSTC_WRAPPER',
  'CC', 'CXX',
  // make's built-in rules and the compilers they run (round-39v V1): flags that include a file
  // (`CFLAGS=-include x.h`), the other programs of a build, gcc's own search paths for its
  // subprograms, headers and libraries, ccache's prefix, autoconf's site file.
  'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'LDLIBS', 'TARGET_ARCH', 'CPP', 'AS', 'LD', 'AR', 'NM', 'RANLIB', 'RM', 'LEX', 'YACC', 'FC', 'FFLAGS',
  'COMPILER_PATH', 'GCC_EXEC_PREFIX', 'LIBRARY_PATH', 'CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH', 'OBJC_INCLUDE_PATH', 'CCACHE_PREFIX', 'CONFIG_SITE',
  // The JDK that mvn, gradle and java wrappers run; Maven's and Gradle's own settings.
  'JAVA_HOME', 'MAVEN_ARGS', 'GRADLE_USER_HOME',
  // Go's toolchain choice and the files and proxies it takes settings and modules from; Rust's compiler.
  'GOENV', 'GOWORK', 'GOTOOLCHAIN', 'GOROOT', 'GOPATH', 'GOMODCACHE', 'GOPROXY', 'GOSUMDB', 'GONOSUMDB', 'GONOSUMCHECK', 'GOINSECURE', 'GONOPROXY', 'GOPRIVATE', 'GOVCS', 'GOEXPERIMENT', 'RUSTC', 'RUSTDOC',
  // Node's module resolution through links; client start-up files of psql, hg; svn's remote shell.
  'NODE_PRESERVE_SYMLINKS', 'NODE_PRESERVE_SYMLINKS_MAIN', 'PSQLRC', 'HGRCPATH', 'SVN_SSH',
  'LUA_INIT', 'LUA_PATH', 'LUA_CPATH', 'PHPRC', 'PHP_INI_SCAN_DIR', 'R_PROFILE', 'R_PROFILE_USER', 'R_LIBS', 'R_LIBS_USER', 'TCLLIBPATH',
  // The shell autoconf's configure runs, bash's loadable builtins, Bun's and Erlang's options (a preload, a module to start).
  'CONFIG_SHELL', 'BASH_LOADABLES_PATH', 'BUN_OPTIONS', 'ERL_FLAGS', 'ERL_AFLAGS', 'ERL_ZFLAGS',
  // Round 39x X1: Elixir's options for the VM it starts, Node's compile cache folder, Deno's
  // module cache, Pipenv's project file.
  'ELIXIR_ERL_OPTIONS', 'NODE_COMPILE_CACHE', 'DENO_DIR', 'PIPENV_PIPFILE',
]);

/**
 * A login shell, by its name, where systems keep shells. SHELL is set in every environment and
 * `flock -c`, `script -c` and editors run it (round-33 F3); any other value (a file of the
 * repository, python3, a shell in a Nix or Linuxbrew folder) is bound, while the usual one asks
 * for nothing new.
 */
const SYSTEM_SHELL = /^\/(?:usr\/(?:local\/)?|opt\/homebrew\/|run\/current-system\/sw\/)?bin\/(?:sh|bash|dash|ash|zsh|ksh|mksh|pdksh|oksh|yash|posh|fish|tcsh|csh|busybox|nu|elvish|xonsh|pwsh)$/;

/** Variables bound by prefix: the dynamic linker's, Python's, Perl's, Ruby's, exported bash functions, git config pairs. */
const PREFIXES = [
  'LD_', 'DYLD_', 'PYTHON', 'PERL', 'RUBY', 'BASH_FUNC_',
  // git configuration given in the environment.
  'GIT_CONFIG',
  // Test runners and toolchains that take plugins, options or a runner from the environment.
  'PYTEST_', 'NODE_TEST_', 'CARGO_', 'RUSTUP_', 'PYENV_', 'NODENV_', 'RBENV_', 'GOENV_', 'JEST_', 'VITEST_', 'MOCHA_', 'TS_NODE_',
  // Yarn's configuration (a plugin, a PnP loader, a yarnPath that replaces yarn itself).
  'YARN_',
  // CMake's launchers, toolchain file and compilers; cgo's compilers and flags.
  'CMAKE_', 'CGO_',
  // Round 39x X1: pkg-config's search path (a .pc file's `Cflags: -include x.h` reaches every
  // compile that asks it), its program and sysroot; .NET's profilers, extra dependencies and
  // runtime; Erlang's library path; Julia's, Guile's module paths; uv's, Poetry's and Pipenv's
  // indexes, interpreters and settings files; the folder Corepack keeps package managers in.
  'PKG_CONFIG', 'CORECLR_', 'COMPlus_', 'DOTNET_', 'ERL_', 'JULIA_', 'GUILE_', 'UV_', 'POETRY_', 'PIPENV_', 'COREPACK_', 'MIX_',
];

/**
 * Set by the prefixes above, but loading no code and choosing no program: output buffering
 * and encodings, bytecode *writing*, fault handlers, and whether rustup may download the
 * toolchain a repository already names. Binding them asked for approval again in every shell
 * that set them differently (an IDE, a cron job, a hook runner). A variable not named here
 * stays bound.
 */
const NOT_LOADERS: ReadonlySet<string> = new Set([
  'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONUTF8', 'PYTHONCOERCECLOCALE', 'PYTHONFAULTHANDLER',
  'PYTHONLEGACYWINDOWSFSENCODING', 'PYTHONLEGACYWINDOWSSTDIO', 'RUSTUP_AUTO_INSTALL', 'PYTHONHASHSEED',
  // libuv's (Node reads them: threads and io_uring), .NET's banner and telemetry switches, Julia's thread count.
  'UV_THREADPOOL_SIZE', 'UV_USE_IO_URING', 'DOTNET_NOLOGO', 'DOTNET_CLI_TELEMETRY_OPTOUT', 'DOTNET_SKIP_FIRST_TIME_EXPERIENCE', 'DOTNET_GENERATE_ASPNET_CERTIFICATE', 'JULIA_NUM_THREADS',
]);

/**
 * npm configuration that changes what `npm test` runs (npm reads npm_config_* in any case,
 * `-` as `_`): its shells, node options, and the .npmrc files that could set them; the
 * workspaces whose scripts it runs (`npm_config_workspace=packages/fake` ran another
 * package's test: round-39u U1), a missing script taken as success, scripts skipped, and the
 * programs it starts for node-gyp and git. npm sets userconfig and globalconfig for every script it runs,
 * the same each time; `npx gate-check` and the bin already differ by PATH.
 */
const NPM_CONFIG = new Set([
  'script_shell', 'node_options', 'onload_script', 'userconfig', 'globalconfig', 'prefix', 'shell',
  'workspace', 'workspaces', 'w', 'include_workspace_root', 'if_present', 'node_gyp', 'git',
  // Scripts it skips: pretest and posttest are part of what `npm test` runs (round-39v V2).
  'ignore_scripts',
]);

export function isBoundVariable(name: string): boolean {
  if (NAMES.has(name)) return true;
  if (NOT_LOADERS.has(name)) return false;
  for (const p of PREFIXES) if (name.startsWith(p)) return true;
  const lower = name.toLowerCase();
  return lower.startsWith('npm_config_') && NPM_CONFIG.has(lower.slice('npm_config_'.length).replaceAll('-', '_'));
}

/** Whether `store` (GATE_CHECK_HOME) is `home`/.gate-check, written as absolute paths (trailing and doubled slashes aside). */
function isDefaultStore(store: string, home: string): boolean {
  const clean = (p: string) => p.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return store.startsWith('/') && home.startsWith('/') && !/(^|\/)\.\.?(\/|$)/.test(store + '/' + home) && clean(store) === clean(`${home}/.gate-check`);
}

/** [name, value] of every bound variable that is set, sorted by name; null when none is. */
export function boundEnvironment(env: NodeJS.ProcessEnv): [string, string][] | null {
  const out: [string, string][] = [];
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (value !== undefined && isBoundVariable(name)) out.push([name, value]);
  }
  // HOME chooses every tool's configuration; it is bound by the approvals' own place unless
  // GATE_CHECK_HOME keeps them elsewhere.
  // GATE_CHECK_HOME naming the default place (HOME/.gate-check) moves nothing (round-41a F10).
  if (env.GATE_CHECK_HOME && env.HOME !== undefined && !isDefaultStore(env.GATE_CHECK_HOME, env.HOME)) out.push(['HOME', env.HOME]);
  if (env.SHELL !== undefined && !SYSTEM_SHELL.test(env.SHELL)) out.push(['SHELL', env.SHELL]);
  if (out.length === 0) return null;
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** What differs between two bound environments, for people: variables set, changed and unset (names only). */
export function environmentChanges(prev: readonly [string, string][] | null, next: readonly [string, string][] | null): string[] {
  const before = new Map(prev ?? []);
  const after = new Map(next ?? []);
  const out: string[] = [];
  for (const [name, value] of after) {
    const old = before.get(name);
    // HOME is bound only while GATE_CHECK_HOME moves the approvals: it was there all along.
    if (old === undefined) out.push(name === 'HOME' ? 'environment: HOME bound now (GATE_CHECK_HOME moves the approvals away from it)' : `environment: ${name} set`);
    else if (old !== value) out.push(`environment: ${name} changed`);
  }
  for (const name of before.keys()) if (!after.has(name)) out.push(name === 'HOME' ? 'environment: HOME no longer bound (GATE_CHECK_HOME unset, or naming HOME/.gate-check)' : `environment: ${name} unset`);
  return out;
}
