// The Stop hook's decision, independent of the host that asks: may the agent stop now? The
// host's adapter (host-*.ts) turns its payload into a StopEvent and the decision into its
// answer format; this module never sees either.
//
// Block while any gate is open in the strict view, any gate was weakened since the session's
// baseline (issue 12 §4), or any dispatch wave is open or sealed (issue 12 §3); fail closed when
// the gates, the waves or the baseline cannot be read, when a remembered ledger is gone, when
// verification cannot finish within the deadline, on a payload that does not match the host,
// and on any unexpected error. Never execute a CHECK, approve, or write the ledger. After
// MAX_NO_PROGRESS consecutive blocks without semantic progress, release, saying so; let the
// stop through (with a note) while the host says background work will wake the session.
import { hookInvocationWords } from '../program/invocation.js';
import { isPrintableWord, shellCommand, shellQuote } from '../text/shell-quote.js';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { realpathSync } from 'node:fs';
import type { Io } from '../program/io.js';
import { readOnlyContext, verifyMetGates, type GateEntry } from '../evidence/verify-met.js';
import { mayHaveDispatchState } from '../dispatch/location.js';
import type { DispatchState } from '../dispatch/state.js';
import { DeadlineError, GateCheckError, LockTimeoutError, ParseError } from '../errors.js';
import { isInside, resolveRoot } from '../fsx/discover.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { sha256Hex } from '../oracle/oracle.js';
import { gateReport, strictlyMet, type GateReport } from '../report/model.js';
import { loadStatCache, saveStatCache } from '../store/stat-cache-file.js';
import { storeLocations, type StoreLocations } from '../store/locations.js';
import { markdownCode, markdownText } from '../text/markdown-code.js';
import { sanitizeLine } from '../text/sanitize.js';
import { ledgerBudget, ledgerStem, type Workspace } from '../workspace/load.js';
import { Deadline, hookDeadlineMs } from './deadline.js';
import { hasLedgerMarker, holdsOnlyTheStore, sessionRoots, startDirectories, startDirectory, type SessionRoots } from './find-root.js';
import { HOOK_LEDGER_BYTES, loadHookLedgers, scopeOf } from './hook-ledgers.js';
import { readLedgerMemory, writeLedgerMemory } from './ledger-memory.js';
import { readRepositoryRoots, rememberRepositoryRoots } from './repository-roots.js';
import { bindingCheckout, bindingsAnywhere, readBinding, scopesBoundAnywhere } from './scope-binding.js';
import { baselineOwners, extendBaselines, readBaselines, type Baseline } from './session-baseline.js';
import { ownersFromRecords, readSessionRepositories, rememberSessionRepositories } from './session-repositories.js';
import { resetStopState, updateStopState } from './stop-state.js';
import type { HostAdapter, StopDecision, StopEvent, StopRequest } from './stop-types.js';
import { compareWithBaseline, describeWeakening, gateKey, projectGate, type BaselineGate, type Weakening } from './weakening.js';

export type { StopDecision } from './stop-types.js';

/** Consecutive blocks without semantic progress before the hook lets the session stop: below every host's own cap (Claude Code and Copilot end a turn after 8). */
export const MAX_NO_PROGRESS = 6;
/** Stops without progress that pending background work lets through before the hook holds them again. */
export const MAX_PENDING_ALLOWANCES = 3;
/** Every reason and message is at most this many characters (sanitized). */
export const REASON_CAP = 2000;
const MAX_IDS = 5;
const ITEM_CAP = 200;

/**
 * A block carries a summary of what is open (for the release and the background-work notes)
 * and a fingerprint (progress means it changed).
 */
type Verdict = { block: string; summary: string; fingerprint: string } | { allow: string | null; fingerprint: string | null };

/** A sub-agent's stop routed to one scope (`gate-check hook bind`), read in `roots` (the first is `root`). */
interface Bound {
  root: string;
  scope: string;
  roots: string[];
}

/** One directory whose ledgers or waves hold the session. */
interface Held {
  root: string;
  /** How its ids are prefixed: null for the session's repository itself. */
  prefix: string | null;
  ws: Workspace | null;
  /** Ledgers remembered with open gates (null: nothing remembered). */
  remembered: string[] | null;
  waves: DispatchState[];
  /** The session's baselines of this directory's gates, one per name it has (none: this is the session's first look). */
  baselines: Baseline[];
  /** Its places in the repositories the session was seen in whose records list it (session-repositories.ts). */
  also: string[];
}

function openLabel(g: GateReport): string {
  if (g.state === 'met') return `${g.verification ?? 'not verified'}${g.verificationReason ? `: ${g.verificationReason}` : ''}`;
  if (g.state === 'claimed') return `claimed: ${g.stateReason ?? 'ticked without evidence'}`;
  return 'unchecked';
}

