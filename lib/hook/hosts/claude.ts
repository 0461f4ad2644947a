// Claude Code: hooks and permissions in .claude/settings.local.json (this machine),
// .claude/settings.json (the project) and ~/.claude/settings.json (the user); Claude Code
// merges all three. Install writes:
// - hooks.Stop: gate-check hook stop --host claude, timeout 30 s (the hook answers within its
//   own 10 s; Claude Code's default is 600 s). In ~/.claude/settings.json in exec form
//   (`command` + `args`, Claude Code 2.1.139+: no shell parses the paths). In the repository's
//   .claude/settings*.json in shell form (quoted paths, the marker comment at the end):
//   GitHub Copilot CLI (and VS Code) run the hooks of those files too, and Copilot documents
//   `command` only as a shell string and `args` only next to its own `exec`, so an exec-form
//   entry there might run as a bare `node` under Copilot and let the agent stop. Copilot takes
//   `timeout` as its timeoutSec (30 s, inside its fail-open default).
// - hooks.ConfigChange (exec form; only Claude Code has this event): gate-check hook
//   config-change --settings FILE, timeout 15 s: refuses, mid-session, a settings change that
//   removes the Stop hook or the deny rules;
// - permissions.deny: the rules of claude-rules.ts.
// `disableAllHooks: true` in the first file of the chain that sets it turns every hook off.
import { isPlainObject } from '../../json/hostile.js';
import { isOurExecEntry, isOurShellEntry, stopArgs, stopShellCommand } from '../hook-entry.js';
import type { InstallPlan, JsonObject } from '../settings-merge.js';
import { denyRulesFor, STATIC_DENY_RULES } from './claude-rules.js';
import { positiveNumber, type HostAdapter, type LocationContext, type Runtime, type ScanFile, type SettingsLocation, type StopSlot, type TargetKind } from './host.js';

export const CLAUDE_STOP_TIMEOUT_SECONDS = 30;
export const CLAUDE_CONFIG_TIMEOUT_SECONDS = 15;
/** Claude Code's default timeout of a command hook. */
const CLAUDE_DEFAULT_TIMEOUT_SECONDS = 600;

export const CLAUDE_LOCAL = ['.claude', 'settings.local.json'] as const;
export const CLAUDE_SHARED = ['.claude', 'settings.json'] as const;

/** How the Stop entry names the CLI: exec form for the user's file, shell form for the repository's (read by Copilot CLI too). */
export type ClaudeStopForm = 'exec' | 'shell';

export function claudeStopEntry(rt: Runtime, form: ClaudeStopForm = 'exec'): JsonObject {
  if (form === 'shell') return { type: 'command', command: stopShellCommand(rt.node, rt.bin, 'claude'), timeout: CLAUDE_STOP_TIMEOUT_SECONDS };
  return { type: 'command', command: rt.node, args: stopArgs(rt.bin, 'claude'), timeout: CLAUDE_STOP_TIMEOUT_SECONDS };
}

export function claudeStopForm(kind: TargetKind): ClaudeStopForm {
  return kind === 'global' ? 'exec' : 'shell';
}

export function claudeConfigChangeEntry(rt: Runtime, settingsFile: string): JsonObject {
  return { type: 'command', command: rt.node, args: [rt.bin, 'hook', 'config-change', '--settings', settingsFile], timeout: CLAUDE_CONFIG_TIMEOUT_SECONDS };
}

/** Ours: the exec form above, or the shell form of earlier versions (`… hook claude-stop # gate-check:stop-hook`). */
export function isClaudeStopEntry(entry: unknown): boolean {
  return isOurExecEntry(entry, 'command', 'stop') || isOurShellEntry(entry, ['command']);
}

export function isClaudeConfigChangeEntry(entry: unknown): boolean {
  return isOurExecEntry(entry, 'command', 'config-change');
}

