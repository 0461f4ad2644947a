// The repository as --assert-clean compares it before and after each check (references/
// evidence.md lists what): the files of the working tree, listed by git (tracked, untracked
// and ignored, each with size, mtime, ctime, inode and mode), the index beyond its entries,
// the refs, and the files of the git directories and the configuration that decide what git
// commits or runs next. None of the git commands here reads a file's contents: `git status`
// would, and it runs the clean filter (filter.<driver>.clean in .git/config, chosen by a
// .gitattributes line) of every file whose stat data changed, so anyone who can write the
// checkout could make it run a command. ls-files only lists the index and walks the tree;
// core.fsmonitor and the untracked cache are off so that no config makes it run one.
import { isUtf8 } from 'node:buffer';
import { execFile } from 'node:child_process';
import { type BigIntStats, lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve as resolvePath } from 'node:path';
import { RunSetupError } from '../errors.js';
import { holdsBlob } from '../fsx/git-blob.js';
import { enclosingWorkTrees, MAX_ENCLOSING_TREES } from '../fsx/repo-root.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { withScratchFile } from '../fsx/scratch.js';
import { canonicalIndexFacts, LABEL, pathKey } from './git-index.js';
import { gitProgram } from './git-program.js';
import { interruptedError, interruptSignal } from './interrupts.js';

export type TreeSnapshot = Map<string, string>;

// No hook either: writing an index (the rewrite of the copy, below) runs post-index-change
// (round-39i F3).
const GIT_ARGS = ['--no-pager', '-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'core.quotePath=false', '-c', 'core.hooksPath=/dev/null'];

/**
 * Variables that choose which configuration files git reads: kept, so that the files watched
 * are those your git reads (round-39h F4: with GIT_CONFIG_GLOBAL set, ~/.gitconfig was
 * watched instead of the file your git reads). They name files only; every setting that
 * could make git run something is overridden on the command line (GIT_ARGS).
 */
const CONFIG_FILE_VARIABLES = new Set(['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM']);

/**
 * The environment git runs in for a snapshot of the work tree at `top`, run in `top`: none of
 * the variables that name another repository, work tree, index or configuration values
 * (GIT_DIR=decoy would snapshot another tree), and `top` named as the work tree (over a
 * core.worktree in .git/config that points elsewhere).
 */
function snapshotEnv(top: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('GIT_') || CONFIG_FILE_VARIABLES.has(k)) clean[k] = v;
  // No lazy fetch of a partial clone's missing objects, and no transport should one start: a
  // fetch runs what the repository's config names (remote.*.uploadpack, ext::), round-39j F2.
  return { ...clean, GIT_WORK_TREE: top, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_NO_LAZY_FETCH: '1', GIT_ALLOW_PROTOCOL: '' };
}

/**
 * How a snapshot runs git: the caller's environment, and the one git program chosen for the
 * ledger's root (gitProgram: outside every checkout of every repository around it), for every
 * work tree looked at. Chosen for an outer tree alone, a repository nested in it (the
 * ledger's own) was not among those it kept clear of (round-39o O5).
 */
interface GitRun {
  env: NodeJS.ProcessEnv;
  program: string;
}

function git(top: string, args: string[], run: GitRun, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  return gitBytes(top, args, run, extraEnv).then((out) => out.toString('utf8'));
}

/** git's output as bytes: the names git lists are bytes, not always UTF-8. */
function gitBytes(top: string, args: string[], run: GitRun, extraEnv: NodeJS.ProcessEnv = {}): Promise<Buffer> {
  const signal = interruptSignal();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(interruptedError('git snapshot not taken'));
    // An interrupt kills git (the snapshot is a wait like any other) and nothing is started after it.
    execFile(run.program, [...GIT_ARGS, ...args], { cwd: top, env: { ...snapshotEnv(top, run.env), ...extraEnv }, maxBuffer: 256 * 1024 * 1024, timeout: 120_000, encoding: 'buffer', signal }, (err, stdout, stderr) => {
      if (err && signal.aborted) reject(interruptedError('git snapshot not finished'));
      else if (err) reject(new RunSetupError(`--assert-clean: git ${args[0]} failed: ${(stderr.toString('utf8') || err.message).trim().split('\n')[0]}`, '--assert-clean needs git and a git working tree at --root'));
      else resolve(stdout);
    });
  });
}

