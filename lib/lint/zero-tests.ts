// What each test runner prints, and how it exits, when it runs no tests at all: no test
// files, or a filter that matches none. An EXPECT that such output satisfies passes a gate
// for a suite that tested nothing, as soon as the runner exits 0. Pure data.
//
// Where the facts come from:
// - node --test: run on this machine with Node 20.20.2, 22.23.5 and 24.22.3, stdout a pipe
//   as under gate-check. Node 20 and 22 print TAP ("# pass N"); Node 23 and later print the
//   spec reporter's summary ("ℹ pass N"). Every case below exits 0. Node also counts a test
//   FILE that defines no test (Node 22 and later: no test matching --test-name-pattern) as
//   one passing test, so "pass 1" proves a test file ran, not that a test in it did.
// - vitest: run here with vitest 4.1.12 (NO_COLOR=1). No test files exits 1 unless
//   --passWithNoTests; a filter (-t) that matches nothing skips every test and exits 0.
// - pytest: run here with pytest 9.0.3. No tests collected, or all deselected, exits 5.
// - cargo test: run here with cargo 1.95.0: 0 tests exits 0; doc-tests add a
//   "running 0 tests" block even to a crate that has tests.
// - jest: not installed here; from its documented output (jestjs/jest#8187, #8594: "No
//   tests found, exiting with code 1 / Run with `--passWithNoTests` to exit with code 0")
//   and its summary format ("Tests:       2 skipped, 2 total").
// - go test: not installed here; from documented output (golang/go#15211, #64500: "?
//   pkg [no test files]"; "testing: warning: no tests to run / PASS / ok  pkg 0.133s
//   [no tests to run]"), exit 0 in both cases.
import type { RunnerId } from './runners.js';

export interface ZeroTestRun {
  /** What was run: "no test files", "a filter that matches no test". */
  situation: string;
  /** The output, as gate-check captures it (stdout and stderr). */
  output: string;
  /** The runner exits 0 here always (null), only with one of these flags, or never (an empty list). */
  exitsZeroWith: readonly string[] | null;
}

export interface RunnerTests {
  label: string;
  zeroRuns: readonly ZeroTestRun[];
  /** An EXPECT that needs at least one passing test, and what to change in the CHECK for it. */
  passing: { expect: string; check?: string };
}

const NODE_TAP_EMPTY = ['TAP version 13', '1..0', '# tests 0', '# suites 0', '# pass 0', '# fail 0', '# cancelled 0', '# skipped 0', '# todo 0', '# duration_ms 4.49431', ''].join('\n');
const NODE_SPEC_EMPTY = ['ℹ tests 0', 'ℹ suites 0', 'ℹ pass 0', 'ℹ fail 0', 'ℹ cancelled 0', 'ℹ skipped 0', 'ℹ todo 0', 'ℹ duration_ms 15.492445', ''].join('\n');
const NODE_TAP_FILTERED = [
  'TAP version 13',
  '# Subtest: a',
  'ok 1 - a # SKIP test name does not match pattern',
  '  ---',
  '  duration_ms: 0.802412',
  '  ...',
  '1..1',
  '# tests 1',
  '# suites 0',
  '# pass 0',
  '# fail 0',
  '# cancelled 0',
  '# skipped 1',
  '# todo 0',
  '# duration_ms 91.424702',
  '',
].join('\n');

export const ZERO_TESTS: Record<Exclude<RunnerId, 'package-script' | 'make'>, RunnerTests> = {
  'node-test': {
    label: 'node --test',
    zeroRuns: [
      { situation: 'no test files (Node 20, 22)', output: NODE_TAP_EMPTY, exitsZeroWith: null },
      { situation: 'no test files (Node 23 and later)', output: NODE_SPEC_EMPTY, exitsZeroWith: null },
      { situation: '--test-name-pattern matching no test (Node 20)', output: NODE_TAP_FILTERED, exitsZeroWith: null },
    ],
    // "# pass N" is TAP (Node 20, 22 when stdout is not a terminal); "ℹ pass N" the spec reporter (Node 23+).
    passing: { expect: '/^(?:#|\\u2139) pass [1-9]\\d*$/m' },
  },
  vitest: {
    label: 'vitest',
    zeroRuns: [
      { situation: 'no test files', output: '\n RUN  v4.1.12 /repo\n\nNo test files found, exiting with code 0\n', exitsZeroWith: ['--passWithNoTests'] },
      {
        situation: 'a filter matching no test',
        output: '\n RUN  v4.1.12 /repo\n\n ↓ a.test.js (2 tests | 2 skipped)\n\n Test Files  1 skipped (1)\n      Tests  2 skipped (2)\n   Start at  11:57:23\n   Duration  333ms\n',
        exitsZeroWith: null,
      },
    ],
    passing: { expect: '/^\\s*Tests\\s.*\\b[1-9]\\d* passed/m' },
  },
  jest: {
    label: 'jest',
    zeroRuns: [
      { situation: 'no tests found', output: 'No tests found, exiting with code 0\n', exitsZeroWith: ['--passWithNoTests'] },
      {
        situation: 'a filter matching no test',
        output: 'Test Suites: 1 skipped, 0 of 1 total\nTests:       2 skipped, 2 total\nSnapshots:   0 total\nTime:        0.412 s\nRan all test suites with tests matching "nomatch".\n',
        exitsZeroWith: null,
      },
    ],
    passing: { expect: '/^Tests:\\s.*\\b[1-9]\\d* passed/m' },
  },
  pytest: {
    label: 'pytest',
    zeroRuns: [
      { situation: 'no tests collected', output: 'collected 0 items\n\n============================ no tests ran in 0.51s =============================\n', exitsZeroWith: [] },
      { situation: 'every test deselected', output: 'collected 2 items / 2 deselected / 0 selected\n\n============================ 2 deselected in 0.46s =============================\n', exitsZeroWith: [] },
    ],
    passing: { expect: '/\\b[1-9]\\d* passed\\b/' },
  },
  'go-test': {
    label: 'go test',
    zeroRuns: [
      { situation: 'no test files', output: '?   \texample.com/m\t[no test files]\n', exitsZeroWith: null },
      { situation: '-run matching no test', output: 'testing: warning: no tests to run\nPASS\nok  \texample.com/m\t0.133s [no tests to run]\n', exitsZeroWith: null },
    ],
    // Without -v, "ok  pkg 0.1s" is printed for no tests too; -v prints a line per passing test.
    passing: { expect: '/^--- PASS: /m', check: 'go test -v' },
  },
  'cargo-test': {
    label: 'cargo test',
    zeroRuns: [
      {
        situation: 'no tests',
        output: '\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n',
        exitsZeroWith: null,
      },
      {
        situation: 'a filter matching no test',
        output: '\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.00s\n',
        exitsZeroWith: null,
      },
    ],
    passing: { expect: '/^test result: ok\\. [1-9]\\d* passed/m' },
  },
};
