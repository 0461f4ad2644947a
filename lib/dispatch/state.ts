// The dispatch state of one scope: its waves, each a barrier for sub-agents (open with its
// leaves, start each leaf with a handle, seal, return every leaf). Read from disk as hostile
// input: exact keys, own properties only, ids are data (kept in arrays, never used as object
// keys), and the whole lifecycle is validated, not just the shape. Pure.
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { findUnsafeChar } from '../text/sanitize.js';

export const DISPATCH_SCHEMA = 'gate-check/dispatch@1';
/** Wave and leaf ids: the scope-id rule (printable, no path or shell characters). */
export const DISPATCH_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_LEAVES = 64;
/** Waves kept per scope; opening one more drops the oldest complete wave, or is refused. */
export const MAX_WAVES = 32;
export const MAX_HANDLE = 256;
export const MAX_REASON = 500;

export type WaveState = 'open' | 'sealed' | 'complete' | 'abandoned';

export interface Leaf {
  id: string;
  /** What the parent started for this leaf (a task id, a session name); printable. */
  handle: string | null;
  startedAt: string | null;
  returnedAt: string | null;
}

export interface Wave {
  id: string;
  state: WaveState;
  openedAt: string;
  sealedAt: string | null;
  /** The last return (every leaf returned). */
  completedAt: string | null;
  abandonedAt: string | null;
  /** Why it was abandoned; printable. */
  reason: string | null;
  leaves: Leaf[];
}

export interface DispatchState {
  schema: typeof DISPATCH_SCHEMA;
  scope: string;
  waves: Wave[];
}

