// Where a script path a CHECK names leads in the repository when the kernel opens it:
// `cd tests && sh ../check.sh` runs spec/check.sh when tests is a symlink to spec/unit, which
// the same words read as text do not name. The directory is the shell's PWD (kept as text, as
// `cd` keeps it); realpath(3) then resolves each `..` after the link before it, as the kernel
// does (Node's JavaScript realpathSync first normalizes `..` away as text). Reads only.
import { isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { UnsafeFileError } from '../errors.js';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { safeReadFile } from './safe-read.js';

/**
 * realpath(3) of `path` (the kernel's: each `..` after the link before it), or null when it
 * does not resolve (missing, a loop, no access). An error when it resolves to a path that is
 * not UTF-8: Node would decode its odd bytes to U+FFFD, and the string then names another
 * folder (a git folder moved to such a name and linked back keyed a decoy: round-39p P1).
 */
export function realPath(path: string): string | null {
  let bytes: Buffer;
  try {
    bytes = realpathSync.native(path, { encoding: 'buffer' });
  } catch {
    return null;
  }
  if (!isUtf8(bytes)) throw new UnsafeFileError(path, 'resolves to a path that is not UTF-8 text, which gate-check cannot name as the file system does');
  return bytes.toString('utf8');
}

/** Why a path namesOneFolder refuses is refused. */
export const AMBIGUOUS_NAME = 'a name on this path is not UTF-8 text (Node reads its bytes as U+FFFD), so the path may name another folder than the one meant';

/**
 * Whether an absolute path as Node gave it (the current folder, an argument, a host's JSON)
 * names one folder: true unless a name on it holds U+FFFD (what Node makes of bytes that are
 * not UTF-8) and is not the only entry of its folder spelled that way in valid UTF-8. A
 * repository under a folder named 0xFF was read through its decoy, the folder spelled
 * EF BF BD beside it: the current folder is decoded before gate-check sees it (round-39r R5).
 */
export function namesOneFolder(path: string): boolean {
  if (!path.includes('\uFFFD')) return true;
  const names = path.split(sep);
  let at = names[0] === '' ? sep : names[0]!;
  for (const name of names.slice(1)) {
    if (name.includes('\uFFFD')) {
      let entries: Buffer[];
      try {
        entries = readdirSync(at, { encoding: 'buffer' });
      } catch {
        return false;
      }
      const same = entries.filter((e) => e.toString('utf8') === name);
      if (same.length !== 1 || !isUtf8(same[0]!)) return false;
    }
    if (name !== '') at = join(at, name);
  }
  return true;
}

/**
 * `path` (as written, relative) from the repository directory `dir`, as a repository path:
 * its directory resolved on disk, its last name kept (a DEPENDS file is never a link).
 * When that cannot be known now (a `..` under a folder that does not exist yet, which the
 * CHECK may make a link), or when a symlink lies on the way (`tests -> spec/unit`: nothing
 * binds the link, and pointing it elsewhere runs other code unasked), the path as written
 * (`tests/run.sh`, `tests/../check.sh`): DEPENDS refuses a path through a link, so it counts
 * as bound by nothing. Otherwise, for a folder not made yet, `fallback`'s answer (the path
 * read as text). `root` is canonical (no link above it counts).
 */
export function physicalRepositoryPath(root: string, path: string, dir: string, fallback: (path: string, dir: string) => string | null): string | null {
  if (isAbsolute(path) || path.includes('\0')) return fallback(path, dir);
  const written = dir === '.' ? path : `${dir}/${path}`;
  const onDisk = `${root}/${written}`;
  let parent: string;
  try {
    parent = realpathSync.native(dirname(onDisk));
  } catch {
    return written.split('/').includes('..') && fallback(path, dir) !== null ? written : fallback(path, dir);
  }
  const name = basename(onDisk);
  const full = name === '..' || name === '.' ? resolveWhole(onDisk) : `${parent}${sep}${name}`;
  if (full === null) return fallback(path, dir);
  const rel = relative(root, full);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return fallback(path, dir) === null ? null : written;
  const physical = rel === '' ? '.' : rel.split(sep).join('/');
  // Read as text, the same words lead elsewhere: a link lies on the way.
  return physical === posix.normalize(written) ? physical : written;
}

function resolveWhole(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/**
 * Whether a DEPENDS glob will match `path` (repository-relative, as text) once it is written:
 * nothing is there yet, and no symlink lies on the way to it (a glob never enters one).
 */
export function globCanBindLater(root: string, path: string): boolean {
  const parts = path.split('/');
  if (parts.includes('..') || parts.includes('.')) return false;
  for (let n = parts.length; n > 0; n--) {
    const at = `${root}/${parts.slice(0, n).join('/')}`;
    let real: string;
    try {
      real = realpathSync.native(at);
    } catch {
      continue; // not there (yet): look at its folder
    }
    // The file is there already (it is matched now or never), or a folder on the way is a link.
    return n < parts.length && real === at;
  }
  return true;
}

/**
 * The folder a gate's `CWD:` leads to on disk now, repository-relative ('.' for the root),
 * or a reason it leads nowhere in the repository (missing, not a folder, outside).
 */
export function cwdOnDisk(root: string, cwd: string): { dir: string } | { missing: string } {
  let real: string | null;
  try {
    real = realPath(resolve(root, cwd));
  } catch {
    // Two folders whose names decode alike would be one place here (round-39r R2).
    return { missing: 'it leads to a folder whose path is not UTF-8 text now' };
  }
  if (real === null) return { missing: 'it does not exist now' };
  const rel = relative(root, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { missing: 'it leads outside the repository now' };
  try {
    if (!statSync(real).isDirectory()) return { missing: 'it is not a folder now' };
  } catch {
    return { missing: 'it does not exist now' };
  }
  return { dir: rel === '' ? '.' : rel.split(sep).join('/') };
}

/** Whether a repository path is something a program can open as a file now (through links): not a folder. */
export function isRepositoryNonFolder(root: string, path: string): boolean {
  // Anything but a folder: a FIFO or a device where a file is read is named too (round-16).
  try {
    return !statSync(`${root}/${path}`).isDirectory();
  } catch {
    return false;
  }
}

/** Whether a repository path is a real folder there now (not a link to one, which is named as written). */
export function isRepositoryDirectory(root: string, path: string): boolean {
  // Mutation note: equivalent for what callers do with it (a folder reached through `..` or
  // from / cannot be run either, so naming it or not changes no approval); kept so that the
  // answer is about the repository only.
  if (isAbsolute(path) || path.split('/').includes('..')) return false;
  try {
    return lstatSync(`${root}/${path.replace(/\/+$/, '')}`).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A repository file's text (a package.json, a makefile, a configuration the UNBOUND reading
 * consults), or undefined when it is absent, unreadable, not a regular file or over 1 MiB:
 * the reading then says it could not read it. Read as untrusted (safe-read.ts).
 */
export function readRepositoryText(root: string, path: string): string | undefined {
  try {
    return safeReadFile(`${root}/${path}`, 1 << 20, path).bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Walks `path` (absolute) one name at a time, as the kernel resolves it: links followed (`..`
 * after a link leaves its target), from `start` (a folder `path` begins with, known to hold
 * no link). `stop(next, more)` is asked at each name, `more` telling whether names follow; the
 * walk answers true where it says so. A name that is not there, or more than 40 links, ends
 * the walk with false: it leads nowhere, for the kernel too.
 */
function walkStops(path: string, start: string, stop: (next: string, more: boolean) => boolean): boolean {
  const todo = path.slice(start === '/' ? 0 : start.length).split('/').reverse();
  let at = start;
  let links = 0;
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      at = dirname(at);
      continue;
    }
    const next = at === '/' ? `/${name}` : `${at}/${name}`;
    if (stop(next, todo.some((n) => n !== '' && n !== '.'))) return true;
    let text: string;
    try {
      if (!lstatSync(next).isSymbolicLink()) {
        at = next;
        continue;
      }
      text = readlinkSync(next);
    } catch {
      return false;
    }
    if (++links > 40) return false;
    if (text.startsWith('/')) at = '/';
    todo.push(...text.split('/').reverse());
  }
  return false;
}

/**
 * Every path the kernel looks at to resolve `path` (absolute): `/` and each name on the way,
 * link targets followed, up to the first name that is not there. Whatever could change where
 * `path` leads changes one of them (path-witness.ts).
 */
export function resolutionSteps(path: string): string[] {
  const steps = ['/'];
  walkStops(path, '/', (next) => {
    steps.push(next);
    return false;
  });
  return steps;
}

/** A process's own folders in /proc: its working folder, its root, its program, its mapped files. */
const PROCESS_FOLDER = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?(?:cwd|root|exe|map_files)$/;
/** A process's open descriptor, or one of its threads: what lies below depends on the process. */
const PROCESS_ENTRY = /^\/proc\/[^/]+\/(?:(?:task\/[^/]+\/)?fd\/[^/]+|task\/[^/]+)$/;

/**
 * Whether resolving `path` (absolute) goes through a process's own folder in /proc: its
 * working folder, its root, or a descriptor read as a folder (`/proc/self/cwd/x`,
 * `/dev/fd/../cwd/x`, which the kernel reads as /proc/self/cwd/x: round-33 F2; `/dev/fd/3/x`).
 * Such a path leads into the check's folder for the check, and elsewhere for gate-check, so
 * what it names can be neither bound nor judged. `/dev/stderr`, `/proc/self/status` and
 * `/proc/cpuinfo` are not: they are read, not walked through.
 */
export function reachesThroughProcess(path: string): boolean {
  return walkStops(path, '/', (next, more) => PROCESS_FOLDER.test(next) || (PROCESS_ENTRY.test(next) && more));
}

/** Where the kernel reads a path per process: the same link text leads to the check's folder for the check and to gate-check's for gate-check. */
const PER_PROCESS = /^\/(?:proc|dev\/fd|dev\/std(?:in|out|err))(?:\/|$)/;

/**
 * Whether resolving `path` (absolute) leads through /proc or /dev/fd (`tools ->
 * /proc/self/cwd/x`, or through a link outside to such a link): gate-check would resolve it in
 * its own process and the check's shell in its own, to different folders (round-25 F2).
 * Walked from the canonical repository `root` when the path starts there.
 */
export function throughPerProcessLink(root: string, path: string): boolean {
  return walkStops(path, path.startsWith(`${root}/`) ? root : '/', (next) => PER_PROCESS.test(next));
}
