// The edits of `gate-check hook install` and `uninstall` on a parsed host settings file, for
// every host: an install plan names the hook entries (each in an array at a JSON path, either
// inside groups `{hooks: [...]}` or directly) and the strings (permissions.deny rules) that
// gate-check owns. Install adds or repairs to exactly one entry of ours per place and adds the
// missing strings; uninstall removes every entry and string of ours, then the containers that
// this emptied. Only the parts a plan touches are validated. Never mutates its input: touched
// objects are copied (key order kept, new keys appended), everything else is shared. Pure.
import { isPlainObject } from '../json/hostile.js';

export type JsonObject = Record<string, unknown>;

/** Hook entries of ours in the array at `path`. */
export interface EntryOp {
  kind: 'entry';
  /** Object keys from the top level to the array, e.g. ['hooks', 'Stop']. */
  path: readonly string[];
  /** 'grouped': the array holds groups `{hooks: [entry…]}`; 'flat': it holds the entries. */
  layout: 'grouped' | 'flat';
  /** The entry install writes; null in a plan made for uninstall or inspection only. */
  entry: JsonObject | null;
  /** True for an entry of ours, whatever else it says (a drifted one is repaired). */
  isOurs: (entry: unknown) => boolean;
}

/** Strings of ours in the array of strings at `path` (deny rules). */
export interface StringsOp {
  kind: 'strings';
  path: readonly string[];
  /** What install adds (when missing), in this order. */
  values: readonly string[];
  /** What uninstall removes (the values, and those of earlier versions). */
  owned: readonly string[];
}

export type PlanOp = EntryOp | StringsOp;

export interface InstallPlan {
  ops: readonly PlanOp[];
  /** What a file that install creates starts as ({} or {"version": 1}). */
  base: JsonObject;
  /** A host-specific check of the whole document: null when fine, else the reason. */
  check?: (settings: JsonObject) => string | null;
}

export interface EntryChange {
  path: readonly string[];
  /** added: none of ours before; repaired: ours differed or was repeated; unchanged: exactly right. */
  state: 'added' | 'repaired' | 'unchanged';
  /** Entries of ours removed because they repeated the first one. */
  duplicatesRemoved: number;
}

export interface InstallResult {
  settings: JsonObject;
  changed: boolean;
  entries: EntryChange[];
  stringsAdded: string[];
}

export interface UninstallResult {
  settings: JsonObject;
  changed: boolean;
  entriesRemoved: number;
  stringsRemoved: number;
}

