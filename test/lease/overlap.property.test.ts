// The overlap decision of OWNS leases against a brute-force matcher: for generated globs and a
// generated set of paths, whenever some path is owned by both globs (matched by a glob, or below
// a path it matches), globsOverlap must say they overlap. It may say so for a safe pair too.
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { globsOverlap, overlappingPairs } from '../../lib/lease/overlap.js';

type Matcher = (path: string) => boolean;
const picomatch = createRequire(import.meta.url)('picomatch') as (glob: string, options?: Record<string, unknown>) => Matcher;

const NAMES = ['a', 'b', 'ab', 'A', '.a', 'x.ts'];
const PATHS: string[] = [];
(function build(prefix: string, depth: number) {
  for (const n of NAMES) {
    const p = prefix === '' ? n : `${prefix}/${n}`;
    PATHS.push(p);
    if (depth > 1) build(p, depth - 1);
  }
})('', 4);

const LITERAL = ['a', 'b', 'ab', 'A', '.a', 'x.ts'];
const WILD = ['*', 'a*', '*b', '?', '?b', '*.ts', '.*', '*a*'];
const SPANNING = ['**', '{a,b}', '[ab]', 'a{b,}', '{a/b,c}', '@(a|b)', '+(a)', '!(a)', 'a**'];
const segmentArb = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...LITERAL) }, { weight: 3, arbitrary: fc.constantFrom(...WILD) }, { weight: 1, arbitrary: fc.constantFrom(...SPANNING) });
const globArb = fc.array(segmentArb, { minLength: 1, maxLength: 3 }).map((s) => s.join('/')).filter((g) => !g.startsWith('!'));

const coverCache = new Map<string, Set<number>>();
/** Indexes of the paths a glob owns: those it matches, and every path below one it matches. */
function owned(glob: string): Set<number> {
  const known = coverCache.get(glob);
  if (known) return known;
  const match = picomatch(glob, { dot: true });
  const out = new Set<number>();
  PATHS.forEach((p, i) => {
    const parts = p.split('/');
    for (let n = 1; n <= parts.length; n++) {
      if (match(parts.slice(0, n).join('/'))) {
        out.add(i);
        return;
      }
    }
  });
  coverCache.set(glob, out);
  return out;
}

function shareAPath(a: string, b: string): string | null {
  const ob = owned(b);
  for (const i of owned(a)) if (ob.has(i)) return PATHS[i]!;
  return null;
}

describe('globsOverlap', () => {
  it('never says disjoint for two globs that own a common path (brute force over generated paths)', () => {
    let disjoint = 0;
    fc.assert(
      fc.property(globArb, globArb, (a, b) => {
        const common = shareAPath(a, b);
        const said = globsOverlap(a, b);
        if (!said) disjoint++;
        if (common !== null) expect(said, `${a} and ${b} both own ${common}`).toBe(true);
        expect(globsOverlap(b, a)).toBe(said);
      }),
      { numRuns: 3000 },
    );
    // The property is not met by answering "overlap" to everything.
    expect(disjoint).toBeGreaterThan(100);
  });

  it('the rules: wildcards overlap, a common prefix overlaps, only a differing literal segment is disjoint', () => {
    expect(globsOverlap('src/api/**', 'src/api/**')).toBe(true);
    expect(globsOverlap('src/api', 'src/api/**')).toBe(true);
    expect(globsOverlap('src', 'src/api/x.ts')).toBe(true);
    expect(globsOverlap('src/*', 'src/api/x.ts')).toBe(true);
    expect(globsOverlap('**', 'docs/x.md')).toBe(true);
    expect(globsOverlap('src/**/x.ts', 'src/a/b/y.ts')).toBe(true);
    expect(globsOverlap('src/{api,db}/**', 'src/web/**')).toBe(true); // braces: conservatively overlapping
    expect(globsOverlap('src/[ab]/x', 'src/c/x')).toBe(true);
    expect(globsOverlap('src/*.ts', 'src/README.md')).toBe(true); // a wildcard segment is not compared
    expect(globsOverlap('src/api/**', 'src/web/**')).toBe(false);
    expect(globsOverlap('src/*/a', 'src/*/b')).toBe(false);
    expect(globsOverlap('docs/**', 'src/**')).toBe(false);
    expect(globsOverlap('a/b/c', 'a/b/d')).toBe(false);
  });

  it('ignores case and Unicode normalization, as macOS and Windows file systems do', () => {
    expect(globsOverlap('Src/API/**', 'src/api/x.ts')).toBe(true);
    expect(globsOverlap('caf\u00e9/x', 'cafe\u0301/x')).toBe(true);
    expect(globsOverlap('\u212a/x', 'k/x')).toBe(true); // KELVIN SIGN folds to k
    expect(globsOverlap('STRASSE', 'stra\u00dfe')).toBe(true); // ß upper-cases to SS
  });

  it('overlappingPairs names each pair, capped', () => {
    expect(overlappingPairs(['src/a/**', 'docs/**'], ['src/**', 'lib/**'])).toEqual([['src/a/**', 'src/**']]);
    expect(overlappingPairs(['**'], Array.from({ length: 50 }, (_, i) => `d${i}`), 20)).toHaveLength(20);
  });
});
