// Titles that claim something a command can measure. manual-measurable: a manual gate
// whose title names such an outcome ("tests pass", "coverage", "builds", "p95 under 200 ms")
// is met by a person's word where a command could have decided. unmeasured-number: a
// runnable gate whose title states a quantity ("under 200 ms") that neither its CHECK nor
// its EXPECT mentions: the gate passes whatever the number turns out to be. Pure.
import { listed, plain, quoted } from './excerpt.js';
import { numbersIn, TITLE_SCAN, titleQuantities } from './quantities.js';
import type { GateFinding } from './types.js';

type Kind = 'tests' | 'coverage' | 'build' | 'performance' | 'exit';

const OUTCOMES: ReadonlyArray<[Kind, RegExp]> = [
  ['tests', /\b(?:tests? (?:pass|passes|passing|succeed|succeeds|are green|is green|run green)|test suite (?:passes|succeeds|is green)|ci (?:passes|is green))\b/],
  ['coverage', /\bcoverage\b/],
  ['build', /\b(?:builds|compiles|build (?:passes|succeeds|works|is green)|type-?checks?|typecheck (?:passes|is clean)|type errors|lint (?:passes|is clean)|lints cleanly|no lint (?:errors|warnings)|no (?:compiler )?warnings)\b/],
  ['performance', /\b(?:p50|p75|p90|p95|p99|p999|latency|throughput|benchmarks?|bundle size|binary size|memory use|memory usage)\b/],
  ['exit', /\b(?:exits? (?:with )?(?:0|zero|status 0|code 0)|(?:returns|responds with) (?:http )?[1-5]\d\d)\b/],
];

const EXAMPLES: Record<Kind, string> = {
  tests: 'CHECK: node --test with EXPECT: /^(?:#|\\u2139) pass [1-9]\\d*$/m',
  coverage: 'CHECK: the coverage run with its threshold as a failure condition (npx --no-install c8 --check-coverage --lines 90 node --test) with EXPECT: its count of passing tests',
  build: 'CHECK: npx --no-install tsc --noEmit && echo typecheck-ok with EXPECT: typecheck-ok (a tool that prints nothing on success, then a marker)',
  performance: 'CHECK: a measurement that exits non-zero past the bound, with the bound on its command line (node scripts/bench.mjs --max-p95-ms 200), with EXPECT: the result line it prints',
  exit: 'CHECK: the command with EXPECT: a line it prints only on success',
};

export function manualMeasurableRule(title: string, line: number): GateFinding[] {
  const text = title.slice(0, TITLE_SCAN).toLowerCase();
  let kind: Kind | null = null;
  let phrase: string | null = null;
  for (const [k, re] of OUTCOMES) {
    const m = re.exec(text);
    if (m) {
      kind = k;
      phrase = m[0];
      break;
    }
  }
  if (kind === null) {
    const q = titleQuantities(title)[0];
    if (!q) return [];
    kind = 'performance';
    phrase = q.phrase;
  }
  return [
    {
      line,
      rule: 'manual-measurable',
      message: `manual gate "${plain(title, 100)}" names an outcome a command can measure (${quoted(phrase!, 40)}): only a person's tick says it is met`,
      suggestion: `give it a CHECK that measures it and an EXPECT only success prints, e.g. ${EXAMPLES[kind]}`,
    },
  ];
}

export function unmeasuredNumberRule(title: string, check: string, expectRaw: string, line: number): GateFinding[] {
  const quantities = titleQuantities(title);
  if (quantities.length === 0) return [];
  const measured = numbersIn(`${check}\n${expectRaw}`);
  const missing = quantities.filter((q) => !measured.has(q.number));
  if (missing.length === 0) return [];
  const numbers = [...new Set(missing.map((q) => q.number))];
  return [
    {
      line,
      rule: 'unmeasured-number',
      message: `title says ${listed(missing.map((q) => quoted(q.phrase, 40)), 3, 60)}, but neither CHECK nor EXPECT mentions ${listed(numbers, 3, 20)}: the gate passes whatever the number is`,
      suggestion: `put the bound in the gate: pass it to the command so that the command fails past it (an argument such as --max ${numbers[0]}), or EXPECT a line that states it ("limit ${numbers[0]}")`,
    },
  ];
}
