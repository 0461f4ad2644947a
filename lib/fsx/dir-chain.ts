// The directories from the repository root down to a file, as they were when a command
// started: each a real directory (not a link), with its device and inode. Before gate-check
// writes the file, it checks that every one of them is still that directory, so that a
// `gates/` or scope directory swapped during a run (for a link, or for another directory
// moved in) never redirects a write to a ledger outside the repository.
import { lstatSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import { isInside } from './discover.js';
import type { FileIdentity } from './safe-read.js';

export interface DirectoryChain {
  /** Root first, the file's own directory last; absolute canonical paths. */
  readonly dirs: readonly (FileIdentity & { path: string })[];
}

function inspect(path: string): FileIdentity {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    throw new UnsafeFileError(path, `cannot inspect the directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (st.isSymbolicLink()) throw new UnsafeFileError(path, 'is a symbolic link (refused: gate-check writes only inside the repository)');
  if (!st.isDirectory()) throw new UnsafeFileError(path, 'is not a directory');
  return { dev: st.dev, ino: st.ino };
}

/** The chain of `file`'s directories below (and including) `root`; both canonical, `file` inside `root`. */
export function captureDirectoryChain(root: string, file: string): DirectoryChain {
  const dir = dirname(file);
  if (!isInside(root, dir)) throw new UnsafeFileError(file, `is outside the repository root ${root} (refused)`);
  const paths = [root];
  const rel = relative(root, dir);
  if (rel !== '') {
    let current = root;
    for (const segment of rel.split(sep)) {
      current = join(current, segment);
      paths.push(current);
    }
  }
  return { dirs: paths.map((path) => ({ path, ...inspect(path) })) };
}

/** Throws (naming the directory) unless every directory of the chain is still the one captured. */
export function verifyDirectoryChain(chain: DirectoryChain): void {
  for (const d of chain.dirs) {
    const now = inspect(d.path);
    if (now.dev !== d.dev || now.ino !== d.ino) {
      throw new UnsafeFileError(d.path, 'was replaced by another directory since the run started (refused: nothing below it is written)');
    }
  }
}
