// GitHub Copilot CLI: `{"version": 1, "hooks": {…}}` files in <repo>/.github/hooks/*.json and
// $COPILOT_HOME/hooks/*.json (default ~/.copilot/hooks), and an inline `hooks` block in
// <repo>/.github/copilot/settings.json or settings.local.json; it also reads the repository's
// .claude/settings.json and settings.local.json. Install writes hooks.agentStop in exec form
// (`exec` + `args`: no shell) with `timeoutSec` 25: Copilot fails open when a hook times out
// (default 30 s), the hook answers within its own 10 s, and 25 s leaves room for a slow start
// while staying under the default that a person may expect. Targets: local = the inline block
// of .github/copilot/settings.local.json, shared = .github/hooks/gate-check.json (a file of
// ours), global = ~/.copilot/hooks/gate-check.json. `disableAllHooks: true` at the top of a
// hooks file skips that file; at the top of .github/copilot/settings*.json, every hook.
// The cloud agent honours only `bash`/`command` entries and has no home directory state, so
// an exec entry with this machine's paths does not run there (references/hosts.md).
import { isPlainObject } from '../../json/hostile.js';
import { isOurExecEntry, isOurShellEntry, stopArgs } from '../hook-entry.js';
import type { InstallPlan, JsonObject } from '../settings-merge.js';
import { CLAUDE_LOCAL, CLAUDE_SHARED } from './claude.js';
import { positiveNumber, type HostAdapter, type LocationContext, type ScanFile, type SettingsLocation, type StopSlot, type TargetKind } from './host.js';

export const COPILOT_TIMEOUT_SECONDS = 25;
const COPILOT_DEFAULT_TIMEOUT_SECONDS = 30;
export const COPILOT_OWN_FILE = 'gate-check.json';

function copilotHome(ctx: LocationContext): { base: string; rel: string[] } | null {
  const dir = ctx.env.COPILOT_HOME;
  if (dir !== undefined && dir.startsWith('/')) return { base: dir, rel: [] };
  return ctx.home === null ? null : { base: ctx.home, rel: ['.copilot'] };
}

function location(kind: TargetKind, ctx: LocationContext): SettingsLocation {
  if (kind === 'global') {
    const h = copilotHome(ctx)!;
    return { base: h.base, rel: [...h.rel, 'hooks', COPILOT_OWN_FILE] };
  }
  if (kind === 'local') return { base: ctx.root!, rel: ['.github', 'copilot', 'settings.local.json'] };
  return { base: ctx.root!, rel: ['.github', 'hooks', COPILOT_OWN_FILE] };
}

export function isCopilotStopEntry(entry: unknown): boolean {
  return isOurExecEntry(entry, 'exec', 'stop') || isOurShellEntry(entry, ['bash', 'command']);
}

/** A hooks file must say `"version": 1`; one that says anything else is not a format we know. */
function versionCheck(settings: JsonObject): string | null {
  if (!Object.hasOwn(settings, 'version')) return null;
  return settings.version === 1 ? null : '"version" is not 1 (refused: not a hooks file format gate-check knows)';
}

export function copilotPlan(rt: { node: string; bin: string } | null, kind: TargetKind): InstallPlan {
  const entry: JsonObject | null = rt && { type: 'command', exec: rt.node, args: stopArgs(rt.bin, 'copilot'), timeoutSec: COPILOT_TIMEOUT_SECONDS };
  const hooksFile = kind !== 'local';
  return {
    base: hooksFile ? { version: 1 } : {},
    ops: [{ kind: 'entry', path: ['hooks', 'agentStop'], layout: 'flat', entry, isOurs: isCopilotStopEntry }],
    ...(hooksFile ? { check: versionCheck } : {}),
  };
}

