// What `gate-check hook doctor` finds: for each host used in the repository or the home
// directory, the gate-check Stop hook entries it would run (from its own files, and from
// files it shares with another host), whether they can run, whether the host turns its
// hooks off, whether one stop would run the hook twice, and each entry's timeout against the
// hook's own deadline. Reads only (settings files through hook-scan.ts, executables by stat).
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { HOOK_DEADLINE_MS } from './deadline.js';
import { isOurExecEntry, quotedPaths, type FoundCommand } from './hook-entry.js';
import { readJsonFile, readTextFile, scanHost, type FoundEntry, type ScannedFile } from './hook-scan.js';
import { isClaudeConfigChangeEntry, isClaudeStopEntry } from './hosts/claude.js';
import { STATIC_DENY_RULES } from './hosts/claude-rules.js';
import type { HostAdapter, HostId, LocationContext } from './hosts/host.js';
import { HOSTS } from './hosts/registry.js';
import type { JsonObject } from './settings-merge.js';

export interface DoctorEntry {
  file: string;
  scope: 'repository' | 'home';
  /** Set when the file is another host's, read by this one too. */
  borrowed: string | null;
  at: string;
  form: 'exec' | 'shell';
  command: string;
  /** Written by `gate-check hook install` (recognized by its form). */
  ours: boolean;
  timeoutSeconds: number | null;
  timeoutExplicit: boolean;
  /** yes: its executable and CLI exist; no: one is missing; unchecked: resolved by the host (PATH, npx). */
  runnable: 'yes' | 'no' | 'unchecked';
  problems: string[];
}

export interface DoctorHost {
  host: HostId;
  name: string;
  /** Directories that show the host is used here. */
  found: string[];
  installed: boolean;
  enabled: boolean;
  disabledBy: string | null;
  entries: DoctorEntry[];
  unreadable: Array<{ file: string; reason: string }>;
  problems: string[];
  warnings: string[];
}

export interface DoctorReport {
  ok: boolean;
  root: string | null;
  home: string | null;
  hosts: DoctorHost[];
  problems: string[];
}

function exists(path: string, what: string): string | null {
  let st;
  try {
    st = statSync(path);
  } catch {
    return `${what} ${path} does not exist`;
  }
  if (!st.isFile()) return `${what} ${path} is not a file`;
  return null;
}

function executable(path: string): string | null {
  const missing = exists(path, 'the executable');
  if (missing) return missing;
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `the executable ${path} is not executable`;
  }
}

/** Whether the command can start: the paths it names exist (when they are absolute). */
function runnable(command: FoundCommand): { state: DoctorEntry['runnable']; problem: string | null } {
  let node: string | null = null;
  let bin: string | null = null;
  if (command.form === 'exec') {
    node = command.executable;
    bin = command.args[0] ?? null;
  } else {
    const paths = quotedPaths(command.command);
    if (paths) ({ node, bin } = paths);
  }
  if (node === null || !isAbsolute(node)) return { state: 'unchecked', problem: null };
  const problem = executable(node) ?? (bin !== null && isAbsolute(bin) ? exists(bin, 'the gate-check CLI') : null);
  return { state: problem === null ? 'yes' : 'no', problem };
}

function display(command: FoundCommand): string {
  return command.form === 'exec' ? [command.executable, ...command.args].join(' ') : command.command;
}

function isOurs(host: HostId, f: ScannedFile, entry: JsonObject): boolean {
  if (f.borrowed !== undefined || host === 'claude') return isClaudeStopEntry(entry);
  return isOurExecEntry(entry, 'exec', 'stop') || /# gate-check:stop-hook\s*$/.test(typeof entry.command === 'string' ? entry.command : typeof entry.bash === 'string' ? entry.bash : '');
}

