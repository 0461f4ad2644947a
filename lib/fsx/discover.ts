// Finding ledgers: the repository root, GATES.md and gates/*.md under it, one scope's
// .gate-check/<scope>/*.md, the list of scopes, or explicit files. Fails closed: a symlinked location, a
// non-regular entry or a file outside the root is an error, never silently skipped.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DiscoveryError, UnsafeFileError, UsageError } from '../errors.js';
import { discoveryRoot, impliedRoot } from './repo-root.js';
import { lstatOrNull } from './safe-read.js';
import { AMBIGUOUS_NAME, namesOneFolder, realPath } from './physical-path.js';

export interface LedgerLocation {
  /** Canonical absolute path (symlink-free parents). */
  path: string;
  /** Path relative to the root with '/' separators, for display and JSON. */
  display: string;
}

export interface Root {
  /** Canonical absolute path of the repository root. */
  path: string;
}

export const SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The repository root: --root when given; otherwise found from where the user stands, as
 * git finds a work tree (repo-root.ts): for named ledgers the root their location implies
 * (all of them must agree), else the nearest directory holding ledgers up to the work-tree
 * top level, else that top level, else the current directory.
 */
export function resolveRoot(rootArg: string | undefined, cwd: string, files: readonly string[] = []): Root {
  // Paths come decoded (the current folder, arguments, a host's JSON): a name that was not
  // UTF-8 would name its decoy (round-39r R5).
  for (const path of [cwd, ...(rootArg === undefined ? [] : [rootArg]), ...files]) {
    const at = resolve(cwd, path);
    if (!namesOneFolder(at)) throw new UnsafeFileError(at, AMBIGUOUS_NAME, 'rename the folder to a UTF-8 name');
  }
  let lexical: string;
  if (rootArg !== undefined) lexical = resolve(cwd, rootArg);
  else if (files.length > 0) {
    const implied = new Set<string>();
    for (const f of files) implied.add(impliedRoot(resolve(cwd, f), cwd));
    if (implied.size > 1) throw new UsageError(`these ledgers belong to different roots (${[...implied].join(', ')}): name the ledgers of one root at a time, or pass --root`);
    lexical = [...implied][0]!;
  } else lexical = discoveryRoot(cwd);
  const real = realPath(lexical);
  if (real === null) throw new DiscoveryError(`root ${lexical} does not exist`);
  if (!statSync(real).isDirectory()) throw new DiscoveryError(`root ${lexical} is not a directory`);
  return { path: real };
}

/** True when `path` is `root` or below it (both canonical). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  // '..name' is a child called "..name"; only '..' itself or '../…' leaves the root.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export function displayPath(root: Root, path: string): string {
  const rel = relative(root.path, path);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** A directory the checker descends into must be a real directory, not a link to one. */
function requireRealDirectory(path: string, label: string): boolean {
  const st = lstatOrNull(path);
  if (!st) return false;
  if (st.isSymbolicLink()) throw new DiscoveryError(`${label} is a symbolic link (refused: ledgers are read only from inside the repository)`);
  if (!st.isDirectory()) throw new DiscoveryError(`${label} is not a directory`);
  return true;
}

/** *.md entries of one directory, sorted by code point; dot files are skipped like a glob's '*'. */
function markdownEntries(dir: string, label: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.name.endsWith('.md') || entry.name.startsWith('.')) continue;
    const where = `${label}/${entry.name}`;
    if (entry.isSymbolicLink()) throw new DiscoveryError(`${where} is a symbolic link (refused)`);
    if (!entry.isFile()) throw new DiscoveryError(`${where} is not a regular file (refused)`);
    found.push(entry.name);
  }
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** GATE_CHECK_SCOPE and --scope name a scope by id; nothing else is ever read as a scope. */
export function checkScopeId(scope: string): void {
  if (!SCOPE_PATTERN.test(scope)) throw new DiscoveryError(`invalid scope id "${scope}": scope ids match [A-Za-z0-9][A-Za-z0-9._-]{0,63}`);
}

