// PATH entries inside the repository. A command found through such an entry (`PATH=tools:$PATH`
// with `CHECK: runtests`, a relative or empty entry, direnv's `PATH_add bin`) is code in the
// repository that the CHECK text does not show: swapping tools/runtests after approval would
// run something nobody reviewed. So every executable in those directories is bound into the
// oracle, as DEPENDS files are: [path inside the repository, SHA-256], sorted. A symlink is
// bound by its link text and its target: by the target's bytes inside the repository, by
// its identity outside (outsideDigest); so is a file a linked folder reaches outside.
// I/O through fsx primitives; bounded.
import { isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { builtinModule } from '../builtin-module.js';
import { RunSetupError } from '../errors.js';
import { isInside } from '../fsx/discover.js';
import { reachesThroughProcess, throughPerProcessLink } from '../fsx/physical-path.js';
import { PathWitness } from '../fsx/path-witness.js';
import { writableTree } from '../fsx/repo-root.js';
import { readHead, sha256FileWithStat } from '../fsx/hash-file.js';
import { absoluteWords, bracesAsPatterns, checkPathEntries, commandWords, wordPattern } from './check-words.js';
import { execHeader, execHeaderExtent, headerWords, type ExecHeader } from './exec-header.js';
import { sha256Hex, type DependsEntry } from './oracle.js';

/** A real path that is not UTF-8: decoded, it would name its twin spelled U+FFFD (round-39s S3). */
class LossyPathError extends RunSetupError {}

/**
 * realpath(3) as UTF-8 text; LossyPathError for a real path that is not UTF-8 (a PATH link to a
 * file named 0xFF bound its twin, and the file the CHECK ran was bound by nothing). The
 * callers' catch blocks pass that error on (rethrowLossy): it is never "not found".
 */
function realPathUtf8(path: string): string {
  const bytes = realpathSync.native(path, { encoding: 'buffer' });
  if (!isUtf8(bytes)) throw new LossyPathError(`${path} resolves to a path that is not UTF-8 text, which gate-check cannot bind as the file system names it`, 'rename it to a UTF-8 name');
  return bytes.toString('utf8');
}

function rethrowLossy(e: unknown): void {
  if (e instanceof LossyPathError) throw e;
}

/** At most this many executables are bound per gate: beyond it, the PATH entry is refused. */
export const MAX_PATH_BOUND = 2000;

export interface InRepoPathEntry {
  /** The entry as written in PATH ('' for an empty entry, which means the working directory). */
  entry: string;
  /** Where it resolves, relative to the writable tree (writableTree: the work-tree top, '.' for it). */
  inRepo: string;
}

function toPosix(p: string): string {
  return p.split('\\').join('/');
}

/**
 * Entries judged outside the repository (`root\0entry`), as written and once resolved, or
 * missing: not resolved again until a check may have changed what they lead to
 * (forgetOutside). A check can link such a folder into the repository before the next gate
 * starts (round-30 02); entries inside the repository, and links into it, are resolved at
 * every look.
 */
const outside = new Set<string>();

/**
 * How every path read for the judgements kept here (`outside`, outsideLookups, outsideAnswers,
 * outsideStarts, outsideQuiet, listings) resolved when it was read: they are kept past a check
 * only while all of it holds (forgetOutside). A read made for them is noted first.
 */
const outsideWitness = new PathWitness();

/**
 * The PATH entries that resolve inside the repository for a check running in `cwd`. The
 * repository is the whole work tree around `root` (writableTree), not only the ledger's folder:
 * a hoisted node_modules/.bin above packages/api/GATES.md is as writable as one beside it.
 */
export function inRepoPathEntries(path: string | null, ledgerRoot: string, cwd: string): InRepoPathEntry[] {
  if (path === null) return [];
  const root = writableTree(ledgerRoot);
  const out: InRepoPathEntry[] = [];
  const seen = new Set<string>();
  for (const { written: entry, dir: lexical } of path.split(delimiter).flatMap((e) => entryDirs(e, cwd, root))) {
    const key = `${root}\0${lexical}`;
    if (outside.has(key)) continue;
    const lexicallyOutside = !isInside(root, lexical);
    // Noted before it is read: only an entry written outside may be judged once (`outside`).
    if (lexicallyOutside) outsideWitness.witness(lexical);
    if (throughPerProcessLink(root, lexical)) refusePerProcess(entry);
    let real: string;
    try {
      real = realPathUtf8(lexical);
      if (!statSync(real).isDirectory()) throw new Error('not a directory');
    } catch (e) {
      rethrowLossy(e);
      // A missing entry finds nothing now; one inside the repository is bound as empty, so an
      // executable made there later (node_modules/.bin before `npm ci`) is a change (round-21 F3).
      const later = realOfMissing(lexical);
      if (lexicallyOutside && (later === null || !isInside(root, later))) {
        outside.add(key);
        continue;
      }
      real = later ?? lexical;
    }
    // An entry written inside the repository is the repository's, wherever a link there leads
    // (a committed `tools` linked to a folder outside, and retargeted later: round-23 F2b, F2c):
    // it is bound by the path as written, which every later look follows again.
    if (lexicallyOutside && !isInside(root, real)) {
      outside.add(key);
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ entry, inRepo: toPosix(relative(root, lexicallyOutside ? real : lexical)) || '.' });
  }
  return out;
}

/**
 * PATH as an approval signs it: an entry inside the repository that holds nothing bound now
 * (missing, like the `src/node_modules/.bin` npx adds when started from src/, or empty) is
 * left out. What it could hold is bound by `bound` (boundExecutables), so a file made there
 * later changes the oracle all the same; written in, it only made one approval per folder
 * gate-check was started from (round-31b F4). An entry whose folders are not all among
 * `entries` (outside the repository, or a second name of one already listed) is kept.
 */
