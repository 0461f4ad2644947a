// gate-check hook claude-stop | install | uninstall | forget
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';
import { claudeStopCommand } from '../hook/claude-stop.js';
import { hookForgetCommand } from '../hook/forget-command.js';
import { hookInstallCommand } from '../hook/install-command.js';

const USAGE = `Usage: gate-check hook <command>

Commands:
  claude-stop              the Claude Code Stop hook (reads the hook JSON on stdin)
  install [--shared | --global]    add the Stop hook to .claude/settings.local.json
                           (--shared: .claude/settings.json, --global: ~/.claude/settings.json)
  uninstall [--shared | --global]  remove exactly what install added (also: install --uninstall)
  forget [--root DIR]      forget which ledgers had open gates, after retiring one on purpose
                           (asks on a terminal)
`;

export async function hookCommand(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'claude-stop':
      return claudeStopCommand(rest, io);
    case 'install':
      return hookInstallCommand(rest, io, false);
    case 'uninstall':
      return hookInstallCommand(rest, io, true);
    case 'forget':
      return hookForgetCommand(rest, io);
    case '-h':
    case '--help':
    case undefined:
      io.stdout(USAGE);
      return sub === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown hook command ${sub}`, "see 'gate-check hook --help'");
  }
}
