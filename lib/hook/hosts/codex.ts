// OpenAI Codex CLI: hooks.json next to a config layer, <repo>/.codex/hooks.json (the project)
// and $CODEX_HOME/hooks.json (default ~/.codex; the user); both load. Its command handler
// takes a shell string only (run with `$SHELL -lc`), so the paths are single-quoted and the
// marker comment ends the command. Install writes hooks.Stop with `timeout` 30 s (Codex's
// default is 600 s; the hook answers within 10 s). Codex turns hooks off with
// `[features] hooks = false` (or the older `codex_hooks = false`) in config.toml, and runs a
// project hook only after it was trusted in `/hooks`, again after every change.
import { isOurShellEntry, stopShellCommand } from '../hook-entry.js';
import type { InstallPlan, JsonObject } from '../settings-merge.js';
import { positiveNumber, type HostAdapter, type LocationContext, type SettingsLocation, type StopSlot, type TargetKind } from './host.js';

export const CODEX_TIMEOUT_SECONDS = 30;
const CODEX_DEFAULT_TIMEOUT_SECONDS = 600;

function codexHome(ctx: LocationContext): { base: string; rel: string[] } | null {
  const dir = ctx.env.CODEX_HOME;
  if (dir !== undefined && dir.startsWith('/')) return { base: dir, rel: [] };
  return ctx.home === null ? null : { base: ctx.home, rel: ['.codex'] };
}

function location(kind: TargetKind, ctx: LocationContext): SettingsLocation {
  if (kind === 'global') {
    const h = codexHome(ctx)!;
    return { base: h.base, rel: [...h.rel, 'hooks.json'] };
  }
  return { base: ctx.root!, rel: ['.codex', 'hooks.json'] };
}

export function isCodexStopEntry(entry: unknown): boolean {
  return isOurShellEntry(entry, ['command']);
}

export function codexPlan(rt: { node: string; bin: string } | null): InstallPlan {
  const entry: JsonObject | null = rt && { type: 'command', command: stopShellCommand(rt.node, rt.bin, 'codex'), timeout: CODEX_TIMEOUT_SECONDS };
  return { base: {}, ops: [{ kind: 'entry', path: ['hooks', 'Stop'], layout: 'grouped', entry, isOurs: isCodexStopEntry }] };
}

const slot: StopSlot = {
  path: ['hooks', 'Stop'],
  layout: 'grouped',
  timeout: (entry) => {
    const raw = Object.hasOwn(entry, 'timeout') ? entry.timeout : Object.hasOwn(entry, 'timeoutSec') ? entry.timeoutSec : undefined;
    const t = positiveNumber(raw);
    return t === null ? { seconds: CODEX_DEFAULT_TIMEOUT_SECONDS, explicit: false } : { seconds: t, explicit: true };
  },
};

/**
 * `hooks = false` (or `codex_hooks = false`) in the [features] table of a config.toml. A
 * line scan, not a TOML parser: it understands `[features]` headers and `key = false` lines,
 * and `features.hooks = false` at the top level.
 */
export function codexHooksOff(toml: string): boolean {
  let table = '';
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      table = header[1]!;
      continue;
    }
    const kv = /^([A-Za-z0-9_.]+)\s*=\s*(\S+)$/.exec(line);
    if (!kv) continue;
    const key = table === '' ? kv[1]! : `${table}.${kv[1]!}`;
    if ((key === 'features.hooks' || key === 'features.codex_hooks') && kv[2] === 'false') return true;
  }
  return false;
}

export const codexHost: HostAdapter = {
  id: 'codex',
  name: 'Codex CLI',
  targets: ['shared', 'global'],
  location,
  plan: (rt) => codexPlan(rt),
  timeoutNote: `timeout ${CODEX_TIMEOUT_SECONDS} s (Codex's default is ${CODEX_DEFAULT_TIMEOUT_SECONDS} s; the hook answers within 10 s)`,
  markers: (ctx) => {
    const h = codexHome(ctx);
    return [...(ctx.root ? [`${ctx.root}/.codex`] : []), ...(h ? [[h.base, ...h.rel].join('/')] : [])];
  },
  scan: (ctx) => {
    const h = codexHome(ctx);
    return [
      ...(ctx.root ? [{ file: `${ctx.root}/.codex/hooks.json`, scope: 'repository' as const, slots: [slot] }] : []),
      ...(h ? [{ file: [h.base, ...h.rel, 'hooks.json'].join('/'), scope: 'home' as const, slots: [slot] }] : []),
    ];
  },
  disabled: (ctx, _read, readText) => {
    const h = codexHome(ctx);
    const files = [...(h ? [[h.base, ...h.rel, 'config.toml'].join('/')] : []), ...(ctx.root ? [`${ctx.root}/.codex/config.toml`] : [])];
    for (const file of files) {
      const text = readText(file);
      if (text !== null && codexHooksOff(text)) return { reason: `[features] hooks = false in ${file}`, fix: `remove that line from ${file} (or set it to true)` };
    }
    return null;
  },
  notes: (kind) => [
    kind === 'shared'
      ? 'note: Codex runs a project hook only after it was trusted: open /hooks in Codex and trust it (again after every change of the entry)'
      : 'note: Codex lists new hooks in /hooks; review and trust it there',
  ],
};
