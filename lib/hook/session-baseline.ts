// The gates a session started from (issue 12 §4): per repository and session, in the private
// store (never the repository, where the agent could rewrite it), what the Stop hook first saw
// of each gate in that session, or what a person last approved with `gate-check hook accept`.
//
// One session's baseline of a root is kept under each name the root has, and every one of them
// is compared with (a gate weakened against any is held):
// - the root itself: <store>/hooks/baseline-<16 hex of the root>-<16 hex of the session>.json =
//   {"schema":"gate-check/hook-baseline@1","root","session","takenAt","gates":[BaselineGate…]},
//   which nothing in the repository can rename;
// - its place in its git repository (the common directory, resolved, and the root's folder
//   below the work-tree top): the same file name with the 16 hex of that place,
//   {"schema":"gate-check/hook-baseline@2","repository",…}. Every worktree of a repository
//   shares it, as scope bindings and leases do: an agent that added a worktree and weakened a
//   gate there stopped as if the session had just begun (round-39a F3). It is a name the agent
//   can change (a `.git` file for the `.git` folder, or the folder moved away for the stop:
//   round-39b F1), which is why the root's stays.
// A name that has no baseline yet gets the gates as they are now; a gate first seen joins every
// baseline. Read as hostile JSON (exact keys, every field typed), written atomically under a
// lock that is never stolen; a file that cannot be trusted blocks (the caller fails closed).
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { UnsafeFileError, UnsafeStoreError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { acquireLock } from '../fsx/lock.js';
import { hasDotGit } from '../fsx/repo-root.js';
import { leaseRepository } from '../lease/repository.js';
import { openPrivateDir, privateDirExists } from '../fsx/private-dir.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { compareWithBaseline, gateKey, MAX_EARLIER, type BaselineGate } from './weakening.js';

/** A baseline kept under the root's place in its git repository. */
export const BASELINE_SCHEMA = 'gate-check/hook-baseline@2';
/** A baseline kept under the root itself (the only kind before round-39a). */
const ROOT_BASELINE_SCHEMA = 'gate-check/hook-baseline@1';
/** A baseline larger than this is refused on reading, and not written. */
export const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

export interface Baseline {
  /** The name it is kept under: the root, or a place in a git repository (baselineOwners). */
  owner: string;
  session: string;
  /** When the session's first look was (ISO). */
  takenAt: string;
  gates: BaselineGate[];
}

const TOP_KEYS = ['schema', 'repository', 'session', 'takenAt', 'gates'] as const;
const ROOT_TOP_KEYS = ['schema', 'root', 'session', 'takenAt', 'gates'] as const;
const GATE_KEYS = ['file', 'scope', 'id', 'kind', 'check', 'expect', 'cwd', 'depends', 'inputs', 'timeout', 'def', 'title', 'abandoned'] as const;
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The place in a git repository that the gates of `root` have: `git:<common directory>`
 * (resolved, so that a worktree whose gitdir names the repository through a link is the same
 * one: round-39b F2) for the top of a work tree, followed by `//<folder>` for a root below it.
 * None outside git, or where the git files cannot be trusted to name the repository
 * (lease/repository.ts).
 */
export function baselineOwners(root: string): string[] {
  for (let dir = root; ; dir = dirname(dir)) {
    // The first `.git`, read as git reads it: gate-check's stricter test of a top level
    // (isGitTopLevel) refused a worktree whose HEAD had a blank line added, or whose `.git`
    // was a link, which git still uses, and the stop there got a baseline of its own
    // (round-39k F1). One that names no repository, or cannot be read, is no reason to start
    // afresh: the stop is held until it is fixed (round-39m F1).
    if (hasDotGit(dir)) {
      const repository = leaseRepository(dir);
      if (repository.startsWith('git:')) return [dir === root ? repository : `${repository}//${relative(dir, root)}`];
      throw new UnsafeFileError(join(dir, '.git'), 'names no git repository that gate-check can read, so the session\'s baseline cannot be found');
    }
    if (dirname(dir) === dir) return [];
  }
}

const prefixOf = (key: string): string => `baseline-${sha256Hex(key).slice(0, 16)}-`;
const nameOf = (key: string, session: string): string => `${prefixOf(key)}${sha256Hex(session).slice(0, 16)}.json`;

/** Who a file says its baseline is of: a place in a git repository (@2), or the root (@1). */
interface Keyed {
  key: 'repository' | 'root';
  value: string;
}

/**
 * Every name the baselines of `root` are kept under: the root's own first, then its place in
 * the repository its `.git` names, then `also` (its places in the repositories whose records
 * list it: session-repositories.ts).
 */
function keysOf(root: string, also: readonly string[] = []): Keyed[] {
  const owners = [...new Set([...baselineOwners(root), ...also])];
  return [{ key: 'root', value: root }, ...owners.map((value) => ({ key: 'repository' as const, value }))];
}

function stringOrNull(v: unknown): v is string | null {
  return v === null || typeof v === 'string';
}

function listOrNull(v: unknown): v is string[] | null {
  return v === null || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
}

function parseGate(v: unknown): BaselineGate | null {
  if (!isPlainObject(v) || !(hasExactKeys(v, GATE_KEYS) || hasExactKeys(v, [...GATE_KEYS, 'earlier']))) return null;
  const earlier = Object.hasOwn(v, 'earlier') ? v.earlier : undefined;
  if (earlier !== undefined && !(v.kind === 'runnable' && Array.isArray(earlier) && earlier.length > 0 && earlier.length <= MAX_EARLIER && earlier.every((d) => typeof d === 'string' && HEX64.test(d)))) return null;
  if (typeof v.file !== 'string' || v.file === '' || !stringOrNull(v.scope) || typeof v.id !== 'string' || v.id === '') return null;
  if (v.kind !== 'runnable' && v.kind !== 'manual') return null;
  if (!stringOrNull(v.check) || !stringOrNull(v.expect) || !stringOrNull(v.cwd) || !listOrNull(v.depends) || !listOrNull(v.inputs)) return null;
  if (v.timeout !== null && !(Number.isSafeInteger(v.timeout) && (v.timeout as number) > 0)) return null;
  if (typeof v.abandoned !== 'boolean') return null;
  const runnable = v.kind === 'runnable';
  if (runnable ? typeof v.def !== 'string' || !HEX64.test(v.def) || v.title !== null : v.def !== null || typeof v.title !== 'string' || !HEX64.test(v.title)) return null;
  if (runnable && (v.check === null || v.expect === null)) return null;
  return {
    file: v.file,
    scope: v.scope,
    id: v.id,
    kind: v.kind,
    check: v.check,
    expect: v.expect,
    cwd: v.cwd,
    depends: v.depends,
    inputs: v.inputs,
    timeout: v.timeout as number | null,
    def: v.def as string | null,
    title: v.title as string | null,
    abandoned: v.abandoned,
    ...(earlier !== undefined ? { earlier: earlier as string[] } : {}),
  };
}

function parseBaseline(text: string, keyed: Keyed, session: string | null): Baseline | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const [topKeys, schema] = keyed.key === 'repository' ? [TOP_KEYS, BASELINE_SCHEMA] : [ROOT_TOP_KEYS, ROOT_BASELINE_SCHEMA];
  if (!isPlainObject(v) || !hasExactKeys(v, topKeys) || v.schema !== schema || v[keyed.key] !== keyed.value) return null;
  if (typeof v.session !== 'string' || (session !== null && v.session !== session)) return null;
  if (typeof v.takenAt !== 'string' || !Number.isFinite(Date.parse(v.takenAt)) || !Array.isArray(v.gates)) return null;
  const gates: BaselineGate[] = [];
  const keys = new Set<string>();
  for (const g of v.gates as unknown[]) {
    const parsed = parseGate(g);
    if (parsed === null) return null;
    const key = gateKey(parsed.file, parsed.id);
    if (keys.has(key)) return null;
    keys.add(key);
    gates.push(parsed);
  }
  return { owner: keyed.value, session: v.session, takenAt: v.takenAt, gates };
}

