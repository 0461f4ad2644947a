// gate-check approvals revoke through the real CLI: records go only through the store; no
// ledger is touched and no command runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { MAX_RECORD_BYTES } from '../../../lib/approval/store.js';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox, writeFiles } from '../../helpers/cli.js';
import { markCheck, writeLedger, run, approvalDir, records, snapshot, recordsOf, ran, approveAll } from './helpers.js';

/** Commits everything in `repo` as a new git repository; returns a git runner. */
function commitAll(repo: string): (cwd: string, ...args: string[]) => void {
  const git = (cwd: string, ...args: string[]) => void execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'gates');
  return git;
}

describe('approvals revoke', () => {
  // Round-39v V7: a record keys its ledger by path, so the approval the person had given in
  // the agent's worktree outlived a revoke in the main checkout, and the worktree kept running it.
  it("revokes the repository's other checkouts' approvals of the gate too, saying where, and --all as well", () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': "# Gates\n\n- [ ] G1: gate G1\n  CHECK: echo run >> ran.txt; echo ok\n  EXPECT: ok\n- [ ] G2: gate G2\n  CHECK: echo ok\n  EXPECT: ok\n" });
    const git = commitAll(s.repo);
    const wt = join(s.home, '..', 'wt');
    git(s.repo, 'worktree', 'add', '-q', wt);
    for (const cwd of [s.repo, wt]) expect(run(s, ['--approve'], cwd).code).toBe(0);
    const r = run(s, ['approvals', 'revoke', 'G1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^revoked GATES:G1 \(GATES\.md\): 2 approvals \(also in 1 other checkout: \S*wt\)$/m);
    const again = run(s, ['--reverify'], wt);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@/m);
    expect(readFileSync(join(wt, 'ran.txt'), 'utf8')).toBe('run\n');
    // From the worktree, --all reaches the main checkout's approval of G2.
    const all = run(s, ['approvals', 'revoke', '--all'], wt);
    expect(all.stdout).toMatch(/^revoked GATES:G2 \(GATES\.md\): 2 approvals \(also in 1 other checkout: /m);
    expect(run(s, ['--reverify']).stdout).toMatch(/^APPROVAL REQUIRED GATES:G2@/m);
  });

  // Round-39w W2: the agent took its worktree out of git's list (its registration moved out of
  // .git/worktrees, or its `.git` a file naming the main repository); revoke in the main
  // checkout said "REVOKED 0 approvals" and the worktree kept running the command. And a
  // worktree inside the main checkout's folder (where Claude Code puts its own) was read as
  // part of the main checkout.
  for (const layout of ['inside the main checkout', 'registration moved away', 'a .git file naming the main repository'] as const) {
    it(`revokes the approvals of a checkout of the same repository git does not list: ${layout}`, () => {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': '# Gates\n\n- [ ] G1: gate G1\n  CHECK: echo run >> ran.txt; echo ok\n  EXPECT: ok\n', '.gitignore': '.claude/\nran.txt\n' });
      const git = commitAll(s.repo);
      let wt: string;
      if (layout === 'inside the main checkout') {
        wt = join(s.repo, '.claude', 'worktrees', 'agent');
        git(s.repo, 'worktree', 'add', '-q', wt);
      } else if (layout === 'registration moved away') {
        wt = join(s.home, '..', 'wt');
        git(s.repo, 'worktree', 'add', '-q', wt);
        const admin = join(s.home, '..', 'admin');
        renameSync(join(s.repo, '.git', 'worktrees', 'wt'), admin);
        writeFileSync(join(admin, 'commondir'), `${join(s.repo, '.git')}\n`);
        writeFileSync(join(wt, '.git'), `gitdir: ${admin}\n`);
      } else {
        wt = join(s.home, '..', 'wt');
        mkdirSync(wt);
        writeFileSync(join(wt, 'GATES.md'), readFileSync(join(s.repo, 'GATES.md')));
        writeFileSync(join(wt, '.git'), `gitdir: ${join(s.repo, '.git')}\n`);
      }
      expect(execFileSync('git', ['worktree', 'list'], { cwd: s.repo, encoding: 'utf8' })).not.toContain(layout === 'inside the main checkout' ? 'never' : wt);
      for (const cwd of [s.repo, wt]) expect(run(s, ['--approve'], cwd).code).toBe(0);
      const r = run(s, ['approvals', 'revoke', 'G1']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^revoked GATES:G1 \(GATES\.md\): 2 approvals \(also in 1 other checkout: \S*(wt|agent)\)$/m);
      const again = run(s, ['--reverify'], wt);
      expect(again.code).toBe(1);
      expect(again.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@/m);
      expect(readFileSync(join(wt, 'ran.txt'), 'utf8')).toBe('run\n');
    });
  }

  // Round-39z Z4: the agent made its worktree unreadable (chmod 000) while the person revoked in
  // the main checkout: revoke exited 2 ("permission denied") and revoked nothing, not even the
  // main checkout's approval. Run as another user when the suite runs as root (root reads anything).
  for (const registered of [true, false]) {
    it(`a worktree that cannot be looked into: ${registered ? 'git lists it, so it is revoked' : 'git does not list it: named, exit 2, the rest revoked'}`, () => {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': '# Gates\n\n- [ ] G1: gate G1\n  CHECK: echo ok\n  EXPECT: ok\n' });
      const git = commitAll(s.repo);
      const base = dirname(s.repo);
      const wt = join(base, 'wt');
      git(s.repo, 'worktree', 'add', '-q', wt);
      if (!registered) {
        const admin = join(base, 'admin');
        renameSync(join(s.repo, '.git', 'worktrees', 'wt'), admin);
        writeFileSync(join(admin, 'commondir'), `${join(s.repo, '.git')}\n`);
        writeFileSync(join(wt, '.git'), `gitdir: ${admin}\n`);
      }
      const asUser = process.getuid?.() === 0 ? { uid: 54321, gid: 54321 } : {};
      if (asUser.uid !== undefined) execFileSync('chown', ['-R', '54321:54321', base]);
      const cli = (args: string[], cwd: string) => spawnSync(process.execPath, [BIN, ...args], { cwd, env: s.env, encoding: 'utf8', timeout: 20_000, ...asUser });
      for (const cwd of [s.repo, wt]) expect(cli(['--approve'], cwd).status).toBe(0);
      chmodSync(wt, 0o000);
      try {
        const r = cli(['approvals', 'revoke', '--all'], s.repo);
        if (registered) {
          expect(r.status, r.stderr).toBe(0);
          expect(r.stdout).toMatch(/^revoked GATES:G1 \(GATES\.md\): 2 approvals \(also in 1 other checkout: \S*wt\)$/m);
        } else {
          expect(r.status, r.stderr).toBe(2);
          expect(r.stdout).toMatch(/^revoked GATES:G1 \(GATES\.md\): 1 approval$/m);
          expect(r.stderr).toMatch(/^gate-check: could not look into \S*wt: 1 approval of ledgers there was left, as it is unknown whether it is a checkout of this repository; revoke by record name: gate-check approvals revoke [0-9a-f]{16}-[0-9a-f]{64}\.json$/m);
        }
      } finally {
        chmodSync(wt, 0o755);
      }
      expect(records(s)).toHaveLength(registered ? 0 : 1);
    });
  }

  it('revoke G1: the next plain run requires approval for G1 and runs nothing of it, G2 stays approved', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    // A second, older approval of G1 for another CHECK: revoke removes every signature.
    approveAll(s, [{ id: 'G1', check: `${markCheck(s, 'G1')} && true` }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);
    expect(recordsOf(s, 'G1')).toHaveLength(2);
    const ledgerBefore = readFileSync(join(s.repo, 'GATES.md'), 'utf8');

    const r = run(s, ['approvals', 'revoke', 'G1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('revoked GATES:G1 (GATES.md): 2 approvals\n');
    expect(r.stdout).toMatch(/^REVOKED 2 approvals of 1 gate$/m);
    expect(recordsOf(s, 'G1')).toHaveLength(0);
    expect(recordsOf(s, 'G2')).toHaveLength(1);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(ledgerBefore);
    expect(ran(s, 'G1')).toBe(false);
    expect(ran(s, 'G2')).toBe(false);

    const next = run(s, []);
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@[0-9a-f]{32} /m);
    expect(next.stdout).toContain('  never approved before\n');
    expect(next.stdout).toMatch(/^PASS GATES:G2 /m);
    expect(next.stdout).not.toMatch(/APPROVAL REQUIRED GATES:G2/);
    expect(ran(s, 'G1')).toBe(false);
    expect(ran(s, 'G2')).toBe(true);
  });

  it('accepts qualified ids and ledger files; a plain id in two ledgers must be qualified', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    approveAll(s, [{ id: 'G1' }, { id: 'X1' }], 'gates/extra.md');
    expect(records(s)).toHaveLength(3);

    const ambiguous = run(s, ['approvals', 'revoke', 'G1']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/G1 names gates in several ledgers; qualify it \(GATES:G1, extra:G1\)/);
    expect(records(s)).toHaveLength(3);

    const q = run(s, ['approvals', 'revoke', 'extra:G1']);
    expect(q.code).toBe(0);
    expect(q.stdout).toContain('revoked extra:G1 (gates/extra.md): 1 approval\n');
    expect(recordsOf(s, 'G1')).toHaveLength(1);

    // A named ledger narrows the scope: G1 is then unique.
    const f = run(s, ['approvals', 'revoke', 'GATES.md', 'G1']);
    expect(f.code).toBe(0);
    expect(f.stdout).toContain('revoked GATES:G1 (GATES.md): 1 approval\n');
    expect(recordsOf(s, 'G1')).toHaveLength(0);
    expect(recordsOf(s, 'X1')).toHaveLength(1);
  });

  it('--all removes every approval of this repository and leaves other repositories alone', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    approveAll(s, [{ id: 'X1' }], 'gates/extra.md');
    // Another repository sharing the same store.
    const other = join(dirname(s.repo), 'other');
    mkdirSync(other);
    writeLedger(s, [{ id: 'O1', check: 'echo ok' }], 'GATES.md', other);
    expect(run(s, ['--approve'], other).code).toBe(0);
    expect(records(s)).toHaveLength(4);

    // With a ledger file, --all means every approval of that ledger only.
    const narrowed = run(s, ['approvals', 'revoke', '--all', 'gates/extra.md']);
    expect(narrowed.code).toBe(0);
    expect(narrowed.stdout).toContain('revoked extra:X1 (gates/extra.md): 1 approval\n');
    expect(records(s)).toHaveLength(3);

    const r = run(s, ['approvals', 'revoke', '--all']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('revoked GATES:G1 (GATES.md): 1 approval\n');
    expect(r.stdout).toContain('revoked GATES:G2 (GATES.md): 1 approval\n');
    expect(r.stdout).toMatch(/^REVOKED 2 approvals of 2 gates$/m);
    expect(records(s)).toHaveLength(1);
    expect(recordsOf(s, 'O1')).toHaveLength(1);
    expect(recordsOf(s, 'O1')[0]!.ledger).toBe(join(other, 'GATES.md'));

    const next = run(s, []);
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@/m);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2@/m);
    expect(ran(s, 'G1') || ran(s, 'G2')).toBe(false);
  });

  it('--all alone works even when a ledger of the repository no longer parses', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeFiles(s.repo, { 'GATES.md': '# Gates\n\n- [ ] G1: broken\n  CHECK: echo ok\n' });
    expect(run(s, ['approvals', 'list']).code).toBe(2);
    const r = run(s, ['approvals', 'revoke', '--all']);
    expect(r.code).toBe(0);
    expect(records(s)).toHaveLength(0);
  });

  it('an unknown id exits 2 and removes nothing, even beside known ids', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    const before = snapshot(approvalDir(s));
    for (const args of [['G9'], ['G1', 'G9'], ['GATES:G1', 'OTHER:G2'], ['nope:G1']]) {
      const r = run(s, ['approvals', 'revoke', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: no gate .* in GATES\.md; nothing was removed$/m);
      expect(r.stdout).toBe('');
      expect(snapshot(approvalDir(s))).toEqual(before);
    }
    // Neither ids nor --all, or both: usage errors.
    for (const args of [[], ['--all', 'G1']]) {
      const r = run(s, ['approvals', 'revoke', ...args]);
      expect(r.code).toBe(2);
      expect(snapshot(approvalDir(s))).toEqual(before);
    }
  });

  it('can revoke a gate that was renamed since it was approved (its records still name the ledger)', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'OLD' }]);
    writeLedger(s, [{ id: 'NEW' }]);
    const r = run(s, ['approvals', 'revoke', 'OLD']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('revoked GATES:OLD (GATES.md): 1 approval\n');
    expect(records(s)).toHaveLength(0);
  });

  it('a known gate without approvals is reported, not an error', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'M', manual: true }]);
    const r = run(s, ['approvals', 'revoke', 'M']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no approvals of GATES:M (GATES.md)\n');
    expect(records(s)).toHaveLength(1);
  });

  it('--dry-run removes nothing (revoke ids, revoke --all, prune)', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', check: 'echo changed' }]); // G2 removed, G1 changed: both prunable
    const before = snapshot(approvalDir(s));
    const a = run(s, ['approvals', 'revoke', 'G1', '--dry-run']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('would revoke GATES:G1 (GATES.md): 1 approval\n');
    expect(a.stdout).toMatch(/^DRY RUN: would revoke 1 approval of 1 gate; nothing was removed$/m);
    const b = run(s, ['approvals', 'revoke', '--all', '--dry-run']);
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(/^DRY RUN: would revoke 2 approvals of 2 gates; nothing was removed$/m);
    const c = run(s, ['approvals', 'prune', '--dry-run']);
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/^would prune GATES:G1@[0-9a-f]{12} .*: CHECK changed$/m);
    expect(c.stdout).toMatch(/^would prune GATES:G2@[0-9a-f]{12} .*: gate no longer in the ledger$/m);
    expect(c.stdout).toMatch(/^DRY RUN: would prune 2 approvals, keep 0; nothing was removed$/m);
    expect(snapshot(approvalDir(s))).toEqual(before);
  });
});

