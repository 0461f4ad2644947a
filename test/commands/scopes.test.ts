// Scopes that cannot be overlooked (issue 12 §1): which ledgers a command uses (--scope, then
// GATE_CHECK_SCOPE, then the root ledgers, then the only scope; several: refused, naming them),
// --list-scopes, and a tree-wide verdict that never says ALL MET while a scope is unmet, in
// --status, its JSON (validated against the schema), runs, --approve and --reverify.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../lib/report/parse-report.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { handWrittenMet } from '../helpers/ledger.js';
import { assertReportSchema } from '../helpers/schema.js';

const MET = '- [x] M: done\n  EVIDENCE: reviewed\n';
const OPEN = '- [ ] L1: leaf work\n';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return { ...s, run: (args: string[], env = s.env) => runCli(args, { cwd: s.repo, env }) };
}

describe('choosing ledgers', () => {
  it('--scope, then GATE_CHECK_SCOPE, then the root ledgers', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/a/x.md': OPEN, '.gate-check/b/y.md': MET });
    expect(s.run(['--status', '--scope', 'b']).stdout).toBe('ALL MET (1 met)\n');
    const env = { ...s.env, GATE_CHECK_SCOPE: 'a' };
    const viaEnv = s.run(['--status', '--json'], env);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ scope: 'a', files: ['.gate-check/a/x.md'], scopes: [] });
    // --scope wins over the environment.
    expect(s.run(['--status', '--scope', 'b'], env).code).toBe(0);
    // An empty value chooses nothing.
    expect(JSON.parse(s.run(['--status', '--json'], { ...s.env, GATE_CHECK_SCOPE: '' }).stdout).scope).toBeNull();
    const bad = s.run(['--status'], { ...s.env, GATE_CHECK_SCOPE: '../a' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('GATE_CHECK_SCOPE: invalid scope id "../a"');
    const missing = s.run(['--status'], { ...s.env, GATE_CHECK_SCOPE: 'c' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('scope c not found: .gate-check/c does not exist (scopes here: a, b)');
  });

  it('without a root ledger: the only scope; several are refused, naming them ("refusing to guess")', () => {
    const one = repo({ '.gate-check/only/x.md': OPEN });
    const r = one.run(['--status', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ scope: 'only', files: ['.gate-check/only/x.md'] });
    const two = repo({ '.gate-check/a/x.md': MET, '.gate-check/b/y.md': MET, '.gate-check/empty/.keep': '' });
    for (const args of [['--status'], [], ['--approve'], ['--reverify'], ['lint']]) {
      const g = two.run(args);
      expect(g.code, args.join(' ')).toBe(2);
      expect(g.stderr, args.join(' ')).toContain('2 scopes present (a, b) and no root ledger; pass --scope ID or set GATE_CHECK_SCOPE. Refusing to guess.');
    }
    expect(two.run(['--status'], { ...two.env, GATE_CHECK_SCOPE: 'a' }).code).toBe(0);
    expect(two.run(['--status', '.gate-check/a/x.md']).code).toBe(0);
  });

  it('named ledger files are exactly those: no scope, no tree', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/a/x.md': OPEN });
    const r = s.run(['--status', '--json', 'GATES.md'], { ...s.env, GATE_CHECK_SCOPE: 'a' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ scope: null, scopes: [], waves: [], files: ['GATES.md'] });
  });

  it('anything in .gate-check/ that is not a scope folder is an error, never a skipped scope', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/a/x.md': OPEN });
    writeFileSync(join(s.repo, '.gate-check', 'notes.md'), 'all done\n');
    expect(s.run(['--status']).stderr).toContain('.gate-check/notes.md is not a directory');
    const t = repo({ 'GATES.md': MET, '.gate-check/a/x.md': OPEN });
    mkdirSync(join(t.repo, 'elsewhere'));
    writeFileSync(join(t.repo, 'elsewhere', 'y.md'), MET);
    symlinkSync(join(t.repo, 'elsewhere'), join(t.repo, '.gate-check', 'b'));
    expect(t.run(['--status']).stderr).toContain('.gate-check/b is a symbolic link');
    const u = repo({ 'GATES.md': MET, '.gate-check/a/x.md': OPEN, '.gate-check/with space/y.md': MET });
    expect(u.run(['--status']).stderr).toContain('.gate-check/with space: not a scope id');
    // A dot-named folder, and one without a ledger, are no scopes (as in the Stop hook).
    const v = repo({ 'GATES.md': MET, '.gate-check/.cache/x.md': OPEN, '.gate-check/empty/notes.txt': 'x' });
    expect(v.run(['--status']).stdout).toBe('ALL MET (1 met)\n');
  });
});

