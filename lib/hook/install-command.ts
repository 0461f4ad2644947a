// gate-check hook install [--host H] [--shared | --global] [--uninstall] [--root DIR]
// gate-check hook uninstall [--host H] [--shared | --global] [--root DIR]
//
// Adds gate-check's Stop hook (and for Claude Code its ConfigChange hook and permissions.deny
// rules) to one host's settings file, or removes exactly those. The file is read as hostile
// (no-follow, single link, bounded, strict JSON), refused unchanged when anything it must
// touch has an unexpected shape, and rewritten only when something changes: under a lock,
// atomically, in the file's own indentation. The first install saves the original bytes to
// <file>.gate-check.bak (or notes, by having none, that it created the file); uninstall puts
// those bytes back when nothing but gate-check's entries changed since (else it removes only
// those), removes a file install created and left otherwise empty, and removes the backup.
// An install that would make a host run the Stop hook twice (two of its files, or a file it
// shares with another host) is refused.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UnsafeFileError, UsageError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { removeFile } from '../fsx/create.js';
import { resolveRoot } from '../fsx/discover.js';
import { acquireLock, lockTimeoutFromEnv } from '../fsx/lock.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { gitTracks } from '../run/git.js';
import { findUnsafeChar, sanitizeLine } from '../text/sanitize.js';
import { shellQuote } from './hook-entry.js';
import { readJsonFile, readTextFile, scanHost } from './hook-scan.js';
import { joinLocation, type HostAdapter, type LocationContext, type Runtime, type TargetKind } from './hosts/host.js';
import { HOST_IDS, HOSTS, hostById } from './hosts/registry.js';
import { serializeSettings } from './settings-json.js';
import { readSettings, noFile, settingsDirs, type Snapshot } from './settings-file.js';
import { hasOurEntries, installPlan, sameJson, uninstallPlan, withoutEmptyContainers, type InstallPlan, type InstallResult, type JsonObject } from './settings-merge.js';

interface InstallOptions {
  host?: string;
  shared?: boolean;
  global?: boolean;
  uninstall?: boolean;
  root?: string;
}

const GIT_TIMEOUT_MS = 5_000;

const HELP_AFTER = `
Hosts and targets (--host claude when not given):
  claude   (default) .claude/settings.local.json   --shared .claude/settings.json   --global ~/.claude/settings.json
  codex    (default, --shared) .codex/hooks.json   --global $CODEX_HOME/hooks.json (~/.codex)
  copilot  (default) .github/copilot/settings.local.json   --shared .github/hooks/gate-check.json
           --global $COPILOT_HOME/hooks/gate-check.json (~/.copilot)
  gemini   (default, --shared) .gemini/settings.json   --global ~/.gemini/settings.json
  cursor   (default, --shared) .cursor/hooks.json      --global ~/.cursor/hooks.json

Each entry runs "gate-check hook stop --host H" by the absolute paths of this node and this
CLI, with an explicit timeout: in exec form where only a host that runs one reads the file
(Copilot's files, ~/.claude/settings.json); else single-quoted, ending with the shell comment
"# gate-check:stop-hook" (Codex, Gemini CLI, Cursor, and the repository's .claude files,
which Copilot CLI runs too). For Claude Code, install also adds a
ConfigChange hook and permissions.deny rules (defense in depth, not a boundary).
The first install saves the previous file as <file>.gate-check.bak; uninstall restores it
byte for byte when only gate-check's entries changed since, removes a file install created,
and removes the backup. An install that would make a host run the hook twice is refused.
Exit codes: 0 done (or nothing to do); 2 usage error, malformed or unsafe settings file,
a second install, lock timeout.
`;

function show(path: string): string {
  return sanitizeLine(path, 400);
}

function homeDir(io: Io): string | null {
  const home = io.env.HOME;
  return home !== undefined && home !== '' && isAbsolute(home) ? home : null;
}

function requireHome(io: Io): string {
  const home = homeDir(io);
  if (home === null) throw new UsageError('--global needs HOME set to an absolute path');
  let st;
  try {
    st = statSync(home);
  } catch {
    throw new UnsafeFileError(home, 'HOME does not exist');
  }
  if (!st.isDirectory()) throw new UnsafeFileError(home, 'HOME is not a directory');
  return home;
}

