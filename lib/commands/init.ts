// gate-check init: not implemented yet.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function initCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check init is not implemented yet');
}
