// --status through the real CLI: output, exit codes, JSON contract, and that it changes nothing.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { assertReportSchema } from '../helpers/schema.js';
import { snapshotTree } from '../helpers/tree.js';
import { handWrittenMet } from '../helpers/ledger.js';

// A met manual gate: human evidence, nothing to verify.
const MET = '- [x] A: first outcome\n  EVIDENCE: reviewed by Ada\n';
// A met runnable gate whose evidence was written by hand (naming its definition): met, but unverified.
const MET_BY_HAND = handWrittenMet('R', 'runnable outcome', 'echo a', 'a');

const tempDirOutside = () => mkdtempSync(join(tmpdir(), 'gc-elsewhere-'));

function repoWith(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return { ...s, run: (args: string[], env = s.env) => runCli(args, { cwd: s.repo, env }) };
}

describe('--status', () => {
  it('prints a line per gate that is not met, then the summary, and exits 1', () => {
    const r = repoWith({
      'GATES.md': MET + '- [ ] B: second\n- [x] C: third\n  EVIDENCE: pending\n- [ ] D: fourth\nABANDON: D vendor gone\n',
    }).run(['--status']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'GATES:B  unchecked  second',
        'GATES:C  claimed (ticked without evidence)  third',
        'GATES:D  abandoned  fourth',
        'UNMET: GATES:B, GATES:C',
        'HANDOFF REQUIRED: GATES:D',
        '',
      ].join('\n'),
    );
  });

  it('says ALL MET and exits 0 when every gate is met', () => {
    const r = repoWith({ 'GATES.md': MET }).run(['--status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ALL MET (1 met)\n');
  });

  it('exits 1 when the only open gate is handed off', () => {
    const r = repoWith({ 'GATES.md': MET + '- [ ] B: t\nABANDON: B reason\n' }).run(['--status']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^HANDOFF REQUIRED: GATES:B$/m);
    expect(r.stdout).not.toMatch(/UNMET/);
  });

  it('caps the id list of the summary', () => {
    const many = Array.from({ length: 25 }, (_, i) => `- [ ] G${i}: t`).join('\n') + '\n';
    const r = repoWith({ 'GATES.md': many }).run(['--status']);
    expect(r.stdout).toMatch(/^UNMET: GATES:G0, .*GATES:G9 \(\+15 more\)$/m);
  });

  it('prints warnings before the summary', () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: t\n  CHECK: x\n  EXPECT: /a/b/\n' }).run(['--status']);
    expect(r.stdout).toMatch(/warning: GATES\.md:3: EXPECT regex .*\nUNMET: GATES:A\n$/);
  });

  it('sanitizes titles from the ledger', () => {
    // RLM and ALM: bidi marks the parser allows in text (embeddings, overrides and isolates are parse errors), which output must still strip.
    const r = repoWith({ 'GATES.md': '- [ ] A: evil\u001b]0;pwned\u0007 \u001b[2Jtitle\u200f\u009b31m\n' }).run(['--status']);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b\u200f]/);
    expect(r.stdout).toMatch(/GATES:A {2}unchecked {2}evil title/);
  });

  it('exits 2 with every parse error, file and line, and no stack trace', () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: t\n  CHECK: x\nCHECK: y\n- [ ] A: again\n' }).run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: GATES\.md:1: A has CHECK but no EXPECT/m);
    expect(r.stderr).toMatch(/^error: GATES\.md:3: unindented CHECK/m);
    expect(r.stderr).toMatch(/^error: GATES\.md:4: duplicate gate id A \(lines 1 and 4\)/m);
    expect(r.stderr).toMatch(/3 errors; nothing was checked/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on a zero-gate ledger', () => {
    const r = repoWith({ 'GATES.md': '# Gates\n\nNothing yet.\n' }).run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md:1: no gates/);
  });

  it('exits 2 on invalid UTF-8', () => {
    const s = repoWith({});
    writeFileSync(join(s.repo, 'GATES.md'), Buffer.from([0x2d, 0x20, 0x5b, 0x20, 0x5d, 0x20, 0x41, 0x3a, 0x20, 0xff, 0x0a]));
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid UTF-8/);
  });

  it('works with PATH empty, verifying a runnable gate too', () => {
    const s = repoWith({ 'GATES.md': MET + MET_BY_HAND });
    const r = s.run(['--status'], { ...s.env, PATH: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GATES:R {2}met, unverified {2}runnable outcome: no run of this gate in this checkout on this machine/m);
    expect(r.stdout).toMatch(/ALL MET \(2 met\)\n$/);
  });

  it('leaves the repository and $HOME byte-identical and creates nothing', () => {
    const s = repoWith({ 'GATES.md': MET + MET_BY_HAND + '- [ ] B: t\n  CHECK: touch /tmp/never\n  EXPECT: x\n', 'gates/more.md': '- [ ] C: t\n' });
    const before = [snapshotTree(s.repo), snapshotTree(s.home)];
    for (const args of [['--status'], ['--status', '--json'], ['--status', 'GATES.md'], ['--status', '--strict']]) {
      expect(s.run(args).code).toBe(1);
    }
    expect([snapshotTree(s.repo), snapshotTree(s.home)]).toEqual(before);
  });
});

