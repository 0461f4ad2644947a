// A command found through a PATH entry inside the repository is code the CHECK text does not
// show (issue 8 §5): its executables are bound into the approval, shown at approval, and a
// swap after approval needs a new approval and makes the evidence stale.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { BIN, joinedRows, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

const LEDGER = '- [ ] G1: the tests pass\n  CHECK: runtests\n  EXPECT: tests passed\n';

function repoWithTools(pathEntry: (repo: string) => string) {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': LEDGER, 'tools/runtests': '#!/bin/sh\necho run >> runs.log\necho tests passed\n' });
  chmodSync(join(s.repo, 'tools/runtests'), 0o755);
  const env = { ...s.env, PATH: `${pathEntry(s.repo)}:${process.env.PATH}` };
  const run = (args: string[]) => {
    const r = runCli(args, { cwd: s.repo, env });
    return { ...r, stdout: joinedRows(r.stdout) };
  };
  const swap = () => writeFileSync(join(s.repo, 'tools/runtests'), '#!/bin/sh\necho swapped >> swapped.log\necho tests passed\n', { mode: 0o755 });
  return { ...s, run, swap, swapped: () => existsSync(join(s.repo, 'swapped.log')) };
}

describe('PATH entries inside the repository', () => {
  // Round 39u (a note): a file there whose name holds a newline was listed as "tools/a b.inc".
  it('the approval screen shows a bound file whose name holds a control character by its code point', () => {
    const s = repoWithTools((repo) => join(repo, 'tools'));
    writeFileSync(join(s.repo, 'tools', 'a\nb.inc'), 'x\n');
    const first = s.run([]);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^ {2}PATH {4}leads into the repository: 2 files there are bound into this approval: .*tools\/a<U\+000A>b\.inc/m);
  });

  for (const [name, entry] of [
    ['a relative entry (tools)', () => 'tools'],
    ['an absolute entry into the repository', (repo: string) => join(repo, 'tools')],
  ] as const) {
    it(`${name}: bound at approval, shown, and a swap needs a new approval`, () => {
      const s = repoWithTools(entry);
      const first = s.run([]);
      expect(first.code).toBe(1);
      expect(first.stdout).toMatch(/^ {2}PATH {4}leads into the repository: 1 file there is bound into this approval: tools\/runtests \(the CHECK's "runtests" may run it\) \(read it too\)$/m);
      expect(s.run(['--approve']).code).toBe(0);
      expect(s.run(['--status', '--strict']).code).toBe(0);
      s.swap();
      // The evidence no longer holds, whoever looks (the reader's PATH does not matter).
      const strict = runCli(['--status', '--strict'], { cwd: s.repo, env: s.env });
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/met, stale .*PATH executables inside the repository changed \(in tools\)/);
      // A run asks for approval of the swapped executable, and runs nothing.
      const again = s.run([]);
      expect(again.code).toBe(1);
      expect(again.stdout).toMatch(/approved before for another oracle: PATH executable inside the repository: tools\/runtests changed/);
      expect(s.swapped()).toBe(false);
    });
  }

  // Round-23 F2: what the repository's PATH reaches outside it, through a link to a file or a
  // folder linked out, ran edited while --status --strict said ALL MET; a link retargeted
  // inside the repository too (F2c).
  it('a link out of the repository (an executable, or the PATH folder itself) is bound by what it reaches; a retargeted folder link is a change', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'runtests'), '#!/bin/sh\necho tests passed\n', { mode: 0o755 });
    mkdirSync(join(outside, 'bin'));
    writeFileSync(join(outside, 'bin', 'runtests'), '#!/bin/sh\necho tests passed\n', { mode: 0o755 });
    const cases: Array<[string, (repo: string) => void, (repo: string) => void]> = [
      ['an executable linked to a file outside', (repo) => (mkdirSync(join(repo, 'tools')), symlinkSync(join(outside, 'runtests'), join(repo, 'tools', 'runtests'))), () => writeFileSync(join(outside, 'runtests'), '#!/bin/sh\necho tests passed; echo edited\n')],
      ['the PATH folder linked to a folder outside', (repo) => symlinkSync(join(outside, 'bin'), join(repo, 'tools')), () => writeFileSync(join(outside, 'bin', 'runtests'), '#!/bin/sh\necho tests passed; echo edited\n')],
      [
        'the PATH folder link retargeted inside the repository',
        (repo) => symlinkSync(join(outside, 'bin'), join(repo, 'tools')),
        (repo) => {
          writeFiles(repo, { 'evil/runtests': '#!/bin/sh\necho tests passed\n' });
          chmodSync(join(repo, 'evil/runtests'), 0o755);
          rmSync(join(repo, 'tools'));
          symlinkSync('evil', join(repo, 'tools'));
        },
      ],
    ];
    for (const [name, make, change] of cases) {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': LEDGER });
      make(s.repo);
      const env = { ...s.env, PATH: `tools:${process.env.PATH}` };
      const first = runCli([], { cwd: s.repo, env });
      expect(joinedRows(first.stdout), name).toMatch(/^ {2}PATH {4}leads into the repository: 1 file there is bound into this approval: tools\/runtests /m);
      expect(runCli(['--approve'], { cwd: s.repo, env }).code, name).toBe(0);
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, name).toBe(0);
      change(s.repo);
      const strict = runCli(['--status', '--strict'], { cwd: s.repo, env });
      expect(strict.code, name).toBe(1);
      expect(strict.stdout, name).toMatch(/PATH executables inside the repository changed \(in tools\)/);
      expect(runCli(['--reverify'], { cwd: s.repo, env }).stdout, name).not.toMatch(/^PASS /m);
      // Restored for the next case.
      writeFileSync(join(outside, 'runtests'), '#!/bin/sh\necho tests passed\n');
      writeFileSync(join(outside, 'bin', 'runtests'), '#!/bin/sh\necho tests passed\n');
    }
  });

  // Round 24: PATH spellings the check's shell reads otherwise than text does.
  it("~/… (bash expands it) and /proc/self/cwd/… (the check's folder) are bound where the shell finds them", () => {
    for (const entry of ['~/../repo/tools', '/proc/self/cwd/tools']) {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': LEDGER.replace('CHECK: runtests', 'CHECK: bash -c runtests'), 'tools/runtests': '#!/bin/sh\necho tests passed\n' });
      chmodSync(join(s.repo, 'tools/runtests'), 0o755);
      // The sandbox's HOME is beside the repository: ~/../repo is the repository.
      const env = { ...s.env, PATH: `${entry}:${process.env.PATH}` };
      const first = runCli([], { cwd: s.repo, env });
      expect(joinedRows(first.stdout), entry).toMatch(/^ {2}PATH {4}leads into the repository: 1 file there is bound into this approval: tools\/runtests /m);
      expect(runCli(['--approve'], { cwd: s.repo, env }).code, entry).toBe(0);
      writeFileSync(join(s.repo, 'tools/runtests'), '#!/bin/sh\necho tests passed; echo edited\n');
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, entry).toBe(1);
    }
  });

  it('an entry that goes up (..) from a link, lies elsewhere in /proc, or names ~user is refused (exit 2), nothing runs', () => {
    const outside = tempDir();
    mkdirSync(join(outside, 'deep'));
    for (const [entry, why] of [
      ['lnk/../bin', /goes up \(\.\.\) from a symbolic link/],
      [`${outside}/torepo/../bin`, /goes up \(\.\.\) from a symbolic link/],
      [`${outside}/torepo/../../away`, /goes up \(\.\.\) from a symbolic link/],
      // Through the repository and out again, to the sandbox's home beside it: refused too.
      [`${outside}/torepo/../../../home`, /goes up \(\.\.\) from a symbolic link/],
      ['/proc/1/cwd', /lies in \/proc/],
      ['~nobody/bin', /names a user's home folder/],
    ] as const) {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': LEDGER.replace('CHECK: runtests', 'CHECK: touch ran; echo tests passed'), 'sub/x/.keep': '' });
      symlinkSync(join(outside, 'deep'), join(s.repo, 'lnk'));
      rmSync(join(outside, 'torepo'), { force: true });
      symlinkSync(join(s.repo, 'sub/x'), join(outside, 'torepo'));
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${entry}:${process.env.PATH}` } });
      expect(r.code, entry).toBe(2);
      expect(r.stderr, entry).toMatch(why);
      expect(existsSync(join(s.repo, 'ran')), entry).toBe(false);
    }
  });

  it('an entry outside the repository that goes up from a link outside it is taken where the kernel takes it: no refusal', () => {
    const outside = tempDir();
    mkdirSync(join(outside, 'sdk/v2'), { recursive: true });
    mkdirSync(join(outside, 'sdk/bin'));
    writeFileSync(join(outside, 'sdk/bin/runtests'), '#!/bin/sh\necho tests passed\n', { mode: 0o755 });
    symlinkSync(join(outside, 'sdk/v2'), join(outside, 'current'));
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER });
    // The text says <outside>/bin (no runtests there); the kernel goes up from sdk/v2 to sdk/bin.
    const env = { ...s.env, PATH: `${outside}/current/../bin:${process.env.PATH}` };
    const r = runCli(['--approve'], { cwd: s.repo, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS /m);
  });

  // Round 25 F1: a relative entry was bound for the gate's folder, but after a `cd` in the CHECK
  // the shell searched another folder, which nothing bound.
  it('an entry relative to the working directory is searched where it was bound, wherever the check moves', () => {
    for (const entry of ['tools', '', './tools/', '/proc/self/cwd/tools']) {
      const s = sandbox();
      writeFiles(s.repo, {
        'GATES.md': `- [ ] G1: the tests pass\n  CHECK: cd sub && runtests && echo "$PATH"\n  EXPECT: tests passed\n`,
        'tools/runtests': '#!/bin/sh\necho tests passed\n',
        'sub/tools/runtests': '#!/bin/sh\necho tests passed; touch unbound-ran\n',
        'sub/runtests': '#!/bin/sh\necho tests passed; touch unbound-ran\n',
        'runtests': '#!/bin/sh\necho tests passed\n',
      });
      for (const f of ['tools/runtests', 'sub/tools/runtests', 'sub/runtests', 'runtests']) chmodSync(join(s.repo, f), 0o755);
      const env = { ...s.env, PATH: `${entry}:${process.env.PATH}` };
      const r = runCli(['--approve'], { cwd: s.repo, env });
      expect(r.code, `PATH entry "${entry}"`).toBe(0);
      expect(existsSync(join(s.repo, 'sub/unbound-ran')), `PATH entry "${entry}"`).toBe(false);
    }
  });

  // Round 26 02: dash reads `~/x` in PATH as a folder named ~ in its current folder: after a
  // `cd`, sub/~/x was searched, which nothing bound.
  it('a ~/ entry is given to the check as HOME, which no cd moves', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the tests pass\n  CHECK: cd sub && runtests\n  EXPECT: tests passed\n',
      'tools/runtests': '#!/bin/sh\necho tests passed\n',
      'sub/~/x/runtests': '#!/bin/sh\necho tests passed; touch unbound-ran\n',
    });
    for (const f of ['tools/runtests', 'sub/~/x/runtests']) chmodSync(join(s.repo, f), 0o755);
    const env = { ...s.env, PATH: `~/x:${join(s.repo, 'tools')}:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    expect(existsSync(join(s.repo, 'sub/unbound-ran'))).toBe(false);
  });

  // Round 25 F5: bin/runtests was bound by its bytes, `#!lib/interp`, but the interpreter it
  // names was not: an edit to it ran under the old approval.
  it("an executable's #! interpreter in the repository is bound too; a relative one is refused", () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': LEDGER,
      'tools/runtests': `#!${join(s.repo, 'lib/interp')}\n`,
      'lib/interp': '#!/bin/sh\necho tests passed\n',
    });
    for (const f of ['tools/runtests', 'lib/interp']) chmodSync(join(s.repo, f), 0o755);
    const env = { ...s.env, PATH: `${join(s.repo, 'tools')}:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code).toBe(0);
    writeFileSync(join(s.repo, 'lib/interp'), '#!/bin/sh\ntouch edited-ran; echo tests passed\n');
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code).toBe(1);
    expect(runCli([], { cwd: s.repo, env }).stdout).not.toMatch(/^PASS/m);
    expect(existsSync(join(s.repo, 'edited-ran'))).toBe(false);

    writeFileSync(join(s.repo, 'tools/runtests'), '#!lib/interp\n');
    const relative = runCli(['--approve'], { cwd: s.repo, env });
    expect(relative.code).toBe(2);
    expect(relative.stderr).toMatch(/tools\/runtests names its #! interpreter by a relative path/);
  });

  // Round 26 03: `npm link` puts a link to the repository's CLI in an outside PATH folder; the
  // CHECK named it by a bare word, and the repository file it reached was bound by nothing.
  it('a command found in an outside PATH folder as a link into the repository is not runnable unless DEPENDS binds it', () => {
    const out = tempDir();
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the cli works\n  CHECK: mycli --selftest\n  EXPECT: selftest ok\n',
      'cli/mycli': '#!/bin/sh\necho selftest ok\n',
    });
    chmodSync(join(s.repo, 'cli/mycli'), 0o755);
    symlinkSync(join(s.repo, 'cli/mycli'), join(out, 'mycli'));
    const env = { ...s.env, PATH: `${out}:${process.env.PATH}` };
    const refused = runCli(['--approve'], { cwd: s.repo, env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/the CHECK's "mycli" is found in PATH at .*mycli, a link into the repository \(cli\/mycli\): that file is not bound into an approval unless DEPENDS lists it/);
    expect(refused.stdout).not.toMatch(/^PASS/m);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: the cli works\n  CHECK: mycli --selftest\n  EXPECT: selftest ok\n  DEPENDS: cli/mycli\n');
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    writeFileSync(join(s.repo, 'cli/mycli'), '#!/bin/sh\ntouch edited-ran; echo selftest ok\n');
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code).toBe(1);
    expect(runCli([], { cwd: s.repo, env }).stdout).not.toMatch(/^PASS/m);
    expect(existsSync(join(s.repo, 'edited-ran'))).toBe(false);

    // Through /proc, what the link reaches depends on the process: refused.
    const hop = tempDir();
    symlinkSync('/proc/self/cwd/cli/mycli', join(hop, 'mycli'));
    const viaProc = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${hop}:${process.env.PATH}` } });
    expect(viaProc.code).toBe(2);
    expect(viaProc.stderr).toMatch(/the CHECK's "mycli" is found in PATH at .*, which leads through \/proc or \/dev\/fd/);
  });

  // Round 25 F2: a link in the repository into /proc/self/cwd was resolved in gate-check's folder,
  // and by the check's shell in the gate's CWD: the bound files and the run ones differed.
  it('a folder or executable that leads through /proc/self (or /dev/fd) is refused, exit 2, nothing runs', () => {
    for (const [what, make] of [
      ['the PATH folder', (repo: string) => {
        renameSync(join(repo, 'tools'), join(repo, '.cache-tools'));
        symlinkSync('/proc/self/cwd/../../.cache-tools', join(repo, 'tools'));
      }],
      ['an executable in it', (repo: string) => {
        rmSync(join(repo, 'tools/runtests'));
        symlinkSync('/proc/self/cwd/../../x/runtests', join(repo, 'tools/runtests'));
      }],
      ['a link outside that leads into /proc', (repo: string) => {
        const out = join(tempDir(), 'hop');
        symlinkSync('/proc/self/cwd/../../x', out);
        rmSync(join(repo, 'tools/runtests'));
        symlinkSync(join(out, 'runtests'), join(repo, 'tools/runtests'));
      }],
    ] as const) {
      const s = sandbox();
      writeFiles(s.repo, {
        'GATES.md': '- [ ] G1: the tests pass\n  CHECK: runtests\n  EXPECT: tests passed\n  CWD: packages/api\n',
        'tools/runtests': '#!/bin/sh\necho tests passed\n',
        'x/runtests': '#!/bin/sh\necho tests passed\n',
        'packages/api/.keep': '',
      });
      for (const f of ['tools/runtests', 'x/runtests']) chmodSync(join(s.repo, f), 0o755);
      make(s.repo);
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${join(s.repo, 'tools')}:${process.env.PATH}` } });
      expect(r.code, what).toBe(2);
      expect(r.stderr, what).toMatch(/leads through \/proc or \/dev\/fd, which each process reads as its own/);
      expect(r.stdout, what).not.toMatch(/^PASS/m);
    }
  });

  // Round 25 F3: a link whose resolved path is longer than PATH_MAX was skipped as dangling,
  // while the kernel follows it.
  it('a link the kernel follows but realpath cannot resolve (ENAMETOOLONG) is refused, exit 2', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: node runs\n  CHECK: node -e "console.log(1)"\n  EXPECT: 1\n' });
    const long = 'd'.repeat(200);
    const p1 = Array(10).fill(long).join('/');
    const p2 = Array(12).fill(long).join('/');
    // Made by relative paths, as a shell does: the whole path is too long for one system call.
    const made = spawnSync('/bin/sh', ['-c', 'mkdir -p ".x/$1/$2" && ln -s "$1" .x/s1 && ln -s "$2" ".x/$1/s2" && printf "#!/bin/sh\\necho 1; touch ran\\n" > .x/s1/s2/node && chmod +x .x/s1/s2/node', 'sh', p1, p2], { cwd: s.repo });
    expect(made.status).toBe(0);
    mkdirSync(join(s.repo, 'node_modules/.bin'), { recursive: true });
    symlinkSync('../../.x/s1/s2/node', join(s.repo, 'node_modules/.bin/node'));
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${join(s.repo, 'node_modules/.bin')}:${process.env.PATH}` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/node_modules\/\.bin\/node is a link that cannot be resolved \(ENAMETOOLONG\)/);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });

  it('a dangling link in a PATH folder runs nothing and is no refusal; made to lead to an executable later, it is a change', () => {
    const s = repoWithTools((repo) => join(repo, 'tools'));
    symlinkSync('../later/runtests', join(s.repo, 'tools/other'));
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.run(['--status', '--strict']).code).toBe(0);
    writeFiles(s.repo, { 'later/runtests': '#!/bin/sh\necho tests passed\n' });
    chmodSync(join(s.repo, 'later/runtests'), 0o755);
    expect(s.run(['--status', '--strict']).code).toBe(1);
  });

  // Round 25 F4, round 27 08: `. suite.sh` finds a file through PATH that has no execute bit,
  // and no reading of the CHECK finds every spelling: a PATH folder of the repository is bound whole.
  it('every file in a PATH folder of the repository is bound, executable or not, however the CHECK reaches it', () => {
    const checks = ['. suite.sh', 'source "suite.sh"', 'bash -e suite.sh', "sh -c '. suite.sh'", 'eval ". suite.sh"', '\\. suite.sh', '"." suite.sh', '. -- suite.sh', '. "suite".sh', 'bash -o errexit suite.sh'];
    for (const check of checks) {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the suite passes\n  CHECK: ${check}\n  EXPECT: suite passed\n`, 'bin/suite.sh': 'echo suite passed\n', 'bin/notes.txt': 'x\n' });
      const env = { ...s.env, PATH: `${join(s.repo, 'bin')}:${process.env.PATH}`, GATE_CHECK_SHELL: '/bin/bash' };
      const first = runCli([], { cwd: s.repo, env });
      expect(joinedRows(first.stdout), check).toMatch(/^ {2}PATH {4}leads into the repository: 2 files there are bound into this approval: bin\/suite\.sh \(the CHECK's "suite\.sh" may run it\), bin\/notes\.txt /m);
      // Bound on the PATH row: not also named as an unbound script at the root.
      expect(first.stdout, check).not.toMatch(/^ {2}UNBOUND .*suite\.sh/m);
      expect(runCli(['--approve'], { cwd: s.repo, env }).code, check).toBe(0);
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, check).toBe(0);
      writeFileSync(join(s.repo, 'bin/suite.sh'), 'touch edited-ran; echo suite passed\n');
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, check).toBe(1);
      expect(runCli([], { cwd: s.repo, env }).stdout, check).not.toMatch(/^PASS/m);
      expect(existsSync(join(s.repo, 'edited-ran')), check).toBe(false);
    }
  });

  // The folder the work lives in (an empty entry, `.`) is bound by its executables and the
  // names the CHECK reads by `.`: its other files are the work under test.
  it('in the folder of the ledger, only executables and the files the CHECK reads by . are bound', () => {
    for (const check of ['. ./suite.sh', "sh -c '. suite.sh'"]) {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the suite passes\n  CHECK: ${check}\n  EXPECT: suite passed\n`, 'suite.sh': 'echo suite passed\n', 'notes.txt': 'x\n' });
      const env = { ...s.env, PATH: `.:${process.env.PATH}`, GATE_CHECK_SHELL: '/bin/bash' };
      expect(runCli(['--approve'], { cwd: s.repo, env }).code, check).toBe(0);
      writeFileSync(join(s.repo, 'notes.txt'), 'y\n'); // the work: no change
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, check).toBe(0);
      writeFileSync(join(s.repo, 'suite.sh'), 'touch edited-ran; echo suite passed\n');
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, check).toBe(check.includes("'") ? 1 : 0);
    }
  });

  it("a folder of the work tree is bound whole unless it is the top or the check's folder; a planted gates/ changes nothing", () => {
    // [PATH entry (relative to the top), ledger folder (the check's folder)]: the top, the check's
    // folder, another folder, and one made to look like a ledger's (round-29 05).
    for (const [entry, ledgerDir, whole] of [['.', 'packages/api', false], ['packages/api', 'packages/api', false], ['packages/lib', 'packages/api', true], ['tools', 'packages/api', true]] as const) {
      const s = sandbox();
      mkdirSync(join(s.repo, '.git'));
      writeFiles(s.repo, {
        [`${ledgerDir}/GATES.md`]: '- [ ] G1: the suite passes\n  CHECK: true && echo suite passed\n  EXPECT: suite passed\n',
        [`${entry}/notes.txt`]: 'x\n',
      });
      if (entry === 'tools') mkdirSync(join(s.repo, 'tools/gates'));
      const env = { ...s.env, PATH: `${join(s.repo, entry)}:${process.env.PATH}` };
      const cwd = join(s.repo, ledgerDir);
      expect(runCli(['--approve'], { cwd, env }).code, entry).toBe(0);
      writeFileSync(join(s.repo, entry, 'notes.txt'), 'y\n');
      expect(runCli(['--status', '--strict'], { cwd, env }).code, entry).toBe(whole ? 1 : 0);
    }
  });

  it('a FIFO in a PATH folder of the repository is refused (exit 2): what . reads from it cannot be bound', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the suite passes\n  CHECK: . suite.sh\n  EXPECT: suite passed\n', 'bin/suite.sh': 'echo suite passed\n' });
    expect(spawnSync('mkfifo', [join(s.repo, 'bin/pipe')]).status).toBe(0);
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${join(s.repo, 'bin')}:${process.env.PATH}` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds bin\/pipe, which is not a regular file/);
  });

  // Round-21 F3: node_modules/.bin on PATH before `npm ci` made it: a `cat` planted there later
  // ran instead of cat while the evidence stayed verified.
  it('a PATH folder inside the repository that does not exist yet is bound as empty: what is made there later is a change', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: data is good\n  CHECK: cat data.txt\n  EXPECT: good\n', 'data.txt': 'good\n' });
    const env = { ...s.env, PATH: `${join(s.repo, 'node_modules/.bin')}:${process.env.PATH}` };
    const run = (args: string[]) => {
      const r = runCli(args, { cwd: s.repo, env });
      return { ...r, stdout: joinedRows(r.stdout) };
    };
    expect(run([]).stdout).toMatch(/^ {2}PATH {4}leads into the repository, to folders with no file now \(left out of PATH above\): one made there later needs a new approval$/m);
    expect(run(['--approve']).code).toBe(0);
    expect(run(['--status', '--strict']).code).toBe(0);
    mkdirSync(join(s.repo, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(s.repo, 'node_modules/.bin/cat'), '#!/bin/sh\necho good\n', { mode: 0o755 });
    writeFileSync(join(s.repo, 'data.txt'), 'bad\n');
    const strict = run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/PATH executables inside the repository changed \(in node_modules\/\.bin\)/);
    const again = run([]);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^ {2}PATH {4}leads into the repository: 1 file there is bound into this approval: node_modules\/\.bin\/cat \(the CHECK's "cat" may run it\)/m);
    expect(again.stdout).not.toMatch(/^PASS /m);
  });

  // Round-31b F4: npx started in src/ adds src/node_modules/.bin (missing) before the root's
  // node_modules/.bin: the gates approved at the root asked again from src/.
  it('a PATH folder inside the repository that holds nothing is left out of what the approval signs; a file made there later is still a change', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: data is good\n  CHECK: cat data.txt\n  EXPECT: good\n', 'data.txt': 'good\n', 'src/x.js': '' });
    mkdirSync(join(s.repo, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(s.repo, 'node_modules/.bin/tool'), '#!/bin/sh\n', { mode: 0o755 });
    mkdirSync(join(s.repo, 'empty'));
    const atRoot = `${join(s.repo, 'node_modules/.bin')}:${process.env.PATH}`;
    const fromSrc = `${join(s.repo, 'src/node_modules/.bin')}:${join(s.repo, 'empty')}:${atRoot}`;
    const run = (args: string[], PATH: string) => {
      const r = runCli(args, { cwd: s.repo, env: { ...s.env, PATH } });
      return { ...r, stdout: joinedRows(r.stdout) };
    };
    expect(run(['--approve'], atRoot).code).toBe(0);
    writeFileSync(join(s.repo, 'data.txt'), 'good again\n');
    const again = run(['--reverify'], fromSrc);
    expect(again.stdout).toMatch(/^PASS /m);
    expect(again.code).toBe(0);
    // The same folders, once they hold a file, are bound: a new approval, nothing run.
    mkdirSync(join(s.repo, 'src/node_modules/.bin'), { recursive: true });
    writeFileSync(join(s.repo, 'src/node_modules/.bin/cat'), '#!/bin/sh\necho good\n', { mode: 0o755 });
    writeFileSync(join(s.repo, 'data.txt'), 'bad\n');
    const planted = run(['--reverify'], fromSrc);
    expect(planted.code).toBe(1);
    expect(planted.stdout).toMatch(/approved before for another oracle: .*PATH/);
    expect(planted.stdout).not.toMatch(/^PASS /m);
    rmSync(join(s.repo, 'src/node_modules'), { recursive: true });
    writeFileSync(join(s.repo, 'empty/cat'), '#!/bin/sh\necho good\n', { mode: 0o755 });
    const inEmpty = run(['--reverify'], fromSrc);
    expect(inEmpty.code).toBe(1);
    expect(inEmpty.stdout).not.toMatch(/^PASS /m);
  });

  // Round-33 F4 (round-32 F7): a PATH the CHECK sets into the repository was only a note on
  // the screen; an edit there after approval ran with ALL MET.
  it('a repository folder the CHECK puts on its own PATH, however plainly spelled (a variable it sets too), is bound: an edit there is stale and needs a new approval', () => {
    const s = sandbox();
    const home = dirname(s.repo);
    const rel = basename(s.repo);
    const plainly = [`$HOME/${rel}/tools`, `"\${HOME}"/${rel}/tools`, `~/${rel}/tools`, '$PWD/tools', 'tools', `$GC_TEST_DIR/${rel}/tools`].map((spelled) => `PATH=${spelled}`);
    // Through a variable the CHECK sets by a plain assignment (round-34 LOW), at the start or later.
    const throughVariable = ['T=tools; PATH=$T', `D=${rel}; PATH=$HOME/$D/tools`, 'true && T=tools; PATH=${T}'];
    for (const spelled of [...plainly, ...throughVariable]) {
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the tests pass\n  CHECK: ${spelled}:$PATH runtests\n  EXPECT: tests passed\n`, 'tools/runtests': '#!/bin/sh\necho tests passed\n' });
      rmSync(join(s.repo, 'swapped.log'), { force: true });
      chmodSync(join(s.repo, 'tools/runtests'), 0o755);
      const env = { ...s.env, HOME: home, GC_TEST_DIR: home };
      const first = runCli(['--approve'], { cwd: s.repo, env });
      expect(first.code, spelled).toBe(0);
      expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code, spelled).toBe(0);
      writeFileSync(join(s.repo, 'tools/runtests'), '#!/bin/sh\necho swapped >> swapped.log\necho tests passed\n', { mode: 0o755 });
      const strict = runCli(['--status', '--strict'], { cwd: s.repo, env });
      expect(strict.code, spelled).toBe(1);
      // (A variable that may be unset there puts the check's folder on PATH too: "in tools, .".)
      expect(joinedRows(strict.stdout), spelled).toMatch(/PATH executables inside the repository changed \(in tools[,)]/);
      const again = runCli(['--reverify'], { cwd: s.repo, env });
      expect(again.code, spelled).toBe(1);
      expect(joinedRows(again.stdout), spelled).toMatch(/approved before for another oracle: PATH executable inside the repository: tools\/runtests changed/);
      expect(existsSync(join(s.repo, 'swapped.log')), spelled).toBe(false);
    }
    // Relative to a folder a cd moved to: cannot be bound, so not runnable.
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the tests pass\n  CHECK: cd tools && PATH=.:$PATH runtests\n  EXPECT: tests passed\n' });
    const moved = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(moved.code).toBe(1);
    expect(joinedRows(moved.stdout)).toMatch(/not runnable: GATES:G1: the CHECK changes folder \(cd\) and puts "\." on PATH/);
    expect(existsSync(join(s.repo, 'swapped.log'))).toBe(false);
  });

  it('a PATH entry the CHECK makes at run time is named on the approval screen as not read, however it is made (round-37 F4, F5)', () => {
    const s = sandbox();
    for (const [check, shown] of [
      ['PATH=$(pwd)/cli:$PATH mycli', '$(pwd)/cli:$PATH'],
      ['T=(cli); PATH=$T:$PATH mycli', '$T'],
      ['set -- cli; PATH=$1:$PATH mycli', '$1'],
      ['read T; PATH=${T}:$PATH mycli', '${T}'],
    ]) {
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the tests pass\n  CHECK: ${check}\n  EXPECT: tests passed\n` });
      const r = runCli([], { cwd: s.repo, env: s.env });
      expect(r.code, check).toBe(1);
      expect(joinedRows(r.stdout), check).toContain(`PATH    set in the CHECK, not read: ${shown} (made at run time): what runs from there is not bound; read the CHECK yourself`);
    }
    // One it reads says nothing of the kind.
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the tests pass\n  CHECK: T=cli; PATH=$T:$PATH mycli\n  EXPECT: tests passed\n' });
    expect(runCli([], { cwd: s.repo, env: s.env }).stdout).not.toMatch(/not read:/);
  });

  it('a repository folder the CHECK puts on its own PATH and writes into while it runs: the result is STALE, nothing is ticked', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the tests pass\n  CHECK: PATH=tools:$PATH runtests; if [ -f attack ]; then printf "#!/bin/sh\\necho later\\n" > tools/later && chmod +x tools/later; fi\n  EXPECT: tests passed\n',
      'tools/runtests': '#!/bin/sh\necho tests passed\n',
    });
    chmodSync(join(s.repo, 'tools/runtests'), 0o755);
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    writeFileSync(join(s.repo, 'attack'), '');
    const r = runCli(['--reverify'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(1);
    expect(joinedRows(r.stdout)).toMatch(/^STALE GATES:G1: PATH directory tools written while the check ran/m);
  });

  // Round-34 F4: an outside PATH entry linked to a repository folder not made yet was taken
  // for an outside folder: a file planted there later left --status --strict ALL MET.
  it('an outside PATH entry that links to a repository folder not made yet is bound as that folder: a file made there later is a change', () => {
    const s = sandbox();
    const out = tempDir();
    symlinkSync(join(s.repo, 'tools'), join(out, 't'));
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: data is good\n  CHECK: cat data.txt\n  EXPECT: good\n', 'data.txt': 'good\n' });
    const env = { ...s.env, PATH: `${join(out, 't')}:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code).toBe(0);
    mkdirSync(join(s.repo, 'tools'));
    writeFileSync(join(s.repo, 'tools/cat'), '#!/bin/sh\necho ran >> ran.log; echo good\n', { mode: 0o755 });
    const strict = runCli(['--status', '--strict'], { cwd: s.repo, env });
    expect(strict.code).toBe(1);
    expect(joinedRows(strict.stdout)).toMatch(/PATH executables inside the repository changed \(in tools\)/);
    expect(runCli(['--reverify'], { cwd: s.repo, env }).code).toBe(1);
    expect(existsSync(join(s.repo, 'ran.log'))).toBe(false);
  });

  // Round-21 F5: 200 executables, and among them a `node` the CHECK runs instead of node: named
  // first, and a list cut short is approved only by its pin.
  it.skipIf(spawnSync('script', ['--version']).status !== 0)('the executable a CHECK word names is listed first, and a list cut short is approved only by its pin', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: tests pass\n  CHECK: node scripts/t.js\n  EXPECT: tests-ok\n  DEPENDS: scripts/t.js\n', 'scripts/t.js': 'console.log("tests-ok")\n' });
    mkdirSync(join(s.repo, 'node_modules/.bin'), { recursive: true });
    for (let i = 0; i < 200; i++) writeFileSync(join(s.repo, `node_modules/.bin/aa-tool${String(i).padStart(3, '0')}`), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(s.repo, 'node_modules/.bin/node'), '#!/bin/sh\necho tests-ok\n', { mode: 0o755 });
    const env = { ...s.env, PATH: `${join(s.repo, 'node_modules/.bin')}:${process.env.PATH}`, NO_COLOR: '1' };
    const out = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
    expect(out).toMatch(/^ {2}PATH {4}leads into the repository: 201 files there are bound into this approval: node_modules\/\.bin\/node \(the CHECK's "node" may run it\), node_modules\/\.bin\/aa-tool000, /m);
    expect(out).toMatch(/^not shown in full \(list of PATH executables in the repository\), so not approved at this prompt: /m);
    expect(out).not.toMatch(/approve\? \[y\/N\/a\]/);
    expect(out).not.toMatch(/^PASS /m);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)('a changed executable is approved only by its pin, with its digest, never at the prompt (round-7c attack)', () => {
    const s = repoWithTools(() => 'tools');
    const others = ['t1', 't2', 't3', 't4', 't5', 't6'];
    for (const t of others) writeFileSync(join(s.repo, 'tools', t), '#!/bin/sh\n', { mode: 0o755 });
    expect(s.run(['--approve']).code).toBe(0);
    s.swap();
    for (const t of others) writeFileSync(join(s.repo, 'tools', t), '#!/bin/sh\necho changed\n', { mode: 0o755 });
    const env = { ...s.env, PATH: `tools:${process.env.PATH}`, NO_COLOR: '1' };
    const raw = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '');
    // The note fits the screen too: its rows go on marked "  ~ ", the command to copy has a row of its own.
    const note = raw.split('\n').slice(raw.split('\n').findIndex((l) => l.startsWith('not shown in full')));
    expect(note.slice(0, note.findIndex((l) => l.includes('--approve'))).every((l) => l.length <= 80)).toBe(true);
    const out = raw.replace(/\n {2}~ /g, '');
    // Five named with their digests, the rest counted (an npm update changes hundreds).
    expect(out).toMatch(/^not shown in full \((PATH executable tools\/\w+ \(SHA-256 [0-9a-f]{64}\), changed, ){5}2 more changed or new PATH executables\), so not approved at this prompt: /m);
    expect(out).not.toMatch(/approve\? \[y\/N\/a\]/);
    expect(s.swapped()).toBe(false);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)('a renamed gate is no way around it: a changed executable that another approval of the repository bound is approved only by its pin (round-8 attack)', () => {
    const s = repoWithTools(() => 'tools');
    expect(s.run(['--approve']).code).toBe(0);
    s.swap();
    writeFileSync(join(s.repo, 'GATES.md'), LEDGER.replace('G1:', 'G1-renamed:'));
    const env = { ...s.env, PATH: `tools:${process.env.PATH}`, NO_COLOR: '1' };
    const out = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
    expect(out).toContain('  never approved before');
    expect(out).toMatch(/^not shown in full \(PATH executable tools\/runtests \(SHA-256 [0-9a-f]{64}\), changed\), so not approved at this prompt: /m);
    expect(out).not.toMatch(/approve\? \[y\/N\/a\]/);
    expect(s.swapped()).toBe(false);
    // A new executable ahead of the bound ones (a tools/jest shadowing node_modules/.bin/jest) is no way around it either (round-8b attack).
    writeFileSync(join(s.repo, 'tools', 'shadow'), '#!/bin/sh\necho shadow\n', { mode: 0o755 });
    writeFileSync(join(s.repo, 'GATES.md'), LEDGER.replace('G1:', 'G1-again:'));
    const shadowed = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
    expect(shadowed).toMatch(/^not shown in full \(PATH executable tools\/runtests \(SHA-256 [0-9a-f]{64}\), changed, PATH executable tools\/shadow \(SHA-256 [0-9a-f]{64}\), new\)/m);
    // Nor is a gate moved into a ledger of a subfolder, approved from there (round-8b attack).
    mkdirSync(join(s.repo, '.git'));
    mkdirSync(join(s.repo, 'packages', 'api'), { recursive: true });
    writeFileSync(join(s.repo, 'packages', 'api', 'GATES.md'), LEDGER.replace('G1:', 'G1-moved:'));
    rmSync(join(s.repo, 'GATES.md'));
    const moved = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: join(s.repo, 'packages', 'api'), env: { ...env, PATH: `${join(s.repo, 'tools')}:${process.env.PATH}` }, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
    expect(moved).toMatch(/^not shown in full \(PATH executable tools\/runtests \(SHA-256 [0-9a-f]{64}\), changed/m);
    expect(moved).not.toMatch(/approve\? \[y\/N\/a\]/);
    expect(s.swapped()).toBe(false);
    // An executable no approval of the repository ever bound is taken as it is installed.
    const fresh = repoWithTools(() => 'tools');
    const first = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: fresh.repo, env: { ...fresh.env, PATH: `tools:${process.env.PATH}`, NO_COLOR: '1' }, input: 'y\n', encoding: 'utf8' }).stdout;
    expect(first).toMatch(/approve\? \[y\/N\/a\]/);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)("another repository's approvals say nothing of this one's executables: its first approval takes them as installed", () => {
    const a = repoWithTools(() => 'tools');
    expect(a.run(['--approve']).code).toBe(0);
    // The same store, another repository, another tools/runtests.
    const b = repoWithTools(() => 'tools');
    b.swap();
    // Another gate (the same one, copied, would be compared with its approval there).
    writeFileSync(join(b.repo, 'GATES.md'), LEDGER.replace('G1:', 'B1:'));
    const env = { ...a.env, PATH: `tools:${process.env.PATH}`, NO_COLOR: '1' };
    const out = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: b.repo, env, input: 'n\n', encoding: 'utf8' }).stdout;
    expect(out).toMatch(/approve\? \[y\/N\/a\]/);
    expect(out).not.toMatch(/not shown in full/);
  });

  it('an executable swapped while an earlier gate runs is not run (re-resolved before the spawn)', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G0: swaps the tool when told to\n  CHECK: if [ -f attack ]; then printf "#!/bin/sh\\\\necho evil >> evil.log; echo tests passed\\\\n" > tools/runtests; fi; echo zero-ok\n  EXPECT: zero-ok\n' + LEDGER,
      'tools/runtests': '#!/bin/sh\necho tests passed\n',
    });
    chmodSync(join(s.repo, 'tools/runtests'), 0o755);
    const env = { ...s.env, PATH: `tools:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    writeFileSync(join(s.repo, 'attack'), '');
    const r = runCli(['--reverify'], { cwd: s.repo, env });
    expect(r.code).toBe(1);
    expect(existsSync(join(s.repo, 'evil.log'))).toBe(false);
    expect(r.stdout).toMatch(/changed since approval, not run: PATH executable inside the repository: tools\/runtests changed/);
  });

  it('an entry that an earlier gate creates (missing at approval, inside the repository) is bound before the later spawn', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G0: makes the tools when told to\n  CHECK: if [ -f attack ]; then mkdir -p tools && printf "#!/bin/sh\\necho evil >> evil.log; echo tests passed\\n" > tools/runtests && chmod +x tools/runtests; fi; echo zero-ok\n  EXPECT: zero-ok\n' +
        '- [ ] G1: the tests pass\n  CHECK: runtests || echo tests passed\n  EXPECT: tests passed\n',
    });
    const env = { ...s.env, PATH: `tools:${join(s.repo, 'bin')}:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    writeFileSync(join(s.repo, 'attack'), '');
    const r = runCli(['--reverify'], { cwd: s.repo, env });
    expect(r.code).toBe(1);
    expect(existsSync(join(s.repo, 'evil.log'))).toBe(false);
    // Bound as empty at approval (round-21 F3): the executable made there is a change, and G0, which made it in a folder its own approval binds, is STALE.
    expect(r.stdout).toMatch(/GATES:G1  the tests pass: changed since approval, not run: PATH changed: added tools, PATH executable inside the repository: tools\/runtests added/);
    expect(r.stdout).toMatch(/^STALE GATES:G0: PATH directory tools written while the check ran/m);
  });

  it('a symlinked executable is bound by its link and its target inside the repository', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER, 'lib/real.sh': '#!/bin/sh\necho tests passed\n' });
    chmodSync(join(s.repo, 'lib/real.sh'), 0o755);
    writeFiles(s.repo, { 'tools/.keep': '' });
    symlinkSync('../lib/real.sh', join(s.repo, 'tools/runtests'));
    const env = { ...s.env, PATH: `tools:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    writeFileSync(join(s.repo, 'lib/real.sh'), '#!/bin/sh\necho other; echo tests passed\n');
    expect(joinedRows(runCli([], { cwd: s.repo, env }).stdout)).toMatch(/PATH executable inside the repository: tools\/runtests changed/);
  });

  it('PATH entries outside the repository bind nothing new: the approval record has no pathBound', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    const dir = join(s.home, '.gate-check', 'approved');
    const record = JSON.parse(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.json'))!), 'utf8'));
    expect(Object.hasOwn(record.oracle, 'pathBound')).toBe(false);
  });

  it('an executable that exists only while the check runs (made in the PATH directory and removed): the pass is STALE (round-2 attack)', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the tests pass\n  CHECK: sh run.sh\n  EXPECT: tests passed\n',
      'run.sh': 'if [ -f race ]; then printf "#!/bin/sh\\necho tests passed\\n" > tools/fake; chmod +x tools/fake; fake; rm tools/fake; else runtests; fi\n',
      'tools/runtests': '#!/bin/sh\necho tests passed\n',
    });
    chmodSync(join(s.repo, 'tools/runtests'), 0o755);
    const env = { ...s.env, PATH: `tools:${process.env.PATH}` };
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    writeFiles(s.repo, { race: '' });
    const r = runCli(['--reverify'], { cwd: s.repo, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^STALE GATES:G1: PATH directory tools written while the check ran/m);
  });

  it('more executables than can be bound is refused (exit 2), running nothing', () => {
    const s = sandbox();
    const files: Record<string, string> = { 'GATES.md': '- [ ] G1: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' };
    for (let i = 0; i <= 2000; i++) files[`bin/t${i}`] = '#!/bin/sh\n';
    writeFiles(s.repo, files);
    for (let i = 0; i <= 2000; i++) chmodSync(join(s.repo, `bin/t${i}`), 0o755);
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `bin:${process.env.PATH}` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/more than 2000 files inside the repository \(in bin\)/);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });
});

// Found by an attack: a shell named by --shell or GATE_CHECK_SHELL that lives in the
// repository was bound by its path only; replaced after approval, it ran every CHECK.
describe('a shell inside the repository is refused', () => {
  const setup = () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: t\n  CHECK: echo ok\n  EXPECT: ok\n', 'tools/mysh': '#!/bin/sh\nexec /bin/sh "$@"\n' });
    chmodSync(join(s.repo, 'tools/mysh'), 0o755);
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const r = runCli(args, { cwd: s.repo, env: { ...s.env, ...env } });
      return { ...r, stdout: joinedRows(r.stdout) };
    };
    return { ...s, run };
  };
  it('by --shell, by GATE_CHECK_SHELL, or through a link outside that leads into it: exit 2 before anything runs or is approved', () => {
    const s = setup();
    const link = join(s.home, 'sh-link');
    symlinkSync(join(s.repo, 'tools/mysh'), link);
    for (const [args, env] of [
      [['--approve', '--shell', 'tools/mysh'], {}],
      [['--approve', '--shell', join(s.repo, 'tools/mysh')], {}],
      [['--approve'], { GATE_CHECK_SHELL: './tools/mysh' }],
      [['--approve', '--shell', link], {}],
    ] as const) {
      const r = s.run([...args], env);
      expect(r.code, JSON.stringify(args)).toBe(2);
      expect(r.stderr).toMatch(/the shell \S+ lies inside the repository.*: an approval binds a shell by its path, not its content, so it is refused/);
      expect(r.stdout).not.toMatch(/PASS|approved:/);
    }
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/^- \[ \] G1/);
    // A shell outside the repository is used as before.
    expect(s.run(['--approve', '--shell', '/bin/sh']).code).toBe(0);
  });
});

// Found by an attack (round 7): with the ledger in a subfolder (packages/api/GATES.md, --root,
// or a run from the package), "inside the repository" meant the ledger's folder, so a shell
// in <top>/tools and a hoisted <top>/node_modules/.bin were neither refused nor bound.
describe('a ledger in a subfolder of a work tree: the whole work tree is the repository', () => {
  const setup = () => {
    const s = sandbox();
    writeFiles(s.repo, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/objects/.keep': '',
      '.git/refs/.keep': '',
      'packages/api/GATES.md': '- [ ] A: api tests pass\n  CHECK: jest\n  EXPECT: Tests: 12 passed\n',
      'node_modules/.bin/jest': '#!/bin/sh\necho "Tests: 12 passed"\n',
      'tools/mysh': '#!/bin/sh\nexec /bin/sh "$@"\n',
    });
    chmodSync(join(s.repo, 'node_modules/.bin/jest'), 0o755);
    chmodSync(join(s.repo, 'tools/mysh'), 0o755);
    const env = { ...s.env, PATH: `${join(s.repo, 'node_modules/.bin')}:${process.env.PATH}` };
    const pkg = join(s.repo, 'packages/api');
    return { ...s, env, pkg };
  };

  it('a shell elsewhere in the work tree is refused, whichever way the ledger is reached', () => {
    const s = setup();
    const shell = join(s.repo, 'tools/mysh');
    for (const [args, cwd] of [
      [['--approve', '--shell', shell, 'packages/api/GATES.md'], s.repo],
      [['--approve', '--shell', shell, '--root', s.pkg], s.repo],
      [['--approve', '--shell', shell], s.pkg],
    ] as const) {
      const r = runCli([...args], { cwd, env: s.env });
      expect(r.code, JSON.stringify(args)).toBe(2);
      expect(r.stderr).toMatch(/the shell \S+\/tools\/mysh lies inside the repository/);
      expect(r.stdout).not.toMatch(/PASS|approved:/);
    }
    // A .git planted in the package does not make the package the repository: the outermost work tree counts.
    writeFiles(s.pkg, { '.git/HEAD': 'ref: refs/heads/main\n', '.git/objects/.keep': '', '.git/refs/.keep': '' });
    const planted = runCli(['--approve', '--shell', shell], { cwd: s.pkg, env: s.env });
    expect(planted.code).toBe(2);
    expect(planted.stderr).toMatch(/the shell \S+\/tools\/mysh lies inside the repository/);
  });

  it('a top-level .git that git accepts but a strict reading would not (round 7b): still the repository', () => {
    const variants: Array<[string, (repo: string, home: string) => void]> = [
      ['HEAD with an extra newline', (repo) => writeFileSync(join(repo, '.git/HEAD'), 'ref: refs/heads/main\n\n')],
      ['.git as a link to a git directory elsewhere', (repo, home) => {
        renameSync(join(repo, '.git'), join(home, 'real.git'));
        symlinkSync(join(home, 'real.git'), join(repo, '.git'));
      }],
      ['a gitdir: file with two newlines', (repo, home) => {
        renameSync(join(repo, '.git'), join(home, 'real.git'));
        writeFileSync(join(repo, '.git'), `gitdir: ${join(home, 'real.git')}\n\n`);
      }],
    ];
    for (const [name, spoil] of variants) {
      const s = setup();
      spoil(s.repo, s.home);
      const r = runCli(['--approve', '--shell', join(s.repo, 'tools/mysh')], { cwd: s.pkg, env: s.env });
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(/the shell \S+\/tools\/mysh lies inside the repository/);
    }
  });

  it('a work tree that holds the home directory (a dotfiles repository) is not the project: only the project is', () => {
    const s = setup();
    // HOME is the top level itself here, as for a repository of dotfiles around the project.
    const r = runCli(['--approve', '--shell', join(s.repo, 'tools/mysh'), '--root', s.pkg], { cwd: s.pkg, env: { ...s.env, HOME: s.repo } });
    expect(r.stderr).not.toMatch(/lies inside the repository/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS GATES:A /m);
  });

  it('a PATH entry elsewhere in the work tree is bound: shown at approval, and a swap is stale and needs a new approval', () => {
    const s = setup();
    const run = (args: string[]) => {
      const r = runCli(args, { cwd: s.pkg, env: s.env });
      return { ...r, stdout: joinedRows(r.stdout) };
    };
    expect(run([]).stdout).toMatch(/^ {2}PATH {4}leads into the repository: 1 file there is bound into this approval: node_modules\/\.bin\/jest \(the CHECK's "jest" may run it\) \(read it too\)$/m);
    expect(run(['--approve']).code).toBe(0);
    expect(run(['--status', '--strict']).code).toBe(0);
    writeFileSync(join(s.repo, 'node_modules/.bin/jest'), `#!/bin/sh\ntouch ${join(s.repo, 'PWNED')}\necho "Tests: 12 passed"\n`, { mode: 0o755 });
    const strict = runCli(['--status', '--strict', 'packages/api/GATES.md'], { cwd: s.repo, env: s.env });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/met, stale .*PATH executables inside the repository changed \(in node_modules\/\.bin\)/);
    const again = run(['--reverify']);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/approved before for another oracle: PATH executable inside the repository: node_modules\/\.bin\/jest changed/);
    expect(existsSync(join(s.repo, 'PWNED'))).toBe(false);
  });

  it('an executable made in that PATH directory while the check runs, and removed: the pass is STALE', () => {
    const s = setup();
    writeFiles(s.pkg, { 'GATES.md': '- [ ] A: api tests pass\n  CHECK: sh run.sh\n  EXPECT: Tests: 12 passed\n', 'run.sh': 'if [ -f race ]; then d=../../node_modules/.bin; printf "#!/bin/sh\\necho Tests: 12 passed\\n" > $d/fake; chmod +x $d/fake; fake; rm $d/fake; else jest; fi\n' });
    expect(runCli(['--approve'], { cwd: s.pkg, env: s.env }).code).toBe(0);
    writeFiles(s.pkg, { race: '' });
    const r = runCli(['--reverify'], { cwd: s.pkg, env: s.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^STALE GATES:A: PATH directory \.\.\/\.\.\/node_modules\/\.bin written while the check ran/m);
  });
});