/** The NUL-ended records of `git … -z` output. */
function records(out: Buffer): Buffer[] {
  const list: Buffer[] = [];
  for (let at = 0; at < out.length; ) {
    let nul = out.indexOf(0, at);
    if (nul === -1) nul = out.length;
    if (nul > at) list.push(out.subarray(at, nul));
    at = nul + 1;
  }
  return list;
}

/** An index larger than this is watched by its stat data only (any write then counts). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;
/**
 * git's rewrite of a copy of the index, in the one layout it writes (git-index.ts): version
 * 2 (3 with extended flags), whole (not split), with no offset tables and a real checksum,
 * and without the untracked cache and fsmonitor's token (core.* off in GIT_ARGS). Threads
 * and other reading settings stay the repository's own, so that git reads the copy as the
 * person's next git command reads the index.
 */
const REWRITE_ARGS = [
  '-c', 'core.splitIndex=false',
  '-c', 'splitIndex.sharedIndexExpire=never',
  '-c', 'index.recordEndOfIndexEntries=false',
  '-c', 'index.recordOffsetTable=false',
  '-c', 'index.skipHash=false',
  // The untracked cache as it is (git's default): whether there is one counts (git-index.ts).
  '-c', 'core.untrackedCache=keep',
  'update-index', '--index-version', '2', '--force-write-index',
];
const INDEX_KEY = '.git/index (cache tree, entry flags)';
/** The key and value of an index entry's stored stat data (see changedInRepository). */
const STAT_DATA = `${LABEL} (index entry stat data)`;
const STAT_VALUE = 'stat|';

/**
 * This worktree's index beyond what ls-files shows (git-index.ts): its entries' flags and
 * its cache tree, as git reads them, by digest, and each marked entry by its path; by the
 * file's stat data where git cannot rewrite a copy of it or the rewrite cannot be read.
 */
async function indexState(top: string, gitDir: string, run: GitRun): Promise<TreeSnapshot> {
  const state: TreeSnapshot = new Map();
  let bytes: Buffer | null = null;
  try {
    bytes = safeReadFile(join(gitDir, 'index'), MAX_INDEX_BYTES, 'git index').bytes;
  } catch {
    // Missing (a fresh repository), too large, or not a file: by stat data.
  }
  if (bytes !== null) {
    try {
      // The copy dated 2^32 s: git keeps an index's time in 32 bits, where that reads as 0,
      // "no time", and then takes no entry for racily clean (a later time than any entry's
      // would do the same): it reads no file to check one and runs no clean filter (round-39i F3).
      const facts = await withScratchFile('index', bytes, { mtimeSeconds: 2 ** 32 }, async (copy) => {
        await git(top, [...REWRITE_ARGS], run, { GIT_INDEX_FILE: copy.path });
        return canonicalIndexFacts(copy.read(2 * MAX_INDEX_BYTES));
      });
      if (facts !== null) {
        state.set(INDEX_KEY, `index|${facts.digest}`);
        for (const [path, marks] of facts.marked) state.set(`${path}${LABEL} (index entry marked ${marks})`, `marks|${marks}`);
        for (const [path, e] of facts.stats) state.set(`${path}${STAT_DATA}`, `${STAT_VALUE}${e.mode}|${e.oid}|${e.stat}|${Buffer.concat([Buffer.from(`${top}/`), e.name]).toString('hex')}`);
        return state;
      }
    } catch (e) {
      if (interruptSignal().aborted) throw e;
      // git could not rewrite it (an unmerged or damaged index, a git without
      // --force-write-index), or no scratch file: by stat data.
    }
  }
  state.set(INDEX_KEY, `index|${statOf(gitDir, 'index')}`);
  return state;
}

/** size, mtime, ctime, inode and mode: a write changes ctime, which no process can set back. */
function statOf(root: string, path: string): string {
  return statOfName(root, Buffer.from(path));
}

