// Matching DEPENDS globs (fast-glob, loaded only when a gate declares DEPENDS): dot files
// included, symlinks never followed and refused where matched, nothing outside the root,
// results sorted. A pattern that matches no file is an error, never an empty list.
import { RunSetupError } from '../errors.js';

type FastGlob = typeof import('fast-glob');
let loaded: FastGlob | null = null;

/** Repository-relative files matched by one glob, sorted by code unit. */
export async function matchDependsGlob(root: string, pattern: string, gateLabel: string): Promise<string[]> {
  loaded ??= ((await import('fast-glob')) as unknown as { default: FastGlob }).default;
  const entries = loaded.sync(pattern, {
    cwd: root,
    dot: true,
    followSymbolicLinks: false,
    onlyFiles: false,
    objectMode: true,
    unique: true,
    caseSensitiveMatch: true,
    suppressErrors: false,
  });
  const files: string[] = [];
  for (const e of entries) {
    if (e.dirent.isSymbolicLink()) throw new RunSetupError(`DEPENDS of ${gateLabel}: ${e.path} is a symbolic link (refused: dependencies are hashed without following links)`);
    if (e.dirent.isDirectory()) continue;
    if (!e.dirent.isFile()) throw new RunSetupError(`DEPENDS of ${gateLabel}: ${e.path} is not a regular file (refused)`);
    if (e.path.startsWith('../') || e.path.startsWith('/')) throw new RunSetupError(`DEPENDS of ${gateLabel}: ${e.path} is outside the repository (refused)`);
    files.push(e.path);
  }
  if (files.length === 0) {
    throw new RunSetupError(`DEPENDS of ${gateLabel}: pattern ${pattern} matches no file`, 'fix the pattern: a dependency list that matches nothing would bind the approval to nothing');
  }
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
