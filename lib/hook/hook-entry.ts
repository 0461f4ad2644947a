// The hook commands gate-check writes into a host's settings, and how an entry of gate-check
// is recognized there. Where the host spawns an executable with an argument vector (the exec
// form: Claude Code's `command` + `args`, Copilot CLI's `exec` + `args`), no shell parses the
// paths; where it only takes a shell string (Codex, Gemini CLI, Cursor), each path is
// single-quoted for a POSIX shell and the string ends with a shell comment that marks it as
// ours. Pure.
import { isPlainObject } from '../json/hostile.js';

/** A shell comment at the end of a shell-form command: it identifies the entry as ours. */
export const STOP_HOOK_MARKER = '# gate-check:stop-hook';

/** The hook subcommands an entry of ours runs (`claude-stop` is the old name of `stop --host claude`). */
const STOP_SUBCOMMANDS = new Set(['stop', 'claude-stop']);
const CONFIG_SUBCOMMAND = 'config-change';

/** Quotes one word for a POSIX shell: single quotes, each embedded ' as '\''. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The argument vector after the executable (node): the CLI, then the hook subcommand. */
export function stopArgs(bin: string, host: string): string[] {
  return [bin, 'hook', 'stop', '--host', host];
}

/** The shell-form command: quoted node and CLI, the subcommand, the marker. */
export function stopShellCommand(nodePath: string, binPath: string, host: string): string {
  return `${shellQuote(nodePath)} ${shellQuote(binPath)} hook stop --host ${host} ${STOP_HOOK_MARKER}`;
}

const MARKER_AT_END = new RegExp(`(?:^|\\s)${STOP_HOOK_MARKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** True for a command string that ends with our marker, whatever else it says. */
export function endsWithMarker(command: unknown): boolean {
  return typeof command === 'string' && MARKER_AT_END.test(command);
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The CLI of gate-check, as named by the first word of an argument vector. */
function isGateCheckBin(path: string): boolean {
  return /^gate-check(?:\.js|\.mjs)?$/.test(baseName(path));
}

/** The hook subcommand of an exec-form argument vector `[cli, 'hook', sub, …]`, or null. */
export function execSubcommand(args: unknown): string | null {
  if (!isStringArray(args) || args.length < 3) return null;
  if (!isGateCheckBin(args[0]!) || args[1] !== 'hook') return null;
  return args[2]!;
}

/** Exec form: the executable is under `key` (`command` for Claude Code, `exec` for Copilot CLI). */
export function isOurExecEntry(entry: unknown, key: 'command' | 'exec', sub: 'stop' | 'config-change'): boolean {
  if (!isPlainObject(entry) || typeof own(entry, key) !== 'string') return false;
  const s = execSubcommand(own(entry, 'args'));
  return s !== null && (sub === 'stop' ? STOP_SUBCOMMANDS.has(s) : s === CONFIG_SUBCOMMAND);
}

/** Shell form: a string under one of `keys` that ends with our marker. */
export function isOurShellEntry(entry: unknown, keys: readonly string[]): boolean {
  return isPlainObject(entry) && keys.some((k) => endsWithMarker(own(entry, k)));
}

/** How a gate-check Stop hook entry runs, as found in any host's file (ours or written by hand). */
export type FoundCommand = { form: 'exec'; executable: string; args: string[] } | { form: 'shell'; command: string };

const SHELL_KEYS = ['command', 'bash', 'powershell'] as const;
const STOP_WORDS = /(?:^|\s)hook\s+(?:stop|claude-stop)(?:\s|$)/;

/**
 * The command of an entry that runs gate-check's Stop hook, or null. Looser than the
 * "ours" tests above: a hand-written `npx gate-check hook stop` counts too, so that a hook
 * installed twice is found whoever installed it.
 */
export function gateCheckStopCommand(entry: unknown): FoundCommand | null {
  if (!isPlainObject(entry)) return null;
  for (const key of ['command', 'exec'] as const) {
    const executable = own(entry, key);
    const args = own(entry, 'args');
    if (typeof executable !== 'string' || !isStringArray(args)) continue;
    const sub = execSubcommand(args);
    const direct = isGateCheckBin(executable) && args[0] === 'hook' && STOP_SUBCOMMANDS.has(args[1] ?? '');
    if ((sub !== null && STOP_SUBCOMMANDS.has(sub)) || direct) return { form: 'exec', executable, args };
  }
  for (const key of SHELL_KEYS) {
    const command = own(entry, key);
    if (typeof command !== 'string') continue;
    if (endsWithMarker(command) || (/gate-check/.test(command) && STOP_WORDS.test(command))) return { form: 'shell', command };
  }
  return null;
}

/** The node and CLI paths of a shell command in the form gate-check writes, or null. */
export function quotedPaths(command: string): { node: string; bin: string } | null {
  const word = `'((?:[^']|'\\\\'')*)'`;
  const m = new RegExp(`^${word} ${word} hook `).exec(command);
  if (!m) return null;
  const unquote = (s: string) => s.replace(/'\\''/g, "'");
  return { node: unquote(m[1]!), bin: unquote(m[2]!) };
}
