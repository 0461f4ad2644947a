// Subcommands (init, lint, approvals, hook, history, merge), loaded only when named.
import { UsageError } from '../errors.js';
import type { Io } from './io.js';

export async function runSubcommand(name: string, _args: string[], _io: Io): Promise<number> {
  throw new UsageError(`unknown command ${name}`);
}
