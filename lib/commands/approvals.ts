// gate-check approvals: not implemented yet.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function approvalsCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check approvals is not implemented yet');
}
