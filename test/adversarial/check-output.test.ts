// Checks see what they would see in a shell (issue 10 §1), through the real CLI: a Node
// check that prints 5,000 lines and calls process.exit() passes 100 of 100 times; the
// digest gate-check records is the one references/evidence.md's recipe computes; --jobs 64
// works and warns about nothing; no FIFO and no batch directory is left behind, after a
// run, an interrupt or a SIGKILL, and a crashed run's leftovers are removed by the next.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox, startCli, tempDir, writeFiles } from '../helpers/cli.js';
import { approveOnTerminal, pidFrom, processesIn, waitDead } from '../helpers/process.js';

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

/** A sandbox whose output pipes are made in a directory of its own (XDG_RUNTIME_DIR). */
function repo(files: Record<string, string>) {
  const s = sandbox();
  testDirs.push(s.repo);
  const runtime = tempDir('gc-runtime-');
  const env: NodeJS.ProcessEnv = { ...s.env, XDG_RUNTIME_DIR: runtime };
  writeFiles(s.repo, files);
  return { ...s, env, pipesDir: join(runtime, `gate-check-${process.getuid!()}`), file: (name: string) => join(s.repo, name) };
}
type Repo = ReturnType<typeof repo>;

// Fails at once until `go` exists: approved as a person does, then run for real.
const gated = (check: string) => `test -f go || exit 1; ${check}`;
async function approveAll(s: Repo, args: string[] = []): Promise<void> {
  const r = await approveOnTerminal([process.execPath, BIN, '--approve', ...args], { cwd: s.repo, env: s.env });
  expect(r.code, r.output).toBe(1);
  writeFiles(s.repo, { go: '' });
}

const NODE_TAIL = `node -e "for (let i=0;i<5000;i++) console.log('line '+i); process.exit(0)"`;

describe('a Node check that prints and calls process.exit()', () => {
  it('passes 100 of 100 runs (100 gates, --jobs 4); on socket pairs it passed none', async () => {
    let ledger = '';
    for (let i = 1; i <= 100; i++) ledger += `- [ ] T${i}: tail ${i}\n  CHECK: ${gated(NODE_TAIL)}\n  EXPECT: line 4999\n\n`;
    const s = repo({ 'GATES.md': ledger });
    await approveAll(s, ['--jobs', '4']);
    const r = runCli(['--jobs', '4'], { cwd: s.repo, env: s.env, timeoutMs: 240_000 });
    const passed = r.stdout.split('\n').filter((l) => /^PASS GATES:T\d+ /.test(l));
    expect(passed.length, r.stdout.split('\n').filter((l) => /^FAIL/.test(l)).slice(0, 3).join('\n')).toBe(100);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readdirSync(s.pipesDir)).toEqual([]);
  }, 300_000);
});

