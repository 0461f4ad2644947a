// mergeReports: every refusal, and every claim a shard report makes that the merger must not
// believe. Reports are built as commands/run.ts builds them (merge-fixtures.ts) from real
// parsed ledgers, then edited the way a broken or hostile artifact would be.
import { describe, expect, it } from 'vitest';
import { mergeReports, type LedgerTruth, type NamedReport } from '../../lib/report/merge.js';
import type { Report } from '../../lib/report/model.js';
import { shardOf } from '../../lib/run/shard.js';
import { findGate, roundTrip, shardReports, truthOf, workspace, type GateSpec, type Workspace } from './merge-fixtures.js';

const runnable = (id: string, outcome: GateSpec['outcome'] = 'pass', over: Partial<GateSpec> = {}): GateSpec => ({ id, kind: 'runnable', ticked: false, abandoned: false, outcome, ...over });
const manual = (id: string, ticked: boolean, over: Partial<GateSpec> = {}): GateSpec => ({ id, kind: 'manual', ticked, abandoned: false, outcome: 'pass', ...over });

const IDS = Array.from({ length: 10 }, (_, i) => `G${i}`);
function allPass(extra: GateSpec[] = []): Workspace {
  return workspace([{ file: 'GATES.md', gates: [...IDS.map((id) => runnable(id)), ...extra] }]);
}

/** The workflow's shard count is, unless a test says otherwise, what the first report says. */
function merge(ws: Workspace, reports: NamedReport[], truth: LedgerTruth = truthOf(ws), shards = reports[0]?.report.shard?.count ?? 1) {
  return mergeReports(truth, roundTrip(reports), shards);
}
function refused(ws: Workspace, reports: NamedReport[], truth?: LedgerTruth, shards?: number): string {
  const r = merge(ws, reports, truth, shards);
  if (r.ok) throw new Error(`expected a refusal, got exit ${r.report.exitCode}`);
  return r.reason;
}
function exitOf(ws: Workspace, reports: NamedReport[]): number {
  const r = merge(ws, reports);
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r.report.exitCode;
}
/** The index in ledger order of a runnable gate owned by shard `index` of `count`, and of one that is not. */
function gateOwnedBy(ws: Workspace, count: number, index: number, owned = true): { index: number; qualified: string } {
  const found = findGate(ws, (g, q) => g.kind === 'runnable' && !g.abandoned && (shardOf(q, count) === index) === owned);
  if (!found) throw new Error('fixture has no such gate');
  return found;
}

describe('merging genuine shard reports', () => {
  it('every runnable gate passed in its owner: exit 0, each result from its owner', () => {
    const ws = allPass([manual('M', true)]);
    const r = merge(ws, shardReports(ws, 3));
    expect(r.ok && r.report.exitCode).toBe(0);
    if (!r.ok) return;
    expect(r.report.gates.filter((g) => g.result?.status === 'pass')).toHaveLength(10);
    expect(r.report.gates.at(-1)).toMatchObject({ kind: 'manual', state: 'met', verification: 'manual', result: null });
    expect(r.lacking).toEqual([]);
  });

  it('a gate that failed in its owner: exit 1, unmet', () => {
    const ws = workspace([{ file: 'GATES.md', gates: [...IDS.map((id) => runnable(id)), runnable('BAD', 'fail')] }]);
    const r = merge(ws, shardReports(ws, 3));
    expect(r.ok && r.report.exitCode).toBe(1);
    if (r.ok) expect(r.report.gates.at(-1)).toMatchObject({ state: 'unmet', result: { status: 'fail' } });
  });

  it('an open or claimed manual gate and a handed-off gate keep the merge at exit 1', () => {
    for (const extra of [manual('M', false), runnable('X', 'pass', { abandoned: true }), manual('H', true, { abandoned: true })]) {
      const ws = allPass([extra]);
      expect(exitOf(ws, shardReports(ws, 2))).toBe(1);
    }
  });

  it('a shard that owns no gate needs no report', () => {
    const ws = workspace([{ file: 'GATES.md', gates: [runnable('A')] }]);
    const owner = shardOf('GATES:A', 8);
    const r = merge(ws, shardReports(ws, 8).filter((x) => x.report.shard!.index === owner));
    expect(r.ok && r.report.exitCode).toBe(0);
    expect(r.ok && r.missing).toHaveLength(7);
  });
});