function targetKind(options: InstallOptions, host: HostAdapter): TargetKind {
  if (options.shared && options.global) throw new UsageError('--shared and --global cannot be combined', "see 'gate-check hook install --help'");
  if (options.global) return 'global';
  if (options.shared) return 'shared';
  return host.targets[0]!;
}

/** The root for a global target: the current directory, when it can be resolved (only to look for a second install). */
function looseRoot(io: Io): string | null {
  try {
    return resolveRoot(undefined, io.cwd).path;
  } catch {
    return null;
  }
}

function context(kind: TargetKind, options: InstallOptions, io: Io): { ctx: LocationContext; scanCtx: LocationContext } {
  if (kind === 'global') {
    if (options.root !== undefined) throw new UsageError('--root has no meaning with --global (the settings file is in the home directory)');
    const home = requireHome(io);
    return { ctx: { root: null, home, env: io.env }, scanCtx: { root: looseRoot(io), home, env: io.env } };
  }
  const root = resolveRoot(options.root, io.cwd).path;
  const ctx = { root, home: homeDir(io), env: io.env };
  return { ctx, scanCtx: ctx };
}

/** The running CLI: absolute node and bin paths (the CLI's symlinks resolved). */
function currentRuntime(): Runtime {
  const argvBin = process.argv[1];
  // Mutation note: equivalent (unreachable through the CLI: node always sets argv[1] to the bin it runs).
  if (argvBin === undefined) throw new UsageError('cannot tell the path of the gate-check CLI (process.argv[1] is missing)');
  let bin: string;
  try {
    bin = realpathSync(argvBin);
  } catch {
    // Mutation note: equivalent (unreachable through the CLI: the bin that runs exists).
    throw new UsageError(`cannot resolve the path of the gate-check CLI (${sanitizeLine(argvBin, 200)})`);
  }
  for (const [what, path] of [['node', process.execPath], ['gate-check', bin]] as const) {
    // Mutation note: equivalent: execPath and a realpath are absolute.
    if (!isAbsolute(path)) throw new UsageError(`the path of ${what} is not absolute: ${sanitizeLine(path, 200)}`);
    if (findUnsafeChar(path) !== null || path.includes('\n') || path.includes('\t')) {
      throw new UsageError(`the path of ${what} contains a control character; refusing to write it into a hook command`);
    }
  }
  return { node: process.execPath, bin };
}

/**
 * Refuses an install that would make a host run the Stop hook twice: every host that reads
 * the target file (Copilot CLI reads the repository's .claude/settings*.json too) must find
 * no gate-check Stop entry in its other files. Files it cannot read are named, not fatal.
 */
function checkSecondInstall(target: HostAdapter, file: string, ctx: LocationContext): string[] {
  const warnings: string[] = [];
  for (const host of HOSTS) {
    const files = scanHost(host, ctx);
    if (!files.some((f) => f.file === file) && host !== target) continue;
    for (const f of files) {
      if (f.file === file) continue;
      if (f.status === 'unreadable') {
        if (host === target) warnings.push(`warning: could not read ${show(f.file)} to look for a second gate-check hook (${sanitizeLine(f.reason, 200)})`);
        continue;
      }
      if (f.status !== 'ok' || f.entries.length === 0) continue;
      const why =
        host === target
          ? `${host.name} reads its hooks from ${show(f.file)} as well, which already runs the gate-check Stop hook`
          : `${host.name} reads both ${show(file)} and ${show(f.file)}, which already runs the gate-check Stop hook`;
      throw new UsageError(
        `refused: installing into ${show(file)} would make ${host.name} run the gate-check Stop hook twice at every stop (${why})`,
        f.borrowed !== undefined
          ? `keep one: the entry in ${show(f.file)} already serves ${host.name}; or remove it first (gate-check hook uninstall --host ${HOSTS.find((h) => h.name === f.borrowed)?.id ?? 'claude'} …)`
          : `keep one: remove the other first (gate-check hook uninstall --host ${host.id} …), or leave it as it is`,
      );
    }
  }
  return warnings;
}

