// gate-check lint: not implemented yet.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function lintCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check lint is not implemented yet');
}
