// The Claude Code settings edits of `gate-check hook install` and `uninstall`, on parsed
// JSON: validate the parts that are touched, add or repair the one Stop hook entry that
// carries our marker, add the permissions.deny rules, and remove exactly those again.
// Never mutates its input: touched objects are copied (key order kept, new keys appended);
// everything else is shared. Pure.
import { isPlainObject } from '../json/hostile.js';

/** A shell comment at the end of our hook command: it identifies the entry as ours. */
export const STOP_HOOK_MARKER = '# gate-check:stop-hook';
export const STOP_HOOK_TIMEOUT_SECONDS = 30;

/**
 * Added to permissions.deny so that the agent is not allowed to run `gate-check --approve`
 * through its Bash tool. Defense in depth, not a boundary: patterns can be evaded.
 */
export const DENY_RULES: readonly string[] = [
  'Bash(gate-check --approve*)',
  'Bash(gate-check * --approve*)',
  'Bash(npx gate-check *--approve*)',
  'Bash(node *gate-check.js *--approve*)',
  'Bash(*gate-check*--approve*)',
];

export interface StopHookEntry {
  type: 'command';
  command: string;
  timeout: number;
}

type JsonObject = Record<string, unknown>;

/** Quotes one word for a POSIX shell: single quotes, each embedded ' as '\''. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function stopHookCommand(nodePath: string, binPath: string): string {
  return `${shellQuote(nodePath)} ${shellQuote(binPath)} hook claude-stop ${STOP_HOOK_MARKER}`;
}

export function stopHookEntry(nodePath: string, binPath: string): StopHookEntry {
  return { type: 'command', command: stopHookCommand(nodePath, binPath), timeout: STOP_HOOK_TIMEOUT_SECONDS };
}

const MARKER_AT_END = new RegExp(`(?:^|\\s)${STOP_HOOK_MARKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** True for a hook entry whose command ends with our marker, whatever else it says. */
export function isOurHook(hook: unknown): boolean {
  return isPlainObject(hook) && Object.hasOwn(hook, 'command') && typeof hook.command === 'string' && MARKER_AT_END.test(hook.command);
}

function sameEntry(hook: unknown, entry: StopHookEntry): boolean {
  if (!isPlainObject(hook)) return false;
  const keys = Object.keys(hook);
  return keys.length === 3 && hook.type === entry.type && hook.command === entry.command && hook.timeout === entry.timeout && keys.every((k) => k === 'type' || k === 'command' || k === 'timeout');
}

