// Which directories' ledgers hold a Stop-hook session, when the host does not name the
// project ($CLAUDE_PROJECT_DIR). The session's directory is the agent's to choose and fill,
// so nothing it can plant may move the hook away from the repository's gates:
//
// - The repository is the nearest work-tree top level as git finds it: a `.git` directory
//   git accepts (lib/fsx/repo-root.ts reads it as git's is_git_directory does), or a `.git`
//   file `gitdir: <path>` naming one, or a link to either. It is read here, never by running
//   git (which would run hooks and config the repository controls). An empty or garbage
//   `.git` is not a top level, so the search goes on upwards.
// - Every directory from the session's directory up to that top level is a candidate, and
//   so is every directory above it that is a top level, holds any `.git` or holds ledgers: a
//   repository nested inside another (a fake `.git` planted in a subdirectory is one) adds
//   its own ledgers but cannot hide the outer ones. Outside any repository, every directory
//   up to `/` is one.
// - A candidate holds ledgers when it has `GATES.md` (anything of that name: a link or a
//   FIFO there is refused when loading, which blocks), or a `gates` or `.gate-check`
//   directory (or link). A regular file named `gates` or `.gate-check` is not a marker.
//
// Checking more directories only adds gates, never removes one.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isInside } from '../fsx/discover.js';
import { hasDotGit, hasLedgerMarker, isGitTopLevel } from '../fsx/repo-root.js';
import { leaseRepository } from '../lease/repository.js';

// The same rules as every command's root discovery (lib/fsx/repo-root.ts).
export { hasLedgerMarker, isGitTopLevel };

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export interface SessionRoots {
  /** The nearest work-tree top level at or above the start, if any: the session's repository. */
  gitTop: string | null;
  /** Every directory whose ledgers (or remembered ledgers) hold the session, nearest first. */
  candidates: string[];
}

/** A usable absolute start directory: no NUL (the file system API throws on one), canonical where it exists. */
export function startDirectory(cwd: string | null, fallback: string): string {
  const raw = cwd !== null && isAbsolute(cwd) && !cwd.includes('\0') ? cwd : fallback;
  return canonical(resolve(raw));
}

/**
 * The session's directory as the file system resolves it and, when that differs, as written
 * (the shell's PWD keeps a link's own path): a link the agent made inside the repository to a
 * folder outside must not take the session out of the repository's gates (round-13 L2).
 * Both are checked; that only adds gates.
 */
export function startDirectories(cwd: string | null, fallback: string): string[] {
  const physical = startDirectory(cwd, fallback);
  const raw = cwd !== null && isAbsolute(cwd) && !cwd.includes('\0') ? resolve(cwd) : null;
  return raw === null || raw === physical ? [physical] : [physical, raw];
}

/** The directories that hold a session whose directory is `start`. */
export function sessionRoots(start: string): SessionRoots {
  const chain: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    chain.push(dir);
    if (dirname(dir) === dir) break;
  }
  const top = chain.findIndex(isGitTopLevel);
  if (top < 0) return { gitTop: null, candidates: chain };
  const candidates = chain.slice(0, top + 1);
  // Any `.git` above counts too, as baselineOwners reads one: where gate-check's reading of a
  // top level and git's part, the outer checkout's baseline and memory are still read (round-39o O3).
  for (const dir of chain.slice(top + 1)) if (hasDotGit(dir) || isGitTopLevel(dir) || hasLedgerMarker(dir)) candidates.push(dir);
  return { gitTop: chain[top]!, candidates };
}

/**
 * Whether a candidate is passed over because it holds the private store: every command refuses
 * a store inside its repository, so such a folder is the user's home, not a project. Never the
 * session's own top level, nor a folder nearer than that top level (or with none found) whose
 * `.git` names a repository as baselineOwners reads it, or cannot be read: git may take it for
 * the session's repository where gate-check's reading of a top level does not, and the stop
 * there goes on to fail closed (round-39n N2, round-39o O2).
 */
export function holdsOnlyTheStore(dir: string, found: SessionRoots, store: string): boolean {
  if (dir === found.gitTop || !isInside(dir, store)) return false;
  if (found.gitTop !== null && !isInside(found.gitTop, dir)) return true;
  return !(hasDotGit(dir) && namesRepository(dir));
}

function namesRepository(dir: string): boolean {
  try {
    return leaseRepository(dir).startsWith('git:');
  } catch {
    return true;
  }
}
