// The repository files a shell pattern in a CHECK matches now (`test/*.test.js`,
// `t/{a,b}.t`, `test/**/*.js`), for the approval screen's UNBOUND line: the shell, or a runner
// such as `node --test`, expands it when the check runs, and an edit to a match then runs
// unasked (round-15 H2). Links are followed, as the shell follows them; the caller resolves
// each match physically (physical-path.ts). Reads directory listings only, and a bounded
// number of them: past the bound the answer is null (the screen says the reading stopped).
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { braceExpansionCount, expandBraces, MAX_BRACE_EXPANSION, segmentMatches } from '../ledger/globs.js';

const WILDCARD = /[*?[]/;
/** Directory entries looked at for one pattern, and `**` depth: bounds on the screen's work. */
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 16;
/** Installed packages and git's own files: never the repository's code (as the UNBOUND reading). */
const SKIPPED = new Set(['node_modules', '.git']);

/**
 * The files `pattern` matches from the repository folder `dir` ('.' for the root), as paths
 * relative to `dir` written with the names found, and the folders it matches too when
 * `folders` (ending in `/`); [] when nothing matches; null when the pattern is past the brace bound, uses
 * what the listing does not read, or the walk is past its bound or met a folder it cannot list.
 */
export function shellPatternMatches(root: string, dir: string, pattern: string, folders = false): string[] | null {
  const count = braceExpansionCount(pattern);
  if (count === null || count > MAX_BRACE_EXPANSION) return null;
  // What the shell reads otherwise than this listing: a POSIX class (`[[:alpha:]]`), a
  // zero-padded sequence (`{01..03}`), extended patterns: not listed, said (round-16 H1).
  if (/\[:[a-z]+:\]|\{[-+]?0\d*\.\.|[?*+@!]\(/.test(pattern)) return null;
  const base = dir === '.' ? root : `${root}/${dir}`;
  const found = new Set<string>();
  let entries = 0;
  // A folder that exists but cannot be listed hides what the shell may match there.
  let unlisted = false;
  const list = (abs: string): Dirent[] => {
    try {
      const read = readdirSync(abs, { withFileTypes: true });
      entries += read.length;
      return read;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') unlisted = true;
      return [];
    }
  };
  const kind = (abs: string, e: Dirent): 'dir' | 'file' | null => {
    if (e.isDirectory()) return 'dir';
    if (e.isFile()) return 'file';
    // Mutation note: equivalent (a stat of an entry that is no link says what the entry says:
    // neither a folder nor a file); it spares the stat.
    if (!e.isSymbolicLink()) return null;
    try {
      const st = statSync(`${abs}/${e.name}`);
      return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
    } catch {
      return null;
    }
  };
  const walk = (segments: readonly string[], i: number, abs: string, rel: string, depth: number): boolean => {
    if (entries > MAX_ENTRIES || depth > MAX_DEPTH) return false;
    const last = i === segments.length - 1;
    const seg = segments[i]!;
    const join = (name: string) => (rel === '' ? name : `${rel}/${name}`);
    if (seg === '**') {
      // Zero folders, then each folder below (bash's globstar, node's and the runners' own globs).
      if (!last && !walk(segments, i + 1, abs, rel, depth)) return false;
      for (const e of list(abs)) {
        if (SKIPPED.has(e.name)) continue;
        const k = kind(abs, e);
        if (k === 'file' && last) found.add(join(e.name));
        if (k === 'dir' && !walk(segments, i, `${abs}/${e.name}`, join(e.name), depth + 1)) return false;
      }
      return true;
    }
    if (!WILDCARD.test(seg)) {
      const name = seg.replace(/\\(.)/g, '$1');
      if (last) {
        if (isFile(`${abs}/${name}`)) found.add(join(name));
        return true;
      }
      return walk(segments, i + 1, `${abs}/${name}`, join(name), depth);
    }
    for (const e of list(abs)) {
      if (SKIPPED.has(e.name) || !segmentMatches(seg, e.name)) continue;
      const k = kind(abs, e);
      if (last && k === 'file') found.add(join(e.name));
      if (last && folders && k === 'dir') found.add(`${join(e.name)}/`);
      if (!last && k === 'dir' && !walk(segments, i + 1, `${abs}/${e.name}`, join(e.name), depth + 1)) return false;
    }
    return entries <= MAX_ENTRIES;
  };
  for (const alternative of expandBraces(pattern)) {
    if (alternative.startsWith('/') || alternative.includes('\0')) continue;
    const segments = alternative.split('/').filter((s) => s !== '' && s !== '.');
    // Out of the folder as text (`../tools/*.sh`): not this repository's files to list.
    if (segments.length === 0 || segments.includes('..')) continue;
    if (!walk(segments, 0, base, '', 0)) return null;
  }
  return unlisted ? null : [...found];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