function get(o: JsonObject, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function protoKey(o: JsonObject, where: string): string | null {
  return Object.hasOwn(o, '__proto__') ? `${where} has a "__proto__" key (refused)` : null;
}

/**
 * Checks every part of a settings document that install or uninstall touches. Null when
 * valid, else the reason (naming the JSON path). Unrelated keys are not looked into.
 */
export function validateSettings(settings: unknown): string | null {
  if (!isPlainObject(settings)) return 'the top level is not a JSON object';
  const top = protoKey(settings, 'the top level');
  if (top) return top;
  if (Object.hasOwn(settings, 'hooks')) {
    const hooks = settings.hooks;
    if (!isPlainObject(hooks)) return '"hooks" is not an object';
    const p = protoKey(hooks, '"hooks"');
    if (p) return p;
    if (Object.hasOwn(hooks, 'Stop')) {
      const stop = hooks.Stop;
      if (!Array.isArray(stop)) return '"hooks.Stop" is not an array';
      for (let g = 0; g < stop.length; g++) {
        const group: unknown = stop[g];
        if (!isPlainObject(group)) return `hooks.Stop[${g}] is not an object`;
        const gp = protoKey(group, `hooks.Stop[${g}]`);
        if (gp) return gp;
        const list = get(group, 'hooks');
        if (!Array.isArray(list)) return `hooks.Stop[${g}].hooks is not an array`;
        for (let h = 0; h < list.length; h++) {
          const hook: unknown = list[h];
          if (!isPlainObject(hook)) return `hooks.Stop[${g}].hooks[${h}] is not an object`;
          const hp = protoKey(hook, `hooks.Stop[${g}].hooks[${h}]`);
          if (hp) return hp;
        }
      }
    }
  }
  if (Object.hasOwn(settings, 'permissions')) {
    const permissions = settings.permissions;
    if (!isPlainObject(permissions)) return '"permissions" is not an object';
    const p = protoKey(permissions, '"permissions"');
    if (p) return p;
    if (Object.hasOwn(permissions, 'deny')) {
      const deny = permissions.deny;
      if (!Array.isArray(deny)) return '"permissions.deny" is not an array of strings';
      const i = deny.findIndex((r) => typeof r !== 'string');
      if (i >= 0) return `permissions.deny[${i}] is not a string ("permissions.deny" must be an array of strings)`;
    }
  }
  return null;
}

/** Thrown only when a caller skipped validateSettings: a programming error. */
export class InvalidSettingsError extends Error {}

function requireValid(settings: unknown): JsonObject {
  const reason = validateSettings(settings);
  if (reason !== null) throw new InvalidSettingsError(reason);
  return settings as JsonObject;
}

export interface InstallResult {
  settings: JsonObject;
  changed: boolean;
  /** added: no entry of ours before; repaired: ours differed or was repeated; unchanged: exactly right. */
  hook: 'added' | 'repaired' | 'unchanged';
  /** Entries of ours removed because they repeated the first one. */
  duplicatesRemoved: number;
  denyAdded: string[];
}

export interface UninstallResult {
  settings: JsonObject;
  changed: boolean;
  hooksRemoved: number;
  denyRemoved: number;
}

/** Adds (or repairs to) exactly one entry of ours, and the deny rules that are missing. */
export function installStopHook(input: unknown, entry: StopHookEntry): InstallResult {
  const settings = requireValid(input);
  let out = settings;
  let hookState: InstallResult['hook'] = 'unchanged';
  let duplicatesRemoved = 0;

  const hooks = (get(settings, 'hooks') as JsonObject | undefined) ?? {};
  const stop = (get(hooks, 'Stop') as JsonObject[] | undefined) ?? [];
  const found: Array<[number, number]> = [];
  stop.forEach((group, g) => (group.hooks as unknown[]).forEach((hook, h) => isOurHook(hook) && found.push([g, h])));

  let newStop: JsonObject[] | null = null;
  if (found.length === 0) {
    newStop = [...stop, { hooks: [entry] }];
    hookState = 'added';
  } else {
    const [firstGroup, firstHook] = found[0]!;
    const firstRight = sameEntry((stop[firstGroup]!.hooks as unknown[])[firstHook], entry);
    if (!firstRight || found.length > 1) {
      hookState = 'repaired';
      duplicatesRemoved = found.length - 1;
      newStop = [];
      for (let g = 0; g < stop.length; g++) {
        const group = stop[g]!;
        if (!found.some(([fg]) => fg === g)) {
          newStop.push(group);
          continue;
        }
        const kept: unknown[] = [];
        (group.hooks as unknown[]).forEach((hook, h) => {
          if (!isOurHook(hook)) kept.push(hook);
          else if (g === firstGroup && h === firstHook) kept.push(firstRight ? hook : entry);
        });
        // A group that held only duplicates of ours is left empty by their removal: dropped.
        if (kept.length > 0) newStop.push({ ...group, hooks: kept });
      }
    }
  }
  if (newStop !== null) out = { ...out, hooks: { ...hooks, Stop: newStop } };

  const permissions = (get(settings, 'permissions') as JsonObject | undefined) ?? {};
  const deny = (get(permissions, 'deny') as string[] | undefined) ?? [];
  const denyAdded = DENY_RULES.filter((rule) => !deny.includes(rule));
  if (denyAdded.length > 0) out = { ...out, permissions: { ...permissions, deny: [...deny, ...denyAdded] } };

  return { settings: out, changed: out !== settings, hook: hookState, duplicatesRemoved, denyAdded };
}

function without(o: JsonObject, key: string): JsonObject {
  const copy = { ...o };
  delete copy[key];
  return copy;
}

/**
 * Removes every entry of ours from hooks.Stop (a group emptied by that is removed, then
 * Stop and hooks if they became empty) and every deny rule of ours (then deny and
 * permissions if they became empty). Containers that were empty before are left alone.
 */
export function uninstallStopHook(input: unknown): UninstallResult {
  const settings = requireValid(input);
  let out = settings;
  let hooksRemoved = 0;
  let denyRemoved = 0;

  const hooks = get(settings, 'hooks') as JsonObject | undefined;
  const stop = hooks && (get(hooks, 'Stop') as JsonObject[] | undefined);
  if (hooks && stop) {
    const newStop: JsonObject[] = [];
    for (const group of stop) {
      const list = group.hooks as unknown[];
      const kept = list.filter((hook) => !isOurHook(hook));
      if (kept.length === list.length) newStop.push(group);
      else {
        hooksRemoved += list.length - kept.length;
        if (kept.length > 0) newStop.push({ ...group, hooks: kept });
      }
    }
    if (hooksRemoved > 0) {
      const newHooks = newStop.length > 0 ? { ...hooks, Stop: newStop } : without(hooks, 'Stop');
      out = Object.keys(newHooks).length > 0 ? { ...out, hooks: newHooks } : without(out, 'hooks');
    }
  }

  const permissions = get(settings, 'permissions') as JsonObject | undefined;
  const deny = permissions && (get(permissions, 'deny') as string[] | undefined);
  if (permissions && deny) {
    const kept = deny.filter((rule) => !DENY_RULES.includes(rule));
    denyRemoved = deny.length - kept.length;
    if (denyRemoved > 0) {
      const newPermissions = kept.length > 0 ? { ...permissions, deny: kept } : without(permissions, 'deny');
      out = Object.keys(newPermissions).length > 0 ? { ...out, permissions: newPermissions } : without(out, 'permissions');
    }
  }

  return { settings: out, changed: out !== settings, hooksRemoved, denyRemoved };
}
