// Approvals from sessions whose leader is gone (issue 8 §4). Any live gate-check run of this
// user decides whether a process without a terminal in a newer session may approve, so this
// file runs on its own, after the rest of the suite (vitest.serial.config.ts): a run of
// another test file must not be live meanwhile.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox, writeFiles } from '../helpers/cli.js';

const NODE = process.execPath;

describe('sessions whose leader is gone', () => {
  // A runner whose session leader has exited (or lives outside the PID namespace, as in a
  // container) still began before the run: its oldest shell in the session tells. Its
  // parallel jobs share the run's session and may approve; a process of another session
  // without a terminal may not, whether it began after the run (a daemon a check started)
  // or before it (a multiplexer's server a check had run a command: round-21 F4).
  it('a runner whose session leader is gone may still approve beside its run; a daemon, older or newer, may not', async () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] A: slow\n  CHECK: sleep 3; echo ok\n  EXPECT: ok\n',
      'gates/b.md': '- [ ] B: t\n  CHECK: echo ok\n  EXPECT: ok\n',
      'gates/c.md': '- [ ] C: t\n  CHECK: echo ok\n  EXPECT: ok\n',
      'gates/d.md': '- [ ] D: t\n  CHECK: echo ok\n  EXPECT: ok\n',
    });
    const approve = (ledger: string, tag: string) =>
      `while [ ! -f go ]; do sleep 0.05; done; "${NODE}" "${BIN}" --approve ${ledger} > ${tag}.out 2>&1; echo $? > ${tag}.code`;
    const detached = (script: string) => spawnSync('setsid', ['sh', '-c', `sh -c '${script}' </dev/null >/dev/null 2>&1 & exit 0`], { cwd: s.repo, env: s.env });
    // A server of another session, started before the run.
    detached(approve('gates/d.md', 'server'));
    await new Promise((r) => setTimeout(r, 300));
    // The runner: a shell in a session whose leader exits at once; it starts the run, and a parallel job that approves.
    writeFiles(s.repo, { 'runner.sh': `"${NODE}" "${BIN}" --approve GATES.md > slow.out 2>&1; echo $? > slow.code\n` });
    // The run starts a little after the runner (a session is dated in 10 ms clock ticks: a run
    // started in the runner's own tick would date the runner as no older than the run).
    detached(`(sleep 0.3; sh runner.sh) & ${approve('gates/b.md', 'runner')}`);
    await new Promise((r) => setTimeout(r, 1_000));
    // The daemon: the same shape, started after the run began.
    detached(approve('gates/c.md', 'daemon'));
    await new Promise((r) => setTimeout(r, 300));
    writeFiles(s.repo, { go: '' });
    const read = (f: string) => (existsSync(join(s.repo, f)) ? readFileSync(join(s.repo, f), 'utf8') : '');
    for (let i = 0; i < 200 && !(read('runner.code') && read('daemon.code') && read('server.code') && read('slow.code')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(read('runner.out')).not.toMatch(/refused/);
    expect(read('runner.code').trim()).toBe('0');
    expect(read('daemon.out')).toMatch(/--approve refused: gate-check \(PID \d+, started in \/[^)]*\) is running checks, and this process runs in a session that began after/);
    expect(read('daemon.code').trim()).toBe('2');
    expect(read('server.out')).toMatch(/--approve refused: gate-check \(PID \d+, started in \/[^)]*\) is running checks, and this process has no terminal and runs outside that run's session/);
    expect(read('server.code').trim()).toBe('2');
    expect(read('slow.code').trim()).toBe('0');
  });

  // Only this user's runs count: another user's check cannot be this user's agent.
  it.skipIf(process.getuid?.() !== 0)("another user's live run does not refuse this user's approval (as root: a run as uid 54321)", async () => {
    const other = mkdtempSync(join(tmpdir(), 'gc-other-user-'));
    try {
      mkdirSync(join(other, 'repo'));
      mkdirSync(join(other, 'home'), { mode: 0o700 });
      writeFileSync(join(other, 'repo', 'GATES.md'), '- [ ] A: slow\n  CHECK: sleep 4; echo ok\n  EXPECT: ok\n');
      for (const p of ['', 'repo', 'home', 'repo/GATES.md']) chownSync(join(other, p), 54321, 54321);
      const theirs = spawn(NODE, [BIN, '--approve'], { cwd: join(other, 'repo'), env: { PATH: process.env.PATH, HOME: join(other, 'home') }, uid: 54321, gid: 54321, stdio: 'ignore' });
      const theirExit = new Promise<number | null>((r) => theirs.on('exit', r));
      await new Promise((r) => setTimeout(r, 1200));
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': '- [ ] B: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
      // A session of its own, newer than their run, with no terminal.
      const mine = spawnSync('setsid', ['-w', NODE, BIN, '--approve'], { cwd: s.repo, env: s.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(mine.stderr).not.toMatch(/refused/);
      expect(mine.status).toBe(0);
      expect(await theirExit).toBe(0); // it was live throughout, and passed
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 20_000);
});
