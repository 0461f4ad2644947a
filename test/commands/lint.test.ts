// gate-check lint through the real CLI: output, exit codes, JSON contract, discovery, and
// that it never executes or writes anything.
import { Ajv } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../lib/lint/types.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { snapshotTree } from '../helpers/tree.js';

const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../references/lint.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
function assertLintSchema(doc: unknown): void {
  if (!validate(doc)) throw new Error('lint report does not match references/lint.schema.json:\n' + JSON.stringify(validate.errors, null, 2));
}

const GOOD = [
  '- [ ] G1: valid fixture imports completely',
  '  CHECK: node scripts/check-import.mjs fixtures/valid.json',
  '  EXPECT: /import verification passed \\(\\d+ rows\\)/',
  '  DEPENDS: scripts/check-import.mjs, fixtures/*.json',
  '  EVIDENCE: pending',
  '',
].join('\n');
const GOOD_FILES = { 'scripts/check-import.mjs': 'console.log(1)\n', 'fixtures/valid.json': '{}\n' };

// INPUTS keeps undeclared-inputs out: these tests are about the other rules and the output.
const BAD = ['- [ ] B1: Write the tests', '  CHECK: npm test || echo OK', '  EXPECT: OK', '  INPUTS: test/**', ''].join('\n');

function repoWith(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return { ...s, run: (args: string[]) => runCli(['lint', ...args], { cwd: s.repo, env: s.env }) };
}

