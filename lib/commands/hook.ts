// gate-check hook claude-stop | install | uninstall | doctor | config-change | forget
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';
import { claudeStopCommand } from '../hook/claude-stop.js';
import { configChangeCommand } from '../hook/config-change.js';
import { hookDoctorCommand } from '../hook/doctor-command.js';
import { hookForgetCommand } from '../hook/forget-command.js';
import { hookInstallCommand } from '../hook/install-command.js';

const USAGE = `Usage: gate-check hook <command>

Commands:
  claude-stop              the Claude Code Stop hook (reads the hook JSON on stdin)
  install [--host H] [--shared | --global]
                           add the Stop hook to a host's settings (H: claude, codex, copilot,
                           gemini, cursor; default claude: .claude/settings.local.json)
  uninstall [--host H] [--shared | --global]
                           remove exactly what install added (also: install --uninstall)
  doctor [--json]          check the Stop hook of every host used here (exit 1: something is wrong)
  config-change --settings FILE
                           the Claude Code ConfigChange hook that install writes
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
    case 'doctor':
      return hookDoctorCommand(rest, io);
    case 'config-change':
      return configChangeCommand(rest, io);
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