export function signedPath(path: string | null, entries: readonly InRepoPathEntry[], bound: readonly DependsEntry[] | null, ledgerRoot: string, cwd: string): string | null {
  if (path === null || entries.length === 0) return path;
  const root = writableTree(ledgerRoot);
  const holding = new Set((bound ?? []).map(([rel]) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '.')));
  const empty = (written: string) => {
    const mine = entries.filter((e) => e.entry === written);
    return mine.length > 0 && mine.length === entryDirs(written, cwd, root).length && mine.every((e) => !holding.has(e.inRepo));
  };
  return path
    .split(delimiter)
    .filter((written) => !empty(written))
    .join(delimiter);
}

/**
 * The PATH folders inside the repository a check searches: those the CHECK puts on PATH itself
 * (`PATH=tools:$PATH runtests`: checkPathEntries), first, and those of the run's PATH.
 */
export function checkInRepoPathEntries(check: string, runPath: string | null, ledgerRoot: string, cwd: string): InRepoPathEntry[] {
  const own = checkPathEntries(check, environmentWithHome(), cwd).entries;
  return inRepoPathEntries(own.length === 0 ? runPath : [...own, ...(runPath === null ? [] : [runPath])].join(delimiter), ledgerRoot, cwd);
}

/**
 * process.env with HOME as gate-check resolves it, read one name at a time: a spread of
 * process.env costs a native call per variable, and this runs several times per gate.
 */
export function environmentWithHome(): Readonly<Record<string, string | undefined>> {
  const home = homeDirectory();
  return new Proxy(process.env, { get: (env, name) => (name === 'HOME' ? home : Reflect.get(env, name)) });
}

/** A command the CHECK names by a bare word, found first in a PATH folder outside the repository, that leads into it. */
export interface OutsideLinkIntoRepository {
  word: string;
  /** Where PATH finds it (outside the repository). */
  found: string;
  /** The file it leads to, absolute (inside the repository). */
  real: string;
  /** Set when `found` is outside and its start (a `#!` line, an ELF loader) names `real`: that outside file. */
  start?: string;
  /** `real` is a folder of the repository (a path through it names its files by another name). */
  folder?: true;
}

/** [folder\0word] → what a look found there (null: no executable of that name); per process, like `outside`. */
const outsideLookups = new Map<string, { found: string; real: string | null; perProcess: boolean } | null>();
/** Whole answers of outsideLinksIntoRepository for a PATH with no folder in the repository, per process. */
const outsideAnswers = new Map<string, OutsideLinkIntoRepository[]>();
/**
 * An outside executable (real path) → the repository files its start names (none for nearly
 * all), and the commands `#!/usr/bin/env` runs by a bare name there.
 */
const outsideStarts = new Map<string, OutsideStart>();

export interface OutsideStart {
  named: string[];
  bare: BareName[];
}

/** A command an executable's `#!/usr/bin/env NAME` line runs: found through PATH, or first in the folders a `PATH=` there gives. */
export interface BareName {
  name: string;
  dirs: string[];
}

/**
 * The commands the CHECK names by a bare word (read generously, as pathBoundNames does) that
 * PATH finds first in a folder outside the repository, as a link that leads back into it
 * (`npm link`: ~/.npm-global/bin/mycli -> <repo>/cli/mycli). That file is repository code the
 * approval would not bind (round-26 03); the caller refuses it unless DEPENDS binds it. A link
 * there that leads through /proc is refused here.
 */
