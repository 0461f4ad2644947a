// CI output through the real CLI: --junit, GitHub annotations and step summary, shards and merge.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { assertReportSchema } from '../helpers/schema.js';

const gate = (id: string, check: string, expect: string) => `- [ ] ${id}: ${id} works\n  CHECK: ${check}\n  EXPECT: ${expect}\n`;

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return { ...s, run: (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: s.repo, env: { ...s.env, ...env } }) };
}

describe('--junit', () => {
  it('writes a valid JUnit file for a run and for a status, atomically', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') + gate('B', 'exit 1', 'x') + '- [ ] M: manual\n' });
    const r = s.run(['--approve']);
    expect(r.code).toBe(1);
    mkdirSync(join(s.repo, 'out'));
    s.run(['--reverify', '--junit', 'out/junit.xml']);
    const xml = readFileSync(join(s.repo, 'out/junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    // B failed, and the open manual gate M makes the verdict unmet too (round-39w W3).
    expect(doc.testsuites).toMatchObject({ tests: '3', failures: '2', skipped: '0' });
    s.run(['--status', '--strict', '--junit', 'out/status.xml']);
    expect(XMLValidator.validate(readFileSync(join(s.repo, 'out/status.xml'), 'utf8'))).toBe(true);
  });

  it('a JUnit file whose folder is missing stops a run before any check runs (exit 2; round-31b F9)', () => {
    const s = repo({ 'GATES.md': gate('A', 'touch ran && echo ok', 'ok') });
    const r = s.run(['--approve', '--junit', 'test-results/gates.xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--junit .*test-results\/gates\.xml: its folder .*test-results does not exist; nothing was run/);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });

  it('refuses to write through a symlink (exit 2), leaving its target alone', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    const target = join(s.home, 'precious.txt');
    writeFileSync(target, 'keep');
    symlinkSync(target, join(s.repo, 'junit.xml'));
    const r = s.run(['--status', '--junit', 'junit.xml']);
    expect(r.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });
});

describe('GitHub Actions', () => {
  it('annotates failing gates on stdout and appends a step summary', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') + gate('B', 'echo no; exit 1', 'ok') });
    const summary = join(s.home, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = s.run(['--approve'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=GATES\.md,line=4,title=GATES%3AB::GATES:B: B works: exit 1$/m);
    expect(r.stdout.match(/^::error /gm)).toHaveLength(1);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md).toContain('| GATES\\:B | B works | failed\\: exit 1 |');
  });

  it('with --json, stdout stays one JSON document and annotations go to stderr', () => {
    const s = repo({ 'GATES.md': gate('B', 'exit 1', 'ok') });
    const r = s.run(['--approve', '--json'], { GITHUB_ACTIONS: 'true' });
    assertReportSchema(JSON.parse(r.stdout));
    expect(r.stderr).toMatch(/^::error file=GATES\.md/m);
  });

  it('check output cannot inject a workflow command', () => {
    const s = repo({ 'GATES.md': gate('B', "printf '::error::injected\\n::set-output name=x::y\\n'; exit 1", 'ok') });
    const r = s.run(['--approve'], { GITHUB_ACTIONS: 'true' });
    expect(r.stdout).not.toMatch(/^::(error|set-output)::/m);
    expect(r.stdout).toMatch(/^ {2}\| ::error::injected$/m);
  });

  it('refuses a step summary path that is a symlink (exit 2), leaving its target alone', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    const target = join(s.home, 'precious.md');
    writeFileSync(target, 'keep');
    symlinkSync(target, join(s.home, 'summary.md'));
    const r = s.run(['--status'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(s.home, 'summary.md') });
    expect(r.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });

  it('no annotations outside GitHub Actions', () => {
    const s = repo({ 'GATES.md': gate('B', 'exit 1', 'ok') });
    expect(s.run(['--approve']).stdout).not.toMatch(/::error/);
  });
});

describe('shards and merge', () => {
  const ids = Array.from({ length: 12 }, (_, i) => `G${i}`);
  const ledger = ids.map((id) => gate(id, `echo ok-${id}`, `ok-${id}`)).join('') + '- [ ] M: manual\n';

  /** Each shard on its own checkout of the same commit, as in a CI matrix; merge runs in another checkout. */
  function shardRuns(count: number, ledgerText = ledger, runArgs = ['--reverify', '--approve']) {
    const s = sandbox();
    const base = tempDir('gc-matrix-');
    const reports: string[] = [];
    for (let i = 1; i <= count; i++) {
      const checkout = join(base, `shard-${i}`);
      mkdirSync(checkout);
      writeFileSync(join(checkout, 'GATES.md'), ledgerText);
      const r = runCli([...runArgs, '--shard', `${i}/${count}`, '--json'], { cwd: checkout, env: s.env });
      expect([0, 1]).toContain(r.code);
      const file = join(base, `report-${i}.json`);
      writeFileSync(file, r.stdout);
      reports.push(file);
    }
    const checkout = join(base, 'merge');
    mkdirSync(checkout);
    writeFileSync(join(checkout, 'GATES.md'), ledgerText);
    return { base, checkout, reports, env: s.env, merge: (args: string[]) => runCli(['merge', '--shards', String(count), ...args], { cwd: checkout, env: s.env }) };
  }
  const edit = (file: string, f: (doc: any) => void) => {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    f(doc);
    writeFileSync(file, JSON.stringify(doc));
  };

  // Round-38b F2: a met gate of another shard was a passing testcase in this shard's JUnit,
  // while the shard that owns it failed it: a report view showed it passed and failed.
  it("a shard's JUnit skips the gates it did not run, even ticked ones", () => {
    const s = repo({ 'GATES.md': ids.map((id) => gate(id, `test -f ok-${id} && echo ok-${id}`, `ok-${id}`)).join('') });
    for (const id of ids) writeFileSync(join(s.repo, `ok-${id}`), '');
    expect(s.run(['--approve']).code).toBe(0);
    for (const id of ids) writeFileSync(join(s.repo, `ok-${id}`), ''); // unchanged: all met
    const parse = (file: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(join(s.repo, file), 'utf8'));
    const cases = (doc: any) => [doc.testsuites.testsuite.testcase].flat() as any[];
    for (const i of [1, 2]) {
      const r = s.run(['--reverify', '--shard', `${i}/2`, '--junit', `j${i}.xml`, '--json']);
      expect(r.code).toBe(0);
      const ran = new Set(JSON.parse(r.stdout).gates.filter((g: any) => g.result !== null).map((g: any) => g.id));
      const doc = parse(`j${i}.xml`);
      expect(doc.testsuites).toMatchObject({ tests: '12', failures: '0', skipped: String(12 - ran.size) });
      for (const c of cases(doc)) {
        const id = String(c.name).split(':')[0];
        if (ran.has(id)) expect(c.skipped).toBeUndefined();
        else expect(c.skipped.message).toMatch(/^not run by this shard .*the merged report gives its verdict$/);
      }
    }
  });

  it('merges shard reports into one verdict and JUnit', () => {
    const { checkout, reports, merge } = shardRuns(3);
    const r = merge([...reports, '--junit', 'junit.xml', '--json']);
    const doc = JSON.parse(r.stdout);
    assertReportSchema(doc);
    expect(doc.mode).toBe('merge');
    expect(doc.gates.filter((g: { result: { status: string } | null }) => g.result?.status === 'pass')).toHaveLength(12);
    expect(r.code).toBe(1); // the manual gate is still open
    expect(XMLValidator.validate(readFileSync(join(checkout, 'junit.xml'), 'utf8'))).toBe(true);
    const human = merge(reports);
    expect(human.stdout).toMatch(/^UNMET: GATES:M$/m);
    for (const report of reports) assertReportSchema(JSON.parse(readFileSync(report, 'utf8')));
    expect(JSON.parse(readFileSync(reports[0]!, 'utf8')).shard).toEqual({ index: 1, count: 3, reran: 'all' });
  });

  it('a shard whose share passed never says ALL MET: it names its share (integrity attack F9)', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo yes', 'yes') + gate('B', 'echo no; exit 1', 'yes') + '- [ ] C: manual sign-off\n' });
    const one = s.run(['--approve', '--shard', '1/3']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^SHARD 1\/3 MET \(1 met\): its share only; merge every shard's report for the verdict \(gate-check merge\)$/m);
    expect(one.stdout).not.toMatch(/ALL MET/);
    const empty = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => [k, s.run(['--approve', '--shard', `${k}/8`])] as const).find(([, r]) => r.stdout.includes('has no gates'))!;
    expect(empty[1].stdout).toMatch(new RegExp(`^shard ${empty[0]}/8 has no gates; nothing to run\\nSHARD ${empty[0]}/8 MET \\(0 met\\): its share only`, 'm'));
    expect(s.run(['--status']).code).toBe(1);
  });

  it('exits 0 when every gate passed in the shard that owns it; --root names the checkout', () => {
    const all = ids.map((id) => gate(id, `echo ok-${id}`, `ok-${id}`)).join('');
    const { base, checkout, reports, env } = shardRuns(2, all);
    expect(runCli(['merge', '--shards', '2', ...reports, '--root', checkout], { cwd: base, env }).code).toBe(0);
  });

  it('reads the ledger from the checkout it runs in: none there, or another revision, is exit 2', () => {
    const { base, checkout, reports, env, merge } = shardRuns(2);
    const none = runCli(['merge', '--shards', '2', ...reports], { cwd: base, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no ledger found/);
    writeFileSync(join(checkout, 'GATES.md'), ledger.replace('G0 works', 'G0 still works'));
    const other = merge(reports);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/report-1\.json: ledgers\[0\]\.sha256: made from another revision of GATES\.md/);
    // Shards run in this checkout rewrite its ledger: the hint says so (round-38b F7).
    expect(other.stderr).toMatch(/^hint: .*if the shards ran in this checkout, their runs wrote evidence into the ledger since: merge in a checkout of the commit as it was/m);
  });

  it('refuses overlapping shards and reports from different ledger revisions (exit 2)', () => {
    const { reports, merge } = shardRuns(2);
    const dup = merge([reports[0]!, reports[0]!]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/overlapping shards/);
    const other = shardRuns(2, ledger.replace('G0 works', 'G0 still works'));
    const mixed = merge([reports[0]!, other.reports[1]!]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/report-2\.json: ledgers\[0\]\.sha256: made from another revision/);
  });

  it('a pass with no output merges only where EXPECT is met by no output (round-30b F1)', () => {
    const quiet = `${gate('Q', 'true', '/^$/')}${gate('P', 'echo present', 'present')}`;
    const { reports, merge } = shardRuns(1, quiet);
    expect(merge(reports).code).toBe(0);
    edit(reports[0]!, (doc) => {
      const p = doc.gates.find((g: { id: string }) => g.id === 'P');
      Object.assign(p.result, { bytes: 0, outputSha256: doc.gates.find((g: { id: string }) => g.id === 'Q').result.outputSha256 });
    });
    const forged = merge(reports);
    expect(forged.code).toBe(2);
    expect(forged.stderr).toMatch(/gates\[1\]\.result\.bytes: a pass with no output, less than the 7 its EXPECT needs/);
  });

  it('a pass with no output for a regex EXPECT that needs some does not merge', () => {
    const { reports, merge } = shardRuns(1, `${gate('Q', 'true', '/^$/')}${gate('R', 'echo present', '/pres+ent/')}`);
    expect(merge(reports).code).toBe(0);
    edit(reports[0]!, (doc) => Object.assign(doc.gates[1].result, { bytes: 0, outputSha256: doc.gates[0].result.outputSha256 }));
    const forged = merge(reports);
    expect(forged.code).toBe(2);
    expect(forged.stderr).toMatch(/gates\[1\]\.result\.bytes: a pass with no output, which its EXPECT does not match/);
  });

  it('a pass with fewer bytes than the UTF-8 of its EXPECT does not merge (round-32 F6)', () => {
    const { reports, merge } = shardRuns(1, gate('U', 'echo éééééééééé', 'éééééééééé'));
    expect(merge(reports).code).toBe(0);
    edit(reports[0]!, (doc) => (doc.gates[0].result.bytes = 10));
    const forged = merge(reports);
    expect(forged.code).toBe(2);
    expect(forged.stderr).toMatch(/a pass with 10 bytes of output, less than the 20 its EXPECT needs/);
  });

  it("a pass that ran longer than its gate's TIMEOUT does not merge (round-31 04)", () => {
    const timed = `${gate('T', 'echo fast', 'fast')}  TIMEOUT: 1\n`;
    const { reports, merge } = shardRuns(1, timed);
    expect(merge(reports).code).toBe(0);
    edit(reports[0]!, (doc) => (doc.gates[0].result.durationMs = 3_600_000));
    const forged = merge(reports);
    expect(forged.code).toBe(2);
    expect(forged.stderr).toMatch(/gates\[0\]\.result\.durationMs: a pass that ran 3600000 ms \(longer than its TIMEOUT\)/);
    // Past its TIMEOUT and 2 s of slack for the clock (round-35 F2); within it, a pass.
    edit(reports[0]!, (doc) => (doc.gates[0].result.durationMs = 3_001));
    expect(merge(reports).code).toBe(2);
    edit(reports[0]!, (doc) => (doc.gates[0].result.durationMs = 3_000));
    expect(merge(reports).code).toBe(0);
  });

  it('refuses a report with a result for a gate of another shard (exit 2)', () => {
    const { reports, merge } = shardRuns(2);
    edit(reports[0]!, (doc) => {
      const mine = doc.gates.find((g: { result: unknown }) => g.result !== null);
      const theirs = doc.gates.find((g: { result: unknown; kind: string }) => g.result === null && g.kind === 'runnable');
      theirs.result = { ...mine.result, signature: 'a'.repeat(64) };
    });
    const r = merge(reports);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/overlapping shards/);
  });

  it("refuses a gate that shard 2 failed, relabelled in shard 1's report as a met manual gate (exit 2)", () => {
    const failing = ids.map((id) => gate(id, 'exit 1', 'ok')).join('');
    const { reports, merge } = shardRuns(2, failing);
    expect(merge(reports).code).toBe(1);
    let relabelled = '';
    edit(reports[0]!, (doc) => {
      const g = doc.gates.find((x: { result: unknown }) => x.result === null);
      relabelled = g.qualified;
      Object.assign(g, { kind: 'manual', definition: null, state: 'met', checked: true, stateReason: null });
    });
    const r = merge(reports);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`report-1.json: gates[${ids.indexOf(relabelled.slice(6))}].kind: "manual", but the ledger says "runnable" (${relabelled})`);
  });

  it('shards that re-ran nothing (--approve over met gates, --reverify --only-stale) do not merge to ALL MET while the checks fail', () => {
    const s = sandbox();
    const base = tempDir('gc-matrix-');
    const checkouts = [1, 2].map((i) => join(base, `shard-${i}`));
    const flag = join(base, 'broken');
    const checks = ids.map((id) => gate(id, `test ! -e ${flag} && echo ok-${id}`, `ok-${id}`)).join('');
    for (const c of checkouts) {
      mkdirSync(c);
      writeFileSync(join(c, 'GATES.md'), checks);
      // Each runner passed once (evidence and receipts there), then the code broke.
      expect(runCli(['--approve'], { cwd: c, env: s.env }).code).toBe(0);
    }
    writeFileSync(flag, '');
    const ticked = readFileSync(join(checkouts[0]!, 'GATES.md'), 'utf8');
    const mergeDir = join(base, 'merge');
    mkdirSync(mergeDir);
    writeFileSync(join(mergeDir, 'GATES.md'), ticked);
    for (const [runArgs, why] of [
      [['--approve'], /did not run it \(a plain run and --approve re-run only gates whose evidence is not verified on the runner; run the shards with --reverify\)/],
      [['--reverify', '--only-stale'], /did not run it \(--only-stale re-runs only ticked gates whose evidence does not hold; run the shards with --reverify\)/],
    ] as const) {
      const reports = checkouts.map((c, i) => {
        const r = runCli([...runArgs, '--shard', `${i + 1}/2`, '--json'], { cwd: c, env: s.env });
        expect(r.code).toBe(0); // nothing ran, every gate met and verified on its runner
        const file = join(base, `report-${i + 1}.json`);
        writeFileSync(file, r.stdout);
        return file;
      });
      const r = runCli(['merge', '--shards', '2', ...reports], { cwd: mergeDir, env: s.env });
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/ALL MET/);
      expect(r.stdout).toMatch(new RegExp(`^NO RESULT GATES:G1: shard \\d/2 ${why.source}$`, 'm'));
      expect(r.stdout).toMatch(/^UNMET: /m);
    }
    // A full re-run is the answer: it fails, and merge says so.
    const reports = checkouts.map((c, i) => {
      const file = join(base, `full-${i + 1}.json`);
      writeFileSync(file, runCli(['--reverify', '--approve', '--shard', `${i + 1}/2`, '--json'], { cwd: c, env: s.env }).stdout);
      return file;
    });
    const full = runCli(['merge', '--shards', '2', ...reports], { cwd: mergeDir, env: s.env });
    expect(full.code).toBe(1);
    expect(full.stdout).toMatch(/^FAIL GATES:G0/m);
  });

  it('a report with no gates, and an exit code or summary that lies, change nothing', () => {
    const failing = ids.map((id) => gate(id, 'exit 1', 'ok')).join('');
    const { reports, merge } = shardRuns(2, failing);
    for (const f of reports) {
      edit(f, (doc) => {
        doc.exitCode = 0;
        doc.summary = { ...doc.summary, met: 12, unmet: 0 };
      });
    }
    expect(merge(reports).code).toBe(1);
    edit(reports[1]!, (doc) => (doc.gates = []));
    const empty = merge(reports);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/report-2\.json: gates: lists 0 gate\(s\), the ledger has 12/);
  });

  it('refuses a shard count of 0 or 1001, an index above the count, and a report of a status run (exit 2)', () => {
    const { reports, merge } = shardRuns(1);
    for (const [f, why] of [
      [(d: any) => (d.shard.count = 0), /shard\.count: less than 1/],
      [(d: any) => (d.shard.count = 1001), /shard\.count: more than 1000/],
      [(d: any) => (d.shard.index = 2), /shard\.index: 2 is more than shard\.count 1/],
      [(d: any) => (d.mode = 'status'), /mode: "status" runs no checks/],
    ] as const) {
      const copy = join(dirname(reports[0]!), 'edited.json');
      writeFileSync(copy, readFileSync(reports[0]!));
      edit(copy, f);
      const r = merge([copy]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(why);
    }
  });

  it('a missing shard report leaves its gates without a result (exit 1), naming them', () => {
    const { checkout, reports, merge } = shardRuns(3);
    const r = merge([reports[0]!, reports[2]!, '--junit', 'gates.xml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/missing shard reports: 2\/3/);
    expect(r.stdout).toMatch(/^NO RESULT GATES:G\d+: shard 2\/3: its report is missing/m);
    // In the JUnit of a merge those gates fail: nothing verified them (and so does the open manual gate M).
    const lacking = r.stdout.match(/^NO RESULT /gm)!.length;
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(join(checkout, 'gates.xml'), 'utf8'));
    expect(Number(junit.testsuites.failures)).toBe(lacking + 1);
  });

  it('refuses a file that is not a gate-check report (exit 2)', () => {
    const base = tempDir();
    writeFileSync(join(base, 'GATES.md'), gate('A', 'echo ok', 'ok'));
    writeFileSync(join(base, 'x.json'), JSON.stringify({ schema: 'gate-check/report@1', __proto__: {} }));
    writeFileSync(join(base, 'y.json'), '{"schema":"gate-check/report@1","mode":"run","extra":1}');
    for (const f of ['x.json', 'y.json']) {
      const r = runCli(['merge', '--shards', '1', f], { cwd: base });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`${f}: not a gate-check report: report: unexpected or missing fields`));
    }
  });

  it('a shard with no gates exits 0 with a note', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    const empty = [1, 2, 3, 4, 5, 6, 7, 8].find((i) => !JSON.parse(s.run(['--shard', `${i}/8`, '--json']).stdout).gates.some((g: { result: unknown }) => g.result !== null));
    const r = s.run(['--shard', `${empty}/8`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/has no gates; nothing to run/);
  });
});
