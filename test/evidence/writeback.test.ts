// Writing results back, through the real CLI with real processes and files.
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defOf } from '../helpers/ledger.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import { runCli, sandbox, startCli, writeFiles } from '../helpers/cli.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    run: (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: s.repo, env: { ...s.env, ...extraEnv } }),
    ledger: (name = 'GATES.md') => readFileSync(join(s.repo, name), 'utf8'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(cond: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('writeback', () => {
  it('ticks a passing gate and writes a digest, keeping CRLF and every unrelated byte', () => {
    const src = '\ufeff# Gates\r\n\r\nIntro  with  spaces \r\n\r\n- [ ] A: passes\r\n  CHECK: printf ok\r\n  EXPECT: ok\r\n  EVIDENCE: pending\r\n\r\n- [ ] B: manual\r\n\ttrailing note\t\r\nend without newline';
    const s = repo({ 'GATES.md': src });
    const r = s.run(['--approve']);
    expect(r.stdout).toMatch(/^PASS GATES:A/m);
    const out = s.ledger();
    // match= is the digest of what EXPECT matched: the substring itself.
    const match = execFileSync('sh', ['-c', 'printf ok | sha256sum']).toString().slice(0, 12);
    const expected = src
      .replace('- [ ] A: passes', '- [x] A: passes')
      .replace('  EVIDENCE: pending', `  EVIDENCE: exit=0; def=${defOf(src, 'A')}; match=${match}; receipt=${/receipt=([0-9a-f]{12})/.exec(out)![1]}`);
    expect(out).toBe(expected);
  });

  it('inserts a missing EVIDENCE line under the gate', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n    CHECK: echo hi\n    EXPECT: hi\n    a note line\n- [ ] B: t\n' });
    s.run(['--approve']);
    expect(s.ledger()).toMatch(/^- \[x\] A: t\n {4}CHECK: echo hi\n {4}EXPECT: hi\n {4}EVIDENCE: exit=0; def=[0-9a-f]{12}; match=[0-9a-f]{12}; receipt=[0-9a-f]{12}\n {4}a note line\n- \[ \] B: t\n$/);
  });

  it('leaves the ledger byte-identical when an identical re-run passes again', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo same\n  EXPECT: same\n' });
    s.run(['--approve']);
    const first = s.ledger();
    expect(s.run(['--reverify']).code).toBe(0);
    expect(s.ledger()).toBe(first);
  });

  it('--reverify demotes a met gate that now fails', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: cat flag\n  EXPECT: yes\n', flag: 'yes' });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'flag'), 'no');
    const r = s.run(['--reverify']);
    expect(r.code).toBe(1);
    expect(s.ledger()).toBe('- [ ] A: t\n  CHECK: cat flag\n  EXPECT: yes\n  EVIDENCE: pending\n');
  });

  it('a plain run does not re-run met gates; --reverify does', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo x >> runs; echo ok\n  EXPECT: ok\n' });
    s.run(['--approve']);
    s.run([]);
    expect(readFileSync(join(s.repo, 'runs'), 'utf8')).toBe('x\n');
    s.run(['--reverify']);
    expect(readFileSync(join(s.repo, 'runs'), 'utf8')).toBe('x\nx\n');
  });

  it('never writes raw output to the ledger, on pass or on failure', () => {
    // The output strings never appear in the CHECK text: printf assembles them.
    const s = repo({ 'GATES.md': "- [ ] A: t\n  CHECK: printf '%s%s\\n' SECRET -PASS-1\n  EXPECT: PASS-1\n- [ ] B: t\n  CHECK: printf '%s%s\\n' SECRET -FAIL-2; exit 1\n  EXPECT: x\n" });
    const r = s.run(['--approve']);
    expect(r.stdout).toMatch(/SECRET-FAIL-2/); // terminal diagnostics only
    expect(s.ledger()).not.toMatch(/SECRET-/);
    const files = readdirSync(s.repo);
    for (const f of files) if (f !== 'GATES.md') expect(readFileSync(join(s.repo, f), 'utf8')).not.toMatch(/SECRET-PASS-1/);
  });

  it('discards a result whose oracle changed while it ran (STALE), and counts it unmet', async () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok\n' });
    // Approve first without running the long check: approve, then reset the box.
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok\n');
    execFileSync('rm', ['-f', join(s.repo, 'started')]);
    const p = startCli([], { cwd: s.repo, env: s.env });
    await waitFor(() => existsSync(join(s.repo, 'started')));
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok now\n');
    const r = await p.done;
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^STALE GATES:A: its oracle changed while it ran \(EXPECT changed\); result not written$/m);
    expect(s.ledger()).toBe('- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok now\n');
  });

  it('discards a result whose gate disappeared while it ran', async () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok\n- [ ] B: t\n' });
    s.run(['--approve']);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok\n- [ ] B: t\n');
    execFileSync('rm', ['-f', join(s.repo, 'started')]);
    const p = startCli([], { cwd: s.repo, env: s.env });
    await waitFor(() => existsSync(join(s.repo, 'started')));
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] B: t\n');
    const r = await p.done;
    expect(r.stdout).toMatch(/^STALE GATES:A: the gate disappeared/m);
    expect(s.ledger()).toBe('- [ ] B: t\n');
  });

  it('refuses to write through a ledger replaced by a symlink during the run (exit 2)', async () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok\n', 'elsewhere.md': 'keep me\n' });
    s.run(['--approve']);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n  CHECK: touch started; sleep 1; echo ok\n  EXPECT: ok\n');
    execFileSync('rm', ['-f', join(s.repo, 'started')]);
    const p = startCli([], { cwd: s.repo, env: s.env });
    await waitFor(() => existsSync(join(s.repo, 'started')));
    execFileSync('rm', [join(s.repo, 'GATES.md')]);
    symlinkSync(join(s.repo, 'elsewhere.md'), join(s.repo, 'GATES.md'));
    const r = await p.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(readFileSync(join(s.repo, 'elsewhere.md'), 'utf8')).toBe('keep me\n');
  });

  it('refuses a hard-linked ledger before running anything', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
    linkSync(join(s.repo, 'GATES.md'), join(s.home, 'alias.md'));
    const r = s.run(['--approve']);
    expect(r.code).toBe(2);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });
});

