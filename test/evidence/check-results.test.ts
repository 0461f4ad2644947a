// The repository's newest result of each check (lib/evidence/check-results.ts): merge keeps
// the run that started last per check and status, a later failure counts until a later pass
// of the same check, a check is its definition and its folder, and the file is hostile JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECK_RESULTS_SCHEMA, laterFailure, MAX_CHECKS, mergeResults, parseCheckResults, resultsOf, serializeCheckResults, type CheckResult, type CheckResultsFile } from '../../lib/evidence/check-results.js';
import type { RunRecord } from '../../lib/evidence/receipt.js';

const D1 = 'a'.repeat(64);
const D2 = 'b'.repeat(64);
const empty = (): CheckResultsFile => ({ schema: CHECK_RESULTS_SCHEMA, root: '/r', results: [] });
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const result = (over: Partial<CheckResult>): CheckResult => ({ def: D1, cwd: '.', deps: null, inputs: null, status: 'fail', time: at(10), ledger: 'GATES.md', gate: 'G', ...over });
const pass = (over: Partial<RunRecord>): RunRecord =>
  ({ gate: 'G', status: 'pass', def: D1, deps: null, inputs: null, match: 'c'.repeat(12), receipt: 'd'.repeat(64), signature: 'e'.repeat(64), outputSha256: null, bytes: 0, bound: null, cwd: '.', time: at(5), ...over }) as RunRecord;

describe('laterFailure', () => {
  it('a failure of the same check after the pass, under another id or ledger, counts', () => {
    const f = mergeResults(empty(), [result({ gate: 'G2', ledger: 'gates/x.md' })]);
    expect(laterFailure(f, pass({}))).toMatchObject({ gate: 'G2', ledger: 'gates/x.md' });
  });
  it('a failure that started in the same millisecond as the pass counts: which saw the newer work is unknown (round-39a)', () => {
    expect(laterFailure(mergeResults(empty(), [result({ gate: 'G2', time: at(5) })]), pass({}))).toMatchObject({ gate: 'G2', time: at(5) });
  });
  it('a failure before the pass, of another definition, or in another folder does not', () => {
    expect(laterFailure(mergeResults(empty(), [result({ time: at(1) })]), pass({}))).toBeNull();
    expect(laterFailure(mergeResults(empty(), [result({ def: D2 })]), pass({}))).toBeNull();
    expect(laterFailure(mergeResults(empty(), [result({ cwd: 'sub' })]), pass({}))).toBeNull();
  });
  // Round-38c F1: the check failed in a moved ledger, passed there with its INPUTS trimmed, and
  // the fixtures and the old ledger were put back: that pass settled nothing.
  it('only a later pass with the same DEPENDS and INPUTS contents settles a failure', () => {
    const X1 = '111111111111';
    const X2 = '222222222222';
    const trimmed = mergeResults(empty(), [result({ inputs: X1 }), result({ status: 'pass', inputs: X2, time: at(20) })]);
    expect(laterFailure(trimmed, pass({ inputs: X1 }))).toMatchObject({ inputs: X1, time: at(10) });
    const genuine = mergeResults(trimmed, [result({ status: 'pass', inputs: X1, time: at(30) })]);
    expect(laterFailure(genuine, pass({ inputs: X1 }))).toBeNull();
    // Two unsettled failures: the newest is named.
    const two = mergeResults(empty(), [result({ inputs: X1, time: at(10) }), result({ inputs: X2, time: at(12) })]);
    expect(laterFailure(two, pass({}))).toMatchObject({ time: at(12) });
  });
  it('a pass of the same check after the failure settles it', () => {
    const f = mergeResults(empty(), [result({}), result({ status: 'pass', time: at(20), gate: 'G3' })]);
    expect(laterFailure(f, pass({}))).toBeNull();
    const g = mergeResults(empty(), [result({ time: at(20) }), result({ status: 'pass', time: at(15) })]);
    expect(laterFailure(g, pass({}))).toMatchObject({ time: at(20) });
  });
});