/** statOf for a name as git lists it (bytes). */
function statOfName(root: string, name: Buffer): string {
  try {
    const st = lstatSync(Buffer.concat([Buffer.from(`${root}/`), name]), { bigint: true });
    return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.mode}`;
  } catch {
    return 'missing';
  }
}

/**
 * A file of the git directory by its stat data and, when it is a symbolic link, by that of
 * what the link leads to: git follows it (a hook linked to a script elsewhere, round-39c lead).
 */
function gitFileState(dir: string, path: string): string {
  const full = join(dir, path);
  const stamp = (st: BigIntStats) => `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.mode}`;
  let own: BigIntStats | undefined;
  try {
    own = lstatSync(full, { bigint: true, throwIfNoEntry: false });
  } catch {
    // Not reachable (a component is no directory): as missing.
  }
  if (own === undefined) return 'git|missing';
  if (!own.isSymbolicLink()) return `git|${stamp(own)}`;
  try {
    const target = statSync(full, { bigint: true });
    return `git|${stamp(own)}|${target.dev}:${stamp(target)}`;
  } catch {
    return `git|${stamp(own)}|dangling`;
  }
}

/**
 * The working tree as files and their stat data: the index's entries (mode, object, stage:
 * `git add` by a check shows; and their tag, `-v`: a file a check marked skip-worktree or
 * assume-unchanged, whose later edits git status no longer shows, round-39b F4), then
 * untracked and ignored files, one by one.
 * A tracked file that a check rewrote, even with the same bytes, counts as changed.
 */
export async function snapshotWorkingTree(root: string, env: NodeJS.ProcessEnv): Promise<TreeSnapshot> {
  const snapshot: TreeSnapshot = new Map();
  // Each work tree at or above the root (enclosingWorkTrees), outermost first; keys are paths
  // from the outermost.
  const tops = enclosingWorkTrees(root);
  if (tops.length > MAX_ENCLOSING_TREES) {
    snapshot.set(`${LABEL}${tops[0]} (more than ${MAX_ENCLOSING_TREES} work trees around the root: cannot be watched)`, unwatchable());
  }
  const run: GitRun = { env, program: gitProgram(env, root) };
  const views: View[] = [];
  for (const top of tops.slice(0, MAX_ENCLOSING_TREES)) {
    const dirs = (await git(top, ['rev-parse', '--absolute-git-dir', '--git-common-dir'], run)).split('\n');
    views.push({ top, gitDir: dirs[0]!, commonDir: resolvePath(top, dirs[1] || dirs[0]!) });
  }
  // A worktree that is a view of its own (a linked worktree inside the main one, as Claude
  // Code makes them) is compared there, entry by entry, not by its index's stat data, which
  // a git status refreshes (round-39j F4).
  const viewed = new Set(views.map((v) => resolvePath(v.gitDir)));
  for (const view of views) await workTreeState(view, view.top === tops[0] ? '' : `${relative(tops[0]!, view.top)}/`, viewed, run, snapshot);
  return snapshot;
}

/** A work tree looked at: its top, its git directory and the repository's common directory. */
interface View {
  top: string;
  gitDir: string;
  commonDir: string;
}

/**
 * Work trees inside the tree watched at most (submodules, repositories git lists as one
 * untracked or ignored folder), all levels together: past that, one more is taken as changed.
 */
const MAX_NESTED_TREES = 64;

/** A key that differs at every look: what cannot be watched counts as changed. */
const unwatchable = (): string => `git|${process.hrtime.bigint()}`;

/** A folder of `top` that holds a `.git` (a file or a folder): a work tree of its own. */
function holdsDotGit(top: string, name: Buffer): boolean {
  return lstatSync(Buffer.concat([Buffer.from(`${top}/`), name, Buffer.from('/.git')]), { throwIfNoEntry: false }) !== undefined;
}

/**
 * The work trees inside one (a populated submodule, a repository of its own that git lists as
 * one untracked or ignored folder `fx/`), each watched whole as its own view: git's listings
 * of the outer tree stop at them, so a check that rewrote a fixture there passed --assert-clean
 * (round-39v V4). One whose name is not UTF-8, or that git cannot read, counts as changed.
 */
async function nestedWorkTrees(top: string, prefix: string, names: readonly Buffer[], viewed: ReadonlySet<string>, run: GitRun, snapshot: TreeSnapshot, nested: { count: number }): Promise<void> {
  for (const raw of names) {
    const name = raw.toString('utf8').replace(/\/$/, '');
    if (++nested.count > MAX_NESTED_TREES) {
      snapshot.set(`${LABEL}${prefix}${name} (more than ${MAX_NESTED_TREES} work trees inside the repository: cannot be watched)`, unwatchable());
      continue;
    }
    const inner = join(top, name);
    let dirs: string[] | null = null;
    if (isUtf8(raw)) {
      try {
        dirs = (await git(inner, ['rev-parse', '--absolute-git-dir', '--git-common-dir'], run)).split('\n');
      } catch (e) {
        if (interruptSignal().aborted) throw e;
      }
    }
    if (dirs === null) {
      snapshot.set(`${LABEL}${prefix}${name} (a work tree inside the repository that git cannot read: cannot be watched)`, unwatchable());
      continue;
    }
    await workTreeState({ top: inner, gitDir: dirs[0]!, commonDir: resolvePath(inner, dirs[1] || dirs[0]!) }, `${prefix}${name}/`, viewed, run, snapshot, nested);
  }
}

/** One work tree, whole, from its top (round-39h F1: listed from a ledger's folder, git showed nothing outside it), into `snapshot` with `prefix` before its keys. */
async function workTreeState(view: View, prefix: string, viewed: ReadonlySet<string>, run: GitRun, snapshot: TreeSnapshot, nested = { count: 0 }): Promise<void> {
  const top = view.top;
  const staged = await gitBytes(top, ['ls-files', '-z', '--stage', '-v'], run);
  const embedded: [string, string][] = [];
  const inner: Buffer[] = [];
  // Each entry counts, also a second one of the same path (the stages of a conflict, or a
  // duplicate a check appended to the index: round-39e). Names are bytes: a name that is no
  // UTF-8 is looked at by its bytes, and keyed so that no two share a key (pathKey).
  const seen = new Map<string, number>();
  for (const entry of records(staged)) {
    const tab = entry.indexOf(0x09);
    if (tab === -1) continue;
    const name = entry.subarray(tab + 1);
    const path = prefix + pathKey(name);
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    const fields = entry.toString('latin1', 0, tab);
    snapshot.set(n === 1 ? path : `${path}${LABEL} (index entry ${n})`, `tracked ${fields}|${statOfName(top, name)}`);
    if (fields.split(' ')[1] !== '160000') continue;
    // A submodule: its `.git`, which says where its git directory is (round-39h F2: pointed
    // at a copy outside the repository, with a commit and a config of the check's making);
    // a git directory inside it, as `git submodule add` leaves an existing clone, is watched
    // as one of the repository's (round-39i F2).
    const dotGit = `${name.toString('utf8')}/.git`;
    snapshot.set(`${prefix}${dotGit}${LABEL} (where the submodule's git directory is)`, gitFileState(top, dotGit));
    if (lstatSync(join(top, dotGit), { throwIfNoEntry: false })?.isDirectory()) embedded.push([dotGit, join(top, dotGit)]);
    if (holdsDotGit(top, name)) inner.push(name);
  }
  for (const [kind, args] of [
    ['untracked', ['ls-files', '-z', '--others', '--exclude-standard']],
    ['ignored', ['ls-files', '-z', '--others', '--ignored', '--exclude-standard']],
  ] as const) {
    for (const name of records(await gitBytes(top, [...args], run))) {
      snapshot.set(prefix + pathKey(name), `${kind}|${statOfName(top, name)}`);
      // git lists a repository inside the tree as one folder, `fx/`, and looks no further.
      if (name[name.length - 1] === 0x2f && holdsDotGit(top, name.subarray(0, -1))) inner.push(name.subarray(0, -1));
    }
  }
  await nestedWorkTrees(top, prefix, inner, viewed, run, snapshot, nested);
  // What is not a file of the working tree, in a namespace of its own (round-39h F6: a file
  // named like one of these labels took its place).
  for (const [key, value] of await repositoryState(view, viewed, run, embedded)) snapshot.set(`${LABEL}${prefix}${key}`, value);
}

