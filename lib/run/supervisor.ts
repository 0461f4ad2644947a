// The supervisor: one CHECK, spawned directly as the shell in its own process group
// (detached: setsid), stdin closed, bounded in time and output. No Node process is started
// per check.
//
// Signals, and why a group id is never signalled once it may name another group:
// - While the leader (the shell) has not been reaped, its pid is the group's id and cannot
//   name anything else: the group is signalled freely.
// - After the reap, the id stays the group's while any member lives (Linux does not reuse a
//   pid that is still some process's group or session id); once the last member is gone,
//   kill(-id) fails with ESRCH until the id is reused by a new group leader.
// - A check that ends by itself: what is left of its group (background jobs) is SIGKILLed in
//   the same event-loop turn as the reap, and never signalled again.
// - A termination (timeout, overflow, interrupt): the group gets SIGTERM, and the grace
//   period counts from it, also for members that outlive the leader (dash dies of SIGTERM at
//   once, while the command it runs may still be cleaning up). After the reap, the group is
//   probed (kill 0) every PROBE_MS; the first probe that finds no member ends all
//   signalling, and the SIGKILL at the end of the grace is sent only right after a probe that
//   found members. A wrong target would need the last member to exit and the id to be cycled
//   through the whole pid space and taken by a new group leader within one probe interval.
// - On every way out of the process (an interrupt repeated, an exception, process exit),
//   every group not yet known to be gone is SIGKILLed first, under the same rules.
// The run settles once the leader is reaped, the group is gone or killed, and the output is
// closed, or a bounded drain after that: a descendant that escaped the group (setsid) and
// holds the pipe cannot hang it.
//
// Output: stdout and stderr are two pipes (lib/run/output-pipes.ts), as in a shell, whose
// write ends only the check holds: end of file on both means every holder is gone. The
// digested bytes are stdout followed by stderr. stdout is hashed as it streams; stderr is
// kept (within the cap) and hashed after stdout ends. At most outputCap bytes in total are
// kept; one byte more fails the check, closes both read ends (a writer then gets EPIPE) and
// kills the group.
import { spawn, type ChildProcess } from 'node:child_process';
import { nativeCrypto } from '../oracle/native-crypto.js';
import { setMaxListeners } from 'node:events';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { noteCheckStarted } from './checks-started.js';
import { interruptSignal, onInterrupt } from './interrupts.js';
import { closePipeEnds, outputPipesPending, takeOutputPipes, type OutputPipes } from './output-pipes.js';

export const DEFAULT_OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_GRACE_MS = 1000;
export const DEFAULT_DRAIN_MS = 1000;
/** How often a terminated group that outlived its leader is probed. */
const PROBE_MS = 20;

export interface CheckSpec {
  shell: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  outputCap: number;
  graceMs?: number;
  drainMs?: number;
  /** Aborting terminates the check as interrupted; already aborted, nothing is started. Default: the process's interrupt signal. */
  signal?: AbortSignal;
}

export type CheckFailure = 'timeout' | 'overflow' | 'spawn' | 'interrupted' | 'escaped';

export interface CheckOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  failure: CheckFailure | null;
  /** Spawn error message, when failure is 'spawn'. */
  spawnError: string | null;
  /** SHA-256 of stdout bytes followed by stderr bytes. */
  sha256: string;
  bytes: number;
  /** The retained output (stdout then stderr), at most outputCap bytes. */
  output: Buffer;
  durationMs: number;
  pid: number | null;
  /** True once the output passed the cap (whatever failed first): sha256 then covers only a prefix. */
  overflowed: boolean;
  /** True when the output was still held open after the group was gone: a process that left the group (setsid) holds it. */
  outputHeld: boolean;
}

/** Running checks, so that a caller can terminate every one of them. */
export class RunningChecks {
  private readonly aborters = new Set<(reason: 'interrupted') => void>();
  add(abort: (reason: 'interrupted') => void): () => void {
    this.aborters.add(abort);
    return () => this.aborters.delete(abort);
  }
  get size(): number {
    return this.aborters.size;
  }
  abortAll(): void {
    for (const abort of [...this.aborters]) abort('interrupted');
  }
}

/** Every check of this process whose group may still have members: killed on every way out. */
const live = new Set<{ killNow: () => void }>();
let watching = false;

function watchProcess(): void {
  if (watching) return;
  watching = true;
  // Every running check listens to the interrupt signal: --jobs 64 is 64 listeners, not a leak.
  setMaxListeners(0, interruptSignal());
  process.on('exit', killEveryGroupNow);
  onInterrupt((_, count) => {
    if (count > 1) killEveryGroupNow();
  });
}

/** SIGKILLs every group of this process's checks that is not known to be gone. Synchronous. */
export function killEveryGroupNow(): void {
  for (const check of [...live]) check.killNow();
}

/** How many checks of this process still have a group that may have members. */
export function liveCheckCount(): number {
  return live.size;
}

