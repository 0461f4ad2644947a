// Where dispatch state lives: the private store, <store>/dispatch/<32 hex of the repository
// root>/<scope>.json, one file per scope, outside the repository the agent writes (deleting
// or editing a file in its checkout cannot drop an open wave). Read as hostile input (no-follow,
// single link, bounded, private, then the whole lifecycle validated); every transition under
// the scope's lock (never stolen), with an atomic write that refuses to overwrite a file that
// changed since it was read.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { SCOPE_PATTERN } from '../fsx/discover.js';
import { acquireLock } from '../fsx/lock.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { dispatchDirPath } from './location.js';
import { latestTime, parseDispatchState, serializeDispatchState, type DispatchState } from './state.js';
import { applyTransition, type Transition } from './transition.js';

export const MAX_DISPATCH_BYTES = 4 * 1024 * 1024;
const STATE_FILE = /^(.+)\.json$/;
const LOCK_FILE = /^(.+)\.lock$/;
// atomic-write.ts's temporary files, left only by a crash between create and rename.
const TEMP_FILE = /^\..+\.gate-check-\d+-[0-9a-f]+\.tmp$/;

function openDirs(locations: StoreLocations, repoRoot: string, create: boolean): PrivateDir | null {
  const path = dispatchDirPath(locations, repoRoot);
  if (!create && !privateDirExists(path)) return null;
  openPrivateDir(locations.base, { repoRoot, create });
  openPrivateDir(join(locations.base, 'dispatch'), { repoRoot, create });
  return openPrivateDir(path, { repoRoot, create });
}

function invalid(path: string, scope: string, reason: string): UnsafeStoreError {
  return new UnsafeStoreError(
    path,
    `invalid dispatch state: ${reason}`,
    `inspect it; removing it by hand drops every wave of scope ${scope}: rm '${path.replace(/'/g, `'\\''`)}'`,
  );
}

interface Read {
  state: DispatchState | null;
  text: string | null;
}

function readState(dir: PrivateDir, scope: string): Read {
  const name = `${scope}.json`;
  const text = readPrivateFile(dir, name, MAX_DISPATCH_BYTES, true);
  if (text === null) return { state: null, text: null };
  const parsed = parseDispatchState(text, scope);
  if (!parsed.ok) throw invalid(join(dir.path, name), scope, parsed.reason);
  return { state: parsed.state, text };
}

/** The waves of one scope; null when it has none. Creates nothing. An invalid state throws (exit 2). */
export function loadDispatchState(locations: StoreLocations, repoRoot: string, scope: string): DispatchState | null {
  const dir = openDirs(locations, repoRoot, false);
  return dir === null ? null : readState(dir, scope).state;
}

/**
 * Every scope of this repository that has dispatch state, sorted: the verdict covers their waves
 * even when the scope's folder is gone. A file that is not a state, a lock or a leftover
 * temporary file is refused (exit 2), never skipped.
 */
export function dispatchScopes(locations: StoreLocations, repoRoot: string): string[] {
  const dir = openDirs(locations, repoRoot, false);
  if (dir === null) return [];
  const scopes: string[] = [];
  for (const entry of readdirSync(dir.path, { withFileTypes: true })) {
    const name = entry.name;
    const state = STATE_FILE.exec(name);
    if (state && SCOPE_PATTERN.test(state[1]!)) {
      scopes.push(state[1]!);
      continue;
    }
    const lock = LOCK_FILE.exec(name);
    if ((lock && SCOPE_PATTERN.test(lock[1]!)) || TEMP_FILE.test(name)) continue;
    throw new UnsafeStoreError(join(dir.path, name), 'is not a dispatch state file (refused: nothing in the dispatch store goes unread)', 'inspect it, then remove it by hand');
  }
  return scopes.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every scope's state, by scope (for the Stop hook: one call, in scope order). */
export function loadAllDispatchStates(locations: StoreLocations, repoRoot: string): DispatchState[] {
  const out: DispatchState[] = [];
  for (const scope of dispatchScopes(locations, repoRoot)) {
    const state = loadDispatchState(locations, repoRoot, scope);
    if (state !== null) out.push(state);
  }
  return out;
}

/** Applies one transition under the scope's lock: read, validate, apply, validate, write atomically. */
export async function transitionDispatch(locations: StoreLocations, repoRoot: string, scope: string, t: Transition, lockTimeoutMs: number, now = Date.now()): Promise<DispatchState> {
  const dir = openDirs(locations, repoRoot, true)!;
  const path = join(dir.path, `${scope}.json`);
  const lock = await acquireLock(join(dir.path, `${scope}.lock`), lockTimeoutMs);
  try {
    dir.verify();
    const before = readState(dir, scope);
    const st = before.text === null ? null : lstatOrNull(path);
    // Never dated before what the state already holds: a clock that steps back cannot break time order.
    const at = new Date(Math.max(now, latestTime(before.state))).toISOString();
    const next = applyTransition(before.state, scope, t, at);
    dir.verify();
    const expect = st === null ? undefined : { dev: st.dev, ino: st.ino, bytes: Buffer.from(before.text!, 'utf8') };
    atomicWriteFile(path, serializeDispatchState(next), expect ? { mode: 0o600, expect } : { mode: 0o600, create: true });
    return next;
  } finally {
    lock.release();
  }
}