/** Files of the git directory that decide what git does next (a config, a hook, attributes), by their stat data. */
const GIT_DIR_FILES = [
  'HEAD', 'config', 'config.worktree', 'packed-refs', 'info/attributes', 'info/exclude', 'info/sparse-checkout', 'info/grafts', 'shallow', 'commondir', 'objects/info/alternates',
  // A merge, cherry-pick, revert, rebase or bisect in progress: what the next `git commit`
  // or `git merge --continue` takes, and the stash a finished merge applies to the tree.
  'MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE', 'MERGE_AUTOSTASH', 'AUTO_MERGE', 'SQUASH_MSG', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'REBASE_HEAD', 'BISECT_START',
];
/**
 * Folders of the git directory whose files are listed and watched one by one, and those of
 * their subfolders: hooks; the state of a rebase, cherry-pick or revert in progress, whose
 * to-do list `git rebase --continue` runs (an `exec` line left there by a check, round-39b
 * F3); and rerere's recorded resolutions, which the next conflicted merge applies to the
 * tree (rr-cache/<conflict>/postimage, round-39c lead).
 */
const GIT_DIR_FOLDERS = ['hooks', 'rebase-merge', 'rebase-apply', 'sequencer', 'rr-cache'];
/**
 * Entries of such a folder looked at one by one; a folder with more (git ships 14 sample
 * hooks) is taken as changed at every look, so that no file hides behind the others
 * (round-39a lead: past the 256th entry, a rewritten hook went unseen).
 */
