// A check's stdout and stderr are pipes, as in a shell (`sh -c CHECK | cat`), not the
// socket pairs Node's child_process makes for 'pipe' stdio. It matters for Node checks:
// Node writes to a pipe or a socket without blocking and drops what it queued when the
// program calls process.exit(), and a socket takes only a few hundred small writes before
// it queues (each write is a buffer of its own), where a pipe holds 64 KiB of output. So
// `console.log` 5,000 times then `process.exit()` loses its tail on a socket and never on a
// pipe. (More than 64 KiB written faster than it is read can still be lost, exactly as in
// `| cat`: Node is asynchronous on every pipe; only a file or a terminal is synchronous.)
//
// Node has no pipe(2), so the pipes are FIFOs (lib/fsx/fifo.ts): made in batches by one
// mkfifo process (found at an absolute path, run with a fixed environment in a session of
// its own, so that Ctrl-C reaches gate-check only), opened and unlinked at once, and kept as
// read ends until a check takes two; its write ends are opened then, handed to the shell
// and closed here at once, so end of file means that every holder of the output is gone.
// Every check gets fresh pipes, never one an earlier check had: end of file only says that
// no writer is left, and a process the earlier check left behind can still hold a read end,
// which it can reopen for writing through its own /proc/self/fd (found by an attack on a
// version that reused pipes; test/adversarial/check-output.test.ts).
// A batch is as large as the run still needs (planOutputPipes: two pipes per check it will
// start), up to 128 pipes, so 100 checks spawn mkfifo twice (a spawn costs about as much as
// a check, a FIFO a few microseconds); without a plan, batches double from 16 to 128. No
// more are kept: an open pipe counts 64 KiB against the user's pipe buffer allowance
// (fs.pipe-user-pages-soft, 64 MiB by default) even unused, and past it every new pipe of
// the user is smaller, so 128 idle pipes hold at most an eighth of it.
//
// The first batch of a run is made in the background (prefetchOutputPipes) while the run
// still resolves its gates and reads their approvals, which saves the wait for one mkfifo
// (about 5 ms) on every run; the first check starts only once that batch is opened and its
// directory gone (outputPipesPending), so no path names a pipe while a check of this run runs.
// Later batches are made between checks, synchronously, for the same reason.
//
// Where FIFOs cannot be had this way (not Linux, no /proc/self/fd, no mkfifo), checks keep
// socket pairs; that is decided once per process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, statSync } from 'node:fs';
import { assertPipeEmpty, discardFifoBatch, fifoBaseCandidates, makeFifos, newFifoBatch, openFifoBatch, openPipeWriteEnd, privateFifoDir, removeStaleBatches, type FifoBatch } from '../fsx/fifo.js';
import { killChild } from './kill-child.js';
import { isExecutableFile } from './shell.js';

export interface OutputPipe {
  readFd: number;
  writeFd: number;
}

export interface OutputPipes {
  stdout: OutputPipe;
  stderr: OutputPipe;
}

/**
 * Test seams: socketsOnly makes every check use socket pairs, as where FIFOs are
 * unavailable; bases replaces the candidate directories (lib/fsx/fifo.ts). Nothing else
 * sets them.
 */
export const outputPipeSettings: { socketsOnly: boolean; bases: string[] | null } = { socketsOnly: false, bases: null };

const MKFIFO_PATHS = ['/usr/bin/mkfifo', '/bin/mkfifo'];
const FIRST_BATCH = 16;
const MAX_BATCH = 128;

let mkfifo: string | null | undefined;
/** The base whose private directory was usable last time. */
let base: string | null = null;
let nextBatch = FIRST_BATCH;
/** Read ends of fresh pipes that no check has taken yet. */
const pool: number[] = [];
/** Checks the current run will still start (planOutputPipes), 0 when unknown. */
let planned = 0;

/** Says how many checks the run is about to start, so that the batches fit it. */
export function planOutputPipes(checks: number): void {
  planned = Number.isSafeInteger(checks) && checks > 0 ? checks : 0;
}

/**
 * How many FIFOs the next batch makes, with `pooled` read ends left (fewer than two): what
 * `planned` checks still need, else `unplanned` (the doubling size); 2 to MAX_BATCH either
 * way (exported for tests).
 */
export function batchSize(planned: number, pooled: number, unplanned: number): number {
  const wanted = planned > 0 ? 2 * planned - pooled : unplanned;
  return Math.min(MAX_BATCH, Math.max(2 - pooled, wanted));
}


/** The first of `candidates` that is an executable regular file, where FIFOs can be used at all (exported for tests). */
export function findMkfifo(candidates: readonly string[] = MKFIFO_PATHS): string | null {
  // Mutation note: this guard and the next are equivalent on Linux, where the tests run (elsewhere checks keep socket pairs).
  if (process.platform !== 'linux') return null;
  try {
    if (!statSync('/proc/self/fd').isDirectory()) return null;
  } catch {
    return null;
  }
  return candidates.find(isExecutableFile) ?? null;
}

/**
 * The private directory for the FIFOs, checked again at every batch: the one used last
 * time, else the first candidate that is (or can be made) private, whose stale batches are
 * then removed.
 */
function fifoDir(): string {
  if (base !== null) {
    try {
      return privateFifoDir(base);
    } catch {
      base = null;
    }
  }
  const refusals: string[] = [];
  for (const candidate of outputPipeSettings.bases ?? fifoBaseCandidates()) {
    try {
      const dir = privateFifoDir(candidate);
      removeStaleBatches(dir);
      base = candidate;
      return dir;
    } catch (e) {
      refusals.push((e as Error).message);
    }
  }
  throw new Error(`no private directory for the output pipes: ${refusals.join('; ')}`);
}

