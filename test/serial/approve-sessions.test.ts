// Approvals from sessions whose leader is gone (issue 8 §4). Any live gate-check run of this
// user decides whether a process without a terminal in a newer session may approve, so this
// file runs on its own, after the rest of the suite (vitest.serial.config.ts): a run of
// another test file must not be live meanwhile.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox, startCli, writeFiles } from '../helpers/cli.js';

const NODE = process.execPath;

describe('sessions whose leader is gone', () => {
  // A runner whose session leader has exited (or lives outside the PID namespace, as in a
  // container) still began before the run: its oldest shell in the session tells.
  it('a runner whose session leader is gone may still approve in parallel; a daemon started after the run may not', async () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] A: slow\n  CHECK: sleep 3; echo ok\n  EXPECT: ok\n',
      'gates/b.md': '- [ ] B: t\n  CHECK: echo ok\n  EXPECT: ok\n',
      'gates/c.md': '- [ ] C: t\n  CHECK: echo ok\n  EXPECT: ok\n',
    });
    const approve = (ledger: string, tag: string) =>
      `while [ ! -f go ]; do sleep 0.05; done; "${NODE}" "${BIN}" --approve ${ledger} > ${tag}.out 2>&1; echo $? > ${tag}.code`;
    // The runner: a shell in a session whose leader exits at once, started before the run.
    spawnSync('setsid', ['sh', '-c', `sh -c '${approve('gates/b.md', 'runner')}' </dev/null >/dev/null 2>&1 & exit 0`], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 300));
    const slow = startCli(['--approve', 'GATES.md'], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 700));
    // The daemon: the same shape, started after the run began.
    spawnSync('setsid', ['sh', '-c', `sh -c '${approve('gates/c.md', 'daemon')}' </dev/null >/dev/null 2>&1 & exit 0`], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 300));
    writeFiles(s.repo, { go: '' });
    const read = (f: string) => (existsSync(join(s.repo, f)) ? readFileSync(join(s.repo, f), 'utf8') : '');
    for (let i = 0; i < 200 && !(read('runner.code') && read('daemon.code')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(read('runner.out')).not.toMatch(/refused/);
    expect(read('runner.code').trim()).toBe('0');
    expect(read('daemon.out')).toMatch(/--approve refused: gate-check \(PID \d+\) is running checks/);
    expect(read('daemon.code').trim()).toBe('2');
    expect((await slow.done).code).toBe(0);
  });
});
