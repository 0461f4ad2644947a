// The private store's directories (approvals, receipts, history, hook state): outside the
// repository (lexically and canonically), real directories (not links), owned by the
// current user, no group or other permission bits, and the same directory for as long as
// they are used. Created 0700 when asked to.
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { isInside } from './discover.js';
import type { FileIdentity } from './safe-read.js';
import { AMBIGUOUS_NAME, namesOneFolder } from './physical-path.js';

export interface PrivateDir {
  path: string;
  identity: FileIdentity;
  /** Throws unless the directory is still the one that was checked. */
  verify(): void;
}

export interface PrivateDirOptions {
  /** Canonical repository root the directory must stay out of. */
  repoRoot: string;
  create: boolean;
}

function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

function inspect(path: string, st: Stats): void {
  if (st.isSymbolicLink()) throw new UnsafeStoreError(path, 'is a symbolic link (refused: the store must be a real directory)');
  if (!st.isDirectory()) throw new UnsafeStoreError(path, 'is not a directory');
  const uid = currentUid();
  if (uid !== null && st.uid !== uid) throw new UnsafeStoreError(path, `is owned by uid ${st.uid}, not by you (uid ${uid})`);
  if ((st.mode & 0o077) !== 0) {
    throw new UnsafeStoreError(path, `has permissions ${(st.mode & 0o777).toString(8).padStart(4, '0')}: group or other may access it`, `chmod 700 '${path}'`);
  }
}

/** Opens (or with create, makes) one private directory. Its parent must already exist. */
export function openPrivateDir(rawPath: string, options: PrivateDirOptions): PrivateDir {
  const path = resolve(rawPath);
  if (isInside(options.repoRoot, path)) {
    throw new UnsafeStoreError(path, `is inside the repository ${options.repoRoot} (refused: anything in the repository can be written by what it runs)`);
  }
  // HOME or GATE_CHECK_HOME come decoded: through a folder named 0xFF, the store was made in
  // its twin spelled U+FFFD (round-39s S6).
  if (!namesOneFolder(path)) throw new UnsafeStoreError(path, AMBIGUOUS_NAME, 'set HOME or GATE_CHECK_HOME to a path whose names are UTF-8');
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' || !options.create) throw new UnsafeStoreError(path, `cannot use (${code ?? (e as Error).message})`);
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (m) {
      // Another gate-check created it in between: it is checked below like any existing one.
      if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw new UnsafeStoreError(path, `cannot create (${(m as NodeJS.ErrnoException).code ?? (m as Error).message})`);
    }
    st = lstatSync(path);
  }
  inspect(path, st);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    throw new UnsafeStoreError(path, `cannot resolve (${(e as NodeJS.ErrnoException).code})`);
  }
  if (isInside(options.repoRoot, real)) {
    throw new UnsafeStoreError(path, `resolves to ${real}, inside the repository ${options.repoRoot} (refused)`);
  }
  const identity = { dev: st.dev, ino: st.ino };
  return {
    path,
    identity,
    verify() {
      let now: Stats;
      try {
        now = lstatSync(path);
      } catch (e) {
        throw new UnsafeStoreError(path, `disappeared while in use (${(e as NodeJS.ErrnoException).code})`);
      }
      if (now.dev !== identity.dev || now.ino !== identity.ino) throw new UnsafeStoreError(path, 'was replaced while in use (refused)');
      inspect(path, now);
    },
  };
}

/** Does the directory exist at all? (lstat only; for read-only callers that must not create.) */
export function privateDirExists(rawPath: string): boolean {
  try {
    lstatSync(resolve(rawPath));
    return true;
  } catch {
    return false;
  }
}