describe('a runnable gate without a fresh result from its owner is not met (exit 1), and merge says why', () => {
  it('the owner shard report is missing', () => {
    const ws = allPass();
    const reports = shardReports(ws, 3);
    const lost = reports.splice(1, 1);
    const r = merge(ws, reports);
    expect(r.ok && r.report.exitCode).toBe(1);
    if (!r.ok) return;
    expect(r.missing).toEqual([2]);
    expect(lost[0]!.report.gates.some((g) => g.result !== null)).toBe(true);
    expect(r.lacking.map((l) => l.why)).toContain('shard 2/3: its report is missing (did its job fail or its artifact not upload?)');
  });

  it('shards that re-ran nothing: --approve over met gates verified on the runner', () => {
    const ws = workspace([{ file: 'GATES.md', gates: IDS.map((id) => runnable(id, 'fail', { ticked: true })) }]);
    const verified = new Set(IDS.map((id) => `GATES:${id}`));
    const reports = shardReports(ws, 4, { mode: 'approve', verified });
    // Every shard says exit 0: nothing ran, every gate is met and verified where it ran.
    expect(reports.every((r) => r.report.exitCode === 0)).toBe(true);
    const r = merge(ws, reports);
    expect(r.ok && r.report.exitCode).toBe(1);
    if (!r.ok) return;
    const g1 = r.lacking.find((l) => l.qualified === 'GATES:G1')!;
    expect(g1.why).toBe(`shard ${shardOf('GATES:G1', 4)}/4 did not run it (a plain run and --approve re-run only gates whose evidence is not verified on the runner; run the shards with --reverify)`);
    expect(r.report.gates.every((g) => g.state === 'unmet' && g.result?.status === 'not-run')).toBe(true);
  });

  it('shards that re-ran nothing: --reverify --only-stale over met, verified gates', () => {
    const ws = workspace([{ file: 'GATES.md', gates: IDS.map((id) => runnable(id, 'fail', { ticked: true })) }]);
    const reports = shardReports(ws, 2, { mode: 'reverify', onlyStale: true, verified: new Set(IDS.map((id) => `GATES:${id}`)) });
    const r = merge(ws, reports);
    expect(r.ok && r.report.exitCode).toBe(1);
    if (r.ok) expect(r.lacking[0]!.why).toMatch(/did not run it \(--only-stale re-runs only ticked gates whose evidence does not hold; run the shards with --reverify\)$/);
  });

  it('--only-stale leaves unticked gates out', () => {
    const ws = allPass();
    const r = merge(ws, shardReports(ws, 2, { mode: 'reverify', onlyStale: true }));
    expect(r.ok && r.report.exitCode).toBe(1);
  });

  it('an approval the shard did not have, a stale result, a gate not started', () => {
    const ws = allPass([runnable('U', 'unapproved')]);
    const reports = shardReports(ws, 2);
    const r = merge(ws, reports);
    expect(r.ok && r.report.exitCode).toBe(1);
    if (r.ok) expect(r.lacking).toEqual([{ qualified: 'GATES:U', why: `shard ${shardOf('GATES:U', 2)}/2 did not run it: approval required; a CI shard approves with --approve` }]);
    const { index, qualified } = gateOwnedBy(ws, 2, 1);
    const a = roundTrip(reports);
    a[0]!.report.gates[index]!.result!.status = 'stale';
    a[0]!.report.gates[index]!.result!.error = 'DEPENDS changed while it ran';
    const stale = merge(ws, a);
    expect(stale.ok && stale.lacking.find((l) => l.qualified === qualified)?.why).toBe('shard 1/2 has only a stale result (DEPENDS changed while it ran); run it again');
    const b = roundTrip(reports);
    b[0]!.report.gates[index]!.result = { ...b[0]!.report.gates[index]!.result!, status: 'not-run', error: 'not started (--fail-fast)' };
    const notRun = merge(ws, b);
    expect(notRun.ok && notRun.lacking.find((l) => l.qualified === qualified)?.why).toBe('shard 1/2 did not run it: not started (--fail-fast)');
  });

  it('a full --reverify report that has no result for a gate of its own', () => {
    const ws = allPass();
    const reports = shardReports(ws, 2);
    const { index } = gateOwnedBy(ws, 2, 2);
    reports[1]!.report.gates[index]!.result = null;
    const r = merge(ws, reports);
    expect(r.ok && r.report.exitCode).toBe(1);
    if (r.ok) expect(r.lacking[0]!.why).toMatch(/mode reverify re-runs every gate, yet its report has no result for it/);
  });
});