describe('laterFailure, as its rule reads', () => {
  // The rule, one result at a time: a failure of the pass's check (definition and folder) that
  // started when or after it, with no later pass of that check with the same contents; the
  // newest such. laterFailure reads it from an index built once per file (verifying n gates
  // against n results was n x n: 1.2 s for 5,000 met gates, each its own check).
  const byRule = (file: CheckResultsFile, p: RunRecord): string | null => {
    const same = (r: CheckResult) => r.def === p.def && (r.cwd ?? '') === (p.cwd ?? '');
    const contents = (r: CheckResult) => `${r.deps}|${r.inputs}`;
    const candidates = file.results.filter((r) => {
      if (r.status !== 'fail' || !same(r) || Date.parse(r.time) < Date.parse(p.time)) return false;
      // The last pass of these contents in file order (a hand-written file may hold more than one).
      const settle = file.results.filter((x) => x.status === 'pass' && same(x) && contents(x) === contents(r)).at(-1);
      return settle === undefined || Date.parse(settle.time) <= Date.parse(r.time);
    });
    // The first of the newest, in file order.
    let best: CheckResult | null = null;
    for (const r of candidates) if (best === null || Date.parse(r.time) > Date.parse(best.time)) best = r;
    return best === null ? null : JSON.stringify(best);
  };
  it('names the same failure as the rule, on merged files and on hand-written ones with repeated slots', () => {
    const one = fc.record({
      def: fc.constantFrom(D1, D2),
      cwd: fc.constantFrom('.', 'sub', null),
      inputs: fc.constantFrom(null, '111111111111', '222222222222'),
      status: fc.constantFrom('pass' as const, 'fail' as const),
      s: fc.integer({ min: 0, max: 20 }),
      gate: fc.constantFrom('G1', 'G2'),
    });
    fc.assert(
      fc.property(fc.array(one, { maxLength: 25 }), fc.boolean(), one, (xs, merge, q) => {
        const results = xs.map((z) => result({ def: z.def, cwd: z.cwd, inputs: z.inputs, status: z.status, time: at(z.s), gate: z.gate }));
        const file = merge ? mergeResults(empty(), results) : { ...empty(), results };
        const p = pass({ def: q.def, cwd: q.cwd, inputs: q.inputs, time: at(q.s) });
        const found = laterFailure(file, p);
        expect(found === null ? null : JSON.stringify(found)).toBe(byRule(file, p));
      }),
      { numRuns: 500 },
    );
    // Two unsettled failures that started together: the first on file is named (as before the index).
    const tie = { ...empty(), results: [result({ gate: 'G1' }), result({ gate: 'G2' })] };
    expect(laterFailure(tie, pass({}))).toMatchObject({ gate: 'G1' });
  });
});

describe('mergeResults', () => {
  it('keeps the result that started last per check and status, whatever order they come in', () => {
    const arb = fc.array(fc.record({ def: fc.constantFrom(D1, D2), cwd: fc.constantFrom('.', 'sub', null), status: fc.constantFrom('pass' as const, 'fail' as const), s: fc.integer({ min: 0, max: 50 }) }), { maxLength: 30 });
    fc.assert(
      fc.property(arb, arb, (xs, ys) => {
        const toResults = (zs: typeof xs) => zs.map((z) => result({ def: z.def, cwd: z.cwd, status: z.status, time: at(z.s) }));
        const merged = mergeResults(mergeResults(empty(), toResults(xs)), toResults(ys));
        const all = toResults([...xs, ...ys]);
        for (const r of merged.results) expect(all.filter((a) => a.def === r.def && a.cwd === r.cwd && a.status === r.status).every((a) => Date.parse(a.time) <= Date.parse(r.time))).toBe(true);
        const slots = new Set(all.map((a) => `${a.def}|${a.cwd}|${a.status}`));
        expect(merged.results.length).toBe(slots.size);
      }),
    );
  });
  it('keeps at most MAX_CHECKS checks, the ones run last', () => {
    const many = Array.from({ length: MAX_CHECKS + 5 }, (_, i) => result({ def: i.toString(16).padStart(64, '0'), time: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() }));
    const merged = mergeResults(empty(), many);
    expect(merged.results.length).toBe(MAX_CHECKS);
    expect(merged.results.some((r) => r.def === many[0]!.def)).toBe(false);
    expect(merged.results.some((r) => r.def === many.at(-1)!.def)).toBe(true);
  });
});

describe('parseCheckResults', () => {
  const file = mergeResults(empty(), resultsOf('gates/a.md', [pass({}), pass({ status: 'fail', match: null, receipt: null, gate: 'H', time: at(7) })]));
  it('reads what it writes', () => {
    const parsed = parseCheckResults(serializeCheckResults(file), '/r');
    expect(parsed).toEqual({ ok: true, file });
  });
  it('refuses anything else', () => {
    const text = serializeCheckResults(file);
    const bad = [
      'nope',
      text.replace('"root":"/r"', '"root":"/other"'),
      text.replace(CHECK_RESULTS_SCHEMA, 'gate-check/check-results@9'),
      text.replace('{"schema"', '{"__proto__":{"x":1},"schema"'),
      text.replace('"gate":"G"', '"gate":"G","extra":1'),
      text.replace('"status":"pass"', '"status":"PASS"'),
      text.replace(`"def":"${D1}"`, '"def":"xyz"'),
      text.replace('"cwd":"."', '"cwd":"../up"'),
      text.replace('"deps":null', '"deps":"XYZ"'),
      text.replace('"inputs":null', '"inputs":1'),
      text.replace('"ledger":"gates/a.md"', '"ledger":""'),
      text.replace(/"time":"[^"]*"/, '"time":"soon"'),
      text.replace('"gate":"G"', '"gate":""'),
      text.replace('"gate":"G"', '"gate":7'),
      text.replace(/"results":\[[^]*\]/, '"results":{}'),
    ];
    for (const b of bad) expect(parseCheckResults(b, '/r').ok, b.slice(0, 120)).toBe(false);
    // More results than a file can hold: refused before each is read.
    const one = file.results[0]!;
    const huge = JSON.stringify({ schema: CHECK_RESULTS_SCHEMA, root: '/r', results: new Array(2 * MAX_CHECKS + 1).fill(one) });
    expect(parseCheckResults(huge, '/r')).toEqual({ ok: false, reason: `results is not a list of at most ${2 * MAX_CHECKS}` });
  });
});
