// gate-check hook forget [--root DIR]
//
// Clears what the Stop hook remembers about a repository's ledgers (ledger-memory.ts), for a
// person who retired a ledger with open gates on purpose. It asks on a terminal and refuses
// without one: the agent's tool calls have no terminal, so it cannot clear the block with a
// plain command (defense in depth; a same-user process can always remove the file by hand).
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UsageError } from '../errors.js';
import { resolveRoot } from '../fsx/discover.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { forgetLedgers, memoryPath, readLedgerMemory } from './ledger-memory.js';
import { forgetRepositoryRoots, readRepositoryRoots } from './repository-roots.js';

interface ForgetOptions {
  root?: string;
}

export async function hookForgetCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('hook forget', "Forget which of a repository's ledgers had open gates (the Stop hook then stops blocking on their removal).");
  program.option('--root <dir>', 'repository root (default: the current directory)');
  const parsed = parseSubcommand<ForgetOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  // Mutation note: equivalent while commander refuses excess arguments itself (test/hook/subcommand-usage.test.ts).
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument ${sanitizeLine(parsed.args[0]!, 80)}`, "see 'gate-check hook forget --help'");
  const root = resolveRoot(parsed.options.root, io.cwd).path;
  const locations = storeLocations(io.env);
  // This root's memory, and that of each remembered root below it (a package removed with its folder: round-21 F1).
  const below = readRepositoryRoots(locations, root);
  const memories = [root, ...below].flatMap((r) => {
    const open = readLedgerMemory(locations, r);
    return open === null ? [] : [{ root: r, open: r === root ? open : open.map((l) => `${r.slice(root.length + 1)}/${l}`) }];
  });
  if (memories.length === 0 && below.length === 0) {
    io.stdout(`the Stop hook remembers no ledgers of ${sanitizeLine(root, 400)}; nothing changed\n`);
    return 0;
  }
  const remembered = memories.flatMap((m) => m.open);
  const list = remembered.length === 0 ? '(none with open gates)' : remembered.map((l) => sanitizeLine(l, 200)).join(', ');
  if (!io.interactive()) {
    throw new UsageError(
      `hook forget asks a person to confirm on a terminal, and this is not one (the Stop hook remembers ${list} in ${sanitizeLine(root, 400)})`,
      `run it yourself in a terminal, or remove ${sanitizeLine(memoryPath(locations, root), 400)} by hand`,
    );
  }
  io.stdout(`The Stop hook remembers that these ledgers of ${sanitizeLine(root, 400)} had open gates: ${list}.\nWhile one of them is missing, every stop is blocked.\n`);
  const answer = ((await io.ask('forget them? [y/N] ')) ?? '').trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes') {
    io.stdout('nothing changed\n');
    return 1;
  }
  const lockMs = lockTimeoutFromEnv(io.env);
  for (const m of memories) await forgetLedgers(locations, m.root, lockMs);
  await forgetRepositoryRoots(locations, root, lockMs);
  io.stdout(`forgot the ledgers of ${sanitizeLine(root, 400)}\n`);
  return 0;
}
