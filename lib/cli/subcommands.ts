// Subcommands, each loaded only when named (the status path never loads them).
import type { Io } from './io.js';

export const SUBCOMMAND_NAMES = ['init', 'lint', 'approvals', 'history', 'merge', 'hook'] as const;

export async function runSubcommand(name: string, args: string[], io: Io): Promise<number> {
  switch (name) {
    case 'lint':
      return (await import('../commands/lint.js')).lintCommand(args, io);
    case 'approvals':
      return (await import('../commands/approvals.js')).approvalsCommand(args, io);
    case 'history':
      return (await import('../commands/history.js')).historyCommand(args, io);
    case 'init':
      return (await import('../commands/init.js')).initCommand(args, io);
    case 'merge':
      return (await import('../commands/merge.js')).mergeCommand(args, io);
    case 'hook':
      return (await import('../commands/hook.js')).hookCommand(args, io);
    default:
      throw new Error(`unknown subcommand ${name}`);
  }
}
