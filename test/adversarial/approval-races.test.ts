// The approval is checked when the command starts, not minutes before (issue 8 §1). An
// earlier, approved gate changes what a later gate would run, while the run is under way:
// the later gate must run nothing of its new, unreviewed form.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

/**
 * G1 is harmless until `mode` says otherwise; then it performs `attack` (a shell snippet)
 * while the run is under way. G2 records every run of its own in `g2.runs`.
 */
function racedRepo(g2: string, attack: string, files: Record<string, string> = {}) {
  const s = sandbox();
  writeFiles(s.repo, {
    'GATES.md': [
      '- [ ] G1: the first check',
      '  CHECK: if [ "$(cat mode)" = attack ]; then sh attack.sh; fi; echo one-ok',
      '  EXPECT: one-ok',
      g2,
      '',
    ].join('\n'),
    mode: 'calm\n',
    'attack.sh': attack,
    ...files,
  });
  const run = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
  const approveBoth = () => {
    const r = run(['--approve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    writeFileSync(join(s.repo, 'mode'), 'attack\n');
  };
  const g2Runs = () => (existsSync(join(s.repo, 'g2.runs')) ? readFileSync(join(s.repo, 'g2.runs'), 'utf8').split('\n').filter(Boolean).length : 0);
  return { ...s, run, approveBoth, g2Runs, ledger: () => readFileSync(join(s.repo, 'GATES.md'), 'utf8') };
}

describe('the oracle is re-resolved and the approval re-read immediately before each spawn', () => {
  it('a DEPENDS file edited by an earlier gate: the later gate runs nothing of its new form', () => {
    const s = racedRepo(
      ['- [ ] G2: the dependent check', '  CHECK: sh dep.sh', '  EXPECT: two-ok', '  DEPENDS: dep.sh'].join('\n'),
      "printf 'echo unreviewed >> g2.evil\\n' >> dep.sh\n",
      { 'dep.sh': 'echo run >> g2.runs; echo two-ok\n' },
    );
    s.approveBoth();
    expect(s.g2Runs()).toBe(1);
    const r = s.run(['--reverify']);
    expect(r.code).toBe(1);
    expect(s.g2Runs()).toBe(1); // not run again
    expect(existsSync(join(s.repo, 'g2.evil'))).toBe(false);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2 .*changed since approval, not run: DEPENDS: dep\.sh changed$/m);
    // The pin it suggests is the new oracle's, so that approving it means reviewing the change.
    const pin = / --approve (GATES:G2@[0-9a-f]{32})/.exec(r.stdout)![1]!;
    const list = runCli(['--json'], { cwd: s.repo, env: s.env });
    const g2 = JSON.parse(list.stdout).gates[1];
    expect(pin.endsWith(g2.result.signature.slice(0, 32))).toBe(true);
    expect(JSON.parse(s.run(['--reverify', '--json']).stdout).gates[1].result).toMatchObject({ status: 'approval-required', changed: ['DEPENDS: dep.sh changed'] });
    // The same race with --json: that oracle was never on a screen, so it is to be approved only by its pin, and nothing of it is judged.
    writeFileSync(join(s.repo, 'dep.sh'), 'echo run >> g2.runs; echo two-ok\n');
    const raced = JSON.parse(s.run(['--reverify', '--json']).stdout).gates[1].result;
    expect(raced).toMatchObject({ status: 'approval-required', changed: ['DEPENDS: dep.sh changed'], request: { pinOnly: ['changed as its run began: run again to see it'], unboundScripts: null, unboundNotJudged: null } });
    expect(s.g2Runs()).toBe(1);
    expect(existsSync(join(s.repo, 'g2.evil'))).toBe(false);
  });

  it('a CWD swapped for a symlink to a folder outside the repository after start-up is not entered', () => {
    const outside = tempDir('gc-outside-');
    const s = racedRepo(
      ['- [ ] G2: runs in sub', '  CHECK: echo run >> g2.here; echo two-ok', '  EXPECT: two-ok', '  CWD: sub'].join('\n'),
      `mv sub sub.real && ln -s ${outside} sub\n`,
    );
    mkdirSync(join(s.repo, 'sub'));
    s.approveBoth();
    expect(existsSync(join(s.repo, 'sub', 'g2.here'))).toBe(true);
    const r = s.run(['--reverify']);
    expect(r.code).toBe(1);
    expect(existsSync(join(outside, 'g2.here'))).toBe(false);
    expect(r.stdout).toMatch(/^NOT RUN GATES:G2 .*changed since approval, not run: CWD of GATES:G2 \(GATES\.md:\d+\) resolves outside the repository/m);
  });

  // A record read at start-up and settled (last changed 2 s before) is checked again before
  // the spawn by one lstat (lib/approval/store.ts), a fresh one by a full read: a removal and
  // an in-place rewrite are seen either way.
  const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);

  for (const settled of [false, true]) {
    it(`an approval ${settled ? 'settled 2 s before the run, ' : ''}revoked while an earlier gate runs: the later gate does not run, is not ticked, and the run exits 1`, () => {
      const s = racedRepo(
        ['- [ ] G2: the revoked check', '  CHECK: echo run >> g2.runs; echo two-ok', '  EXPECT: two-ok'].join('\n'),
        `"${process.execPath}" "${BIN}" approvals revoke GATES:G2 >/dev/null\n`,
      );
      s.approveBoth();
      // Untick G2 so that a plain run would run it.
      writeFileSync(join(s.repo, 'GATES.md'), s.ledger().replace('- [x] G2:', '- [ ] G2:'));
      if (settled) settle();
      const r = s.run(['--reverify']);
      expect(r.code).toBe(1);
      expect(s.g2Runs()).toBe(1);
      expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2 .*approval revoked since the run started, not run$/m);
      expect(s.ledger()).toMatch(/^- \[ \] G2:/m);
    });
  }

  it('a settled approval rewritten in place while an earlier gate runs is read again (and refused)', () => {
    const s = racedRepo(
      ['- [ ] G2: the rewritten check', '  CHECK: echo run >> g2.runs; echo two-ok', '  EXPECT: two-ok'].join('\n'),
      `for f in "$HOME"/.gate-check/approved/*.json; do printf '{}' > "$f"; done\n`,
    );
    s.approveBoth();
    settle();
    const r = s.run(['--reverify']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(s.g2Runs()).toBe(1);
    expect(r.stderr).toMatch(/invalid approval record/);
  });

  it('a shell that no longer resolves to the approved path runs nothing', () => {
    const bin = tempDir('gc-bin-');
    writeFileSync(join(bin, 'mysh'), '#!/bin/sh\nexec /bin/sh "$@"\n', { mode: 0o755 });
    const s = racedRepo(['- [ ] G2: second', '  CHECK: echo run >> g2.runs; echo two-ok', '  EXPECT: two-ok'].join('\n'), `mv ${bin}/mysh ${bin}/gone\n`);
    const run = (args: string[]) => runCli(args, { cwd: s.repo, env: { ...s.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(run(['--approve', '--shell', 'mysh']).code).toBe(0);
    writeFileSync(join(s.repo, 'mode'), 'attack\n');
    const r = run(['--reverify', '--shell', 'mysh']);
    expect(r.code).toBe(1);
    expect(s.g2Runs()).toBe(1);
    expect(r.stdout).toMatch(/^NOT RUN GATES:G2 .*changed since approval, not run: --shell mysh is not an executable file/m);
  });

  it('a shell name that now resolves to another file on PATH runs nothing', () => {
    const first = tempDir('gc-bin1-');
    const second = tempDir('gc-bin2-');
    for (const d of [first, second]) writeFileSync(join(d, 'mysh'), '#!/bin/sh\nexec /bin/sh "$@"\n', { mode: 0o755 });
    const s = racedRepo(['- [ ] G2: second', '  CHECK: echo run >> g2.runs; echo two-ok', '  EXPECT: two-ok'].join('\n'), `rm ${first}/mysh\n`);
    const run = (args: string[]) => runCli(args, { cwd: s.repo, env: { ...s.env, PATH: `${first}:${second}:${process.env.PATH}` } });
    expect(run(['--approve', '--shell', 'mysh']).code).toBe(0);
    writeFileSync(join(s.repo, 'mode'), 'attack\n');
    const r = run(['--reverify', '--shell', 'mysh']);
    expect(r.code).toBe(1);
    expect(s.g2Runs()).toBe(1);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2 .*changed since approval, not run: shell changed$/m);
  });
});

describe('a file the oracle binds, written while its check runs, even with its bytes put back (integrity attack F2)', () => {
  // The check itself plays the racer, deterministically: it swaps the bound file for another
  // version, reads it as an approved check would, and restores the original bytes before it
  // ends. Contents compared after the run are as approved; the file's ctime is not.
  const swap = (file: string) => `cp ${file} .orig; printf 'fake\\n' > ${file}; cat ${file} >/dev/null; cat .orig > ${file}; rm .orig; echo ok`;
  for (const [what, attrs] of [
    ['DEPENDS', ['  DEPENDS: dep.sh']],
    ['INPUTS', ['  INPUTS: src/*.txt']],
  ] as const) {
    it(`${what}: the pass is discarded as STALE, leaves no receipt and ticks nothing; the honest run passes`, () => {
      const s = sandbox();
      const file = what === 'DEPENDS' ? 'dep.sh' : 'src/a.txt';
      writeFiles(s.repo, { 'GATES.md': ['- [ ] G1: the check', '  CHECK: sh run.sh', '  EXPECT: ok', ...attrs, ''].join('\n'), 'run.sh': 'if [ -f swap ]; then sh swap; else echo ok; fi\n', swap: swap(file), 'dep.sh': 'echo dep\n', 'src/a.txt': 'a\n' });
      const swapText = readFileSync(join(s.repo, 'swap'), 'utf8');
      // Approved and passed without the swap.
      writeFileSync(join(s.repo, 'swap.off'), swapText);
      execFileSync('rm', [join(s.repo, 'swap')]);
      expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
      const receipts = () => readFileSync(join(s.home, '.gate-check', 'receipts', execFileSync('ls', [join(s.home, '.gate-check', 'receipts')]).toString().split('\n').find((n) => n.endsWith('.records.json'))!), 'utf8');
      const before = receipts();
      // Re-verified while the check swaps the bound file and puts it back.
      execFileSync('mv', [join(s.repo, 'swap.off'), join(s.repo, 'swap')]);
      const r = runCli(['--reverify'], { cwd: s.repo, env: s.env });
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`^STALE GATES:G1: ${what} ${file.replace('.', '\\.')} written while the check ran \\(or too close to its start to tell\\); if the check writes it itself \\(build output\\), bind its sources instead; result not written$`, 'm'));
      expect(readFileSync(join(s.repo, file), 'utf8')).toBe(file === 'dep.sh' ? 'echo dep\n' : 'a\n');
      expect(receipts()).toBe(before);
      const history = runCli(['history', 'G1', '--json'], { cwd: s.repo, env: s.env });
      expect(history.stdout).toMatch(/"status":\s*"stale"/);
    });
  }

  it('an earlier gate that writes a later gate\'s INPUTS right before it starts: the later gate waits for the timestamps to move on and passes', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': ['- [ ] G1: the build', '  CHECK: echo built-$$ > out.txt; echo ok', '  EXPECT: ok', '- [ ] G2: the test of the build', '  CHECK: cat out.txt', '  EXPECT: built', '  INPUTS: out.txt', ''].join('\n'),
      'out.txt': 'built-0\n',
    });
    for (let i = 0; i < 3; i++) {
      const r = runCli(i === 0 ? ['--approve'] : ['--reverify'], { cwd: s.repo, env: s.env });
      expect(r.stdout, r.stderr).toMatch(/^PASS GATES:G2 /m);
      expect(r.code).toBe(0);
    }
  });

  it('a failure while a bound file is written is still recorded (the newest result decides)', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the check\n  CHECK: sh run.sh\n  EXPECT: ok\n  DEPENDS: dep.sh\n', 'run.sh': 'if [ -f broken ]; then touch dep.sh; echo no; else echo ok; fi\n', 'dep.sh': 'echo dep\n' });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    writeFiles(s.repo, { broken: '' });
    const r = runCli(['--reverify'], { cwd: s.repo, env: s.env });
    expect(r.stdout).toMatch(/^FAIL GATES:G1 /m);
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env: s.env }).code).toBe(1);
  });
});
