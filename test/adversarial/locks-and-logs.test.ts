// Lock files and the audit log under real failures, through the real CLI: a full disk or a
// file size limit while a lock or an audit event is written, a FIFO or another user's file
// planted at the log. Every failure is exit 2 naming the file; none leaves a lock that blocks
// the next run, or a torn line that swallows the next event.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFileName } from '../../lib/history/log.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { isRoot, runCliWithFileLimit, tinyTmpfs } from '../helpers/limits.js';

const LEDGER = '- [ ] G1: t\n  CHECK: echo ok\n  EXPECT: ok\n';

function setup(repo?: string) {
  const s = sandbox();
  const root = repo ?? s.repo;
  writeFiles(root, { 'GATES.md': LEDGER });
  const run = (args: string[]) => runCli(args, { cwd: root, env: s.env });
  const approved = () => {
    expect(run(['--approve']).code).toBe(0);
    writeFiles(root, { 'GATES.md': LEDGER });
  };
  const log = join(s.home, '.gate-check', 'history', historyFileName(root));
  return { ...s, root, run, approved, log };
}

describe('a lock is never published incomplete', () => {
  it('a write error while the ledger lock is written (EFBIG): exit 2 naming the lock, no lock left, the next run succeeds', () => {
    const s = setup();
    s.approved();
    const r = runCliWithFileLimit(0, [], { cwd: s.root, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`gate-check: ${join(s.root, 'GATES.md.lock')}: cannot create (EFBIG: file size limit exceeded)`);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(readdirSync(s.root).sort()).toEqual(['GATES.md']);
    const next = s.run([]);
    expect(next.code).toBe(0);
    expect(readFileSync(join(s.root, 'GATES.md'), 'utf8')).toMatch(/^- \[x\] G1/);
  });

  it.skipIf(!isRoot)('a full disk (ENOSPC, a real tmpfs) while the lock is written: exit 2 naming the lock, no lock left (run as root)', () => {
    const fs = tinyTmpfs(64 * 1024);
    if (!fs) return;
    try {
      const s = setup(fs.dir);
      s.approved();
      // Fill the file system to the last byte.
      try {
        execFileSync('/bin/sh', ['-c', 'cat /dev/zero > "$1/filler"', 'sh', fs.dir], { stdio: 'ignore' });
      } catch {
        /* ENOSPC is the point */
      }
      const r = s.run([]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${join(fs.dir, 'GATES.md.lock')}: cannot create (ENOSPC: no space left on the device)`);
      expect(readdirSync(fs.dir).sort()).toEqual(['GATES.md', 'filler']);
      execFileSync('rm', [join(fs.dir, 'filler')]);
      expect(s.run([]).code).toBe(0);
    } finally {
      fs.unmount();
    }
  });

  it('a lock held by a live process says who, and how to remove it once that process is gone', () => {
    const s = setup();
    s.approved();
    const lock = join(s.root, 'GATES.md.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, token: 'theirs' }) + '\n');
    const r = runCli([], { cwd: s.root, env: { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '200' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`lock ${lock} is held by PID ${process.pid} (still running)`);
    expect(r.stderr).toContain(`hint: wait for PID ${process.pid} to finish, then retry; if PID ${process.pid} is gone and the lock is still there, remove it by hand: rm '${lock}'`);
  });
});

describe('a lock planted beside the ledger does not erase a failure (integrity attack F5)', () => {
  it('a failing --reverify that cannot write the ledger still records its failure: the older pass is not verified, the history shows the attempt', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: t\n  CHECK: sh check.sh\n  EXPECT: ok\n', 'check.sh': 'echo ok\n' });
    const run = (args: string[]) => runCli(args, { cwd: s.repo, env: { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '300' } });
    expect(run(['--approve']).code).toBe(0);
    expect(run(['--status', '--strict']).code).toBe(0);
    writeFiles(s.repo, { 'check.sh': 'echo bad\n', 'GATES.md.lock': 'x\n' });
    const r = run(['--reverify']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^FAIL GATES:G1 /m);
    const strict = run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/GATES:G1 {2}met, stale .*the latest run of this gate here failed/);
    expect(run(['history', 'G1']).stdout).toMatch(/ fail {3}exit=0 /);
  });
});

describe('a failure under other INPUTS contents does not let the older pass stand (integrity attack, round 2)', () => {
  it('a fixture changed before a failing --reverify and put back after, with the old ledger line: stale until the gate runs again', () => {
    const s = sandbox();
    const ledger = '- [ ] G1: the cases pass\n  CHECK: sh check.sh\n  EXPECT: ok\n  INPUTS: fixtures/*.txt\n';
    writeFiles(s.repo, { 'GATES.md': ledger, 'check.sh': 'if [ -f broken ]; then echo FAILED; else echo ok; fi\n', 'fixtures/a.txt': 'case\n' });
    const run = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
    expect(run(['--approve']).code).toBe(0);
    const passed = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
    writeFiles(s.repo, { broken: '', 'fixtures/a.txt': 'case \n' });
    expect(run(['--reverify']).stdout).toMatch(/^FAIL GATES:G1 /m);
    writeFiles(s.repo, { 'fixtures/a.txt': 'case\n', 'GATES.md': passed });
    const strict = run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/GATES:G1 {2}met, stale .*a later run of this gate here failed \(started .*, with other DEPENDS or INPUTS contents\): run it again/);
    // A plain run re-runs it (no new approval): it fails while the work is broken, and passes once it is not.
    expect(run([]).stdout).toMatch(/^FAIL GATES:G1 /m);
    execFileSync('rm', [join(s.repo, 'broken')]);
    expect(run([]).code).toBe(0);
    expect(run(['--status', '--strict']).code).toBe(0);
  });
});

describe('the audit log: record-atomic appends', () => {
  it('an event torn by a write error (EFBIG) is exit 2 naming the log; the next run starts a fresh line and its event is kept', () => {
    const s = setup();
    s.approved();
    const text = readFileSync(s.log, 'utf8');
    expect(text.split('\n')).toHaveLength(2);
    // Grow the log (valid events) to just below a 512-byte boundary, so the next event is torn there.
    const one = text;
    let grown = one;
    while (grown.length + one.length < 4096 - 40) grown += one;
    grown += ' '.repeat(4096 - 40 - grown.length - 1) + '\n';
    writeFileSync(s.log, grown);
    const torn = runCliWithFileLimit(8, ['--reverify'], { cwd: s.root, env: s.env });
    expect(torn.code).toBe(2);
    expect(torn.stderr).toMatch(new RegExp(`${s.log.replace(/[.]/g, '\\.')}: audit log cannot append: wrote 40 of \\d+ bytes of a record`));
    expect(statSync(s.log).size).toBe(4096);
    expect(readFileSync(s.log, 'utf8').endsWith('\n')).toBe(false);
    const events = () =>
      readFileSync(s.log, 'utf8')
        .split('\n')
        .filter((l) => {
          try {
            return (JSON.parse(l) as { gate?: string }).gate === 'GATES:G1';
          } catch {
            return false;
          }
        }).length;
    const before = events();

    expect(s.run(['--reverify']).code).toBe(0);
    expect(events()).toBe(before + 1);
    const after = s.run(['history', '--json']);
    expect(after.code).toBe(0);
    const doc = JSON.parse(after.stdout) as { malformedLines: number };
    expect(doc.malformedLines).toBe(2); // the padding line and the torn one, both skipped
    expect(readFileSync(s.log, 'utf8')).toMatch(/\n\{"time":"[^"]+","file":"GATES\.md","gate":"GATES:G1"[^\n]*\}\n$/);
  });

  it('a torn last line (a write in progress, or cut by a crash) is skipped without a warning', () => {
    const s = setup();
    s.approved();
    writeFileSync(s.log, readFileSync(s.log, 'utf8') + '{"time":"2026-');
    const r = s.run(['history']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/malformed/);
    expect(r.stdout).toMatch(/GATES:G1/);
  });

  it('a FIFO planted at the audit log: exit 2 at once, nothing waits on it', () => {
    const s = setup();
    s.approved();
    execFileSync('rm', [s.log]);
    execFileSync('mkfifo', ['-m', '600', s.log]);
    const t0 = Date.now();
    const r = s.run(['--reverify']);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${s.log}: audit log is a FIFO (refused: only a regular file is appended to)`);
  });

  it.skipIf(!isRoot)('an audit log owned by another user: exit 2 (run as root)', () => {
    const s = setup();
    s.approved();
    chownSync(s.log, 4242, 4242);
    const r = s.run(['--reverify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/audit log is owned by uid 4242, not by you|record is owned by uid 4242/);
    expect(existsSync(s.log)).toBe(true);
  });
});
