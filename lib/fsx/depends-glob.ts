// Matching DEPENDS globs: dot files included, symlinks never followed and refused where
// matched, nothing outside the root, the ledgers left out, results sorted. A pattern that
// matches no file is an error, never an empty list.
//
// Most DEPENDS entries are a plain path (`scripts/verify.mjs`) or a wildcard in the last
// segment only (`fixtures/*.json`). Those are answered with one lstat or one readdir; every
// other pattern goes to fast-glob (loaded only then). Measured on 1,000 gates: fast-glob
// alone spent about 0.4 ms per pattern.
import { isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { NotRunnableError, NotRunnableYetError, OnlyLedgersError, RunSetupError, UnsafeFileError } from '../errors.js';
import { expandBraces, globLimitProblem, segmentMatches } from '../ledger/globs.js';
import { isLedgerOwnFile } from '../ledger/own-files.js';
import { normalizeRelativePath } from '../ledger/paths.js';
import { visibleNonAscii } from '../text/sanitize.js';
import { namesOneFolder } from './physical-path.js';

type FastGlob = typeof import('fast-glob');
let loaded: FastGlob | null = null;

const GLOB_CHARS = /[*?[\]{}()!@+\\]/;
const SIMPLE_WILDCARD = /^[^[\]{}()!@+\\]*$/;

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function refuseType(label: string, path: string, isLink: boolean, isFile: boolean): void {
  if (isLink) throw new RunSetupError(`${label}: ${path} is a symbolic link (refused: dependencies are hashed without following links)`);
  if (!isFile) throw new RunSetupError(`${label}: ${path} is not a regular file (refused)`);
}

/** Names the root, which patterns are relative to: a named ledger's own folder (docs/GATES.md) may not be where the files are. */
function nothingMatched(label: string, pattern: string, root: string): RunSetupError {
  return new NotRunnableYetError(`${label}: pattern ${pattern} matches no file under ${root}`, `patterns are relative to the root (${root}); fix the pattern, or name the root with --root: a list that matches nothing would bind the approval to nothing`);
}

/**
 * Every directory from the root down to `dir` must be a real directory: lstat does not
 * follow the last component, but the kernel follows symlinks in the ones before it, so each
 * is checked. Returns false when one is missing or is not a directory; throws on a symlink.
 */
function realDirectoryChain(root: string, dir: string, label: string, pattern: string): boolean {
  if (dir === '') return true;
  let current = root;
  for (const segment of dir.split('/')) {
    current = join(current, segment);
    let st;
    try {
      st = lstatSync(current);
    } catch {
      return false;
    }
    if (st.isSymbolicLink()) throw new RunSetupError(`${label}: ${pattern} goes through a symbolic link (refused: dependencies are read only inside the repository)`);
    if (!st.isDirectory()) return false;
  }
  return true;
}

/** Plain paths and last-segment wildcards without fast-glob; null when the pattern needs it. */
function matchSimple(root: string, pattern: string, label: string): string[] | null {
  const slash = pattern.lastIndexOf('/');
  const dir = slash === -1 ? '' : pattern.slice(0, slash);
  const last = pattern.slice(slash + 1);
  if (GLOB_CHARS.test(dir)) return null;
  if (!realDirectoryChain(root, dir, label, pattern)) return [];
  if (!GLOB_CHARS.test(last)) {
    let st;
    try {
      st = lstatSync(join(root, pattern));
    } catch {
      return [];
    }
    if (st.isDirectory()) return [];
    refuseType(label, pattern, st.isSymbolicLink(), st.isFile());
    return [pattern];
  }
  if (!SIMPLE_WILDCARD.test(last) || last.includes('**')) return null;
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!segmentMatches(last, e.name)) continue;
    const rel = dir === '' ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) continue;
    refuseType(label, rel, e.isSymbolicLink(), e.isFile());
    out.push(rel);
  }
  return out;
}

/** A folder fast-glob walked holds a name it cannot match faithfully (walkableNames). */
class UnwalkableNameError extends Error {
  constructor(
    readonly folder: string,
    readonly why: string,
    readonly hint: string,
  ) {
    super(`${folder} holds ${why}`);
  }
}

// What `.` in a JavaScript regular expression without the s flag does not match. fast-glob's
// matcher (picomatch) writes `**` with `.`, so `lib/**` passed over `lib/a<LF>b.sh`, and the
// script there was bound by nothing (round-39u U2); `*` matches such a name.
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * fast-glob's readdir: a folder holding a name that is not UTF-8 is an error, not a name
 * decoded to U+FFFD that leads nowhere (fast-glob passes over ENOENT: a folder named 0xFF
 * under `lib/**` was skipped, and the script in it bound by nothing: round-39s S2) or to a
 * twin spelled U+FFFD; so is a name with a line terminator, which `**` does not match.
 * Costs a second listing of each folder a pattern walks.
 */
function walkableNames(folder: string): string[];
function walkableNames(folder: string, options: { withFileTypes: true }): Dirent[];
function walkableNames(folder: string, options?: { withFileTypes: true }): string[] | Dirent[] {
  const names = readdirSync(folder, { encoding: 'buffer' });
  if (names.some((name) => !isUtf8(name))) throw new UnwalkableNameError(folder, 'a name that is not UTF-8 text (Node reads its bytes as U+FFFD)', 'rename it to a UTF-8 name');
  const broken = names.find((name) => LINE_TERMINATOR.test(name.toString('utf8')));
  if (broken !== undefined) throw new UnwalkableNameError(folder, `a name with a line break (${visibleNonAscii(broken.toString('utf8')).text}), which the pattern's ** does not match`, 'rename it without the line break');
  return options?.withFileTypes ? readdirSync(folder, { withFileTypes: true }) : readdirSync(folder);
}