function get(o: JsonObject, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function protoKey(o: JsonObject, where: string): string | null {
  return Object.hasOwn(o, '__proto__') ? `${where} has a "__proto__" key (refused)` : null;
}

function dotted(path: readonly string[]): string {
  return path.join('.');
}

function validateEntries(list: unknown[], where: string): string | null {
  for (let h = 0; h < list.length; h++) {
    const hook = list[h];
    if (!isPlainObject(hook)) return `${where}[${h}] is not an object`;
    const hp = protoKey(hook, `${where}[${h}]`);
    if (hp) return hp;
  }
  return null;
}

function validateOp(settings: JsonObject, op: PlanOp): string | null {
  let node: JsonObject = settings;
  for (let i = 0; i < op.path.length - 1; i++) {
    const key = op.path[i]!;
    if (!Object.hasOwn(node, key)) return null;
    const next = node[key];
    const where = `"${dotted(op.path.slice(0, i + 1))}"`;
    if (!isPlainObject(next)) return `${where} is not an object`;
    const p = protoKey(next, where);
    if (p) return p;
    node = next;
  }
  const leaf = op.path[op.path.length - 1]!;
  if (!Object.hasOwn(node, leaf)) return null;
  const list = node[leaf];
  const name = dotted(op.path);
  if (op.kind === 'strings') {
    if (!Array.isArray(list)) return `"${name}" is not an array of strings`;
    const i = list.findIndex((r) => typeof r !== 'string');
    return i >= 0 ? `${name}[${i}] is not a string ("${name}" must be an array of strings)` : null;
  }
  if (!Array.isArray(list)) return `"${name}" is not an array`;
  if (op.layout === 'flat') return validateEntries(list, name);
  for (let g = 0; g < list.length; g++) {
    const group: unknown = list[g];
    if (!isPlainObject(group)) return `${name}[${g}] is not an object`;
    const gp = protoKey(group, `${name}[${g}]`);
    if (gp) return gp;
    const hooks = get(group, 'hooks');
    if (!Array.isArray(hooks)) return `${name}[${g}].hooks is not an array`;
    const bad = validateEntries(hooks, `${name}[${g}].hooks`);
    if (bad) return bad;
  }
  return null;
}

/**
 * Checks every part of a settings document that the plan touches. Null when valid, else
 * the reason (naming the JSON path). Unrelated keys are not looked into.
 */
export function validateSettings(settings: unknown, plan: InstallPlan): string | null {
  if (!isPlainObject(settings)) return 'the top level is not a JSON object';
  const top = protoKey(settings, 'the top level');
  if (top) return top;
  for (const op of plan.ops) {
    const bad = validateOp(settings, op);
    if (bad) return bad;
  }
  return plan.check ? plan.check(settings) : null;
}

/** Thrown only when a caller skipped validateSettings: a programming error. */
export class InvalidSettingsError extends Error {}

function requireValid(settings: unknown, plan: InstallPlan): JsonObject {
  const reason = validateSettings(settings, plan);
  if (reason !== null) throw new InvalidSettingsError(reason);
  return settings as JsonObject;
}

/** Structural equality of JSON values: object keys in any order, arrays in order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** The value at `path`, or undefined when a step is missing. */
function readPath(settings: JsonObject, path: readonly string[]): unknown {
  let node: unknown = settings;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * A copy of `settings` with the value at `path` replaced (undefined: the key removed, then
 * every parent object this left empty, never the top level). Missing objects are created.
 */
function writePath(settings: JsonObject, path: readonly string[], value: unknown): JsonObject {
  const [key, ...rest] = path as [string, ...string[]];
  const current = get(settings, key);
  let next: unknown;
  if (rest.length === 0) next = value;
  else {
    const child = isPlainObject(current) ? current : {};
    const written = writePath(child, rest, value);
    next = Object.keys(written).length === 0 && value === undefined ? undefined : written;
  }
  if (next === undefined) {
    const copy = { ...settings };
    delete copy[key];
    return copy;
  }
  return { ...settings, [key]: next };
}

function entryLists(list: unknown[], layout: EntryOp['layout']): unknown[][] {
  return layout === 'flat' ? [list] : list.map((g) => (g as JsonObject).hooks as unknown[]);
}

/**
 * A copy without the containers on the plan's paths that are empty (an empty `"hooks": {}`
 * or `"deny": []`): the document as uninstall would leave it had they held something of
 * ours. Used to tell whether a file differs from its backup only in gate-check's parts.
 */
export function withoutEmptyContainers(settings: JsonObject, plan: InstallPlan): JsonObject {
  let out = settings;
  for (const op of plan.ops) {
    for (let n = op.path.length; n >= 1; n--) {
      const prefix = op.path.slice(0, n);
      const v = readPath(out, prefix);
      const empty = (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
      if (empty) out = writePath(out, prefix, undefined);
    }
  }
  return out;
}

/** True when any entry of ours is in the document (a first install finds none). */
export function hasOurEntries(settings: JsonObject, plan: InstallPlan): boolean {
  return plan.ops.some((op) => {
    if (op.kind !== 'entry') return false;
    const list = readPath(settings, op.path);
    return Array.isArray(list) && entryLists(list, op.layout).some((l) => l.some(op.isOurs));
  });
}

function installEntry(list: unknown[], op: EntryOp, entry: JsonObject): { list: unknown[] | null; change: EntryChange } {
  const found: Array<[number, number]> = [];
  entryLists(list, op.layout).forEach((hooks, g) => hooks.forEach((hook, h) => op.isOurs(hook) && found.push([g, h])));
  const change: EntryChange = { path: op.path, state: 'unchanged', duplicatesRemoved: 0 };
  if (found.length === 0) {
    change.state = 'added';
    return { list: [...list, op.layout === 'flat' ? entry : { hooks: [entry] }], change };
  }
  const [firstGroup, firstHook] = found[0]!;
  const first = entryLists(list, op.layout)[firstGroup]![firstHook];
  const firstRight = sameJson(first, entry);
  if (firstRight && found.length === 1) return { list: null, change };
  change.state = 'repaired';
  change.duplicatesRemoved = found.length - 1;
  const keep = (hooks: unknown[], g: number) => {
    const kept: unknown[] = [];
    hooks.forEach((hook, h) => {
      if (!op.isOurs(hook)) kept.push(hook);
      else if (g === firstGroup && h === firstHook) kept.push(firstRight ? hook : entry);
    });
    return kept;
  };
  if (op.layout === 'flat') return { list: keep(list, 0), change };
  const out: unknown[] = [];
  list.forEach((group, g) => {
    if (!found.some(([fg]) => fg === g)) {
      out.push(group);
      return;
    }
    const kept = keep((group as JsonObject).hooks as unknown[], g);
    // A group that held only repeats of ours is left empty by their removal: dropped.
    if (kept.length > 0) out.push({ ...(group as JsonObject), hooks: kept });
  });
  return { list: out, change };
}

/** Adds (or repairs to) exactly one entry of ours per entry op, and the strings that are missing. */
export function installPlan(input: unknown, plan: InstallPlan): InstallResult {
  let out = requireValid(input, plan);
  const entries: EntryChange[] = [];
  const stringsAdded: string[] = [];
  for (const op of plan.ops) {
    const current = readPath(out, op.path);
    const list = Array.isArray(current) ? current : [];
    if (op.kind === 'entry') {
      if (op.entry === null) throw new InvalidSettingsError(`the plan for ${dotted(op.path)} has no entry to install`);
      const r = installEntry(list, op, op.entry);
      entries.push(r.change);
      if (r.list !== null) out = writePath(out, op.path, r.list);
    } else {
      const strings = list as string[];
      const added = op.values.filter((v, i) => !strings.includes(v) && op.values.indexOf(v) === i);
      if (added.length > 0) {
        stringsAdded.push(...added);
        out = writePath(out, op.path, [...strings, ...added]);
      }
    }
  }
  return { settings: out, changed: out !== input, entries, stringsAdded };
}

/**
 * Removes every entry of ours (a group emptied by that is removed) and every string of ours,
 * then each container this emptied. Containers that were empty before are left alone.
 */
export function uninstallPlan(input: unknown, plan: InstallPlan): UninstallResult {
  let out = requireValid(input, plan);
  let entriesRemoved = 0;
  let stringsRemoved = 0;
  for (const op of plan.ops) {
    const current = readPath(out, op.path);
    if (!Array.isArray(current)) continue;
    let next: unknown[];
    let removed = 0;
    if (op.kind === 'strings') {
      next = (current as string[]).filter((s) => !op.owned.includes(s));
      removed = current.length - next.length;
      stringsRemoved += removed;
    } else if (op.layout === 'flat') {
      next = current.filter((h) => !op.isOurs(h));
      removed = current.length - next.length;
      entriesRemoved += removed;
    } else {
      next = [];
      for (const group of current as JsonObject[]) {
        const hooks = group.hooks as unknown[];
        const kept = hooks.filter((h) => !op.isOurs(h));
        if (kept.length === hooks.length) next.push(group);
        else {
          removed += hooks.length - kept.length;
          if (kept.length > 0) next.push({ ...group, hooks: kept });
        }
      }
      entriesRemoved += removed;
    }
    if (removed > 0) out = writePath(out, op.path, next.length > 0 ? next : undefined);
  }
  return { settings: out, changed: out !== input, entriesRemoved, stringsRemoved };
}
