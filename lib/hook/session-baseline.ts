// The gates a session started from (issue 12 §4): per repository and session, in the private
// store (never the repository, where the agent could rewrite it), what the Stop hook first saw
// of each gate in that session, or what a person last approved with `gate-check hook accept`.
//
// <store>/hooks/baseline-<16 hex of the owner>-<16 hex of the session>.json =
//   {"schema","repository","session","takenAt","gates":[BaselineGate…]}
// The owner is the root's place in its git repository (the common directory, and the root's
// folder below the work-tree top), so every worktree of one repository shares the session's
// baseline, as scope bindings and leases do: an agent that added a worktree and weakened a
// gate there stopped as if the session had just begun (round-39a F3). Outside git, the root.
// A file of an earlier version, named and keyed by the checkout's root ({"root",…}, schema @1),
// is read too, and replaced by the owner's file at the next write.
// Read as hostile JSON (exact keys, every field typed), written atomically under a lock that
// is never stolen; a file that cannot be trusted blocks (the caller fails closed).
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { acquireLock } from '../fsx/lock.js';
import { removeFile } from '../fsx/create.js';
import { isGitTopLevel } from '../fsx/repo-root.js';
import { repositoryAsWritten } from '../lease/repository.js';
import { openPrivateDir, privateDirExists } from '../fsx/private-dir.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { gateKey, type BaselineGate } from './weakening.js';

export const BASELINE_SCHEMA = 'gate-check/hook-baseline@2';
/** An earlier version's baseline, keyed by the checkout's root. */
const ROOT_BASELINE_SCHEMA = 'gate-check/hook-baseline@1';
/** A baseline larger than this is refused on reading, and not written. */
export const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

export interface Baseline {
  /** baselineOwner(root) (or, in an earlier version's file, the root). */
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
 * Whose baseline the gates of `root` have: `git:<common directory>` for the top of a work
 * tree, followed by `//<folder>` for a root below it; `dir:<root>` outside git (or where the
 * git files cannot be trusted to name the repository: lease/repository.ts). Paths as written,
 * as the root was: a repository renamed and linked back under its old name keeps its baselines
 * under that name (round-23 F1).
 */
export function baselineOwner(root: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (isGitTopLevel(dir)) {
      const repository = repositoryAsWritten(dir);
      if (!repository.startsWith('git:')) break;
      return dir === root ? repository : `${repository}//${relative(dir, root)}`;
    }
    if (dirname(dir) === dir) break;
  }
  return `dir:${root}`;
}

const prefixOf = (key: string): string => `baseline-${sha256Hex(key).slice(0, 16)}-`;
const nameOf = (key: string, session: string): string => `${prefixOf(key)}${sha256Hex(session).slice(0, 16)}.json`;

export function baselineName(root: string, session: string): string {
  return nameOf(baselineOwner(root), session);
}

function stringOrNull(v: unknown): v is string | null {
  return v === null || typeof v === 'string';
}

function listOrNull(v: unknown): v is string[] | null {
  return v === null || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
}

function parseGate(v: unknown): BaselineGate | null {
  if (!isPlainObject(v) || !hasExactKeys(v, GATE_KEYS)) return null;
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
  };
}

/** Who a file says its baseline is of: the owner (this version), or the root (@1). */
interface Keyed {
  key: 'repository' | 'root';
  value: string;
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

/** How the file `name` of `root`'s baselines is keyed: by the owner, or (an earlier version's) by the root. */
function keyedBy(root: string, name: string): Keyed {
  return name.startsWith(prefixOf(root)) ? { key: 'root', value: root } : { key: 'repository', value: baselineOwner(root) };
}

function readIn(dir: ReturnType<typeof openPrivateDir>, name: string, keyed: Keyed, session: string | null): Baseline | null {
  const text = readPrivateFile(dir, name, MAX_BASELINE_BYTES, true);
  if (text === null) return null;
  const parsed = parseBaseline(text, keyed, session);
  if (parsed === null) throw invalid(join(dir.path, name));
  return parsed;
}

/** The session's baseline: the owner's file, else an earlier version's file of this root. */
function readEither(dir: ReturnType<typeof openPrivateDir>, root: string, session: string): Baseline | null {
  for (const keyed of [{ key: 'repository', value: baselineOwner(root) }, { key: 'root', value: root }] as const) {
    const baseline = readIn(dir, nameOf(keyed.value, session), keyed, session);
    if (baseline !== null) return baseline;
  }
  return null;
}

/** The baseline of this repository and session, or null when there is none yet. Creates nothing. */
export function readBaseline(locations: StoreLocations, root: string, session: string): Baseline | null {
  if (!privateDirExists(locations.hooks)) return null;
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  return readEither(dir, root, session);
}

/** The file names of every session's baseline of this repository (of every worktree of it), and of this root's earlier files. */
export function baselineFiles(locations: StoreLocations, root: string): string[] {
  if (!privateDirExists(locations.hooks)) return [];
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const prefixes = [prefixOf(baselineOwner(root)), prefixOf(root)];
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
 * is), and writes that atomically. `update` gets null when there is none yet. For the owner's
 * file, an earlier version's file of the session (by the root) stands in for a missing one, and
 * goes once the owner's is written.
 */
export async function updateBaselineFile(
  locations: StoreLocations,
  root: string,
  name: string,
  session: string | null,
  lockTimeoutMs: number,
  update: (previous: Baseline | null) => Baseline | null,
): Promise<Baseline | null> {
  openPrivateDir(locations.base, { repoRoot: root, create: true });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: true });
  const path = join(dir.path, name);
  const lock = await acquireLock(`${path}.lock`, lockTimeoutMs);
  try {
    dir.verify();
    const keyed = keyedBy(root, name);
    let previous = readIn(dir, name, keyed, session);
    const earlier = previous === null && keyed.key === 'repository' && session !== null ? nameOf(root, session) : null;
    if (earlier !== null) previous = readIn(dir, earlier, { key: 'root', value: root }, session);
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
    if (earlier !== null && previous !== null) removeFile(join(dir.path, earlier));
    return next;
  } finally {
    lock.release();
  }
}

/** Adds gates first seen now to the session's baseline (creating it at the session's first look). */
export async function extendBaseline(locations: StoreLocations, root: string, session: string, added: readonly BaselineGate[], create: boolean, lockTimeoutMs: number, now: Date): Promise<void> {
  if (added.length === 0 && !create) return;
  await updateBaselineFile(locations, root, baselineName(root, session), session, lockTimeoutMs, (previous) => {
    const base = previous ?? { owner: baselineOwner(root), session, takenAt: now.toISOString(), gates: [] };
    const known = new Set(base.gates.map((g) => gateKey(g.file, g.id)));
    const fresh = added.filter((g) => !known.has(gateKey(g.file, g.id)));
    // Mutation note: equivalent in behaviour (without it the same baseline is written again).
    if (previous !== null && fresh.length === 0) return null;
    return { ...base, gates: [...base.gates, ...fresh] };
  });
}
