// gate-check hook accept [--root DIR]
//
// A person approves gates weakened since a session's baseline (issue 12 §4): removed, turned
// manual, with a changed CHECK, EXPECT, CWD, DEPENDS, INPUTS or TIMEOUT, or newly abandoned.
// It shows each change against the baseline, asks on a terminal, and makes the current
// definitions the baseline of those gates in every session of the repository. It refuses
// without a terminal, and where `--approve` would refuse (inside a check, or where the
// environment announces a coding agent and there is no terminal of its own): the agent's tool
// calls cannot clear the block with a plain command (defence in depth: a process running as
// the user can always edit the store by hand).
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { approvalRefusal, systemProbe } from '../approval/approver.js';
import { UsageError } from '../errors.js';
import { resolveRoot } from '../fsx/discover.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { storeLocations } from '../store/locations.js';
import { reviewLine, reviewNotes, shownInFull } from '../text/review-text.js';
import { sanitizeLine } from '../text/sanitize.js';
import { ledgerBudget, ledgerStem, MAX_WORKSPACE_LEDGER_BYTES } from '../workspace/load.js';
import { loadHookLedgers, scopeOf } from './hook-ledgers.js';
import { baselineFiles, readBaselineFile, updateBaselineFile } from './session-baseline.js';
import { compareWithBaseline, describeWeakening, gateKey, MAX_EARLIER, projectGate, type BaselineGate, type Weakening } from './weakening.js';

interface AcceptOptions {
  root?: string;
}

/** A value longer than this on the screen is not accepted at the prompt (it could not be read in full). */
const VALUE_CAP = 2000;

/**
 * Values as the approval screen shows them (lib/text/review-text.ts): a look-alike letter
 * in `INPUTS: tеst/**` or a run of blanks that pushes a CHECK's tail away must be seen.
 */
function shown(v: string | null, notes: string[], what: string, cut: string[]): string {
  if (v === null) return '(none)';
  for (const n of reviewNotes(v, VALUE_CAP, what)) if (!notes.includes(n)) notes.push(n);
  if (!shownInFull(v, VALUE_CAP)) cut.push(what);
  return `"${reviewLine(v, VALUE_CAP)}"`;
}

function detail(w: Weakening, base: BaselineGate | undefined, cut: string[]): string[] {
  const lines: string[] = [];
  const notes: string[] = [];
  for (const k of w.kinds) {
    if (k === 'removed') lines.push(`removed (it was in ${sanitizeLine(w.baseFile, 200)})`);
    else if (k === 'turned manual') lines.push(`turned manual (its CHECK was ${shown(base?.check ?? null, notes, 'CHECK', cut)}, its EXPECT ${shown(base?.expect ?? null, notes, 'EXPECT', cut)})`);
    else if (k === 'newly abandoned') lines.push('newly abandoned');
    else for (const f of w.fields) lines.push(`${f.field} changed: ${shown(f.base, notes, f.field, cut)} -> ${shown(f.now, notes, f.field, cut)}`);
  }
  return [...lines, ...notes];
}

