// The EXPECT rules: weak-expect (whole-line counts are not weak), matches-anything,
// passes-with-no-tests. Each with positives, negative controls, and its suggestion applied.
import { describe, expect, it } from 'vitest';
import { ANY_OUTPUT_PROBES, withoutEmptyAlternatives } from '../../lib/lint/rule-any-output.js';
import { ZERO_TESTS } from '../../lib/lint/zero-tests.js';
import { parseExpect } from '../../lib/ledger/expect.js';
import { gate, lint, match, only, rules } from './lint-helper.js';

const NODE_PASSING = '/^(?:#|\\u2139) pass [1-9]\\d*$/m';
/** Declares what undeclared-inputs asks for, so that only the EXPECT rules speak. */
const BOUND = ['  DEPENDS: package.json', '  INPUTS: test/**'];

describe('weak-expect', () => {
  const fires = (expectText: string, check = 'node scripts/check.mjs') => only(lint(gate(check, expectText)), 'weak-expect');

  it('does not call a whole-line count weak: /^5$/m is a line that is exactly 5', () => {
    for (const e of ['/^5$/m', '/^0$/m', '/^42$/', '/^12$/m', '/^✓$/m']) expect(fires(e), e).toEqual([]);
  });

  it('calls a bare number anywhere in the output "a bare number", and a generic word "a generic word", anchored or not', () => {
    expect(fires('5')[0]?.message).toMatch(/^EXPECT "5" is a bare number: /);
    expect(fires('/0/')[0]?.message).toMatch(/is a bare number/);
    expect(fires('/^5/m')[0]?.message).toMatch(/is a bare number/);
    expect(fires('/^ok$/m')[0]?.message).toMatch(/is a generic word/);
    expect(fires('ok')[0]?.message).toMatch(/is a generic word/);
  });

  // Round-31b F10: `grep -c … / EXPECT: 1` was explained with TAP's "not ok 3".
  it('explains a bare number by the numbers that hold it, and suggests the whole line', () => {
    const f = fires('1', 'grep -c "export function report" src/report.js');
    expect(f[0]?.message).toBe('EXPECT "1" is a bare number: any output with that digit in it contains it (a count of 11 or 21, a line number, a time)');
    expect(f[0]?.suggestion).toBe('match the whole line: EXPECT: /^1$/m');
    expect(fires('/^1$/m', 'grep -c "export function report" src/report.js')).toEqual([]);
  });

  it("suggests the runner's count of passing tests when the runner is known; applied, the gate is clean of both EXPECT rules", () => {
    const f = fires('ok', 'node --test');
    expect(f[0]?.suggestion).toBe(`expect a count that only success prints: EXPECT: ${NODE_PASSING}`);
    const fixed = lint(gate('node --test', NODE_PASSING, BOUND), { files: ['package.json', 'test/a.test.mjs'] });
    expect(fixed).toEqual([]);
    expect(fires('ok', 'go test ./...')[0]?.suggestion).toBe('expect a count that only success prints: run go test -v and EXPECT: /^--- PASS: /m');
  });

  it('suggests a runner-neutral line for an unknown command', () => {
    expect(fires('ok')[0]?.suggestion).toMatch(/^EXPECT a line only success prints, ideally with a count: your runner's count of passing tests \(for node --test: /);
  });
});

describe('matches-anything', () => {
  const fires = (expectText: string) => only(lint(gate('node scripts/check.mjs', expectText)), 'matches-anything');

  it('fires on regexes every output satisfies, at the EXPECT line', () => {
    for (const e of ['/.*/', '/x|/', '/|x/', '/a||b/', '/^/m', '/$/', '/\\s*/', '/[^]*/', '/(?:x)?/', '/\\b|\\B/', '/(ok)*/i']) {
      const f = fires(e);
      expect(f, e).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 3, gate: 'G1' });
    }
    expect(fires('/.*/')[0]?.message).toBe('EXPECT "/.*/" matches any output, even an empty one or a crash message: it checks nothing beyond the exit status');
  });

  it('stays quiet on regexes some failure output does not satisfy', () => {
    for (const e of ['/./', '/^$/', '/^(?![\\s\\S]*not ok)/', '/\\d+ passing/', '/^(?![\\s\\S]*FAIL)/', '/x|y/', 'x']) expect(fires(e), e).toEqual([]);
  });

  it('suggests dropping an empty alternative; applied, the rule is quiet', () => {
    const f = fires('/import ok \\(\\d+ rows\\)|/');
    expect(f[0]?.suggestion).toBe('drop the empty alternative: EXPECT: /import ok \\(\\d+ rows\\)/');
    expect(fires('/import ok \\(\\d+ rows\\)/')).toEqual([]);
    // Never advice that trades this finding for another: /passed/ is generic, /# fail 0/ passes with no tests.
    expect(fires('/passed|/')[0]?.suggestion).toMatch(/^EXPECT a line only success prints/);
    expect(only(lint(gate('node --test', '/# fail 0|/', BOUND)), 'matches-anything')[0]?.suggestion).toBe(`expect a count that only success prints: EXPECT: ${NODE_PASSING}`);
    expect(rules(lint(gate('node --test', `/${NODE_PASSING.slice(1, -2)}|/m`, BOUND)))).toEqual(['matches-anything']);
    expect(only(lint(gate('node --test', `/${NODE_PASSING.slice(1, -2)}|/m`, BOUND)), 'matches-anything')[0]?.suggestion).toBe(`drop the empty alternative: EXPECT: ${NODE_PASSING}`);
    // No alternative to drop: the runner-neutral advice, and the node --test EXPECT when that runs.
    expect(fires('/.*/')[0]?.suggestion).toMatch(/^EXPECT a line only success prints/);
    expect(only(lint(gate('node --test', '/.*/')), 'matches-anything')[0]?.suggestion).toBe(`expect a count that only success prints: EXPECT: ${NODE_PASSING}`);
  });

  it('splits alternatives only at the top level', () => {
    expect(withoutEmptyAlternatives('a|')).toBe('a');
    expect(withoutEmptyAlternatives('(a|)|b')).toBeNull();
    expect(withoutEmptyAlternatives('[|]|')).toBe('[|]');
    expect(withoutEmptyAlternatives('\\||')).toBe('\\|');
    expect(withoutEmptyAlternatives('|')).toBeNull();
  });

  it('probes with the empty output and failure output', () => {
    expect(ANY_OUTPUT_PROBES).toContain('');
    const failing = parseExpect('/^(?![\\s\\S]*not ok)/');
    expect(failing.ok && ANY_OUTPUT_PROBES.every((p) => match(failing.expect, p))).toBe(false);
  });
});

