// Supervision is never lost, and every interrupt exits 130 (issue 8 §7), through the real
// CLI: every catchable terminating signal, a closed stdout, an exception in a worker, file
// descriptor exhaustion, a load failure at start-up, Ctrl-C and hang-up on a real
// pseudo-terminal, and interrupts during every wait (approval prompt, git snapshot, lock).
// The checks write their PIDs to files; after gate-check exits, each test asserts that none
// of them is left.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordFileName } from '../../lib/approval/store.js';
import { INTERRUPT_SIGNALS } from '../../lib/run/interrupts.js';
import { stopInput } from '../helpers/stop-hook.js';
import { BIN, runCli, sandbox, startCli, tempDir, writeFiles } from '../helpers/cli.js';
import { approveOnTerminal, NO_PTY_MESSAGE, pidFrom, processesIn, ptyDriver, sleep, startInPty, waitDead, waitUntil } from '../helpers/process.js';

// Whatever a failing test leaves running in its directories is killed afterwards.
const testDirs: string[] = [];
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of [...leftovers.splice(0), ...processesIn(testDirs.splice(0))]) {
    // Never 0 or 1 (a pid file read empty): kill(0) is this test's own process group.
    if (!(Number.isInteger(pid) && pid > 1)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function repo(files: Record<string, string>) {
  const s = sandbox();
  testDirs.push(s.repo, s.home);
  writeFiles(s.repo, files);
  return {
    ...s,
    run: (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: s.repo, env: { ...s.env, ...env } }),
    start: (args: string[], env: NodeJS.ProcessEnv = {}) => startCli(args, { cwd: s.repo, env: { ...s.env, ...env } }),
    ledger: () => readFileSync(join(s.repo, 'GATES.md'), 'utf8'),
    file: (name: string) => join(s.repo, name),
  };
}
type Repo = ReturnType<typeof repo>;

const gate = (id: string, check: string, expectText = 'ok') => `- [ ] ${id}: ${id}\n  CHECK: ${check}\n  EXPECT: ${expectText}\n`;
// Fails at once until the file `go` exists: so that --approve records the approval without a long run.
const gated = (check: string) => `test -f go || exit 1; ${check}`;
// A long check: its shell, a background child, and gate-check (its parent) are written down.
const long = (name: string) => gated(`echo $$ > ${name}.pid; echo $PPID > gc.pid; sleep 300 & echo $! > ${name}.bg; wait; echo ok`);

/** Approves every gate while they fail fast, then lets them run for real. */
async function approveAll(s: Repo, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<void> {
  const r = await approveOnTerminal([process.execPath, BIN, '--approve', ...args], { cwd: s.repo, env: { ...s.env, ...env } });
  expect(r.code, r.output).toBe(1);
  writeFileSync(s.file('go'), '');
}

async function pidsOf(s: Repo, names: string[]): Promise<number[]> {
  const pids: number[] = [];
  for (const n of names) pids.push(await pidFrom(s.file(n)));
  leftovers.push(...pids);
  return pids;
}

async function expectAllDead(pids: number[]): Promise<void> {
  for (const pid of pids) expect(await waitDead(pid, 3000), `process ${pid} is still running`).toBe(true);
}

describe('every catchable terminating signal: checks killed, finished results written, exit 130', () => {
  it.each(INTERRUPT_SIGNALS)('%s', async (signal) => {
    const s = repo({ 'GATES.md': gate('Q', gated('echo ok')) + gate('L1', long('l1')) + gate('L2', long('l2')) });
    await approveAll(s);
    const p = s.start(['--jobs', '3']);
    const pids = await pidsOf(s, ['l1.pid', 'l1.bg', 'l2.pid', 'l2.bg', 'gc.pid']);
    await waitUntil(() => /PASS GATES:Q/.test(p.output().stdout), 'Q to pass');
    p.child.kill(signal);
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`interrupted (${signal})`);
    await expectAllDead(pids);
    const text = s.ledger();
    expect(text).toMatch(/- \[x\] Q: Q/);
    expect(text).toMatch(/- \[ \] L1: L1/);
    expect(text).toMatch(/- \[ \] L2: L2/);
    expect(readdirSync(s.repo).filter((f) => f.endsWith('.lock') || f.endsWith('.tmp'))).toEqual([]);
  }, 30_000);

  // Round-38d F4: a signal while a build was still loading killed gate-check by the signal
  // (exit 143, 129), before its handlers were in place. The window is made certain: the bin,
  // copied beside a full build that never finishes loading.
  it.each(INTERRUPT_SIGNALS)('%s while the build still loads: exit 130, nothing printed', async (signal) => {
    const copy = tempDir('gc-loading-');
    mkdirSync(join(copy, 'bin'));
    mkdirSync(join(copy, 'dist'));
    for (const f of ['gate-check.js', 'package.json', 'fast-loader.cjs']) cpSync(join(BIN, '..', f), join(copy, 'bin', f));
    cpSync(join(BIN, '../../dist/route.cjs'), join(copy, 'dist/route.cjs'));
    writeFileSync(join(copy, 'package.json'), '{"type":"module"}\n');
    writeFileSync(join(copy, 'dist/cli.js'), "writeFileSync('loading', ''); setInterval(() => {}, 1000); await new Promise(() => {});\n".replace('writeFileSync', "(await import('node:fs')).writeFileSync").replace("'loading'", JSON.stringify(join(copy, 'loading'))));
    const child = spawn(process.execPath, [join(copy, 'bin/gate-check.js'), '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.resume();
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('close', (code, sig) => r([code, sig])));
    await waitUntil(() => existsSync(join(copy, 'loading')), 'the build to start loading', 10_000);
    child.kill(signal);
    expect(await closed).toEqual([130, null]);
    expect(stdout).toBe('');
  });

  it("the bin's early signals are lib/run/interrupts.ts's", () => {
    const text = readFileSync(BIN, 'utf8');
    const list = /const EARLY_SIGNALS = \[([^\]]*)\]/.exec(text)![1]!.split(',').map((w) => w.trim().replace(/'/g, ''));
    expect(list).toEqual([...INTERRUPT_SIGNALS]);
  });

  it('a second interrupt kills every group at once, without waiting for the grace period', async () => {
    // The check ignores SIGTERM: only SIGKILL ends it, after the 1 s grace or at the second interrupt.
    const s = repo({ 'GATES.md': gate('T', gated("trap '' TERM; echo $$ > t.pid; sleep 300 & echo $! > t.bg; while :; do sleep 0.05; done")) });
    await approveAll(s);
    const p = s.start([]);
    const pids = await pidsOf(s, ['t.pid', 't.bg']);
    p.child.kill('SIGINT');
    await sleep(100);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    await expectAllDead(pids);
  }, 30_000);
});

describe('a closed stdout', () => {
  it('gate-check --jobs 3 | head -1: the next write fails, every check is killed, exit 130', async () => {
    // S ends well after Q's line was written (result lines follow their batch write, within a
    // second), so that its line is a second write, into the closed pipe.
    const s = repo({ 'GATES.md': gate('Q', gated('echo ok')) + gate('S', gated('sleep 2; echo ok')) + gate('L', long('l')) });
    await approveAll(s);
    const sh = spawn('sh', ['-c', `{ '${process.execPath}' '${BIN}' --jobs 3 2>stderr.txt; echo $? > code; } | head -1`], { cwd: s.repo, env: s.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = '';
    sh.stdout.setEncoding('utf8').on('data', (d: string) => (seen += d));
    const closed = new Promise((r) => sh.on('close', r));
    const pids = await pidsOf(s, ['l.pid', 'l.bg', 'gc.pid']);
    await closed;
    expect(seen).toMatch(/^PASS GATES:Q/);
    await waitUntil(() => existsSync(s.file('code')) && readFileSync(s.file('code'), 'utf8') !== '', 'gate-check to exit', 15_000);
    expect(readFileSync(s.file('code'), 'utf8').trim()).toBe('130');
    expect(readFileSync(s.file('stderr.txt'), 'utf8')).toMatch(/interrupted \(stdout closed: EPIPE\)/);
    await expectAllDead(pids);
  }, 30_000);
});

describe('an unexpected exception', () => {
  it('kills every running check before gate-check exits 2 with a message', async () => {
    // A preloaded module throws from a timer while the checks run: an exception nobody catches.
    const s = repo({ 'GATES.md': gate('L1', long('l1')) + gate('L2', long('l2')) });
    await approveAll(s);
    const preload = `import{existsSync}from'node:fs';setTimeout(function tick(){if(existsSync('l1.bg')&&existsSync('l2.bg'))throw new Error('injected failure');setTimeout(tick,50)},50)`;
    const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, BIN, '--jobs', '2'], { cwd: s.repo, env: s.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const closed = new Promise((r) => child.on('close', r));
    const pids = await pidsOf(s, ['l1.pid', 'l1.bg', 'l2.pid', 'l2.bg', 'gc.pid']);
    const code = await closed;
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/^gate-check: internal error: injected failure$/m);
    await expectAllDead(pids);
  }, 30_000);
});

describe('an exception inside a worker', () => {
  it('kills every running check before the error is reported (exit 2)', async () => {
    // Q waits until L runs, then creates "boom"; from then on the preloaded module makes
    // createHash throw, so the worker fails as it starts T: L is still running.
    const s = repo({ 'GATES.md': gate('L', long('l')) + gate('Q', gated('while [ ! -s l.bg ]; do sleep 0.05; done; touch boom; echo ok')) + gate('T', gated('touch ran; echo ok')) });
    await approveAll(s);
    const preload = `import{syncBuiltinESMExports}from'node:module';import{existsSync}from'node:fs';import c from'node:crypto';const real=c.createHash;c.createHash=(...a)=>{if(existsSync('boom'))throw new Error('injected worker failure');return real(...a)};syncBuiltinESMExports()`;
    const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, BIN, '--jobs', '2'], { cwd: s.repo, env: s.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const closed = new Promise((r) => child.on('close', r));
    const pids = await pidsOf(s, ['l.pid', 'l.bg', 'gc.pid']);
    const code = await closed;
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/^gate-check: internal error: injected worker failure$/m);
    expect(existsSync(s.file('ran'))).toBe(false);
    await expectAllDead(pids);
  }, 30_000);
});

describe('file descriptor exhaustion', () => {
  it('ulimit -n 40 with --jobs 30: spawn failures are per-gate failures, nothing is left running', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `G${i}`);
    const s = repo({ 'GATES.md': ids.map((id) => gate(id, gated(`echo $$ > ${id}.pid; sleep 2; echo ok`))).join('') });
    await approveAll(s);
    const r = spawnSync('sh', ['-c', `ulimit -n 40 && exec '${process.execPath}' '${BIN}' --jobs 30`], { cwd: s.repo, env: s.env, encoding: 'utf8', timeout: 60_000 });
    expect([1, 2], r.stderr).toContain(r.status);
    expect(r.stdout + r.stderr).not.toMatch(/Cannot read properties|internal error|\n\s+at /);
    if (r.status === 1) expect(r.stdout).toMatch(/could not start the shell: (spawn \/bin\/sh|cannot make its output pipes: .*) EMFILE/);
    else expect(r.stderr).toMatch(/^gate-check: .*EMFILE/m);
    const started = ids.filter((id) => existsSync(s.file(`${id}.pid`)));
    expect(started.length).toBeGreaterThan(0);
    expect(started.length).toBeLessThan(30);
    for (const id of started) {
      // A check killed between creating its pid file and writing it leaves it empty.
      const pid = Number(readFileSync(s.file(`${id}.pid`), 'utf8').trim() || NaN);
      if (!(Number.isInteger(pid) && pid > 1)) continue;
      leftovers.push(pid);
      expect(await waitDead(pid, 3000), `${id} (pid ${pid}) outlived gate-check`).toBe(true);
    }
    // And nothing at all runs in the repository any more (those that wrote no pid included).
    await waitUntil(() => processesIn([s.repo]).length === 0, 'every check of the run to be gone', 3000);
  }, 90_000);
});

describe('start-up failures are exit 2 with a message', () => {
  it('a build that cannot be loaded', () => {
    const dir = tempDir('gc-nobuild-');
    mkdirSync(join(dir, 'bin'));
    cpSync(BIN, join(dir, 'bin', 'gate-check.js'));
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'gate-check.js'), '--status'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(2);
    // The router is the first file a command line needs (lib/cli/route.ts).
    expect(r.stderr).toMatch(/^gate-check: cannot start: .*dist\/route\.cjs/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('too few file descriptors to load the CLI (ulimit -n): never exit 1 from gate-check, never a stack trace', () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok') });
    // --status and a run load one file each (dist/status.cjs, dist/run.cjs) and need no
    // descriptor more than Node itself; a subcommand loads the ESM build, a file per chunk,
    // and on Node 20 fails cleanly in between (Node 22 and 24 need as many descriptors to
    // start as to load it: below that, Node itself fails). Every command gets its answer
    // once there are enough.
    for (const args of [['--status'], [], ['lint']]) {
      const outcomes: string[] = [];
      let cleanFailures = 0;
      let answers = 0;
      for (let n = 14; n <= 40; n++) {
        const r = spawnSync('sh', ['-c', `ulimit -n ${n} && exec '${process.execPath}' '${BIN}' ${args.join(' ')}`], { cwd: s.repo, env: s.env, encoding: 'utf8' });
        outcomes.push(`${n}: ${r.status} ${r.signal ?? ''} ${r.stderr.split('\n')[0]}`);
        // Below some limit Node itself cannot read bin/gate-check.js (or crashes): nothing of gate-check ran.
        const nodeItself = /node:internal|node::|node:fs|Assertion failed|gate-check\.js'/.test(r.stderr) && !/^gate-check:/m.test(r.stderr);
        if (nodeItself || r.signal !== null) continue;
        if (r.status === 2) {
          expect(r.stderr, outcomes.join('\n')).toMatch(/^gate-check: .*EMFILE/m);
          expect(r.stderr).not.toMatch(/\n\s+at /);
          cleanFailures++;
        } else if (args[0] === 'lint') {
          // Enough descriptors: lint's answer.
          expect([0, 1], outcomes.join('\n')).toContain(r.status);
          answers++;
        } else {
          answers++;
          // Enough descriptors: the ledger's answer (A is neither run by --status nor approved: exit 1, with the report).
          expect(r.status, outcomes.join('\n')).toBe(1);
          expect(r.stdout + r.stderr).toMatch(/GATES:A/);
        }
      }
      expect(answers, outcomes.join('\n')).toBeGreaterThan(0);
      if (args[0] === 'lint' && Number(process.versions.node.split('.')[0]) < 22) expect(cleanFailures, outcomes.join('\n')).toBeGreaterThan(0);
    }
  }, 90_000);
});

describe('the grace period reaches the real command', () => {
  it("a nested gate-check cleans up its own checks when the outer one is interrupted", async () => {
    // The outer check runs an inner gate-check (its own root, its gate approved beforehand);
    // dash, the outer shell, dies of SIGTERM at once; the inner gate-check needs the grace
    // to kill its check's group.
    const s = repo({
      'inner/GATES.md': gate('I', gated(`echo $$ > ../inner.pid; sleep 300 & echo $! > ../inner.bg; wait; echo ok`)),
      'GATES.md': gate('O', gated(`echo $$ > outer.pid; '${process.execPath}' '${BIN}' --root inner; echo ok`)),
    });
    expect((await approveOnTerminal([process.execPath, BIN, '--approve', '--root', 'inner'], { cwd: s.repo, env: s.env })).code).toBe(1);
    writeFileSync(join(s.repo, 'inner', 'go'), '');
    await approveAll(s);
    const p = s.start([]);
    const pids = await pidsOf(s, ['outer.pid', 'inner.pid', 'inner.bg']);
    p.child.kill('SIGTERM');
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    await expectAllDead(pids);
  }, 30_000);

  it("a check's own SIGTERM handler completes before gate-check exits", async () => {
    const inner = `trap 'sleep 0.2; echo cleaned > cleaned.txt; exit 1' TERM; echo $$ > inner.pid; while :; do sleep 0.05; done`;
    const s = repo({ 'GATES.md': gate('C', gated(`sh -c "${inner}"`)) });
    await approveAll(s);
    const p = s.start([]);
    const [pid] = await pidsOf(s, ['inner.pid']);
    p.child.kill('SIGTERM');
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    expect(existsSync(s.file('cleaned.txt'))).toBe(true);
    expect(await waitDead(pid!, 3000)).toBe(true);
  }, 30_000);
});

describe('a timeout whose escaped child still holds the output', () => {
  it('says so in the failure', async () => {
    const s = repo({ 'GATES.md': gate('E', gated("setsid sh -c 'echo $$ > esc.pid; exec sleep 30' & sleep 30")) });
    await approveAll(s, {}, ['--timeout', '1']);
    const r = s.run(['--timeout', '1']);
    const [escaped] = await pidsOf(s, ['esc.pid']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:E .*timed out after 1 s \(process group killed\); a process that left the check's process group \(setsid or a daemon\) still held the output and was not killed; a slower check needs TIMEOUT: <seconds> in the gate \(or --timeout\), and a new approval$/m);
    process.kill(escaped!, 'SIGKILL');
  }, 30_000);
});

describe('--json and an interrupt', () => {
  it('prints exactly one JSON document, with exit code 130', async () => {
    const s = repo({ 'GATES.md': gate('Q', gated('echo ok')) + gate('L', long('l')) });
    await approveAll(s);
    const p = s.start(['--json', '--jobs', '2']);
    const pids = await pidsOf(s, ['l.pid', 'l.bg']);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code).toBe(130);
    const doc = JSON.parse(r.stdout);
    expect(doc.exitCode).toBe(130);
    expect(doc.gates.find((g: { id: string }) => g.id === 'L').result.status).toBe('not-run');
    await expectAllDead(pids);
  }, 30_000);

  it('an interrupt before anything was reported (during a lock wait) is one error document, exit 130', async () => {
    const s = repo({ 'GATES.md': gate('Q', gated('echo $$ > q.pid; echo ok')) });
    await approveAll(s);
    writeFileSync(s.file('GATES.md.lock'), JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n');
    const p = s.start(['--json'], { GATE_CHECK_LOCK_TIMEOUT_MS: '60000' });
    await pidFrom(s.file('q.pid'));
    await sleep(300);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code).toBe(130);
    const doc = JSON.parse(r.stdout);
    expect(doc.exitCode).toBe(130);
    expect(doc.errors[0].message).toMatch(/interrupted while waiting for the lock .*GATES\.md\.lock/);
  }, 30_000);
});

describe('every wait is interruptible', () => {
  it('a wait for the ledger lock ends at once with exit 130; the lock is not stolen, the ledger not written', async () => {
    const s = repo({ 'GATES.md': gate('Q', gated('echo $$ > q.pid; echo ok')) });
    await approveAll(s);
    const before = s.ledger();
    const lock = JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n';
    writeFileSync(s.file('GATES.md.lock'), lock);
    const p = s.start([], { GATE_CHECK_LOCK_TIMEOUT_MS: '60000' });
    await pidFrom(s.file('q.pid'));
    await sleep(300);
    const t0 = Date.now();
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - t0).toBeLessThan(10_000); // not the 60 s lock timeout
    expect(r.stderr).toMatch(/interrupted while waiting for the lock/);
    expect(readFileSync(s.file('GATES.md.lock'), 'utf8')).toBe(lock);
    expect(s.ledger()).toBe(before);
  }, 30_000);

  it('a wait for the run-records lock while a failure is recorded ends at once with exit 130, and no older pass of the ledger stands', async () => {
    const s = repo({ 'GATES.md': gate('Q', gated('test -f broken && exit 1; echo $$ > q.pid; echo ok')) });
    await approveAll(s);
    expect(s.run([]).code).toBe(0); // a pass, recorded
    const passed = s.ledger();
    const receipts = join(s.home, '.gate-check', 'receipts');
    const records = readdirSync(receipts).find((f) => f.endsWith('.records.json'))!;
    writeFileSync(join(receipts, `${records}.lock`), JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n', { mode: 0o600 });
    writeFileSync(s.file('broken'), ''); // the work regresses: the re-run fails
    const p = s.start(['--reverify'], { GATE_CHECK_LOCK_TIMEOUT_MS: '60000' });
    await sleep(1500); // it has failed and waits for the records lock
    const t0 = Date.now();
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/interrupted while waiting for the lock .*records\.json\.lock/);
    expect(r.stderr).not.toMatch(/could not be recorded/); // an interrupt, not a store that cannot be written
    expect(s.ledger()).toBe(passed); // nothing is written after the interrupt
    expect(existsSync(join(receipts, records))).toBe(false); // the pass before it no longer counts
    rmSync(join(receipts, `${records}.lock`));
    writeFileSync(s.file('GATES.md'), passed);
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^GATES:Q {2}met, unverified /m);
  }, 30_000);

  it('a wait for an approval record lock ends at once with exit 130, and nothing is approved or run', async () => {
    const s = repo({ 'GATES.md': gate('A', 'touch ran; echo ok') });
    const plan = JSON.parse(s.run(['--json']).stdout);
    const signature: string = plan.gates[0].result.signature;
    const dir = join(s.home, '.gate-check', 'approved');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(join(s.home, '.gate-check'), 0o700);
    const record = join(dir, recordFileName(join(s.repo, 'GATES.md'), 'A', signature));
    writeFileSync(`${record}.lock`, JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n');
    // Approved by a person on a terminal; Ctrl-C while it waits for the record's lock.
    const env = { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '60000' };
    let code: number | null;
    let shown: string;
    if (ptyDriver()) {
      const t = startInPty([process.execPath, BIN, '--approve'], { cwd: s.repo, env });
      await t.waitForOutput(/approve\? \[y\/N\/a\] /);
      t.type('y\r');
      await sleep(1500);
      t.type('\u0003');
      ({ code, output: shown } = await t.done);
    } else {
      const p = startCli(['--approve'], { cwd: s.repo, env });
      await sleep(1500);
      p.child.kill('SIGINT');
      const r = await p.done;
      [code, shown] = [r.code, r.stderr];
    }
    expect(code, shown).toBe(130);
    expect(shown).toMatch(/interrupted while waiting for the lock/);
    expect(existsSync(record)).toBe(false);
    expect(existsSync(s.file('ran'))).toBe(false);
  }, 30_000);

  it("--assert-clean: an interrupt during the git snapshot starts no check, and finished results are still written", async () => {
    // A git that, once "slow" exists, takes its time from its thirteenth call on: A's
    // snapshots before and after (six calls each: three ls-files, rev-parse, for-each-ref,
    // config --list; no index yet, so no rewrite of one), then B's snapshot before its check.
    const s = repo({ 'GATES.md': gate('A', gated('echo ok')) + gate('B', gated('touch ran; echo ok')) });
    execFileSync('git', ['init', '-q'], { cwd: s.repo });
    const tools = join(s.home, 'tools');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const count = join(s.home, 'git-calls');
    writeFiles(tools, {
      git: `#!/bin/sh
if [ -f '${s.file('slow')}' ]; then n=$(( $(cat '${count}' 2>/dev/null || echo 0) + 1 )); echo $n > '${count}'; if [ $n -ge 13 ]; then echo $$ > '${s.file('git.pid')}'; exec sleep 30; fi; fi
exec '${realGit}' "$@"
`,
    });
    chmodSync(join(tools, 'git'), 0o755);
    const env = { PATH: `${tools}:${process.env.PATH}` };
    // Approve with the same PATH (both fail fast), then let them pass, with the third snapshot slow.
    await approveAll(s, env);
    writeFileSync(s.file('slow'), '');
    const p = s.start(['--assert-clean'], env);
    const [git] = await pidsOf(s, ['git.pid']);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code, r.stderr).toBe(130);
    expect(existsSync(s.file('ran'))).toBe(false);
    expect(await waitDead(git!)).toBe(true);
    expect(r.stdout).toMatch(/^PASS GATES:A/m);
    expect(s.ledger()).toMatch(/- \[x\] A: A/);
  }, 30_000);
});

