// Subcommands. This module is part of the lazily loaded half of the CLI (cli/lazy-subcommands.ts): the
// status path never loads it.
import { approvalsCommand } from '../commands/approvals.js';
import { diffCommand } from '../commands/diff.js';
import { dispatchCommand } from '../commands/dispatch.js';
import { historyCommand } from '../commands/history.js';
import { hookCommand } from '../commands/hook.js';
import { initCommand } from '../commands/init.js';
import { lintCommand } from '../commands/lint.js';
import { mergeCommand } from '../commands/merge.js';
import type { Io } from '../program/io.js';

export async function runSubcommand(name: string, args: string[], io: Io): Promise<number> {
  switch (name) {
    case 'lint':
      return lintCommand(args, io);
    case 'approvals':
      return approvalsCommand(args, io);
    case 'history':
      return historyCommand(args, io);
    case 'init':
      return initCommand(args, io);
    case 'merge':
      return mergeCommand(args, io);
    case 'hook':
      return hookCommand(args, io);
    case 'diff':
      return diffCommand(args, io);
    case 'dispatch':
      return dispatchCommand(args, io);
    default:
      throw new Error(`unknown subcommand ${name}`);
  }
}
