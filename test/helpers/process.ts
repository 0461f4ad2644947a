// Process liveness for supervisor tests: a process is gone when /proc has no entry for it,
// or when it is a zombie (an orphan reparented to a PID 1 that may never reap it). And
// commands run on a real pseudo-terminal, for what only a terminal does (raw mode, Ctrl-C
// as a keystroke or as SIGINT from the line discipline, SIGHUP when the terminal closes).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function isDead(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

export async function waitDead(pid: number, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (isDead(pid)) return true;
    await sleep(25);
  }
  return isDead(pid);
}

/** PIDs of processes whose working directory lies in one of `dirs` (what a test left running there). */
export function processesIn(dirs: readonly string[]): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${name}/cwd`);
    } catch {
      continue;
    }
    if (dirs.some((d) => cwd === d || cwd.startsWith(d + '/'))) found.push(Number(name));
  }
  return found;
}

// ---- processes under a real pseudo-terminal ---------------------------------------------

/** Runs argv on a new pseudo-terminal (it is the session leader, the terminal its controlling one), relaying stdin and output; SIGUSR1 closes the terminal. */
const PYTHON_PTY_DRIVER = `
import fcntl, os, pty, select, signal, struct, sys, termios
class HangUp(Exception): pass
def on_usr1(*_): raise HangUp()
signal.signal(signal.SIGUSR1, on_usr1)
columns, argv = int(sys.argv[1]), sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 24, columns, 0, 0))
stdin_open = True
try:
    while True:
        ready, _, _ = select.select([fd] + ([0] if stdin_open else []), [], [])
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b''
            if not data:
                break
            os.write(1, data)
        if stdin_open and 0 in ready:
            data = os.read(0, 65536)
            if data:
                os.write(fd, data)
            else:
                stdin_open = False
except HangUp:
    os.close(fd)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
`;

export type PtyDriver = { kind: 'python3'; python: string } | { kind: 'script' };
let driver: PtyDriver | null | undefined;

/** The pseudo-terminal this machine offers: python3's pty module, else util-linux script, else null. */
export function ptyDriver(): PtyDriver | null {
  if (driver !== undefined) return driver;
  const py = spawnSync('python3', ['-c', 'import pty, sys; print(sys.executable)'], { encoding: 'utf8' });
  if (py.status === 0 && py.stdout.trim() !== '') driver = { kind: 'python3', python: py.stdout.trim() };
  else driver = spawnSync('script', ['--version']).status === 0 ? { kind: 'script' } : null;
  return driver;
}

export const NO_PTY_MESSAGE = 'needs a pseudo-terminal: neither python3 (pty module) nor util-linux script is installed';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface PtySession {
  /** The driver process (python3 or script); the command is its child. */
  driver: ChildProcess;
  /** Types into the terminal ("\u0003" is Ctrl-C). */
  type: (text: string) => void;
  output: () => string;
  /** Resolves once the terminal output matches. */
  waitForOutput: (pattern: RegExp, ms?: number) => Promise<void>;
  /** Closes the terminal (the kernel then sends SIGHUP to the command). With script, the driver is killed, and the exit code is lost. */
  hangUp: () => void;
  /** The command's exit code (null if the driver itself was killed), and everything the terminal showed. */
  done: Promise<{ code: number | null; output: string }>;
}

/** `columns`: the terminal's width (python3 driver only; util-linux script keeps its own). */
export function startInPty(argv: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv; columns?: number }): PtySession {
  const d = ptyDriver();
  if (!d) throw new Error(NO_PTY_MESSAGE);
  const child =
    d.kind === 'python3'
      ? spawn(d.python, ['-c', PYTHON_PTY_DRIVER, String(opts.columns ?? 100), ...argv], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'inherit'] })
      : spawn('script', ['-qefc', argv.map(shellQuote).join(' '), '/dev/null'], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stdin!.on('error', () => {});
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })));
  return {
    driver: child,
    type: (text) => void child.stdin!.write(text),
    output: () => output,
    waitForOutput: async (pattern, ms = 10_000) => {
      const end = Date.now() + ms;
      while (!pattern.test(output)) {
        if (Date.now() > end || child.exitCode !== null) throw new Error(`terminal never showed ${pattern}; it showed:\n${output}`);
        await sleep(20);
      }
    },
    hangUp: () => void child.kill(d.kind === 'python3' ? 'SIGUSR1' : 'SIGKILL'),
    done,
  };
}

/** Resolves once `predicate` holds; throws after `ms`. */
export async function waitUntil(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The pid a check wrote into `file` (a line of digits), once it is there. */
export async function pidFrom(file: string, ms = 10_000): Promise<number> {
  let pid = NaN;
  await waitUntil(() => {
    try {
      pid = Number(readFileSync(file, 'utf8').trim());
    } catch {
      return false;
    }
    return Number.isInteger(pid) && pid > 1;
  }, `a pid in ${file}`, ms);
  return pid;
}

/**
 * Runs `gate-check --approve …` (argv) as a person does: on a terminal of its own, answering
 * "a" at the first prompt (and "y" when asked to confirm the rest), so that no rule about
 * approving without a terminal (lib/approval/approver.ts) can depend on what else runs on the
 * machine. Falls back to no terminal when this machine has no pseudo-terminal driver.
 */
export async function approveOnTerminal(argv: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  if (!ptyDriver()) {
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: r.status, output: r.stdout + r.stderr };
  }
  const t = startInPty(argv, opts);
  const answer = async (prompt: RegExp, text: string) => {
    await t.waitForOutput(prompt, 60_000);
    t.type(text);
  };
  const ended = t.done.then(() => {});
  // A prompt that never comes ends with the command: waitForOutput then throws, which is fine here.
  await Promise.race([answer(/approve\? \[y\/N\/a\] /, 'a\r').catch(() => {}), ended]);
  await Promise.race([answer(/approve (?:these \d+|this one) as well\? \[y\/N\] /, 'y\r').catch(() => {}), ended]);
  return t.done;
}
