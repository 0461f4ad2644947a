import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../lib/report/junit.js';
import { emptyResult, type GateReport, type Report } from '../../lib/report/model.js';

function gate(id: string, over: Partial<GateReport> = {}): GateReport {
  return { file: 'GATES.md', line: 1, id, qualified: `GATES:${id}`, title: `${id} works`, kind: 'runnable', definition: null, state: 'unmet', stateReason: null, checked: false, verification: null, verificationReason: null, result: null, ...over };
}

function report(gates: GateReport[], mode: Report['mode'] = 'run'): Report {
  return { schema: 'gate-check/report@1', mode, exitCode: 1, root: '/r', files: [], ledgers: [], shard: null, scope: null, waves: [], scopes: [], summary: { total: 0, met: 0, unmet: 0, claimed: 0, abandoned: 0, verified: 0, unverified: 0, mismatched: 0, stale: 0, manual: 0 }, warnings: [], errors: [], gates };
}

const pass = { ...emptyResult('pass', null), exit: 0, durationMs: 1500 };
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase'].includes(n) });

describe('renderJunit', () => {
  it('one testsuite per ledger, one testcase per gate, failures and skips counted', () => {
    const xml = renderJunit(
      report([
        gate('A', { state: 'met', checked: true, result: pass }),
        gate('B', { result: { ...emptyResult('fail', 'exit 1'), exit: 1 } }),
        gate('C', { result: emptyResult('approval-required', 'approval required') }),
        gate('M', { kind: 'manual' }),
        gate('X', { state: 'abandoned' }),
        gate('Z', { file: 'gates/other.md', qualified: 'other:Z', result: pass, state: 'met' }),
      ]),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml);
    expect(doc.testsuites).toMatchObject({ tests: '6', failures: '3', skipped: '1', errors: '0' });
    const [s1, s2] = doc.testsuites.testsuite;
    expect(s1).toMatchObject({ name: 'GATES.md', tests: '5', failures: '3', skipped: '1' });
    expect(s2).toMatchObject({ name: 'gates/other.md', tests: '1' });
    expect(s1.testcase[0]).toMatchObject({ classname: 'GATES', name: 'A: A works', time: '1.500' });
    expect(s1.testcase[1].failure.message).toBe('exit 1');
    // Awaiting approval fails the run: a failure, as in the annotations (round-35 F3).
    expect(s1.testcase[2].failure.message).toBe('approval required');
    // An open manual gate makes the verdict UNMET: a failure too (round-39w W3).
    expect(s1.testcase[3].failure.message).toBe('manual gate, unmet: the box is not ticked: a person ticks it and writes its EVIDENCE');
    expect(s1.testcase[4].skipped.message).toMatch(/abandoned/);
  });

  it('keeps a title with ESC, other controls, ]]> and markup valid XML', () => {
    const nasty = 'evil\u001b[31m red ]]> <b>&"\'\u0000\u0008\u000b\ufffe end';
    const xml = renderJunit(report([gate('A', { title: nasty, result: { ...emptyResult('fail', `boom ${nasty}`), exit: 1 } })]));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    const tc = parser.parse(xml).testsuites.testsuite[0].testcase[0];
    expect(tc.name).toContain('red ]]> <b>&"\'');
    expect(tc.name).not.toContain('\u001b');
  });

  it('a status report fails open runnable gates (nothing attempted) and open manual ones', () => {
    const xml = renderJunit(report([gate('A'), gate('M', { kind: 'manual' }), gate('C', { kind: 'manual', state: 'claimed', checked: true })], 'status'));
    const s = parser.parse(xml).testsuites.testsuite[0];
    expect(s.testcase[0].failure.message).toMatch(/unmet/);
    expect(s.testcase[1].failure.message).toMatch(/^manual gate, unmet/);
    expect(s.testcase[2].failure.message).toMatch(/^manual gate, claimed: ticked without evidence/);
  });

  // Round-39u U3: a ticked manual gate was a passing test case, against references/ci.md.
  it('a ticked manual gate is skipped, saying its evidence is a person\'s word', () => {
    const xml = renderJunit(report([gate('M', { kind: 'manual', state: 'met', checked: true, result: null })], 'status'));
    const s = parser.parse(xml).testsuites.testsuite[0];
    expect(s.testcase[0].skipped.message).toBe("manual gate, met: its evidence is a person's word, which gate-check does not check");
    expect(xml).toMatch(/skipped="1"/);
  });

  it('a merged verdict fails a runnable gate that no shard ran (a run only skips one left for another gate or an interrupt)', () => {
    const lacking = gate('A', { result: emptyResult('not-run', 'shard 2/4: its report is missing') });
    const merged = parser.parse(renderJunit(report([lacking], 'merge'))).testsuites.testsuite[0];
    expect(merged.testcase[0].failure.message).toBe('shard 2/4: its report is missing');
    for (const why of ['not started (--fail-fast)', 'interrupted before it finished']) {
      const run = parser.parse(renderJunit(report([gate('A', { result: emptyResult('not-run', why) })], 'run'))).testsuites.testsuite[0];
      expect(run.testcase[0].skipped.message).toBe(why);
    }
  });

  // Round-39v V6: a gate made not runnable (its CWD renamed away) was a skip, so a report view
  // read "0 failed"; and an unmet scope gate failed the run with no case at all.
  it('a gate not run for a reason of its own fails; so does each open scope and wave', () => {
    const notRunnable = gate('A', { result: emptyResult('not-run', 'not runnable yet: CWD api does not exist') });
    const xml = renderJunit({ ...report([notRunnable], 'reverify'), scopes: [{ scope: 'api', files: ['.gate-check/api/work.md'], exitCode: 1, summary: report([]).summary, unmet: ['work:A1'], handoff: [], waves: [] }] });
    const suites = parser.parse(xml).testsuites.testsuite;
    expect(suites[0].testcase[0].failure.message).toBe('not runnable yet: CWD api does not exist');
    expect(suites[1].name).toBe('scopes and waves');
    expect(suites[1].testcase[0]).toMatchObject({ name: 'scope api', failure: { message: 'not met: work:A1' } });
    expect(xml).toMatch(/<testsuites name="gate-check" tests="2" failures="2"/);
  });

  it('never carries check output: only gate-check\'s own messages', () => {
    const xml = renderJunit(report([gate('A', { result: { ...emptyResult('fail', 'EXPECT not found in the output (5 bytes)'), exit: 0 } })]));
    expect(xml).toMatch(/EXPECT not found/);
  });
});
