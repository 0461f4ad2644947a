// `gate-check hook claude-stop`: the Claude Code Stop hook as installed before `hook stop
// --host` existed; the same command with --host claude (stop-command.ts).
import type { Io } from '../program/io.js';
import { hookStopCommand } from './stop-command.js';

export function claudeStopCommand(args: string[], io: Io): Promise<number> {
  return hookStopCommand(args, io, 'claude');
}
