// Writeback under attack through the real CLI: an approved check that, while it runs, swaps a
// directory above the ledger, edits its own DEPENDS, or replaces a directory of the private
// store. Each gate is approved first with its attack switched off (a flag file), then run
// with the attack on: every write must happen completely and safely, or be refused (exit 2).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LEDGER_BYTES } from '../../lib/workspace/load.js';
import { runCli, sandbox, tempDir, writeFiles, type CliResult } from '../helpers/cli.js';
import { runCliWithFileLimit } from '../helpers/limits.js';

/** A gate whose CHECK runs `attack` only once the file `armed` exists. */
function gate(id: string, attack: string, extra = ''): string {
  return `- [ ] ${id}: gate ${id}\n  CHECK: if [ -f armed ]; then ${attack}; fi; echo ok\n  EXPECT: ok\n${extra}`;
}

function setup(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const run = (args: string[], env: NodeJS.ProcessEnv = {}): CliResult => runCli(args, { cwd: s.repo, env: { ...s.env, ...env } });
  return {
    ...s,
    run,
    /** Approves and runs every gate with the attacks off, then resets the ledgers and arms them. */
    approveThenArm() {
      const r = run(['--approve']);
      expect(r.code, r.stderr).toBe(0);
      writeFiles(s.repo, files);
      writeFileSync(join(s.repo, 'armed'), '');
    },
    /** Every run record (a receipt of each written result) of the private store. */
    receipts(): { gate: string }[] {
      const dir = join(s.home, '.gate-check', 'receipts');
      if (!existsSync(dir)) return [];
      return readdirSync(dir).filter((n) => n.endsWith('.records.json')).flatMap((n) => (JSON.parse(readFileSync(join(dir, n), 'utf8')) as { records: { gate: string }[] }).records);
    },
    clearReceipts() {
      execFileSync('rm', ['-rf', join(s.home, '.gate-check', 'receipts')]);
    },
  };
}

describe('a directory above the ledger swapped during the run: nothing outside the repository is written', () => {
  it('gates/ replaced by a symlink to another repository\'s gates/: exit 2, and that repository stays unmet', () => {
    const other = tempDir('gc-other-');
    const ledger = gate('G1', `mv gates gates.orig && ln -s '${other}/gates' gates`);
    mkdirSync(join(other, 'gates'));
    writeFileSync(join(other, 'gates', 'work.md'), ledger);
    const s = setup({ 'gates/work.md': ledger });
    s.approveThenArm();
    const r = s.run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.repo, 'gates')}: is a symbolic link`);
    expect(readFileSync(join(other, 'gates', 'work.md'), 'utf8')).toBe(ledger);
    expect(readdirSync(join(other, 'gates'))).toEqual(['work.md']);
    expect(readFileSync(join(s.repo, 'gates.orig', 'work.md'), 'utf8')).toBe(ledger);
    const theirs = runCli(['--status'], { cwd: other, env: s.env });
    expect(theirs.code).toBe(1);
  });

  it('a scope directory replaced by another repository\'s scope directory moved in (a real directory): exit 2', () => {
    const other = tempDir('gc-other-');
    const ledger = gate('G1', `mv .gate-check/s s.orig && mv '${other}/.gate-check/s' .gate-check/s`);
    mkdirSync(join(other, '.gate-check', 's'), { recursive: true });
    writeFileSync(join(other, '.gate-check', 's', 'work.md'), ledger);
    const s = setup({ '.gate-check/s/work.md': ledger });
    const r0 = s.run(['--approve', '--scope', 's']);
    expect(r0.code, r0.stderr).toBe(0);
    writeFiles(s.repo, { '.gate-check/s/work.md': ledger, armed: '' });
    const r = s.run(['--scope', 's']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.repo, '.gate-check', 's')}: was replaced by another directory since the run started`);
    // The other repository's ledger (now moved in) is exactly as it was.
    expect(readFileSync(join(s.repo, '.gate-check', 's', 'work.md'), 'utf8')).toBe(ledger);
  });
});

describe('a run whose result is discarded writes no receipt', () => {
  it('a check that edits its own DEPENDS file: STALE, and no receipt for it; a gate in the same batch keeps its receipt', () => {
    const files = {
      'GATES.md': gate('A', 'echo more >> dep.txt', '  DEPENDS: dep.txt\n') + '\n' + gate('B', 'true'),
      'dep.txt': 'v1\n',
    };
    const s = setup(files);
    s.approveThenArm();
    s.clearReceipts();
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^STALE GATES:A: DEPENDS dep\.txt written while the check ran \(or too close to its start to tell\); if the check writes it itself \(build output\), bind its sources instead; result not written$/m);
    // Said once, truthfully: no PASS line for A before its STALE line, and one line per gate.
    expect(r.stdout).not.toMatch(/^PASS GATES:A/m);
    expect(r.stdout.match(/^(PASS|FAIL|STALE) GATES:A/gm)).toHaveLength(1);
    expect(r.stdout.match(/^PASS GATES:B/gm)).toHaveLength(1);
    expect(s.receipts().map((x) => x.gate)).toEqual(['B']);
  });
});

