// gate-check hook claude-stop | install | uninstall
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

const USAGE = `Usage: gate-check hook <command>

Commands:
  claude-stop              the Claude Code Stop hook (reads the hook JSON on stdin)
  install [--shared | --global]    add the Stop hook to .claude/settings.local.json
                           (--shared: .claude/settings.json, --global: ~/.claude/settings.json)
  uninstall [--shared | --global]  remove exactly what install added (also: install --uninstall)
`;

export async function hookCommand(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'claude-stop':
      return (await import('../hook/claude-stop.js')).claudeStopCommand(rest, io);
    case 'install':
      return (await import('../hook/install-command.js')).hookInstallCommand(rest, io, false);
    case 'uninstall':
      return (await import('../hook/install-command.js')).hookInstallCommand(rest, io, true);
    case '-h':
    case '--help':
    case undefined:
      io.stdout(USAGE);
      return sub === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown hook command ${sub}`, "see 'gate-check hook --help'");
  }
}