function withoutStackTraces<T>(f: () => T): T {
  // Usually the group is already gone (ESRCH): building that error's stack trace on every
  // check would cost more than the kill itself.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  withoutStackTraces(() => {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: nothing left to signal.
    }
  });
}

/** True while the group has a member this process may signal (ESRCH: none; EPERM: not ours). */
function groupHasMembers(pid: number): boolean {
  return withoutStackTraces(() => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * A timer's verdict, given only after the events already waiting have been handled. Node runs
 * due timers before it polls for I/O, so after a long synchronous step elsewhere (another
 * job's DEPENDS hashed, a batch of results written) a timer that came due meanwhile would
 * fire before an exit or an end of file that happened in time: a check that ended at once
 * was failed as escaped (seen in 1 of 5,000 checks of a --jobs 2 run). One turn of the loop
 * (setImmediate runs after the poll) lets them in first; a check still open then is judged.
 */
function afterPendingEvents(judge: () => void): () => void {
  return () => {
    setImmediate(judge);
  };
}

/** A pipe's read end as a stream, read as the event loop sees it readable (never by a blocked thread). */
function readEnd(fd: number): Readable {
  return new Socket({ fd, readable: true, writable: false });
}

/**
 * Runs one check (below), once the run's first output pipes are made (lib/run/output-pipes.ts).
 * An interrupt ends that wait at once: the check is then settled as interrupted, unstarted.
 */
export function superviseCheck(spec: CheckSpec, running?: RunningChecks): Promise<CheckOutcome> {
  const pending = outputPipesPending();
  if (pending === null) return superviseNow(spec, running);
  // Every waiting check listens to the interrupt signal (watchProcess lifts the listener limit).
  watchProcess();
  const abortSignal = spec.signal ?? interruptSignal();
  return new Promise((resolve) => {
    let gone = false;
    const go = () => {
      if (gone) return;
      gone = true;
      abortSignal.removeEventListener('abort', go);
      resolve(superviseNow(spec, running));
    };
    abortSignal.addEventListener('abort', go, { once: true });
    void pending.then(go);
  });
}

function superviseNow(spec: CheckSpec, running?: RunningChecks): Promise<CheckOutcome> {
  const graceMs = spec.graceMs ?? DEFAULT_GRACE_MS;
  const drainMs = spec.drainMs ?? DEFAULT_DRAIN_MS;
  const abortSignal = spec.signal ?? interruptSignal();
  // hrtime, not performance.now(): the `performance` global loads node:perf_hooks on first use.
  const started = process.hrtime.bigint();

  return new Promise((settleOutcome) => {
    const hash = nativeCrypto().createHash('sha256');
    const stdoutChunks: Buffer[] = [];
    const stderrChunks: Buffer[] = [];
    let total = 0;
    let failure: CheckFailure | null = null;
    let overflowed = false;
    let outputHeld = false;
    let spawnError: string | null = null;
    let leaderReaped = false;
    // SIGTERM was sent: the group has its grace period, also after the leader is reaped.
    let terminating = false;
    // SIGKILLed, or seen without members: never signalled again.
    let groupDone = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let openStreams = 2;
    let settled = false;
    let timeoutTimer: NodeJS.Timeout | null = null;
    let graceTimer: NodeJS.Timeout | null = null;
    let probeTimer: NodeJS.Timeout | null = null;
    let drainTimer: NodeJS.Timeout | null = null;
    let unregister: () => void = () => {};
    let child: ChildProcess | undefined;
    const tracked = { killNow: () => {} };

    const settle = () => {
      if (settled) return;
      settled = true;
      for (const t of [timeoutTimer, graceTimer, drainTimer]) if (t) clearTimeout(t);
      if (probeTimer) clearInterval(probeTimer);
      unregister();
      abortSignal.removeEventListener('abort', onAbort);
      live.delete(tracked);
      for (const c of stderrChunks) hash.update(c);
      const output = Buffer.concat([...stdoutChunks, ...stderrChunks]);
      settleOutcome({
        exitCode,
        signal: exitSignal,
        failure,
        spawnError,
        sha256: hash.digest('hex'),
        bytes: total,
        output,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
        pid: child?.pid ?? null,
        overflowed,
        outputHeld,
      });
    };
    const onAbort = () => terminate('interrupted');

    // Nothing starts after an interrupt (a signal during --assert-clean's snapshot, during
    // the approval prompt, between two checks).
    if (abortSignal.aborted) {
      failure = 'interrupted';
      return settle();
    }
    let pipes: OutputPipes | null;
    try {
      pipes = takeOutputPipes();
    } catch (e) {
      failure = 'spawn';
      spawnError = `cannot make its output pipes: ${(e as Error).message}`;
      return settle();
    }
    try {
      noteCheckStarted();
      child = spawn(spec.shell, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: pipes ? ['ignore', pipes.stdout.writeFd, pipes.stderr.writeFd] : ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (e) {
      if (pipes) closePipeEnds(pipes, 'readFd');
      failure = 'spawn';
      spawnError = (e as Error).message;
      return settle();
    } finally {
      // The shell has its copies (or there is no shell): the output ends when every holder is gone.
      if (pipes) closePipeEnds(pipes, 'writeFd');
    }
    const pid = child.pid;
    if (pid === undefined) {
      // The spawn failed (ENOENT, EACCES, EMFILE, ...): no process, no streams; 'error' follows.
      if (pipes) closePipeEnds(pipes, 'readFd');
      child.once('error', (e) => {
        failure = 'spawn';
        spawnError = e.message;
        settle();
      });
      return;
    }
    // Tracked from the moment it exists: whatever happens next, every way out kills it.
    tracked.killNow = () => signalGroup(pid, 'SIGKILL');
    live.add(tracked);
    watchProcess();
    const stdout: Readable = pipes ? readEnd(pipes.stdout.readFd) : child.stdout!;
    const stderr: Readable = pipes ? readEnd(pipes.stderr.readFd) : child.stderr!;

    const stopWaitingForOutput = () => {
      if (openStreams > 0) {
        outputHeld = true;
        stdout.destroy();
        stderr.destroy();
        openStreams = 0;
      }
      settle();
    };
    const maybeSettle = () => {
      if (leaderReaped && groupDone && openStreams === 0) settle();
    };
    // The leader is reaped and the group gone or killed: wait a bounded time for the output.
    const afterGroup = () => {
      if (graceTimer) clearTimeout(graceTimer);
      if (probeTimer) clearInterval(probeTimer);
      graceTimer = probeTimer = null;
      live.delete(tracked);
      if (openStreams > 0 && !drainTimer) {
        drainTimer = setTimeout(
          afterPendingEvents(() => {
            // Both ends of file seen: the streams close at the end of this turn, and settle then.
            if (settled || openStreams === 0 || (stdout.readableEnded && stderr.readableEnded)) return;
            failure ??= 'escaped';
            stopWaitingForOutput();
          }),
          drainMs,
        );
      }
      maybeSettle();
    };
    const killGroup = () => {
      if (groupDone) return;
      groupDone = true;
      signalGroup(pid, 'SIGKILL');
    };
    // After the reap, during a termination: is anything of the group left?
    const probe = () => {
      if (groupDone) return;
      if (!groupHasMembers(pid)) {
        groupDone = true;
        afterGroup();
      }
    };
    // The SIGKILL at the end of a termination's grace; after the reap, only right after a probe that found members.
    const killRest = () => {
      if (leaderReaped) probe();
      if (groupDone) return;
      killGroup();
      if (leaderReaped) afterGroup();
    };
    const graceOver = () => {
      graceTimer = null;
      killRest();
    };
    const terminate = (why: CheckFailure) => {
      failure ??= why;
      if (!leaderReaped) {
        if (terminating) return;
        terminating = true;
        signalGroup(pid, 'SIGTERM');
        graceTimer = setTimeout(graceOver, graceMs);
      } else if (groupDone && why === 'interrupted') {
        // Only the output is left, held by a process outside the group: stop waiting.
        stopWaitingForOutput();
      }
    };
    tracked.killNow = () => {
      if (groupDone) return;
      failure ??= 'interrupted';
      killRest();
    };
    const overflow = () => {
      overflowed = true;
      stdoutChunks.length = 0;
      stderrChunks.length = 0;
      // Closing our ends makes further writes fail (EPIPE/SIGPIPE) while the group is killed.
      stdout.destroy();
      stderr.destroy();
      terminate('overflow');
    };

    stdout.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (overflowed) return;
      if (total > spec.outputCap) return overflow();
      hash.update(chunk);
      stdoutChunks.push(chunk);
    });
    stderr.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (overflowed) return;
      if (total > spec.outputCap) return overflow();
      stderrChunks.push(chunk);
    });
    for (const stream of [stdout, stderr]) {
      stream.on('error', () => {});
      stream.on('close', () => {
        openStreams--;
        maybeSettle();
      });
    }
    child.on('error', () => {
      // Only a failed kill() or spawn reports here; a spawn with a pid always exits.
    });

    child.on('exit', (code, signal) => {
      leaderReaped = true;
      exitCode = code;
      exitSignal = signal;
      if (timeoutTimer) clearTimeout(timeoutTimer);
      if (!terminating) {
        // Whatever is left of the group (background jobs of the check) goes now.
        killGroup();
      } else if (!groupDone) {
        // A termination: the rest of the group keeps the grace that began with SIGTERM.
        probe();
        if (!groupDone) probeTimer = setInterval(probe, PROBE_MS);
        return;
      }
      afterGroup();
    });

    timeoutTimer = setTimeout(
      afterPendingEvents(() => {
        if (!settled && !leaderReaped) terminate('timeout');
      }),
      spec.timeoutMs,
    );
    unregister = running?.add((why) => terminate(why)) ?? (() => {});
    abortSignal.addEventListener('abort', onAbort, { once: true });
  });
}