/**
 * Why an entry's answer may never reach the host, or null: a host that does not wait for it
 * (async, or a hook type other than a command), or a shell command that discards or replaces
 * the answer (`>/dev/null`, `true ||`, `exit 0;`). Quoted words are the paths gate-check
 * writes; anything else that is shell control is not gate-check's.
 */
export function cannotBlock(entry: JsonObject, command: FoundCommand): string | null {
  if (entry.async === true) return 'it runs asynchronously ("async": true): the host does not wait for its answer, so it never holds a stop';
  if (entry.type !== undefined && entry.type !== 'command') return `its type is ${JSON.stringify(String(entry.type)).slice(0, 40)}, not "command": the host does not run gate-check for it`;
  if (command.form !== 'shell') return null;
  const bare = command.command.replace(/'[^']*'/g, "''").replace(/\s*# gate-check:stop-hook\s*$/, '');
  const control = /[;&|<>`$()\n]|\b(?:true|false|exit|exec|:)\b/.exec(bare);
  return control ? `its shell command holds ${JSON.stringify(control[0])} outside the paths gate-check writes: it may discard or replace the hook's answer (gate-check hook install writes an entry that cannot)` : null;
}

function assessEntry(host: HostAdapter, f: ScannedFile, e: FoundEntry): DoctorEntry {
  const timeout = e.slot.timeout(e.entry);
  const run = runnable(e.command);
  const problems: string[] = [];
  if (run.problem) problems.push(`cannot run: ${run.problem}`);
  const blocked = cannotBlock(e.entry, e.command);
  if (blocked) problems.push(`cannot hold a stop: ${blocked}`);
  if (f.borrowed !== undefined && host.id === 'copilot' && e.command.form === 'exec' && !Object.hasOwn(e.entry, 'exec')) {
    // Copilot documents `command` as a shell string and `args` only next to `exec`.
    problems.push(
      `may not run under ${host.name}: it documents "args" only next to "exec" and runs "command" as a shell command, so this entry may start ${e.command.executable} without its arguments and let the agent stop (gate-check hook install --host claude rewrites it as a shell command both hosts run)`,
    );
  }
  if (timeout.seconds !== null && timeout.seconds * 1000 <= HOOK_DEADLINE_MS) {
    problems.push(
      `its timeout (${timeout.seconds} s${timeout.explicit ? '' : ', the host default'}) is not longer than the hook's own ${HOOK_DEADLINE_MS / 1000} s deadline: ${host.name} may cut the hook off and let the agent stop`,
    );
  }
  return {
    file: f.file,
    scope: f.scope,
    borrowed: f.borrowed ?? null,
    at: e.at,
    form: e.command.form,
    command: display(e.command),
    ours: isOurs(host.id, f, e.entry),
    timeoutSeconds: timeout.seconds,
    timeoutExplicit: timeout.explicit,
    runnable: run.state,
    problems,
  };
}

/** For a Claude Code file with our Stop hook: are its companions (ConfigChange, deny rules) there? */
function claudeCompanions(value: JsonObject, file: string): string[] {
  const warnings: string[] = [];
  const hooks = value.hooks as JsonObject | undefined;
  const groups = hooks && Array.isArray(hooks.ConfigChange) ? (hooks.ConfigChange as Array<{ hooks?: unknown[] }>) : [];
  if (!groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some(isClaudeConfigChangeEntry))) {
    warnings.push(`${file}: no gate-check ConfigChange hook (run gate-check hook install --host claude to add it)`);
  }
  const permissions = value.permissions as JsonObject | undefined;
  const deny = permissions && Array.isArray(permissions.deny) ? permissions.deny : [];
  const missing = STATIC_DENY_RULES.filter((r) => !deny.includes(r));
  if (missing.length > 0) warnings.push(`${file}: ${missing.length} of gate-check's permissions.deny rules are missing (${missing.join(', ')}); run gate-check hook install --host claude to add them`);
  return warnings;
}

