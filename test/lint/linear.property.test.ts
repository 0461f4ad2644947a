// lint stays linear with the rules of issue 10: pathological CHECK, EXPECT and title inputs
// aimed at each new rule are linted at size n and 2n; doubling may at most about double the
// time (4x allowed, plus slack for timer noise), and the larger must finish well inside an
// absolute cap. Random hostile ledgers (a random run of shell, regex and title fragments,
// repeated up to thousands of times) must each be linted within a fixed time.
// (test/ledger/linear.property.test.ts covers the parser and the older rules.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLedger } from '../../lib/ledger/parse.js';
import { lintLedger } from '../../lib/lint/lint.js';
import { MAX_RUNNERS } from '../../lib/lint/rule-inputs.js';
import type { GateContext } from '../../lib/lint/types.js';
import { match } from './lint-helper.js';

function timeOf(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

function expectLinear(run: (n: number) => void, n: number, label: string): void {
  run(n); // warm up
  const small = timeOf(() => run(n));
  const large = timeOf(() => run(2 * n));
  expect(large, `${label}: ${small.toFixed(1)} ms at n=${n}, ${large.toFixed(1)} ms at 2n`).toBeLessThan(4 * small + 40);
  expect(large, label).toBeLessThan(3000);
}

let lookups = 0;
/** Everything exists: the most work the rules that ask about files can be made to do. */
const context = (): GateContext => ({
  workdir: '.',
  dependsMatched: new Set<string>(),
  hasFiles: () => {
    lookups++;
    return true;
  },
});

function lintText(doc: string): void {
  const parsed = parseLedger(doc);
  if (parsed.ok) lintLedger({ file: 'GATES.md', stem: 'GATES', gates: parsed.ledger.gates }, context, match);
}

const gate = (check: string, expectText = '/^(?:#|\\u2139) pass [1-9]\\d*$/m', title = 'the suite passes') => `- [ ] G1: ${title}\n  CHECK: ${check}\n  EXPECT: ${expectText}\n`;

// Each family makes one ledger whose CHECK, EXPECT or title is of size about n.
const families: Record<string, (n: number) => string> = {
  'sourced scripts': (n) => gate('. ./a.sh; '.repeat(n) + 'true'),
  'source with options': (n) => gate('source -x '.repeat(n) + 'a.sh'),
  keywords: (n) => gate('if '.repeat(n) + './x.sh; then true; fi'),
  'negated keywords': (n) => gate('if ! '.repeat(n) + 'npm test; then true; fi'),
  'cat pipes': (n) => gate('cat a.sh | sh | '.repeat(n) + 'sh'),
  'stdin redirects': (n) => gate('sh < a.sh; '.repeat(n) + 'true'),
  runners: (n) => gate('npm test && '.repeat(n) + 'node --test'),
  'runners in new directories': (n) => gate('cd x; npm test; '.repeat(n) + 'true'),
  'negated runners': (n) => gate('! npm test || '.repeat(n) + '! npm test'),
  'exit toggles': (n) => gate('npm test && exit 1 || exit 0; '.repeat(n) + 'true'),
  'make options': (n) => gate('make ' + '-f a.mk -C d '.repeat(n) + 'check'),
  'npm options': (n) => gate('npm ' + '--prefix x '.repeat(n) + 'test'),
  'node options': (n) => gate('node ' + '--import x '.repeat(n) + '--test'),
  'vitest flags': (n) => gate('npx vitest run ' + '--passWithNoTests=false '.repeat(n)),
  'quiet tools then marker': (n) => gate('tsc --noEmit && '.repeat(n) + 'echo typecheck-ok', 'typecheck-ok'),
  'grep -qqq…x': (n) => gate(`! grep -${'q'.repeat(n)}x FAIL log`),
  'digits in CHECK': (n) => gate('node bench.mjs ' + '1,2_3.4 '.repeat(n), '/p95 \\d+ ms/', 'p95 under 200 ms'),
  'digits in EXPECT': (n) => gate('node bench.mjs', 'x1,000.5 '.repeat(n), 'p95 under 200 ms'),
  'pipes into shells': (n) => gate('echo a | '.repeat(n) + 'bash -s'),
  'sh -c bodies': (n) => gate("bash -o pipefail -c 'cd x; npm test | tail; . ./a.sh'; ".repeat(n) + 'true'),
  'one long sh -c body': (n) => gate(`sh -c '${'cd x; node --test; sh -c x; '.repeat(n)}'`),
  'nested sh -c': (n) => gate(`sh -c "${"sh -c 'sh -c npm' ".repeat(n)}"`),
  'empty alternatives': (n) => gate('node --test', `/${'x|'.repeat(Math.min(n, 400))}/`),
  'title quantities': (n) => gate('node bench.mjs', '/p95 \\d+ ms/', 'under 1 ms and '.repeat(n)),
  'manual measurable title': (n) => `- [ ] M1: ${'coverage of tests pass over 90% '.repeat(n)}\n`,
  'manual digits title': (n) => `- [ ] M1: ${'1,'.repeat(n)}5 ms\n`,
};

describe('lint is linear on inputs aimed at the issue 10 rules', () => {
  // Each family, every run: a random pick of 30 would leave some out about a third of the time.
  for (const family of Object.keys(families)) {
    it(family, () => expectLinear((n) => lintText(families[family]!(n)), 4_000, family));
  }

  it('asks about files a bounded number of times, however many runners a CHECK calls', () => {
    lookups = 0;
    lintText(families['runners in new directories']!(2_000));
    // Each examined runner asks about its definition files and input directories (at most 17 and 6).
    expect(lookups).toBeLessThanOrEqual(MAX_RUNNERS * 23);
  });
});

// Fragments that reach the new rules: sourcing, stdin scripts, keywords, negation, runners and
// their flags, exit toggles, quiet tools, quotes and substitutions, numbers and units.
const CHECK_FRAGMENTS = [
  '. ', 'source ', 'sh < ', 'a.sh', ' | ', 'cat a.sh | sh', 'bash -s', 'if ', 'then ', 'fi', 'while ', 'do ', 'done', 'else ', '! ',
  'npm test', 'npm --prefix x run test', 'node --test', 'node --import x --test', 'make -C d -f a.mk check', 'npx vitest run',
  'jest --passWithNoTests', 'pytest -c p.ini', 'go test ./...', 'cargo test', 'cd x', 'cd ..', '; ', ' && ', ' || ', ' & ',
  "sh -c '", 'bash -o pipefail -c "', 'exit 1', 'exit 0', 'echo ok', "printf '%s\\n' 1", 'tsc --noEmit', 'grep -qqqx FAIL log', 'set -o pipefail', 'set -e',
  "'", '"', '$(', ')', '`', '\\', ' ', '-', '--', '=', '1,000', '200 ms', '/home/a', '~/x', '#',
];
const TITLE_FRAGMENTS = ['under ', 'at least ', '200', '1,', '000', ' ms', ' %', 'coverage', ' tests pass', 'p95 ', 'Node 20', ' ', '≤', '5', '.5', 'x'];
const EXPECTS = ['/.*/', '/x|/', '/|/', '/^/m', '/(a+)+$/', '/^(?:#|\\u2139) pass [1-9]\\d*$/m', '/# fail 0/', '/usr/lib/', 'ok', '/^5$/m', '/(?:x|)+y/', '/\\s*/', 'typecheck-ok'];

/** A random run of fragments, repeated: small randomness, large and repetitive inputs. */
const repeated = (fragments: readonly string[], maxTimes: number) =>
  fc.tuple(fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: maxTimes })).map(([parts, times]) => parts.join('').repeat(times));

describe('lint is bounded on random hostile ledgers', () => {
  it('lints each within a fixed time, whatever the CHECK, title and EXPECT', () => {
    let parsed = 0;
    let runs = 0;
    fc.assert(
      fc.property(repeated(CHECK_FRAGMENTS, 4_000), repeated(TITLE_FRAGMENTS, 2_000), fc.constantFrom(...EXPECTS), fc.boolean(), (check, title, expectText, manual) => {
        runs++;
        const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim() || 'x';
        const doc = manual ? `- [ ] M1: ${oneLine(title)}\n` : gate(oneLine(check), expectText, `the suite ${oneLine(title)}`);
        if (parseLedger(doc).ok) parsed++;
        const t0 = performance.now();
        lintText(doc);
        const ms = performance.now() - t0;
        // Up to ~150 kB of CHECK; linear work is a few ms per 10 kB, shared cores add noise.
        expect(ms, `${doc.length} characters: ${ms.toFixed(0)} ms`).toBeLessThan(1_500);
      }),
      { numRuns: 60 },
    );
    // The property is about linting: most generated ledgers must parse, or it tests nothing.
    expect(parsed / runs).toBeGreaterThan(0.8);
  });
});