function copilotTimeout(entry: JsonObject): { seconds: number; explicit: boolean } {
  const t = positiveNumber(Object.hasOwn(entry, 'timeoutSec') ? entry.timeoutSec : Object.hasOwn(entry, 'timeout') ? entry.timeout : undefined);
  return t === null ? { seconds: COPILOT_DEFAULT_TIMEOUT_SECONDS, explicit: false } : { seconds: t, explicit: true };
}

/** Copilot's own events (camelCase and the VS Code compatible PascalCase) hold entries directly. */
const OWN_SLOTS: StopSlot[] = [
  { path: ['hooks', 'agentStop'], layout: 'flat', timeout: copilotTimeout },
  { path: ['hooks', 'Stop'], layout: 'flat', timeout: copilotTimeout },
];
/** In a Claude Code file, Stop holds groups; Copilot takes `timeout` as its timeoutSec. */
const CLAUDE_FILE_SLOTS: StopSlot[] = [{ path: ['hooks', 'Stop'], layout: 'grouped', timeout: copilotTimeout }];

function fileDisables(settings: JsonObject): string | null {
  return isPlainObject(settings) && settings.disableAllHooks === true ? '"disableAllHooks": true in this file' : null;
}

export const copilotHost: HostAdapter = {
  id: 'copilot',
  name: 'GitHub Copilot CLI',
  targets: ['local', 'shared', 'global'],
  location,
  plan: (rt, _file, _env, kind) => copilotPlan(rt, kind),
  timeoutNote: `timeoutSec ${COPILOT_TIMEOUT_SECONDS} (Copilot lets the agent stop when a hook times out, by default after ${COPILOT_DEFAULT_TIMEOUT_SECONDS} s; the hook answers within 10 s)`,
  markers: (ctx) => {
    const h = copilotHome(ctx);
    return [...(ctx.root ? [`${ctx.root}/.github/hooks`, `${ctx.root}/.github/copilot`] : []), ...(h ? [[h.base, ...h.rel].join('/')] : [])];
  },
  scan: (ctx, listDir) => {
    const out: ScanFile[] = [];
    const hooksDir = (dir: string, scope: ScanFile['scope']) => {
      for (const name of listDir(dir)) if (name.endsWith('.json')) out.push({ file: `${dir}/${name}`, scope, slots: OWN_SLOTS, disabledBy: fileDisables });
    };
    if (ctx.root) {
      hooksDir(`${ctx.root}/.github/hooks`, 'repository');
      for (const name of ['settings.json', 'settings.local.json']) out.push({ file: `${ctx.root}/.github/copilot/${name}`, scope: 'repository', slots: OWN_SLOTS });
      for (const rel of [CLAUDE_SHARED, CLAUDE_LOCAL]) {
        out.push({ file: `${ctx.root}/${rel.join('/')}`, scope: 'repository', borrowed: 'Claude Code', slots: CLAUDE_FILE_SLOTS });
      }
    }
    const h = copilotHome(ctx);
    if (h) {
      const dir = [h.base, ...h.rel].join('/');
      hooksDir(`${dir}/hooks`, 'home');
      out.push({ file: `${dir}/settings.json`, scope: 'home', slots: OWN_SLOTS });
    }
    return out;
  },
  disabled: (ctx, read) => {
    // Mutation note: equivalent in practice (without a repository, the files looked at would
    // be named from the text "undefined", relative to where gate-check runs).
    if (!ctx.root) return null;
    for (const name of ['settings.local.json', 'settings.json']) {
      const file = `${ctx.root}/.github/copilot/${name}`;
      const v = read(file);
      if (v !== null && v.disableAllHooks === true) return { reason: `"disableAllHooks": true in ${file}`, fix: `remove "disableAllHooks" from ${file} (or set it to false)` };
    }
    return null;
  },
  notes: (kind) =>
    kind === 'shared'
      ? ['note: the entry uses exec + args with absolute paths of this machine: Copilot CLI runs it here; the Copilot cloud agent does not (it honours only bash/command entries)']
      : [],
};