/** The root ledgers (GATES.md, gates/*.md); empty when there are none. An unsafe one throws. */
export function rootLedgerPaths(root: Root): string[] {
  const found: string[] = [];
  const top = join(root.path, 'GATES.md');
  const st = lstatOrNull(top);
  if (st) {
    if (st.isSymbolicLink()) throw new DiscoveryError('GATES.md is a symbolic link (refused)');
    if (!st.isFile()) throw new DiscoveryError('GATES.md is not a regular file (refused)');
    found.push(top);
  }
  const dir = join(root.path, 'gates');
  if (requireRealDirectory(dir, 'gates')) for (const name of markdownEntries(dir, 'gates')) found.push(join(dir, name));
  return found;
}

/**
 * The scopes of the tree: every folder of .gate-check/ that holds a ledger, sorted. Dot
 * names are skipped, and so is a folder without a ledger (it hides nothing, as in the Stop
 * hook); anything else that is not a scope folder (a link, a file, a name that is not a scope
 * id) is an error, never a silent skip, so that no scope can be made to go unread.
 */
export function listScopes(root: Root): string[] {
  const base = join(root.path, '.gate-check');
  if (!requireRealDirectory(base, '.gate-check')) return [];
  const scopes: string[] = [];
  for (const entry of readdirSync(base, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const label = `.gate-check/${entry.name}`;
    if (!SCOPE_PATTERN.test(entry.name)) throw new DiscoveryError(`${label}: not a scope id (scope folders match [A-Za-z0-9][A-Za-z0-9._-]{0,63}; refused rather than left unread)`);
    if (entry.isSymbolicLink()) throw new DiscoveryError(`${label} is a symbolic link (refused: ledgers are read only from inside the repository)`);
    if (!entry.isDirectory()) throw new DiscoveryError(`${label} is not a directory (every entry of .gate-check/ is a scope folder; refused rather than left unread)`);
    if (markdownEntries(join(base, entry.name), label).length > 0) scopes.push(entry.name);
  }
  return scopes.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** For messages: the scopes there are, or that there are none. */
export function scopesHere(root: Root): string {
  let scopes: string[];
  try {
    scopes = listScopes(root);
  } catch {
    return 'the scopes cannot be listed';
  }
  return scopes.length === 0 ? 'there are no scopes' : `scopes here: ${scopes.join(', ')}`;
}

export function discoverLedgers(root: Root, scope: string | undefined): LedgerLocation[] {
  const found: string[] = [];
  if (scope !== undefined) {
    checkScopeId(scope);
    const base = join(root.path, '.gate-check');
    if (!requireRealDirectory(base, '.gate-check')) throw new DiscoveryError(`scope ${scope} not found: ${base} does not exist`);
    const dir = join(base, scope);
    const label = `.gate-check/${scope}`;
    if (!requireRealDirectory(dir, label)) throw new DiscoveryError(`scope ${scope} not found: ${label} does not exist (${scopesHere(root)})`);
    for (const name of markdownEntries(dir, label)) found.push(join(dir, name));
    if (found.length === 0) throw new DiscoveryError(`scope ${scope} has no ledgers (${label}/*.md)`, 'an empty scope is an error, not a pass');
  } else {
    found.push(...rootLedgerPaths(root));
    if (found.length === 0) {
      throw new DiscoveryError(`no ledger found under ${root.path} (GATES.md or gates/*.md)`, "run 'gate-check init' to create one, or name ledger files explicitly");
    }
  }
  return found.map((path) => ({ path, display: displayPath(root, path) }));
}

/** Explicit ledger files: every one is used, none is widened, each must lie inside the root. */
export function locateExplicitLedgers(root: Root, files: readonly string[], cwd: string): LedgerLocation[] {
  const seen = new Set<string>();
  const out: LedgerLocation[] = [];
  for (const file of files) {
    const lexical = resolve(cwd, file);
    const dir = realPath(dirname(lexical));
    if (dir === null) throw new UnsafeFileError(lexical, 'no such file');
    const path = join(dir, basename(lexical));
    if (!isInside(root.path, path) || path === root.path) {
      throw new UnsafeFileError(file, `is outside the repository root ${root.path} (refused)`, 'pass --root with the repository that holds this ledger');
    }
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, display: displayPath(root, path) });
  }
  return out;
}