function invalid(path: string): UnsafeStoreError {
  return new UnsafeStoreError(path, 'invalid session baseline', 'if it is not yours, remove it by hand: the Stop hook then takes a new baseline at its next look');
}

/** How the file `name` of `root`'s baselines is keyed (it is one of keysOf's names). */
function keyedBy(root: string, name: string, also: readonly string[] = []): Keyed {
  const keyed = keysOf(root, also).find((k) => name.startsWith(prefixOf(k.value)));
  if (keyed === undefined) throw new Error(`${name} is no baseline of ${root}`);
  return keyed;
}

function readIn(dir: ReturnType<typeof openPrivateDir>, name: string, keyed: Keyed, session: string | null): Baseline | null {
  const text = readPrivateFile(dir, name, MAX_BASELINE_BYTES, true);
  if (text === null) return null;
  const parsed = parseBaseline(text, keyed, session);
  if (parsed === null) throw invalid(join(dir.path, name));
  return parsed;
}

/** The session's baselines of `root`, under each of its names that has one (none: the session's first look here). Creates nothing. */
export function readBaselines(locations: StoreLocations, root: string, session: string, also: readonly string[] = []): Baseline[] {
  if (!privateDirExists(locations.hooks)) return [];
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  return keysOf(root, also).flatMap((keyed) => readIn(dir, nameOf(keyed.value, session), keyed, session) ?? []);
}

