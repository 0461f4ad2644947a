// Rules about the EXPECT text alone: weak-expect, path-like-regex. Pure.
import type { Expect } from '../ledger/expect.js';
import { quoted } from './excerpt.js';
import type { GateFinding } from './types.js';

/** Words that failure output shows as readily as success output ("not ok 3", "0 passed", "1 failed"). */
const GENERIC = new Set([
  'ok', 'done', 'pass', 'passed', 'passing', 'success', 'successful', 'succeeded', 'true', '0', '1',
  'complete', 'completed', 'finished', 'yes', 'test', 'tests',
]);

export function expectRules(expect: Expect, expectRaw: string, line: number): GateFinding[] {
  const found: GateFinding[] = [];
  const weak = weakness(expect);
  if (weak) {
    found.push({
      line,
      rule: 'weak-expect',
      message: `EXPECT ${quoted(expectRaw)} is ${weak}: failure output can contain it too (TAP prints "not ok 3 - …", runners print "0 passed", "1 failed")`,
      suggestion: 'EXPECT a line only success prints, ideally with a count: e.g. /# fail 0/ for node --test, or your script\'s own "verification passed (N rows)"',
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
function weakness(expect: Expect): string | null {
  // A regex is judged by its core: /^ok$/ and /\bpassed\b/ are still one generic word.
  const core = expect.kind === 'substring' ? expect.text.trim() : regexCore(expect.source);
  if (core === null) return null;
  if (GENERIC.has(core.toLowerCase())) return 'a generic word';
  if (Array.from(core).length <= 2) return `only ${Array.from(core).length} character${Array.from(core).length === 1 ? '' : 's'}`;
  return null;
}

/** The literal text of a regex that is a plain word between optional anchors, else null. */
function regexCore(source: string): string | null {
  const core = source.replace(/^(?:\^|\\b)+/, '').replace(/(?:\$|\\b)+$/, '');
  return /^[\p{L}\p{N}_ ]+$/u.test(core) ? core : null;
}

/** usr/lib, tmp/out, src/index.ts: path segments separated by '/', nothing else regex-like. */
function looksLikePath(source: string): boolean {
  return /^[A-Za-z0-9_.~-]+(?:\/[A-Za-z0-9_.~-]+)+\/?$/.test(source) && /[A-Za-z]/.test(source);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
