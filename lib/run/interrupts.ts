// Interrupts: every signal that would end gate-check by default, and a closed stdout, become
// one orderly stop. Signals are delivered to the process, so this state is process-wide.
//
// The first interrupt aborts interruptSignal(): every wait observes it (lock waits, the
// approval prompt, git snapshots), no check is started after it, and every running check's
// process group gets SIGTERM, then SIGKILL after the grace period (lib/run/supervisor.ts).
// A second interrupt kills every group at once. The command then writes only finished
// results and exits 130, whichever signal it was: 130 is the one documented "interrupted,
// no verdict" code, and a code of 128+n from a shell would instead mean gate-check died of
// the signal without cleaning up.
//
// Not caught: SIGKILL and SIGSTOP (cannot be), SIGUSR1 (Node's inspector; it does not end the
// process), SIGPIPE and SIGXFSZ (Node ignores them: a write fails with EPIPE or EFBIG
// instead), SIGBUS, SIGFPE, SIGSEGV and SIGILL (Node: not safe to run JavaScript after a real
// one), and the real-time signals (Node cannot name them).
import { InterruptedError } from '../errors.js';

export const INTERRUPT_SIGNALS: readonly NodeJS.Signals[] = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGQUIT',
  'SIGUSR2',
  'SIGALRM',
  'SIGVTALRM',
  'SIGPROF',
  'SIGXCPU',
  'SIGPOLL',
  'SIGPWR',
  'SIGSYS',
  'SIGSTKFLT',
  'SIGTRAP',
  'SIGABRT',
];

type Listener = (reason: string, count: number) => void;

// Made when first asked for: AbortController is a lazily loaded global (0.4 ms of a --status,
// which never waits on it).
let controller: AbortController | null = null;
const abortController = (): AbortController => (controller ??= new AbortController());
const listeners = new Set<Listener>();
let reason: string | null = null;
let count = 0;
let installed = false;

/** Aborted at the first interrupt; its reason is an InterruptedError. */
export function interruptSignal(): AbortSignal {
  return abortController().signal;
}

/** What interrupted the process (a signal name, "stdout closed"), or null. */
export function interruptedBy(): string | null {
  return reason;
}

export function throwIfInterrupted(): void {
  if (reason !== null) throw interruptedError();
}

export function interruptedError(what?: string): InterruptedError {
  return new InterruptedError(`interrupted (${reason ?? 'unknown'})${what ? `: ${what}` : ''}`);
}

/** Called at every interrupt, first and repeated (count is 1 for the first). */
export function onInterrupt(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function interrupt(why: string): void {
  count++;
  if (reason === null) {
    reason = why;
    abortController().abort(interruptedError());
  }
  for (const l of [...listeners]) l(reason, count);
}

/** Turns every catchable terminating signal into interrupt(); once per process. */
export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  // V8's sampling profiler (node --cpu-prof) owns SIGPROF: caught, every sample would be an interrupt.
  const profiling = process.execArgv.some((a) => a === '--cpu-prof' || a.startsWith('--cpu-prof='));
  for (const s of INTERRUPT_SIGNALS) {
    if (s === 'SIGPROF' && profiling) continue;
    try {
      process.on(s, () => interrupt(s));
    } catch {
      // A signal this platform does not have.
    }
  }
}

/** A promise that settles after `ms`, or rejects with InterruptedError at an interrupt. */
export function interruptibleSleep(ms: number, signal: AbortSignal = abortController().signal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): InterruptedError {
  return signal.reason instanceof InterruptedError ? signal.reason : new InterruptedError('interrupted');
}
