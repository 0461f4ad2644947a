// A small matcher for DEPENDS globs (*, **, ?, [...], {a,b}), used to tell whether a glob
// would cover a script that does not exist yet. What exists is matched by fast-glob in the
// command; this only decides coverage of paths fast-glob could not see. Pure, and linear
// in the path for each of the (bounded) brace alternatives: no regular expression is built
// from a ledger's text.
import { braceExpansionCount, expandBraces, MAX_BRACE_EXPANSION, pathMatches } from '../ledger/globs.js';

/** Longer than any path a file system accepts: such a script path is never covered. */
const MAX_PATH = 4096;

const cache = new Map<string, string[]>();

export function globMatches(glob: string, path: string): boolean {
  if (path.length > MAX_PATH) return false;
  let alternatives = cache.get(glob);
  if (!alternatives) {
    const count = braceExpansionCount(glob);
    // The parser refuses globs past the bound; an unusable glob covers nothing.
    alternatives = count === null || count > MAX_BRACE_EXPANSION ? [] : expandBraces(glob);
    cache.set(glob, alternatives);
  }
  return alternatives.some((g) => pathMatches(g, path));
}