describe('the Stop hook keeps its own answer', () => {
  it('an interrupt while the hook runs does not turn its "block" into exit 130 (a non-blocking error that lets the agent stop)', async () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok') });
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-stop'], { cwd: s.repo, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.resume();
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await sleep(500); // the hook is waiting for its input
    child.kill('SIGHUP');
    await sleep(100);
    child.stdin.end(stopInput(s.repo, 'session-1'));
    const code = await closed;
    expect(code).toBe(0);
    expect(JSON.parse(stdout).decision).toBe('block');
  }, 30_000);
});

// ---- on a real terminal -----------------------------------------------------------------

const pty = ptyDriver();
if (!pty) console.warn(`interrupts.test.ts: skipping the terminal tests: ${NO_PTY_MESSAGE}`);

describe.skipIf(!pty)(pty ? 'on a terminal' : `on a terminal (skipped: ${NO_PTY_MESSAGE})`, () => {
  const approved = (s: Repo) => (JSON.parse(s.run(['approvals', 'list', '--json']).stdout).gates as { id: string; state: string }[]).filter((g) => g.state !== 'none').map((g) => g.id);

  it('Ctrl-C at the approve? prompt exits 130, approving and running nothing', async () => {
    const s = repo({ 'GATES.md': gate('A', 'touch ran-a; echo ok') + gate('B', 'touch ran-b; echo ok') });
    const t = startInPty([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env });
    await t.waitForOutput(/approve\? \[y\/N\/a\] /);
    t.type('y\r');
    await t.waitForOutput(/approve\? \[y\/N\/a\] [^]*approve\? \[y\/N\/a\] /);
    t.type('\u0003');
    const r = await t.done;
    expect(r.code, r.output).toBe(130);
    expect(existsSync(s.file('ran-a'))).toBe(false);
    expect(existsSync(s.file('ran-b'))).toBe(false);
    expect(approved(s)).toEqual([]);
  }, 30_000);

  it('after interactive approval, the first Ctrl-C during the run interrupts it: exit 130, check killed', async () => {
    const s = repo({ 'GATES.md': gate('L', `echo $$ > l.pid; sleep 300 & echo $! > l.bg; wait; echo ok`) });
    const t = startInPty([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env });
    await t.waitForOutput(/approve\? \[y\/N\/a\] /);
    t.type('y\r');
    const pids = await pidsOf(s, ['l.pid', 'l.bg']);
    t.type('\u0003');
    const r = await t.done;
    expect(r.code, r.output).toBe(130);
    expect(r.output).toMatch(/interrupted \(SIGINT\)/);
    await expectAllDead(pids);
  }, 30_000);

  it('after interactive approval the terminal is back in its normal mode: Ctrl-\\ is SIGQUIT again (not a raw keystroke)', async () => {
    const s = repo({ 'GATES.md': gate('L', `echo $$ > l.pid; sleep 300 & echo $! > l.bg; wait; echo ok`) });
    const t = startInPty([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env });
    await t.waitForOutput(/approve\? \[y\/N\/a\] /);
    t.type('y\r');
    const pids = await pidsOf(s, ['l.pid', 'l.bg']);
    t.type('\u001c');
    const r = await t.done;
    expect(r.code, r.output).toBe(130);
    expect(r.output).toMatch(/interrupted \(SIGQUIT\)/);
    await expectAllDead(pids);
  }, 30_000);

  it('answers typed ahead still reach the following questions', async () => {
    const s = repo({ 'GATES.md': gate('A', 'echo ok') + gate('B', 'echo ok') + gate('C', 'echo ok') });
    const t = startInPty([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env });
    await t.waitForOutput(/approve\? \[y\/N\/a\] /);
    t.type('y\rn\ry\r');
    const r = await t.done;
    expect(r.code, r.output).toBe(1);
    expect(s.ledger()).toMatch(/- \[x\] A[^]*- \[ \] B[^]*- \[x\] C/);
  }, 30_000);

  it('closing the terminal (SIGHUP) during a run kills every check', async () => {
    const s = repo({ 'GATES.md': gate('L1', long('l1')) + gate('L2', long('l2')) });
    await approveAll(s);
    const t = startInPty([process.execPath, BIN, '--jobs', '2'], { cwd: s.repo, env: s.env });
    const pids = await pidsOf(s, ['l1.pid', 'l1.bg', 'l2.pid', 'l2.bg', 'gc.pid']);
    t.hangUp();
    const r = await t.done;
    if (pty!.kind === 'python3') expect(r.code, r.output).toBe(130);
    await expectAllDead(pids);
  }, 30_000);
});

// The helper itself: a command on the terminal sees one.
describe('the pseudo-terminal helper', () => {
  it.skipIf(!pty)('gives the command a terminal on stdin and stdout', async () => {
    const dir = tempDir('gc-pty-');
    testDirs.push(dir);
    const t = startInPty([process.execPath, '-e', 'console.log(process.stdin.isTTY && process.stdout.isTTY ? "tty" : "no")'], { cwd: dir, env: process.env });
    const r = await t.done;
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/tty/);
  });
});