describe('--status --json', () => {
  it('emits the contract document, valid against references/report.schema.json', () => {
    const r = repoWith({ 'GATES.md': MET + '- [ ] B: second\n- [x] C: third\n- [ ] D: t\nABANDON: D r\n' }).run(['--status', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    assertReportSchema(doc);
    expect(doc).toMatchObject({
      schema: 'gate-check/report@1',
      mode: 'status',
      exitCode: 1,
      summary: { total: 4, met: 1, unmet: 1, claimed: 1, abandoned: 1 },
      files: ['GATES.md'],
    });
    expect(doc.gates.map((g: { qualified: string; state: string; kind: string; result: null }) => [g.qualified, g.state, g.kind, g.result])).toEqual([
      ['GATES:A', 'met', 'manual', null],
      ['GATES:B', 'unmet', 'manual', null],
      ['GATES:C', 'claimed', 'manual', null],
      ['GATES:D', 'abandoned', 'manual', null],
    ]);
  });

  it('emits a schema-valid error document with exit code 2 on parse errors', () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: t\n  CHECK: x\n' }).run(['--status', '--json']);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    assertReportSchema(doc);
    expect(doc.exitCode).toBe(2);
    expect(doc.errors[0]).toMatchObject({ file: 'GATES.md', line: 1 });
  });

  it('an error document still names the root and the ledgers found, for a parse error and for a failure after loading', () => {
    const repo = repoWith({ 'GATES.md': '- [ ] A: t\n  CHECK: x\n', 'gates/b.md': '- [ ] M: t\n' });
    const parse = JSON.parse(repo.run(['--status', '--json']).stdout);
    expect(parse).toMatchObject({ exitCode: 2, root: realpathSync(repo.repo), files: ['GATES.md', 'gates/b.md'] });
    // Loaded, then the private store is unsafe (a symbolic link): exit 2, with what was known.
    const s = repoWith({ 'GATES.md': `${MET_BY_HAND}\n- [ ] U: open\n  CHECK: echo ok\n  EXPECT: ok\n` });
    symlinkSync(tempDirOutside(), join(s.env.HOME!, '.gate-check'));
    for (const args of [['--json'], ['--reverify', '--json']]) {
      const r = s.run(args);
      expect(r.code, r.stderr).toBe(2);
      const doc = JSON.parse(r.stdout);
      assertReportSchema(doc);
      expect(doc).toMatchObject({ exitCode: 2, root: realpathSync(s.repo), files: ['GATES.md'] });
      expect(doc.errors[0].message).toMatch(/symbolic link|not a directory|unsafe/);
    }
  });

  it('keeps ledger order across files', () => {
    const r = repoWith({ 'GATES.md': '- [ ] Z: t\n- [ ] A: t\n', 'gates/b.md': '- [ ] M: t\n', 'gates/a.md': '- [ ] Q: t\n' }).run(['--status', '--json']);
    const doc = JSON.parse(r.stdout);
    assertReportSchema(doc);
    expect(doc.gates.map((g: { qualified: string }) => g.qualified)).toEqual(['GATES:Z', 'GATES:A', 'a:Q', 'b:M']);
  });
});

describe('discovery', () => {
  it('reads GATES.md and gates/*.md (sorted), skipping dot files and other names', () => {
    const s = repoWith({ 'GATES.md': '- [ ] A: t\n', 'gates/z.md': '- [ ] Z: t\n', 'gates/b.md': '- [ ] B: t\n', 'gates/.hidden.md': 'junk', 'gates/notes.txt': 'x' });
    const r = s.run(['--status']);
    expect(r.stdout).toMatch(/GATES:A[^]*b:B[^]*z:Z/);
  });

  it('exits 2 when no ledger exists', () => {
    const s = repoWith({ 'README.md': '# hi\n' });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no ledger found/);
    // The hint names gate-check as it was started: under npx, the npx command (round-38b F8).
    expect(r.stderr).toMatch(/^hint: run 'node \/\S+\/bin\/gate-check\.js init' to create one/m);
    mkdirSync(join(s.repo, 'node_modules/.bin'), { recursive: true });
    symlinkSync(BIN, join(s.repo, 'node_modules/.bin/gate-check'));
    const npx = spawnSync(process.execPath, [join(s.repo, 'node_modules/.bin/gate-check'), '--status'], { cwd: s.repo, env: { ...s.env, npm_command: 'exec' }, encoding: 'utf8' });
    expect(npx.stderr).toContain("hint: run 'npx --no-install gate-check init' to create one");
  });

  it('honours explicit files in any position and never widens to discovery', () => {
    const s = repoWith({ 'GATES.md': '- [ ] ROOT: t\n', 'a.md': '- [ ] A: t\n', 'b.md': '- [ ] B: t\n' });
    const r = s.run(['a.md', '--status', 'b.md']);
    expect(r.stdout).toMatch(/a:A[^]*b:B/);
    expect(r.stdout).not.toMatch(/ROOT/);
  });

  it('uses --root for discovery', () => {
    const s = repoWith({ 'sub/GATES.md': '- [ ] S: t\n' });
    const r = s.run(['--status', '--root', 'sub']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/GATES:S/);
  });

  it('reads one scope with --scope, and only it', () => {
    const s = repoWith({ 'GATES.md': '- [ ] ROOT: t\n', '.gate-check/task-1/a.md': '- [ ] T: t\n' });
    const r = s.run(['--status', '--scope', 'task-1']);
    expect(r.stdout).toMatch(/a:T/);
    expect(r.stdout).not.toMatch(/ROOT/);
  });

  it('refuses an invalid, missing or empty scope', () => {
    const s = repoWith({ 'GATES.md': '- [ ] ROOT: t\n' });
    mkdirSync(join(s.repo, '.gate-check', 'empty'), { recursive: true });
    expect(s.run(['--status', '--scope', '../x']).code).toBe(2);
    expect(s.run(['--status', '--scope', 'missing']).stderr).toMatch(/scope missing not found/);
    const r = s.run(['--status', '--scope', 'empty']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scope empty has no ledgers/);
  });

  it('refuses two ledgers with the same name, whose qualified ids would collide', () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: t\n', 'gates/GATES.md': '- [ ] B: t\n' }).run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ledger name GATES is also used by GATES\.md/);
  });

  it('shows the bundled example', () => {
    const r = runCli(['--status', '--root', 'examples'], { cwd: resolve(import.meta.dirname, '../..') });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^UNMET: GATES:G1, GATES:G2, GATES:G3$/m);
  });
});

