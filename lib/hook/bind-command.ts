// gate-check hook bind --session S --scope ID [--root DIR]   |   --session S --remove
//
// Routes the SubagentStop verdict of one sub-agent to one scope (scope-binding.ts): the parent,
// which starts sub-agents, binds each one's id (the agent_id its host gives it, or the session
// id of a session of its own) to the scope it works in. Routing only, not authentication.
import { join } from 'node:path';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { dispatchDirPath } from '../dispatch/location.js';
import { UsageError } from '../errors.js';
import { checkScopeId, resolveRoot } from '../fsx/discover.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { MAX_ID_CHARS } from './host-payload.js';
import { readBinding, removeBinding, writeBinding } from './scope-binding.js';

interface BindOptions {
  session?: string;
  scope?: string;
  remove?: boolean;
  root?: string;
}

export async function hookBindCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('hook bind', "Route a sub-agent's SubagentStop verdict to one scope's gates and dispatch waves (routing, not authentication).");
  program
    .option('--session <id>', "the sub-agent's id as its host sends it (agent_id), or the session id of a session of its own")
    .option('--scope <id>', 'the scope it works in')
    .option('--remove', 'remove the binding')
    .option('--root <dir>', 'repository root (default: the current directory)');
  const parsed = parseSubcommand<BindOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  // Mutation note: equivalent while commander refuses excess arguments itself (test/hook/subcommand-usage.test.ts).
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument ${sanitizeLine(parsed.args[0]!, 80)}`, "see 'gate-check hook bind --help'");
  const { session, scope, remove } = parsed.options;
  if (session === undefined || session === '') throw new UsageError('hook bind needs --session ID', "see 'gate-check hook bind --help'");
  if (session.length > MAX_ID_CHARS) throw new UsageError(`--session is longer than ${MAX_ID_CHARS} characters`);
  if ((scope === undefined) === (remove !== true)) throw new UsageError('hook bind needs either --scope ID or --remove', "see 'gate-check hook bind --help'");
  const root = resolveRoot(parsed.options.root, io.cwd).path;
  const locations = storeLocations(io.env);
  const who = sanitizeLine(session, 120);
  if (remove === true) {
    const was = readBinding(locations, root, session);
    if (!removeBinding(locations, root, session)) {
      io.stdout(`${who} is bound to no scope in ${sanitizeLine(root, 400)}; nothing changed\n`);
      return 0;
    }
    io.stdout(`removed the binding of ${who} (to scope ${was ?? '?'}) in ${sanitizeLine(root, 400)}\n`);
    return 0;
  }
  checkScopeId(scope!);
  // A scope is a folder of ledgers, or waves a parent dispatched for it.
  const folder = lstatOrNull(join(root, '.gate-check', scope!));
  const waves = lstatOrNull(join(dispatchDirPath(locations, root), `${scope}.json`));
  if (!folder?.isDirectory() && waves === null) {
    throw new UsageError(`there is no scope ${scope} in ${sanitizeLine(root, 400)} (no .gate-check/${scope}/ and no dispatch wave)`, "'gate-check --list-scopes' lists them");
  }
  writeBinding(locations, root, session, scope!);
  io.stdout(`bound ${who} to scope ${scope} in ${sanitizeLine(root, 400)}: its SubagentStop now waits for that scope's gates and dispatch waves (in whichever worktree of this repository it works)\n`);
  return 0;
}
