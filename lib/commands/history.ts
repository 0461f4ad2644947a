// gate-check history: not implemented yet.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function historyCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check history is not implemented yet');
}