describe('claims the merger never believes', () => {
  it("relabelling, in shard 1's report, a gate that shard 2 failed as a met manual gate is refused", () => {
    const ws = workspace([{ file: 'GATES.md', gates: IDS.map((id) => runnable(id, 'fail')) }]);
    const reports = shardReports(ws, 2);
    const { index, qualified } = gateOwnedBy(ws, 2, 2);
    Object.assign(reports[0]!.report.gates[index]!, { kind: 'manual', definition: null, state: 'met', checked: true });
    expect(refused(ws, reports)).toBe(`report-1.json: gates[${index}].kind: "manual", but the ledger says "runnable" (${qualified})`);
  });

  it('the states, summary and exit code a report claims change nothing', () => {
    const ws = workspace([{ file: 'GATES.md', gates: IDS.map((id) => runnable(id, 'fail')) }]);
    const reports = shardReports(ws, 2);
    for (const { report } of reports) {
      report.exitCode = 0;
      report.summary = { ...report.summary, met: 10, unmet: 0 };
      for (const g of report.gates) Object.assign(g, { state: 'met', checked: true, verification: 'verified' });
    }
    expect(exitOf(ws, reports)).toBe(1);
  });

  it('a report with no gates, against a ledger with gates, is refused', () => {
    const ws = allPass();
    const reports = shardReports(ws, 1);
    reports[0]!.report.gates = [];
    expect(refused(ws, reports)).toBe('report-1.json: gates: lists 0 gate(s), the ledger has 10');
  });

  it('a ledger without gates merges to nothing (refused), even from reports without gates', () => {
    const ws = allPass();
    const reports = shardReports(ws, 1);
    reports[0]!.report.gates = [];
    expect(refused(ws, reports, { ...truthOf(ws), gates: [] })).toMatch(/the ledger has no gates/);
  });

  it('no reports at all', () => {
    expect(refused(allPass(), [])).toBe('no reports to merge');
  });

  it('a duplicated, dropped or reordered gate', () => {
    const ws = allPass();
    const dup = shardReports(ws, 2);
    dup[0]!.report.gates.splice(3, 0, dup[0]!.report.gates[3]!);
    expect(refused(ws, dup)).toMatch(/^report-1\.json: gates: lists 11 gate\(s\), the ledger has 10$/);
    const swapped = shardReports(ws, 2);
    const gs = swapped[1]!.report.gates;
    [gs[0], gs[1]] = [gs[1]!, gs[0]!];
    expect(refused(ws, swapped)).toBe('report-2.json: gates[0].line: 4, but the ledger says 1 (GATES:G0)');
    const dupInPlace = shardReports(ws, 2);
    dupInPlace[0]!.report.gates[1] = dupInPlace[0]!.report.gates[0]!;
    expect(refused(ws, dupInPlace)).toMatch(/^report-1\.json: gates\[1\]\.line: 1, but the ledger says 4/);
  });

  for (const [field, value] of [
    ['file', 'gates/GATES.md'],
    ['id', 'G99'],
    ['qualified', 'GATES:G99'],
    ['title', 'G0 works, trust me'],
    ['definition', 'f'.repeat(64)],
    ['definition', null],
  ] as const) {
    it(`a gate's ${field} that differs from the ledger (${JSON.stringify(value)})`, () => {
      const ws = allPass();
      const reports = shardReports(ws, 2);
      (reports[1]!.report.gates[0] as unknown as Record<string, unknown>)[field] = value;
      expect(refused(ws, reports)).toMatch(new RegExp(`^report-2\\.json: gates\\[0\\]\\.${field}: `));
    });
  }

  for (const [field, value] of [
    ['state', 'met'],
    ['checked', true],
    ['stateReason', 'ticked without evidence'],
  ] as const) {
    it(`a manual gate's ${field} that differs from the ledger`, () => {
      const ws = allPass([manual('M', false)]);
      const reports = shardReports(ws, 2);
      (reports[0]!.report.gates[10] as unknown as Record<string, unknown>)[field] = value;
      expect(refused(ws, reports)).toBe(`report-1.json: gates[10].${field}: ${JSON.stringify(value)}, but the ledger says ${JSON.stringify(truthOf(ws).gates[10]![field])} (GATES:M, a manual gate)`);
    });
  }

  it('a handed-off runnable gate that a report says is not handed off, and the other way round', () => {
    const ws = allPass([runnable('X', 'pass', { abandoned: true })]);
    const a = shardReports(ws, 2);
    a[0]!.report.gates[10]!.state = 'unmet';
    expect(refused(ws, a)).toBe('report-1.json: gates[10].state: "unmet", but the ledger says "abandoned" (GATES:X)');
    const b = shardReports(ws, 2);
    b[1]!.report.gates[0]!.state = 'abandoned';
    expect(refused(ws, b)).toBe('report-2.json: gates[0].state: "abandoned", but the ledger says "unmet" (GATES:G0)');
  });
});

