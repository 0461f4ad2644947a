// The Claude Code Stop hook: implemented separately.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function claudeStopCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('gate-check hook claude-stop is not implemented yet');
}
