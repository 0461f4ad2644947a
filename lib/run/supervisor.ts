// The supervisor: one CHECK, spawned directly as the shell in its own process group
// (detached: setsid), stdin closed, bounded in time and output. No Node process is started
// per check.
//
// Signals: the group is signalled while its leader (the shell) has not been reaped. On
// timeout or overflow it gets SIGTERM, then SIGKILL after a grace period. When the leader
// exits, what remains of its group is killed at once, in the same event-loop turn as the
// reap: the group id cannot be reused while any member is alive, and a freed id would have
// to be reused within that turn. The run then settles after at most a bounded drain, so a
// descendant that escaped the group (setsid) and holds the pipe cannot hang it.
//
// Output: the digested bytes are stdout followed by stderr. stdout is hashed as it streams;
// stderr is kept (within the cap) and hashed after stdout ends. At most outputCap bytes in
// total are kept; one byte more fails the check and kills the group.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';

export const DEFAULT_OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_GRACE_MS = 1000;
export const DEFAULT_DRAIN_MS = 1000;

export interface CheckSpec {
  shell: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  outputCap: number;
  graceMs?: number;
  drainMs?: number;
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
}

/** Running checks, so that an interrupt can kill every process group. */
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

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  // Usually the group is already gone (ESRCH): building that error's stack trace on every
  // check would cost more than the kill itself.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left to signal.
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function superviseCheck(spec: CheckSpec, running?: RunningChecks): Promise<CheckOutcome> {
  const graceMs = spec.graceMs ?? DEFAULT_GRACE_MS;
  const drainMs = spec.drainMs ?? DEFAULT_DRAIN_MS;
  const started = performance.now();

  return new Promise((settleOutcome) => {
    const hash = createHash('sha256');
    const stdoutChunks: Buffer[] = [];
    const stderrChunks: Buffer[] = [];
    let total = 0;
    let failure: CheckFailure | null = null;
    let overflowed = false;
    let spawnError: string | null = null;
    let leaderReaped = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let openStreams = 2;
    let settled = false;
    let timeoutTimer: NodeJS.Timeout | null = null;
    let graceTimer: NodeJS.Timeout | null = null;
    let drainTimer: NodeJS.Timeout | null = null;
    let unregister: () => void = () => {};
    let child: ChildProcess;

    const settle = () => {
      if (settled) return;
      settled = true;
      for (const t of [timeoutTimer, graceTimer, drainTimer]) if (t) clearTimeout(t);
      unregister();
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
        durationMs: Math.round(performance.now() - started),
        pid: child?.pid ?? null,
        overflowed,
      });
    };

    try {
      child = spawn(spec.shell, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (e) {
      failure = 'spawn';
      spawnError = (e as Error).message;
      settle();
      return;
    }
    const pid = child.pid;

    const signalIfLeaderAlive = (signal: NodeJS.Signals) => {
      if (pid !== undefined && !leaderReaped) signalGroup(pid, signal);
    };
    const terminate = (why: CheckFailure) => {
      failure ??= why;
      signalIfLeaderAlive('SIGTERM');
      graceTimer ??= setTimeout(() => signalIfLeaderAlive('SIGKILL'), graceMs);
    };
    const maybeSettle = () => {
      if (leaderReaped && openStreams === 0) settle();
    };
    const overflow = () => {
      overflowed = true;
      stdoutChunks.length = 0;
      stderrChunks.length = 0;
      // Closing our ends makes further writes fail (EPIPE/SIGPIPE) while the group is killed.
      child.stdout?.destroy();
      child.stderr?.destroy();
      terminate('overflow');
    };

    child.stdout!.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (overflowed) return;
      if (total > spec.outputCap) return overflow();
      hash.update(chunk);
      stdoutChunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (overflowed) return;
      if (total > spec.outputCap) return overflow();
      stderrChunks.push(chunk);
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('error', () => {});
      stream.on('close', () => {
        openStreams--;
        maybeSettle();
      });
    }

    child.on('error', (e) => {
      if (pid === undefined) {
        failure = 'spawn';
        spawnError = e.message;
        leaderReaped = true;
        openStreams = 0;
        settle();
      }
    });

    child.on('exit', (code, signal) => {
      leaderReaped = true;
      exitCode = code;
      exitSignal = signal;
      if (timeoutTimer) clearTimeout(timeoutTimer);
      if (graceTimer) clearTimeout(graceTimer);
      // Whatever is left of the group (background jobs of the check) goes now.
      if (pid !== undefined) signalGroup(pid, 'SIGKILL');
      if (openStreams > 0) {
        drainTimer = setTimeout(() => {
          if (openStreams > 0) {
            failure ??= 'escaped';
            child.stdout?.destroy();
            child.stderr?.destroy();
            openStreams = 0;
          }
          settle();
        }, drainMs);
      }
      maybeSettle();
    });

    if (pid !== undefined) {
      timeoutTimer = setTimeout(() => terminate('timeout'), spec.timeoutMs);
      unregister = running?.add((why) => terminate(why)) ?? (() => {});
    }
  });
}