describe('a directory of the private store replaced while in use (a check that mv-s it and makes a new one)', () => {
  it('the receipts directory: exit 2, and neither receipts nor the ledger are written', () => {
    const files = { 'GATES.md': gate('G1', 'mv "$HOME/.gate-check/receipts" "$HOME/receipts.old" && mkdir -m 700 "$HOME/.gate-check/receipts"') };
    const s = setup(files);
    s.approveThenArm();
    const r = s.run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.home, '.gate-check', 'receipts')}: was replaced while in use (refused)`);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(files['GATES.md']);
    expect(readdirSync(join(s.home, '.gate-check', 'receipts'))).toEqual([]);
  });

  it('the approvals directory: the next gate is not run, exit 2', () => {
    const marker = 'ran-G2';
    const files = {
      'GATES.md':
        gate('G1', 'mv "$HOME/.gate-check/approved" "$HOME/approved.old"; mkdir -m 700 "$HOME/.gate-check/approved"; cp -p "$HOME/approved.old/"*.json "$HOME/.gate-check/approved/"') +
        '\n' +
        gate('G2', `touch ${marker}`),
    };
    const s = setup(files);
    s.approveThenArm();
    execFileSync('rm', ['-f', join(s.repo, marker)]);
    const r = s.run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.home, '.gate-check', 'approved')}: was replaced while in use (refused)`);
    expect(existsSync(join(s.repo, marker))).toBe(false);
  });

  it('the history directory: exit 2 (the attempt is never silently left unrecorded)', () => {
    const files = { 'GATES.md': gate('G1', 'mv "$HOME/.gate-check/history" "$HOME/history.old" && mkdir -m 700 "$HOME/.gate-check/history"') };
    const s = setup(files);
    s.approveThenArm();
    const r = s.run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.home, '.gate-check', 'history')}: was replaced while in use (refused)`);
    expect(readdirSync(join(s.home, '.gate-check', 'history'))).toEqual([]);
  });
});

describe('writeback that cannot be made completely is refused with exit 2, naming the file', () => {
  it('a write error of the ledger (a file size limit: EFBIG) leaves the ledger, and no temporary or lock file', () => {
    const files = { 'GATES.md': gate('G1', 'true') + '\n' + 'A note that makes the ledger larger than the limit. '.repeat(60) + '\n' };
    const s = setup(files);
    s.approveThenArm();
    const r = runCliWithFileLimit(2, [], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.repo, 'GATES.md')}: write failed (EFBIG: file size limit exceeded); the file was left as it was`);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(files['GATES.md']);
    expect(readdirSync(s.repo).sort()).toEqual(['GATES.md', 'armed']);
  });

  it('results that would grow the ledger past 8 MiB: exit 2, and every command can still read it', () => {
    const head = gate('G1', 'true');
    const files = { 'GATES.md': head + '\n' + 'x'.repeat(MAX_LEDGER_BYTES - head.length - 30) + '\n' };
    const s = setup(files);
    const r = s.run(['--approve']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md: the results would make the ledger \d+ bytes, over the 8388608 bytes every command reads/);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(files['GATES.md']);
    expect(s.run(['--status']).code).toBe(1);
  });

  it('a ledger that a check leaves not UTF-8, or not parsing: exit 2 saying why, no result written, and the ledger as the check left it', () => {
    for (const [attack, message] of [
      ["printf '\\377\\376' >> GATES.md", /ledger is no longer valid UTF-8; results not written/],
      ["printf -- '- [ ] A: again\\n' >> GATES.md", /duplicate gate id A .*\(the ledger changed during the run; results not written\)/],
    ] as const) {
      const files = { 'GATES.md': gate('A', attack) };
      const s = setup(files);
      s.approveThenArm();
      s.clearReceipts();
      const r = s.run(['--reverify']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(readFileSync(join(s.repo, 'GATES.md'), 'latin1').startsWith(files['GATES.md'])).toBe(true);
      expect(readFileSync(join(s.repo, 'GATES.md'), 'latin1')).not.toMatch(/EVIDENCE: exit=0/);
      expect(s.receipts()).toEqual([]);
    }
  });
});