describe('--status on a ledger written before the work', () => {
  it('says which open gates cannot run yet (a DEPENDS or INPUTS pattern that matches no file), and keeps its exit code', () => {
    const s = repoWith({
      'GATES.md': '- [ ] A: imports\n  CHECK: node scripts/a.mjs\n  EXPECT: ok\n  DEPENDS: scripts/a.mjs\n- [ ] B: reads its data\n  CHECK: echo ok\n  EXPECT: ok\n  INPUTS: data/*.json\n- [ ] C: ready\n  CHECK: echo ok\n  EXPECT: ok\n  DEPENDS: c.txt\n',
      'c.txt': 'c\n',
    });
    const r = s.run(['--status']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:A {2}unchecked \(not runnable yet: DEPENDS pattern scripts\/a\.mjs matches no file under \/\S+\) {2}imports$/m);
    expect(r.stdout).toMatch(/^GATES:B {2}unchecked \(not runnable yet: INPUTS pattern data\/\*\.json matches no file under \/\S+\) {2}reads its data$/m);
    expect(r.stdout).toMatch(/^GATES:C {2}unchecked {2}ready$/m);
    const j = JSON.parse(s.run(['--status', '--json']).stdout);
    assertReportSchema(j);
    expect(j.gates[0].stateReason).toMatch(/not runnable yet/);
    expect(j.gates[2].stateReason).toBeNull();
  });
});
