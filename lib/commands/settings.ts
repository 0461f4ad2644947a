// The settings a run resolves once and every oracle shares: shell, timeout, limits, PATH,
// default working directory. Used by runs, by --status (to verify evidence) and by
// `approvals list`, so that all of them compute the same oracle for the same options.
import { repositoryFolder } from '../evidence/receipt.js';
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Io } from '../program/io.js';
import { RunSetupError } from '../errors.js';
import { normalizePath } from '../oracle/oracle.js';
import { boundEnvironment } from '../oracle/bound-env.js';
import { repositoryFilesAtStart } from '../oracle/path-bound.js';
import { OracleResolver } from '../oracle/resolve.js';
import { DEFAULT_REGEX_CAP_MS } from '../run/expect-match.js';
import { resolveShell, type ShellInvocation } from '../run/shell.js';
import { isInside } from '../fsx/discover.js';
import { writableTree } from '../fsx/repo-root.js';
import { DEFAULT_OUTPUT_CAP } from '../run/supervisor.js';
import type { Workspace } from '../workspace/load.js';

export interface OracleOptions {
  shell: string | undefined;
  cwd: string | undefined;
  timeoutSeconds: number;
}

export interface RunSettings {
  shell: ShellInvocation;
  resolver: OracleResolver;
}

function canonicalDirectory(raw: string, cwd: string, label: string): string {
  const lexical = resolve(cwd, raw);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    throw new RunSetupError(`${label} ${lexical} does not exist`);
  }
  if (!statSync(real).isDirectory()) throw new RunSetupError(`${label} ${lexical} is not a directory`);
  return real;
}

/**
 * Where gates without CWD run under `--cwd`, as run records keep it (repository-relative,
 * null outside the repository), for a reader that verifies evidence with the same option.
 */
export function defaultCwdFolder(raw: string, cwd: string, root: string): string | null {
  return repositoryFolder(root, canonicalDirectory(raw, cwd, '--cwd'));
}

/**
 * A shell inside the repository is code the approval binds by path only: anything that can
 * write the repository could replace it after approval, and every CHECK would run through the
 * new one. Refused (exit 2), as the file it resolves to (a link into the repository counts),
 * and so is an outside shell whose start (a `#!` line, an ELF loader) names a repository
 * file. Judged at start-up and again before each check (run.ts): an earlier gate's check
 * may have relinked it (round-36 F3).
 */
export function refuseShellInRepository(shell: string, root: string): void {
  let real = shell;
  try {
    real = realpathSync(shell);
  } catch {
    // resolveShell found an executable file there a moment ago; the lexical path decides then.
  }
  const advice = 'use a shell outside the repository (--shell /bin/bash, or GATE_CHECK_SHELL); a wrapper belongs in the CHECK, where DEPENDS binds it';
  if (isInside(root, shell) || isInside(root, real)) {
    throw new RunSetupError(`the shell ${shell} lies inside the repository${real !== shell ? ` (it resolves to ${real})` : ''}: an approval binds a shell by its path, not its content, so it is refused`, advice);
  }
  const start = repositoryFilesAtStart(root, real);
  if (start.named.length > 0) {
    throw new RunSetupError(`the shell ${shell} names ${start.named[0]!.slice(0, 200)} in the repository at its start (its #! line or ELF loader): an approval binds a shell by its path, not its content, so it is refused`, advice);
  }
  if (start.bare.length > 0) {
    throw new RunSetupError(`the shell ${shell} starts ${start.bare[0]!.name.slice(0, 100)} by a name PATH finds (#!/usr/bin/env): what runs every CHECK would change with PATH, so it is refused`, advice);
  }
}

/** Throws RunSetupError (exit 2) when the shell or --cwd cannot be resolved. */
export function runSettings(options: OracleOptions, io: Io, ws: Workspace): RunSettings {
  const shell = resolveShell(options.shell, io.env, io.cwd);
  // The whole work tree, not only the ledger's folder: packages/api/GATES.md does not make <top>/tools safe.
  refuseShellInRepository(shell.path, writableTree(ws.root.path));
  const resolver = new OracleResolver({
    root: ws.root.path,
    shell: shell.path,
    timeoutMs: options.timeoutSeconds * 1000,
    outputCap: DEFAULT_OUTPUT_CAP,
    regexCapMs: DEFAULT_REGEX_CAP_MS,
    platform: process.platform,
    path: normalizePath(io.env.PATH),
    env: boundEnvironment(io.env),
    defaultCwd: options.cwd !== undefined ? canonicalDirectory(options.cwd, io.cwd, '--cwd') : null,
  });
  return { shell, resolver };
}
