import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, githubAnnotations, githubStepSummary } from '../../lib/report/github.js';
import { emptyResult, type GateReport, type Report } from '../../lib/report/model.js';

function gate(id: string, over: Partial<GateReport> = {}): GateReport {
  return { file: 'GATES.md', line: 3, id, qualified: `GATES:${id}`, title: `${id} works`, kind: 'runnable', definition: null, state: 'unmet', stateReason: null, checked: false, verification: null, verificationReason: null, result: { ...emptyResult('fail', 'exit 1'), exit: 1 }, ...over };
}
function report(gates: GateReport[]): Report {
  return { schema: 'gate-check/report@1', mode: 'run', exitCode: 1, root: '/r', files: [], ledgers: [], shard: null, scope: null, waves: [], scopes: [], summary: { total: 0, met: 0, unmet: 0, claimed: 0, abandoned: 0, verified: 0, unverified: 0, mismatched: 0, stale: 0, manual: 0 }, warnings: [], errors: [], gates };
}

describe('workflow command escaping', () => {
  it('escapes %, CR, LF in data, and also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });

  it('annotates a gate whose title has %, :, , and a newline without breaking the command', () => {
    const [line] = githubAnnotations(report([gate('A', { title: '100%: a, b\nnext', file: 'dir,x/G:1.md', qualified: 'G:1:A' })]), false);
    expect(line).toBe('::error file=dir%2Cx/G%3A1.md,line=3,title=G%3A1%3AA::G:1:A: 100%25: a, b next: exit 1');
    expect(line!.split('\n')).toHaveLength(1);
  });

  it('check output cannot start a workflow command: no raw output, controls stripped', () => {
    const lines = githubAnnotations(report([gate('A', { result: { ...emptyResult('fail', 'exit 1\n::set-env name=X::y'), exit: 1 } })]), false);
    for (const l of lines) expect(l.split('\n')).toHaveLength(1);
    expect(lines[0]).not.toMatch(/\n::/);
  });
});

describe('annotation limits', () => {
  it('annotates the first 10 failing gates and sums up the rest in one warning', () => {
    const gates = Array.from({ length: 14 }, (_, i) => gate(`G${i}`));
    const lines = githubAnnotations(report(gates), false);
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    const summary = lines.filter((l) => l.startsWith('::warning title=gate-check::'));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(/4 more gates are not met: GATES:G10, GATES:G11, GATES:G12, GATES:G13/);
  });

  it('warns about hand-offs, and nothing for passed gates', () => {
    const lines = githubAnnotations(report([gate('A', { state: 'abandoned', result: null }), gate('B', { state: 'met', result: { ...emptyResult('pass', null), exit: 0 } })]), false);
    expect(lines).toEqual(['::warning file=GATES.md,line=3,title=GATES%3AA::GATES:A is handed off (ABANDON): a person must take it over']);
  });
});

describe('step summary', () => {
  it('is a Markdown table with escaped cells, capped well under 1 MiB', () => {
    const md = githubStepSummary(report([gate('A', { title: 'a | b <script>' })]), false);
    expect(md).toContain('| GATES\\:A | a \\| b \\<script\\> | failed\\: exit 1 |');
    const big = githubStepSummary(report(Array.from({ length: 20000 }, (_, i) => gate(`G${i}`, { title: 'x'.repeat(200) }))), false);
    expect(Buffer.byteLength(big)).toBeLessThan(300 * 1024);
    expect(big).toMatch(/more gates not shown/);
  });

  // Round-39u U3: 2,000 ticked manual gates ahead of one failing gate filled the capped table,
  // and the failure was among the gates "not shown"; the manual ones read "passed".
  it('lists what decides the verdict first, so the cap drops passes; a ticked manual gate reads as a person\'s evidence', () => {
    const met = (id: string) => gate(id, { kind: 'manual', state: 'met', checked: true, result: null, title: 'x'.repeat(200) });
    const gates = [...Array.from({ length: 3000 }, (_, i) => met(`M${i}`)), gate('Z', { title: 'the audit passes' }), gate('W', { result: { ...emptyResult('approval-required', 'approval required'), exit: null } })];
    const md = githubStepSummary(report(gates), false);
    const rows = md.split('\n').filter((l) => l.startsWith('| GATES'));
    expect(rows[0]).toBe('| GATES\\:Z | the audit passes | failed\\: exit 1 |');
    expect(rows[1]).toMatch(/^\| GATES\\:W \| W works \| skipped\\: approval required \|$/);
    expect(rows[2]).toMatch(/^\| GATES\\:M0 \| x+ \| met \(manual: a person's evidence\) \|$/);
    expect(md).toMatch(/\(\d+ more gates not shown\)/);
  });

  // Round-39v V6: an unmet scope gate failed the run, and no row, annotation or case named it.
  it('an open scope is a failed row above the gates, and an error annotation', () => {
    const r: Report = { ...report([gate('G2', { result: { ...emptyResult('pass', null), exit: 0 }, state: 'met', checked: true })]), scopes: [{ scope: 'api', files: [], exitCode: 1, summary: report([]).summary, unmet: ['work:A1'], handoff: [], waves: [] }] };
    const rows = githubStepSummary(r, false).split('\n').filter((l) => l.startsWith('| '));
    expect(rows[2]).toBe('| scope api | | failed\\: not met\\: work\\:A1 |');
    expect(githubAnnotations(r, false)).toEqual(['::error title=gate-check::scope api is not met: work:A1']);
  });
});

describe('a shard report answers only for its own gates', () => {
  it('annotates and lists only the gates it ran, and says so in the summary title', () => {
    const mine = gate('A', { result: { ...emptyResult('pass', null), exit: 0 }, state: 'met', checked: true });
    const theirs = gate('B', { result: null, state: 'unmet' });
    const r: Report = { ...report([mine, theirs]), shard: { index: 1, count: 2, reran: 'all' }, mode: 'reverify', exitCode: 0 };
    expect(githubAnnotations(r, false)).toEqual([]);
    const summary = githubStepSummary(r, false);
    expect(summary).toMatch(/^### gate-check: shard 1\/2: its 1 gates met \(reverify\)$/m);
    expect(summary).toMatch(/GATES\\:A/);
    expect(summary).not.toMatch(/GATES\\:B/);
    expect(summary).toMatch(/the verdict for all of them is the merged report/);
    // The same gates in an unsharded report are all listed, and B is an error.
    const whole: Report = { ...r, shard: null, exitCode: 1 };
    expect(githubAnnotations(whole, false).some((a) => a.includes('GATES:B'))).toBe(true);
    expect(githubStepSummary(whole, false)).toMatch(/GATES\\:B/);
  });
});
