// A check never approves checks (issue 8 §4): an approved check that runs a nested
// `gate-check --approve` must not approve or run anything, whatever it does to its
// environment or its place in the process tree.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalRefusal, type ProcessProbe } from '../../lib/approval/approver.js';
import { BIN, runCli, sandbox, startCli, writeFiles } from '../helpers/cli.js';

const NODE = process.execPath;

/** G1 (approved by pin) runs `nested`; the nested command tries to approve and run gates/other.md, whose only gate creates `pwned`. */
function attempt(nested: string, sub = '') {
  const s = sandbox();
  const repo = sub ? join(s.repo, sub) : s.repo;
  if (sub) mkdirSync(repo);
  writeFiles(repo, {
    'GATES.md': ['- [ ] G1: runs the nested command', '  CHECK: sh nested.sh; echo one-ok', '  EXPECT: one-ok', ''].join('\n'),
    'gates/other.md': ['- [ ] X1: nobody approved this', '  CHECK: touch pwned; echo x-ok', '  EXPECT: x-ok', ''].join('\n'),
    'nested.sh': nested.replaceAll('@GC@', `"${NODE}" "${BIN}"`) + '\n',
  });
  const plain = JSON.parse(runCli(['--json'], { cwd: repo, env: s.env }).stdout);
  const g1 = plain.gates.find((g: { qualified: string }) => g.qualified === 'GATES:G1');
  const r = runCli(['--approve', `GATES:G1@${g1.result.signature.slice(0, 32)}`], { cwd: repo, env: s.env, timeoutMs: 30_000 });
  const read = (f: string) => (existsSync(join(repo, f)) ? readFileSync(join(repo, f), 'utf8') : '');
  return { r, pwned: existsSync(join(repo, 'pwned')), nestedOut: read('nested.out'), nestedCode: read('nested.code').trim(), s: { ...s, repo } };
}

/** Whether this machine lets this user make user and PID namespaces (unprivileged user namespaces may be off). */
const unshareWorks = spawnSync('unshare', ['-Urpf', '--mount-proc', 'true']).status === 0;

const WAIT_FOR_DONE = 'i=0; while [ ! -f nested.code ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done';