describe('--list-scopes', () => {
  it('prints one scope per line, or JSON, and says which a command would use', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/b/y.md': MET, '.gate-check/a/x.md': OPEN, '.gate-check/empty/.keep': '' });
    const r = s.run(['--list-scopes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a\nb\n');
    expect(r.stderr).toContain('commands use the root ledgers');
    const j = s.run(['--list-scopes', '--json'], { ...s.env, GATE_CHECK_SCOPE: 'b' });
    expect(JSON.parse(j.stdout)).toEqual({ schema: 'gate-check/scopes@1', root: s.repo, scopes: ['a', 'b'], chosen: 'b' });
    const none = repo({ 'GATES.md': MET });
    expect(none.run(['--list-scopes']).stdout).toBe('');
    const guess = repo({ '.gate-check/a/x.md': MET, '.gate-check/b/y.md': MET });
    const g = guess.run(['--list-scopes']);
    expect(g.code).toBe(0);
    expect(g.stderr).toContain('refuse to guess');
    expect(guess.run(['--list-scopes', 'GATES.md']).code).toBe(2);
    expect(guess.run(['--list-scopes', '--scope', 'a']).code).toBe(2);
  });
});

describe('the tree-wide verdict: a root ledger and scopes', () => {
  const TREE = { 'GATES.md': MET, '.gate-check/task-7/leaf.md': OPEN, '.gate-check/task-8/done.md': MET };

  it('--status never says ALL MET while a scope is unmet, and shows each scope\'s verdict', () => {
    const s = repo(TREE);
    const r = s.run(['--status']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(['scope task-7: UNMET: leaf:L1', 'scope task-8: ALL MET (1 met)', 'UNMET: task-7/leaf:L1', ''].join('\n'));
    expect(r.stdout).not.toMatch(/^ALL MET/m);
  });

  it('says ALL MET, counting every gate, only when every scope is met', () => {
    const s = repo({ ...TREE, '.gate-check/task-7/leaf.md': MET });
    const r = s.run(['--status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('scope task-7: ALL MET (1 met)\nscope task-8: ALL MET (1 met)\nALL MET (3 met)\n');
  });

  it('the JSON carries each scope\'s summary; it matches the schema and its parser', () => {
    const s = repo({ ...TREE, '.gate-check/task-9/h.md': '- [ ] H: hand\nABANDON: H gone\n' });
    const r = s.run(['--status', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    assertReportSchema(doc);
    expect(parseReport(r.stdout).ok).toBe(true);
    expect(doc.exitCode).toBe(1);
    expect(doc.scope).toBeNull();
    expect(doc.summary).toMatchObject({ total: 1, met: 1 });
    expect(doc.scopes).toEqual([
      { scope: 'task-7', files: ['.gate-check/task-7/leaf.md'], exitCode: 1, summary: expect.objectContaining({ total: 1, unmet: 1 }), unmet: ['leaf:L1'], handoff: [], waves: [] },
      { scope: 'task-8', files: ['.gate-check/task-8/done.md'], exitCode: 0, summary: expect.objectContaining({ total: 1, met: 1 }), unmet: [], handoff: [], waves: [] },
      { scope: 'task-9', files: ['.gate-check/task-9/h.md'], exitCode: 1, summary: expect.objectContaining({ abandoned: 1 }), unmet: [], handoff: ['h:H'], waves: [] },
    ]);
    // A report whose scopes field was tampered with is refused by the parser, as by the schema.
    const tampered = { ...doc, scopes: [{ ...doc.scopes[0], exitCode: 7 }] };
    expect(parseReport(JSON.stringify(tampered)).ok).toBe(false);
    expect(() => assertReportSchema(tampered)).toThrow();
    const extra = { ...doc, scopes: [{ ...doc.scopes[0], note: 'x' }] };
    expect(parseReport(JSON.stringify(extra)).ok).toBe(false);
    expect(() => assertReportSchema(extra)).toThrow();
  });

  it('--strict applies to every scope: a met gate with unverified evidence in a scope is unmet', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/t/x.md': handWrittenMet('R', 'runnable', 'echo a', 'a') });
    expect(s.run(['--status']).code).toBe(0);
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('scope t: UNMET: x:R');
  });

  it('a scope that does not parse makes the tree-wide status fail (exit 2), naming the file', () => {
    const s = repo({ ...TREE, '.gate-check/task-8/done.md': '- [ ] A: x\n  - [ ] B: nested\n' });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.gate-check/task-8/done.md:2: nested task item');
  });

  it('plain runs, --approve and --reverify run the root ledgers and fold every scope into their verdict', () => {
    const s = repo({ 'GATES.md': '- [ ] G: root\n  CHECK: echo ok\n  EXPECT: ok\n', '.gate-check/t/leaf.md': OPEN });
    const approve = s.run(['--approve']);
    expect(approve.stdout).toContain('PASS GATES:G');
    expect(approve.code).toBe(1);
    expect(approve.stdout).toContain('scope t: UNMET: leaf:L1');
    expect(approve.stdout).toContain('UNMET: t/leaf:L1');
    expect(approve.stdout).not.toMatch(/^ALL MET/m);
    for (const args of [[], ['--reverify'], ['--reverify', '--json']]) {
      const r = s.run(args);
      expect(r.code, args.join(' ')).toBe(1);
      if (args.includes('--json')) {
        const doc = JSON.parse(r.stdout);
        assertReportSchema(doc);
        expect(doc.gates.map((g: { qualified: string }) => g.qualified)).toEqual(['GATES:G']);
        expect(doc.scopes[0]).toMatchObject({ scope: 't', exitCode: 1 });
      }
    }
    // The scope itself is run with --scope; the tree is met when it is.
    writeFileSync(join(s.repo, '.gate-check/t/leaf.md'), MET);
    expect(s.run([]).code).toBe(0);
    expect(s.run(['--status']).stdout).toBe('scope t: ALL MET (1 met)\nALL MET (2 met)\n');
  });

  it('a pin named as the root run names a scope gate (t/leaf:L1@HEX) says how to approve it in its scope (reviewer-fidelity B6)', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/t/leaf.md': '- [ ] L1: leaf work\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const pin = /leaf:L1@[0-9a-f]{32}/.exec(s.run(['--scope', 't']).stdout)![0];
    const r = s.run(['--approve', `t/${pin}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--approve t/${pin}: leaf:L1 is a gate of scope t, whose ledgers a root run does not approve\nhint: run: gate-check --scope t --approve ${pin}`);
    expect(s.run(['--scope', 't', '--approve', pin]).code).toBe(0);
  });

  // Found by an attack: a hand-written line in a scope passed the sharded CI re-run and merge.
  it('runs count a scope gate only by evidence verified here; --reverify, its shards and merge only by a run', () => {
    const s = repo({ 'GATES.md': '- [ ] G: root\n  CHECK: echo ok\n  EXPECT: ok\n', '.gate-check/t/work.md': handWrittenMet('T1', 'the importer keeps every row', 'node check.mjs', 'passed') });
    const plain = s.run(['--approve']);
    expect(plain.stdout).toContain('PASS GATES:G');
    expect(plain.code).toBe(1);
    expect(s.run(['--status']).code).toBe(0); // as the ledger says, on any machine
    expect(plain.stdout).toContain('scope t: UNMET: work:T1');
    expect(plain.stdout).toMatch(/^note: this command does not run the gates of other scopes, and counts only evidence verified here: run \S+ \S+ --scope t$/m);
    for (const args of [['--reverify'], ['--reverify', '--approve', '--shard', '1/2'], ['--reverify', '--approve', '--shard', '2/2']]) {
      const r = s.run([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout).scopes[0]).toMatchObject({ scope: 't', exitCode: 1, unmet: ['work:T1'] });
    }
    writeFileSync(join(s.repo, 'r1.json'), s.run(['--reverify', '--approve', '--shard', '1/2', '--json']).stdout);
    writeFileSync(join(s.repo, 'r2.json'), s.run(['--reverify', '--approve', '--shard', '2/2', '--json']).stdout);
    const merged = s.run(['merge', '--shards', '2', 'r1.json', 'r2.json']);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toContain('scope t: UNMET: work:T1');
    expect(merged.stdout).toMatch(/^note: this command does not run the gates of other scopes, and counts their evidence only when verified here \(a run of this machine\): run \S+ \S+ --reverify --scope t first \(in CI, in the same job\)$/m);
    expect(merged.stdout).not.toMatch(/^ALL MET/m);
  });

  // Found by round 41a (F3): counting only the command's own runs left a tree with a runnable
  // scope gate unmet for good under --reverify, its shards and merge, which never run scopes.
  it('--reverify, its shards and merge count a scope gate by a run of this machine, never by the ledger alone', () => {
    const s = repo({ 'GATES.md': '- [ ] G: root\n  CHECK: echo ok\n  EXPECT: ok\n', '.gate-check/t/work.md': '- [ ] K1: scope work\n  CHECK: echo scope-ok\n  EXPECT: scope-ok\n' });
    expect(s.run(['--approve']).code).toBe(1);
    const before = s.run(['--reverify']);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('scope t: UNMET: work:K1');
    expect(before.stdout).toMatch(/--reverify --scope t first/);
    expect(s.run(['--scope', 't', '--approve']).code).toBe(0);
    for (const args of [['--reverify'], ['--reverify', '--only-stale'], ['--reverify', '--approve', '--shard', '1/2']]) {
      const r = s.run([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(0);
      expect(JSON.parse(r.stdout).scopes[0]).toMatchObject({ scope: 't', exitCode: 0, unmet: [] });
    }
    writeFileSync(join(s.repo, 'r1.json'), s.run(['--reverify', '--shard', '1/2', '--json']).stdout);
    writeFileSync(join(s.repo, 'r2.json'), s.run(['--reverify', '--shard', '2/2', '--json']).stdout);
    const merged = s.run(['merge', '--shards', '2', 'r1.json', 'r2.json']);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('scope t: ALL MET (1 met)');
    // Where the scope's run is not verified (another machine's store): its ticked line counts for nothing.
    const elsewhere = { ...s.env, GATE_CHECK_HOME: join(s.home, 'other-store') };
    const there = s.run(['merge', '--shards', '2', 'r1.json', 'r2.json'], elsewhere);
    expect(there.code).toBe(1);
    expect(there.stdout).toContain('scope t: UNMET: work:K1');
    // Nor once its evidence is stale here.
    writeFileSync(join(s.repo, '.gate-check/t/work.md'), '- [x] K1: scope work\n  CHECK: echo scope-ok\n  EXPECT: scope-ok\n  EVIDENCE: exit=0\n');
    expect(s.run(['--reverify']).code).toBe(1);
  });

  // Found by round 41a (F6): the root's plain --status said ALL MET for a scope whose met gate
  // was stale, with no line about it.
  it('plain --status at the root says how many of a scope\'s met gates do not hold up here, and where to see them', () => {
    const s = repo({ 'GATES.md': MET, 'src/x.txt': 'one\n', '.gate-check/t/work.md': '- [ ] K1: the data has its word\n  CHECK: cat src/x.txt\n  EXPECT: one\n  INPUTS: src/x.txt\n' });
    expect(s.run(['--scope', 't', '--approve']).code).toBe(0);
    expect(s.run(['--status']).stdout).toBe('scope t: ALL MET (1 met)\nALL MET (2 met)\n');
    writeFileSync(join(s.repo, 'src/x.txt'), 'one changed\n');
    const r = s.run(['--status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('scope t: ALL MET (1 met; 1 stale: see --status --scope t)\nALL MET (2 met)\n');
    expect(s.run(['--status', '--strict']).stdout).toContain('scope t: UNMET: work:K1');
  });

  it('a scope chosen by name is a view of that scope only', () => {
    const s = repo(TREE);
    expect(s.run(['--status', '--scope', 'task-8']).stdout).toBe('ALL MET (1 met)\n');
    expect(s.run(['--status', '--scope', 'task-8', '--json']).stdout).toContain('"scopes": []');
  });
});
