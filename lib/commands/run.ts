// Running checks. Implemented by the execution issue.
import type { Io } from '../cli/io.js';
import type { RunOptions } from '../cli/options.js';
import { UsageError } from '../errors.js';

export async function runCommand(_options: RunOptions, _io: Io): Promise<number> {
  throw new UsageError('running checks is not implemented yet; use --status');
}