describe('a nested --approve inside a check is refused', () => {
  const cases: Array<[string, string]> = [
    ['the marker removed (env -u)', 'env -u GATE_CHECK_ACTIVE_CHECK @GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code'],
    ['the environment emptied (env -i)', 'env -i PATH="$PATH" HOME="$HOME" @GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code'],
    ['a new session (setsid)', 'env -u GATE_CHECK_ACTIVE_CHECK setsid @GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code'],
    [
      'detached from its parent (setsid -f, reparented away from the run)',
      `env -u GATE_CHECK_ACTIVE_CHECK setsid -f sh -c '@GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code'; ${WAIT_FOR_DONE}`,
    ],
    // A terminal of its own (a new pseudo-terminal from script(1)): only the ancestry tells.
    ['with a pseudo-terminal of its own (script -c)', "env -u GATE_CHECK_ACTIVE_CHECK script -qec '@GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code' /dev/null"],
    // Both (integrity attack F4): out of the run's ancestry, with a terminal of its own.
    [
      'detached (setsid -f) and with a pseudo-terminal of its own (script -c)',
      `env -u GATE_CHECK_ACTIVE_CHECK setsid -f sh -c "script -qec '@GC@ --approve gates/other.md > nested.out 2>&1; echo \\$? > nested.code' /dev/null"; ${WAIT_FOR_DONE}`,
    ],
    ...(unshareWorks
      ? ([
          // A PID namespace with its own /proc hides the run and every ancestor (round-2 attack):
          // only the run's marker in the private store tells.
          ['in a new PID namespace with its own /proc (unshare -Urpf --mount-proc)', 'env -u GATE_CHECK_ACTIVE_CHECK unshare -Urpf --mount-proc @GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code'],
          // The same PID namespace, its own /proc-less view: no ancestry, no titles, no session to read.
          ['with a file system mounted over /proc (unshare -Urm)', `env -u GATE_CHECK_ACTIVE_CHECK unshare -Urm sh -c 'mount -t tmpfs none /proc && exec @GC@ --approve gates/other.md' > nested.out 2>&1; echo $? > nested.code`],
          // Its own /proc entry covered (exec keeps the pid), /proc/stat still there: the
          // session cannot be dated, which must not read as "began at boot" (a mutation found it untested).
          ['in a new PID namespace whose /proc/self is covered', `env -u GATE_CHECK_ACTIVE_CHECK unshare -Urpfm --mount-proc sh -c 'mount -t tmpfs none /proc/$$ && exec @GC@ --approve gates/other.md' > nested.out 2>&1; echo $? > nested.code`],
          ['in a new PID namespace without its own /proc (unshare -Urpf)', 'env -u GATE_CHECK_ACTIVE_CHECK unshare -Urpf @GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code'],
          ['in a new PID namespace, detached, with a terminal of its own', `env -u GATE_CHECK_ACTIVE_CHECK setsid -f unshare -Urpf --mount-proc sh -c "script -qec '@GC@ --approve gates/other.md > nested.out 2>&1; echo \\$? > nested.code' /dev/null"; ${WAIT_FOR_DONE}`],
        ] as Array<[string, string]>)
      : []),
    ['through a helper script', "printf '%s\\n' 'unset GATE_CHECK_ACTIVE_CHECK; exec @GC@ --approve \"$@\"' > helper.sh; sh helper.sh gates/other.md > nested.out 2>&1; echo $? > nested.code"],
  ];
  for (const [name, nested] of cases) {
    it(name, () => {
      const { r, pwned, nestedOut, nestedCode } = attempt(nested);
      expect(r.stdout + r.stderr).toMatch(/^PASS GATES:G1/m);
      expect(pwned).toBe(false);
      expect(nestedCode).toBe('2');
      expect(nestedOut).toMatch(/--approve refused/);
      expect(nestedOut).toMatch(/hint: a person approves by running gate-check --approve in a terminal of their own/);
    });
  }

  // Found by an attack: the refusal was keyed by the approver's own --root, which the
  // oracle does not bind, so `--root ..` with the ledger's absolute path found no run.
  it('detached and under another --root (the oracle does not bind the root)', () => {
    const { r, pwned, nestedOut, nestedCode } = attempt(
      `env -u GATE_CHECK_ACTIVE_CHECK setsid -f sh -c '@GC@ --approve --root .. "$PWD/gates/other.md" > nested.out 2>&1; echo $? > nested.code'; ${WAIT_FOR_DONE}`,
      // The repository one level down, so that the other root (..) holds the repository but not HOME.
      'inner',
    );
    expect(r.stdout + r.stderr).toMatch(/^PASS GATES:G1/m);
    expect(pwned).toBe(false);
    expect(nestedOut).not.toMatch(/approved:/);
    expect(nestedOut).toMatch(/--approve refused: gate-check \(PID \d+, started in \/[^)]*\) is running checks/);
    expect(nestedCode).toBe('2');
  });

  // Round-21 F4: a process of the user that began before the run, in a session of its own
  // without a terminal, and runs commands on request (a tmux server's run-shell): the check
  // hands it the approval. Here a shell started by setsid before the run, reading one
  // command from a FIFO.
  it('through a long-lived process of the user started before the run (a multiplexer server)', async () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': ['- [ ] G1: hands a command to the server', '  CHECK: sh nested.sh; echo one-ok', '  EXPECT: one-ok', ''].join('\n'),
      'gates/other.md': ['- [ ] X1: nobody approved this', '  CHECK: touch pwned; echo x-ok', '  EXPECT: x-ok', ''].join('\n'),
      'nested.sh': [`printf '%s\\n' 'env -u GATE_CHECK_ACTIVE_CHECK "${NODE}" "${BIN}" --approve gates/other.md < /dev/null > nested.out 2>&1; echo $? > nested.code' > server.fifo`, WAIT_FOR_DONE, ''].join('\n'),
    });
    expect(spawnSync('mkfifo', [join(s.repo, 'server.fifo')]).status).toBe(0);
    const server = spawn('setsid', ['sh', '-c', 'read -r cmd < server.fifo && eval "$cmd"'], { cwd: s.repo, env: s.env, stdio: 'ignore' });
    const ended = new Promise((res) => server.on('exit', res));
    try {
      await new Promise((r) => setTimeout(r, 1_100));
      const plain = JSON.parse(runCli(['--json'], { cwd: s.repo, env: s.env }).stdout);
      const g1 = plain.gates.find((g: { qualified: string }) => g.qualified === 'GATES:G1');
      const r = runCli(['--approve', `GATES:G1@${g1.result.signature.slice(0, 32)}`], { cwd: s.repo, env: s.env, timeoutMs: 30_000 });
      expect(r.stdout + r.stderr).toMatch(/^PASS GATES:G1/m);
      await ended;
      expect(existsSync(join(s.repo, 'pwned'))).toBe(false);
      expect(readFileSync(join(s.repo, 'nested.code'), 'utf8').trim()).toBe('2');
      expect(readFileSync(join(s.repo, 'nested.out'), 'utf8')).toMatch(/--approve refused: gate-check \(PID \d+, started in \/[^)]*\) is running checks, and this process has no terminal/);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('the refusal leaves the approval store without a record for the nested gate', () => {
    const { s } = attempt('env -u GATE_CHECK_ACTIVE_CHECK @GC@ --approve gates/other.md > nested.out 2>&1; echo $? > nested.code');
    const list = runCli(['approvals', 'list', 'gates/other.md'], { cwd: s.repo, env: s.env });
    expect(list.stdout).toMatch(/^other:X1 +none /m);
  });

  it('parallel approvals in one repository, started by a runner, are not refused', async () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: slow\n  CHECK: sleep 2; echo ok\n  EXPECT: ok\n', 'gates/b.md': '- [ ] B: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const slow = startCli(['--approve', 'GATES.md'], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 500));
    const r = runCli(['--approve', 'gates/b.md'], { cwd: s.repo, env: s.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((await slow.done).code).toBe(0);
  });

  it('a run in another repository does not stop an approval here (parallel CI jobs)', async () => {
    const other = sandbox();
    writeFiles(other.repo, { 'GATES.md': '- [ ] A: slow\n  CHECK: sleep 3; echo ok\n  EXPECT: ok\n' });
    expect(runCli(['--approve'], { cwd: other.repo, env: other.env }).code).toBe(0);
    const slow = startCli(['--reverify'], { cwd: other.repo, env: other.env });
    await new Promise((r) => setTimeout(r, 500));
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((await slow.done).code).toBe(0);
  });

  it('outside any run, without a terminal, --approve still works (CI)', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
  });

  it('an announced coding agent without a terminal of its own cannot approve', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
    for (const v of ['CLAUDECODE', 'CURSOR_AGENT', 'CODEX_SANDBOX', 'GEMINI_CLI', 'OPENCODE', 'AI_AGENT', 'COPILOT_AGENT_RUN']) {
      // setsid: no controlling terminal, as an agent's tool shell has none (also when the suite runs in a terminal).
      const r = spawnSync('setsid', ['-w', NODE, BIN, '--approve'], { cwd: s.repo, env: { ...s.env, [v]: '1' }, encoding: 'utf8', input: '' });
      expect(r.status, v).toBe(2);
      expect(r.stderr).toContain(`the environment announces a coding agent (${v})`);
    }
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });
});