const relativeTo = (root: string, folder: string) => (folder === root ? '.' : folder.startsWith(`${root}/`) ? folder.slice(root.length + 1) : folder);

async function matchWithFastGlob(root: string, pattern: string, label: string): Promise<string[]> {
  // fast-glob opens the pattern's static base by path (following symlinks); check it first.
  const segments = pattern.split('/');
  const firstDynamic = segments.findIndex((seg) => GLOB_CHARS.test(seg));
  const base = segments.slice(0, firstDynamic === -1 ? segments.length - 1 : firstDynamic).join('/');
  if (!realDirectoryChain(root, base, label, pattern)) return [];
  loaded ??= ((await import('fast-glob')) as unknown as { default: FastGlob }).default;
  let entries: import('fast-glob').Entry[];
  try {
    entries = loaded.sync(pattern, {
      cwd: root,
      dot: true,
      followSymbolicLinks: false,
      onlyFiles: false,
      objectMode: true,
      unique: true,
      caseSensitiveMatch: true,
      suppressErrors: false,
      fs: { readdirSync: walkableNames },
    });
  } catch (e) {
    // A folder that cannot be listed ends the run as a file that cannot be read does, named
    // (it was "internal error: EACCES … scandir": round-39u U4).
    const { code, path } = e as NodeJS.ErrnoException;
    if (typeof code === 'string' && typeof path === 'string') throw new UnsafeFileError(`${label}: ${visibleNonAscii(relativeTo(root, path)).text}`, `cannot be listed (${code})`);
    // Mutation note: equivalent in verdict (any other error, named this way, makes the gate not
    // runnable instead of ending the run: nothing of it runs either way).
    if (!(e instanceof UnwalkableNameError)) throw e;
    throw new NotRunnableError(`${label}: pattern ${pattern} walks ${visibleNonAscii(relativeTo(root, e.folder)).text}, which holds ${e.why}: gate-check cannot look into it as the file system names it`, e.hint);
  }
  const files = new Set<string>();
  for (const e of entries) {
    if (e.dirent.isDirectory()) continue;
    refuseType(label, e.path, e.dirent.isSymbolicLink(), e.dirent.isFile());
    // Mutation note: equivalent while refuseUnbounded holds (fixed parts and brace alternatives
    // are repository-relative, extended globs are refused, and a wildcard never yields `..`,
    // which readdir does not list: test/fsx/depends-glob.test.ts); the last line of defence.
    if (e.path.startsWith('../') || e.path.startsWith('/')) throw new RunSetupError(`${label}: ${e.path} is outside the repository (refused)`);
    // A brace alternative "." ({.,x}/f) comes back as "./f": the same file as "f".
    let path = e.path;
    while (path.startsWith('./')) path = path.slice(2);
    files.add(path);
  }
  return [...files];
}

/**
 * The parser's bounds, checked again before any file system work: a pattern within the
 * brace and wildcard bounds whose every brace alternative is repository-relative
 * (`{.,..}/x` and `{/srv,x}/f` would otherwise reach outside through fast-glob's expansion).
 */
function refuseUnbounded(label: string, pattern: string): void {
  const problem = globLimitProblem(pattern);
  if (problem) throw new RunSetupError(`${label}: ${problem}`);
  if (!pattern.includes('{')) return;
  for (const alternative of expandBraces(pattern)) {
    const n = normalizeRelativePath(alternative);
    if (!n.ok) throw new RunSetupError(`${label}: ${pattern} is outside the repository through its brace alternative ${alternative} (${n.reason})`);
  }
}

/** Repository-relative files matched by one glob, sorted by code unit. */
export async function matchDependsGlob(root: string, pattern: string, gateLabel: string, what = 'DEPENDS'): Promise<string[]> {
  const label = `${what} of ${gateLabel}`;
  refuseUnbounded(label, pattern);
  const matched = matchSimple(root, pattern, label) ?? (await matchWithFastGlob(root, pattern, label));
  // The ledgers and their locks change with every run (lib/ledger/own-files.ts): never hashed.
  const files = matched.filter((f) => !isLedgerOwnFile(f));
  if (files.length === 0 && matched.length > 0) {
    throw new OnlyLedgersError(
      `${label}: pattern ${pattern} matches only ledgers (${matched.slice(0, 3).join(', ')}${matched.length > 3 ? ', …' : ''}), which gate-check rewrites on every run and never hashes`,
      'name the files the CHECK reads; DEPENDS and INPUTS leave the ledgers, their locks and their temporary files out',
    );
  }
  if (files.length === 0) throw nothingMatched(label, pattern, root);
  // A name that is not UTF-8 comes back decoded (U+FFFD), and would be hashed where that text
  // leads: its twin spelled U+FFFD, or nothing. The file the CHECK runs was then bound by
  // nothing, and editing it kept the gate verified (round-39r).
  for (const f of files) {
    if (!namesOneFolder(join(root, f))) {
      throw new NotRunnableError(
        `${label}: pattern ${pattern} matches ${visibleNonAscii(f).text}, a path with a name that is not UTF-8 text (Node reads its bytes as U+FFFD), which gate-check cannot hash as the file system names it`,
        'rename the file or folder to a UTF-8 name',
      );
    }
  }
  return files.sort(byCodeUnit);
}
