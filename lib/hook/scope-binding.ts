// Which scope a sub-agent works for (issue 12 §3): `gate-check hook bind --session S --scope ID`
// routes the SubagentStop verdict of S to that scope's gates and waves. Routing, not
// authentication: anyone running as the user can bind or unbind, and binding can only make a
// sub-agent's stop stricter (an unbound sub-agent's stop is let through; the main agent's stop
// still answers for every gate).
//
// <store>/hooks/bind-<16 hex of the repository>-<16 hex of the session>.json =
// {"repository","session","scope"} (the repository as leases name it: every worktree of one
// git repository is one), one file per binding, read as hostile JSON, written atomically. A
// file of an earlier version, by the checkout's root ({"root","session","scope"}), is read too.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { removeFile } from '../fsx/create.js';
import { SCOPE_PATTERN } from '../fsx/discover.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { leaseRepository } from '../lease/repository.js';

const MAX_BINDING_BYTES = 16 * 1024;

/**
 * The file of a binding: by the repository (leaseRepository: the git common directory, so
 * that a binding made in one worktree routes a sub-agent working in another, round-38d F2),
 * and the session.
 */
export function bindingName(root: string, session: string): string {
  return `bind-${sha256Hex(leaseRepository(root)).slice(0, 16)}-${sha256Hex(session).slice(0, 16)}.json`;
}

/** The file an earlier version wrote: by the checkout's root. */
function rootBindingName(root: string, session: string): string {
  return `bind-${sha256Hex(root).slice(0, 16)}-${sha256Hex(session).slice(0, 16)}.json`;
}

export function bindingPath(locations: StoreLocations, root: string, session: string): string {
  return join(locations.hooks, bindingName(root, session));
}

/**
 * The scope of one binding file, read as hostile JSON: exactly {key, "session", "scope"}, for
 * `session`, with a valid scope, and `key` (one of `keys`: the repository, or an earlier
 * version's root) accepted by `names`. Anything else throws, naming the file.
 */
function bindingScope(dir: PrivateDir, name: string, keys: ReadonlyArray<'repository' | 'root'>, session: string, names: (value: string) => boolean): string | null {
  const text = readPrivateFile(dir, name, MAX_BINDING_BYTES, true);
  if (text === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = null;
  }
  const key = keys.find((k) => isPlainObject(v) && Object.hasOwn(v, k)) ?? keys[0]!;
  if (!isPlainObject(v) || !hasExactKeys(v, [key, 'session', 'scope']) || typeof v[key] !== 'string' || !names(v[key] as string) || v.session !== session || typeof v.scope !== 'string' || !SCOPE_PATTERN.test(v.scope)) {
    throw new UnsafeStoreError(join(dir.path, name), 'invalid scope binding', 'remove it by hand, or bind again with `gate-check hook bind`');
  }
  return v.scope;
}

/** The scope `session` is bound to in `root`'s repository (any worktree of it), or null. Creates nothing; an invalid file throws. */
export function readBinding(locations: StoreLocations, root: string, session: string): string | null {
  if (!privateDirExists(locations.hooks)) return null;
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const repository = leaseRepository(root);
  return bindingScope(dir, bindingName(root, session), ['repository'], session, (v) => v === repository) ?? bindingScope(dir, rootBindingName(root, session), ['root'], session, (v) => v === root);
}

/** At most this many bindings of one session are read from the store (more blocks the stop). */
const MAX_SESSION_BINDINGS = 256;

/**
 * The scopes `session` is bound to in any repository, from the names of the binding files
 * (the second hash is the session's): for a sub-agent whose folder no binding names any more
 * (its `.git` moved away, round-39t T3). Each file is read as readBinding reads it, and must
 * name the repository (or, from an earlier version, the root) its name was made from.
 */
export function scopesBoundAnywhere(locations: StoreLocations, root: string, session: string): string[] {
  return [...new Set(bindingsAnywhere(locations, root, session).map((b) => b.scope))].sort();
}

/**
 * Where a binding of `session` was made: the main checkout of its repository (a `git:` common
 * directory that is a `.git` folder), or the folder itself (outside git, or a file of an
 * earlier version); null when git keeps the repository elsewhere (a bare or separate git dir).
 */
export function bindingCheckout(repository: string): string | null {
  if (repository.startsWith('git:')) {
    const common = repository.slice('git:'.length);
    return basename(common) === '.git' ? dirname(common) : null;
  }
  return repository.startsWith('dir:') ? repository.slice('dir:'.length) : repository;
}

/** Every binding of `session` in the store: its scope, and the repository (or an earlier version's root) it names. */
export function bindingsAnywhere(locations: StoreLocations, root: string, session: string): { scope: string; repository: string }[] {
  if (!privateDirExists(locations.hooks)) return [];
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  const suffix = `-${sha256Hex(session).slice(0, 16)}.json`;
  const names = readdirSync(dir.path).filter((n) => n.endsWith(suffix) && /^bind-[0-9a-f]{16}-[0-9a-f]{16}\.json$/.test(n));
  if (names.length > MAX_SESSION_BINDINGS) {
    throw new UnsafeStoreError(dir.path, `holds ${names.length} scope bindings of one session (at most ${MAX_SESSION_BINDINGS} are read)`, 'remove the bindings no longer needed with `gate-check hook bind --session ID --remove`');
  }
  const found: { scope: string; repository: string }[] = [];
  for (const name of names) {
    let named = '';
    const madeFrom = (v: string) => {
      named = v;
      return name === `bind-${sha256Hex(v).slice(0, 16)}${suffix}`;
    };
    const scope = bindingScope(dir, name, ['repository', 'root'], session, madeFrom);
    if (scope !== null) found.push({ scope, repository: named });
  }
  return found;
}

export function writeBinding(locations: StoreLocations, root: string, session: string, scope: string): void {
  openPrivateDir(locations.base, { repoRoot: root, create: true });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: true });
  dir.verify();
  atomicWriteFile(join(dir.path, bindingName(root, session)), JSON.stringify({ repository: leaseRepository(root), session, scope }) + '\n', { mode: 0o600, create: true });
  // An earlier version's file for this checkout would be read after this one: gone.
  removeFile(join(dir.path, rootBindingName(root, session)));
}

/** False when there was no binding. */
export function removeBinding(locations: StoreLocations, root: string, session: string): boolean {
  if (!privateDirExists(locations.hooks)) return false;
  openPrivateDir(locations.base, { repoRoot: root, create: false });
  const dir = openPrivateDir(locations.hooks, { repoRoot: root, create: false });
  dir.verify();
  const current = removeFile(join(dir.path, bindingName(root, session)));
  const earlier = removeFile(join(dir.path, rootBindingName(root, session)));
  return current || earlier;
}
