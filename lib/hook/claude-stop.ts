// `gate-check hook claude-stop`: the Claude Code adapter of the Stop hook. Reads the hook
// JSON on stdin (session_id, cwd; stop_hook_active is not used), always exits 0, and prints
//   {"decision":"block","reason":…}  to keep the session going,
//   {"systemMessage":…}              to allow the stop with a note (hand-offs, a release),
//   nothing                          to allow the stop silently.
// The decision itself is host-independent (stop-verdict.ts).
import type { Io } from '../cli/io.js';
import { decideStop, type StopDecision, type StopInput } from './stop-verdict.js';

const MAX_INPUT_BYTES = 1024 * 1024;
/** Claude Code closes stdin after writing the input; a host that does not is not waited for longer than this. */
const STDIN_WAIT_MS = 2_000;

export function parseClaudeInput(text: string): StopInput {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { sessionId: 'unknown', cwd: null };
  }
  const obj = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const sessionId = Object.hasOwn(obj, 'session_id') && typeof obj.session_id === 'string' && obj.session_id !== '' ? obj.session_id : 'unknown';
  const cwd = Object.hasOwn(obj, 'cwd') && typeof obj.cwd === 'string' ? obj.cwd : null;
  return { sessionId, cwd };
}

/** At most MAX_INPUT_BYTES, and no longer than STDIN_WAIT_MS: what arrived by then is the input. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  await new Promise<void>((resolve) => {
    const stdin = process.stdin;
    const done = () => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', done).off('error', done).off('close', done);
      stdin.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      if (total + chunk.length > MAX_INPUT_BYTES) {
        chunks.push(chunk.subarray(0, MAX_INPUT_BYTES - total));
        total = MAX_INPUT_BYTES;
        done();
        return;
      }
      chunks.push(chunk);
      total += chunk.length;
    };
    const timer = setTimeout(done, STDIN_WAIT_MS);
    timer.unref();
    stdin.on('data', onData).on('end', done).on('error', done).on('close', done);
  });
  return Buffer.concat(chunks).toString('utf8');
}

export function formatClaudeAnswer(decision: StopDecision): string {
  if (decision.kind === 'block') return JSON.stringify({ decision: 'block', reason: decision.reason }) + '\n';
  return decision.message === null ? '' : JSON.stringify({ systemMessage: decision.message }) + '\n';
}

export async function claudeStopCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout('Usage: gate-check hook claude-stop   (reads the Claude Code Stop-hook JSON on stdin; see references/hook.md)\n');
    return 0;
  }
  const input = parseClaudeInput(await readStdin());
  const answer = formatClaudeAnswer(await decideStop(input, io));
  if (answer !== '') io.stdout(answer);
  return 0;
}
