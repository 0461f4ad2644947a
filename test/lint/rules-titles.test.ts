// Titles that claim a measurable outcome: manual-measurable (a manual gate that a command
// could decide) and unmeasured-number (a quantity nothing in the gate measures).
import { describe, expect, it } from 'vitest';
import { numbersIn, titleQuantities } from '../../lib/lint/quantities.js';
import { gate, lint, only } from './lint-helper.js';

const manual = (title: string, extra: string[] = []) => [`- [ ] M1: ${title}`, ...extra].join('\n') + '\n';

describe('manual-measurable', () => {
  const fires = (title: string, extra: string[] = []) => only(lint(manual(title, extra)), 'manual-measurable');

  it('fires on a manual gate whose title names something a command can measure, at the gate line', () => {
    for (const [title, phrase] of [
      ['tests pass', 'tests pass'],
      ['unit tests pass on Node 20 and 22', 'tests pass'],
      ['coverage stays over 90%', 'coverage'],
      ['the docs site builds', 'builds'],
      ['the API answers with p95 under 200 ms', 'p95'],
      ['bundle stays below 50 kB', 'below 50 kB'],
      ['health check returns 200', 'returns 200'],
      ['the CLI exits 0 on a clean tree', 'exits 0'],
      ['imports 1,000 rows in under 2 s', '1,000 rows'],
      ['no type errors', 'type errors'],
    ] as const) {
      const f = fires(title);
      expect(f, title).toHaveLength(1);
      expect(f[0], title).toMatchObject({ line: 1, gate: 'M1' });
      expect(f[0]?.message, title).toContain(`("${phrase}")`);
    }
    expect(fires('tests pass')[0]?.message).toBe('manual gate "tests pass" names an outcome a command can measure ("tests pass"): only a person\'s tick says it is met');
    expect(fires('tests pass')[0]?.suggestion).toBe('give it a CHECK that measures it and an EXPECT only success prints, e.g. CHECK: node --test with EXPECT: /^(?:#|\\u2139) pass [1-9]\\d*$/m');
  });

  it('stays quiet on judgment calls, on version numbers, and on a gate handed off with ABANDON', () => {
    for (const title of ['wording approved by the product owner', 'a person has reviewed the change', 'design signed off', 'release notes read well on Node 20', 'wording 0 approved by the owner', 'G2 layout matches the mock-up v1.2']) {
      expect(fires(title), title).toEqual([]);
    }
    expect(only(lint(manual('tests pass') + '\nABANDON: M1 the suite needs a device we do not have\n'), 'manual-measurable')).toEqual([]);
  });

  it('applied (a CHECK and an EXPECT), the rule is quiet', () => {
    expect(only(lint(gate('node --test', '/^(?:#|\\u2139) pass [1-9]\\d*$/m', [], 'tests pass')), 'manual-measurable')).toEqual([]);
  });
});

describe('unmeasured-number', () => {
  const fires = (title: string, check: string, e: string) => only(lint(gate(check, e, [], title)), 'unmeasured-number');

  it('fires when a quantity in the title appears in neither CHECK nor EXPECT', () => {
    const f = fires('the API answers with p95 under 200 ms', 'node scripts/bench.mjs', '/p95 \\d+ ms/');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ line: 1, gate: 'G1' });
    expect(f[0]?.message).toBe('title says "under 200 ms", but neither CHECK nor EXPECT mentions 200: the gate passes whatever the number is');
    expect(f[0]?.suggestion).toBe('put the bound in the gate: pass it to the command so that the command fails past it (an argument such as --max 200), or EXPECT a line that states it ("limit 200")');
    expect(fires('the import keeps all 12 rows', 'node scripts/import.mjs', '/\\(\\d+ rows\\)/')[0]?.message).toMatch(/title says "12 rows"/);
    expect(fires('coverage stays over 90%', 'npx c8 node --test', '/# pass [1-9]/')[0]?.message).toMatch(/title says "over 90%", but neither CHECK nor EXPECT mentions 90/);
    expect(fires('loads in under 2 s and uses at most 64 MB', 'node scripts/load.mjs --max-ms 2000', '/loaded/')[0]?.message).toMatch(/"under 2 s", "at most 64 MB", but neither CHECK nor EXPECT mentions 2, 64/);
  });

  it('applied (the bound in the CHECK or in the EXPECT), the rule is quiet', () => {
    expect(fires('the API answers with p95 under 200 ms', 'node scripts/bench.mjs --max 200', '/p95 \\d+ ms/')).toEqual([]);
    expect(fires('the API answers with p95 under 200 ms', 'node scripts/bench.mjs', '/p95 \\d+ ms \\(limit 200 ms\\)/')).toEqual([]);
    expect(fires('imports 1,000 rows', 'node scripts/import.mjs', 'imported 1000 rows')).toEqual([]);
    expect(fires('responds within 1.5 s', 'node scripts/ping.mjs', '/answered in \\d+ ms \\(limit 1\\.5 s\\)/')).toEqual([]);
  });

  it('stays quiet on numbers that are not quantities: versions, ids, percentiles', () => {
    for (const title of ['build passes on Node 20 and 22', 'G2 renders v1.2.3', 'the p95 report is written', 'step 3 of the import works']) {
      expect(fires(title, 'node scripts/x.mjs', '/verified \\d+/'), title).toEqual([]);
    }
  });

  it('reads quantities with a unit after them or a bound before them', () => {
    expect(titleQuantities('p95 under 200 ms and 90% coverage, at least 1,000 rows, ≤ 5 MB, 2x faster').map((q) => [q.phrase, q.number])).toEqual([
      ['under 200 ms', '200'],
      ['90%', '90'],
      ['at least 1,000 rows', '1000'],
      ['≤ 5 MB', '5'],
      ['2x', '2'],
    ]);
    expect([...numbersIn('--max 1_000 /limit 200\\.0 ms/')]).toEqual(['1000', '200.0', '200']);
  });
});