function describeInstall(r: InstallResult, file: string): string {
  const where = show(file);
  if (!r.changed) return `the gate-check Stop hook is already installed in ${where}; nothing changed`;
  if (r.entries.every((e) => e.state === 'added')) return `installed the gate-check Stop hook in ${where}`;
  const what: string[] = [];
  for (const e of r.entries) {
    const name = e.path.join('.');
    if (e.state === 'added') what.push(`added the entry in ${name}`);
    else if (e.state === 'repaired') what.push(e.duplicatesRemoved > 0 ? `kept one entry of ours in ${name}, removed ${e.duplicatesRemoved} more` : `replaced a changed entry of ours in ${name}`);
  }
  if (r.stringsAdded.length > 0) what.push(`added ${r.stringsAdded.length} missing permissions.deny rule${r.stringsAdded.length === 1 ? '' : 's'}`);
  return `repaired the gate-check Stop hook in ${where} (${what.join('; ')})`;
}

function describeCommand(entry: JsonObject | null): string | null {
  // Mutation note: equivalent as a refusal (it is none: a description of no entry).
  if (entry === null) return null;
  const exe = typeof entry.command === 'string' && Array.isArray(entry.args) ? entry.command : typeof entry.exec === 'string' ? entry.exec : null;
  if (exe !== null && Array.isArray(entry.args)) return [exe, ...(entry.args as string[])].map((w) => (/^[A-Za-z0-9_./:-]+$/.test(w) ? w : shellQuote(w))).join(' ');
  return typeof entry.command === 'string' ? entry.command : null;
}

type Removal =
  | { kind: 'none' }
  | { kind: 'restored'; backup: string }
  | { kind: 'removed-file' }
  | { kind: 'edited'; entries: number; strings: number; backupDropped: boolean };

interface Outcome {
  install?: InstallResult;
  removal?: Removal;
  backup: string | null;
}

function backupPath(file: string): string {
  return `${file}.gate-check.bak`;
}

/** Writes an install under the lock, deciding again on what the file holds now. */
function applyInstall(file: string, plan: InstallPlan): Outcome {
  const snapshot = readSettings(file, plan);
  const r = installPlan(snapshot.value, plan);
  if (!r.changed) return { install: r, backup: null };
  const text = serializeSettings(r.settings, snapshot.style);
  const backup = backupPath(file);
  const first = !hasOurEntries(snapshot.value as JsonObject, plan);
  let saved: string | null = null;
  if (snapshot.exists) {
    // The first install keeps the original bytes; a repair keeps that backup as it is.
    if (first) {
      atomicWriteFile(backup, snapshot.bytes!, { mode: snapshot.mode, create: true });
      saved = backup;
    }
    atomicWriteFile(file, text, { mode: snapshot.mode, expect: snapshot.identity! });
  } else {
    // A backup without a file is a leftover: uninstall must not restore it over a file this install creates.
    if (lstatOrNull(backup)) removeFile(backup);
    atomicWriteFile(file, text, { mode: 0o644, create: true });
  }
  return { install: r, backup: saved };
}

function readBackup(file: string, plan: InstallPlan): Snapshot | null {
  const backup = backupPath(file);
  if (!lstatOrNull(backup)) return null;
  return readSettings(backup, plan, 'backup');
}