export async function hookAcceptCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('hook accept', 'Approve gates weakened since a Stop-hook session began: their current definitions become the baseline (asks on a terminal).');
  program.option('--root <dir>', 'repository root (default: the current directory)');
  const parsed = parseSubcommand<AcceptOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  // Mutation note: equivalent while commander refuses excess arguments itself (test/hook/subcommand-usage.test.ts).
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument ${sanitizeLine(parsed.args[0]!, 80)}`, "see 'gate-check hook accept --help'");
  const root = resolveRoot(parsed.options.root, io.cwd).path;
  const where = sanitizeLine(root, 400);
  const locations = storeLocations(io.env);
  const files = baselineFiles(locations, root);
  if (files.length === 0) {
    io.stdout(`the Stop hook keeps no session baseline for ${where}; nothing to approve\n`);
    return 0;
  }
  const ws = loadHookLedgers(root, io.cwd, () => {}, ledgerBudget(MAX_WORKSPACE_LEDGER_BYTES));
  const now: BaselineGate[] = (ws?.ledgers ?? []).flatMap((l) => l.ledger.gates.map((g) => projectGate(l.location.display, scopeOf(l), g)));
  const nowByKey = new Map(now.map((g) => [gateKey(g.file, g.id), g]));

  // Every session's weakened gates, each shown once.
  const perFile = new Map<string, Weakening[]>();
  const listed = new Map<string, string[]>();
  const cut: string[] = [];
  for (const name of files) {
    const baseline = readBaselineFile(locations, root, name);
    if (baseline === null) continue;
    const baseByKey = new Map(baseline.gates.map((g) => [gateKey(g.file, g.id), g]));
    const { weakened } = compareWithBaseline(baseline.gates, now);
    if (weakened.length === 0) continue;
    perFile.set(name, weakened);
    for (const w of weakened) {
      const label = `${ledgerStem(w.file ?? w.baseFile)}:${w.id}`;
      const lines = detail(w, baseByKey.get(gateKey(w.baseFile, w.id)), cut);
      const key = `${label}\u0000${lines.join('\u0000')}`;
      if (!listed.has(key)) listed.set(key, [`${sanitizeLine(label, 200)} (${sanitizeLine(w.file ?? w.baseFile, 200)}): ${describeWeakening(w)}`, ...lines.map((l) => `    ${l}`)]);
    }
  }
  if (perFile.size === 0) {
    io.stdout(`no gate of ${where} was weakened since a Stop-hook session began; nothing to approve\n`);
    return 0;
  }
  const count = listed.size;
  if (!io.interactive()) {
    throw new UsageError(
      `hook accept asks a person to confirm on a terminal, and this is not one (${count} weakened gate${count === 1 ? '' : 's'} in ${where})`,
      'run it yourself in a terminal, after reading the changes (`gate-check diff` shows them against a revision)',
    );
  }
  const refusal = approvalRefusal(io.env, systemProbe(io.env));
  if (refusal !== null) throw new UsageError(refusal.replace(/^--approve refused/, 'hook accept refused'), 'a person approves by running gate-check hook accept in a terminal of their own');

  io.stdout(`These gates of ${where} were weakened since a Stop-hook session began; the hook keeps them open until a person approves:\n`);
  for (const lines of listed.values()) io.stdout(`  ${lines.join('\n  ')}\n`);
  // As on the approval screen: what the screen could not show in full is not accepted by a keystroke.
  if (cut.length > 0) {
    throw new UsageError(
      `hook accept cannot show ${[...new Set(cut)].join(', ')} in full (over ${VALUE_CAP} characters as shown), so it does not ask: nothing was approved`,
      'read the ledger, shorten the value (or put back the old definition), then run hook accept again',
    );
  }
  const answer = ((await io.ask('approve these definitions as the new baseline of every session? [y/N] ')) ?? '').trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes') {
    io.stdout('nothing changed\n');
    return 1;
  }
  const lockMs = lockTimeoutFromEnv(io.env);
  for (const [name, weakened] of perFile) {
    await updateBaselineFile(locations, root, name, null, lockMs, (previous) => {
      // Mutation note: only a race reaches it (the baseline removed since it was listed); without
      // it that race is an internal error (exit 2) instead of nothing written: closed either way.
      if (previous === null) return null;
      const drop = new Set<string>();
      const put: BaselineGate[] = [];
      for (const w of weakened) {
        drop.add(gateKey(w.baseFile, w.id));
        if (w.file !== null) {
          drop.add(gateKey(w.file, w.id));
          const g = nowByKey.get(gateKey(w.file, w.id));
          // The definition it replaces stays good to go back to (round-41a F9).
          const was = previous.gates.find((b) => b.file === w.baseFile && b.id === w.id);
          const earlier = [...new Set([...(was?.earlier ?? []), ...(was?.def ? [was.def] : [])])].filter((d) => d !== g?.def).slice(-MAX_EARLIER);
          if (g !== undefined) put.push(g.kind === 'runnable' && earlier.length > 0 ? { ...g, earlier } : g);
        }
      }
      return { ...previous, gates: [...previous.gates.filter((g) => !drop.has(gateKey(g.file, g.id))), ...put] };
    });
  }
  io.stdout(`approved ${count} gate${count === 1 ? '' : 's'} of ${where}: the Stop hook now holds their current definitions as the baseline\n`);
  return 0;
}
