// gate-check hook stop | claude-stop | bind | accept | install | uninstall | doctor | config-change | forget
import type { Io } from '../program/io.js';
import { UsageError } from '../errors.js';
import { hookAcceptCommand } from '../hook/accept-command.js';
import { hookBindCommand } from '../hook/bind-command.js';
import { claudeStopCommand } from '../hook/claude-stop.js';
import { configChangeCommand } from '../hook/config-change.js';
import { hookDoctorCommand } from '../hook/doctor-command.js';
import { hookForgetCommand } from '../hook/forget-command.js';
import { hookInstallCommand } from '../hook/install-command.js';
import { hookStopCommand } from '../hook/stop-command.js';

const USAGE = `Usage: gate-check hook <command>

Commands:
  stop --host HOST         the Stop hook for HOST (claude, codex, copilot, gemini, cursor):
                           reads the host's stop payload on stdin, answers on stdout
  claude-stop              the same as stop --host claude
  bind --session S --scope ID
                           route sub-agent S's SubagentStop to scope ID's gates and waves
  accept [--root DIR]      approve gates weakened since a Stop-hook session began
                           (asks on a terminal)
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
    case 'stop':
      return hookStopCommand(rest, io);
    case 'claude-stop':
      return claudeStopCommand(rest, io);
    case 'bind':
      return hookBindCommand(rest, io);
    case 'accept':
      return hookAcceptCommand(rest, io);
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