/** Writes an uninstall under the lock, deciding again on what the file holds now. */
function applyUninstall(file: string, plan: InstallPlan): Outcome {
  const snapshot = readSettings(file, plan);
  const r = uninstallPlan(snapshot.value, plan);
  if (!r.changed) return { removal: { kind: 'none' }, backup: null };
  const saved = readBackup(file, plan);
  const backup = backupPath(file);
  if (saved !== null) {
    // The original comes back byte for byte when it differs from the file only in gate-check's entries.
    const original =
      !hasOurEntries(saved.value as JsonObject, plan) &&
      sameJson(withoutEmptyContainers(uninstallPlan(saved.value, plan).settings, plan), withoutEmptyContainers(r.settings, plan));
    const text = original ? saved.bytes! : serializeSettings(r.settings, snapshot.style);
    atomicWriteFile(file, text, { mode: snapshot.mode, expect: snapshot.identity! });
    removeFile(backup);
    return { removal: original ? { kind: 'restored', backup } : { kind: 'edited', entries: r.entriesRemoved, strings: r.stringsRemoved, backupDropped: true }, backup: null };
  }
  if (sameJson(withoutEmptyContainers(r.settings, plan), withoutEmptyContainers(plan.base, plan))) {
    // No backup: install created this file, and nothing but gate-check's entries is in it.
    const now = lstatOrNull(file);
    // Mutation note: only a race reaches it (the file replaced between the read and the removal); no test races it.
    if (!now || now.dev !== snapshot.identity!.dev || now.ino !== snapshot.identity!.ino) {
      throw new UnsafeFileError(file, 'was replaced while gate-check was removing it (refused; nothing was removed)');
    }
    removeFile(file);
    return { removal: { kind: 'removed-file' }, backup: null };
  }
  atomicWriteFile(file, serializeSettings(r.settings, snapshot.style), { mode: snapshot.mode, expect: snapshot.identity! });
  return { removal: { kind: 'edited', entries: r.entriesRemoved, strings: r.stringsRemoved, backupDropped: false }, backup: null };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describeRemoval(removal: Removal, file: string): string[] {
  const where = show(file);
  switch (removal.kind) {
    case 'none':
      return [`the gate-check Stop hook is not installed in ${where}; nothing changed`];
    case 'restored':
      return [`uninstalled the gate-check Stop hook from ${where}: restored the file as it was before install (from ${show(removal.backup)}, now removed)`];
    case 'removed-file':
      return [`uninstalled the gate-check Stop hook from ${where}: removed the file, which install had created`];
    case 'edited': {
      const parts: string[] = [];
      if (removal.entries > 0) parts.push(plural(removal.entries, 'hook entry', 'hook entries'));
      if (removal.strings > 0) parts.push(plural(removal.strings, 'permissions.deny rule', 'permissions.deny rules'));
      const out = [`uninstalled the gate-check Stop hook from ${where} (removed ${parts.join(' and ')})`];
      if (removal.backupDropped) out.push(`  the file changed since install, so only gate-check's entries were removed; the backup ${show(backupPath(file))} was removed`);
      return out;
    }
  }
}

export async function hookInstallCommand(args: string[], io: Io, uninstall: boolean): Promise<number> {
  const name = uninstall ? 'hook uninstall' : 'hook install';
  const { program, output } = subcommandProgram(
    name,
    uninstall ? "Remove gate-check's Stop hook from an agent host's settings." : "Add gate-check's Stop hook to an agent host's settings.",
  );
  program
    .option('--host <host>', `the agent host: ${HOST_IDS.join(', ')} (default: claude)`)
    .option('--shared', "the project's file (usually committed with the project)")
    .option('--global', "the user's file, in the home directory")
    .option('--uninstall', 'remove what install added')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .addHelpText('after', HELP_AFTER);
  const parsed = parseSubcommand<InstallOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const { options } = parsed;
  // Mutation note: equivalent while commander refuses excess arguments itself (test/hook/subcommand-usage.test.ts).
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument ${sanitizeLine(parsed.args[0]!, 80)}`, `see 'gate-check ${name} --help'`);
  const host = hostById(options.host ?? 'claude');
  if (host === null) throw new UsageError(`unknown host ${sanitizeLine(options.host!, 40)} (one of ${HOST_IDS.join(', ')})`, `see 'gate-check ${name} --help'`);
  const removing = uninstall || options.uninstall === true;
  const kind = targetKind(options, host);
  const { ctx, scanCtx } = context(kind, options, io);
  const loc = host.location(kind, ctx);
  const file = joinLocation(loc);
  const runtime = removing ? null : currentRuntime();
  const plan = host.plan(runtime, file, io.env, kind);

  // First look without the lock: nothing to do means nothing is created, locked or written.
  const present = settingsDirs(loc.base, loc.rel, false);
  const snapshot = present ? readSettings(file, plan) : noFile(plan);
  const warnings: string[] = [];
  let changing: boolean;
  if (removing) {
    changing = uninstallPlan(snapshot.value, plan).changed;
    // An unusable backup is refused before anything is locked or written.
    if (changing) readBackup(file, plan);
  } else {
    warnings.push(...checkSecondInstall(host, file, scanCtx));
    changing = installPlan(snapshot.value, plan).changed;
  }

  let outcome: Outcome = removing ? { removal: { kind: 'none' }, backup: null } : { install: installPlan(snapshot.value, plan), backup: null };
  if (changing) {
    settingsDirs(loc.base, loc.rel, true);
    const lock = await acquireLock(`${file}.gate-check.lock`, lockTimeoutFromEnv(io.env));
    try {
      settingsDirs(loc.base, loc.rel, false);
      outcome = removing ? applyUninstall(file, plan) : applyInstall(file, plan);
    } finally {
      lock.release();
    }
  }

  const out: string[] = [];
  if (outcome.removal) {
    out.push(...describeRemoval(outcome.removal, file));
    if (outcome.removal.kind !== 'none' && host.id === 'claude') {
      out.push('  a Claude Code session already running keeps the hook until it restarts (its ConfigChange hook refuses the change mid-session)');
    }
  } else {
    const r = outcome.install!;
    out.push(describeInstall(r, file));
    const disabled = host.disabled?.(
      ctx,
      (f) => (f === file ? (r.settings as JsonObject) : readOk(f)),
      readTextFile,
    );
    if (disabled) {
      out.push(
        `  but no hook can run: ${show(disabled.reason)} turns every ${host.name} hook off, this one included.`,
        `  To let the Stop hook run, ${show(disabled.fix)}.`,
      );
    }
    if (r.changed) {
      const stop = plan.ops.find((op) => op.kind === 'entry');
      const command = stop && stop.kind === 'entry' ? describeCommand(stop.entry) : null;
      if (command !== null) out.push(`  hook command: ${sanitizeLine(command, 800)}`);
      out.push(`  ${host.name}: ${host.timeoutNote}`);
      if (host.id === 'claude' && r.stringsAdded.length > 0) {
        out.push(`  permissions.deny: added ${plural(r.stringsAdded.length, 'rule', 'rules')} that keep the agent from running gate-check --approve and from editing the private store and the Claude Code settings`);
      }
      if (host.id === 'claude' && r.entries.some((e) => e.path[1] === 'ConfigChange' && e.state !== 'unchanged')) {
        out.push('  ConfigChange: a settings change that removes this Stop hook or the deny rules is refused while a session runs');
      }
      for (const note of host.notes?.(kind) ?? []) warnings.push(note);
    }
    if (/[/\\]_npx[/\\]/.test(runtime!.bin)) {
      warnings.push(`warning: the hook runs gate-check from npx's cache (${show(runtime!.bin)}), which npx may clean; install gate-check as a dependency or globally, then install the hook again`);
    }
    if (kind === 'local') {
      const rel = loc.rel.join('/');
      warnings.push(`warning: ${rel} must stay untracked: do not commit it (the hook command holds absolute paths of this machine)`);
      const tracked = await gitTracks(ctx.root!, rel, io.env, GIT_TIMEOUT_MS);
      if (tracked === true) {
        warnings.push(
          `WARNING: ${rel} IS TRACKED BY GIT in ${show(ctx.root!)}. Do not commit it: it holds absolute paths of this machine.`,
          `  untrack it: git rm --cached ${rel}   and add it to .gitignore`,
        );
      }
    } else if (kind === 'shared') {
      warnings.push(`note: ${loc.rel.join('/')} is usually committed; the hook command holds absolute paths of this machine, so on another machine it must be installed again`);
    }
  }
  if (outcome.backup !== null) out.push(`  previous file saved as ${show(outcome.backup)}`);
  io.stdout(out.join('\n') + '\n');
  if (warnings.length > 0) io.stderr(warnings.join('\n') + '\n');
  return 0;
}

function readOk(file: string): JsonObject | null {
  const r = readJsonFile(file);
  return r.status === 'ok' ? r.value : null;
}
