// Which shell runs a CHECK: --shell, then $GATE_CHECK_SHELL, then /bin/sh (ComSpec on
// Windows), resolved to an absolute path of an executable file. Unresolvable is exit 2.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { RunSetupError } from '../errors.js';

export interface ShellInvocation {
  /** Absolute path of the shell executable. */
  path: string;
  /** Arguments before which the CHECK text is appended. */
  args(check: string): string[];
}

/** A regular file this process may execute (follows links, as exec does). */
export function isExecutableFile(path: string): boolean {
  try {
    // throwIfNoEntry: a missing candidate on PATH is the common case, and an exception costs.
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function resolveShell(requested: string | undefined, env: NodeJS.ProcessEnv, cwd: string): ShellInvocation {
  const windows = process.platform === 'win32';
  const source = requested !== undefined ? '--shell' : env.GATE_CHECK_SHELL ? 'GATE_CHECK_SHELL' : 'default shell';
  const name = requested ?? (env.GATE_CHECK_SHELL || (windows ? env.ComSpec || 'cmd.exe' : '/bin/sh'));
  let path: string | null = null;
  if (name.includes('/') || (windows && name.includes('\\')) || isAbsolute(name)) {
    const abs = resolve(cwd, name);
    if (isExecutableFile(abs)) path = abs;
  } else {
    // Only absolute PATH entries: a relative entry would resolve against the repository.
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (!dir || !isAbsolute(dir)) continue;
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) {
        path = candidate;
        break;
      }
    }
  }
  if (path === null) throw new RunSetupError(`${source} ${name} is not an executable file (or not found on PATH)`, 'pass --shell with an absolute path');
  const shellPath = path;
  const cmd = windows && /(^|[\\/])cmd(\.exe)?$/i.test(shellPath);
  return { path: shellPath, args: (check) => (cmd ? ['/d', '/s', '/c', check] : ['-c', check]) };
}
