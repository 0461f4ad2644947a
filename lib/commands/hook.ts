// gate-check hook: not implemented yet.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function hookCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check hook is not implemented yet');
}
