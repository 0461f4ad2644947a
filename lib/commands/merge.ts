// gate-check merge: not implemented yet.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function mergeCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check merge is not implemented yet');
}
