// Rules about the EXPECT text alone: weak-expect, path-like-regex. Pure.
import type { Expect } from '../ledger/expect.js';
import { quoted } from './excerpt.js';
import type { GateFinding } from './types.js';

/** Words that failure output shows as readily as success output ("not ok 3", "1 failed"). */
const GENERIC = new Set([
  'ok', 'done', 'pass', 'passed', 'passing', 'success', 'successful', 'succeeded', 'true',
  'complete', 'completed', 'finished', 'yes', 'test', 'tests',
]);

/** What weak-expect suggests when the CHECK's runner is not known. */
export const GENERIC_EXPECT_ADVICE =
  'EXPECT a line only success prints, ideally with a count: your runner\'s count of passing tests (for node --test: /^(?:#|\\u2139) pass [1-9]\\d*$/m), or your script\'s own "verification passed (N rows)"';

/**
 * `passing` is the EXPECT that needs at least one passing test for the runner the CHECK
 * calls (references/lint.md, passes-with-no-tests), when that runner is known.
 */
export function expectRules(expect: Expect, expectRaw: string, line: number, passing: string | null): GateFinding[] {
  const found: GateFinding[] = [];
  const weak = weakness(expect);
  if (weak) {
    // A number is found inside other numbers (a count of 11 holds 1): said so, with the whole-line form (round-31b F10).
    const number = weak === 'a bare number' && expect.kind === 'substring' ? expect.text.trim() : null;
    found.push({
      line,
      rule: 'weak-expect',
      message: number !== null
        ? `EXPECT ${quoted(expectRaw)} is ${weak}: any output with that digit in it contains it (a count of 1${number} or 2${number}, a line number, a time)`
        : `EXPECT ${quoted(expectRaw)} is ${weak}: failure output can contain it too (TAP prints "not ok 3 - …", runners print "0 passed", "1 failed")`,
      suggestion: number !== null ? `match the whole line: EXPECT: /^${number}$/m` : passing === null ? GENERIC_EXPECT_ADVICE : `expect a count that only success prints: ${passing}`,
    });
  }
  if (expect.kind === 'regex' && looksLikePath(expect.source)) {
    const literal = `/${expect.source}/`;
    found.push({
      line,
      rule: 'path-like-regex',
      message: `EXPECT ${quoted(expectRaw)} is read as the regular expression ${quoted(expect.source)}, not as the path ${quoted(literal)}: '.' matches any character and the slashes around it are not required`,
      suggestion: `to match the path literally, escape it: EXPECT: /${escapeRegex(literal)}/${expect.flags}`,
    });
  }
  return found;
}

/** Why an EXPECT is too generic, or null when it is specific enough. */
export function weakness(expect: Expect): string | null {
  // A regex is judged by its core: /^ok$/ and /\bpassed\b/ are still one generic word.
  const core = expect.kind === 'substring' ? { text: expect.text.trim(), wholeLine: false } : regexCore(expect.source);
  if (core === null) return null;
  const { text, wholeLine } = core;
  if (GENERIC.has(text.toLowerCase())) return 'a generic word';
  // A whole line that is exactly "5" (/^5$/m) is a count; "5" anywhere is in every other line.
  if (wholeLine) return null;
  if (/^\d+$/.test(text)) return 'a bare number';
  const length = Array.from(text).length;
  if (length <= 2) return `only ${length} character${length === 1 ? '' : 's'}`;
  return null;
}

/**
 * The literal text of a regex that is a plain word between optional anchors, else null;
 * `wholeLine` when it is anchored at both ends (^…$: a whole line with m, the whole output without).
 */
function regexCore(source: string): { text: string; wholeLine: boolean } | null {
  const start = /^(?:\^|\\b)+/.exec(source)?.[0] ?? '';
  const end = /(?:\$|\\b)+$/.exec(source.slice(start.length))?.[0] ?? '';
  const text = source.slice(start.length, source.length - end.length);
  if (!/^[\p{L}\p{N}_ ]+$/u.test(text)) return null;
  return { text, wholeLine: start.includes('^') && end.includes('$') };
}

/** usr/lib, tmp/out, src/index.ts: path segments separated by '/', nothing else regex-like. */
function looksLikePath(source: string): boolean {
  return /^[A-Za-z0-9_.~-]+(?:\/[A-Za-z0-9_.~-]+)+\/?$/.test(source) && /[A-Za-z]/.test(source);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