export function outsideLinksIntoRepository(path: string | null, ledgerRoot: string, cwd: string, check: string): OutsideLinkIntoRepository[] {
  if (path === null) return [];
  const root = writableTree(ledgerRoot);
  // Gates that share a CHECK (and a PATH with no folder in the repository) look once.
  const whole = `${root}\0${cwd}\0${path}\0${check}`;
  const known = outsideAnswers.get(whole);
  if (known !== undefined) return known;
  const dirs = path.split(delimiter).flatMap((e) => entryDirs(e, cwd, root).map((d) => d.dir));
  const words = new Set(commandWords(check));
  const hits: OutsideLinkIntoRepository[] = [];
  // What an outside file found for `word` runs: itself when it leads into the repository; else
  // whatever its start names there (`#!<repo>/lib/interp` in ~/bin/mycli: round-30 03).
  const replayed = new Set<string>();
  // What an outside file's start leads to: the repository files it names, and the commands
  // `#!/usr/bin/env` runs by a bare name, judged as the CHECK's own words are (round-36 F6).
  const replay = (word: string, hit: { found: string; real: string }, start: OutsideStart) => {
    for (const real of start.named) hits.push({ word, found: hit.found, real, start: hit.real });
    if (replayed.has(hit.real)) return;
    replayed.add(hit.real);
    for (const b of start.bare) {
      words.add(b.name);
      for (const dir of b.dirs) {
        outsideWitness.witness(join(dir, b.name));
        const found = lookUp(root, dir, b.name);
        if (found === null) continue;
        if (found.perProcess) throw new RunSetupError(`the CHECK's "${word}" runs ${b.name.slice(0, 100)} from ${found.found.slice(0, 200)}, which leads through /proc or /dev/fd, read by each process as its own: what runs cannot be bound into an approval`, 'replace the link with a plain file');
        judge(b.name, found);
      }
    }
  };
  const judge = (word: string, hit: { found: string; real: string | null }): void => {
    if (hit.real === null) return;
    const known = outsideStarts.get(`${root}\0${hit.real}`);
    if (known !== undefined) {
      replay(word, { found: hit.found, real: hit.real }, known);
      return;
    }
    let st;
    try {
      st = statSync(hit.real);
    } catch {
      return;
    }
    if (isInside(root, hit.real)) {
      hits.push({ word, found: hit.found, real: hit.real, ...(st.isDirectory() ? { folder: true } : {}) });
      return;
    }
    if (!st.isFile() || !isExecutable(st.mode)) return;
    const named: string[] = [];
    const bare: BareName[] = [];
    outsideExecutableDigest(root, hit.real, hit.found, 0, named, bare);
    const start = { named: [...new Set(named)], bare };
    outsideStarts.set(`${root}\0${hit.real}`, start);
    replay(word, { found: hit.found, real: hit.real }, start);
  };
  // A folder that leads into the repository (`~/proj/tools` through a symlinked home) is bound
  // whole as one of its PATH folders (inRepoPathEntries): what it holds is no link to refuse (round-30 05).
  // Judged first: each outside folder is noted before anything in it is read.
  const inRepo = new Set(
    dirs.filter((d) => {
      if (isInside(root, d)) return true;
      const key = `${root}\0${d}`;
      if (outside.has(key)) return false;
      outsideWitness.witness(d);
      const where = realDirInsideOrMissing(root, d);
      if (where === 'outside') outside.add(key); // as inRepoPathEntries would judge it
      return where === 'inside';
    }),
  );
  for (const w of [...words]) {
    const pattern = wordPattern(w);
    if (pattern !== null) for (const dir of dirs) for (const name of listing(root, dir)) if (pattern.test(name)) words.add(name);
  }
  // A path the CHECK names by an absolute path outside the repository that leads into it
  // (`$HOME/.npm-global/bin/mycli`, a folder linked in, `/out/d/mycli` with /out/d -> <repo>/cli,
  // a symlinked home: round-29 06, round-30 01), however it is spelled (`/out/mycl?`,
  // `/out/my{cli,x}`: round-30 04): repository code by a name the reader does not know for it.
  // An outside folder the CHECK names (`PATH=/out/bin:$PATH mylink`: round-31 01) may be a PATH
  // folder of its own making: each command word is looked for there too.
  const named: string[] = [];
  for (const written of absoluteWords(check, homeDirectory())) {
    for (const word of absoluteMatches(written)) {
      if (isInside(root, word)) continue; // the repository's own path: named on the screen (UNBOUND)
      outsideWitness.witness(word);
      if (throughPerProcessLink(root, word)) {
        // Each process reads its own (/dev/stderr, /proc/self/status): refused only where it runs a program.
        // One that goes through a process's folder (`/dev/fd/../cwd/x`) may reach the repository for the check: refused whatever it names for gate-check.
        if (reachesThroughProcess(word) || lookUp(root, dirname(word), basename(word)) !== null) throw new RunSetupError(`the CHECK's "${word.slice(0, 200)}" leads through /proc or /dev/fd, read by each process as its own: what runs cannot be bound into an approval`, 'name the file by a plain path');
        continue;
      }
      const real = wordTarget(word);
      judge(word, { found: word, real });
      if (real !== null && !isInside(root, real) && isDirectory(real)) {
        if (named.length === MAX_NAMED_FOLDERS) throw new RunSetupError(`the CHECK names more than ${MAX_NAMED_FOLDERS} folders outside the repository: what its commands find there cannot all be judged`, 'name fewer folders, or the files in them by their paths');
        named.push(word);
      }
    }
  }
  // Words outermost: a command an outside start names (`#!/usr/bin/env mytool`) joins `words`
  // while they are looked up, and is looked for in every folder too.
  for (const word of words) {
    for (const dir of named) {
      outsideWitness.witness(join(dir, word));
      const hit = lookUp(root, dir, word);
      if (hit === null) continue;
      if (hit.perProcess) throw new RunSetupError(`the CHECK's "${word}" may be found at ${hit.found.slice(0, 200)}, which leads through /proc or /dev/fd, read by each process as its own: what runs cannot be bound into an approval`, 'replace the link with a plain file');
      judge(word, hit);
    }
  }
  for (const word of words) {
    // Every folder, not only up to the first match: dash tries each later match in turn when
    // one cannot be started (no execute permission for the user, a #! interpreter that is
    // missing: round-36 F4). A folder of the repository is bound whole (inRepoPathEntries).
    for (const dir of dirs) {
      if (inRepo.has(dir)) continue;
      const key = `${dir}\0${word}`;
      let hit = outsideLookups.get(key);
      if (hit === undefined) {
        outsideWitness.witness(join(dir, word));
        hit = lookUp(root, dir, word);
        outsideLookups.set(key, hit);
      }
      if (hit === null) continue;
      if (hit.perProcess) throw new RunSetupError(`the CHECK's "${word}" is found in PATH at ${hit.found.slice(0, 200)}, which leads through /proc or /dev/fd, read by each process as its own: what runs cannot be bound into an approval`, 'replace the link with a plain file, or remove its folder from PATH');
      judge(word, hit);
    }
  }
  if (inRepo.size === 0) outsideAnswers.set(whole, hits);
  return hits;
}

/** The names in outside PATH folders, until a check may have run (read only for a CHECK word with a pattern character). */
const listings = new Map<string, string[]>();

/**
 * The paths a word of a `#!` argument may name: one with a slash, or an option's value
 * (`--require=./x.js`, `-I/repo/lib`), quotes taken out as `env -S` takes them (round-32 F4);
 * a `file:` URL as its path (`--import=file:///repo/x.mjs`: round-32 F3); each folder of a
 * `PATH=` assignment; not an option without a value, another assignment (`TZ=Europe/Berlin`),
 * nor a module specifier with another scheme (`--require=node:fs/promises`, which named
 * nothing and stopped every run: round-31 03). A `${…}` there is refused before (startParts).
 */
