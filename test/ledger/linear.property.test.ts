// Every parsing, linting and matching path is linear or bounded (issue 9 §3). Pathological
// inputs are generated at size n and 2n: doubling the input may at most about double the
// time (allowed: 4x, plus slack for timer noise), and the larger one must finish well
// inside an absolute cap. Exponential or quadratic work fails both by orders of magnitude.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineAttribute, isColonLike } from '../../lib/ledger/attribute-names.js';
import { findHiddenText } from '../../lib/ledger/hidden-text.js';
import { findValueMarkup, renderedStart } from '../../lib/ledger/inline-markup.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import { lintLedger } from '../../lib/lint/lint.js';
import { segmentMatches } from '../../lib/ledger/globs.js';
import { matchExpect } from '../../lib/run/expect-match.js';

function timeOf(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** t(2n) against t(n): linear, with generous room for noise; and an absolute cap. */
function expectLinear(run: (n: number) => void, n: number, label: string): void {
  run(n); // warm up
  const small = timeOf(() => run(n));
  const large = timeOf(() => run(2 * n));
  expect(large, `${label}: ${small.toFixed(1)} ms at n=${n}, ${large.toFixed(1)} ms at 2n`).toBeLessThan(4 * small + 40);
  expect(large, label).toBeLessThan(3000);
}

const gate = (check: string, extra = '') => `- [ ] G1: the check passes\n  CHECK: ${check}\n  EXPECT: all good here\n${extra}`;

// Each family makes one line (or file) of size about n.
const lineFamilies: Record<string, (n: number) => string> = {
  'deep quotes then [': (n) => '> '.repeat(n) + '[',
  'deep quotes then - [ ]': (n) => '> '.repeat(n) + '- [ ] x',
  'list markers': (n) => '- '.repeat(n) + '[ ] x',
  'open brackets': (n) => '['.repeat(n),
  'image openers': (n) => '!['.repeat(n) + ']'.repeat(n),
  'link tails': (n) => '](' .repeat(n),
  'unclosed attribute values': (n) => '<a x="'.repeat(n),
  'attributes without end': (n) => '<a ' + 'b '.repeat(n),
  'angle brackets': (n) => '<'.repeat(n),
  'comment openers': (n) => '<!-'.repeat(n),
  'backslashes': (n) => '\\'.repeat(n) + '<',
  'nbsp runs': (n) => '\u00a0'.repeat(n) + 'CHECK: x',
  'colon runs': (n) => 'C'.repeat(n) + ':',
  'escapes then a name': (n) => '\\*'.repeat(n) + 'CHECK:',
  'emphasis then a name': (n) => '*_'.repeat(n) + 'CHECK:',
  'character references': (n) => '&#67;'.repeat(n),
  'unknown named references': (n) => '&zzzz;'.repeat(n),
  'tags then a name': (n) => '<b></b>'.repeat(n) + 'CHECK:',
  'autolink openers': (n) => '<ab:'.repeat(n),
  'comment openers without end': (n) => '<!--'.repeat(n),
  'quote and list markers': (n) => '> - '.repeat(n) + 'CHECK: x',
  'link tails without end': (n) => '[a](b "'.repeat(n),
};

const checkFamilies: Record<string, (n: number) => string> = {
  'cd chain': (n) => 'cd x; '.repeat(n) + 'node t.js',
  'substitutions': (n) => '$('.repeat(n),
  'quotes': (n) => "'".repeat(n),
  'double quotes with escapes': (n) => '"' + '\\"'.repeat(n),
  'printf zeros': (n) => `printf '%${'0'.repeat(n)}!'`,
  'set -eee…x': (n) => `set -${'e'.repeat(n)}x; npm test`,
  'sh -ccc…x': (n) => `sh -${'c'.repeat(n)}x t.sh`,
  'pipes': (n) => 'a | '.repeat(n) + 'b',
  'and-or': (n) => 'a && b || '.repeat(n) + 'c',
  'absolute paths': (n) => 'a=/b'.repeat(n),
  'long word': (n) => 'x'.repeat(5 * n),
};

describe('the parser is linear on pathological lines', () => {
  it('every line family, under a met gate and as a gate title', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(lineFamilies)), fc.constantFrom('body', 'title', 'top'), (family, where) => {
        const make = lineFamilies[family]!;
        const doc = (n: number) =>
          where === 'title' ? `- [ ] G1: ${make(n)}\n` : where === 'body' ? `- [x] G1: t\n  ${make(n)}\n  EVIDENCE: exit=0\n` : `- [x] G1: t\n  EVIDENCE: exit=0\n\n${make(n)}\n`;
        expectLinear((n) => parseLedger(doc(n)), 20_000, `${family} (${where})`);
      }),
      { numRuns: 25 },
    );
  });

  it('the hidden-text scanner on its own', () => {
    for (const [family, make] of Object.entries(lineFamilies)) expectLinear((n) => findHiddenText(make(n), 0), 50_000, family);
  });

  it('many diagnostics: 130,000 lines that each make one (errors and warnings are capped, lines kept)', () => {
    const errors = (n: number) => `- [x] G1: t\n  EVIDENCE: exit=0\n## end\n${'  CHECK: x\n'.repeat(n)}`;
    const warnings = (n: number) => `- [x] G1: t\n  EVIDENCE: exit=0\n${'  RETRY: 1\n'.repeat(n)}`;
    expectLinear((n) => parseLedger(errors(n)), 30_000, 'errors');
    expectLinear((n) => parseLedger(warnings(n)), 30_000, 'warnings');
    const r = parseLedger(errors(130_000));
    expect(r.ok ? [] : r.errors.at(-1)!.message).toBe('… and 129000 more errors');
  });

  it('a brace bomb is refused at once', () => {
    expectLinear((n) => parseLedger(gate('true', `  DEPENDS: ${'{a,b,c,d}'.repeat(n)}\n`)), 1000, 'brace bomb');
  });
});

