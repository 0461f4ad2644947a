// A check's output pipes (lib/run/output-pipes.ts), with real FIFOs and real processes:
// what a check sees on fd 1 and 2 (pipes, blocking, no path, its own), the Node program
// that prints and calls process.exit(), 64 checks at once, no descriptor kept, nothing left
// on disk, and a check that cannot have its pipes does not start. The FIFOs themselves
// (refusals, batches): test/fsx/fifo.test.ts.
import { chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readlinkSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchSize, findMkfifo, outputPipeSettings, outputPipesPending, planOutputPipes, prefetchOutputPipes, releaseOutputPipes, runMkfifo, takeOutputPipes, closePipeEnds } from '../../lib/run/output-pipes.js';
import { superviseCheck, type CheckOutcome, type CheckSpec } from '../../lib/run/supervisor.js';
import { runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

// The private directory of this test file's process: under a base of its own.
const base = tempDir('gc-pipes-base-');
process.env.XDG_RUNTIME_DIR = base;
const uid = process.getuid!();
const privateDir = join(base, `gate-check-${uid}`);

function run(cmd: string, over: Partial<CheckSpec> = {}): Promise<CheckOutcome> {
  return superviseCheck({
    shell: '/bin/sh',
    args: ['-c', cmd],
    cwd: tempDir('gc-pipes-'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 20_000,
    outputCap: 1024 * 1024,
    ...over,
  });
}

const openFds = () => readdirSync('/proc/self/fd').length;

afterEach(() => {
  outputPipeSettings.socketsOnly = false;
});

describe('what a check sees on stdout and stderr', () => {
  beforeAll(async () => {
    // The first check creates the private directory.
    expect((await run('true')).exitCode).toBe(0);
  });

  it('two pipes (FIFOs), not sockets, distinct from each other', async () => {
    const o = await run('[ -p /dev/stdout ] && [ -p /dev/stderr ] && echo pipes; [ -S /dev/stdout ] && echo socket; stat -L -c %i /proc/$$/fd/1 /proc/$$/fd/2');
    const [kind, outIno, errIno] = o.output.toString().trim().split('\n');
    expect(kind).toBe('pipes');
    expect(outIno).not.toBe(errIno);
  });

  it('where FIFOs are unavailable, socket pairs as before', async () => {
    outputPipeSettings.socketsOnly = true;
    const o = await run('[ -S /dev/stdout ] && [ -S /dev/stderr ] && echo sockets');
    expect(o.output.toString()).toBe('sockets\n');
  });

  it('blocking, as pipe(2) makes them (cat and dd would fail with EAGAIN on a non-blocking stdout)', async () => {
    const o = await run("sed -n 's/^flags:[[:space:]]*//p' /proc/$$/fdinfo/1 /proc/$$/fdinfo/2");
    const flags = o.output.toString().trim().split('\n').map((f) => parseInt(f, 8));
    expect(flags).toHaveLength(2);
    for (const f of flags) {
      expect(f & 0o3).toBe(0o1); // O_WRONLY: the check cannot read its own output back
      expect(f & 0o4000).toBe(0); // not O_NONBLOCK
    }
  });

  it('with no path left: the FIFOs were unlinked before the shell started, their batch directory is gone', async () => {
    const o = await run('readlink /proc/$$/fd/1; readlink /proc/$$/fd/2');
    const links = o.output.toString().trim().split('\n');
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.startsWith(`${privateDir}/`)).toBe(true);
      expect(link.endsWith(' (deleted)')).toBe(true);
      const batch = link.slice(0, link.lastIndexOf('/'));
      expect(existsSync(batch)).toBe(false);
    }
  });

  it("a Node program that prints 5,000 lines and calls process.exit() keeps every line, 20 runs of 20", async () => {
    const cmd = `'${process.execPath}' -e "for (let i=0;i<5000;i++) console.log('line '+i); process.exit(0)"`;
    const expected = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join('');
    for (let i = 0; i < 20; i++) {
      const o = await run(cmd);
      expect(o.exitCode).toBe(0);
      expect(o.bytes, `run ${i}`).toBe(expected.length);
      expect(o.output.toString()).toBe(expected);
    }
  }, 60_000);

  it('64 checks at once: each reads its own pipes, no check holds another check\'s pipe, nothing is left behind', async () => {
    const n = 64;
    // Each prints its id 2,000 times on stdout and once on stderr, its pipes' inodes, and the
    // fds it holds that lead into the private directory (only 1 and 2 may).
    const cmd = (id: number) =>
      `i=0; while [ $i -lt 2000 ]; do echo ${id}; i=$((i+1)); done; echo e${id} >&2; sleep 0.3; ` +
      `echo ino $(stat -L -c %i /proc/$$/fd/1) $(stat -L -c %i /proc/$$/fd/2); ` +
      `for f in /proc/$$/fd/*; do case "$(readlink "$f")" in '${privateDir}'/*) echo held \${f##*/};; esac; done`;
    const outcomes = await Promise.all(Array.from({ length: n }, (_, id) => run(cmd(id))));
    const inodes = new Set<string>();
    outcomes.forEach((o, id) => {
      expect(o.failure).toBeNull();
      const lines = o.output.toString().trim().split('\n');
      expect(lines.slice(0, 2000).every((l) => l === String(id))).toBe(true);
      const ino = lines.find((l) => l.startsWith('ino '))!.split(' ');
      inodes.add(ino[1]!);
      inodes.add(ino[2]!);
      expect(lines.filter((l) => l.startsWith('held ')).sort()).toEqual(['held 1', 'held 2']);
      expect(lines[lines.length - 1]).toBe(`e${id}`);
    });
    expect(inodes.size).toBe(2 * n);
    expect(readdirSync(privateDir)).toEqual([]);
  }, 60_000);
});