describe('ledger lock', () => {
  it('fails closed after a bounded wait on a lock left by a dead process, naming the lock and its PID, and never steals it', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const lock = join(s.repo, 'GATES.md.lock');
    const lockBody = JSON.stringify({ pid: 999999, token: 'someone-else', host: 'x', createdAt: new Date().toISOString() }) + '\n';
    writeFileSync(lock, lockBody);
    const t0 = Date.now();
    const r = s.run(['--approve'], { GATE_CHECK_LOCK_TIMEOUT_MS: '500' });
    expect(r.code).toBe(2);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.stderr).toContain(lock);
    expect(r.stderr).toMatch(/PID 999999 \(not running\)/);
    expect(r.stderr).toMatch(/remove the lock by hand/);
    expect(readFileSync(lock, 'utf8')).toBe(lockBody); // not stolen
    expect(s.ledger()).toBe('- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n');
  });

  it('8 concurrent gate-check processes on one ledger lose no update', async () => {
    const gates = Array.from({ length: 24 }, (_, i) => `- [ ] G${i}: t\n  CHECK: sleep 0.0$((RANDOM % 5)); echo ok-${i}\n  EXPECT: ok-${i}\n`).join('');
    const s = repo({ 'GATES.md': gates });
    expect(s.run(['--approve', '--shell', '/bin/bash'], { GATE_CHECK_LOCK_TIMEOUT_MS: '20000' }).code).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), gates);
    const procs = Array.from({ length: 8 }, (_, i) =>
      startCli(['--shard', `${i + 1}/8`, '--shell', '/bin/bash'], { cwd: s.repo, env: { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '20000' } }),
    );
    const results = await Promise.all(procs.map((p) => p.done));
    for (const r of results) expect([0, 1], r.stderr).toContain(r.code);
    const parsed = parseLedger(s.ledger());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.ledger.gates.filter((g) => g.checked && g.evidence?.startsWith('exit=0')).length).toBe(24);
  }, 60_000);
});

describe('crash safety', () => {
  it('kill -9 at random moments during runs never leaves a truncated or unparsable ledger', async () => {
    const gates = Array.from({ length: 40 }, (_, i) => `- [ ] G${i}: t\n  CHECK: echo ok-${i}\n  EXPECT: ok-${i}\n`).join('');
    const s = repo({ 'GATES.md': gates });
    expect(s.run(['--approve']).code).toBe(0);
    for (let round = 0; round < 12; round++) {
      writeFileSync(join(s.repo, 'GATES.md'), gates);
      const p = startCli(['--reverify'], { cwd: s.repo, env: s.env });
      await sleep(150 + Math.floor(Math.random() * 500));
      p.child.kill('SIGKILL');
      await p.done;
      const text = s.ledger();
      const parsed = parseLedger(text);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.ledger.gates).toHaveLength(40);
      // A lock left by the killed process is never stolen; a person removes it.
      execFileSync('sh', ['-c', `rm -f '${join(s.repo, 'GATES.md.lock')}'; find '${s.home}' -name '*.lock' -delete`]);
    }
    // The next complete run removes temporary files that killed writers left behind.
    writeFileSync(join(s.repo, `.GATES.md.gate-check-999999-${'ab'.repeat(6)}.tmp`), 'junk');
    expect(s.run(['--reverify']).code).toBe(0);
    expect(readdirSync(s.repo).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  }, 60_000);

  it('Ctrl-C exits 130, kills the running check, writes finished results and no partial file', async () => {
    const s = repo({
      'GATES.md':
        '- [ ] C: quick\n  CHECK: test -f go || exit 1; echo fine\n  EXPECT: fine\n' +
        '- [ ] B: slow\n  CHECK: test -f go || exit 1; sleep 300 & echo $! > bg.pid; sleep 300\n  EXPECT: never\n',
    });
    // Approve both while they fail fast, then let them run for real.
    expect(s.run(['--approve']).code).toBe(1);
    writeFileSync(join(s.repo, 'go'), '');
    const p = startCli([], { cwd: s.repo, env: s.env });
    await waitFor(() => existsSync(join(s.repo, 'bg.pid')) && readFileSync(join(s.repo, 'bg.pid'), 'utf8').trim() !== '');
    const bg = Number(readFileSync(join(s.repo, 'bg.pid'), 'utf8'));
    const t0 = Date.now();
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code).toBe(130);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.stderr).toMatch(/interrupted/);
    await waitFor(() => {
      try {
        return readFileSync(`/proc/${bg}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
      } catch {
        return true;
      }
    }, 3000);
    const text = s.ledger();
    expect(parseLedger(text).ok).toBe(true);
    expect(text).toMatch(/- \[x\] C: quick/);
    expect(text).toMatch(/- \[ \] B: slow/);
    expect(readdirSync(s.repo).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  }, 30_000);
});
