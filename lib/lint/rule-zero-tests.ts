// passes-with-no-tests: the EXPECT is satisfied by what the CHECK's test runner prints when
// it runs no tests at all, and the runner exits 0 then: the gate passes for a suite that
// tested nothing (a moved test directory, a filter that matches nothing). The facts are in
// zero-tests.ts; the EXPECT is tested against them with the bounded matcher. Pure.
import type { Expect } from '../ledger/expect.js';
import { quoted } from './excerpt.js';
import { hasFlag, type RunnerCall } from './runners.js';
import type { ExpectMatcher, GateFinding } from './types.js';
import { ZERO_TESTS, type RunnerTests, type ZeroTestRun } from './zero-tests.js';

type KnownRunner = keyof typeof ZERO_TESTS;

function known(call: RunnerCall): RunnerTests | null {
  return call.id in ZERO_TESTS ? ZERO_TESTS[call.id as KnownRunner] : null;
}

/**
 * "EXPECT: …" (or "run go test -v and EXPECT: …") that needs at least one passing test, for
 * the first runner of the CHECK whose output is known; null when none is.
 */
export function passingSuggestion(calls: readonly RunnerCall[]): string | null {
  for (const call of calls) {
    const tests = call.runsTests ? known(call) : null;
    if (tests) return advise(tests);
  }
  return null;
}

function advise(tests: RunnerTests): string {
  const { expect, check } = tests.passing;
  return `${check ? `run ${check} and ` : ''}EXPECT: ${expect}`;
}

interface Candidate {
  runner: RunnerTests;
  run: ZeroTestRun;
}

/** The zero-test runs this call could have that exit 0, given its flags. */
function candidates(call: RunnerCall): Candidate[] {
  const tests = known(call);
  if (tests) {
    return tests.zeroRuns
      .filter((run) => run.exitsZeroWith === null || (run.exitsZeroWith.length > 0 && hasFlag(call.args, run.exitsZeroWith)))
      .map((run) => ({ runner: tests, run }));
  }
  // npm test: a JavaScript runner is behind it; make check: any runner. With any flags.
  const behind: readonly KnownRunner[] = call.id === 'package-script' ? ['node-test', 'vitest', 'jest'] : (Object.keys(ZERO_TESTS) as KnownRunner[]);
  const all: Candidate[] = [];
  for (const id of behind) {
    const runner = ZERO_TESTS[id];
    for (const run of runner.zeroRuns) if (run.exitsZeroWith === null || run.exitsZeroWith.length > 0) all.push({ runner, run });
  }
  return all;
}

export function zeroTestRule(calls: readonly RunnerCall[], expect: Expect, expectRaw: string, line: number, match: ExpectMatcher): GateFinding[] {
  // Each sample is tested once, however many runner calls the CHECK makes.
  const tested = new Map<ZeroTestRun, boolean>();
  const satisfied = (run: ZeroTestRun) => {
    let result = tested.get(run);
    if (result === undefined) tested.set(run, (result = match(expect, run.output)));
    return result;
  };
  for (const call of calls) {
    if (!call.runsTests) continue;
    for (const { runner, run } of candidates(call)) {
      if (!satisfied(run)) continue;
      const shown = matchedLine(expect, run.output, match);
      const flag = run.exitsZeroWith && run.exitsZeroWith.length > 0 ? ` (with ${run.exitsZeroWith.join(' or ')})` : '';
      const what = `on ${run.situation} it prints ${quoted(shown, 80)} and exits 0${flag}`;
      const direct = known(call) !== null;
      const message = direct
        ? `EXPECT ${quoted(expectRaw)} is satisfied when ${runner.label} runs no tests: ${what}`
        : `EXPECT ${quoted(expectRaw)} is satisfied when a test runner runs no tests: if ${call.shown} runs ${runner.label}, ${what}`;
      const suggestion = direct
        ? `expect a count of passing tests of at least 1: ${advise(runner)}`
        : `expect your runner's count of passing tests, at least 1; for ${runner.label}: ${advise(runner)}`;
      return [{ line, rule: 'passes-with-no-tests', message, suggestion }];
    }
  }
  return [];
}

/** The first line of the output that the EXPECT matches on its own, else the first non-blank line. */
function matchedLine(expect: Expect, output: string, match: ExpectMatcher): string {
  const lines = output.split('\n').filter((l) => l.trim() !== '');
  return (lines.find((l) => match(expect, l)) ?? lines[0] ?? '').trim();
}
