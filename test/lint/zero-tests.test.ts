// The zero-test facts in lib/lint/zero-tests.ts against real runs where the runner is here
// (node --test with this Node, vitest from devDependencies), and the suggested node --test
// EXPECT through a real gate-check run: it passes with tests and fails with none, where
// the old advice /# fail 0/ passes with none.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExpect, type Expect } from '../../lib/ledger/expect.js';
import { ZERO_TESTS } from '../../lib/lint/zero-tests.js';
import { runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { match } from './lint-helper.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const ONE_TEST = "import test from 'node:test';\ntest('a', () => {});\n";
const TWO_TESTS = "import test from 'node:test';\ntest('a', () => {});\ntest('b', () => {});\n";

function expectOf(raw: string): Expect {
  const p = parseExpect(raw);
  if (!p.ok) throw new Error(p.reason);
  return p.expect;
}

function nodeTest(dir: string, args: string[] = []) {
  // stdout is a pipe, as under gate-check: Node 20 and 22 print TAP, 23 and later the spec summary.
  return spawnSync(process.execPath, ['--test', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
}

const durations = (text: string) => text.replace(/duration_ms:? [\d.]+/g, 'duration_ms N');

describe('node --test with no tests, as the table says', () => {
  it('prints the summary of zero tests and exits 0', () => {
    const r = nodeTest(tempDir('gc-zero-'));
    expect(r.status).toBe(0);
    const sample = ZERO_TESTS['node-test'].zeroRuns[NODE_MAJOR >= 23 ? 1 : 0]!;
    expect(durations(r.stdout + r.stderr)).toBe(durations(sample.output));
  });

  it('with a name pattern matching nothing (Node 20): every test skipped, exit 0', () => {
    if (NODE_MAJOR !== 20) return;
    const dir = tempDir('gc-zero-');
    writeFiles(dir, { 'a.test.mjs': "import test from 'node:test';\ntest('a', () => {});\n" });
    const r = nodeTest(dir, ['--test-name-pattern=nomatch']);
    expect(r.status).toBe(0);
    expect(durations(r.stdout)).toBe(durations(ZERO_TESTS['node-test'].zeroRuns[2]!.output));
  });

  it('the old advice /# fail 0/ matches the TAP zero-test output (and no spec output at all); the suggested EXPECT matches only a run with a passing test', () => {
    const suggested = expectOf(ZERO_TESTS['node-test'].passing.expect);
    const old = expectOf('/# fail 0/');
    for (const run of ZERO_TESTS['node-test'].zeroRuns) {
      // Node 23+ prints "ℹ fail 0": there the old advice failed every run, with tests or without.
      expect(match(old, run.output), run.situation).toBe(run.output.startsWith('TAP'));
      expect(match(suggested, run.output), run.situation).toBe(false);
    }
    // This Node, a directory with no test file: exit 0, and the suggested EXPECT fails it.
    const none = nodeTest(tempDir('gc-none-'));
    expect(none.status).toBe(0);
    expect(match(suggested, none.stdout + none.stderr)).toBe(false);
    expect(match(old, none.stdout + none.stderr)).toBe(NODE_MAJOR < 23);
    // One passing test is enough; so are two.
    for (const [name, source] of [['one', ONE_TEST], ['two', TWO_TESTS]] as const) {
      const dir = tempDir(`gc-${name}-`);
      writeFiles(dir, { 'a.test.mjs': source });
      const r = nodeTest(dir);
      expect(r.status, name).toBe(0);
      expect(match(suggested, r.stdout + r.stderr), name).toBe(true);
    }
    // Both reporters' summary lines, whichever this Node prints.
    expect(match(suggested, '# pass 2\n')).toBe(true);
    expect(match(suggested, '\u2139 pass 2\n')).toBe(true);
    expect(match(suggested, '# pass 0\n')).toBe(false);
  });
});

describe('vitest with no tests, as the table says (vitest from devDependencies)', () => {
  const vitest = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
  const run = (dir: string, args: string[]) => spawnSync(process.execPath, [vitest, 'run', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' }, timeout: 60_000 });
  /** The lines that say what ran, with the directory and the timings left out. */
  const gist = (text: string, dir: string) =>
    text
      .replaceAll(dir, '/repo')
      .split('\n')
      .map((l) => l.replace(/v\d+\.\d+\.\d+/, 'vX').trimEnd())
      .filter((l) => l !== '' && !/^\s*(?:Start at|Duration)\b/.test(l) && !/^(?:include|exclude):/.test(l) && !/\(\d+ tests? \| \d+ skipped\) \d+ms$/.test(l));

  it('no test files: exit 1 without --passWithNoTests, exit 0 and the sample with it', () => {
    const dir = tempDir('gc-vz-');
    writeFiles(dir, { 'package.json': '{"type":"module"}\n' });
    expect(run(dir, []).status).toBe(1);
    const r = run(dir, ['--passWithNoTests']);
    expect(r.status).toBe(0);
    expect(gist(r.stdout + r.stderr, dir)).toEqual(gist(ZERO_TESTS.vitest.zeroRuns[0]!.output, '/repo'));
  });

  it('a filter matching no test: exit 0, every test skipped, as the sample', () => {
    const dir = tempDir('gc-vz-');
    writeFiles(dir, { 'package.json': '{"type":"module"}\n', 'a.test.js': "import { test } from 'vitest';\ntest('a', () => {});\ntest('b', () => {});\n" });
    const r = run(dir, ['-t', 'nomatch']);
    expect(r.status).toBe(0);
    expect(gist(r.stdout + r.stderr, dir)).toEqual(gist(ZERO_TESTS.vitest.zeroRuns[1]!.output, '/repo'));
    expect(match(expectOf(ZERO_TESTS.vitest.passing.expect), r.stdout)).toBe(false);
    const passing = run(dir, []);
    expect(passing.status).toBe(0);
    expect(match(expectOf(ZERO_TESTS.vitest.passing.expect), passing.stdout)).toBe(true);
  });
});

describe('through gate-check: the suggested EXPECT fails a run with no tests, /# fail 0/ passes it (Node 20, 22)', () => {
  it('approves and runs both gates with tests, then without', () => {
    const s = sandbox();
    const env = { ...s.env, PATH: `${dirname(process.execPath)}:${s.env.PATH ?? ''}` };
    const ledger = [
      '- [ ] OLD: the suite passes (old advice)',
      '  CHECK: node --test',
      '  EXPECT: /# fail 0/',
      '',
      '- [ ] NEW: the suite passes (suggested)',
      '  CHECK: node --test',
      `  EXPECT: ${ZERO_TESTS['node-test'].passing.expect}`,
      '',
    ].join('\n');
    writeFiles(s.repo, { 'GATES.md': ledger, 'test/a.test.mjs': TWO_TESTS });
    // On Node 23 and later the summary reads "ℹ fail 0": the old advice fails every run there.
    const old = NODE_MAJOR < 23 ? 'PASS' : 'FAIL';
    const withTests = runCli(['--approve'], { cwd: s.repo, env });
    expect(withTests.stdout).toMatch(new RegExp(`^${old} GATES:OLD`, 'm'));
    expect(withTests.stdout).toMatch(/^PASS GATES:NEW/m);
    rmSync(join(s.repo, 'test'), { recursive: true });
    const none = runCli(['--reverify'], { cwd: s.repo, env });
    expect(none.stdout).toMatch(new RegExp(`^${old} GATES:OLD`, 'm'));
    expect(none.stdout).toMatch(/^FAIL GATES:NEW/m);
    expect(none.code).toBe(1);
  });
});