describe('gate-check keeps no descriptor of a check once it settles', () => {
  it('after checks that pass, fail to start (no shell, no working directory, a refused environment), overflow or time out: as many open as before', async () => {
    releaseOutputPipes();
    const before = openFds();
    const outcomes = [
      await run('echo ok; echo err >&2'),
      await run('true', { shell: '/nonexistent/sh' }),
      await run('true', { cwd: '/nonexistent/dir' }),
      // Refused by spawn() itself, before any process: a NUL in the environment.
      await run('true', { env: { PATH: '/usr/bin:/bin', BAD: 'a\u0000b' } }),
      await run('yes', { outputCap: 4096 }),
      await run('sleep 30', { timeoutMs: 200, graceMs: 100 }),
    ];
    expect(outcomes.map((o) => o.failure)).toEqual([null, 'spawn', 'spawn', 'spawn', 'overflow', 'timeout']);
    // The unused pipes of the batch are gate-check's, not any check's: closed here.
    releaseOutputPipes();
    expect(openFds()).toBe(before);
  }, 30_000);
});

describe('a check that cannot have its pipes does not start', () => {
  afterEach(() => {
    outputPipeSettings.bases = null;
    releaseOutputPipes();
  });

  it('a refused directory is passed over for the next candidate', async () => {
    releaseOutputPipes();
    const planted = tempDir('gc-pipes-planted-');
    const target = tempDir('gc-pipes-target-');
    symlinkSync(target, join(planted, `gate-check-${uid}`));
    const good = tempDir('gc-pipes-good-');
    outputPipeSettings.bases = [planted, good];
    const o = await run('readlink /proc/$$/fd/1');
    expect(o.output.toString().startsWith(`${join(good, `gate-check-${uid}`)}/`)).toBe(true);
    expect(readdirSync(target)).toEqual([]);
  });

  it('every candidate refused: the check does not start and says why', async () => {
    releaseOutputPipes();
    const link = tempDir('gc-pipes-link-');
    symlinkSync(tempDir('gc-pipes-target-'), join(link, `gate-check-${uid}`));
    const open = tempDir('gc-pipes-open-');
    mkdirSync(join(open, `gate-check-${uid}`), { mode: 0o755 });
    chmodSync(join(open, `gate-check-${uid}`), 0o755);
    outputPipeSettings.bases = [link, open];
    const cwd = tempDir('gc-pipes-cwd-');
    const o = await run('touch ran', { cwd });
    expect(o.failure).toBe('spawn');
    expect(o.pid).toBeNull();
    expect(o.spawnError).toMatch(/^cannot make its output pipes: no private directory for the output pipes: .*: is a symbolic link .*; .*: has permissions 0755/);
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
    // And the next check, with a usable directory again, runs.
    outputPipeSettings.bases = null;
    expect((await run('echo ok')).output.toString()).toBe('ok\n');
  });
});