export function doctor(ctx: LocationContext): DoctorReport {
  const hosts: DoctorHost[] = [];
  const readOk = (file: string): JsonObject | null => {
    const r = readJsonFile(file);
    return r.status === 'ok' ? r.value : null;
  };
  for (const host of HOSTS) {
    const files = scanHost(host, ctx);
    const found = host.markers(ctx).filter((d) => {
      try {
        return statSync(d).isDirectory();
      } catch {
        return false;
      }
    });
    const present = files.filter((f) => f.status !== 'missing');
    const entries: DoctorEntry[] = [];
    const unreadable: DoctorHost['unreadable'] = [];
    const problems: string[] = [];
    const warnings: string[] = [];
    for (const f of present) {
      if (f.status === 'unreadable') {
        // Another host's file is that host's business, reported there.
        if (f.borrowed === undefined) unreadable.push({ file: f.file, reason: f.reason });
        continue;
      }
      if (f.status !== 'ok') continue;
      const fileOff = f.disabledBy?.(f.value) ?? null;
      for (const e of f.entries) {
        const entry = assessEntry(host, f, e);
        if (fileOff) entry.problems.push(`does not run: ${fileOff}`);
        entries.push(entry);
      }
      if (host.id === 'claude' && f.entries.some((e) => isClaudeStopEntry(e.entry))) warnings.push(...claudeCompanions(f.value, f.file));
    }
    // A host is reported when it is used here: its directories, or a file of its own (not one it borrows).
    if (found.length === 0 && !present.some((f) => f.borrowed === undefined)) continue;
    const disabled = host.disabled?.(ctx, readOk, readTextFile) ?? null;
    for (const u of unreadable) problems.push(`cannot read ${u.file}: ${u.reason} (its hooks cannot be checked)`);
    if (entries.length > 0 && disabled) problems.push(`installed, but no ${host.name} hook runs: ${disabled.reason}; to let it run, ${disabled.fix}`);
    if (entries.length > 1) {
      problems.push(`runs the gate-check Stop hook ${entries.length} times at every stop (${entries.map((e) => `${e.file} ${e.at}`).join('; ')}): keep one (gate-check hook uninstall --host … removes one)`);
    }
    for (const e of entries) for (const p of e.problems) problems.push(`${e.file} ${e.at}: ${p}`);
    for (const e of entries) {
      if (!e.ours && e.runnable === 'unchecked') warnings.push(`${e.file} ${e.at}: not written by gate-check hook install; where it finds gate-check was not checked`);
      if (host.id === 'claude' && e.form === 'exec') warnings.push(`${e.file} ${e.at}: the exec form (command + args) needs Claude Code 2.1.139 or later`);
      if (host.id === 'copilot' && e.form === 'exec' && e.scope === 'repository' && e.borrowed === null) {
        warnings.push(`${e.file} ${e.at}: the Copilot cloud agent honours only bash/command entries, so this exec entry runs in Copilot CLI only`);
      }
    }
    if (host.id === 'cursor') {
      const claude = ctx.root ? scanHost(HOSTS[0]!, { ...ctx, home: null }).filter((f) => f.status === 'ok' && f.entries.length > 0) : [];
      for (const f of claude) warnings.push(`Cursor may also load ${f.file} (third-party hooks); its gate-check entry answers in Claude Code's format, which Cursor ignores`);
    }
    hosts.push({
      host: host.id,
      name: host.name,
      found,
      installed: entries.length > 0,
      enabled: disabled === null,
      disabledBy: disabled?.reason ?? null,
      entries,
      unreadable,
      problems,
      warnings,
    });
  }
  const problems = hosts.flatMap((h) => h.problems.map((p) => `${h.name}: ${p}`));
  if (!hosts.some((h) => h.installed)) problems.push('no gate-check Stop hook is installed for any agent host here (gate-check hook install --host … adds one)');
  return { ok: problems.length === 0, root: ctx.root, home: ctx.home, hosts, problems };
}