const MAX_FOLDER_ENTRIES = 4096;
/** Git directories of submodules (.git/modules/…, nested ones too) watched at most, and how deep. */
const MAX_MODULE_DIRS = 128;
const MAX_MODULE_DEPTH = 8;

/**
 * Git directories found under a folder of the git directory, and what could not be watched
 * there: more than MAX_MODULE_DIRS of them, or a symbolic link where git would follow one to
 * a git directory elsewhere (round-39b leads: past the 128th, or behind a link, a change went
 * unseen). What cannot be watched makes every check fail, naming it.
 */
interface GitDirs {
  dirs: string[];
  unwatchable: string[];
}

/** The git directories of submodules under `dir` (<common>/modules/<name>…): a folder with HEAD and config. */
function moduleGitDirs(dir: string): GitDirs {
  const found: GitDirs = { dirs: [], unwatchable: [] };
  const walk = (at: string, depth: number) => {
    if (found.dirs.length > MAX_MODULE_DIRS) return;
    if (depth > MAX_MODULE_DEPTH) {
      found.unwatchable.push(`${relative(dir, at)} (more than ${MAX_MODULE_DEPTH} folders deep: cannot be watched)`);
      return;
    }
    let names: string[];
    try {
      names = readdirSync(at).sort();
    } catch {
      return;
    }
    if (depth > 0 && names.includes('HEAD') && names.includes('config')) {
      found.dirs.push(at);
      // Its own submodules live in its modules/.
      walk(join(at, 'modules'), 1);
      return;
    }
    for (const name of names) {
      const next = join(at, name);
      const st = lstatSync(next, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(next, depth + 1);
      else if (st?.isSymbolicLink()) found.unwatchable.push(`${relative(dir, next)} (a symbolic link: cannot be watched)`);
    }
  };
  walk(join(dir, 'modules'), 0);
  return capped(found, 'modules');
}

function capped(found: GitDirs, folder: string): GitDirs {
  if (found.dirs.length <= MAX_MODULE_DIRS) return found;
  return { dirs: found.dirs.slice(0, MAX_MODULE_DIRS), unwatchable: [...found.unwatchable, `${folder} (more than ${MAX_MODULE_DIRS} git directories: cannot be watched)`] };
}

/**
 * Every file git reads configuration from here, as git lists them (the system's, yours, the
 * repository's and the files they include), and the files and folders that configuration
 * names for git to read or run: the excludes and attributes files (yours by default, round-39h
 * F3: a pattern added to ~/.config/git/ignore hid the person's new test from git status and
 * git add -A), and the hooks folder core.hooksPath names. A file a check creates or fills
 * (~/.gitconfig with a core.fsmonitor or an alias, a file an include names) joins the list,
 * one it empties or removes leaves it: either is a change. Keys to states.
 */
async function configState(top: string, run: GitRun): Promise<TreeSnapshot> {
  const env = run.env;
  const state: TreeSnapshot = new Map();
  const home = env.HOME ?? '';
  const xdg = env.XDG_CONFIG_HOME || (home !== '' ? join(home, '.config') : '');
  const named = new Map<string, string>();
  if (xdg !== '') {
    named.set('core.excludesfile', join(xdg, 'git', 'ignore'));
    named.set('core.attributesfile', join(xdg, 'git', 'attributes'));
  }
  const pathOf = (value: string) => (value.startsWith('~/') ? (home !== '' ? join(home, value.slice(2)) : null) : resolvePath(top, value));
  // Each entry is its origin, then its key and value: `file:PATH\0KEY\nVALUE\0`.
  const listed = (await git(top, ['config', '--list', '--show-origin', '-z'], run)).split('\0');
  for (let i = 0; i + 1 < listed.length; i += 2) {
    if (!listed[i]!.startsWith('file:')) continue;
    const file = resolvePath(top, listed[i]!.slice('file:'.length));
    state.set(`git configuration ${file}`, gitFileState(dirname(file), basename(file)));
    const entry = listed[i + 1]!;
    const newline = entry.indexOf('\n');
    const key = newline === -1 ? entry : entry.slice(0, newline);
    if (newline !== -1 && (key === 'core.excludesfile' || key === 'core.attributesfile' || key === 'core.hookspath')) {
      // The last one read wins, as for git.
      const path = pathOf(entry.slice(newline + 1));
      if (path !== null) named.set(key, path);
      else named.delete(key);
    }
  }
  for (const [key, path] of named) {
    if (key !== 'core.hookspath') {
      state.set(`${key} ${path}`, gitFileState(dirname(path), basename(path)));
      continue;
    }
    let listed = folderEntries(path, '.');
    if (listed.length > MAX_FOLDER_ENTRIES) {
      state.set(`${key} ${path} (more than ${MAX_FOLDER_ENTRIES} entries: cannot be watched)`, `git|${process.hrtime.bigint()}`);
      listed = listed.slice(0, MAX_FOLDER_ENTRIES);
    }
    state.set(`${key} ${path}`, `${gitFileState(dirname(path), basename(path))}|${listed.length}`);
    for (const rel of listed) state.set(`${key} ${join(path, rel)}`, gitFileState(path, rel));
  }
  return state;
}

/** The branch a git directory's HEAD names (`ref: refs/heads/main`), or null (detached, unreadable, odd). */
function symbolicHead(dir: string): string | null {
  let text: string;
  try {
    text = safeReadFile(join(dir, 'HEAD'), 4096, 'git HEAD').bytes.toString('utf8');
  } catch {
    return null;
  }
  const ref = /^ref: (refs\/[^\n]+)\n?$/.exec(text)?.[1];
  return ref !== undefined && !ref.split('/').includes('..') ? ref : null;
}

/**
 * The entries of a folder of the git directory and those of its subfolders (rr-cache keeps
 * each recorded resolution in a folder of its own), as paths under `dir`, sorted; at most
 * one more than MAX_FOLDER_ENTRIES, so that the caller can tell a folder that has more.
 */
function folderEntries(dir: string, folder: string): string[] {
  const out: string[] = [];
  const list = (rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length > MAX_FOLDER_ENTRIES) return;
      const child = `${rel}/${name}`;
      out.push(child);
      if (depth < 2 && lstatSync(join(dir, child), { throwIfNoEntry: false })?.isDirectory()) list(child, depth + 1);
    }
  };
  list(folder, 1);
  return out;
}