describe('mkfifo: found only as an executable file at a fixed path, its failures said', () => {
  it('a directory or a non-executable file named mkfifo is passed over', () => {
    const dir = tempDir('gc-mkfifo-');
    mkdirSync(join(dir, 'dir-mkfifo'));
    writeFileSync(join(dir, 'plain-mkfifo'), '#!/bin/sh\n', { mode: 0o644 });
    const real = findMkfifo(['/usr/bin/mkfifo', '/bin/mkfifo']);
    expect(real).not.toBeNull();
    expect(findMkfifo([join(dir, 'dir-mkfifo'), join(dir, 'plain-mkfifo'), real!])).toBe(real);
    expect(findMkfifo([join(dir, 'dir-mkfifo'), join(dir, 'plain-mkfifo')])).toBeNull();
  });

  it('a program that cannot run, that fails, or that is killed: an error naming it and why', () => {
    const dir = tempDir('gc-mkfifo-');
    expect(() => runMkfifo(join(dir, 'missing'), [join(dir, 'p')])).toThrow(new RegExp(`^${join(dir, 'missing')}: ENOENT$`));
    writeFileSync(join(dir, 'fails'), '#!/bin/sh\necho "mkfifo: cannot create fifo: No space left" >&2\nexit 1\n', { mode: 0o755 });
    expect(() => runMkfifo(join(dir, 'fails'), [join(dir, 'p')])).toThrow(/fails exited with status 1: mkfifo: cannot create fifo: No space left$/);
    writeFileSync(join(dir, 'dies'), '#!/bin/sh\nkill -KILL $$\n', { mode: 0o755 });
    expect(() => runMkfifo(join(dir, 'dies'), [join(dir, 'p')])).toThrow(/dies was killed by SIGKILL$/);
  });
});

describe('batches fit the run', () => {
  it('a planned run gets what it still needs, two pipes per check, from 2 to 128; an unplanned one the doubling size', () => {
    expect(batchSize(100, 0, 16)).toBe(128);
    expect(batchSize(36, 0, 32)).toBe(72);
    expect(batchSize(1, 0, 16)).toBe(2);
    expect(batchSize(3, 1, 16)).toBe(5);
    expect(batchSize(0, 0, 16)).toBe(16);
    expect(batchSize(0, 1, 128)).toBe(128);
    expect(batchSize(0, 1, 1)).toBe(1);
  });

  it('100 planned checks take their 200 pipes from two batches, and the plan ends with the run', () => {
    releaseOutputPipes();
    const batches = new Set<string>();
    planOutputPipes(100);
    for (let i = 0; i < 100; i++) {
      const pipes = takeOutputPipes()!;
      // The read end names the batch it came from: /…/gate-check-<uid>/<pid>-<hex>/<n> (deleted).
      batches.add(readlinkSync(`/proc/self/fd/${pipes.stdout.readFd}`).split('/').slice(-2)[0]!);
      closePipeEnds(pipes, 'writeFd');
      closePipeEnds(pipes, 'readFd');
    }
    expect(batches.size).toBe(2);
    expect(readdirSync(privateDir)).toEqual([]);
    planOutputPipes(0);
    releaseOutputPipes();
  });
});

