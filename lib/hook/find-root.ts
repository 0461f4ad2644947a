// Which directories' ledgers hold a Stop-hook session, when the host does not name the
// project ($CLAUDE_PROJECT_DIR). The session's directory is the agent's to choose and fill,
// so nothing it can plant may move the hook away from the repository's gates:
//
// - The repository is the nearest work-tree top level as git finds it: a `.git` directory
//   with a valid HEAD, `objects/` and `refs/` (through `commondir` for a linked worktree), or
//   a `.git` file `gitdir: <path>` naming one. It is read here, never by running git (which
//   would run hooks and config the repository controls). An empty or garbage `.git`, or a
//   symbolic link, is not a top level, so the search goes on upwards.
// - Every directory from the session's directory up to that top level is a candidate, and
//   so is every directory above it that is a top level or holds ledgers: a repository nested
//   inside another (a fake `.git` planted in a subdirectory is one) adds its own ledgers but
//   cannot hide the outer ones. Outside any repository, every directory up to `/` is one.
// - A candidate holds ledgers when it has `GATES.md` (anything of that name: a link or a
//   FIFO there is refused when loading, which blocks), or a `gates` or `.gate-check`
//   directory (or link). A regular file named `gates` or `.gate-check` is not a marker.
//
// Checking more directories only adds gates, never removes one.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { safeReadFile } from '../fsx/safe-read.js';

const MAX_GIT_FILE_BYTES = 4096;

export interface SessionRoots {
  /** The nearest work-tree top level at or above the start, if any: the session's repository. */
  gitTop: string | null;
  /** Every directory whose ledgers (or remembered ledgers) hold the session, nearest first. */
  candidates: string[];
}

function lstatQuiet(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function readSmall(path: string): string | null {
  try {
    return safeReadFile(path, MAX_GIT_FILE_BYTES, 'git file').bytes.toString('utf8');
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  return lstatQuiet(path)?.isDirectory() ?? false;
}

/** git's is_git_directory: a HEAD that names a ref or an object, and objects/ and refs/ (in the common directory of a linked worktree). */
function isGitDirectory(gitDir: string): boolean {
  const head = readSmall(join(gitDir, 'HEAD'));
  if (head === null || !/^(ref:[ \t]*refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})[ \t]*\r?\n?$/.test(head)) return false;
  let common = gitDir;
  if (lstatQuiet(join(gitDir, 'commondir')) !== null) {
    const text = readSmall(join(gitDir, 'commondir'));
    if (text === null || text.trim() === '' || text.includes('\0')) return false;
    common = resolve(gitDir, text.trim());
  }
  return isDirectory(join(common, 'objects')) && isDirectory(join(common, 'refs'));
}

/** Is `dir` a work-tree top level? (`.git` a valid git directory, or a `gitdir:` file naming one.) */
export function isGitTopLevel(dir: string): boolean {
  const dotGit = join(dir, '.git');
  const st = lstatQuiet(dotGit);
  if (st === null) return false;
  if (st.isDirectory()) return isGitDirectory(dotGit);
  const text = readSmall(dotGit); // null for a link, a FIFO or anything but a small regular file
  const m = text === null ? null : /^gitdir:[ \t]*(.+?)[ \t]*\r?\n?$/.exec(text);
  if (!m || m[1]!.includes('\0')) return false;
  return isGitDirectory(resolve(dir, m[1]!));
}

/** Does `dir` hold ledgers (or something in their place that loading refuses)? */
export function hasLedgerMarker(dir: string): boolean {
  if (lstatQuiet(join(dir, 'GATES.md')) !== null) return true;
  for (const name of ['gates', '.gate-check']) {
    const st = lstatQuiet(join(dir, name));
    if (st !== null && (st.isDirectory() || st.isSymbolicLink())) return true;
  }
  return false;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A usable absolute start directory: no NUL (the file system API throws on one), canonical where it exists. */
export function startDirectory(cwd: string | null, fallback: string): string {
  const raw = cwd !== null && isAbsolute(cwd) && !cwd.includes('\0') ? cwd : fallback;
  return canonical(resolve(raw));
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
  for (const dir of chain.slice(top + 1)) if (isGitTopLevel(dir) || hasLedgerMarker(dir)) candidates.push(dir);
  return { gitTop: chain[top]!, candidates };
}
