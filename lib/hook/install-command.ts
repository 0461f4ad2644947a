// gate-check hook install [--shared | --global] [--uninstall] [--root DIR]
// gate-check hook uninstall [--shared | --global] [--root DIR]
//
// Adds the Claude Code Stop hook (one marked entry) and the permissions.deny rules to a
// settings file, or removes exactly those. The settings file is read as hostile (no-follow,
// single link, bounded, strict JSON), refused unchanged when anything it must touch has an
// unexpected shape, and rewritten only when something changes: under a lock, after an atomic
// backup of the original bytes, atomically, in the file's own indentation.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Io } from '../cli/io.js';
import { parseSubcommand, subcommandProgram } from '../cli/subcommand-program.js';
import { UnsafeFileError, UsageError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { resolveRoot } from '../fsx/discover.js';
import { makeDirectory } from '../fsx/create.js';
import { acquireLock, lockTimeoutFromEnv } from '../fsx/lock.js';
import { lstatOrNull, safeReadFile, type FileIdentity } from '../fsx/safe-read.js';
import { isPlainObject } from '../json/hostile.js';
import { gitTracks } from '../run/git.js';
import { findUnsafeChar, sanitizeLine } from '../text/sanitize.js';
import { MAX_SETTINGS_BYTES, NEW_FILE_STYLE, parseSettingsText, serializeSettings, type TextStyle } from './settings-json.js';
import { installStopHook, stopHookEntry, uninstallStopHook, validateSettings, type StopHookEntry } from './settings-merge.js';

interface InstallOptions {
  shared?: boolean;
  global?: boolean;
  uninstall?: boolean;
  root?: string;
}

type Target = { kind: 'local' | 'shared'; base: string; root: string } | { kind: 'global'; base: string };

const GIT_TIMEOUT_MS = 5_000;
const LOCAL_REL = '.claude/settings.local.json';

const HELP_AFTER = `
Targets:
  (default)   <root>/.claude/settings.local.json   this machine only; keep it untracked
  --shared    <root>/.claude/settings.json         the project's settings
  --global    $HOME/.claude/settings.json          every project of this user

The Stop hook entry is marked with the shell comment "# gate-check:stop-hook"; a changed or
repeated entry of ours is repaired to exactly one. Five permissions.deny rules keep the agent
from running gate-check --approve through its Bash tool (defense in depth, not a boundary).
Before a change, the previous file is saved as <file>.gate-check.bak.
Exit codes: 0 done (or nothing to do); 2 usage error, malformed or unsafe settings file, lock timeout.
`;

function show(path: string): string {
  return sanitizeLine(path, 400);
}

function settingsTarget(options: InstallOptions, io: Io): Target {
  if (options.shared && options.global) throw new UsageError('--shared and --global cannot be combined', "see 'gate-check hook install --help'");
  if (options.global) {
    if (options.root !== undefined) throw new UsageError('--root has no meaning with --global (the settings file is $HOME/.claude/settings.json)');
    const home = io.env.HOME;
    if (home === undefined || home === '' || !isAbsolute(home)) throw new UsageError('--global needs HOME set to an absolute path');
    let st;
    try {
      st = statSync(home);
    } catch {
      throw new UnsafeFileError(home, 'HOME does not exist');
    }
    if (!st.isDirectory()) throw new UnsafeFileError(home, 'HOME is not a directory');
    return { kind: 'global', base: home };
  }
  const root = resolveRoot(options.root, io.cwd).path;
  return { kind: options.shared ? 'shared' : 'local', base: root, root };
}

/** `.claude` must be a real directory; created (0755) only when `create`. False when missing. */
function claudeDir(dir: string, create: boolean): boolean {
  let st = lstatOrNull(dir);
  if (!st && create) {
    makeDirectory(dir, 0o755);
    st = lstatOrNull(dir);
  }
  if (!st) return false;
  if (st.isSymbolicLink()) throw new UnsafeFileError(dir, 'is a symbolic link (refused: the settings are written only into a real .claude directory)');
  if (!st.isDirectory()) throw new UnsafeFileError(dir, 'is not a directory');
  return true;
}

interface Snapshot {
  exists: boolean;
  bytes: Buffer | null;
  identity: FileIdentity | null;
  mode: number;
  value: unknown;
  style: TextStyle;
}

const NO_FILE: Snapshot = { exists: false, bytes: null, identity: null, mode: 0o644, value: {}, style: NEW_FILE_STYLE };

function readSettings(file: string): Snapshot {
  if (!lstatOrNull(file)) return NO_FILE;
  const read = safeReadFile(file, MAX_SETTINGS_BYTES, 'settings file');
  const hint = 'fix the file by hand (or move it away), then run the command again; nothing was changed';
  const parsed = parseSettingsText(read.bytes);
  if (!parsed.ok) throw new UnsafeFileError(file, `settings file ${parsed.reason}`, hint);
  const invalid = validateSettings(parsed.value);
  if (invalid !== null) throw new UnsafeFileError(file, `settings file: ${invalid}`, hint);
  return { exists: true, bytes: read.bytes, identity: read.identity, mode: read.mode & 0o777, value: parsed.value, style: parsed.style };
}

type Outcome =
  | { kind: 'install'; result: ReturnType<typeof installStopHook> }
  | { kind: 'uninstall'; result: ReturnType<typeof uninstallStopHook> };

function plan(snapshot: Snapshot, uninstall: boolean, entry: StopHookEntry | null): Outcome {
  return uninstall ? { kind: 'uninstall', result: uninstallStopHook(snapshot.value) } : { kind: 'install', result: installStopHook(snapshot.value, entry!) };
}

/** The hook entry for the running CLI: absolute node and bin paths, each quoted for sh. */
function currentEntry(): { entry: StopHookEntry; bin: string } {
  const argvBin = process.argv[1];
  if (argvBin === undefined) throw new UsageError('cannot tell the path of the gate-check CLI (process.argv[1] is missing)');
  let bin: string;
  try {
    bin = realpathSync(argvBin);
  } catch {
    throw new UsageError(`cannot resolve the path of the gate-check CLI (${sanitizeLine(argvBin, 200)})`);
  }
  for (const [what, path] of [['node', process.execPath], ['gate-check', bin]] as const) {
    if (!isAbsolute(path)) throw new UsageError(`the path of ${what} is not absolute: ${sanitizeLine(path, 200)}`);
    if (findUnsafeChar(path) !== null || path.includes('\n') || path.includes('\t')) {
      throw new UsageError(`the path of ${what} contains a control character; refusing to write it into a hook command`);
    }
  }
  return { entry: stopHookEntry(process.execPath, bin), bin };
}

/**
 * The settings files Claude Code reads for the target, highest precedence first (local over
 * project over user; managed settings are not looked at).
 */
function settingsChain(target: Target, io: Io): string[] {
  const home = io.env.HOME !== undefined && isAbsolute(io.env.HOME) ? join(io.env.HOME, '.claude', 'settings.json') : null;
  const chain = target.kind === 'global' ? [] : [join(target.root, '.claude', 'settings.local.json'), join(target.root, '.claude', 'settings.json')];
  if (home !== null) chain.push(home);
  return chain;
}

/** `disableAllHooks` as Claude Code would see it: from the first file in the chain that sets it. */
function hooksDisabledBy(chain: readonly string[], written: { file: string; value: unknown }): string | null {
  for (const file of chain) {
    let value: unknown;
    if (file === written.file) value = written.value;
    else {
      try {
        value = readSettings(file).value;
      } catch {
        continue; // not ours to judge here; Claude Code reports a broken settings file itself
      }
    }
    if (isPlainObject(value) && Object.hasOwn(value, 'disableAllHooks')) return value.disableAllHooks === true ? file : null;
  }
  return null;
}

function describeInstall(r: ReturnType<typeof installStopHook>, file: string): string {
  const where = show(file);
  if (!r.changed) return `the gate-check Stop hook is already installed in ${where}; nothing changed`;
  if (r.hook === 'added') return `installed the gate-check Stop hook in ${where}`;
  const what: string[] = [];
  if (r.hook === 'repaired') {
    what.push(r.duplicatesRemoved > 0 ? `kept one entry of ours, removed ${r.duplicatesRemoved} more` : 'replaced a changed entry of ours');
  }
  if (r.denyAdded.length > 0) what.push(`added ${r.denyAdded.length} missing permissions.deny rule${r.denyAdded.length === 1 ? '' : 's'}`);
  return `repaired the gate-check Stop hook in ${where} (${what.join('; ')})`;
}

export async function hookInstallCommand(args: string[], io: Io, uninstall: boolean): Promise<number> {
  const name = uninstall ? 'hook uninstall' : 'hook install';
  const { program, output } = subcommandProgram(
    name,
    uninstall ? 'Remove the gate-check Stop hook and deny rules from Claude Code settings.' : 'Add the gate-check Stop hook to Claude Code settings.',
  );
  program
    .option('--shared', 'the project settings, .claude/settings.json (committed with the project)')
    .option('--global', 'the user settings, $HOME/.claude/settings.json')
    .option('--uninstall', 'remove what install added')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .addHelpText('after', HELP_AFTER);
  const parsed = parseSubcommand<InstallOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const { options } = parsed;
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument ${sanitizeLine(parsed.args[0]!, 80)}`, `see 'gate-check ${name} --help'`);
  const removing = uninstall || options.uninstall === true;
  const target = settingsTarget(options, io);
  const dir = join(target.base, '.claude');
  const file = join(dir, target.kind === 'local' ? 'settings.local.json' : 'settings.json');
  const current = removing ? null : currentEntry();

  // First look without the lock: nothing to do means nothing is created, locked or written.
  const present = claudeDir(dir, false);
  let snapshot = present ? readSettings(file) : NO_FILE;
  let outcome = plan(snapshot, removing, current?.entry ?? null);
  let backup: string | null = null;

  if (outcome.result.changed) {
    claudeDir(dir, true);
    const lock = await acquireLock(`${file}.gate-check.lock`, lockTimeoutFromEnv(io.env));
    try {
      // Decide again under the lock, on what the directory and file hold now.
      claudeDir(dir, false);
      snapshot = readSettings(file);
      outcome = plan(snapshot, removing, current?.entry ?? null);
      if (outcome.result.changed) {
        const text = serializeSettings(outcome.result.settings, snapshot.style);
        if (snapshot.exists) {
          backup = `${file}.gate-check.bak`;
          atomicWriteFile(backup, snapshot.bytes!, { mode: snapshot.mode, create: true });
          atomicWriteFile(file, text, { mode: snapshot.mode, expect: snapshot.identity! });
        } else {
          atomicWriteFile(file, text, { mode: 0o644, create: true });
        }
      }
    } finally {
      lock.release();
    }
  }

  const out: string[] = [];
  const warnings: string[] = [];
  if (outcome.kind === 'uninstall') {
    const r = outcome.result;
    if (!r.changed) out.push(`the gate-check Stop hook is not installed in ${show(file)}; nothing changed`);
    else {
      const parts: string[] = [];
      if (r.hooksRemoved > 0) parts.push(`${r.hooksRemoved} hook entr${r.hooksRemoved === 1 ? 'y' : 'ies'}`);
      if (r.denyRemoved > 0) parts.push(`${r.denyRemoved} permissions.deny rule${r.denyRemoved === 1 ? '' : 's'}`);
      out.push(`uninstalled the gate-check Stop hook from ${show(file)} (removed ${parts.join(' and ')})`);
    }
  } else {
    const r = outcome.result;
    out.push(describeInstall(r, file));
    const disabledIn = hooksDisabledBy(settingsChain(target, io), { file, value: outcome.result.settings });
    if (disabledIn !== null) {
      out.push(
        `  but no hook can run: "disableAllHooks": true in ${show(disabledIn)} turns every Claude Code hook off, this one included.`,
        `  To let the Stop hook run, remove "disableAllHooks" from ${show(disabledIn)} (or set it to false).`,
      );
    }
    if (r.changed) {
      out.push(`  hook command: ${sanitizeLine(current!.entry.command, 600)}`);
      if (r.hook === 'added' && r.denyAdded.length > 0) out.push(`  permissions.deny: added ${r.denyAdded.length} rule${r.denyAdded.length === 1 ? '' : 's'} that keep the agent from running gate-check --approve`);
    }
    if (/[/\\]_npx[/\\]/.test(current!.bin)) {
      warnings.push(`warning: the hook runs gate-check from npx's cache (${show(current!.bin)}), which npx may clean; install gate-check as a dependency or globally, then install the hook again`);
    }
    if (target.kind === 'local') {
      warnings.push(`warning: ${LOCAL_REL} must stay untracked: do not commit it (the hook command holds absolute paths of this machine)`);
      const tracked = await gitTracks(target.root, LOCAL_REL, io.env, GIT_TIMEOUT_MS);
      if (tracked === true) {
        warnings.push(
          `WARNING: ${LOCAL_REL} IS TRACKED BY GIT in ${show(target.root)}. Do not commit it: it holds absolute paths of this machine.`,
          `  untrack it: git rm --cached ${LOCAL_REL}   and add it to .gitignore`,
        );
      }
    } else if (target.kind === 'shared') {
      warnings.push('note: .claude/settings.json is usually committed; the hook command holds absolute paths of this machine, so on another machine it must be installed again');
    }
  }
  if (backup !== null) out.push(`  previous file saved as ${show(backup)}`);
  io.stdout(out.join('\n') + '\n');
  if (warnings.length > 0) io.stderr(warnings.join('\n') + '\n');
  return 0;
}