describe('approvals revoke NAME: any record goes by its file name, even one no command can read', () => {
  const junk = `${'0'.repeat(16)}-${'f'.repeat(64)}.json`;

  it('a record over the size limit, one that is not JSON, and one open to others: each removed, unread', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    const [valid] = records(s);
    // The valid record padded past the limit: every run refuses it until it is gone.
    const big = readFileSync(join(approvalDir(s), valid!), 'utf8') + ' '.repeat(MAX_RECORD_BYTES);
    writeFileSync(join(approvalDir(s), valid!), big);
    expect(run(s, []).code).toBe(2);
    writeFileSync(join(approvalDir(s), junk), 'not json', { mode: 0o600 });
    const open = `${'1'.repeat(16)}-${'e'.repeat(64)}.json`;
    writeFileSync(join(approvalDir(s), open), '{}', { mode: 0o644 });
    chmodSync(join(approvalDir(s), open), 0o644);

    const r = run(s, ['approvals', 'revoke', valid!, junk, open]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`revoked record ${valid}\nrevoked record ${junk}\nrevoked record ${open}\nREVOKED 3 records by name\n`);
    expect(readdirSync(approvalDir(s))).toEqual([]);
    // With the oversized record gone the gate simply needs approval again.
    expect(run(s, []).code).toBe(1);
  });

  it('works when no ledger parses (names alone never read one), and mixes with gate ids', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeFileSync(join(approvalDir(s), junk), 'x', { mode: 0o600 });
    writeFiles(s.repo, { 'GATES.md': '- [ ] broken\n' });
    const alone = run(s, ['approvals', 'revoke', junk]);
    expect(alone.code).toBe(0);
    expect(records(s)).toHaveLength(2);
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeFileSync(join(approvalDir(s), junk), 'x', { mode: 0o600 });
    const mixed = run(s, ['approvals', 'revoke', 'G1', junk]);
    expect(mixed.code).toBe(0);
    expect(mixed.stdout).toMatch(/^REVOKED 1 approval of 1 gate and 1 record by name$/m);
    expect(recordsOf(s, 'G2')).toHaveLength(1);
    expect(recordsOf(s, 'G1')).toHaveLength(0);
  });

  it('the invalid records that list, revoke and prune leave alone are named with the command that removes them', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeFileSync(join(approvalDir(s), junk), 'x', { mode: 0o600 });
    const r = run(s, ['approvals', 'revoke', 'G1']);
    expect(r.stdout).toContain(`left alone: 1 invalid record (${junk}); inspect, then remove one with 'gate-check approvals revoke NAME'`);
  });

  it('a name that is not in the store exits 2 and removes nothing, not even the names that are', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeFileSync(join(approvalDir(s), junk), 'x', { mode: 0o600 });
    const before = snapshot(approvalDir(s));
    const missing = `${'2'.repeat(16)}-${'d'.repeat(64)}.json`;
    const r = run(s, ['approvals', 'revoke', junk, missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no approval record ${missing} in ${approvalDir(s)}; nothing was removed`);
    expect(snapshot(approvalDir(s))).toEqual(before);
  });

  it('--dry-run removes nothing; --all with a name is a usage error', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeFileSync(join(approvalDir(s), junk), 'x', { mode: 0o600 });
    const before = snapshot(approvalDir(s));
    const dry = run(s, ['approvals', 'revoke', '--dry-run', junk]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(`would revoke record ${junk}\nDRY RUN: would revoke 1 record by name; nothing was removed\n`);
    const both = run(s, ['approvals', 'revoke', '--all', junk]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/revoke takes gate ids or record names, or --all, not both/);
    expect(snapshot(approvalDir(s))).toEqual(before);
  });
});
