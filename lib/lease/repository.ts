// Which repository a checkout belongs to, for the lease registry: the git repository's common
// directory when the root is the top of a git checkout (so that parallel sessions in worktrees
// of one repository see each other's leases), else the root itself. Read from files (.git,
// gitdir, commondir), never by running git. A `.git` that names no repository falls back to
// the root: leases then cover this checkout only, as without git.
import { type Stats, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { gitdirOf, isSearchable, readGitPointer } from '../fsx/git-pointer.js';
import { realPath } from '../fsx/physical-path.js';

/**
 * `git:<common dir>` or `dir:<root>`: worktrees of one repository give the same answer. The
 * `.git` (a folder, a `gitdir:` file, a link to either) and the `commondir` are read as git
 * reads them: through links, whatever their link count, paths resolved by the kernel (a `..`
 * after a link goes up from where the link leads). A `.git` whose files are there but cannot
 * be read is an error (git-pointer.ts), never the root's own answer.
 */
export function leaseRepository(root: string): string {
  const dotGit = `${root}/.git`;
  const st = statOrNull(dotGit);
  if (st?.isDirectory()) {
    // A git directory, or a linked worktree's (its commondir names <repo>/.git).
    const common = commonOf(dotGit);
    if (common !== null) return `git:${common}`;
  } else if (st?.isFile()) {
    // A linked worktree: ".git" says "gitdir: <repo>/.git/worktrees/<name>", whose commondir names <repo>/.git.
    const named = gitdirOf(readGitPointer(dotGit) ?? '');
    if (named !== null) {
      const common = commonOf(isAbsolute(named) ? named : `${root}/${named}`);
      if (common !== null) return `git:${common}`;
    }
  }
  return `dir:${root}`;
}

/** stat(2), links followed; null when there is nothing (or a link to nothing). */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * The common directory of a git directory, as git takes it: itself, or what its commondir
 * names (trailing newlines dropped, as git drops them), wherever the git directory lies and
 * however its path is spelled (round-39l F1). Null when that names nothing real, or a folder
 * without the objects/ and refs/ git requires there: an empty folder named as a decoy is no
 * repository to key a session by (round-39o O1).
 */
function commonOf(gitDir: string): string | null {
  const text = readGitPointer(`${gitDir}/commondir`);
  const named = text?.replace(/[\r\n]+$/, '');
  const common = realPath(named === undefined ? gitDir : isAbsolute(named) ? named : `${gitDir}/${named}`);
  return common !== null && isSearchable(`${common}/objects`) && isSearchable(`${common}/refs`) ? common : null;
}
