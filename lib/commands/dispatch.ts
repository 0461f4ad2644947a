// gate-check dispatch open|start|seal|return|abandon|status (issue 12 §3): a wave of sub-agents
// for a scope, recorded by the parent task. open names the leaves; start records the handle of
// what was started for a leaf; seal says every leaf started; return records each leaf coming
// back, the last one completes the wave; abandon hands the wave to a person. Until a wave is
// complete, the scope's verdict is unmet (--status, runs, the Stop hook).
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UsageError } from '../errors.js';
import { resolveRoot } from '../fsx/discover.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { dispatchDirPath } from '../dispatch/location.js';
import { loadDispatchState, transitionDispatch } from '../dispatch/store.js';
import type { Wave } from '../dispatch/state.js';
import type { Transition } from '../dispatch/transition.js';
import { waveLabel, waveReport } from '../dispatch/verdict.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine, terminalSafeJson } from '../text/sanitize.js';
import { chooseScopeId } from '../workspace/load.js';

export const DISPATCH_STATUS_SCHEMA = 'gate-check/dispatch-status@1';
const ACTIONS = ['open', 'start', 'seal', 'return', 'abandon', 'status'] as const;
type Action = (typeof ACTIONS)[number];

interface DispatchOptions {
  root?: string;
  scope?: string;
  wave?: string;
  leaf?: string[];
  handle?: string;
  reason?: string;
  json?: boolean;
}

const HELP_AFTER = `
The state of each scope's waves is kept in the private store (~/.gate-check/dispatch/), never in
the repository. Until every wave of a scope is complete, its verdict is unmet: an open or sealed
wave reads "dispatch:W open (1/2 started)"; an abandoned one is a hand-off to a person.
Scope: --scope, else $GATE_CHECK_SCOPE, else the only scope (no root ledger). See references/parallel.md.
Exit codes: 0 done (status: every wave, or --wave W, complete); 1 status: a wave is not complete;
2 usage, a transition the wave does not allow, an invalid state file, a lock timeout.
`;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function buildProgram(): { program: Command; output: () => string; chosen: () => { action: Action; options: DispatchOptions } | null; subHelp: () => string | null } {
  const { program, output } = subcommandProgram('dispatch', 'Waves of sub-agents for a scope: a barrier the parent cannot stop before.');
  let chosen: { action: Action; options: DispatchOptions } | null = null;
  let subHelp: string | null = null;
  program.addHelpText('after', HELP_AFTER);
  const common = (cmd: Command) =>
    cmd.option('--root <dir>', 'repository root (default: the current directory)').option('--scope <id>', 'the scope (default: $GATE_CHECK_SCOPE, else the only scope)');
  const defs: Record<Action, (c: Command) => Command> = {
    open: (c) => c.description('open a new wave with its leaves').requiredOption('--wave <id>', 'a new wave id').option('--leaf <id>', 'a leaf of the wave (repeat for each)', collect),
    start: (c) =>
      c
        .description('record that a leaf was started, with a printable handle unique in the wave (at most 256 characters)')
        .requiredOption('--wave <id>', 'the wave')
        .requiredOption('--leaf <id>', 'the leaf', collect)
        .requiredOption('--handle <text>', 'what was started (a task id, a session name)'),
    seal: (c) => c.description('seal the wave: every leaf has started').requiredOption('--wave <id>', 'the wave'),
    return: (c) => c.description('record that a leaf returned (after the seal; the last return completes the wave)').requiredOption('--wave <id>', 'the wave').requiredOption('--leaf <id>', 'the leaf', collect),
    abandon: (c) => c.description('abandon an open or sealed wave, with a printable reason (at most 500 characters): a hand-off to a person').requiredOption('--wave <id>', 'the wave').requiredOption('--reason <text>', 'why'),
    status: (c) => c.description('show the waves of the scope; exit 0 only when every wave (or --wave) is complete').option('--wave <id>', 'only this wave').option('--json', `print one JSON document (${DISPATCH_STATUS_SCHEMA})`),
  };
  for (const action of ACTIONS) {
    const sub = common(defs[action](program.command(action)));
    sub.helpOption('-h, --help', 'show this help');
    sub.action((options: DispatchOptions) => {
      chosen = { action, options };
    });
    sub.on('afterHelp', () => {
      subHelp = sub.helpInformation();
    });
  }
  return { program, output, chosen: () => chosen, subHelp: () => subHelp };
}

function oneLeaf(options: DispatchOptions, action: string): string {
  const leaves = options.leaf ?? [];
  if (leaves.length !== 1) throw new UsageError(`dispatch ${action} takes one --leaf`);
  return leaves[0]!;
}