describe('the decision', () => {
  const probe = (over: Partial<ProcessProbe>): ProcessProbe => ({
    procFs: () => true,
    ancestorRun: () => null,
    sessionStart: () => 100,
    session: () => 5,
    liveRuns: () => [],
    terminal: () => true,
    namespace: () => 4026531836,
    sessionStartMs: () => 1_000_000,
    now: () => 1_100_000,
    visibleRun: () => true,
    runMarkers: () => [],
    ...over,
  });

  it('a marker of a run this process cannot see (another PID namespace, or no /proc) is dated by the clock', () => {
    const marker = (namespace: number, start: number) => () => [{ namespace, pid: 9, start }];
    // The same namespace: /proc saw every run there exactly, so the marker adds nothing...
    expect(approvalRefusal({}, probe({ runMarkers: marker(4026531836, 900_000) }))).toBeNull();
    // ...unless /proc does not show its run (its entry covered by a bind mount: found by an attack; or a crashed run).
    expect(approvalRefusal({}, probe({ visibleRun: () => false, runMarkers: marker(4026531836, 900_000) }))).toMatch(/a gate-check run \(PID 9 not shown by \/proc\) is running checks/);
    expect(approvalRefusal({}, probe({ visibleRun: () => false, runMarkers: marker(4026531836, 1_002_001) }))).toBeNull();
    // Another namespace: a session begun after the run (or less than 2 s before it) is refused.
    expect(approvalRefusal({}, probe({ runMarkers: marker(4026532000, 900_000) }))).toMatch(/a gate-check run \(PID 9 in another PID namespace\) is running checks, and this process runs in a session that began after that run did/);
    expect(approvalRefusal({}, probe({ runMarkers: marker(4026532000, 1_001_999) }))).toMatch(/PID 9 in another PID namespace/);
    expect(approvalRefusal({}, probe({ runMarkers: marker(4026532000, 1_002_001) }))).toBeNull();
    // A session that cannot be dated: refused.
    expect(approvalRefusal({}, probe({ sessionStartMs: () => null, runMarkers: marker(4026532000, 2_000_000) }))).toMatch(/cannot tell when its session began/);
    // /proc hidden (a file system mounted over it): every marker is unseen, and the namespace unknown.
    expect(approvalRefusal({}, probe({ procFs: () => false, sessionStartMs: () => null, runMarkers: marker(4026531836, 2_000_000) }))).toMatch(/PID 9 in a PID namespace this process cannot see/);
    expect(approvalRefusal({}, probe({ namespace: () => 0, runMarkers: marker(4026531836, 900_000) }))).toMatch(/cannot see/);
    // A marker dated after now was renamed by hand: it cannot date its run (found by an attack).
    expect(approvalRefusal({}, probe({ runMarkers: marker(4026532000, 1_102_001) }))).toMatch(/PID 9 in another PID namespace/);
    expect(approvalRefusal({}, probe({ runMarkers: marker(4026532000, 1_102_000) }))).toBeNull();
    // An older session than an unseen run's cannot be compared with the run's session: it needs a terminal (round-21 F4).
    expect(approvalRefusal({}, probe({ terminal: () => false, runMarkers: marker(4026532000, 1_002_001) }))).toMatch(/PID 9 in another PID namespace\) is running checks, and this process has no terminal/);
    expect(approvalRefusal({}, probe({ terminal: () => false, runMarkers: marker(4026531836, 900_000) }))).toBeNull();
    // A store that cannot be read (made unreadable by a check, found by an attack): whether a run is under way cannot be told.
    expect(approvalRefusal({}, probe({ runMarkers: () => null }))).toMatch(/--approve refused: the private store cannot be read/);
  });

  it('refuses on the marker, an ancestor run, or a session newer than a live run; allows otherwise', () => {
    expect(approvalRefusal({ GATE_CHECK_ACTIVE_CHECK: 'GATES:G1' }, probe({}))).toMatch(/inside a running check/);
    expect(approvalRefusal({}, probe({ ancestorRun: () => 42 }))).toMatch(/PID 42/);
    const run = (start: number | null, session: number | null = 5) => () => [{ pid: 7, start, session }];
    // A session newer than the run (what a check and everything it starts have): refused.
    expect(approvalRefusal({}, probe({ terminal: () => false, liveRuns: run(50) }))).toMatch(/PID 7\) is running checks/);
    expect(approvalRefusal({}, probe({ terminal: () => false, sessionStart: () => null, liveRuns: run(50) }))).toMatch(/PID 7/);
    expect(approvalRefusal({}, probe({ terminal: () => false, liveRuns: run(null) }))).toMatch(/PID 7/);
    // An older session (a runner's, from before the run): a parallel job, allowed.
    expect(approvalRefusal({}, probe({ terminal: () => false, liveRuns: run(150) }))).toBeNull();
    // A terminal does not help a newer session (a check can make one with script): refused.
    expect(approvalRefusal({}, probe({ terminal: () => true, liveRuns: run(50) }))).toMatch(/PID 7\) is running checks, and this process runs in a session that began after/);
    expect(approvalRefusal({}, probe({ terminal: () => true, liveRuns: run(150) }))).toBeNull();
    expect(approvalRefusal({}, probe({ terminal: () => false }))).toBeNull();
    // An older session that is not the run's, without a terminal: a long-lived process of the
    // user that a check had run a command (tmux run-shell: round-21 F4): refused; with a terminal, a person's.
    expect(approvalRefusal({}, probe({ terminal: () => false, liveRuns: run(150, 6) }))).toMatch(/PID 7\) is running checks, and this process has no terminal and runs outside that run's session/);
    expect(approvalRefusal({}, probe({ terminal: () => false, liveRuns: run(150, null) }))).toMatch(/has no terminal/);
    expect(approvalRefusal({}, probe({ terminal: () => false, session: () => null, liveRuns: run(150) }))).toMatch(/has no terminal/);
    // Two sessions /proc does not show are not the same session.
    expect(approvalRefusal({}, probe({ terminal: () => false, session: () => null, liveRuns: run(150, null) }))).toMatch(/has no terminal/);
    expect(approvalRefusal({}, probe({ terminal: () => true, liveRuns: run(150, 6) }))).toBeNull();
    // The run is named by the folder it was started in, cleaned for the terminal (round-38b F1:
    // a run in another project blocked approval with a bare PID).
    const at = (cwd: string) => () => [{ pid: 7, start: 50, session: 5, cwd }];
    expect(approvalRefusal({}, probe({ terminal: () => true, liveRuns: at('/work/other-project') }))).toMatch(/^--approve refused: gate-check \(PID 7, started in \/work\/other-project\) is running checks, .*once it has ended \(nothing waits for it\)$/);
    expect(approvalRefusal({}, probe({ terminal: () => true, liveRuns: at('/w/\u001b[2Jx') }))).not.toContain('\u001b');
    expect(approvalRefusal({ CLAUDECODE: '1' }, probe({ terminal: () => true }))).toBeNull();
    expect(approvalRefusal({ CLAUDECODE: '1' }, probe({ terminal: () => false }))).toMatch(/CLAUDECODE/);
  });
});
