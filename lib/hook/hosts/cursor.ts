// Cursor: `{"version": 1, "hooks": {"stop": [...]}}` in .cursor/hooks.json (the project) and
// ~/.cursor/hooks.json (the user). Its hooks take a shell string only, so the paths are
// single-quoted and the marker comment ends the command. Install writes hooks.stop with
// `timeout` 30 (seconds; the hook answers within 10 s) and `loop_limit` 8: Cursor stops
// sending the hook's follow-up after loop_limit turns (5 when unset), which would cut the
// hook's own release (after 6 stops without progress) short; 8 is the cap Claude Code and
// Copilot apply. Cursor honours only `followup_message` from a stop hook; Cloud Agents run
// no stop hooks. Cursor may also load .claude/settings*.json, whose entries answer in
// Claude Code's format, which Cursor ignores.
import { isOurShellEntry, stopShellCommand } from '../hook-entry.js';
import type { InstallPlan, JsonObject } from '../settings-merge.js';
import { positiveNumber, type HostAdapter, type LocationContext, type SettingsLocation, type StopSlot, type TargetKind } from './host.js';

export const CURSOR_TIMEOUT_SECONDS = 30;
export const CURSOR_LOOP_LIMIT = 8;

function location(kind: TargetKind, ctx: LocationContext): SettingsLocation {
  return kind === 'global' ? { base: ctx.home!, rel: ['.cursor', 'hooks.json'] } : { base: ctx.root!, rel: ['.cursor', 'hooks.json'] };
}

export function isCursorStopEntry(entry: unknown): boolean {
  return isOurShellEntry(entry, ['command']);
}

function versionCheck(settings: JsonObject): string | null {
  if (!Object.hasOwn(settings, 'version')) return null;
  return settings.version === 1 ? null : '"version" is not 1 (refused: not a hooks file format gate-check knows)';
}

export function cursorPlan(rt: { node: string; bin: string } | null): InstallPlan {
  const entry: JsonObject | null = rt && { command: stopShellCommand(rt.node, rt.bin, 'cursor'), timeout: CURSOR_TIMEOUT_SECONDS, loop_limit: CURSOR_LOOP_LIMIT };
  return { base: { version: 1 }, ops: [{ kind: 'entry', path: ['hooks', 'stop'], layout: 'flat', entry, isOurs: isCursorStopEntry }], check: versionCheck };
}

const slot: StopSlot = {
  path: ['hooks', 'stop'],
  layout: 'flat',
  timeout: (entry) => {
    const t = positiveNumber(Object.hasOwn(entry, 'timeout') ? entry.timeout : undefined);
    return t === null ? { seconds: null, explicit: false } : { seconds: t, explicit: true };
  },
};

export const cursorHost: HostAdapter = {
  id: 'cursor',
  name: 'Cursor',
  targets: ['shared', 'global'],
  location,
  plan: (rt) => cursorPlan(rt),
  timeoutNote: `timeout ${CURSOR_TIMEOUT_SECONDS} s and loop_limit ${CURSOR_LOOP_LIMIT} (the hook answers within 10 s and releases after 6 stops without progress)`,
  markers: (ctx: LocationContext) => [...(ctx.root ? [`${ctx.root}/.cursor`] : []), ...(ctx.home ? [`${ctx.home}/.cursor`] : [])],
  scan: (ctx) => [
    ...(ctx.root ? [{ file: `${ctx.root}/.cursor/hooks.json`, scope: 'repository' as const, slots: [slot] }] : []),
    ...(ctx.home ? [{ file: `${ctx.home}/.cursor/hooks.json`, scope: 'home' as const, slots: [slot] }] : []),
  ],
};
