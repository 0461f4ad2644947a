// Which environment variables an approval binds, and how a difference is explained.
import { describe, expect, it } from 'vitest';
import { boundEnvironment, environmentChanges, isBoundVariable } from '../../lib/oracle/bound-env.js';

describe('bound environment variables', () => {
  it('loaders of code are bound: the dynamic linker, Node, Python, Perl, Ruby, the JVM, shells, git, npm script settings', () => {
    for (const name of ['LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PERL5LIB', 'PERL5OPT', 'RUBYOPT', 'JAVA_TOOL_OPTIONS', 'BASH_ENV', 'ENV', 'BASH_FUNC_echo%%', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_KEY_0', 'GIT_SSH_COMMAND', 'GCONV_PATH', 'OPENSSL_CONF', 'npm_config_script_shell', 'NPM_CONFIG_NODE_OPTIONS', 'npm_config_script-shell',
      // Found by the second attack: each ran other code under an old approval.
      'npm_config_userconfig', 'MAKEFLAGS', 'PYTEST_ADDOPTS', 'XDG_CONFIG_HOME', 'NODE_TEST_CONTEXT', 'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER', 'PYENV_HOOK_PATH', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE',
      // Named by the sixth attack round: PS4 runs its command substitutions under set -x.
      'PS4', 'ZDOTDIR', 'JAVA_OPTS', 'MAVEN_OPTS', 'GRADLE_OPTS', 'DOTNET_STARTUP_HOOKS', 'YARN_PLUGINS', 'YARN_YARN_PATH',
      // Round 39u: make's $(MAKE), tar's options, npm's workspaces, remote shells, awk's @include path.
      'MAKE', 'TAR_OPTIONS', 'npm_config_workspace', 'NPM_CONFIG_WORKSPACES', 'npm_config_w', 'npm_config_if_present', 'npm_config_if-present', 'npm_config_node_gyp', 'npm_config_git',
      'RSYNC_RSH', 'RSYNC_CONNECT_PROG', 'CVS_RSH', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'AWKPATH', 'AWKLIBPATH', 'COVERAGE_PROCESS_START', 'PIP_INDEX_URL', 'PIP_CONFIG_FILE',
      // Round 39v: build flags and tools, gcc's search paths, the JDK, CMake, Go's and Rust's toolchains, npm's skipped scripts.
      'CFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CPP', 'AS', 'LD', 'AR', 'RM', 'COMPILER_PATH', 'GCC_EXEC_PREFIX', 'LIBRARY_PATH', 'CPATH', 'CCACHE_PREFIX', 'JAVA_HOME',
      'CMAKE_C_COMPILER_LAUNCHER', 'CMAKE_TOOLCHAIN_FILE', 'CGO_CFLAGS', 'GOENV', 'GOWORK', 'GOTOOLCHAIN', 'GOPROXY', 'RUSTC', 'npm_config_ignore_scripts', 'NPM_CONFIG_IGNORE-SCRIPTS', 'NODE_PRESERVE_SYMLINKS',
      // Round 39x: pkg-config, .NET's profilers, Erlang/Elixir, Julia, Guile, uv, Poetry, Pipenv, Corepack, Node's compile cache, Deno.
      'PKG_CONFIG_PATH', 'PKG_CONFIG_LIBDIR', 'PKG_CONFIG_SYSROOT_DIR', 'PKG_CONFIG', 'CORECLR_ENABLE_PROFILING', 'CORECLR_PROFILER_PATH', 'COMPlus_EnableDiagnostics', 'DOTNET_ADDITIONAL_DEPS', 'DOTNET_ROOT',
      'ELIXIR_ERL_OPTIONS', 'ERL_LIBS', 'MIX_EXS', 'JULIA_LOAD_PATH', 'JULIA_DEPOT_PATH', 'JULIA_PROJECT', 'GUILE_LOAD_PATH', 'UV_INDEX_URL', 'UV_CONFIG_FILE', 'UV_PROJECT_ENVIRONMENT', 'UV_PYTHON',
      'PIPENV_PIPFILE', 'POETRY_CONFIG_DIR', 'COREPACK_HOME', 'NODE_COMPILE_CACHE', 'DENO_DIR',
      'GTK_MODULES', 'QT_PLUGIN_PATH', 'GIO_MODULE_DIR', 'GST_PLUGIN_PATH', 'SASL_PATH', 'VIMINIT', 'EXINIT']) {
      expect(isBoundVariable(name), name).toBe(true);
    }
  });
  it('everyday variables, and what npm sets for every script, are not', () => {
    // EDITOR and VISUAL differ between every terminal, IDE and agent shell: bound, they would ask
    // for approval again everywhere (SECURITY.md: a CHECK that starts an editor sets it itself).
    for (const name of ['HOME', 'PATH', 'TERM', 'LANG', 'CI', 'GITHUB_ACTIONS', 'NODE_ENV', 'npm_config_cache', 'npm_config_user_agent', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_PREFIX', 'GATE_CHECK_SCOPE', 'EDITOR', 'VISUAL', 'PIP_DISABLE_PIP_VERSION_CHECK']) {
      expect(isBoundVariable(name), name).toBe(false);
    }
  });
  // Found by a new-user trial: a Python buffering flag missing from an IDE terminal asked for
  // a person's approval again for a Node check.
  it('variables of those families that load no code are not: output buffering, encodings, bytecode writing, toolchain downloads', () => {
    for (const name of ['PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONUTF8', 'PYTHONFAULTHANDLER', 'RUSTUP_AUTO_INSTALL', 'UV_THREADPOOL_SIZE', 'UV_USE_IO_URING', 'DOTNET_NOLOGO', 'DOTNET_CLI_TELEMETRY_OPTOUT', 'JULIA_NUM_THREADS']) {
      expect(isBoundVariable(name), name).toBe(false);
    }
    // Their neighbours that choose code stay bound, and so does any name not listed.
    for (const name of ['PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONPYCACHEPREFIX', 'PYTHONBREAKPOINT', 'PYTHONOPTIMIZE', 'PYTHONSOMETHINGNEW', 'RUSTUP_TOOLCHAIN', 'RUSTUP_HOME', 'PYENV_ROOT']) {
      expect(isBoundVariable(name), name).toBe(true);
    }
  });

  it('the bound variables that are set, sorted by name; null when none is', () => {
    expect(boundEnvironment({ PATH: '/bin', HOME: '/h' })).toBeNull();
    expect(boundEnvironment({ PYTHONPATH: 'x', NODE_OPTIONS: '--require y', LD_PRELOAD: undefined, HOME: '/h' })).toEqual([['NODE_OPTIONS', '--require y'], ['PYTHONPATH', 'x']]);
    expect(boundEnvironment({ NODE_OPTIONS: '' })).toEqual([['NODE_OPTIONS', '']]);
  });
  it('HOME is bound only when GATE_CHECK_HOME keeps the approvals elsewhere (else the approvals move with it)', () => {
    expect(boundEnvironment({ HOME: '/h' })).toBeNull();
    expect(boundEnvironment({ HOME: '/h', GATE_CHECK_HOME: '/store', NODE_OPTIONS: 'x' })).toEqual([['HOME', '/h'], ['NODE_OPTIONS', 'x']]);
    // GATE_CHECK_HOME naming the default place moves nothing (round-41a F10); a look-alike of it does.
    for (const same of ['/h/.gate-check', '/h/.gate-check/', '//h//.gate-check']) expect(boundEnvironment({ HOME: '/h', GATE_CHECK_HOME: same }), same).toBeNull();
    for (const other of ['/h/.gate-check2', '/h/x/../.gate-check', 'h/.gate-check', '/h/./.gate-check', '/other/.gate-check']) expect(boundEnvironment({ HOME: '/h', GATE_CHECK_HOME: other }), other).toEqual([['HOME', '/h']]);
    expect(environmentChanges(null, [['HOME', '/h']])).toEqual(['environment: HOME bound now (GATE_CHECK_HOME moves the approvals away from it)']);
    expect(environmentChanges([['HOME', '/h']], null)).toEqual(['environment: HOME no longer bound (GATE_CHECK_HOME unset, or naming HOME/.gate-check)']);
  });
  // Round-33 F3: flock -c and script -c run $SHELL; set to a repository file after approval, it ran unasked.
  it('SHELL is bound when it is not a shell where systems keep them; the usual one asks nothing new', () => {
    for (const usual of ['/bin/bash', '/usr/bin/zsh', '/usr/local/bin/fish', '/opt/homebrew/bin/bash', '/run/current-system/sw/bin/bash']) expect(boundEnvironment({ SHELL: usual })).toBeNull();
    for (const other of ['/repo/cli/mycli', '/bin/../repo/x', 'bash', '/home/u/bin/sh', '/usr/bin/python3', '/usr/bin/env', '/home/linuxbrew/.linuxbrew/bin/bash']) expect(boundEnvironment({ SHELL: other })).toEqual([['SHELL', other]]);
    expect(['CONFIG_SHELL', 'BASH_LOADABLES_PATH', 'BUN_OPTIONS', 'ERL_FLAGS', 'TS_NODE_PROJECT'].every(isBoundVariable)).toBe(true);
  });

  it('changes name the variables set, changed and unset, never their values', () => {
    expect(environmentChanges([['A_NODE', 'x']] as never, null)).toEqual(['environment: A_NODE unset']);
    expect(environmentChanges([['NODE_OPTIONS', 'a'], ['PYTHONPATH', 'p']], [['LD_PRELOAD', 'l'], ['NODE_OPTIONS', 'b']])).toEqual(['environment: LD_PRELOAD set', 'environment: NODE_OPTIONS changed', 'environment: PYTHONPATH unset']);
  });
});
