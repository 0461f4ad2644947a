// matches-anything: a regex EXPECT that every output satisfies (/.*/, /x|/, /^/m, /\s*/)
// checks nothing: the gate is decided by the exit status alone, while the ledger claims more.
// Decided by testing the regex, through the bounded matcher, against a fixed set of probes:
// the empty output, a newline, and typical failure output. One that matches all of them is
// taken to match anything. Pure.
import type { Expect } from '../ledger/expect.js';
import { quoted } from './excerpt.js';
import { GENERIC_EXPECT_ADVICE } from './rule-expect.js';
import type { ExpectMatcher, GateFinding } from './types.js';

export const ANY_OUTPUT_PROBES: readonly string[] = [
  '',
  '\n',
  'x',
  'FAIL',
  'Error: boom\n    at main (index.js:1:1)\n',
  'not ok 1 - import keeps rows\n# pass 0\n# fail 1\n',
  'Segmentation fault (core dumped)\n',
  'npm error Test failed.  See above for more details.\n',
  '\u00e9\u4e2d\ud83d\ude00',
];

/**
 * `acceptable` says whether an EXPECT would be clean of the other EXPECT rules (not generic,
 * not satisfied by a run with no tests): the narrowed regex is suggested only then, so that
 * following the advice does not trade this finding for another (`/passed|/` → `/passed/`).
 */
export function anyOutputRule(expect: Expect, expectRaw: string, line: number, match: ExpectMatcher, passing: string | null, acceptable: (e: Expect) => boolean): GateFinding[] {
  if (expect.kind !== 'regex') return [];
  if (!ANY_OUTPUT_PROBES.every((p) => match(expect, p))) return [];
  const narrowed = withoutEmptyAlternatives(expect.source);
  const candidate: Expect | null = narrowed === null ? null : { ...expect, source: narrowed };
  const fixed = candidate !== null && !ANY_OUTPUT_PROBES.every((p) => match(candidate, p)) && acceptable(candidate) ? `/${narrowed}/${expect.flags}` : null;
  const suggestion = fixed
    ? `drop the empty alternative: EXPECT: ${fixed}`
    : passing !== null
      ? `expect a count that only success prints: ${passing}`
      : GENERIC_EXPECT_ADVICE;
  return [
    {
      line,
      rule: 'matches-anything',
      message: `EXPECT ${quoted(expectRaw)} matches any output, even an empty one or a crash message: it checks nothing beyond the exit status`,
      suggestion,
    },
  ];
}

/**
 * The source with empty top-level alternatives removed (`x|` → `x`, `|a|b` → `a|b`), or
 * null when there are none or nothing would be left. Escapes, classes and groups are skipped.
 */
export function withoutEmptyAlternatives(source: string): string | null {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  const kept = parts.filter((p) => p !== '');
  if (kept.length === parts.length || kept.length === 0) return null;
  return kept.join('|');
}
