// Gemini CLI: a `hooks` block in .gemini/settings.json (the project) and
// ~/.gemini/settings.json (the user). Its command hooks take a shell string only, so the
// paths are single-quoted and the marker comment ends the command; the entry is also named
// `gate-check-stop`, the name `hooksConfig.disabled` would list. Install writes
// hooks.AfterAgent with `timeout` 30000: Gemini counts it in milliseconds (default 60000);
// the hook answers within 10 s. `hooksConfig.enabled: false` (the project's setting over
// the user's) turns every hook off. Project hooks are fingerprinted: Gemini asks to trust
// them again after a change.
import { isPlainObject } from '../../json/hostile.js';
import { isOurShellEntry, stopShellCommand } from '../hook-entry.js';
import type { InstallPlan, JsonObject } from '../settings-merge.js';
import { positiveNumber, type HostAdapter, type LocationContext, type SettingsLocation, type StopSlot, type TargetKind } from './host.js';

export const GEMINI_TIMEOUT_MS = 30_000;
const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;
export const GEMINI_HOOK_NAME = 'gate-check-stop';

function location(kind: TargetKind, ctx: LocationContext): SettingsLocation {
  return kind === 'global' ? { base: ctx.home!, rel: ['.gemini', 'settings.json'] } : { base: ctx.root!, rel: ['.gemini', 'settings.json'] };
}

export function isGeminiStopEntry(entry: unknown): boolean {
  return isOurShellEntry(entry, ['command']);
}

export function geminiPlan(rt: { node: string; bin: string } | null): InstallPlan {
  const entry: JsonObject | null = rt && { type: 'command', name: GEMINI_HOOK_NAME, command: stopShellCommand(rt.node, rt.bin, 'gemini'), timeout: GEMINI_TIMEOUT_MS };
  return { base: {}, ops: [{ kind: 'entry', path: ['hooks', 'AfterAgent'], layout: 'grouped', entry, isOurs: isGeminiStopEntry }] };
}

const slot: StopSlot = {
  path: ['hooks', 'AfterAgent'],
  layout: 'grouped',
  timeout: (entry) => {
    const ms = positiveNumber(Object.hasOwn(entry, 'timeout') ? entry.timeout : undefined);
    return ms === null ? { seconds: GEMINI_DEFAULT_TIMEOUT_MS / 1000, explicit: false } : { seconds: ms / 1000, explicit: true };
  },
};

function hooksConfig(v: JsonObject | null): JsonObject | null {
  return v !== null && isPlainObject(v.hooksConfig) ? v.hooksConfig : null;
}

export const geminiHost: HostAdapter = {
  id: 'gemini',
  name: 'Gemini CLI',
  targets: ['shared', 'global'],
  location,
  plan: (rt) => geminiPlan(rt),
  timeoutNote: `timeout ${GEMINI_TIMEOUT_MS} (milliseconds: Gemini's default is ${GEMINI_DEFAULT_TIMEOUT_MS}; the hook answers within 10 s)`,
  markers: (ctx: LocationContext) => [...(ctx.root ? [`${ctx.root}/.gemini`] : []), ...(ctx.home ? [`${ctx.home}/.gemini`] : [])],
  scan: (ctx) => [
    ...(ctx.root ? [{ file: `${ctx.root}/.gemini/settings.json`, scope: 'repository' as const, slots: [slot] }] : []),
    ...(ctx.home ? [{ file: `${ctx.home}/.gemini/settings.json`, scope: 'home' as const, slots: [slot] }] : []),
  ],
  disabled: (ctx, read) => {
    const files = [...(ctx.root ? [`${ctx.root}/.gemini/settings.json`] : []), ...(ctx.home ? [`${ctx.home}/.gemini/settings.json`] : [])];
    for (const file of files) {
      const hc = hooksConfig(read(file));
      if (hc && Array.isArray(hc.disabled) && hc.disabled.includes(GEMINI_HOOK_NAME)) return { reason: `hooksConfig.disabled lists "${GEMINI_HOOK_NAME}" in ${file}`, fix: `remove "${GEMINI_HOOK_NAME}" from hooksConfig.disabled in ${file}` };
    }
    for (const file of files) {
      const hc = hooksConfig(read(file));
      if (hc && Object.hasOwn(hc, 'enabled')) return hc.enabled === false ? { reason: `"hooksConfig": {"enabled": false} in ${file}`, fix: `set hooksConfig.enabled to true in ${file}` } : null;
    }
    return null;
  },
  notes: (kind) => (kind === 'shared' ? ['note: Gemini CLI fingerprints project hooks and asks to trust them again after a change'] : []),
};