describe('the inline markup scanners are linear', () => {
  it('on values and on line starts, for every line family', () => {
    for (const [family, make] of Object.entries(lineFamilies)) {
      expectLinear((n) => findValueMarkup(make(n)), 50_000, `value: ${family}`);
      expectLinear((n) => renderedStart(make(n), true, isColonLike), 50_000, `line start: ${family}`);
      expectLinear((n) => inlineAttribute(make(n)), 50_000, `inline attribute: ${family}`);
    }
    // Names and colons: each colon looks back over its blanks and at most one name.
    for (const [family, make] of Object.entries({ 'blanks and colons': (n: number) => ' \u00a0'.repeat(n) + ':'.repeat(n), 'names before colons': (n: number) => 'XC\u00adHECK:'.repeat(n), 'long words': (n: number) => 'X'.repeat(n) + '\uff1a'.repeat(n) })) {
      expectLinear((n) => inlineAttribute(make(n)), 50_000, `inline attribute: ${family}`);
    }
  });

  it('as CHECK values in a ledger', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(lineFamilies)), (family) => {
        expectLinear((n) => parseLedger(gate(`x ${lineFamilies[family]!(n)}`)), 20_000, `CHECK: ${family}`);
      }),
      { numRuns: 15 },
    );
  });
});

describe('lint is linear on pathological CHECK lines', () => {
  const context = () => ({ workdir: '.', dependsMatched: new Set<string>() });
  const match = (e: { kind: string }, t: string) => (e.kind === 'substring' ? t.includes('all good here') : (() => { const r = matchExpect(e as never, t, 50); return r.ok && r.matched; })());
  it('every CHECK family', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(checkFamilies)), (family) => {
        const run = (n: number) => {
          const parsed = parseLedger(gate(checkFamilies[family]!(n)));
          if (!parsed.ok) return;
          lintLedger({ file: 'GATES.md', stem: 'GATES', gates: parsed.ledger.gates }, context, match);
        };
        expectLinear(run, 8_000, family);
      }),
      { numRuns: 15 },
    );
  });

  it('a title made of one long punctuation run', () => {
    expectLinear((n) => {
      const parsed = parseLedger(`- [ ] G1: implement ${':'.repeat(n)}x\n`);
      if (parsed.ok) lintLedger({ file: 'GATES.md', stem: 'GATES', gates: parsed.ledger.gates }, context, match);
    }, 50_000, 'title');
  });
});

describe('wildcard matching is linear', () => {
  it('three stars against a long name that nearly matches', () => {
    expectLinear((n) => segmentMatches('*a*a*b', 'a'.repeat(n)), 20_000, 'segment');
  });
});