/** The git directories of the repository's linked worktrees (<common>/worktrees/<name>). */
function worktreeGitDirs(commonDir: string): GitDirs {
  const found: GitDirs = { dirs: [], unwatchable: [] };
  let names: string[];
  try {
    names = readdirSync(join(commonDir, 'worktrees')).sort();
  } catch {
    return found;
  }
  for (const name of names) {
    const dir = join(commonDir, 'worktrees', name);
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (st?.isDirectory()) found.dirs.push(dir);
    else if (st?.isSymbolicLink()) found.unwatchable.push(`worktrees/${name} (a symbolic link: cannot be watched)`);
  }
  return capped(found, 'worktrees');
}

/**
 * The repository itself, beside the working tree (round-38d F1): every ref with its object
 * (a commit, an amend, a branch moved, a replace ref), where HEAD points, and the stat data
 * of the files of the git directory that make git run or show something else later: its
 * config (core.fsmonitor, a filter), hooks, info/attributes, packed-refs. Keyed by
 * `.git/…` (the common directory of a linked worktree too).
 */
async function repositoryState(view: View, viewed: ReadonlySet<string>, run: GitRun, embedded: readonly [string, string][]): Promise<TreeSnapshot> {
  const state: TreeSnapshot = new Map();
  const { top, gitDir, commonDir } = view;
  const refs = await git(top, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(symref)'], run);
  for (const line of refs.split('\n')) if (line !== '') state.set(`.git/${line.slice(0, line.indexOf('\0'))}`, `ref|${line}`);
  for (const [key, value] of await configState(top, run)) state.set(key, value);
  const places: [string, string][] = commonDir === gitDir ? [['.git', gitDir]] : [['.git', gitDir], ['.git (common)', commonDir]];
  // Submodules whose git directory is inside them (`lib/.git/`).
  const submodules = new Set<string>(embedded.map(([, dir]) => dir));
  for (const [label, dir] of embedded) places.push([label, dir]);
  // A submodule's config and hooks live in the top repository's git directory (round-38e F4:
  // core.fsmonitor set there ran at the person's next git status).
  const commonLabel = commonDir === gitDir ? '.git' : '.git (common)';
  const unwatchable = (found: GitDirs, under: string) => {
    for (const what of found.unwatchable) state.set(`${under}/${what}`, `git|${process.hrtime.bigint()}`);
    return found.dirs;
  };
  for (const module of unwatchable(moduleGitDirs(commonDir), commonLabel)) {
    submodules.add(module);
    places.push([`.git/${relative(commonDir, module)}`, module]);
  }
  // Every other worktree's git directory: its HEAD and config.worktree decide what git does
  // there next (round-39a lead). This worktree's is `.git` above.
  // This worktree's index: its entries are read above, their flags and its cache tree here
  // (round-39c F2, round-39f).
  for (const [key, value] of await indexState(top, gitDir, run)) state.set(key, value);
  // From a linked worktree, the main worktree's index: what a plain `git commit` there
  // commits (round-39g F2).
  if (commonDir !== gitDir && !viewed.has(resolvePath(commonDir))) state.set(`${commonLabel}/index`, `git|${statOf(commonDir, 'index')}`);
  const otherWorktrees = new Set(unwatchable(worktreeGitDirs(commonDir), commonLabel).filter((wt) => resolvePath(wt) !== resolvePath(gitDir) && !viewed.has(resolvePath(wt))));
  for (const wt of otherWorktrees) places.push([`${commonLabel}/${relative(commonDir, wt)}`, wt]);
  // Submodules of a linked worktree keep their git directories in that worktree's own
  // (.git/worktrees/<name>/modules/…, round-39j F1): this one's and every other's.
  for (const [label, dir] of [...(gitDir !== commonDir ? [['.git', gitDir] as const] : []), ...[...otherWorktrees].map((wt) => [`${commonLabel}/${relative(commonDir, wt)}`, wt] as const)]) {
    for (const module of unwatchable(moduleGitDirs(dir), label)) {
      submodules.add(module);
      places.push([`${label}/${relative(dir, module)}`, module]);
    }
  }
  // A submodule's own linked worktrees (round-39c lead): their HEAD, config.worktree, index.
  for (const [label, module] of places.filter(([, dir]) => submodules.has(dir))) {
    for (const wt of unwatchable(worktreeGitDirs(module), label)) {
      otherWorktrees.add(wt);
      places.push([`${label}/${relative(module, wt)}`, wt]);
    }
  }
  for (const [label, dir] of places) {
    for (const name of GIT_DIR_FILES) state.set(`${label}/${name}`, gitFileState(dir, name));
    for (const folder of GIT_DIR_FOLDERS) {
      let listed = folderEntries(dir, folder);
      if (listed.length > MAX_FOLDER_ENTRIES) {
        state.set(`${label}/${folder} (more than ${MAX_FOLDER_ENTRIES} entries: cannot be watched)`, `git|${process.hrtime.bigint()}`);
        listed = listed.slice(0, MAX_FOLDER_ENTRIES);
      }
      state.set(`${label}/${folder}`, `git|${statOf(dir, folder)}|${listed.length}`);
      for (const rel of listed) state.set(`${label}/${rel}`, gitFileState(dir, rel));
    }
    // A submodule's branch, which its HEAD names: the commit the top repository records for
    // it (round-39g F4). The top repository's own refs are listed above.
    if (submodules.has(dir)) {
      const branch = symbolicHead(dir);
      if (branch !== null) state.set(`${label}/${branch}`, gitFileState(dir, branch));
    }
    // Another worktree's index: what a plain `git commit` there commits (round-39b F4). This
    // worktree's is read entry by entry above.
    if (otherWorktrees.has(dir)) state.set(`${label}/index`, `git|${statOf(dir, 'index')}`);
  }
  return state;
}

/**
 * What a check changed in the repository (changedPaths), less the index entries whose only
 * change is their stored stat data, unless that stat data now says "unmodified" for a file
 * that holds something else than the entry's object: stat data copied into the entry of a
 * file the person had edited made git take the edit for committed (round-39g F1). git's own
 * refresh (a `git status` run by the check) writes stat data only for a file it found
 * unchanged, and stat data that does not match the file (git's rewrite of the copy sets the
 * size of a racily clean entry to 0) makes git read the file again. An entry added or
 * removed is named by its path already.
 */
export function changedInRepository(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const changed = changedPaths(before, after).filter((key) => {
    if (!key.endsWith(STAT_DATA)) return true;
    const was = before.get(key);
    const now = after.get(key);
    if (was === undefined || now === undefined) return false;
    const [wasMode, wasOid] = was.slice(STAT_VALUE.length).split('|');
    const [mode, oid, , name] = now.slice(STAT_VALUE.length).split('|');
    // Another object or mode: named by its path already (ls-files).
    if (wasMode !== mode || wasOid !== oid) return false;
    const file = Buffer.from(name!, 'hex');
    if (!saysUnmodified(now, file)) return false;
    return !holdsBlob(file, Number(mode), oid!);
  });
  // An ignored file (a cache, a build's output) says so: PYTHONDONTWRITEBYTECODE=1 or a cache
  // outside the repository keeps a test runner from writing one (references/evidence.md).
  const ignored = (key: string) => before.get(key)?.startsWith('ignored|') === true || after.get(key)?.startsWith('ignored|') === true;
  return changed.map((key) => key.replaceAll(LABEL, '') + (ignored(key) ? ' (ignored)' : ''));
}

/**
 * Whether an entry's stored stat data (a snapshot value) may make git take the file for
 * unmodified without reading it: its mtime seconds and size (modulo 2^32, as stored) are the
 * file's. Looser than git (which compares more), so that nothing git would take is missed.
 */
function saysUnmodified(value: string, file: Buffer): boolean {
  const stat = Buffer.from(value.slice(STAT_VALUE.length).split('|')[2]!, 'hex');
  let st: BigIntStats;
  try {
    st = lstatSync(file, { bigint: true });
  } catch {
    return false;
  }
  // Stored: ctime s, ns, mtime s, ns, dev, ino (24 bytes), then uid, gid, size.
  const mtime = BigInt(stat.readUInt32BE(8));
  const size = BigInt(stat.readUInt32BE(32));
  return st.mtimeNs / 1_000_000_000n % 2n ** 32n === mtime && st.size % 2n ** 32n === size;
}

/** Keys that differ between two snapshots, sorted. */
function changedPaths(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const out = new Set<string>();
  for (const [p, v] of after) if (before.get(p) !== v) out.add(p);
  for (const p of before.keys()) if (!after.has(p)) out.add(p);
  return [...out].sort();
}
