// Subcommands, each loaded only when named: `hook` (paid on every Stop-hook call) never
// compiles lint, diff or dispatch, and the run and status paths load none of them.
import type { Io } from './io.js';

type Command = (args: string[], io: Io) => Promise<number> | number;

const COMMANDS: Record<string, () => Promise<Command>> = {
  lint: async () => (await import('../commands/lint.js')).lintCommand,
  approvals: async () => (await import('../commands/approvals.js')).approvalsCommand,
  history: async () => (await import('../commands/history.js')).historyCommand,
  init: async () => (await import('../commands/init.js')).initCommand,
  merge: async () => (await import('../commands/merge.js')).mergeCommand,
  hook: async () => (await import('../commands/hook.js')).hookCommand,
  diff: async () => (await import('../commands/diff.js')).diffCommand,
  dispatch: async () => (await import('../commands/dispatch.js')).dispatchCommand,
};

export async function runSubcommand(name: string, args: string[], io: Io): Promise<number> {
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load === undefined) throw new Error(`unknown subcommand ${name}`);
  return (await load())(args, io);
}