/** The file names of every session's baselines of `root` (its own, and those of its repository, which every worktree shares). */
export function baselineFiles(locations: StoreLocations, root: string): string[] {
  if (!privateDirExists(locations.hooks)) return [];
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const prefixes = keysOf(root).map((k) => prefixOf(k.value));
  return readdirSync(dir.path).filter((n) => prefixes.some((p) => n.startsWith(p)) && /^baseline-[0-9a-f]{16}-[0-9a-f]{16}\.json$/.test(n)).sort();
}

/** Reads one baseline by file name (any session of `root`). */
export function readBaselineFile(locations: StoreLocations, root: string, name: string): Baseline | null {
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  return readIn(dir, name, keyedBy(root, name), null);
}

function serialize(b: Baseline, keyed: Keyed): string {
  const schema = keyed.key === 'repository' ? BASELINE_SCHEMA : ROOT_BASELINE_SCHEMA;
  return JSON.stringify({ schema, [keyed.key]: keyed.value, session: b.session, takenAt: b.takenAt, gates: b.gates }) + '\n';
}

/**
 * Reads the baseline under its lock, lets `update` decide the next one (null: leave it as it
 * is), and writes that atomically. `update` gets null when there is none yet.
 */
export async function updateBaselineFile(
  locations: StoreLocations,
  root: string,
  name: string,
  session: string | null,
  lockTimeoutMs: number,
  update: (previous: Baseline | null) => Baseline | null,
  also: readonly string[] = [],
): Promise<Baseline | null> {
  openPrivateDir(locations.base, { repoRoot: root, create: true });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: true });
  const path = join(dir.path, name);
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
  try {
    dir.verify();
    const keyed = keyedBy(root, name, also);
    const previous = readIn(dir, name, keyed, session);
    const next = update(previous);
    if (next === null) return previous;
    const text = serialize(next, keyed);
    // Mutation note: not reached by the suite (it needs several hook calls, each with 16 MiB of
    // new gates); without it the next read refuses the baseline and the hook blocks: closed either way.
    if (Buffer.byteLength(text, 'utf8') > MAX_BASELINE_BYTES) {
      throw new UnsafeStoreError(path, `the session baseline would be larger than ${MAX_BASELINE_BYTES / 2 ** 20} MiB`, 'fewer gates per repository; a person can check the ledger diff with `gate-check diff`');
    }
    dir.verify();
    atomicWriteFile(path, text, { mode: 0o600, create: true });
    return next;
  } finally {
    lock.release();
  }
}

/**
 * Adds the gates of `seen` (every gate of `root` now, as projected) that are new to a baseline
 * of the session (compareWithBaseline's additions: a gate moved to another file is no new one)
 * to it, under each name of the root; a name without a baseline gets all of `seen` (the
 * session's first look under that name). `known`: the baselines read before this look.
 */
export async function extendBaselines(locations: StoreLocations, root: string, session: string, seen: readonly BaselineGate[], known: readonly Baseline[], lockTimeoutMs: number, now: Date, also: readonly string[] = []): Promise<void> {
  if (seen.length === 0) return;
  for (const keyed of keysOf(root, also)) {
    const before = known.find((b) => b.owner === keyed.value);
    // Mutation note: equivalent in behaviour (without it the same baseline is read again and left as it is).
    if (before !== undefined && compareWithBaseline(before.gates, seen).added.length === 0) continue;
    await updateBaselineFile(locations, root, nameOf(keyed.value, session), session, lockTimeoutMs, (previous) => {
      const fresh = previous === null ? [...seen] : compareWithBaseline(previous.gates, seen).added;
      // Mutation note: equivalent in behaviour (without it the same baseline is written again).
      if (previous !== null && fresh.length === 0) return null;
      const base = previous ?? { owner: keyed.value, session, takenAt: now.toISOString(), gates: [] };
      const inBase = new Set(base.gates.map((g) => gateKey(g.file, g.id)));
      return { ...base, gates: [...base.gates, ...fresh.filter((g) => !inBase.has(gateKey(g.file, g.id)))] };
    }, also);
  }
}