describe("references/evidence.md's digest recipe computes the digest gate-check records", () => {
  const digestOf = (s: Repo, gate: string): string => {
    const r = runCli(['--reverify', '--json'], { cwd: s.repo, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    const g = (JSON.parse(r.stdout).gates as { id: string; result: { outputSha256: string } }[]).find((x) => x.id === gate)!;
    expect(g.result.outputSha256).toMatch(/^[0-9a-f]{64}$/);
    return g.result.outputSha256;
  };
  // The recipes exactly as the reference shows them, run by bash in the ledger's folder.
  const recipe = (s: Repo, text: string) => spawnSync('bash', ['-c', text], { cwd: s.repo, env: s.env, encoding: 'utf8' }).stdout.split(' ')[0];
  const evidenceMd = readFileSync(join(import.meta.dirname, '../../references/evidence.md'), 'utf8');

  it('stdout only: /bin/sh -c CHECK | sha256sum', async () => {
    const check = 'node scripts/greet.mjs --name Ada';
    const s = repo({
      'GATES.md': `- [ ] G: greets\n  CHECK: ${check}\n  EXPECT: Hello, Ada\n`,
      'scripts/greet.mjs': "const name = process.argv[3]; for (let i = 0; i < 3000; i++) console.log(`Hello, ${name} ${i}`); process.exit(0);\n",
    });
    expect((await approveOnTerminal([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env })).code).toBe(0);
    const documented = `/bin/sh -c '${check}' < /dev/null | sha256sum`;
    expect(evidenceMd).toContain(documented);
    expect(recipe(s, documented)).toBe(digestOf(s, 'G'));
  }, 60_000);

  it('stdout and stderr: stdout first, then stderr (never 2>&1, which interleaves them)', async () => {
    const check = "printf 'out1\\n'; printf 'err1\\n' >&2; printf 'out2\\n'";
    const s = repo({ 'GATES.md': `- [ ] B: both\n  CHECK: ${check}\n  EXPECT: out2\n` });
    expect((await approveOnTerminal([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env })).code).toBe(0);
    const documented = (cmd: string) => `{ /bin/sh -c '${cmd}' < /dev/null 2> stderr.txt; cat stderr.txt; } | sha256sum`;
    expect(evidenceMd).toContain(documented('CHECK'));
    // The CHECK's own quotes, escaped for the single-quoted word as the reference says.
    const digest = recipe(s, documented(check.replace(/'/g, `'\\''`)));
    expect(digest).toBe(digestOf(s, 'B'));
    expect(digest).not.toBe(recipe(s, `/bin/sh -c '${check.replace(/'/g, `'\\''`)}' < /dev/null 2>&1 | sha256sum`));
  }, 60_000);
});

describe('a check holds no descriptor gate-check opened, but its stdin, stdout and stderr', () => {
  // The shell's descriptors, listed by a subshell into a file that subshell opens (the
  // shell's own table is untouched by the listing), as numbers and as what they lead to.
  const listing = (name: string) => `( ls /proc/$$/fd > ${name}.fds; for f in $(ls /proc/$$/fd); do echo "$f $(readlink /proc/$$/fd/$f)"; done > ${name}.links )`;
  // What a shell started directly from here holds: 0, 1, 2 and whatever this test process
  // itself inherited without close-on-exec (a shell passes those on as well).
  const baseline = (): string[] => {
    const dir = tempDir('gc-fds-');
    spawnSync('/bin/sh', ['-c', listing('base')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    return readFileSync(join(dir, 'base.fds'), 'utf8').trim().split('\n');
  };

  it('the same descriptors as a shell started directly: /dev/null and two pipes of its own, whatever else runs', async () => {
    let ledger = '';
    for (let i = 1; i <= 4; i++) ledger += `- [ ] F${i}: fds ${i}\n  CHECK: ${gated(`${listing(`f${i}`)}; sleep 0.3; echo ok`)}\n  EXPECT: ok\n\n`;
    const s = repo({ 'GATES.md': ledger });
    await approveAll(s, ['--jobs', '4']);
    // Four at once: other checks' pipes, the unused pipes, gate-check's own files are open meanwhile.
    const r = runCli(['--jobs', '4'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const expected = baseline();
    expect(expected.slice(0, 3)).toEqual(['0', '1', '2']);
    const pipes = new Set<string>();
    for (let i = 1; i <= 4; i++) {
      expect(readFileSync(s.file(`f${i}.fds`), 'utf8').trim().split('\n')).toEqual(expected);
      const links = new Map(readFileSync(s.file(`f${i}.links`), 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]));
      expect(links.get('0')).toBe('/dev/null');
      for (const fd of ['1', '2']) {
        const link = links.get(fd)!;
        expect(link.startsWith(`${s.pipesDir}/`) && link.endsWith(' (deleted)'), link).toBe(true);
        pipes.add(link);
      }
    }
    // Eight distinct pipes: no check writes into another's output.
    expect(pipes.size).toBe(8);
  }, 60_000);
});

describe('each check has its own output', () => {
  it('many checks in a row, each with its own output only', async () => {
    let ledger = '';
    for (let i = 1; i <= 40; i++) ledger += `- [ ] R${i}: own output ${i}\n  CHECK: ${gated(`echo out-${i}; echo err-${i} >&2`)}\n  EXPECT: /^out-${i}\\nerr-${i}\\n$/\n\n`;
    const s = repo({ 'GATES.md': ledger });
    await approveAll(s);
    const r = runCli(['--json'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).summary.met).toBe(40);
  }, 60_000);

  it('a process an earlier check left behind, still writing to its pipes, never reaches a later check', async () => {
    // E1's setsid child outlives it and keeps writing to the pipes it inherited; E2 runs
    // while it writes and must not see a byte of it.
    const escape = `setsid sh -c 'echo $$ > esc.pid; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 0.25; echo FORGED; echo FORGED >&2; done' & while [ ! -s esc.pid ]; do sleep 0.02; done; echo one`;
    const s = repo({
      'GATES.md': [
        `- [ ] E1: escapes\n  CHECK: ${gated(escape)}\n  EXPECT: one\n`,
        `- [ ] E2: runs while the escaped process writes\n  CHECK: ${gated('sleep 1.5; echo two')}\n  EXPECT: /^two\\n$/\n`,
      ].join('\n'),
    });
    await approveAll(s);
    const r = runCli(['--json'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    leftovers.push(Number(readFileSync(s.file('esc.pid'), 'utf8')));
    const gates = JSON.parse(r.stdout).gates;
    expect(gates[0].result.status).not.toBe('pass');
    expect(gates[1].result.status, JSON.stringify(gates[1].result)).toBe('pass');
  }, 60_000);
});

describe('a pipe is never given to a second check', () => {
  it('a process left behind that keeps a read end of its check\'s pipes cannot write into a later check', async () => {
    // Found by an attack on a version that reused a pipe once its output reached end of
    // file: end of file says no writer is left, but D1's daemon keeps read ends (reopened
    // from its own stdout and stderr) and later reopens them for writing.
    const daemon = [
      `setsid sh -c 'echo $$ > daemon.pid; exec 3</proc/self/fd/1 4</proc/self/fd/2 1>/dev/null 2>/dev/null; sleep 0.8;`,
      ` exec 5>/proc/self/fd/3 6>/proc/self/fd/4; echo LEFTOVER >&5; echo LEFTOVER >&6; exec 5>&- 6>&-; sleep 3' &`,
      ' while [ ! -s daemon.pid ]; do sleep 0.02; done; sleep 0.2; echo one',
    ].join('');
    const s = repo({
      'GATES.md': [
        `- [ ] D1: leaves a reader behind\n  CHECK: ${gated(daemon)}\n  EXPECT: one\n`,
        `- [ ] D2: runs after it\n  CHECK: ${gated('sleep 1.5; echo two')}\n  EXPECT: LEFTOVER\n`,
      ].join('\n'),
    });
    await approveAll(s);
    const r = runCli(['--json'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    leftovers.push(Number(readFileSync(s.file('daemon.pid'), 'utf8')));
    const gates = JSON.parse(r.stdout).gates;
    expect(gates[0].result.status, JSON.stringify(gates[0].result)).toBe('pass');
    expect(gates[1].result.status).toBe('fail');
    expect(gates[1].result.bytes).toBe(4); // "two\n" and nothing else
  }, 60_000);
});

describe('mkfifo is never found through PATH', () => {
  it('a mkfifo planted first in PATH (the run\'s and the checks\' PATH) never runs', async () => {
    const s = repo({ 'GATES.md': `- [ ] P: planted\n  CHECK: echo ok\n  EXPECT: ok\n`, 'bin/mkfifo': `#!/bin/sh\ntouch "${'$'}(dirname "$0")/../planted-ran"\nexit 1\n` });
    chmodSync(s.file('bin/mkfifo'), 0o755);
    const env = { ...s.env, PATH: `${s.file('bin')}:${s.env.PATH}` };
    expect((await approveOnTerminal([process.execPath, BIN, '--approve'], { cwd: s.repo, env })).code).toBe(0);
    expect(runCli(['--reverify'], { cwd: s.repo, env }).code).toBe(0);
    expect(existsSync(s.file('planted-ran'))).toBe(false);
    // The plant works: mkfifo by name, with that PATH, is it.
    spawnSync('sh', ['-c', 'mkfifo x'], { cwd: s.repo, env });
    expect(existsSync(s.file('planted-ran'))).toBe(true);
  }, 30_000);
});

describe('--jobs 64', () => {
  it('64 checks at once pass, warn about nothing, and leave nothing behind', async () => {
    let ledger = '';
    for (let i = 1; i <= 64; i++) ledger += `- [ ] J${i}: job ${i}\n  CHECK: ${gated(`sleep 0.5; echo job ${i}`)}\n  EXPECT: job ${i}\n\n`;
    const s = repo({ 'GATES.md': ledger });
    await approveAll(s, ['--jobs', '64']);
    const r = runCli(['--jobs', '64'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('PASS ')).length).toBe(64);
    expect(r.stderr).toBe('');
    expect(readdirSync(s.pipesDir)).toEqual([]);
  }, 120_000);
});

describe('nothing is left on disk', () => {
  const long = (name: string) => gated(`echo $$ > ${name}.pid; sleep 300 & echo $! > ${name}.bg; wait; echo ok`);

  it('an interrupted run', async () => {
    const s = repo({ 'GATES.md': `- [ ] L: long\n  CHECK: ${long('l')}\n  EXPECT: ok\n` });
    await approveAll(s);
    const p = startCli([], { cwd: s.repo, env: s.env });
    const pids = [await pidFrom(s.file('l.pid')), await pidFrom(s.file('l.bg'))];
    leftovers.push(...pids);
    p.child.kill('SIGINT');
    expect((await p.done).code).toBe(130);
    for (const pid of pids) expect(await waitDead(pid)).toBe(true);
    expect(readdirSync(s.pipesDir)).toEqual([]);
  }, 30_000);

  it('a run killed with SIGKILL while its checks run: the pipes had no names left to leave', async () => {
    const s = repo({ 'GATES.md': `- [ ] L1: one\n  CHECK: ${long('l1')}\n  EXPECT: ok\n- [ ] L2: two\n  CHECK: ${long('l2')}\n  EXPECT: ok\n` });
    await approveAll(s, ['--jobs', '2']);
    const p = startCli(['--jobs', '2'], { cwd: s.repo, env: s.env });
    for (const f of ['l1.pid', 'l1.bg', 'l2.pid', 'l2.bg']) leftovers.push(await pidFrom(s.file(f)));
    p.child.kill('SIGKILL');
    await p.done;
    expect(readdirSync(s.pipesDir)).toEqual([]);
  }, 30_000);

  it("a crashed run's batch directory (its process gone) is removed by the next run; a live process's is kept", async () => {
    const s = repo({ 'GATES.md': `- [ ] A: a\n  CHECK: echo ok\n  EXPECT: ok\n` });
    mkdirSync(s.pipesDir, { mode: 0o700 });
    const dead = execFileSync('sh', ['-c', 'sh -c "echo \\$\\$"'], { encoding: 'utf8' }).trim();
    const stale = join(s.pipesDir, `${dead}-0123456789ab`);
    mkdirSync(stale);
    execFileSync('mkfifo', ['-m', '600', join(stale, '0'), join(stale, '1')]);
    const live = join(s.pipesDir, `${process.pid}-0123456789ab`);
    mkdirSync(live);
    expect((await approveOnTerminal([process.execPath, BIN, '--approve'], { cwd: s.repo, env: s.env })).code).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(s.pipesDir)).toEqual([`${process.pid}-0123456789ab`]);
  }, 30_000);
});