describe('results that no shard could have', () => {
  it('a result for a gate of another shard', () => {
    const ws = allPass();
    const reports = shardReports(ws, 2);
    const mine = gateOwnedBy(ws, 2, 1);
    const theirs = gateOwnedBy(ws, 2, 1, false);
    reports[0]!.report.gates[theirs.index]!.result = { ...reports[0]!.report.gates[mine.index]!.result!, signature: 'a'.repeat(64) };
    expect(refused(ws, reports)).toBe(
      `overlapping shards: report-1.json: gates[${theirs.index}].result: report-1.json (shard 1/2) has a result for ${theirs.qualified}, which belongs to shard 2/2`,
    );
  });

  it('a result on a manual gate, and on a handed-off gate', () => {
    const ws = allPass([manual('M', false), runnable('X', 'pass', { abandoned: true })]);
    const reports = shardReports(ws, 1);
    const pass = reports[0]!.report.gates[0]!.result!;
    const a = roundTrip(reports);
    a[0]!.report.gates[10]!.result = { ...pass, signature: 'b'.repeat(64) };
    expect(refused(ws, a)).toBe('report-1.json: gates[10].result: GATES:M is a manual gate; no run has a result for it');
    const b = roundTrip(reports);
    b[0]!.report.gates[11]!.result = { ...pass, signature: 'b'.repeat(64) };
    expect(refused(ws, b)).toBe('report-1.json: gates[11].result: GATES:X is handed off (ABANDON); no run has a result for it');
  });

  it('a result copied from another gate (the same oracle signature twice)', () => {
    const ws = workspace([{ file: 'GATES.md', gates: [...IDS.map((id) => runnable(id)), runnable('BAD', 'fail')] }]);
    const reports = shardReports(ws, 1);
    const gates = reports[0]!.report.gates;
    gates[10]!.result = { ...gates[0]!.result! };
    expect(refused(ws, reports)).toBe('report-1.json: gates[10].result.signature: the same oracle signature as report-1.json: gates[0] (GATES:G0): a result belongs to one gate (copied from another?)');
    // Across reports too.
    const two = shardReports(ws, 2);
    const theirs = gateOwnedBy(ws, 2, 2);
    const mine = gateOwnedBy(ws, 2, 1);
    two[1]!.report.gates[theirs.index]!.result = { ...two[0]!.report.gates[mine.index]!.result! };
    expect(refused(ws, two)).toMatch(/^report-2\.json: gates\[\d+\]\.result\.signature: the same oracle signature as report-1\.json/);
  });

  const passShape: [string, Record<string, unknown>, RegExp][] = [
    ['a pass with a non-zero exit', { exit: 1 }, /\.result\.exit: a pass with exit 1$/],
    ['a pass with no exit', { exit: null }, /\.result\.exit: a pass with exit null$/],
    ['a pass with an error', { error: 'exit 1' }, /\.result\.error: a pass with an error \("exit 1"\)$/],
    ['a pass without an output digest', { outputSha256: null }, /\.result\.outputSha256: a pass without the digest of its output$/],
    ['a pass without a signature', { signature: null }, /\.result\.signature: a pass without the signature of the oracle that ran$/],
    ['a pass that lists changed fields', { changed: [] }, /\.result\.changed: only an approval request lists changed fields$/],
    // Round-30b F1: passes no real run can make.
    ['a pass past the output cap', { bytes: 5_000_000 }, /\.result\.bytes: a pass with 5000000 bytes of output \(a run fails past 1048576\)$/],
    ['a pass with no byte count', { bytes: null }, /\.result\.bytes: a pass with null bytes of output/],
    ['a pass with no output whose digest is not that of no output', { bytes: 0 }, /\.result\.outputSha256: not the digest of no output, for a pass with 0 bytes$/],
    ['a pass with output whose digest is that of no output', { outputSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }, /\.result\.outputSha256: the digest of no output, for a pass with 12 bytes$/],
    ['a pass with no output where EXPECT needs some', { bytes: 0, outputSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }, /\.result\.bytes: a pass with no output, less than the 5 its EXPECT needs$/],
    ['a pass with less output than its EXPECT (round-31 04)', { bytes: 3 }, /\.result\.bytes: a pass with 3 bytes of output, less than the 5 its EXPECT needs$/],
    ['a pass longer than any timeout', { durationMs: 1e12 }, /\.result\.durationMs: a pass that ran 1000000000000 ms \(longer than any timeout\)$/],
    ['a pass with no duration', { durationMs: null }, /\.result\.durationMs: a pass that ran null ms/],
  ];
  for (const [what, edit, reason] of passShape) {
    it(`refuses ${what}`, () => {
      const ws = allPass();
      const reports = shardReports(ws, 1);
      Object.assign(reports[0]!.report.gates[0]!.result!, edit);
      expect(refused(ws, reports)).toMatch(reason);
    });
  }

  for (const [what, edit, reason] of [
    ['a fail without a reason', { error: null }, /\.result\.error: a fail without a reason$/],
    ['a fail with an empty reason', { error: '' }, /\.result\.error: a fail without a reason$/],
    ['a fail without a signature', { signature: null }, /\.result\.signature: a fail without the signature/],
    ['a fail that lists changed fields', { changed: ['CHECK'] }, /\.result\.changed: only an approval request/],
  ] as [string, Record<string, unknown>, RegExp][]) {
    it(`refuses ${what}`, () => {
      const ws = workspace([{ file: 'GATES.md', gates: [runnable('A', 'fail')] }]);
      const reports = shardReports(ws, 1);
      Object.assign(reports[0]!.report.gates[0]!.result!, edit);
      expect(refused(ws, reports)).toMatch(reason);
    });
  }

  it('a fail turned into a pass by its status alone is refused (its error and exit stay)', () => {
    const ws = workspace([{ file: 'GATES.md', gates: [runnable('A', 'fail')] }]);
    const reports = shardReports(ws, 1);
    reports[0]!.report.gates[0]!.result!.status = 'pass';
    expect(refused(ws, reports)).toMatch(/a pass with exit 1/);
  });
});

