// The git repositories a Stop-hook session was seen in (round-39r R1). A folder's baselines
// are found by its repository's name, which the agent can take away: a fresh `git worktree`
// whose `.git` file was moved away for the stop belonged to no repository, and its first stop
// took a new baseline from the weakened ledger. The repository's own records still list that
// worktree (`worktrees/<name>/gitdir`, in the git directory), so a folder that git's records
// of a repository this session was seen in list as a checkout (or a folder in one) is held
// against that repository's baselines too, whatever its own `.git` says now. Only adds names:
// a gate weakened against any baseline stays open.
//
// <store>/hooks/session-repositories-<16 hex of "session:<id>">.json =
// {"root": "session:<id>", "repositories": ["git:<common directory>", …]} (remembered-list.ts).
import { isAbsolute, relative } from 'node:path';
import { UnsafeFileError, UnsafeStoreError } from '../errors.js';
import { checkoutsOf, GitNameError } from '../fsx/git-checkouts.js';
import type { StoreLocations } from '../store/locations.js';
import { listPath, readList, writeList, type ListKind } from './remembered-list.js';

/**
 * How many repositories one session's list keeps (each costs a look at its worktree list at
 * every stop). A session seen in more holds its stops: one that stopped in 64 throwaway
 * repositories to push the real one out of a smaller list let the round-39r R1 attack through
 * again (round-39s S5).
 */
export const MAX_SESSION_REPOSITORIES = 1024;

const KIND: ListKind = {
  prefix: 'session-repositories',
  key: 'repositories',
  what: "memory of the session's repositories",
  max: MAX_SESSION_REPOSITORIES,
  valid: (item) => item.startsWith('git:') && isAbsolute(item.slice('git:'.length)) && !item.includes('//'),
};

const keyOf = (session: string) => `session:${session}`;

/** The repositories remembered for the session ([]: none). `repoRoot`: the repository the store must lie outside of. */
export function readSessionRepositories(locations: StoreLocations, session: string, repoRoot: string): string[] {
  return readList(KIND, locations, keyOf(session), repoRoot) ?? [];
}

/**
 * The baseline names (baselineOwners' form) that `root` has in the remembered repositories
 * whose records list a checkout at or above it: the nearest such checkout of each.
 */
export function ownersFromRecords(repositories: readonly string[], root: string): string[] {
  const owners: string[] = [];
  for (const repository of repositories) {
    let checkouts: string[];
    try {
      checkouts = checkoutsOf(repository.slice('git:'.length));
    } catch (e) {
      // Mutation note: equivalent in verdict (any other error, named this way, holds the stop too).
      if (!(e instanceof GitNameError)) throw e;
      throw new UnsafeFileError(repository.slice('git:'.length), `${e.message}, so the session's baseline cannot be found`);
    }
    let nearest: string | null = null;
    for (const c of checkouts) {
      const rel = relative(c, root);
      const inside = rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
      if (inside && (nearest === null || c.length > nearest.length)) nearest = c;
    }
    if (nearest !== null) owners.push(nearest === root ? repository : `${repository}//${relative(nearest, root)}`);
  }
  return owners;
}

/** Adds the repositories of `owners` (baseline names) to the session's list; writes only when one is new. */
export async function rememberSessionRepositories(locations: StoreLocations, session: string, known: readonly string[], owners: readonly string[], repoRoot: string, lockTimeoutMs: number): Promise<void> {
  const repositories = owners.filter((o) => o.startsWith('git:')).map((o) => o.split('//')[0]!);
  const fresh = [...new Set(repositories.filter((r) => !known.includes(r)))];
  if (fresh.length === 0) return;
  if (known.length + fresh.length > MAX_SESSION_REPOSITORIES) {
    throw new UnsafeStoreError(listPath(KIND, locations, keyOf(session)), `this session was seen in more than ${MAX_SESSION_REPOSITORIES} git repositories, more than the hook remembers: a worktree of one it forgot could stop as if the session had just begun`, 'start a new session');
  }
  await writeList(KIND, locations, keyOf(session), [...known, ...fresh], known.length === 0 ? null : known, lockTimeoutMs, repoRoot);
}