describe('gate-check lint', () => {
  it('reports nothing on a well-written gate and exits 0, with or without --strict', () => {
    const s = repoWith({ ...GOOD_FILES, 'GATES.md': GOOD });
    for (const args of [[], ['--strict']]) {
      const r = s.run(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('lint: no findings in 1 gate\n');
      expect(r.stderr).toBe('');
    }
  });

  it('prints one line per finding, its suggestion, and a summary; exit 0 without --strict', () => {
    const r = repoWith({ 'GATES.md': BAD }).run([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'GATES.md:1: GATES:B1 [activity-title] title "Write the tests" names an activity ("write …"), not an outcome: it says what to do, not what must be true when it is done',
        '  suggestion: phrase the outcome: "the tests …" followed by what is true when it is done ("X works", "X is …")',
        "GATES.md:2: GATES:B1 [self-satisfying] EXPECT \"OK\" is printed by the CHECK itself: echo after '||' prints it exactly when npm test fails",
        '  suggestion: remove the echo and EXPECT text that only the real command prints on success (its summary line, ideally with a count)',
        'GATES.md:3: GATES:B1 [weak-expect] EXPECT "OK" is a generic word: failure output can contain it too (TAP prints "not ok 3 - …", runners print "0 passed", "1 failed")',
        '  suggestion: EXPECT a line only success prints, ideally with a count: your runner\'s count of passing tests (for node --test: /^(?:#|\\u2139) pass [1-9]\\d*$/m), or your script\'s own "verification passed (N rows)"',
        '3 findings (activity-title: 1, self-satisfying: 1, weak-expect: 1)',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 with --strict when there are findings', () => {
    const r = repoWith({ 'GATES.md': BAD }).run(['--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^3 findings \(/m);
  });

  it('exits 2 on a parse error, naming file and line, and prints no findings', () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n\nEXPECT: ok\n' }).run([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: GATES\.md:1: A has CHECK but no EXPECT/m);
    expect(r.stderr).toMatch(/^error: GATES\.md:4: unindented EXPECT/m);
  });

  it('exits 2 on a usage error and prints help with -h', () => {
    const s = repoWith({ 'GATES.md': GOOD });
    const bad = s.run(['--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option '--bogus'/);
    expect(s.run(['--strict', '--strict']).code).toBe(2);
    const help = s.run(['-h']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: gate-check lint \[options\] \[file\.\.\.\]/);
    expect(help.stdout).toMatch(/--strict/);
  });

  it('never executes a CHECK and writes nothing, in the repository or in $HOME', () => {
    const s = repoWith({ 'GATES.md': '- [ ] A: marker exists\n  CHECK: touch marker; echo x\n  EXPECT: x\n' });
    const before = [snapshotTree(s.repo), snapshotTree(s.home)];
    for (const args of [[], ['--json'], ['--strict'], ['GATES.md']]) expect(s.run(args).code).toBeLessThan(2);
    expect(existsSync(join(s.repo, 'marker'))).toBe(false);
    expect([snapshotTree(s.repo), snapshotTree(s.home)]).toEqual(before);
  });

  it('sanitizes titles and other ledger text in its output', () => {
    // RLM and ALM: bidi marks the parser allows in text (embeddings, overrides and isolates are parse errors), which output must still strip.
    const r = repoWith({ 'GATES.md': '- [ ] A: Fix \u001b]0;pwned\u0007 the \u001b[2Jimporter\u200f\u009b31m\n' }).run([]);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b\u200f]/);
    // Shown as the approval screen shows them: each one named, none passed to the terminal.
    expect(r.stdout).toContain('GATES.md:1: GATES:A [activity-title] title "Fix <U+001B>]0;pwned<U+0007> the <U+001B>[2Jimporter<U+200F><U+009B>31m"');
  });

  it('reports scripts that no DEPENDS glob covers, using the files fast-glob finds', () => {
    const s = repoWith({
      ...GOOD_FILES,
      'tools/run.sh': 'echo hi\n',
      'GATES.md': [
        GOOD,
        '- [ ] G2: the tool run reports every file',
        '  CHECK: sh tools/run.sh && node scripts/check-import.mjs',
        '  EXPECT: /checked \\d+ files/',
        '  DEPENDS: fixtures/*.json',
        '',
      ].join('\n'),
    });
    const r = s.run([]);
    expect(r.stdout).toMatch(/^GATES\.md:8: GATES:G2 \[undeclared-script\] CHECK runs tools\/run\.sh, scripts\/check-import\.mjs, which no DEPENDS glob covers/m);
    expect(r.stdout).toMatch(/^ {2}suggestion: DEPENDS: fixtures\/\*\.json, tools\/run\.sh, scripts\/check-import\.mjs$/m);
    expect(r.stdout).toMatch(/^1 finding \(undeclared-script: 1\)$/m);
  });

  it('a named package ledger is linted from its own root, like a discovered one', () => {
    const s = repoWith({
      'pkg/tools/check.mjs': '',
      'pkg/GATES.md': '- [ ] P: the package checks out\n  CHECK: node tools/check.mjs\n  EXPECT: /package ok \\(\\d+\\)/\n  DEPENDS: tools/check.mjs\n',
      'GATES.md': '- [ ] R: the root checks out\n  CHECK: node tools/check.mjs\n  EXPECT: /root ok \\(\\d+\\)/\n  DEPENDS: pkg/tools/check.mjs\n',
    });
    // pkg/GATES.md implies the root pkg/: its CHECK and DEPENDS are relative to it.
    expect(s.run(['pkg/GATES.md']).stdout).toBe('lint: no findings in 1 gate\n');
    // Discovered at the top, the root ledger's CHECK runs at the top: tools/check.mjs is not the declared file.
    expect(s.run([]).stdout).toMatch(/CHECK runs tools\/check\.mjs, which no DEPENDS glob covers/);
  });

  it('discovers like the root command: GATES.md and gates/*.md, --root, --scope', () => {
    const s = repoWith({
      ...GOOD_FILES,
      'GATES.md': GOOD,
      'gates/more.md': BAD,
      'sub/GATES.md': '- [ ] S: t\n  CHECK: echo ok\n  EXPECT: ok\n',
      '.gate-check/task-1/a.md': '- [ ] T: Add a thing\n',
    });
    const all = s.run([]);
    expect(all.stdout).toMatch(/^gates\/more\.md:1: more:B1 \[activity-title\]/m);
    expect(all.stdout).toMatch(/^3 findings/m);
    expect(s.run(['--root', 'sub']).stdout).toMatch(/^GATES\.md:2: GATES:S \[cannot-fail\]/m);
    const scoped = s.run(['--scope', 'task-1']);
    expect(scoped.stdout).toMatch(/^\.gate-check\/task-1\/a\.md:1: a:T \[activity-title\]/m);
    expect(scoped.stdout).toMatch(/^1 finding \(activity-title: 1\)$/m);
    expect(s.run(['--scope', 'task-1', 'GATES.md']).code).toBe(2);
    expect(s.run(['--scope', 'missing']).code).toBe(2);
  });

  it('reports attribute typos as the parse errors they are (exit 2, with the line), not as findings', () => {
    const s = repoWith({ 'GATES.md': '- [ ] A: the importer keeps every row\n  CHEK: node scripts/check.mjs\n' });
    for (const args of [[], ['--strict']]) {
      const r = s.run(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: GATES\.md:2: CHEK: is not an attribute: did you mean CHECK\?/m);
    }
    const doc = JSON.parse(s.run(['--json']).stdout);
    assertLintSchema(doc);
    expect(doc).toMatchObject({ exitCode: 2, findings: [], errors: [{ file: 'GATES.md', line: 2 }] });
    // No lint rule duplicates the parser: the rule list has nothing about attribute names.
    expect(schema.definitions.rule.enum.filter((r: string) => /attribute|typo|name/.test(r))).toEqual([]);
  });

  it('a ledger path that starts with "::" cannot start a workflow command on a CI runner', () => {
    const s = repoWith({ '::error title=x::forged/GATES.md': '- [ ] B1: Write the tests\n' });
    // --root: a named ledger otherwise implies its own folder as the root, and is shown as GATES.md.
    const r = s.run(['--root', '.', '::error title=x::forged/GATES.md']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /^\s*::/.test(l))).toEqual([]);
    expect(r.stdout).toMatch(/^\\::error title=x::forged\/GATES\.md:1: GATES:B1 \[activity-title\]/m);
  });

  it('reports a mostly-manual ledger once, at line 1', () => {
    const r = repoWith({ ...GOOD_FILES, 'GATES.md': GOOD + '- [ ] M1: wording approved\n- [ ] M2: design signed off\n' }).run([]);
    expect(r.stdout).toMatch(/^GATES\.md:1: GATES \[mostly-manual\] 2 of 3 gates are manual/m);
    expect(r.stdout).toMatch(/^1 finding \(mostly-manual: 1\)$/m);
  });
});

describe('gate-check lint --json', () => {
  it('the schema lists exactly the rules lint has, in their order', () => {
    expect(schema.definitions.rule.enum).toEqual([...RULES]);
    expect(Object.keys(schema.properties.summary.properties.byRule.properties)).toEqual([...RULES]);
  });

  it('emits one document valid against references/lint.schema.json', () => {
    const r = repoWith({ 'GATES.md': BAD + '- [ ] M1: a\n- [ ] M2: b\n' }).run(['--json', '--strict']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    assertLintSchema(doc);
    expect(doc).toMatchObject({
      schema: 'gate-check/lint@1',
      exitCode: 1,
      files: ['GATES.md'],
      summary: { findings: 4, gates: 3, byRule: { 'mostly-manual': 1, 'activity-title': 1, 'self-satisfying': 1, 'weak-expect': 1 } },
      errors: [],
    });
    expect(doc.findings[0]).toEqual({
      file: 'GATES.md',
      line: 1,
      gate: null,
      qualified: 'GATES',
      rule: 'mostly-manual',
      message: expect.stringMatching(/^2 of 3 gates are manual/),
      suggestion: expect.any(String),
    });
    expect(doc.findings[1]).toMatchObject({ gate: 'B1', qualified: 'GATES:B1', rule: 'activity-title', line: 1 });
  });

  it('emits a valid document for a clean ledger, exit 0', () => {
    const r = repoWith({ ...GOOD_FILES, 'GATES.md': GOOD }).run(['--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    assertLintSchema(doc);
    expect(doc).toMatchObject({ exitCode: 0, findings: [], summary: { findings: 0, gates: 1, byRule: {} } });
  });

  it('emits a valid error document and exits 2 on a parse error', () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: t\n  CHECK: x\n' }).run(['--json']);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    assertLintSchema(doc);
    expect(doc).toMatchObject({ exitCode: 2, errors: [{ file: 'GATES.md', line: 1 }] });
    expect(r.stderr).toMatch(/GATES\.md:1: A has CHECK but no EXPECT/);
  });

  it('keeps terminal controls out of the JSON text', () => {
    // RLM and ALM: bidi marks the parser allows in text (embeddings, overrides and isolates are parse errors), which output must still strip.
    const r = repoWith({ 'GATES.md': '- [ ] A: Fix \u009b31m the \u200fimporter\n' }).run(['--json']);
    expect(r.stdout).not.toMatch(/[\u009b\u200f]/);
    assertLintSchema(JSON.parse(r.stdout));
  });
});

describe('gate-check lint reads the package scripts a CHECK runs (round-31b F1)', () => {
  const LEDGER = '- [ ] A: the unit tests pass\n  CHECK: npm test\n  EXPECT: /^# pass [1-9]\\d*$/m\n  DEPENDS: package.json\n  INPUTS: test/**\n';

  it('names a masked exit in package.json\'s script, as in the CHECK itself', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER, 'package.json': JSON.stringify({ scripts: { test: 'node --test || true' } }), 'test/a.test.js': '' });
    const r = runCli(['lint'], { cwd: s.repo, env: s.env });
    expect(r.stdout).toMatch(/\[masked-exit\] npm test \(package\.json's "test" script, "node --test \|\| true"\) exits 0 even when its script fails/);
  });

  it('reads hostile or broken package.json files as having no such script', () => {
    for (const pkg of ['not json', '{"scripts": "node --test || true"}', '{"scripts": {"__proto__": {"test": "node --test || true"}}}', '{"scripts": {"test": ["node --test || true"]}}']) {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': LEDGER, 'package.json': pkg, 'test/a.test.js': '' });
      const r = runCli(['lint'], { cwd: s.repo, env: s.env });
      expect(r.code, pkg).toBe(0);
      expect(r.stdout, pkg).not.toMatch(/masked-exit/);
    }
  });
});

