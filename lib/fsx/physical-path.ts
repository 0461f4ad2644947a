// Where a path a shell follows leads in the repository: `cd tests && sh ../check.sh` runs
// spec/check.sh when tests is a symlink to spec/unit, which the same words read as text do
// not name. realpath(3) resolves each `..` after the link before it, as the kernel does
// (Node's JavaScript realpathSync first normalizes `..` away as text). Reads only.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, sep } from 'node:path';

/**
 * `path` (as written, relative) from the repository directory `dir`, as a repository path:
 * its directory resolved on disk, its last name kept (a DEPENDS file is never a link).
 * `fallback`'s answer (the path read as text) when its directory does not exist (yet), or
 * when a symlink leads it out of `root`: that file is bound by nothing, and is named as written.
 */
export function physicalRepositoryPath(root: string, path: string, dir: string, fallback: (path: string, dir: string) => string | null): string | null {
  if (isAbsolute(path) || path.includes('\0')) return fallback(path, dir);
  const written = `${root}/${dir}/${path}`;
  let parent: string;
  try {
    parent = realpathSync.native(dirname(written));
  } catch {
    return fallback(path, dir);
  }
  const name = basename(written);
  const full = name === '..' || name === '.' ? resolveWhole(written) : `${parent}${sep}${name}`;
  if (full === null) return fallback(path, dir);
  const rel = relative(root, full);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return fallback(path, dir);
  return rel.split(sep).join('/');
}

function resolveWhole(written: string): string | null {
  try {
    return realpathSync.native(written);
  } catch {
    return null;
  }
}
