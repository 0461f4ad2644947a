// Where a repository's gates live when no --root is given, found the way git finds a work
// tree: from where the user stands, upwards, never by running git (which would run hooks and
// configuration the repository controls). Reads only.
//
// - Discovery: the nearest directory at or above the current one that holds ledgers
//   (GATES.md, gates/ or .gate-check/), looking no further than the work-tree top level;
//   without one, the top level itself (so "no ledger" and `init` name the repository, not
//   the subdirectory). Outside any work tree: the current directory, nothing above it.
// - Named ledgers: the root their location implies (the folder of a GATES.md, the parent of
//   gates/ or of .gate-check/<scope>/), else the work-tree top level, else the current
//   directory; so `gate-check gates/web.md` (as pre-commit passes it) and discovery agree on
//   the root, and on every CWD: that anchors there.
import { builtinModule } from '../builtin-module.js';
import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { gitdirOf, isSearchable, readGitFileStart, readGitPointer } from './git-pointer.js';

/** What git's validate_headref reads of a HEAD. */
const HEAD_BYTES_READ = 255;

function lstatQuiet(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function statQuiet(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** git's validate_headref (setup.c): a link whose target starts "refs/", or a file that starts "ref:", then blanks, then "refs/", or with an object name in hex (what follows is not looked at). */
function isValidHead(path: string): boolean {
  const st = lstatQuiet(path);
  if (st === null) return false;
  if (st.isSymbolicLink()) {
    try {
      return readlinkSync(path, 'buffer').subarray(0, 5).toString('latin1') === 'refs/';
    } catch {
      return false;
    }
  }
  const start = readGitFileStart(path, HEAD_BYTES_READ);
  if (start === null) return false;
  // As C reads the buffer: up to a NUL. Blanks are git's isspace (space, TAB, LF, CR).
  const text = start.toString('latin1').split('\0', 1)[0]!;
  return /^ref:[ \t\n\r]*refs\//.test(text) || /^[0-9a-fA-F]{40}/.test(text);
}

/**
 * git's is_git_directory (setup.c), read as git reads it: a valid HEAD (isValidHead), and
 * objects/ and refs/ in its common directory, which `commondir` names (read through links,
 * trailing CR and LF dropped, up to a NUL; git stops on an empty or unreadable one). Stricter
 * than git, a HEAD with a blank line added or a `commondir` that is a link made a folder git
 * uses no top level, and the folder holding the private store was passed over again (round-39o
 * O2, O3).
 */
function isGitDirectory(gitDir: string): boolean {
  // Paths joined as text, not by path.join: the kernel takes a `..` after a link from where
  // the link leads, as git does (a lexical join would look somewhere else: round-39n N1).
  if (!isValidHead(`${gitDir}/HEAD`)) return false;
  let common = gitDir;
  if (lstatQuiet(`${gitDir}/commondir`) !== null) {
    let text: string | null;
    try {
      text = readGitPointer(`${gitDir}/commondir`);
    } catch {
      return false;
    }
    if (text === null || text === '') return false;
    const named = text.replace(/[\r\n]+$/, '').split('\0', 1)[0]!;
    common = isAbsolute(named) ? named : `${gitDir}/${named}`;
  }
  return isSearchable(`${common}/objects`) && isSearchable(`${common}/refs`);
}

/**
 * Is `dir` a work-tree top level? Its `.git` as git takes it: a valid git directory, or a
 * `gitdir:` file naming one, either of them through a symbolic link (git follows it; refusing
 * the link made a worktree's `.git` moved into the home folder as a link no top level, and that
 * folder, which holds the private store, was then passed over: round-39n N2).
 */
export function isGitTopLevel(dir: string): boolean {
  const dotGit = `${dir}/.git`;
  const st = statQuiet(dotGit);
  if (st === null) return false;
  if (st.isDirectory()) return isGitDirectory(dotGit);
  // Mutation note: equivalent (readGitPointer refuses what is not a regular file, and the
  // refusal is read as no top level below).
  if (!st.isFile()) return false;
  let text: string | null;
  try {
    text = readGitPointer(dotGit);
  } catch {
    return false;
  }
  const named = text === null ? null : gitdirOf(text);
  return named !== null && isGitDirectory(isAbsolute(named) ? named : `${dir}/${named}`);
}

/**
 * Does `dir` hold ledgers (or something in their place that loading refuses)? A folder that
 * cannot be looked into (`chmod 000` by its owner) may: it counts, so that loading it fails
 * and says why, rather than passing for a folder without ledgers (round-25 F2).
 */
export function hasLedgerMarker(dir: string): boolean {
  for (const name of ['GATES.md', 'gates', '.gate-check']) {
    let st: Stats;
    try {
      st = lstatSync(join(dir, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return true;
    }
    if (name === 'GATES.md' || st.isDirectory() || st.isSymbolicLink()) return true;
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

/** The directories from `start` up to its work-tree top level (inclusive); just `start` outside a work tree. */
function upToTopLevel(start: string): { chain: string[]; top: string | null } {
  const chain: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    chain.push(dir);
    if (isGitTopLevel(dir)) return { chain, top: dir };
    if (dirname(dir) === dir) return { chain: [start], top: null };
  }
}

/** The work-tree top level at or above `dir` as git finds it (read, never by running git), or null. */
export function workTreeTop(dir: string): string | null {
  return upToTopLevel(canonical(resolve(dir))).top;
}

const trees = new Map<string, string>();

/**
 * What an agent working on the gates of `root` can write: the outermost work-tree top level
 * at or above it (a ledger in packages/api/ of a monorepo), else `root` itself. A shell or a
 * PATH entry under it is code the repository controls, wherever the ledger lies. The
 * outermost, not the nearest: anyone who can write the repository can plant a .git in the
 * package and make that the nearest. Taking a tree for larger than it is binds more; taking
 * it for smaller would bind less. Removing the top level's .git altogether still shrinks it
 * (SECURITY.md). A work tree that holds the home directory (a dotfiles
 * repository) is not taken: it is the user's, not the project's. Memoized per root.
 */
export function writableTree(root: string): string {
  let tree = trees.get(root);
  if (tree === undefined) {
    tree = root;
    const home = canonical(osModule().homedir());
    for (let dir = root; ; dir = dirname(dir)) {
      // Any .git (a directory, a file, a link, valid or not) counts: git's own test is stricter, and a
      // newline added to .git/HEAD would hide the top level from it while git itself still works.
      if (!(home === dir || home.startsWith(dir.endsWith('/') ? dir : `${dir}/`)) && lstatQuiet(join(dir, '.git')) !== null) tree = dir;
      if (dirname(dir) === dir) break;
    }
    trees.set(root, tree);
  }
  return tree;
}

/** Whether `dir` holds a `.git` of any kind (a directory, a file, a link, valid or not). */
export function hasDotGit(dir: string): boolean {
  return lstatQuiet(join(dir, '.git')) !== null;
}

/** Work trees looked at, at most, by enclosingWorkTrees. */
export const MAX_ENCLOSING_TREES = 8;

/**
 * Every folder at or above `root` that holds a `.git` (a directory, a file, a link, valid or
 * not: as writableTree, whose outermost one is first), outermost first, not one that holds
 * the home directory; `root` itself when there is none. For --assert-clean, which looks at
 * each: the outermost, because a `.git` planted in a package would otherwise make that
 * package look like the whole repository (round-39i F1), and the nearer ones, because a
 * ledger in a submodule or a nested repository has its own files there, which the outer one
 * sees as one entry. At most MAX_ENCLOSING_TREES + 1 (the caller refuses more).
 */
export function enclosingWorkTrees(root: string): string[] {
  const found: string[] = [];
  const home = canonical(osModule().homedir());
  for (let dir = root; ; dir = dirname(dir)) {
    if (!(home === dir || home.startsWith(dir.endsWith('/') ? dir : `${dir}/`)) && lstatQuiet(join(dir, '.git')) !== null) found.unshift(dir);
    if (dirname(dir) === dir || found.length > MAX_ENCLOSING_TREES) break;
  }
  return found.length > 0 ? found : [root];
}

/** The root discovery uses when no --root is given (see the header). */
export function discoveryRoot(cwd: string): string {
  const start = canonical(resolve(cwd));
  const { chain, top } = upToTopLevel(start);
  return chain.find(hasLedgerMarker) ?? top ?? start;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * The root a named ledger implies (see the header), from the path as named (a symlinked
 * folder is judged by its name here and refused when the ledger is located). It never
 * leaves the work tree (or, outside one, the directory) the user stands in: a ledger named
 * outside it keeps that root, and is then refused as outside the repository.
 */
export function impliedRoot(namedPath: string, cwd: string): string {
  const start = canonical(resolve(cwd));
  const base = upToTopLevel(start).top ?? start;
  const dir = dirname(namedPath);
  let candidate: string;
  if (basename(namedPath) === 'GATES.md') candidate = dir;
  else if (basename(dir) === 'gates') candidate = dirname(dir);
  else if (basename(dirname(dir)) === '.gate-check') candidate = dirname(dirname(dir));
  else return base;
  const real = canonical(candidate);
  return inside(base, real) ? real : base;
}

/** node:os, loaded when first needed (lib/builtin-module.ts): a --status with HOME set never needs it. */
const osModule = () => builtinModule<typeof import('node:os')>('node:os');