describe('the first batch, made in the background while the run resolves its gates', () => {
  afterEach(() => releaseOutputPipes());

  it('no check starts while its directory exists: a check waits for it, and then no path names any pipe', async () => {
    releaseOutputPipes();
    prefetchOutputPipes(8);
    const pending = outputPipesPending();
    expect(pending).not.toBeNull();
    // Taking pipes while the batch is still being made is refused (a check must wait).
    expect(() => takeOutputPipes()).toThrow(/still being made/);
    const o = run('ls -A "$1" | wc -l; readlink /proc/$$/fd/1', { args: ['-c', 'ls -A "$1" | wc -l; readlink /proc/$$/fd/1', 'sh', privateDir] });
    await pending;
    expect(outputPipesPending()).toBeNull();
    const outcome = await o;
    expect(outcome.failure).toBeNull();
    // The check saw an empty private directory (the batch was opened and removed first) and a pipe whose name is gone.
    const [count, link] = outcome.output.toString().trim().split('\n');
    expect(count).toBe('0');
    expect(link).toMatch(/\(deleted\)$/);
    expect(readdirSync(privateDir)).toEqual([]);
  });

  it('the checks that follow use its pipes: no further batch until they are used up', async () => {
    releaseOutputPipes();
    prefetchOutputPipes(3);
    await outputPipesPending();
    planOutputPipes(3);
    const batches = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const o = await run('readlink /proc/$$/fd/1');
      batches.add(o.output.toString().trim().replace(/\/\d+ \(deleted\)$/, ''));
    }
    expect(batches.size).toBe(1);
  });

  it('an interrupt while the batch is being made settles the check as interrupted, unstarted', async () => {
    releaseOutputPipes();
    prefetchOutputPipes(4);
    const pending = outputPipesPending();
    expect(pending).not.toBeNull();
    const cwd = tempDir('gc-pipes-abort-');
    let made = false;
    void pending!.then(() => (made = true));
    const ac = new AbortController();
    const o = run('touch ran', { cwd, signal: ac.signal });
    ac.abort();
    const outcome = await o;
    // Settled at once, not after the batch (which ends only once mkfifo has exited).
    expect(made).toBe(false);
    expect(outcome.failure).toBe('interrupted');
    expect(outcome.pid).toBeNull();
    await pending;
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
  });

  it('a pipe that already holds data another process wrote is refused: the check does not start (round-12 M2)', async () => {
    releaseOutputPipes();
    prefetchOutputPipes(2);
    await outputPipesPending();
    // What a watcher of the directory does between mkfifo and gate-check's open: it opens the
    // FIFOs itself and writes the EXPECT text into them. Here: into every pooled read end.
    const pooled = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${privateDir}/`);
      } catch {
        return false;
      }
    });
    expect(pooled.length).toBeGreaterThanOrEqual(2);
    for (const fd of pooled) {
      const w = openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY);
      writeSync(w, 'ok\n');
      closeSync(w);
    }
    const cwd = tempDir('gc-pipes-preloaded-');
    const o = await run('touch ran; echo fail', { cwd });
    expect(o.failure).toBe('spawn');
    expect(o.spawnError).toMatch(/already held data that another process wrote/);
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
  });

  it('a run that starts no check (nothing approved) leaves no batch behind (round-12 L1)', () => {
    const s = sandbox();
    const pipesBase = tempDir('gc-pipes-cli-');
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: a\n  CHECK: echo ok\n  EXPECT: ok\n- [ ] B: b\n  CHECK: echo ok\n  EXPECT: ok\n' });
    for (let i = 0; i < 5; i++) {
      const r = runCli([], { cwd: s.repo, env: { ...s.env, XDG_RUNTIME_DIR: pipesBase } });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(readdirSync(join(pipesBase, `gate-check-${uid}`))).toEqual([]);
    }
  });

  it('only before the first check of the process: afterwards pipes are made between checks only', async () => {
    releaseOutputPipes();
    expect((await run('true')).exitCode).toBe(0);
    prefetchOutputPipes(8);
    expect(outputPipesPending()).toBeNull();
  });

  it('a background mkfifo that fails leaves nothing behind, and the first check makes its own pipes', async () => {
    releaseOutputPipes();
    const bad = tempDir('gc-pipes-nofifo-');
    outputPipeSettings.bases = [bad];
    // A base whose private directory is refused: the background batch is not even started.
    symlinkSync(tempDir('gc-pipes-target-'), join(bad, `gate-check-${uid}`));
    prefetchOutputPipes(4);
    expect(outputPipesPending()).toBeNull();
    outputPipeSettings.bases = null;
    expect((await run('echo ok')).output.toString()).toBe('ok\n');
  });
});
