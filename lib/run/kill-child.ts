// Killing a child process that gate-check spawned without a group of its own (git, mkfifo).
// Never ChildProcess.kill(): after a spawn that failed with EMFILE or ENFILE, Node keeps the
// handle with pid 0 (child.pid is undefined), and its kill() is then kill(0, signal): the
// caller's own process group, gate-check and whatever shares its group (a pipeline, the hook
// runner or npm script that started it). Found by the test that starts a run under
// `ulimit -n 20` (test/run/kill-child.test.ts).

/** What killChild needs of a ChildProcess (this module starts nothing: SECURITY.md's list). */
export interface KillableChild {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
}

/** Signals the child by its own pid; nothing when it has no pid (never started) or has ended. */
export function killChild(child: KillableChild, signal: NodeJS.Signals = 'SIGKILL'): void {
  const pid = child.pid;
  if (pid === undefined || !Number.isSafeInteger(pid) || pid <= 1) return;
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
}