const TOP_KEYS = ['schema', 'scope', 'waves'] as const;
const WAVE_KEYS = ['id', 'state', 'openedAt', 'sealedAt', 'completedAt', 'abandonedAt', 'reason', 'leaves'] as const;
const LEAF_KEYS = ['id', 'handle', 'startedAt', 'returnedAt'] as const;
const STATES: readonly WaveState[] = ['open', 'sealed', 'complete', 'abandoned'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` is not a printable one-line value of at most `max` code points, or null. */
export function printableProblem(text: string, max: number, what: string): string | null {
  if (text.trim() === '') return `${what} is empty`;
  if (text.length > max * 2 + 2 || Array.from(text).length > max) return `${what} is longer than ${max} characters`;
  if (/[\t\n\r]/.test(text) || findUnsafeChar(text) !== null || LONE_SURROGATE.test(text)) return `${what} holds a control, bidi or invalid character (it must be printable)`;
  if (text.trim() !== text) return `${what} starts or ends with white space`;
  return null;
}

export function idProblem(id: string, what: string): string | null {
  return DISPATCH_ID_PATTERN.test(id) ? null : `${what} "${id.slice(0, 80)}" is not an id ([A-Za-z0-9][A-Za-z0-9._-]{0,63})`;
}

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

function time(v: unknown, where: string): number {
  if (typeof v !== 'string' || !ISO.test(v)) fail(`${where}: not a time (YYYY-MM-DDTHH:MM:SS.sssZ)`);
  const t = Date.parse(v);
  if (!Number.isFinite(t) || new Date(t).toISOString() !== v) fail(`${where}: not a valid time`);
  return t;
}

function optionalTime(v: unknown, where: string): number | null {
  return v === null ? null : time(v, where);
}

function text(v: unknown, max: number, where: string): string {
  if (typeof v !== 'string') fail(`${where}: not a string`);
  const problem = printableProblem(v, max, where);
  if (problem !== null) fail(problem);
  return v;
}

function id(v: unknown, where: string): string {
  if (typeof v !== 'string') fail(`${where}: not a string`);
  const problem = idProblem(v, where);
  if (problem !== null) fail(problem);
  return v;
}

function leaf(v: unknown, where: string): Leaf {
  if (!isPlainObject(v) || !hasExactKeys(v, LEAF_KEYS)) fail(`${where}: not a leaf (exactly ${LEAF_KEYS.join(', ')})`);
  return {
    id: id(v.id, `${where}.id`),
    handle: v.handle === null ? null : text(v.handle, MAX_HANDLE, `${where}.handle`),
    startedAt: v.startedAt === null ? null : (time(v.startedAt, `${where}.startedAt`), v.startedAt as string),
    returnedAt: v.returnedAt === null ? null : (time(v.returnedAt, `${where}.returnedAt`), v.returnedAt as string),
  };
}

/** The lifecycle of one wave: every time in order, every state consistent with its leaves. */
function checkLifecycle(w: Wave, where: string): void {
  const opened = time(w.openedAt, `${where}.openedAt`);
  const sealed = optionalTime(w.sealedAt, `${where}.sealedAt`);
  const completed = optionalTime(w.completedAt, `${where}.completedAt`);
  const abandoned = optionalTime(w.abandonedAt, `${where}.abandonedAt`);
  if (w.leaves.length === 0) fail(`${where}.leaves: a wave has at least one leaf`);
  if (w.leaves.length > MAX_LEAVES) fail(`${where}.leaves: more than ${MAX_LEAVES}`);
  const ids = new Set<string>();
  const handles = new Set<string>();
  let started = 0;
  let returned = 0;
  let lastStart = opened;
  let lastReturn: number | null = null;
  w.leaves.forEach((l, i) => {
    const at = `${where}.leaves[${i}]`;
    if (ids.has(l.id)) fail(`${at}.id: leaf ${l.id} appears twice`);
    ids.add(l.id);
    if ((l.handle === null) !== (l.startedAt === null)) fail(`${at}: a leaf has a handle exactly when it has started`);
    if (l.handle !== null) {
      if (handles.has(l.handle)) fail(`${at}.handle: the same handle twice in one wave`);
      handles.add(l.handle);
    }
    if (l.startedAt !== null) {
      const s = time(l.startedAt, `${at}.startedAt`);
      if (s < opened) fail(`${at}.startedAt: before the wave was opened`);
      lastStart = Math.max(lastStart, s);
      started++;
    }
    if (l.returnedAt !== null) {
      if (l.startedAt === null) fail(`${at}.returnedAt: returned without having started`);
      if (sealed === null) fail(`${at}.returnedAt: a leaf returned before the wave was sealed`);
      const r = time(l.returnedAt, `${at}.returnedAt`);
      if (r < sealed) fail(`${at}.returnedAt: before the wave was sealed`);
      lastReturn = lastReturn === null ? r : Math.max(lastReturn, r);
      returned++;
    }
  });
  const all = w.leaves.length;
  if (sealed !== null) {
    if (started !== all) fail(`${where}.sealedAt: sealed while a leaf had not started`);
    if (sealed < lastStart) fail(`${where}.sealedAt: before a leaf started`);
  }
  if (w.reason !== null && w.state !== 'abandoned') fail(`${where}.reason: only an abandoned wave has a reason`);
  if (w.completedAt !== null && w.state !== 'complete') fail(`${where}.completedAt: only a complete wave has it`);
  if (w.abandonedAt !== null && w.state !== 'abandoned') fail(`${where}.abandonedAt: only an abandoned wave has it`);
  switch (w.state) {
    case 'open':
      if (sealed !== null) fail(`${where}: an open wave is not sealed`);
      break;
    case 'sealed':
      if (sealed === null) fail(`${where}: a sealed wave has sealedAt`);
      if (returned === all) fail(`${where}: every leaf returned, so the wave is complete, not sealed`);
      break;
    case 'complete':
      if (sealed === null || returned !== all) fail(`${where}: complete means sealed and every leaf returned`);
      if (completed === null || completed !== lastReturn) fail(`${where}.completedAt: a complete wave completes at its last return`);
      break;
    case 'abandoned':
      if (abandoned === null || w.reason === null) fail(`${where}: an abandoned wave has abandonedAt and a reason`);
      if (sealed !== null && returned === all) fail(`${where}: every leaf returned, so the wave is complete, not abandoned`);
      if (abandoned < Math.max(lastStart, sealed ?? opened, lastReturn ?? opened)) fail(`${where}.abandonedAt: before another event of the wave`);
      break;
  }
}

function wave(v: unknown, where: string): Wave {
  if (!isPlainObject(v) || !hasExactKeys(v, WAVE_KEYS)) fail(`${where}: not a wave (exactly ${WAVE_KEYS.join(', ')})`);
  if (!(STATES as readonly unknown[]).includes(v.state)) fail(`${where}.state: not one of ${STATES.join(', ')}`);
  if (!Array.isArray(v.leaves)) fail(`${where}.leaves: not a list`);
  if (v.leaves.length > MAX_LEAVES) fail(`${where}.leaves: more than ${MAX_LEAVES}`);
  const w: Wave = {
    id: id(v.id, `${where}.id`),
    state: v.state as WaveState,
    openedAt: (time(v.openedAt, `${where}.openedAt`), v.openedAt as string),
    sealedAt: v.sealedAt === null ? null : (time(v.sealedAt, `${where}.sealedAt`), v.sealedAt as string),
    completedAt: v.completedAt === null ? null : (time(v.completedAt, `${where}.completedAt`), v.completedAt as string),
    abandonedAt: v.abandonedAt === null ? null : (time(v.abandonedAt, `${where}.abandonedAt`), v.abandonedAt as string),
    reason: v.reason === null ? null : text(v.reason, MAX_REASON, `${where}.reason`),
    leaves: v.leaves.map((l, i) => leaf(l, `${where}.leaves[${i}]`)),
  };
  checkLifecycle(w, where);
  return w;
}

/** Throws Invalid unless `s` is a whole, consistent state of `scope`. */
function checkState(data: unknown, scope: string): DispatchState {
  if (!isPlainObject(data) || !hasExactKeys(data, TOP_KEYS)) fail(`not a dispatch state (exactly ${TOP_KEYS.join(', ')})`);
  if (data.schema !== DISPATCH_SCHEMA) fail(`schema: expected ${DISPATCH_SCHEMA}`);
  if (data.scope !== scope) fail(`scope: this is the state of scope ${scope}, but it says ${typeof data.scope === 'string' ? data.scope.slice(0, 80) : 'something else'}`);
  if (!Array.isArray(data.waves)) fail('waves: not a list');
  if (data.waves.length > MAX_WAVES) fail(`waves: more than ${MAX_WAVES}`);
  const waves = data.waves.map((w, i) => wave(w, `waves[${i}]`));
  const ids = new Set<string>();
  let lastOpened = -Infinity;
  waves.forEach((w, i) => {
    if (ids.has(w.id)) fail(`waves[${i}].id: wave ${w.id} appears twice`);
    ids.add(w.id);
    const opened = Date.parse(w.openedAt);
    if (opened < lastOpened) fail(`waves[${i}].openedAt: before the wave above it was opened`);
    lastOpened = opened;
  });
  return { schema: DISPATCH_SCHEMA, scope, waves };
}

export type StateParse = { ok: true; state: DispatchState } | { ok: false; reason: string };

export function parseDispatchState(textIn: string, scope: string): StateParse {
  let data: unknown;
  try {
    data = JSON.parse(textIn);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  return validateDispatchState(data, scope);
}

/** The same checks for a state built in memory (every transition is checked before it is written). */
export function validateDispatchState(data: unknown, scope: string): StateParse {
  try {
    return { ok: true, state: checkState(data, scope) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, reason: e.message };
    throw e;
  }
}

/** The latest time anywhere in the state: a transition is never dated before it (clocks step back). */
export function latestTime(state: DispatchState | null): number {
  let latest = -Infinity;
  for (const w of state?.waves ?? []) {
    for (const t of [w.openedAt, w.sealedAt, w.completedAt, w.abandonedAt]) if (t !== null) latest = Math.max(latest, Date.parse(t));
    for (const l of w.leaves) for (const t of [l.startedAt, l.returnedAt]) if (t !== null) latest = Math.max(latest, Date.parse(t));
  }
  return latest;
}

export function serializeDispatchState(state: DispatchState): string {
  return JSON.stringify(state, null, 2) + '\n';
}
