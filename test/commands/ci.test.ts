// CI output through the real CLI: --junit, GitHub annotations and step summary, shards and merge.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(doc.testsuites).toMatchObject({ tests: '3', failures: '1', skipped: '1' });
    s.run(['--status', '--strict', '--junit', 'out/status.xml']);
    expect(XMLValidator.validate(readFileSync(join(s.repo, 'out/status.xml'), 'utf8'))).toBe(true);
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
    expect(md).toMatch(/\| GATES:B \| B works \| failed: exit 1 \|/);
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

  /** Each shard on its own checkout of the same commit, as in a CI matrix. */
  function shardRuns(count: number, ledgerText = ledger) {
    const s = sandbox();
    const base = tempDir('gc-matrix-');
    const reports: string[] = [];
    for (let i = 1; i <= count; i++) {
      const checkout = join(base, `shard-${i}`);
      mkdirSync(checkout);
      writeFileSync(join(checkout, 'GATES.md'), ledgerText);
      const r = runCli(['--reverify', '--approve', '--shard', `${i}/${count}`, '--json'], { cwd: checkout, env: s.env });
      expect([0, 1]).toContain(r.code);
      const file = join(base, `report-${i}.json`);
      writeFileSync(file, r.stdout);
      reports.push(file);
    }
    return { base, reports, env: s.env };
  }

  it('merges shard reports into one verdict and JUnit', () => {
    const { base, reports, env } = shardRuns(3);
    const r = runCli(['merge', ...reports, '--junit', join(base, 'junit.xml'), '--json'], { cwd: base, env });
    const doc = JSON.parse(r.stdout);
    assertReportSchema(doc);
    expect(doc.mode).toBe('merge');
    expect(doc.gates.filter((g: { result: { status: string } | null }) => g.result?.status === 'pass')).toHaveLength(12);
    expect(r.code).toBe(1); // the manual gate is still open
    expect(XMLValidator.validate(readFileSync(join(base, 'junit.xml'), 'utf8'))).toBe(true);
    const human = runCli(['merge', ...reports], { cwd: base, env });
    expect(human.stdout).toMatch(/^UNMET: GATES:M$/m);
  });

  it('exits 0 when every gate passed in some shard', () => {
    const all = ids.map((id) => gate(id, `echo ok-${id}`, `ok-${id}`)).join('');
    const { base, reports, env } = shardRuns(2, all);
    expect(runCli(['merge', ...reports], { cwd: base, env }).code).toBe(0);
  });

  it('refuses overlapping shards and reports from different ledger revisions (exit 2)', () => {
    const { base, reports, env } = shardRuns(2);
    const dup = runCli(['merge', reports[0]!, reports[0]!], { cwd: base, env });
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/overlapping shards/);
    const other = shardRuns(2, ledger.replace('G0 works', 'G0 still works'));
    const mixed = runCli(['merge', reports[0]!, other.reports[1]!], { cwd: base, env });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/different ledger revision/);
  });

  it('refuses a report with a result for a gate of another shard (exit 2)', () => {
    const { base, reports, env } = shardRuns(2);
    const doc = JSON.parse(readFileSync(reports[0]!, 'utf8'));
    const mine = doc.gates.find((g: { result: unknown }) => g.result !== null);
    const theirs = doc.gates.find((g: { result: unknown; kind: string }) => g.result === null && g.kind === 'runnable');
    theirs.result = mine.result;
    writeFileSync(reports[0]!, JSON.stringify(doc));
    const r = runCli(['merge', ...reports], { cwd: base, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/overlapping shards/);
  });

  it('a missing shard report leaves its gates not run (exit 1)', () => {
    const { base, reports, env } = shardRuns(3);
    const r = runCli(['merge', reports[0]!, reports[2]!], { cwd: base, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/missing shard reports: 2\/3/);
  });

  it('refuses a file that is not a gate-check report (exit 2)', () => {
    const base = tempDir();
    writeFileSync(join(base, 'x.json'), JSON.stringify({ schema: 'gate-check/report@1', __proto__: {} }));
    writeFileSync(join(base, 'y.json'), '{"schema":"gate-check/report@1","mode":"run","extra":1}');
    for (const f of ['x.json', 'y.json']) expect(runCli(['merge', f], { cwd: base }).code).toBe(2);
  });

  it('a shard with no gates exits 0 with a note', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    const empty = [1, 2, 3, 4, 5, 6, 7, 8].find((i) => !JSON.parse(s.run(['--shard', `${i}/8`, '--json']).stdout).gates.some((g: { result: unknown }) => g.result !== null));
    const r = s.run(['--shard', `${empty}/8`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/has no gates; nothing to run/);
  });
});