export function claudePlan(rt: Runtime | null, settingsFile: string, env: NodeJS.ProcessEnv, form: ClaudeStopForm = 'exec'): InstallPlan {
  const values = denyRulesFor(env);
  return {
    base: {},
    ops: [
      { kind: 'entry', path: ['hooks', 'Stop'], layout: 'grouped', entry: rt && claudeStopEntry(rt, form), isOurs: isClaudeStopEntry },
      { kind: 'entry', path: ['hooks', 'ConfigChange'], layout: 'grouped', entry: rt && claudeConfigChangeEntry(rt, settingsFile), isOurs: isClaudeConfigChangeEntry },
      { kind: 'strings', path: ['permissions', 'deny'], values, owned: [...new Set([...values, ...STATIC_DENY_RULES])] },
    ],
  };
}

function location(kind: TargetKind, ctx: LocationContext): SettingsLocation {
  if (kind === 'global') return { base: ctx.home!, rel: ['.claude', 'settings.json'] };
  return { base: ctx.root!, rel: kind === 'local' ? CLAUDE_LOCAL : CLAUDE_SHARED };
}

export const CLAUDE_STOP_SLOT: StopSlot = {
  path: ['hooks', 'Stop'],
  layout: 'grouped',
  timeout: (entry) => {
    const t = positiveNumber(Object.hasOwn(entry, 'timeout') ? entry.timeout : undefined);
    return t === null ? { seconds: CLAUDE_DEFAULT_TIMEOUT_SECONDS, explicit: false } : { seconds: t, explicit: true };
  },
};

/** `disableAllHooks` of one file: true turns every hook off, false keeps them on, null leaves it to the next file. */
export function claudeDisableAllHooks(settings: unknown): boolean | null {
  if (!isPlainObject(settings) || !Object.hasOwn(settings, 'disableAllHooks')) return null;
  return settings.disableAllHooks === true;
}

/** The files Claude Code reads, highest precedence first (managed settings aside). */
export function claudeChain(root: string | null, home: string | null): string[] {
  const chain: string[] = [];
  if (root !== null) chain.push(`${root}/${CLAUDE_LOCAL.join('/')}`, `${root}/${CLAUDE_SHARED.join('/')}`);
  if (home !== null) chain.push(`${home}/.claude/settings.json`);
  return chain;
}

export const claudeHost: HostAdapter = {
  id: 'claude',
  name: 'Claude Code',
  targets: ['local', 'shared', 'global'],
  location,
  plan: (rt, file, env, kind) => claudePlan(rt, file, env, claudeStopForm(kind)),
  timeoutNote: `Stop hook timeout ${CLAUDE_STOP_TIMEOUT_SECONDS} s (Claude Code's default is ${CLAUDE_DEFAULT_TIMEOUT_SECONDS} s; the hook answers within 10 s)`,
  markers: (ctx) => [...(ctx.root ? [`${ctx.root}/.claude`] : []), ...(ctx.home ? [`${ctx.home}/.claude`] : [])],
  scan: (ctx): ScanFile[] =>
    claudeChain(ctx.root, ctx.home).map((file, i, all) => ({
      file,
      scope: ctx.root !== null && i < all.length - (ctx.home ? 1 : 0) ? 'repository' : 'home',
      slots: [CLAUDE_STOP_SLOT],
    })),
  disabled: (ctx, read) => {
    for (const file of claudeChain(ctx.root, ctx.home)) {
      const off = claudeDisableAllHooks(read(file));
      if (off !== null) return off ? { reason: `"disableAllHooks": true in ${file}`, fix: `remove "disableAllHooks" from ${file} (or set it to false)` } : null;
    }
    return null;
  },
  notes: (kind) => [
    kind === 'global'
      ? 'note: the hook entries use the exec form (command + args), which needs Claude Code 2.1.139 or later'
      : 'note: the ConfigChange entry uses the exec form (command + args), which needs Claude Code 2.1.139 or later; the Stop entry is a shell command, which GitHub Copilot CLI (it reads this file too) runs as well',
  ],
};
