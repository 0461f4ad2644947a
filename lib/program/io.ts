// Where a command reads and writes. Injected so that in-process callers (tests, the hook)
// can capture it.
import { closeSync, fstatSync, writeSync } from 'node:fs';
import { builtinModule } from '../builtin-module.js';
import { interrupt, interruptedBy, interruptSignal } from '../run/interrupts.js';
import { colourWanted } from '../text/colour.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * True when stdin and stdout are terminals (interactive approval). A function: asking
   * creates process.stdin (a file stream on /dev/null: 2 ms of stream modules), which a
   * --status or a Stop hook never needs.
   */
  interactive: () => boolean;
  /** True when stderr is a terminal (the live progress line). */
  stderrIsTTY: boolean;
  /**
   * Whether the verdict words of a run or status are coloured on stdout (text/colour.ts
   * decides). A function: asking creates process.stdout, which a hook that allows a stop
   * silently never needs (2 ms on Node 22).
   */
  colour?: () => boolean;
  /**
   * The terminal's width: stdout's, else stderr's (piped into a pager), else null (read at
   * 80 columns). The approval screen cuts every row at this width itself, so that the
   * terminal never wraps one into something that reads as another row.
   */
  columns?: () => number | null;
  /** True when stdin is a terminal (a person may be typing) whatever stdout is. */
  stdinIsTTY?: () => boolean;
  /** Asks one question on the terminal; null at end of input; rejects with InterruptedError at an interrupt. */
  ask: (question: string) => Promise<string | null>;
}

/** The process's own streams, and when their output has left the process. */
export interface ProcessIo extends Io {
  /** Settles once everything written to stdout and stderr was handed to the OS (or the stream is closed). */
  flushed: () => Promise<void>;
}

/**
 * Questions on the terminal. The readline interface lives only while a question waits, so
 * the terminal is back in its normal mode between questions and during the run (a raw-mode
 * terminal turns Ctrl-C into a keystroke that nobody reads). Answers typed ahead are kept:
 * whole lines read with an answer are queued, and input typed while no question waits stays
 * in the terminal's buffer for the next one.
 */
function terminalAsker(): (question: string) => Promise<string | null> {
  const typedAhead: string[] = [];
  let ended = false;
  return async (question) => {
    const signal = interruptSignal();
    if (signal.aborted) throw signal.reason;
    process.stdout.write(question);
    if (typedAhead.length > 0) return typedAhead.shift()!;
    if (ended) return null;
    const { createInterface } = builtin<typeof import('node:readline')>('node:readline');
    return new Promise<string | null>((resolve, reject) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
      let answered = false;
      let closing = false;
      // Closed after the rest of the current input chunk was read (it may hold answers typed ahead).
      const finish = (settle: () => void) => {
        answered = true;
        signal.removeEventListener('abort', onAbort);
        setImmediate(() => {
          closing = true;
          rl.close();
          settle();
        });
      };
      const onAbort = () => {
        if (answered) return;
        if (process.stdout.isTTY) process.stdout.write('\n');
        finish(() => reject(signal.reason));
      };
      rl.on('line', (line) => {
        if (answered) typedAhead.push(line);
        else finish(() => resolve(line));
      });
      rl.on('close', () => {
        if (closing) return;
        ended = true;
        if (!answered) finish(() => resolve(null));
      });
      // Ctrl-C arrives as a keystroke while the terminal is in raw mode: it is an interrupt.
      rl.on('SIGINT', () => interrupt('SIGINT'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };
}

/** A built-in module, loaded when first needed (lib/builtin-module.ts). */
const builtin = builtinModule;

/** Resolves once `stream` has no write pending, or is closed. */
function drained(stream: NodeJS.WriteStream, closed: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (closed() || stream.destroyed || stream.writableLength === 0) return resolve();
    stream.once('close', () => resolve());
    stream.write('', () => resolve());
  });
}

// A write to stdout or stderr failed (a closed pipe, a terminal that hung up).
let outputFailed = false;

/**
 * Before exit, after an interrupt or a failed write: closes the standard descriptors whose
 * terminal has hung up (a character device that is no longer a terminal). Node restores a
 * terminal's mode at exit and aborts (SIGABRT) when that fails with EIO (ResetStdio in
 * src/node.cc); it skips a descriptor that is closed. node:tty is loaded only then: it
 * costs start-up time on every run whose stdout is not a terminal.
 */
export async function releaseDeadTerminal(): Promise<void> {
  if (interruptedBy() === null && !outputFailed) return;
  const { isatty } = builtin<typeof import('node:tty')>('node:tty');
  for (const fd of [0, 1, 2]) {
    try {
      if (fstatSync(fd).isCharacterDevice() && !isatty(fd)) closeSync(fd);
    } catch {
      // Closed already.
    }
  }
}

/**
 * Whether a descriptor is a terminal. A memory device of Linux (major 1: /dev/null, /dev/zero)
 * is a character device that is never a terminal, and the common stdout of a service or a
 * benchmark: it is answered without loading node:tty (and node:net with it: 2 ms on Node 22).
 */
function isTerminal(fd: number): boolean {
  let rdev: number;
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    rdev = st.rdev;
  } catch {
    return false;
  }
  if (process.platform === 'linux' && (Math.floor(rdev / 256) & 0xfff) === 1) return false;
  return builtin<typeof import('node:tty')>('node:tty').isatty(fd);
}

