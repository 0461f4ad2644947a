// Where a command reads and writes. Injected so that in-process callers (tests, the hook)
// can capture it.

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdin and stdout are terminals (interactive approval, progress line). */
  interactive: boolean;
  /** Asks one question on the terminal; null at end of input. */
  ask: (question: string) => Promise<string | null>;
}

async function askOnTerminal(question: string): Promise<string | null> {
  const { createInterface } = await import('node:readline');
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let answered = false;
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    rl.on('close', () => {
      if (!answered) resolve(null);
    });
  });
}

export function processIo(): Io {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    ask: askOnTerminal,
  };
}