function startPathWord(raw: string): string[] {
  const word = raw.replace(/["']/g, '');
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
  if (assignment !== null) return assignment[1] === 'PATH' ? assignment[2]!.split(':').filter((d) => d !== '') : [];
  // `--name=value`, `-Xvalue` (`-I/repo/lib`); a bare `--name` or `-X` names nothing itself.
  const value = !word.startsWith('-') ? word : word.startsWith('--') ? (word.includes('=') ? word.slice(word.indexOf('=') + 1) : '') : word.slice(2);
  const url = /^file:(?:\/\/(?:localhost)?(?=\/))?(.*)$/is.exec(value);
  if (url !== null) {
    try {
      return [decodeURIComponent(url[1]!)];
    } catch {
      return [url[1]!];
    }
  }
  return value.includes('/') && !/^[A-Za-z][A-Za-z0-9+.-]+:/.test(value) ? [value] : [];
}

/** At most this many outside folders the CHECK names are searched for its command words (each costs a look per word). */
const MAX_NAMED_FOLDERS = 64;

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** At most this many paths an absolute CHECK word with pattern characters is read as; more is refused. */
const MAX_ABSOLUTE_MATCHES = 4096;

/**
 * The paths an absolute CHECK word may name once the shell expands its pattern characters
 * (`/out/mycl?`, `/out/*\/mycli`; a brace group is read as `*`): every existing path it matches, one
 * folder at a time, or the word itself when it has none.
 */
function absoluteMatches(word: string): string[] {
  // A brace left over (a quoted or escaped one inside a group: `{d,"}"}`: round-32 F2) makes its whole folder name a `*`.
  const plain = bracesAsPatterns(word)
    .split('/')
    .map((part) => (/[{}]/.test(part) ? '*' : part))
    .join('/');
  if (wordPattern(plain) === null) return [word];
  let at = [''];
  for (const part of plain.split('/').slice(1)) {
    const pattern = wordPattern(part);
    if (pattern === null) {
      at = at.map((p) => `${p}/${part}`);
      continue;
    }
    const next: string[] = [];
    for (const dir of at) {
      let names: string[];
      outsideWitness.witness(dir || '/');
      try {
        names = readdirSync(dir || '/');
      } catch {
        continue;
      }
      for (const name of names) if (pattern.test(name)) next.push(`${dir}/${name}`);
      if (next.length > MAX_ABSOLUTE_MATCHES) {
        throw new RunSetupError(`the CHECK's "${word.slice(0, 200)}" matches more than ${MAX_ABSOLUTE_MATCHES} paths: what it runs cannot be judged`, 'name the file by a plain path');
      }
    }
    at = next;
  }
  return at;
}

/**
 * Where an absolute CHECK word leads: null where the check could reach nothing either (missing,
 * a loop, a folder it may not search); refused where the kernel follows what realpath(3)
 * cannot (a path past PATH_MAX).
 */
function wordTarget(word: string): string | null {
  try {
    return realPathUtf8(word);
  } catch (e) {
    rethrowLossy(e);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EACCES') return null;
    throw new RunSetupError(`the CHECK's "${word.slice(0, 200)}" cannot be resolved (${code ?? (e as Error).message}), so what it runs cannot be bound into an approval`, 'name the file by a shorter plain path');
  }
}

function listing(root: string, dir: string): string[] {
  const inside = isInside(root, dir);
  let names = inside ? undefined : listings.get(dir);
  if (names === undefined) {
    // An outside folder is noted before this (outsideLinksIntoRepository judges each first).
    try {
      names = readdirSync(dir);
    } catch {
      names = [];
    }
    if (!inside) listings.set(dir, names);
  }
  return names;
}

function lookUp(root: string, dir: string, word: string): { found: string; real: string | null; perProcess: boolean } | null {
  const found = join(dir, word);
  let st;
  try {
    // Most names are in no folder: no exception made for each (100 checks x 15 PATH folders).
    st = statSync(found, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (st === undefined || !st.isFile() || !isExecutable(st.mode)) return null;
  let real: string | null = null;
  try {
    real = realPathUtf8(found);
  } catch (e) {
    rethrowLossy(e);
    // Runs, but cannot be resolved (ENAMETOOLONG): taken for one that leads into the repository.
    real = root;
  }
  return { found, real, perProcess: throughPerProcessLink(root, found) };
}

/**
 * The folders a PATH entry may name for the check's shell, as absolute paths read as text:
 * the entry itself, and, where shells differ or the path depends on the process, each reading
 * (round-24): bash expands a leading `~` in PATH and dash does not, so both; `/proc/self/cwd`
 * is the check's folder and `/proc/self/root` is `/`. A `..` after a link goes up from the
 * link's target, as the kernel does: such an entry is taken where that walk ends when the walk
 * never touches the repository (`/opt/sdk/current/../bin`), and refused when it does (the text
 * and the walk lead to different folders, one of them the repository's). Also refused, as
 * what they lead to cannot be judged from here: another process's `/proc` entry and `~user`.
 */
function entryDirs(entry: string, cwd: string, root: string): { written: string; dir: string }[] {
  // Read as text unless a `..` follows a link (linkBeforeParent): such an answer is kept, once per process.
  const key = `${root}\0${cwd}\0${entry.startsWith('~') ? homeDirectory() : ''}\0${entry}`;
  const known = textualEntryDirs.get(key);
  if (known !== undefined) return known;
  const dirs = entryDirsRead(entry, cwd, root);
  if (!entry.includes('..') && !key.slice(0, key.length - entry.length).includes('/..')) textualEntryDirs.set(key, dirs);
  return dirs;
}

const textualEntryDirs = new Map<string, { written: string; dir: string }[]>();

function entryDirsRead(entry: string, cwd: string, root: string): { written: string; dir: string }[] {
  const refuse = (why: string) => {
    throw new RunSetupError(`PATH entry ${entry.slice(0, 200)} ${why}, so what it leads to cannot be bound into an approval`, 'write the entry as a plain absolute path, or remove it from PATH');
  };
  const raw = entry === '' ? cwd : isAbsolute(entry) ? entry : `${cwd}/${entry}`;
  const dirs = [raw];
  if (entry === '~' || entry.startsWith('~/')) {
    const home = homeDirectory();
    if (!isAbsolute(home)) refuse('starts at HOME, which is not an absolute path (it would move with the check\'s folder)');
    dirs.push(`${home}${entry.slice(1)}`);
  }
  else if (entry.startsWith('~')) refuse('names a user\'s home folder (~user) that some shells expand');
  // dash reads `dir%func` as a folder whose files it sources to define a command as a
  // function (bash as a folder of that literal name): round-36 F5.
  const option = entry.indexOf('%');
  if (option >= 0 && entry.slice(option + 1).startsWith('func')) refuse('has %func after its folder, which dash reads as a folder whose files it sources as shell code');
  const out: { written: string; dir: string }[] = [];
  for (const d of dirs) {
    const proc = /^\/proc\/(?:self|thread-self)\/(cwd|root)(?=\/|$)/.exec(d);
    let dir = proc === null ? d : proc[1] === 'cwd' ? cwd + d.slice(proc[0].length) : d.slice(proc[0].length) || '/';
    if (/^\/proc(?:\/|$)/.test(resolve(dir))) refuse('lies in /proc, where each process sees its own');
    // Read on disk, not as text: noted (outsideAnswers are kept by what they read).
    if (dir.split('/').includes('..')) outsideWitness.witness(dir);
    if (dir.split('/').includes('..') && linkBeforeParent(dir)) {
      const walked = walkOutside(dir, root);
      if (walked === null || isInside(root, resolve(dir))) refuse('goes up (..) from a symbolic link into or out of the repository');
      dir = walked!;
    }
    dir = resolve(dir);
    out.push({ written: entry, dir });
  }
  return out;
}

/** Whether a folder named before a later `..` in `path` is a symbolic link (then `..` leaves its target, not the link's folder). */
function linkBeforeParent(path: string): boolean {
  const parts = path.split('/');
  const lastUp = parts.lastIndexOf('..');
  let prefix = '';
  for (let i = 0; i < lastUp; i++) {
    const p = parts[i]!;
    if (p === '' || p === '.') continue;
    if (p === '..') {
      prefix = dirname(prefix || '/');
      continue;
    }
    prefix = `${prefix}/${p}`;
    try {
      if (lstatSync(prefix).isSymbolicLink()) return true;
    } catch {
      return false; // nothing there: the rest cannot lead anywhere yet
    }
  }
  return false;
}

/**
 * Where the kernel takes `path` (a `..` leaves a link's target), walked one name at a time: the
 * folder it ends in, or null when any step of the walk lies in the repository. A step that does
 * not exist ends the walk there: the shell finds nothing through it, and making it later is a
 * write outside the repository.
 */
function walkOutside(path: string, root: string): string | null {
  let at = '/';
  for (const name of path.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') at = dirname(at);
    else {
      try {
        at = realPathUtf8(join(at, name));
      } catch (e) {
        rethrowLossy(e);
        return isInside(root, join(at, name)) ? null : join(at, name);
      }
    }
    if (isInside(root, at)) return null;
  }
  return at;
}

export function homeDirectory(): string {
  return process.env.HOME || builtinModule<typeof import('node:os')>('node:os').homedir();
}

/** Where a path that does not exist (or is not a directory) would be: its deepest existing folder, resolved, and the rest as written. */
function realOfMissing(lexical: string): string | null {
  const rest: string[] = [];
  for (let dir = lexical, i = 0; i < 64; i++) {
    try {
      const real = realPathUtf8(dir);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch (e) {
      rethrowLossy(e);
      // A link to what is not there yet leads where its text says (`/out/t -> <repo>/tools`
      // before tools is made: round-34 F4), not to the link's own folder.
      const target = danglingTarget(dir);
      if (target !== null) {
        dir = target;
        continue;
      }
      const up = dirname(dir);
      if (up === dir) return null;
      rest.push(basename(dir));
      dir = up;
    }
  }
  return null;
}

/** The absolute target of `path` when it is a symbolic link, else null. */
function danglingTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? resolve(dirname(path), readlinkSync(path)) : null;
  } catch {
    return null;
  }
}

/** Where an existing folder resolves: 'inside' the repository or 'outside' it; 'missing' when it cannot be resolved. */
function realDirInsideOrMissing(root: string, dir: string): 'inside' | 'outside' | 'missing' {
  try {
    return isInside(root, realPathUtf8(dir)) ? 'inside' : 'outside';
  } catch (e) {
    rethrowLossy(e);
    return 'missing';
  }
}

/** Whether `dir` (inside the repository as written) resolves inside it; a missing one does. */
function realDirInside(root: string, dir: string): boolean {
  return realDirInsideOrMissing(root, dir) !== 'outside';
}

/**
 * A file outside the repository that a PATH entry of the repository reaches, bound by its
 * identity rather than its bytes (a venv's python links to a 6 MB interpreter, hashed before
 * every check otherwise): any write to it changes its ctime, which no process can set back.
 */
function outsideDigest(path: string): string {
  const st = statSync(path, { bigint: true });
  return sha256Hex(`outside\u0000${path}\u0000${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
}

/**
 * The repository files an executable outside the repository names at its start (its `#!`
 * interpreter and the paths there, an ELF loader, as deep as the kernel follows): none for
 * nearly all; and the commands its `#!/usr/bin/env` line runs by a bare name. For the shell
 * every CHECK runs through (commands/settings.ts: round-36 F3).
 */
export function repositoryFilesAtStart(ledgerRoot: string, path: string): OutsideStart {
  const root = writableTree(ledgerRoot);
  // Kept with the other judgements (outsideStarts) while nothing it read changed: asked before every check.
  const key = `${root}\0${path}`;
  const known = outsideStarts.get(key);
  if (known !== undefined) return known;
  // What it names depends on its start (whose bytes are noted) and on where those names lead (noted by startParts).
  const named: string[] = [];
  const bare: BareName[] = [];
  outsideExecutableDigest(root, path, path, 0, named, bare);
  const start = { named: [...new Set(named)], bare };
  outsideStarts.set(key, start);
  return start;
}

/** The kernel rewrites a `#!` file at most this many times; one more is ELOOP (fs/exec.c). */
const MAX_INTERPRETER_CHAIN = 5;

/**
 * An executable's bytes in the repository, with every file its start names for the kernel
 * (startParts).
 */
function inRepoDigest(root: string, path: string, rel: string, depth = 0): string {
  const { sha256, header } = sha256FileWithStat(path, depth === 0 ? `PATH executable ${rel}` : `a file the start of PATH executable ${rel} names`, { header: true });
  const parts = startParts(root, header ?? null, rel, depth);
  return parts.length === 0 ? sha256 : sha256Hex([`start\u0000${sha256}`, ...parts].join('\u0000\u0000'));
}

/**
 * Interpreters named outside the repository whose own chain names nothing in it (`#!/bin/sh`,
 * `#!/usr/bin/env node`): 500 scripts in node_modules/.bin name the same one. Kept until a
 * check has run (forgetOutside): a check may relink one into the repository before
 * the next gate starts (round-29 04).
 */
const outsideQuiet = new Set<string>();

/**
 * Judge everything outside the repository again, unless nothing the judgements read has
 * changed (outsideWitness): called for each resolution after a check started, which may have
 * relinked a folder, a command or an interpreter there into the repository (round-29 04,
 * round-30 02).
 */
export function forgetOutside(): void {
  if (outsideWitness.holds()) return;
  outsideWitness.clear();
  outside.clear();
  outsideAnswers.clear();
  outsideLookups.clear();
  outsideStarts.clear();
  listings.clear();
  outsideQuiet.clear();
}


/**
 * An executable outside the repository that its PATH reaches (a link in a bound folder, a
 * folder linked out) or that a start names: by its identity, and by what its own start names
 * in the repository (round-28 11: an outside script whose #! line names lib/interp).
 */
function outsideExecutableDigest(root: string, path: string, rel: string, depth = 0, named?: string[], bare?: BareName[]): string {
  // Noted by whoever found `path` (a look in PATH, a CHECK word, a start naming it); its
  // start is read every time, and its bytes noted: a write through a shared memory mapping
  // whose page is already dirty changes no time (round-36 F2).
  const identity = outsideDigest(path);
  const head = readHead(path, `a file PATH executable ${rel} reaches outside the repository`);
  outsideWitness.witnessBytes(path, head, execHeaderExtent(head));
  const header = execHeader(head);
  const parts = startParts(root, header, rel, depth, named, bare);
  return parts.length === 0 ? identity : sha256Hex([identity, ...parts].join('\u0000\u0000'));
}

/**
 * Every file the start of an executable names for the kernel (exec-header.ts), as
 * [named path, where it leads, digest] parts: the `#!` interpreter, each path in the `#!`
 * argument (`#!/bin/sh /repo/lib/a.sh`, `#!/usr/bin/env -S sh /repo/lib/c.sh`), and an ELF
 * file's loader (round-27 01-07). A relative one is found from wherever the process stands
 * that starts the file, so it is refused; so is one that is not valid UTF-8. One in the
 * repository, or written there and leading out (round-27 05), is bound by where it leads and
 * what it holds; one outside by nothing unless its own start names one in the repository.
 * An interpreter's start is read in turn, as deep as the kernel follows; a deeper chain is
 * refused. A bare word (`#!/usr/bin/env python3`) is found through PATH, whose folders in the
 * repository are bound whole (boundExecutables).
 */
function startParts(root: string, header: ExecHeader | null, rel: string, depth: number, named?: string[], bare?: BareName[]): string[] {
  if (header === null) return [];
  const refuse = (why: string): never => {
    throw new RunSetupError(
      `PATH executable ${rel.slice(0, 200)} ${why}, so what runs cannot be bound into an approval`,
      'name interpreters and the files they read by plain absolute paths (or a bare name after /usr/bin/env, found in PATH)',
    );
  };
  if (header.kind === 'elf-unread') return refuse('is an ELF file whose loader (PT_INTERP) cannot be read from its first 64 KiB');
  if (header.kind === 'undecodable') return refuse('names a file at its start by a path that is not valid UTF-8');
  // env -S expands `${NAME}` in its argument: what it names then is not in the text (round-32 F4).
  if (header.kind === 'script' && header.argument.includes('${')) return refuse('has a ${…} in its #! line, which env -S expands to what no reading of the line can know');
  if (header.kind === 'script' && depth >= MAX_INTERPRETER_CHAIN) refuse(`starts a chain of #! interpreters deeper than the kernel follows (${MAX_INTERPRETER_CHAIN})`);
  const shown = (p: string) => JSON.stringify(p.slice(0, 200));
  // The kernel gives the argument whole (`#!/bin/sh /repo/lib/a.sh x` runs the file "a.sh x": round-29 02); env -S splits it.
  const files = header.kind === 'elf' ? [header.interpreter] : [...new Set([header.interpreter, ...(header.argument.startsWith('/') ? [header.argument] : []), ...headerWords(header.argument).flatMap(startPathWord)])];
  if (bare !== undefined && header.kind === 'script' && basename(header.interpreter) === 'env') {
    const command = envCommand(headerWords(header.argument));
    if (command !== null && !command.name.includes('/')) bare.push(command);
  }
  // A PATH= folder of an `env -S` line read by dash as one whose files it sources (round-37 F6).
  for (const file of files) if (/%func/.test(file)) refuse(`puts ${shown(file)} on PATH in its #! line, which dash reads as a folder whose files it sources as shell code (%func)`);
  const parts: string[] = [];
  for (const [i, file] of files.entries()) {
    const what = header.kind === 'elf' ? 'its loader (ELF PT_INTERP)' : i === 0 ? 'its #! interpreter' : 'a file in its #! line';
    if (!file.startsWith('/')) refuse(`names ${what} by a relative path (${shown(file)}), which each process finds from its own folder`);
    const quiet = `${root}\u0000${file}`;
    if (outsideQuiet.has(quiet)) continue;
    outsideWitness.witness(file);
    if (throughPerProcessLink(root, file)) refuse(`names ${what} through /proc or /dev/fd (${shown(file)})`);
    const real = namedTarget(file, () => refuse(`names ${what} at a path that cannot be resolved (${shown(file)})`));
    if (real === null) {
      // Missing now: one that would be made in the repository is bound as missing, so making it is a change.
      const later = realOfMissing(file) ?? file;
      if (isInside(root, later)) {
        parts.push(`${file}\u0000missing`);
        named?.push(later);
      }
      continue;
    }
    const isFile = statSync(real).isFile();
    if (!isInside(root, file) && !isInside(root, real)) {
      // The kernel loads an ELF loader without reading a loader of its own.
      if (!isFile || header.kind === 'elf') continue;
      const outside = outsideExecutableDigest(root, real, rel, depth + 1, named, bare);
      if (outside !== outsideDigest(real)) parts.push(`${file}\u0000${real}\u0000${outside}`);
      else outsideQuiet.add(quiet);
      continue;
    }
    named?.push(isInside(root, real) ? real : file);
    let content: string;
    // A folder of the repository (`env -S PATH=<repo>/bin node`): what is looked up there is not bound by naming it.
    if (!isFile && statSync(real).isDirectory()) refuse(`names a folder of the repository in its #! line (${shown(file)}), whose files a program may then run`);
    if (!isFile) content = 'not a file';
    else if (header.kind === 'elf') content = isInside(root, real) ? sha256FileWithStat(real, `the loader of PATH executable ${rel}`).sha256 : outsideDigest(real);
    else content = isInside(root, real) ? inRepoDigest(root, real, rel, depth + 1) : outsideExecutableDigest(root, real, rel, depth + 1);
    parts.push(`${file}\u0000${real}\u0000${content}`);
  }
  return parts;
}

/**
 * The command `env` runs from a `#!` argument (`/usr/bin/env mytool`, `env -S PATH=/x:/y
 * mytool --flag`): its name, and the absolute folders a `PATH=` there puts first; null when
 * it runs none. Options with a value of their own (`-u NAME`, `-C DIR`) are passed over.
 */
function envCommand(words: string[]): BareName | null {
  const dirs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.replace(/["']/g, '');
    if (w === '-u' || w === '-C' || w === '--unset' || w === '--chdir') {
      i++;
      continue;
    }
    if (w.startsWith('-')) continue;
    const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(w);
    if (assignment !== null) {
      if (assignment[1] === 'PATH') dirs.push(...assignment[2]!.split(':').filter((d) => d.startsWith('/')));
      continue;
    }
    return { name: w, dirs };
  }
  return null;
}

/** Where a path named in an executable's start leads: null when the kernel would find nothing there (missing, a loop); `refuse` when it cannot be told. */
function namedTarget(file: string, refuse: () => never): string | null {
  try {
    return realPathUtf8(file);
  } catch (e) {
    rethrowLossy(e);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null;
    return refuse();
  }
}

function refusePerProcess(entry: string, rel?: string): never {
  throw new RunSetupError(
    `PATH entry ${entry.slice(0, 200) || '(empty: the working directory)'}${rel === undefined ? '' : ` (at ${rel.slice(0, 200)})`} leads through /proc or /dev/fd, which each process reads as its own: what the check's shell finds there cannot be bound into an approval`,
    'replace the link with a plain folder or file, or remove the entry from PATH',
  );
}

/**
 * Where a link in a PATH folder leads, or null when it leads nowhere the kernel could run
 * (missing, a loop, a file on the way). A link the kernel follows but realpath(3) cannot
 * (a target path longer than PATH_MAX) is refused: it runs, and could not be bound (round-25 F3).
 */
function linkTarget(abs: string, rel: string): string | null {
  try {
    return realPathUtf8(abs);
  } catch (e) {
    rethrowLossy(e);
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    try {
      statSync(abs);
    } catch (f) {
      const code = (f as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null;
    }
    throw new RunSetupError(`PATH executable ${rel.slice(0, 200)} is a link that cannot be resolved (${why}), so what it runs cannot be bound into an approval`, 'point the link at a shorter path, or remove it');
  }
}

function isExecutable(mode: number): boolean {
  return (mode & 0o111) !== 0;
}

/**
 * [path relative to the writable tree, digest] of every file a shell could reach through the
 * in-repository PATH entries; null when there are no such entries. A folder of commands is
 * bound whole: `. x.sh`, `eval '. x.sh'`, `bash -o errexit x.sh` and every other spelling reach
 * a file there by PATH, executable or not, and no reading of the CHECK finds them all (round-27
 * 08). The folder the work lives in (the top of the work tree, or `workDir`, the check's own
 * folder: what an empty entry or `.` names) is bound by its executables and the names the CHECK
 * reads by `.` (`sourced`, sourcedNames): its other files are the work under test, and binding
 * them would make every edit there a change. No file in a folder decides this (a planted
 * `gates/` made tools/ look like a ledger's folder: round-29 05).
 */
export function boundExecutables(entries: readonly InRepoPathEntry[], ledgerRoot: string, label: string, sourced: readonly string[] = [], workDir: string | null = null): DependsEntry[] | null {
  if (entries.length === 0) return null;
  const root = writableTree(ledgerRoot);
  const bound = new Map<string, string>();
  for (const { entry, inRepo } of entries) {
    const dir = join(root, inRepo);
    // A folder that a link leads out of the repository: its files are bound by identity (outsideDigest).
    const dirInside = realDirInside(root, dir);
    let names: string[];
    try {
      names = readdirSync(dir, { encoding: 'buffer' }).map((raw) => fileName(raw, entry));
    } catch (e) {
      if (e instanceof RunSetupError) throw e;
      // Not there (yet), or not a folder: it holds no executable now (inRepoPathEntries).
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw new RunSetupError(`PATH entry ${entry || '(empty: the working directory)'} of ${label} cannot be listed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const whole = inRepo !== '.' && dir !== workDir;
    const wanted = (name: string, mode: number) => whole || isExecutable(mode) || sourced.includes(name);
    for (const name of names) {
      const rel = inRepo === '.' ? name : `${inRepo}/${name}`;
      const abs = join(dir, name);
      let st;
      try {
        st = lstatSync(abs);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // gone since the listing
        throw new RunSetupError(`PATH file ${rel.slice(0, 200)} of ${label} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      let digest: string | null = null;
      if (st.isSymbolicLink()) {
        let target: string;
        try {
          target = readlinkSync(abs);
        } catch {
          continue;
        }
        if (throughPerProcessLink(root, abs)) refusePerProcess(entry, rel);
        const real = linkTarget(abs, rel);
        if (real === null) continue; // a dangling link runs nothing (made to lead somewhere later, it is a change)
        const tst = statSync(real);
        if (tst.isDirectory()) continue;
        if (!tst.isFile()) {
          if (whole) refuseSpecial(entry, rel);
          continue;
        }
        if (!wanted(name, tst.mode)) continue;
        // Outside the repository too: a link to /tmp/x runs what /tmp/x holds now (round-23 F2).
        // A target that cannot be hashed is refused, as a file there is (round-25 F3).
        const content = isInside(root, real) ? fileDigest(root, real, rel, tst.mode) : isExecutable(tst.mode) ? outsideExecutableDigest(root, real, rel) : outsideDigest(real);
        digest = sha256Hex(`link\u0000${target}\u0000${content}`);
      } else if (st.isFile()) {
        if (wanted(name, st.mode)) digest = dirInside ? fileDigest(root, abs, rel, st.mode) : isExecutable(st.mode) ? outsideExecutableDigest(root, abs, rel) : outsideDigest(abs);
      } else if (!st.isDirectory() && whole) {
        refuseSpecial(entry, rel);
      }
      if (digest === null) continue;
      bound.set(rel, digest);
      if (bound.size > MAX_PATH_BOUND) {
        throw new RunSetupError(
          `PATH of ${label} has more than ${MAX_PATH_BOUND} files inside the repository (in ${entries.map((e) => e.inRepo).join(', ')}): too many to bind into the approval`,
          'remove PATH entries that point into the repository, or call the tools there by relative path and list them in DEPENDS',
        );
      }
    }
  }
  return [...bound].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const utf8Names = new TextDecoder('utf-8', { fatal: true });

/** A name listed in a PATH folder as text; one that is not valid UTF-8 could not be opened by that text, so it is refused (round-28 03). */
function fileName(raw: Buffer, entry: string): string {
  try {
    return utf8Names.decode(raw);
  } catch {
    throw new RunSetupError(
      `PATH entry ${entry.slice(0, 200) || '(empty: the working directory)'} holds a file whose name is not valid UTF-8 (${JSON.stringify(raw.toString('latin1').slice(0, 200))}): it cannot be bound into an approval`,
      'rename it, or remove the folder from PATH',
    );
  }
}

/** An executable is bound with what its start names (inRepoDigest); another file, which only a shell reads, by its bytes. */
function fileDigest(root: string, path: string, rel: string, mode: number): string {
  return isExecutable(mode) ? inRepoDigest(root, path, rel) : sha256FileWithStat(path, `PATH file ${rel}`).sha256;
}

/** A FIFO, socket or device in a PATH folder: `. name` would read whatever it gives then. */
function refuseSpecial(entry: string, rel: string): never {
  throw new RunSetupError(
    `PATH entry ${entry.slice(0, 200) || '(empty: the working directory)'} holds ${rel.slice(0, 200)}, which is not a regular file (a FIFO, socket or device): what a shell reads from it cannot be bound into an approval`,
    'remove it from the folder, or the folder from PATH',
  );
}
