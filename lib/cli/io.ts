// Where a command reads and writes. Injected so that in-process callers (tests, the hook)
// can capture it.

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdin and stdout are terminals (interactive approval). */
  interactive: boolean;
  /** True when stderr is a terminal (the live progress line). */
  stderrIsTTY: boolean;
  /** Asks one question on the terminal; null at end of input. */
  ask: (question: string) => Promise<string | null>;
}

/** One readline interface for the whole command, so that typed-ahead answers are not lost between questions. */
function terminalAsker(): (question: string) => Promise<string | null> {
  let lines: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let closed = false;
  let started: Promise<void> | null = null;
  const start = async () => {
    const { createInterface } = await import('node:readline');
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
    rl.on('line', (line) => {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(line);
      } else {
        lines.push(line);
      }
    });
    rl.on('close', () => {
      closed = true;
      if (waiting) waiting(null);
    });
  };
  return async (question) => {
    started ??= start();
    await started;
    process.stdout.write(question);
    if (lines.length > 0) {
      const [first, ...rest] = lines;
      lines = rest;
      return first!;
    }
    if (closed) return null;
    return new Promise((resolve) => {
      waiting = resolve;
    });
  };
}

export function processIo(): Io {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    ask: terminalAsker(),
  };
}