/** One of the process's outputs: a write that fails closes it (reported once through onError). */
interface Output {
  write: (text: string) => void;
  /** Settles once nothing written is pending. */
  drained: () => Promise<void>;
}

/**
 * fd 1 or 2. A terminal is written through its process stream (which Node keeps in order with
 * the prompts). Anything else (a pipe, a file, a socket) is written with writeSync, as Node's
 * own stream would do on Linux, without creating the stream (its modules cost 2 to 4 ms of a
 * status). A descriptor that is non-blocking (EAGAIN) goes on through the stream, which waits
 * for it; what was written stays in order.
 */
function processOutput(fd: 1 | 2, stream: () => NodeJS.WriteStream, onError: (e: NodeJS.ErrnoException) => void): Output {
  let closed = false;
  let viaStream: NodeJS.WriteStream | undefined;
  const fail = (e: NodeJS.ErrnoException) => {
    outputFailed = true;
    if (closed) return;
    closed = true;
    onError(e);
  };
  const useStream = () => {
    if (viaStream === undefined) {
      viaStream = stream();
      viaStream.on('error', fail);
    }
    return viaStream;
  };
  let terminal: boolean | undefined;
  return {
    write: (text) => {
      if (closed) return;
      terminal ??= isTerminal(fd);
      if (viaStream === undefined && !terminal) {
        const bytes = Buffer.from(text, 'utf8');
        let done = 0;
        try {
          while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
          return;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return fail(e as NodeJS.ErrnoException);
          useStream().write(bytes.subarray(done));
          return;
        }
      }
      useStream().write(text);
    },
    drained: () => (viaStream === undefined ? Promise.resolve() : drained(viaStream, () => closed)),
  };
}

/** The width of the terminal at fd 1 or 2, or null; the stream is made only for a terminal (making process.stdout costs about 1 ms). */
function terminalColumns(fd: 1 | 2): number | null {
  if (!isTerminal(fd)) return null;
  const stream = fd === 1 ? process.stdout : process.stderr;
  return stream.isTTY && stream.columns > 0 ? stream.columns : null;
}

/**
 * The process's outputs. A write error on stdout (EPIPE from a closed pipe, EIO from a
 * terminal that hung up) closes it for good and is reported through onStdoutClosed; later
 * writes are dropped. A write error on stderr only closes stderr.
 */
export function processIo(onStdoutClosed: (why: string) => void = () => {}): ProcessIo {
  const stdout = processOutput(1, () => process.stdout, (e) => onStdoutClosed(`stdout closed: ${e.code ?? e.message}`));
  const stderr = processOutput(2, () => process.stderr, () => {});
  return {
    stdout: stdout.write,
    stderr: stderr.write,
    env: process.env,
    cwd: process.cwd(),
    interactive: () => Boolean(process.stdin.isTTY && process.stdout.isTTY),
    stderrIsTTY: isTerminal(2),
    colour: () => colourWanted(process.env, isTerminal(1)),
    // Piped into a pager (`gate-check | less`), stdout is no terminal but stderr still is: its width is the pager's.
    columns: () => terminalColumns(1) ?? terminalColumns(2),
    stdinIsTTY: () => Boolean(process.stdin.isTTY),
    ask: terminalAsker(),
    flushed: async () => {
      await Promise.all([stdout.drained(), stderr.drained()]);
    },
  };
}