describe('passes-with-no-tests', () => {
  const fires = (check: string, expectText: string) => only(lint(gate(check, expectText, BOUND)), 'passes-with-no-tests');

  it('fires on node --test EXPECTs that a run with no tests satisfies, naming what it printed', () => {
    const f = fires('node --test', '/# fail 0/');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ line: 3, gate: 'G1' });
    expect(f[0]?.message).toBe('EXPECT "/# fail 0/" is satisfied when node --test runs no tests: on no test files (Node 20, 22) it prints "# fail 0" and exits 0');
    expect(f[0]?.suggestion).toBe(`expect a count of passing tests of at least 1: EXPECT: ${NODE_PASSING}`);
    for (const e of ['/# tests \\d+/', '/# pass \\d+/', 'duration_ms', '/fail 0/', '/ℹ fail 0/', '/# skipped/']) expect(fires('node --test', e), e).toHaveLength(1);
    expect(fires('node --test --test-name-pattern=import', '/# skipped [1-9]/')).toHaveLength(1);
  });

  it('knows each runner: vitest, jest, go test, cargo test, and pytest (which exits 5 on no tests)', () => {
    expect(fires('npx vitest run', '/Test Files/')[0]?.message).toMatch(/when vitest runs no tests: on a filter matching no test it prints "Test Files {2}1 skipped \(1\)" and exits 0/);
    expect(fires('npx jest', '/Test Suites:/')[0]?.message).toMatch(/when jest runs no tests: on a filter matching no test/);
    expect(fires('go test ./...', '/^ok\\s/m')[0]?.suggestion).toBe('expect a count of passing tests of at least 1: run go test -v and EXPECT: /^--- PASS: /m');
    expect(fires('cargo test', '/test result: ok/')[0]?.message).toMatch(/"test result: ok\. 0 passed; 0 failed/);
    expect(fires('pytest -q', '/no tests ran|passed/')).toEqual([]);
    expect(fires('python -m pytest', '/deselected/')).toEqual([]);
  });

  it('counts "no test files" only where that exits 0: vitest and jest need --passWithNoTests', () => {
    expect(fires('npx vitest run', '/No test files found/')).toEqual([]);
    expect(fires('npx vitest run --passWithNoTests', '/No test files found/')[0]?.message).toMatch(/on no test files it prints "No test files found, exiting with code 0" and exits 0 \(with --passWithNoTests\)/);
    expect(fires('jest', '/No tests found/')).toEqual([]);
    expect(fires('jest --passWithNoTests', '/No tests found/')).toHaveLength(1);
  });

  it('behind npm test and make check, tests every runner that could be there', () => {
    expect(fires('npm test', '/# fail 0/')[0]?.message).toBe('EXPECT "/# fail 0/" is satisfied when a test runner runs no tests: if npm test runs node --test, on no test files (Node 20, 22) it prints "# fail 0" and exits 0');
    expect(fires('npm test', '/# fail 0/')[0]?.suggestion).toBe(`expect your runner's count of passing tests, at least 1; for node --test: EXPECT: ${NODE_PASSING}`);
    expect(fires('make check', '/test result: ok/')).toHaveLength(1);
    expect(fires('make build', '/test result: ok/')).toEqual([]);
    expect(fires('npm run build', '/# fail 0/')).toEqual([]);
  });

  it('applied, each suggestion is quiet for this rule (and the EXPECT rules)', () => {
    const cases: Array<[string, string]> = [
      ['node --test', NODE_PASSING],
      ['npx vitest run', ZERO_TESTS.vitest.passing.expect],
      ['jest --passWithNoTests', ZERO_TESTS.jest.passing.expect],
      ['go test -v ./...', ZERO_TESTS['go-test'].passing.expect],
      ['cargo test', ZERO_TESTS['cargo-test'].passing.expect],
      ['npm test', NODE_PASSING],
      ['make check', NODE_PASSING],
    ];
    for (const [check, e] of cases) {
      const f = lint(gate(check, e, BOUND)).filter((x) => ['passes-with-no-tests', 'weak-expect', 'matches-anything'].includes(x.rule));
      expect(f, `${check} / ${e}`).toEqual([]);
    }
  });

  it('gives way to weak-expect and matches-anything, which say more', () => {
    const f = lint(gate('cargo test', 'ok', BOUND));
    expect(only(f, 'weak-expect')).toHaveLength(1);
    expect(only(f, 'passes-with-no-tests')).toEqual([]);
    expect(only(lint(gate('node --test', '/.*/', BOUND)), 'passes-with-no-tests')).toEqual([]);
  });
});