describe('reports that do not belong together', () => {
  it('a report that is not a --shard report', () => {
    const ws = allPass();
    const reports = shardReports(ws, 2);
    reports[1]!.report.shard = null;
    expect(refused(ws, reports)).toBe('report-2.json: shard: not a --shard report');
  });

  it('shards of different counts, and the same shard twice', () => {
    const ws = allPass();
    const a = shardReports(ws, 2);
    const b = shardReports(ws, 3);
    expect(refused(ws, [a[0]!, { ...b[1]!, name: 'other.json' }])).toBe('other.json: shard.count: shard 2/3, but the run had 2 shards (--shards)');
    expect(refused(ws, [a[0]!, { ...a[0]!, name: 'copy.json' }])).toBe('overlapping shards: report-1.json and copy.json are both shard 1/2');
  });

  // Round-39y Y2: the count came from the reports: shard 1's report rewritten to say 1/1, with a
  // pass for every gate, merged alone while the other three reports were missing: ALL MET.
  it('the shard count is the workflow\'s, not a report\'s: a report rewritten to 1/1 is refused; a missing shard is named', () => {
    const ws = workspace([{ file: 'GATES.md', gates: [...IDS.map((id) => runnable(id)), runnable('BAD', 'fail')] }]);
    const alone = shardReports(ws, 1)[0]!;
    expect(refused(ws, [{ ...alone, name: 'forged.json' }], undefined, 4)).toBe('forged.json: shard.count: shard 1/1, but the run had 4 shards (--shards)');
    const four = shardReports(ws, 4);
    const r = merge(ws, [four[0]!], undefined, 4);
    expect(r.ok && r.report.exitCode).toBe(1);
    if (r.ok) expect(r.missing).toEqual([2, 3, 4].filter((i) => IDS.concat('BAD').some((id) => shardOf(`GATES:${id}`, 4) === i)));
  });

  it('a report of a status run or of a merge', () => {
    for (const mode of ['status', 'merge'] as const) {
      const ws = allPass();
      const reports = shardReports(ws, 2);
      reports[0]!.report.mode = mode;
      expect(refused(ws, reports)).toMatch(new RegExp(`^report-1\\.json: mode: "${mode}" runs no checks`));
    }
  });

  it('a report of a run that failed (exit 2, or errors)', () => {
    const ws = allPass();
    const a = shardReports(ws, 2);
    a[0]!.report.exitCode = 2;
    expect(refused(ws, a)).toBe('report-1.json: exitCode: the run failed (exit 2)');
    const b = shardReports(ws, 2);
    b[1]!.report.errors = [{ message: 'lock timeout' }];
    expect(refused(ws, b)).toBe('report-2.json: errors: the run failed: lock timeout');
    const c = shardReports(ws, 2);
    c[1]!.report.exitCode = 3;
    expect(refused(ws, c)).toMatch(/^report-2\.json: exitCode: the run failed \(exit 3\)/);
  });

  it('an interrupted shard (exit 130) contributes what finished', () => {
    const ws = allPass();
    const reports = shardReports(ws, 1);
    reports[0]!.report.exitCode = 130;
    expect(exitOf(ws, reports)).toBe(0);
  });

  it('a shard.reran that does not fit the mode', () => {
    for (const [mode, reran] of [
      ['reverify', 'unverified'],
      ['approve', 'all'],
      ['run', 'stale'],
    ] as const) {
      const ws = allPass();
      const reports = shardReports(ws, 2);
      reports[0]!.report.mode = mode;
      reports[0]!.report.shard!.reran = reran;
      expect(refused(ws, reports)).toBe(`report-1.json: shard.reran: "${reran}" does not fit mode "${mode}"`);
    }
  });

  it('another ledger revision, another ledger file, more or fewer ledgers, other files', () => {
    const ws = allPass();
    const edit = (f: (r: Report) => void) => {
      const reports = shardReports(ws, 2);
      f(reports[1]!.report);
      return refused(ws, reports);
    };
    expect(edit((r) => (r.ledgers[0]!.sha256 = 'e'.repeat(64)))).toMatch(/^report-2\.json: ledgers\[0\]\.sha256: made from another revision of GATES\.md \(eeeeeeeeeeee\) than the checkout's \([0-9a-f]{12}\)$/);
    expect(edit((r) => (r.ledgers[0]!.file = 'gates/GATES.md'))).toBe('report-2.json: ledgers[0].file: "gates/GATES.md", but the checkout\'s ledger 1 is "GATES.md"');
    expect(edit((r) => r.ledgers.push({ file: 'gates/x.md', sha256: 'e'.repeat(64) }))).toBe('report-2.json: ledgers: lists 2 ledger(s), the checkout has 1 (GATES.md)');
    expect(edit((r) => (r.ledgers = []))).toBe('report-2.json: ledgers: lists 0 ledger(s), the checkout has 1 (GATES.md)');
    expect(edit((r) => (r.files = ['GATES.md', 'gates/x.md']))).toBe('report-2.json: files: ["GATES.md","gates/x.md"] is not the checkout\'s list of ledgers ["GATES.md"]');
    expect(edit((r) => (r.files = ['other.md']))).toMatch(/^report-2\.json: files: \["other\.md"\]/);
  });

  it('a report that leaves out a ledger of the checkout (a shard run on fewer ledgers)', () => {
    const ws = workspace([
      { file: 'GATES.md', gates: [runnable('A')] },
      { file: 'gates/more.md', gates: [runnable('B', 'fail')] },
    ]);
    const partial = workspace([{ file: 'GATES.md', gates: [runnable('A')] }]);
    expect(refused(ws, shardReports(partial, 1))).toMatch(/^report-1\.json: ledgers: lists 1 ledger\(s\), the checkout has 2/);
  });
});
