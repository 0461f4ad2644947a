// Which repository a checkout belongs to, for the lease registry: the git repository's common
// directory when the root is the top of a git checkout (so that parallel sessions in worktrees
// of one repository see each other's leases), else the root itself. Read from files (.git,
// gitdir, commondir), never by running git. A file that cannot be read, or says something
// unexpected, falls back to the root: leases then cover this checkout only, as without git.
import { realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { lstatOrNull, safeReadFile } from '../fsx/safe-read.js';

const MAX_GIT_FILE = 4096;

function readSmall(path: string): string | null {
  try {
    return safeReadFile(path, MAX_GIT_FILE, 'git file').bytes.toString('utf8');
  } catch {
    return null;
  }
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** `git:<common dir>` or `dir:<root>`: worktrees of one repository give the same answer. */
export function leaseRepository(root: string): string {
  const dotGit = join(root, '.git');
  let st;
  try {
    st = lstatOrNull(dotGit);
  } catch {
    st = null;
  }
  // git follows a `.git` that is a symbolic link (round-39k F1): so does this, to what it is.
  let target = dotGit;
  if (st?.isSymbolicLink()) {
    const resolved = real(dotGit);
    target = resolved ?? dotGit;
    try {
      st = resolved === null ? null : lstatOrNull(resolved);
    } catch {
      st = null;
    }
  }
  if (st?.isDirectory()) {
    // A git directory, or a linked worktree's (its commondir names <repo>/.git).
    const common = commonOf(target);
    if (common !== null) return `git:${common}`;
  } else if (st?.isFile()) {
    // A linked worktree: ".git" says "gitdir: <repo>/.git/worktrees/<name>", whose commondir names <repo>/.git.
    const m = /^gitdir: *(.+?)\s*$/m.exec(readSmall(target) ?? '');
    if (m) {
      const common = commonOf(isAbsolute(m[1]!) ? m[1]! : resolve(root, m[1]!));
      if (common !== null) return `git:${common}`;
    }
  }
  return `dir:${root}`;
}

/**
 * The common directory of a git directory, as git takes it: itself, or what its commondir
 * names (resolved), wherever the git directory lies and however its path is spelled
 * (round-39l F1: a stricter reading, "the gitdir must lie under it", gave a worktree laid out
 * otherwise a baseline and a registry of its own). Null when that names nothing real.
 */
function commonOf(gitDir: string): string | null {
  const commonText = readSmall(join(gitDir, 'commondir'));
  return real(commonText === null ? gitDir : resolve(gitDir, commonText.trim()));
}