/** At most MAX_IDS items, each capped, so the count and the next steps always fit. */
function capList(items: readonly string[]): string {
  const shown = items.slice(0, MAX_IDS).map((i) => markdownText(sanitizeLine(i, ITEM_CAP)));
  return items.length > MAX_IDS ? `${shown.join('; ')} (+${items.length - MAX_IDS} more)` : shown.join('; ');
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

// The hook cannot tell which gates are approved for the agent's shell (an approval binds its
// PATH and environment, not the host's), so it names both steps: a plain run re-runs what is
// approved without anyone, and prints what needs a person.
/** Where open runnable gates are: a repository named with --root (null: the plain run's), a scope named with --scope (null: the root ledgers). */
interface RunTarget {
  root: string | null;
  scope: string | null;
}

/**
 * What to run next, once per target (none: a plain run). A repository is named with --root when
 * the session holds more than one (a package with its own GATES.md inside a repository: a plain
 * run from the package finds only the package's ledger); a scope with --scope, since a run of
 * the root ledgers never runs another scope's gates (round-41a F2).
 */
function nextSteps(start: readonly string[], targets: readonly RunTarget[]): string {
  // A word that cannot be shown faithfully (a control character in a path) is named, not printed.
  const shown = (w: string) => (isPrintableWord(w) ? shellQuote(w) : '<a path that cannot be shown>');
  const command = (...words: string[]) => markdownCode(shellCommand([...start, ...words]) ?? ['gate-check', ...words.map(shown)].join(' '));
  const at = targets.length === 0 ? [[]] : targets.map((t) => [...(t.root === null ? [] : ['--root', t.root]), ...(t.scope === null ? [] : ['--scope', t.scope])]);
  const run = at.map((w) => command(...w)).join(' and ');
  const approve = at.map((w) => command('--approve', ...w)).join(' and ');
  return `Next: run ${run}: ${at.length === 1 ? 'it re-runs' : 'each re-runs'} every approved gate that is not verified (stale INPUTS and unverified evidence need no new approval; a changed DEPENDS file, definition or executable in a PATH folder of the repository does) and prints each command that still needs a person's approval, running none of those; ask your user to review those and run ${approve}. Write \`ABANDON: ID reason\` only for a gate that is truly impossible.`;
}

function releaseText(summary: string): string {
  return `gate-check: released: ${summary}. The hook let the agent stop after ${MAX_NO_PROGRESS} stops without progress; a person needs to look at this.`;
}

/** Qualified ids that stay unambiguous when a root ledger and a scope ledger share a name. */
function disambiguate(gates: GateReport[]): void {
  const stems = new Map<string, Set<string>>();
  for (const g of gates) {
    const stem = g.qualified.slice(0, g.qualified.length - g.id.length - 1);
    stems.set(stem, (stems.get(stem) ?? new Set()).add(g.file));
  }
  for (const g of gates) {
    const stem = g.qualified.slice(0, g.qualified.length - g.id.length - 1);
    if ((stems.get(stem)?.size ?? 0) > 1) g.qualified = `${g.file}:${g.id}`;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * What find-root.ts finds from the project directory the host names (a session started in a
 * package of a monorepo is held by the repository's ledgers too, as `--status --strict` there
 * would be) and from each of the session's directories.
 */
function sessionCandidates(event: StopEvent, io: Io): SessionRoots {
  const project = event.projectDir;
  // The project directory as the file system resolves it and as written, as the session's
  // directory is (startDirectories): a repository renamed and linked back under its old name
  // must not leave its memory and baseline behind (round-23 F1).
  // A link to the repository is a project directory too (round-24 F4: a link without a trailing
  // slash fell back to the cwd); the cwd is searched as well: checking more only adds gates (F6).
  // A project directory that is gone is searched as written too: its memory says what it held
  // (round-25 F1: moved away, with the cwd elsewhere, the stop was let through).
  const starts = project !== null && isAbsolute(project) && !project.includes('\0') ? [project, ...event.cwds] : event.cwds;
  const all = starts.flatMap((cwd) => startDirectories(cwd, io.cwd).map(sessionRoots));
  if (all.length === 1) return all[0]!;
  const candidates: string[] = [];
  for (const r of all) for (const c of r.candidates) if (!candidates.includes(c)) candidates.push(c);
  return { gitTop: all.find((r) => r.gitTop !== null)?.gitTop ?? null, candidates };
}

function errorVerdict(e: unknown, where: string): Verdict | null {
  if (e instanceof ParseError) {
    const errs = e.diagnostics.slice(0, 3).map((d) => sanitizeLine(`${d.file ?? ''}${d.line ? `:${d.line}` : ''}: ${d.message}`, ITEM_CAP));
    const more = e.diagnostics.length > 3 ? ` (+${e.diagnostics.length - 3} more)` : '';
    const problem = `${where}the ledger does not parse: ${errs.join('; ')}${more}`;
    return {
      block: `gate-check: ${problem.replace('does not parse:', 'does not parse, so no gate can be checked:')}. Fix the ledger (see \`gate-check --status\`).`,
      summary: problem,
      fingerprint: `error:${sha256Hex(e.message + errs.join())}`,
    };
  }
  if (e instanceof GateCheckError && !(e instanceof DeadlineError)) {
    const problem = `${where}cannot read the gates (${sanitizeLine(e.message, ITEM_CAP)})`;
    return { block: `gate-check: ${problem}; fix this before stopping.`, summary: problem, fingerprint: `error:${sha256Hex(e.message)}` };
  }
  return null;
}

function refusalVerdict(problem: string, host: HostAdapter): Verdict {
  const said = sanitizeLine(problem, 400);
  return {
    block:
      `gate-check: ${said}. This hook is installed as \`gate-check hook stop --host ${host.name}\` (${host.title}), so no gate was checked and the stop is not let through. ` +
      'If another host runs this hook, install the hook for that host instead (see `gate-check hook stop --help`).',
    summary: `the hook input could not be used (${said})`,
    fingerprint: `refused:${sha256Hex(problem)}`,
  };
}

/** ` (for example `git checkout -- 'path'`)`, shell-quoted, or nothing for a path that cannot be shown as the shell gets it. */
function restoreExample(display: string): string {
  const command = shellCommand(['git', 'checkout', '--', display]);
  return command === null ? '' : ` (for example ${markdownCode(command)})`;
}

function goneVerdict(held: readonly Held[], primary: string): Verdict | null {
  const gone: string[] = [];
  let where = '';
  for (const h of held) {
    if (h.remembered === null) continue;
    const present = new Set(h.ws?.ledgers.map((l) => l.location.display) ?? []);
    for (const display of h.remembered) {
      if (!present.has(display)) {
        gone.push(h.prefix === null ? display : `${h.prefix}/${display}`);
        // A root below the primary one is forgotten from there (its folder may be gone too).
        where ||= h.prefix !== null && !h.prefix.startsWith('/') ? primary : h.root;
      }
    }
  }
  if (gone.length === 0) return null;
  const list = capList(gone);
  const verb = gone.length === 1 ? 'it is' : 'they are';
  return {
    block:
      `gate-check: ${list} had open gates when the Stop hook last looked, and ${verb} gone (removed or moved). Restore ${gone.length === 1 ? 'it' : 'them'}${restoreExample(gone[0]!)}: removing or moving a ledger does not meet its gates. ` +
      `If a person retired ${gone.length === 1 ? 'it' : 'them'} on purpose, they run \`gate-check hook forget\` in ${markdownText(sanitizeLine(where, ITEM_CAP))}.`,
    summary: `${list} had open gates and ${verb} gone`,
    fingerprint: `error:ledger-gone:${sha256Hex(gone.sort().join('\n'))}`,
  };
}

function incompleteVerdict(gates: readonly GateReport[], why: string): Verdict {
  const met = gates.filter((g) => g.state === 'met');
  const done = met.filter((g) => g.verification !== null).length;
  const known = gates.filter((g) => g.state !== 'abandoned' && g.state !== 'met').map((g) => `${g.qualified} (${openLabel(g)})`);
  const open = known.length > 0 ? ` Not met so far: ${capList(known)}.` : '';
  return {
    block:
      `gate-check: verification was incomplete: ${why} after checking ${done} of ${met.length} met gate${met.length === 1 ? '' : 's'}, and a gate that is not verified is not met.${open} ` +
      'Run `gate-check --status --strict` to see every gate; if this keeps happening, fewer or smaller DEPENDS files make verification faster.',
    summary: `verification was incomplete (${why})${known.length > 0 ? `; not met so far: ${capList(known)}` : ''}`,
    // One fingerprint for every incomplete pass, however far it got: how far the deadline let a
    // pass go is no progress (on a loaded machine a pass that ran out while reading the ledgers,
    // with no gates, looked like progress and put the release off).
    fingerprint: 'incomplete',
  };
}

/** What the verdict is made of: open gates, weakened ones, open waves, hand-offs, and the progress fingerprint items. */
interface Tally {
  gates: string[];
  waves: string[];
  handoff: string[];
  /** Where a person accepts weakened gates (the first such directory), or null when none was weakened. */
  weakenedIn: string | null;
  /** Where the open runnable gates are, when a plain run would not reach them all (else empty). */
  targets: RunTarget[];
  /** Open runnable gates (not weakened): the ones a run of gate-check can help. */
  runnable: number;
  /** Open manual gates: only a person meets them. */
  manual: string[];
  fingerprint: string[];
}

function openVerdict(t: Tally, start: readonly string[]): Verdict {
  const handoffNote = t.handoff.length > 0 ? ` HANDOFF REQUIRED for ${capList(t.handoff)}: a person must take these over.` : '';
  const fingerprint = sha256Hex([...t.fingerprint].sort().join('\n'));
  const g = t.gates.length;
  const w = t.waves.length;
  if (g === 0 && w === 0) return { allow: handoffNote ? `gate-check:${handoffNote}` : null, fingerprint };
  const listed = capList([...t.gates, ...t.waves]);
  const gatesPart = g > 0 ? `${plural(g, 'gate', 'gates')} ${g === 1 ? 'is' : 'are'} not met` : '';
  const wavesPart = w > 0 ? `${plural(w, 'dispatch wave', 'dispatch waves')} ${w === 1 ? 'is' : 'are'} open` : '';
  const head = [gatesPart, wavesPart].filter((p) => p !== '').join(' and ');
  const weakenedNote =
    t.weakenedIn === null
      ? ''
      : ` A gate weakened since the session began stays open until its definition is put back, or a person approves the new one by running ${markdownCode(shellCommand([...start, 'hook', 'accept']) ?? 'gate-check hook accept')} on a terminal in ${markdownText(sanitizeLine(t.weakenedIn, ITEM_CAP))}.`;
  const manualNote =
    t.manual.length === 0
      ? ''
      : ` ${t.manual.length === 1 ? 'A manual gate' : 'Manual gates'} (${capList(t.manual)}) ${t.manual.length === 1 ? 'is' : 'are'} met only by a person: ask your user to check ${t.manual.length === 1 ? 'that outcome, tick it' : 'those outcomes, tick them'} and write the evidence (who checked what).`;
  const wavesNote = w > 0 ? ' A dispatch wave stays open until every leaf has started, the wave is sealed and every leaf has returned (`gate-check dispatch status`).' : '';
  const stillOpen = [g > 0 ? plural(g, 'gate', 'gates') : '', w > 0 ? plural(w, 'dispatch wave', 'dispatch waves') : ''].filter((p) => p !== '').join(' and ');
  return {
    block: `gate-check: ${head}: ${listed}.${t.runnable > 0 ? ` ${nextSteps(start, t.targets)}` : ''}${manualNote}${weakenedNote}${wavesNote}${handoffNote}`,
    summary: `${stillOpen} still open: ${listed}${handoffNote ? `;${handoffNote.replace(/\.$/, '')}` : ''}`,
    fingerprint,
  };
}

function prefixFor(root: string, primary: string): string | null {
  if (root === primary) return null;
  return isInside(primary, root) ? relative(primary, root) : root;
}

function withPrefix(prefix: string | null, item: string): string {
  return prefix === null ? item : `${prefix}/${item}`;
}

/** Root of the dispatch store's key: the repository's canonical root, as `gate-check dispatch` computes it. */
function dispatchRoot(root: string, ws: Workspace | null, cwd: string): string {
  if (ws !== null) return ws.root.path;
  try {
    return resolveRoot(root, cwd).path;
  } catch {
    return root;
  }
}

async function loadWaves(locations: StoreLocations, root: string, bound: Bound | null): Promise<DispatchState[]> {
  if (!mayHaveDispatchState(locations, root)) return [];
  const { loadAllDispatchStates } = await import('../dispatch/store.js');
  const states = loadAllDispatchStates(locations, root); // an invalid state throws: it blocks
  return bound === null ? states : states.filter((s) => s.scope === bound.scope);
}

function inScope(display: string, bound: Bound | null): boolean {
  return bound === null || display.startsWith(`.gate-check/${bound.scope}/`);
}

interface Gathered {
  primary: string;
  held: Held[];
  /** Something that cannot be read: the verdict, whatever the rest holds. */
  unreadable: Verdict | null;
  /** The repositories the session was seen in before this stop. */
  repositories: string[];
}

/** Loads every candidate's ledgers, waves, baseline and memory (only the bound scope's, for a bound sub-agent). */
async function gather(found: SessionRoots, session: string, bound: Bound | null, io: Io, locations: StoreLocations, checkpoint: () => void): Promise<Gathered> {
  const store = canonical(locations.base);
  const loaded: Array<Omit<Held, 'prefix'>> = [];
  let unreadable: Verdict | null = null;
  let unreadableRoot: string | null = null;
  // One budget for every ledger of every repository this call reads: any number of files at
  // the per-file limit would otherwise outlast the deadline the host waits for.
  const budget = ledgerBudget(HOOK_LEDGER_BYTES, checkpoint);
  let repositories: string[] = [];
  try {
    repositories = readSessionRepositories(locations, session, found.gitTop ?? found.candidates[0]!);
  } catch (e) {
    unreadable = errorVerdict(e, '');
    if (unreadable === null) throw e;
    return { primary: found.gitTop ?? found.candidates[0]!, held: [], unreadable, repositories };
  }
  for (const root of found.candidates) {
    checkpoint();
    // A directory that holds the private store is not a repository (every command refuses
    // to use a store inside its repository); only the session's own repository goes on to fail closed.
    if (holdsOnlyTheStore(root, found, store)) continue;
    let ws: Workspace | null = null;
    let waves: DispatchState[] = [];
    let baselines: Baseline[] = [];
    let also: string[] = [];
    try {
      if (hasLedgerMarker(root)) ws = loadHookLedgers(root, io.cwd, checkpoint, budget);
      if (ws !== null && bound !== null) {
        const ledgers = ws.ledgers.filter((l) => scopeOf(l) === bound.scope);
        ws = ledgers.length > 0 ? { ...ws, ledgers } : null;
      }
      waves = await loadWaves(locations, dispatchRoot(root, ws, io.cwd), bound);
      // Read even when no ledger is left: deleting every ledger removes every gate of the baseline.
      also = ownersFromRecords(repositories, root);
      baselines = readBaselines(locations, root, session, also);
      if (bound !== null) baselines = baselines.map((b) => ({ ...b, gates: b.gates.filter((g) => g.scope === bound.scope) }));
    } catch (e) {
      unreadable = errorVerdict(e, root === found.gitTop || found.gitTop === null ? '' : `in ${markdownText(sanitizeLine(root, ITEM_CAP))}: `);
      if (unreadable === null) throw e;
      unreadableRoot = root;
      break;
    }
    let remembered = readLedgerMemory(locations, root);
    if (remembered !== null && bound !== null) remembered = remembered.filter((d) => inScope(d, bound));
    if (ws !== null || (remembered !== null && remembered.length > 0) || waves.length > 0 || baselines.some((b) => b.gates.length > 0)) loaded.push({ root, ws, remembered, waves, baselines, also });
  }
  const primary = found.gitTop ?? unreadableRoot ?? loaded.find((l) => l.ws !== null)?.root ?? loaded[0]?.root ?? found.candidates[0]!;
  return { primary, held: loaded.map((l) => ({ ...l, prefix: prefixFor(l.root, primary) })), unreadable, repositories };
}

interface Context {
  session: string;
  bound: Bound | null;
  verifyBy: Deadline;
  lockTimeoutMs: number;
}

async function verdictFor(gathered: Gathered, io: Io, locations: StoreLocations, ctx: Context): Promise<Verdict> {
  const gone = goneVerdict(gathered.held, gathered.primary);
  if (gone !== null) return gone;
  const { verifyBy, lockTimeoutMs, bound } = ctx;
  const lockMs = () => Math.min(lockTimeoutMs, verifyBy.remaining() + 100);
  if (gathered.held.length === 0) {
    if (bound === null) return { allow: null, fingerprint: null };
    const problem = `this sub-agent is bound to scope ${bound.scope}, which has no ledger and no dispatch wave in ${markdownText(sanitizeLine(bound.root, ITEM_CAP))}`;
    return {
      block: `gate-check: ${problem}: nothing says its work is done. Write its gates in .gate-check/${bound.scope}/, or remove the binding (\`gate-check hook bind --session ID --remove\`).`,
      summary: problem,
      fingerprint: `bound-empty:${sha256Hex(bound.scope)}`,
    };
  }

  const perRoot = gathered.held.map((h) => {
    const entries: GateEntry[] = (h.ws?.ledgers ?? []).flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
    return { h, entries };
  });

  // Weakening since the session's baseline, before anything is hashed: it needs only the ledgers.
  const weakenedOf = new Map<Held, { present: Map<string, Weakening>; removed: Weakening[] }>();
  for (const { h, entries } of perRoot) {
    if (h.ws === null && h.baselines.length === 0) continue;
    verifyBy.check();
    const now: BaselineGate[] = entries.map((e) => projectGate(e.loaded.location.display, scopeOf(e.loaded), e.gate));
    // Weakened against any of the root's baselines (only the bound scope's gates, for a bound
    // sub-agent: gather): each is one name of it, and the agent can change all but the root's.
    const present = new Map<string, Weakening>();
    const removed = new Map<string, Weakening>();
    for (const b of h.baselines) {
      for (const w of compareWithBaseline(b.gates, now).weakened) {
        if (w.file === null) {
          if (!removed.has(gateKey(w.baseFile, w.id))) removed.set(gateKey(w.baseFile, w.id), w);
        } else if (!present.has(gateKey(w.file, w.id))) present.set(gateKey(w.file, w.id), w);
      }
    }
    weakenedOf.set(h, { present, removed: [...removed.values()] });
    try {
      if (!verifyBy.expired()) await extendBaselines(locations, h.root, ctx.session, now, h.baselines, lockMs(), new Date(), h.also);
    } catch (e) {
      // A busy baseline only delays when new gates join it (the next look adds them); it weakens nothing.
      if (!(e instanceof LockTimeoutError)) throw e;
    }
  }

  let incomplete: string | null = null;
  try {
    for (const { h, entries } of perRoot) {
      if (h.ws === null || !entries.some((e) => e.report.state === 'met')) continue;
      verifyBy.check();
      const vctx = readOnlyContext(h.ws, io);
      const saved = loadStatCache(locations, h.ws.root.path);
      vctx.resolver.useStatCache(saved.cache);
      vctx.resolver.setCheckpoint(verifyBy.check);
      try {
        await verifyMetGates(entries, vctx, verifyBy.check);
      } finally {
        // What was hashed before the deadline is worth keeping; a save is skipped when time is short.
        if (!verifyBy.expired()) saveStatCache(locations, h.ws.root.path, saved);
      }
    }
  } catch (e) {
    // Mutation note: equivalent in verdict (any other error, taken for a deadline, blocks as
    // "verification was incomplete" instead of naming it; the stop is held either way).
    if (!(e instanceof DeadlineError)) throw e;
    incomplete = e.message;
  }
  const complete = incomplete === null;

  const tally: Tally = { gates: [], waves: [], handoff: [], weakenedIn: null, targets: [], runnable: 0, manual: [], fingerprint: [] };
  const reports: GateReport[] = [];
  const openLedgers = new Map<Held, Set<string>>();
  // One repository reached under two names (a project directory that is a link, and its
  // target) is held by both, for their memories and baselines, but each gate counts once, in
  // its worst reading (weakened under one name's baseline, open, handed off, met).
  const manyRoots = new Set(perRoot.flatMap(({ h }) => (h.ws === null ? [] : [canonical(h.ws.root.path)]))).size > 1;
  const chosen = new Map<string, { rank: number; h: Held; e: GateEntry; w: Weakening | undefined }>();
  const realRoots = new Map<Held, string>();
  for (const { h, entries } of perRoot) {
    const realRoot = h.ws === null ? h.root : canonical(h.ws.root.path);
    realRoots.set(h, realRoot);
    const rootReports = entries.map((e) => e.report);
    disambiguate(rootReports);
    if (h.prefix !== null) for (const g of rootReports) g.qualified = `${h.prefix}/${g.qualified}`;
    const weak = weakenedOf.get(h);
    const open = new Set<string>();
    for (const e of entries) {
      const g = e.report;
      const key = gateKey(e.loaded.location.display, e.gate.id);
      const w = weak?.present.get(key);
      const isOpen = w !== undefined || (g.state !== 'abandoned' && !strictlyMet(g));
      if (isOpen) open.add(e.loaded.location.display);
      const rank = w !== undefined ? 3 : isOpen ? 2 : g.state === 'abandoned' ? 1 : 0;
      const was = chosen.get(`${realRoot}\0${key}`);
      if (was === undefined || rank > was.rank) chosen.set(`${realRoot}\0${key}`, { rank, h, e, w });
    }
    openLedgers.set(h, open);
  }
  // The scopes (null: the root ledgers) of each root's open runnable gates, for the next step.
  const openScopes = new Map<Held, Set<string | null>>();
  for (const { h, e, w } of chosen.values()) {
    const g = e.report;
    reports.push(g);
    if (e.gate.kind === 'runnable' && (w !== undefined || (g.state !== 'abandoned' && !strictlyMet(g)))) {
      openScopes.set(h, (openScopes.get(h) ?? new Set()).add(scopeOf(e.loaded)));
    }
    if (w !== undefined) {
      tally.gates.push(`${g.qualified} (weakened since the session began: ${describeWeakening(w)}: a person must approve)`);
      // Open, as far as progress goes: weakening a gate is no step towards done.
      tally.fingerprint.push(`${g.qualified}=open`);
      tally.weakenedIn ??= h.root;
    } else if (g.state === 'abandoned') {
      tally.handoff.push(g.qualified);
      tally.fingerprint.push(`${g.qualified}=abandoned`);
    } else if (strictlyMet(g)) {
      tally.fingerprint.push(`${g.qualified}=met`);
    } else {
      tally.gates.push(`${g.qualified} (${openLabel(g)})`);
      tally.fingerprint.push(`${g.qualified}=open`);
      if (e.gate.kind === 'manual') tally.manual.push(g.qualified);
      else tally.runnable += 1;
    }
  }
  const rootsNamed = new Set<string>();
  const primaryReal = canonical(gathered.primary);
  for (const { h } of perRoot) {
    for (const w of weakenedOf.get(h)?.removed ?? []) {
      const name = withPrefix(h.prefix, `${ledgerStem(w.baseFile)}:${w.id}`);
      tally.gates.push(`${name} (weakened since the session began: removed: a person must approve)`);
      tally.fingerprint.push(`${name}=open`);
      tally.weakenedIn ??= h.root;
    }
    if (h.waves.length > 0) {
      const { wavesVerdict, wavesFingerprint } = await import('../dispatch/verdict.js');
      for (const state of h.waves) {
        const v = wavesVerdict(state);
        for (const label of v.open) tally.waves.push(withPrefix(h.prefix, `${state.scope}/${label}`));
        for (const label of v.handoff) tally.handoff.push(withPrefix(h.prefix, `${state.scope}/${label}`));
        for (const item of wavesFingerprint(state)) tally.fingerprint.push(withPrefix(h.prefix, item));
      }
    }
    // Named with --root when the session holds more than one root, or this one is not the
    // repository's top level (a plain run there would not find this ledger); once per repository.
    const realRoot = realRoots.get(h)!;
    const named = (openLedgers.get(h)?.size ?? 0) > 0 && (manyRoots || realRoot !== primaryReal);
    if (!rootsNamed.has(realRoot) && (named || [...(openScopes.get(h) ?? [])].some((sc) => sc !== null))) {
      rootsNamed.add(realRoot);
      const scopes = [...(openScopes.get(h) ?? [null])].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0));
      for (const scope of scopes) tally.targets.push({ root: named ? h.root : null, scope });
    }
  }

  // Remember the ledgers that have open gates (on an incomplete pass: every ledger, and what was
  // remembered). A bound sub-agent sees only its scope, so it leaves the memory as it is.
  if (bound === null) {
    for (const { h, entries } of perRoot) {
      if (h.ws === null) continue;
      const open = new Set<string>(complete ? [] : (h.remembered ?? []));
      for (const display of openLedgers.get(h) ?? []) open.add(display);
      if (!complete) for (const e of entries) open.add(e.loaded.location.display);
      await writeLedgerMemory(locations, h.root, [...open], h.remembered, lockMs());
    }
  }
  return complete ? openVerdict(tally, hookInvocationWords(io.env, process.argv[1], process.execPath, primaryReal)) : incompleteVerdict(reports, incomplete!);
}

/** The ids a sub-agent's stop may be bound by: its agent id's binding first, then its session's. */
function bindingIds(event: StopEvent): string[] {
  return [event.subagent?.agentId ?? null, event.sessionId].filter((id): id is string => id !== null);
}

/** The bound scope of a sub-agent's stop: its agent id's binding, else its session's, in the nearest candidate that has one. */
function findBinding(locations: StoreLocations, found: SessionRoots, event: StopEvent): Bound | null {
  const ids = bindingIds(event);
  const store = canonical(locations.base);
  for (const root of found.candidates) {
    // As in gather(): a directory that holds the private store is not a repository.
    if (holdsOnlyTheStore(root, found, store)) continue;
    for (const id of ids) {
      const scope = readBinding(locations, root, id);
      if (scope !== null) return { root, scope, roots: [root] };
    }
  }
  return null;
}

/**
 * A sub-agent bound in some repository, stopping in a folder that no binding names but that
 * holds the bound scope: a checkout whose `.git` was moved away (round-39t T3) is read as bound
 * to that scope, the nearest candidate first (`scope`: only that one; else any its ids are
 * bound to). A folder without the scope keeps the rule for an unbound sub-agent (the main
 * agent's stop answers for it).
 */
function findUnnamedBinding(locations: StoreLocations, found: SessionRoots, event: StopEvent, scope: string | null): Bound | null {
  const store = canonical(locations.base);
  const roots = found.candidates.filter((root) => !holdsOnlyTheStore(root, found, store));
  if (roots.length === 0) return null;
  const scopes = scope !== null ? [scope] : [...new Set(bindingIds(event).flatMap((id) => scopesBoundAnywhere(locations, roots[0]!, id)))];
  for (const root of roots) for (const s of scopes) if (lstatOrNull(join(root, '.gate-check', s)) !== null) return { root, scope: s, roots: [root] };
  return null;
}

/**
 * The binding of a sub-agent's stop. Its own folders first: in a worktree of the project its
 * work is there, not in the project directory's checkout (round-39t T2). Else a folder of its
 * own that only holds the bound scope (T3), read together with the project directory's bound
 * checkout when there is one: a copy of the scope made outside the repository only adds what
 * it holds, and never stands in for the repository's (round-39v V3).
 */
function subagentBinding(locations: StoreLocations, found: SessionRoots, event: StopEvent, io: Io): Bound | null {
  const own = event.projectDir === null ? found : sessionCandidates({ ...event, projectDir: null }, io);
  const bound = findBinding(locations, own, event);
  if (bound !== null) return bound;
  const project = event.projectDir === null ? null : findBinding(locations, found, event);
  const unnamed = findUnnamedBinding(locations, own, event, project?.scope ?? null);
  if (unnamed === null) return project;
  // Read with it: the project directory's bound checkout, else the main checkout of each
  // repository where its ids are bound to that scope (round-39w W4: a ticked clone, on a host
  // that names no project directory, stood in for the repository's open copy).
  const alongside = project !== null ? [project.root] : bindingIds(event).flatMap((id) => bindingsAnywhere(locations, unnamed.root, id).filter((b) => b.scope === unnamed.scope).map((b) => bindingCheckout(b.repository) ?? ''));
  const roots = [...new Set([unnamed.root, ...alongside.filter((r) => r !== '' && lstatOrNull(r)?.isDirectory())])];
  return { ...unnamed, roots };
}

function pendingText(p: StopEvent['pending']): string | null {
  const parts: string[] = [];
  if (p.backgroundTasks > 0) parts.push(plural(p.backgroundTasks, 'background task', 'background tasks'));
  if (p.sessionCrons > 0) parts.push(plural(p.sessionCrons, 'scheduled session prompt', 'scheduled session prompts'));
  if (parts.length === 0) return null;
  const many = p.backgroundTasks + p.sessionCrons > 1;
  return `${parts.join(' and ')} ${many ? 'are' : 'is'} pending (the session wakes again when ${many ? 'they finish' : 'it finishes'}, and the hook looks again then)`;
}

async function counted(verdict: Verdict, root: string, session: string, pending: string | null, locations: StoreLocations, lockMs: number): Promise<StopDecision> {
  if ('allow' in verdict) {
    if (verdict.fingerprint !== null) await resetStopState(locations, root, session, lockMs, verdict.fingerprint);
    return { kind: 'allow', message: verdict.allow };
  }
  // Every block is counted, errors included, so that no block holds a session forever; so is
  // a stop let through for pending work, which the session itself can create (a background
  // `tail -f /dev/null`): it is let through only while the count is low.
  const state = await updateStopState(locations, root, session, lockMs, (prev) =>
    prev && prev.fingerprint === verdict.fingerprint ? { fingerprint: verdict.fingerprint, blocks: prev.blocks + 1 } : { fingerprint: verdict.fingerprint, blocks: 1 },
  );
  if (pending !== null && state.blocks <= MAX_PENDING_ALLOWANCES) return { kind: 'allow', message: `gate-check: not holding this stop while ${pending}; ${verdict.summary}.` };
  if (state.blocks > MAX_NO_PROGRESS) return { kind: 'allow', message: releaseText(verdict.summary) };
  if (pending !== null) {
    return { kind: 'block', reason: `${verdict.block} (Background work is pending, but the last ${MAX_PENDING_ALLOWANCES} stops were let through for it without progress on the gates.)` };
  }
  return { kind: 'block', reason: verdict.block };
}

async function decide(request: StopRequest, host: HostAdapter, io: Io, deadline: Deadline): Promise<StopDecision> {
  const locations = storeLocations(io.env);
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  // The counter waits for its lock only as long as the answer can still be given in time.
  const lockMs = () => Math.min(lockTimeoutMs, Math.max(0, deadline.remaining() - 200));
  if (!request.ok) {
    // Counted in the hook's own directory, for no session: a refusal must not hold anyone forever either.
    const start = startDirectory(null, io.cwd);
    return counted(refusalVerdict(request.problem, host), sessionRoots(start).gitTop ?? start, 'unknown', null, locations, lockMs());
  }
  const event = request.event;
  if (event.letThrough !== null) return { kind: 'allow', message: null };
  const verifyBy = deadline.forVerifying();
  const pending = pendingText(event.pending);
  let found = sessionCandidates(event, io);
  let bound: Bound | null = null;
  // A sub-agent's stops are counted apart from its parent's.
  const counter = event.subagent === null ? event.sessionId : `${event.sessionId}\u0000agent\u0000${event.subagent.agentId ?? ''}`;
  if (event.subagent !== null) {
    try {
      bound = subagentBinding(locations, found, event, io);
    } catch (e) {
      const verdict = errorVerdict(e, '');
      // Mutation note: equivalent in verdict (a null verdict fails in counted(), and the
      // catch-all blocks the stop as it does for the error rethrown here).
      if (verdict === null) throw e;
      return counted(verdict, found.gitTop ?? found.candidates[0]!, counter, pending, locations, lockMs());
    }
    // Not bound to a scope: the main agent's stop answers for every gate.
    if (bound === null) return { kind: 'allow', message: null };
    found = { gitTop: bound.root, candidates: bound.roots };
  }
  // The roots below the top level whose ledgers held a session before, wherever this one stands
  // (round-21 F1), read for every directory on the way up, not only the top level found now: a
  // `.git` made unreadable for a moment must not hide them (round-22 F1).
  let knownRoots: string[] = [];
  if (bound === null) {
    const remembered: string[] = [];
    // Every directory above each candidate: a nested `.git` planted below a broken one must not hide it either.
    const above = new Set<string>();
    for (const c of found.candidates) for (let d = c; !above.has(d); d = dirname(d)) above.add(d);
    const store = canonical(locations.base);
    try {
      for (const dir of above) {
        // As in gather(): a directory that holds the private store is not a repository.
        if (holdsOnlyTheStore(dir, found, store)) continue;
        const roots = readRepositoryRoots(locations, dir);
        if (dir === found.gitTop) knownRoots = roots;
        remembered.push(...roots);
      }
    } catch (e) {
      const verdict = errorVerdict(e, '');
      // Mutation note: equivalent in verdict (a null verdict fails in counted(), and the
      // catch-all blocks the stop as it does for the error rethrown here).
      if (verdict === null) throw e;
      return counted(verdict, found.gitTop ?? found.candidates[0]!, counter, pending, locations, lockMs());
    }
    const missing = [...new Set(remembered)].filter((r) => !found.candidates.includes(r));
    if (missing.length > 0) found = { ...found, candidates: [...found.candidates, ...missing] };
  }
  let gathered: Gathered;
  try {
    gathered = await gather(found, event.sessionId, bound, io, locations, verifyBy.check);
  } catch (e) {
    if (!(e instanceof DeadlineError)) throw e;
    gathered = { primary: found.gitTop ?? found.candidates[0]!, held: [], unreadable: incompleteVerdict([], e.message), repositories: [] };
  }
  if (bound === null && gathered.unreadable === null) {
    try {
      const owners = gathered.held.flatMap((h) => baselineOwners(h.root));
      await rememberSessionRepositories(locations, event.sessionId, gathered.repositories, owners, found.gitTop ?? found.candidates[0]!, lockMs());
    } catch (e) {
      // A busy list only delays when a repository joins it (the next stop adds it); it hides nothing now.
      if (!(e instanceof LockTimeoutError)) {
        const verdict = errorVerdict(e, '');
        if (verdict === null) throw e;
        return counted(verdict, gathered.primary, counter, pending, locations, lockMs());
      }
    }
  }
  if (bound === null && found.gitTop !== null) {
    try {
      await rememberRepositoryRoots(locations, found.gitTop, knownRoots, gathered.held.filter((h) => h.ws !== null).map((h) => h.root), lockMs());
    } catch (e) {
      // A busy list only delays when a root joins it (the next stop adds it); it hides nothing now.
      if (!(e instanceof LockTimeoutError)) throw e;
    }
  }
  let verdict: Verdict;
  try {
    verdict = gathered.unreadable ?? (await verdictFor(gathered, io, locations, { session: event.sessionId, bound, verifyBy, lockTimeoutMs }));
  } catch (e) {
    const v = e instanceof DeadlineError ? incompleteVerdict([], e.message) : null;
    // Mutation note: equivalent in verdict (a null verdict fails in counted(), and the
    // catch-all blocks the stop as it does for the error rethrown here).
    if (v === null) throw e;
    verdict = v;
  }
  return counted(verdict, gathered.primary, counter, pending, locations, lockMs());
}

function clean(decision: StopDecision): StopDecision {
  if (decision.kind === 'block') return { kind: 'block', reason: sanitizeLine(decision.reason, REASON_CAP) };
  return { kind: 'allow', message: decision.message === null ? null : sanitizeLine(decision.message, REASON_CAP) };
}

/**
 * The decision for one stop. Never throws: an unexpected error blocks, with the reason (an
 * error in the hook is not evidence that the work is done). Text is sanitized and capped.
 */
export async function decideStop(request: StopRequest, host: HostAdapter, io: Io): Promise<StopDecision> {
  const deadline = Deadline.fromProcessStart(hookDeadlineMs(io.env));
  try {
    return clean(await decide(request, host, io, deadline));
  } catch (e) {
    return clean({ kind: 'block', reason: `gate-check: the Stop hook could not check the gates (${e instanceof Error ? e.message : String(e)}). Fix this before stopping; \`gate-check --status --strict\` shows the gates.` });
  }
}