function transitionOf(action: Exclude<Action, 'status'>, o: DispatchOptions): Transition {
  const wave = o.wave!;
  switch (action) {
    case 'open':
      return { action, wave, leaves: o.leaf ?? [] };
    case 'start':
      return { action, wave, leaf: oneLeaf(o, action), handle: o.handle! };
    case 'seal':
      return { action, wave };
    case 'return':
      return { action, wave, leaf: oneLeaf(o, action) };
    case 'abandon':
      return { action, wave, reason: o.reason! };
  }
}

function doneLine(t: Transition, w: Wave, scope: string): string {
  const label = sanitizeLine(waveLabel(waveReport(w)), 200);
  switch (t.action) {
    case 'open':
      return `opened wave ${w.id} of scope ${scope} with ${w.leaves.length} lea${w.leaves.length === 1 ? 'f' : 'ves'}: ${label}`;
    case 'start':
      return `started leaf ${t.leaf}: ${label}`;
    case 'seal':
      return `sealed: ${label}`;
    case 'return':
      return w.state === 'complete' ? `returned leaf ${t.leaf}: wave ${w.id} is complete` : `returned leaf ${t.leaf}: ${label}`;
    case 'abandon':
      return `abandoned wave ${w.id}: a hand-off; the scope's verdict says HANDOFF REQUIRED until a person takes it over`;
  }
}

function statusText(scope: string, waves: readonly Wave[]): string {
  if (waves.length === 0) return `scope ${scope}: no waves\n`;
  const out: string[] = [];
  for (const w of waves) {
    out.push(sanitizeLine(waveLabel(waveReport(w)), 200) + ` (opened ${w.openedAt})`);
    for (const l of w.leaves) {
      const where = l.returnedAt !== null ? `returned ${l.returnedAt}` : l.startedAt !== null ? `started ${l.startedAt}` : 'not started';
      out.push(`  ${l.id}  ${where}${l.handle !== null ? `  handle: ${sanitizeLine(l.handle, 256)}` : ''}`);
    }
    if (w.reason !== null) out.push(`  reason: ${sanitizeLine(w.reason, 500)}`);
  }
  return out.join('\n') + '\n';
}

export async function dispatchCommand(args: string[], io: Io): Promise<number> {
  const usage = `gate-check dispatch needs an action: ${ACTIONS.join(', ')}`;
  if (args.length === 0) throw new UsageError(usage, "see 'gate-check dispatch --help'");
  const built = buildProgram();
  const parsed = parseSubcommand<Record<string, never>>(built.program, built.output, args, ['leaf']);
  if (parsed.kind === 'done') {
    io.stdout(built.subHelp() ?? parsed.output);
    return 0;
  }
  const chosen = built.chosen();
  if (chosen === null) throw new UsageError(usage, "see 'gate-check dispatch --help'");
  const { action, options } = chosen;
  const root = resolveRoot(options.root, io.cwd);
  const scope = chooseScopeId(root, options.scope, io.env, `dispatch ${action}`);
  const locations = storeLocations(io.env);
  if (action === 'status') {
    const state = loadDispatchState(locations, root.path, scope);
    const all = state?.waves ?? [];
    const waves = options.wave === undefined ? all : all.filter((w) => w.id === options.wave);
    if (options.wave !== undefined && waves.length === 0) throw new UsageError(`scope ${scope} has no wave ${sanitizeLine(options.wave, 80)}`);
    const exitCode = waves.every((w) => w.state === 'complete') ? 0 : 1;
    io.stdout(options.json ? terminalSafeJson({ schema: DISPATCH_STATUS_SCHEMA, scope, exitCode, waves }) + '\n' : statusText(scope, waves));
    if (!options.json && waves.some((w) => w.state === 'abandoned')) {
      // No command clears a hand-off (an agent could run it); a person who took the work over removes the state.
      const path = join(dispatchDirPath(locations, root.path), `${scope}.json`);
      io.stderr(`note: an abandoned wave stays a hand-off until a person takes it over and removes this scope's dispatch state by hand (every wave of scope ${scope}): rm '${path.replace(/'/g, `'\\''`)}'\n`);
    }
    return exitCode;
  }
  if (action === 'open') {
    // A typo must not open a wave for a scope that does not exist (later transitions work without the folder).
    const dir = lstatOrNull(join(root.path, '.gate-check', scope));
    if (!dir || dir.isSymbolicLink() || !dir.isDirectory()) throw new UsageError(`scope ${scope} not found: .gate-check/${scope} is not a directory`);
  }
  const t = transitionOf(action, options);
  const next = await transitionDispatch(locations, root.path, scope, t, lockTimeoutFromEnv(io.env));
  io.stdout(doneLine(t, next.waves.find((w) => w.id === t.wave)!, scope) + '\n');
  return 0;
}
