// Do two OWNS globs overlap? Decided conservatively, segment by segment: it may call a safe
// pair overlapping, it never calls an unsafe pair disjoint. A glob is taken to own what it
// matches and everything below it (`src/api` owns `src/api/x.ts`), so a common prefix
// overlaps. Only two literal segments at the same depth that differ make a pair disjoint, and
// they are compared ignoring case and Unicode normalization, because the file systems of
// macOS and Windows do. Pure.

type Segment = 'spanning' | 'wild' | string;

/**
 * `**`, and anything with braces, brackets, parentheses or extglob marks, can match any number
 * of segments (a brace can hold a slash): from there on, everything overlaps. `*` and `?` match
 * within one segment: that segment is compatible with any other.
 */
const SPANNING = /\*\*|[{}()[\]!+@\\]/;
const WILD = /[*?]/;

function classify(segment: string): Segment {
  if (SPANNING.test(segment)) return 'spanning';
  if (WILD.test(segment)) return 'wild';
  return segment;
}

/** The same name on a case-insensitive or normalizing file system? (Errs towards yes.) */
function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  const na = a.normalize('NFKC');
  const nb = b.normalize('NFKC');
  return na.toLowerCase() === nb.toLowerCase() || na.toUpperCase() === nb.toUpperCase();
}

/** False only when no path can be owned by both globs. */
export function globsOverlap(a: string, b: string): boolean {
  const sa = a.split('/');
  const sb = b.split('/');
  const n = Math.min(sa.length, sb.length);
  for (let i = 0; i < n; i++) {
    const x = classify(sa[i]!);
    const y = classify(sb[i]!);
    if (x === 'spanning' || y === 'spanning') return true;
    if (x === 'wild' || y === 'wild') continue;
    if (!sameName(x, y)) return false;
  }
  // Equal, or one is a prefix of the other: the longer one's paths lie under the shorter one's.
  return true;
}

/** Every overlapping pair (mine, theirs), in order; at most `cap`. */
export function overlappingPairs(mine: readonly string[], theirs: readonly string[], cap = 20): [string, string][] {
  const out: [string, string][] = [];
  for (const a of mine) {
    for (const b of theirs) {
      if (!globsOverlap(a, b)) continue;
      out.push([a, b]);
      if (out.length >= cap) return out;
    }
  }
  return out;
}
