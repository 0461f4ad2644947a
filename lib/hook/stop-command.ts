// `gate-check hook stop --host claude|codex|copilot|gemini|cursor` (and `hook claude-stop`, the
// same as `--host claude`): the Stop hook. Reads the host's payload on stdin, lets the core
// decide (stop-verdict.ts: the strict view, never executing anything), and answers in the
// host's format on stdout. Always exits 0: no host reads exit 2 reliably (Claude Code), and
// for some it is only a warning (Copilot). A command line the hook cannot use (no --host, an
// unknown one) is answered with a block in the shape Claude Code, Codex, Copilot and Gemini
// read (Cursor ignores it), saying what is wrong: a misconfigured hook must not let the agent
// stop unseen, and must not be silent.
//
// `--tag TEXT` is accepted and ignored: an installer that writes the exec form (`args: [...]`,
// no shell, so no `# marker` comment) can mark its entry with it.
import type { Io } from '../program/io.js';
import { readStdin } from './read-stdin.js';
import { sanitizeLine } from '../text/sanitize.js';
import { HOST_NAMES, hostByName } from './hosts.js';
import type { HostAdapter, StopRequest } from './stop-types.js';

/** A payload larger than this is refused (Copilot puts a sub-agent's whole response in it). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
/** Hosts close stdin after writing the input; one that does not is not waited for longer than this. */
const STDIN_WAIT_MS = 2_000;

const USAGE = `Usage: gate-check hook stop --host ${HOST_NAMES.join('|')} [--tag TEXT]

The Stop hook: reads the host's stop payload on stdin and answers in the host's format on
stdout, with exit 0 (exit 2 only when the answer cannot be written: references/hook.md). --tag
is ignored (it marks an installed entry).
\`gate-check hook claude-stop\` is \`gate-check hook stop --host claude\`.
`;

type Parsed = { kind: 'help' } | { kind: 'run'; host: HostAdapter } | { kind: 'misconfigured'; problem: string };

function parseArgs(args: readonly string[], fixedHost: string | null): Parsed {
  let host: string | null = fixedHost;
  let hostGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name !== '--host' && name !== '--tag') return { kind: 'misconfigured', problem: `unexpected argument ${sanitizeLine(arg, 80)}` };
    const value = inline ?? args[++i];
    if (value === undefined) return { kind: 'misconfigured', problem: `${name} needs a value` };
    if (name === '--tag') continue;
    if (fixedHost !== null) return { kind: 'misconfigured', problem: 'hook claude-stop takes no --host (it is the Claude Code hook)' };
    if (hostGiven) return { kind: 'misconfigured', problem: '--host given twice' };
    hostGiven = true;
    host = value;
  }
  if (host === null) return { kind: 'misconfigured', problem: `no --host (one of ${HOST_NAMES.join(', ')})` };
  const adapter = hostByName(host);
  if (adapter === null) return { kind: 'misconfigured', problem: `unknown --host ${sanitizeLine(host, 80)} (one of ${HOST_NAMES.join(', ')})` };
  return { kind: 'run', host: adapter };
}

/** `fixedHost`: the host of an alias (`hook claude-stop`), which then takes no --host. */
export async function hookStopCommand(args: readonly string[], io: Io, fixedHost: string | null = null): Promise<number> {
  const parsed = parseArgs(args, fixedHost);
  if (parsed.kind === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (parsed.kind === 'misconfigured') {
    const reason = `gate-check: the Stop hook is misconfigured (${parsed.problem}), so no gate was checked. Fix the hook command in the host's settings: \`gate-check hook stop --host ${HOST_NAMES.join('|')}\`.`;
    io.stdout(JSON.stringify({ decision: 'block', reason }) + '\n');
    io.stderr(`${reason}\n`);
    return 0;
  }
  const host = parsed.host;
  // The verdict's modules are most of the hook's start-up: loaded while the input arrives.
  const verdict = import('./stop-verdict.js');
  verdict.catch(() => {}); // awaited below; an unhandled rejection must not end the process first
  // At most MAX_INPUT_BYTES, and no longer than STDIN_WAIT_MS: what arrived by then is the input.
  const stdin = await readStdin(MAX_INPUT_BYTES, STDIN_WAIT_MS);
  const request: StopRequest = stdin.tooLarge
    ? { ok: false, problem: `the hook input is larger than ${MAX_INPUT_BYTES / 2 ** 20} MiB` }
    : host.parse(stdin.bytes.toString('utf8'), io.env);
  const { decideStop } = await verdict;
  const decision = await decideStop(request, host, io);
  const answer = host.answer(decision);
  if (answer !== '') io.stdout(answer);
  if (decision.kind === 'allow' && decision.message !== null && !host.allowNote) io.stderr(`${decision.message}\n`);
  return 0;
}