const MKFIFO_ENV = { PATH: '/usr/bin:/bin', LC_ALL: 'C' };
const MKFIFO_TIMEOUT_MS = 10_000;
const mkfifoArgs = (paths: string[]): string[] => ['-m', '600', '--', ...paths];

/** Makes the FIFOs at `paths` with `program` (mkfifo), or throws why it could not (exported for tests). */
export function runMkfifo(program: string, paths: string[]): void {
  const r = spawnSync(program, mkfifoArgs(paths), {
    cwd: '/',
    env: MKFIFO_ENV,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: MKFIFO_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024,
    // Its own session: a Ctrl-C at the terminal interrupts gate-check, never this step.
    detached: true,
    windowsHide: true,
  } as Parameters<typeof spawnSync>[2]);
  if (r.error) throw new Error(`${program}: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message}`);
  if (r.status !== 0) {
    const why = String(r.stderr ?? '').split('\n')[0]!.slice(0, 200);
    throw new Error(`${program} ${r.signal ? `was killed by ${r.signal}` : `exited with status ${r.status}`}${why ? `: ${why}` : ''}`);
  }
}

function refill(): void {
  const count = batchSize(planned, pool.length, nextBatch);
  const fds = makeFifos(fifoDir(), count, 2 - pool.length, (paths) => runMkfifo(mkfifo!, paths));
  nextBatch = Math.min(MAX_BATCH, nextBatch * 2);
  for (const fd of fds) pool.push(fd);
}

function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}

/** Whether a check of this process has taken pipes: no batch is made in the background after that. */
let started = false;
/** The background batch while mkfifo makes it (prefetchOutputPipes). */
let early: { child: ChildProcess; batch: FifoBatch; done: Promise<void> } | null = null;

/**
 * Starts making the run's first batch in the background, for `checks` checks, if no check
 * of this process has started yet. Best effort: whatever fails here, the first check makes
 * its pipes itself and says why it cannot.
 */
export function prefetchOutputPipes(checks: number): void {
  if (started || early !== null || pool.length > 0 || !(Number.isSafeInteger(checks) && checks > 0)) return;
  if (mkfifo === undefined) mkfifo = findMkfifo();
  if (mkfifo === null || outputPipeSettings.socketsOnly) return;
  let batch: FifoBatch;
  try {
    batch = newFifoBatch(fifoDir(), batchSize(checks, 0, nextBatch));
  } catch {
    return;
  }
  let child: ChildProcess;
  try {
    // Its own session, as runMkfifo: a Ctrl-C at the terminal interrupts gate-check only.
    child = spawn(mkfifo, mkfifoArgs(batch.paths), { cwd: '/', env: MKFIFO_ENV, stdio: 'ignore', detached: true, windowsHide: true });
  } catch {
    discardFifoBatch(batch);
    return;
  }
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => killChild(child), MKFIFO_TIMEOUT_MS);
    let settled = false;
    const settle = (made: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      early = null;
      try {
        if (made) pool.push(...openFifoBatch(batch, 2));
        else discardFifoBatch(batch);
      } catch {
        /* the first check makes its pipes itself, and says why it cannot */
      }
      resolve();
    };
    child.once('error', () => settle(false));
    child.once('exit', (code) => settle(code === 0));
  });
  early = { child, batch, done };
  watchExit();
}

let exitWatched = false;
/** A background mkfifo still running when the process exits is killed (it is gate-check's). */
function watchExit(): void {
  if (exitWatched) return;
  exitWatched = true;
  // Its batch directory goes too (a run that starts no check often exits before mkfifo ends).
  process.on('exit', () => {
    if (early === null) return;
    killChild(early.child);
    discardFifoBatch(early.batch);
  });
}

/** While a batch is made in the background, a promise of its end (await it before starting a check); else null. */
export function outputPipesPending(): Promise<void> | null {
  return early?.done ?? null;
}

/**
 * Two fresh pipes for one check (stdout, stderr), or null where checks use socket pairs.
 * Throws with the reason when the pipes cannot be made (the check then does not start),
 * and while a batch is still being made in the background (await outputPipesPending() first).
 */
export function takeOutputPipes(): OutputPipes | null {
  if (early !== null) throw new Error('the output pipes are still being made (a check must await outputPipesPending)');
  started = true;
  if (mkfifo === undefined) mkfifo = findMkfifo();
  if (mkfifo === null || outputPipeSettings.socketsOnly) return null;
  if (pool.length < 2) refill();
  if (planned > 0) planned--;
  const outRead = pool.pop()!;
  const errRead = pool.pop()!;
  let outWrite: number | undefined;
  try {
    assertPipeEmpty(outRead);
    assertPipeEmpty(errRead);
    outWrite = openPipeWriteEnd(outRead);
    const errWrite = openPipeWriteEnd(errRead);
    return { stdout: { readFd: outRead, writeFd: outWrite }, stderr: { readFd: errRead, writeFd: errWrite } };
  } catch (e) {
    for (const fd of [outRead, errRead, outWrite]) closeQuietly(fd);
    throw e;
  }
}

/** Closes the given ends of both pipes (each at most once), ignoring what is already closed. */
export function closePipeEnds(pipes: OutputPipes, which: 'writeFd' | 'readFd'): void {
  closeQuietly(pipes.stdout[which]);
  closeQuietly(pipes.stderr[which]);
}

/** Closes the unused pipes and forgets the directory: the next check starts afresh (for tests). */
export function releaseOutputPipes(): void {
  for (const fd of pool.splice(0)) closeQuietly(fd);
  started = false;
  base = null;
  nextBatch = FIRST_BATCH;
  planned = 0;
}
