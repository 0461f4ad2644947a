// gate-check approvals list|revoke|prune: inspect and withdraw approvals. Only the approval
// store is touched, through ApprovalStore's safe primitives (no-follow reads, per-record
// locks, identity-checked directory); never a ledger write, never a command run. `list`
// never creates the store; an unsafe store is exit 2, exactly as in a run. This module
// parses the command line; each subcommand lives in approvals/.
import type { Command } from 'commander';
import type { Io } from '../program/io.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../program/run-options.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UsageError } from '../errors.js';
import { APPROVALS_SCHEMA, listApprovals, type ListOptions } from './approvals/list.js';
import { pruneApprovals } from './approvals/prune.js';
import { revokeApprovals, type RevokeOptions } from './approvals/revoke.js';
import type { CommonOptions } from './approvals/shared.js';

export { APPROVALS_SCHEMA };

type Chosen =
  | { name: 'list'; files: string[]; options: ListOptions }
  | { name: 'revoke'; targets: string[]; options: RevokeOptions }
  | { name: 'prune'; options: CommonOptions };

const HELP_AFTER = `
Only the approval store (~/.gate-check/approved or $GATE_CHECK_APPROVAL_DIR) is touched: no
ledger is written and no command is run; the store is never created here. An unsafe store
stops with exit 2, as in a run. prune never removes an approval because of the environment
(PATH, shell, timeout, CWD, DEPENDS contents): those can change back.
Exit codes: 0 done; 2 usage, parse or store failure (an unknown gate id removes nothing).
`;

function buildProgram(): { program: Command; output: () => string; chosen: () => Chosen | null; subHelp: () => string | null } {
  const { program, output } = subcommandProgram('approvals', 'Inspect and withdraw approvals of CHECK commands (only the approval store is touched).');
  let chosen: Chosen | null = null;
  let subHelp: string | null = null;
  program.addHelpText('after', HELP_AFTER);

  const list = program
    .command('list')
    .description('show each runnable gate with the approval state of the oracle a run with the same options would compute')
    .argument('[file...]', 'ledger files (default: GATES.md and gates/*.md under --root)')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .option('--scope <id>', 'use the ledgers of .gate-check/<id>/')
    .option('--shell <path>', 'the shell a run would use (default: $GATE_CHECK_SHELL, then /bin/sh)')
    .option('--timeout <seconds>', `the per-check timeout a run would use (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option('--cwd <dir>', 'the default working directory a run would use')
    .option('--json', `print one JSON document (schema ${APPROVALS_SCHEMA})`)
    .action((files: string[], options: ListOptions) => {
      chosen = { name: 'list', files, options };
    });

  const revoke = program
    .command('revoke')
    .description('remove the approvals of these gates (every signature), or with --all of every ledger in this repository, or single records by file name')
    .argument('[target...]', 'gate ids (STEM:ID, or ID when unique), ledger files (a path with "/" or ending in .md), and record file names (<16 hex>-<64 hex>.json, removed unread)')
    .option('--all', 'every approval of a ledger inside --root (with files or --scope: every approval of those ledgers)')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .option('--scope <id>', 'use the ledgers of .gate-check/<id>/')
    .option('--dry-run', 'show what would be removed; remove nothing')
    .action((targets: string[], options: RevokeOptions) => {
      chosen = { name: 'revoke', targets, options };
    });

  const prune = program
    .command('prune')
    .description('remove approvals, across the whole store, whose ledger, gate, CHECK or EXPECT no longer exists')
    .option('--root <dir>', 'the repository the store must lie outside of (default: the current directory)')
    .option('--dry-run', 'show what would be removed; remove nothing')
    .action((options: CommonOptions) => {
      chosen = { name: 'prune', options };
    });

  for (const sub of [list, revoke, prune]) {
    sub.helpOption('-h, --help', 'show this help');
    // parseSubcommand silences a subcommand's own output; keep its help text to print it.
    sub.on('afterHelp', () => {
      subHelp = sub.helpInformation();
    });
  }
  return { program, output, chosen: () => chosen, subHelp: () => subHelp };
}

export async function approvalsCommand(args: string[], io: Io): Promise<number> {
  if (args.length === 0) throw new UsageError('gate-check approvals needs a subcommand: list, revoke or prune', "see 'gate-check approvals --help'");
  const built = buildProgram();
  const parsed = parseSubcommand<Record<string, never>>(built.program, built.output, args);
  if (parsed.kind === 'done') {
    io.stdout(built.subHelp() ?? parsed.output);
    return 0;
  }
  const chosen = built.chosen();
  if (chosen === null) throw new UsageError('gate-check approvals needs a subcommand: list, revoke or prune', "see 'gate-check approvals --help'");
  switch (chosen.name) {
    case 'list':
      return listApprovals(chosen.files, chosen.options, io);
    case 'revoke':
      return revokeApprovals(chosen.targets, chosen.options, io);
    case 'prune':
      return pruneApprovals(chosen.options, io);
  }
}
