// The Stop hook's decision, independent of the host that asks: may the agent stop now?
// Hosts differ in how they send the question and read the answer (claude-stop.ts is the
// Claude Code adapter); this module only needs the session's id and directory.
//
// Block while any gate is open in the strict view; fail closed when the gates cannot be
// read, when a remembered ledger is gone, when verification cannot finish within the
// deadline, and on any unexpected error. Never execute a CHECK, approve, or write the ledger.
// After MAX_NO_PROGRESS consecutive blocks without semantic progress, release.
import { readdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { Io } from '../cli/io.js';
import { readOnlyContext, verifyMetGates, type GateEntry } from '../commands/verification.js';
import { DeadlineError, GateCheckError, ParseError } from '../errors.js';
import { isInside } from '../fsx/discover.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { sha256Hex } from '../oracle/oracle.js';
import { gateReport, strictlyMet, type GateReport } from '../report/model.js';
import { loadStatCache, saveStatCache } from '../store/stat-cache-file.js';
import { storeLocations, type StoreLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { ledgerBudget, loadWorkspace, type LedgerBudget, type Workspace } from '../workspace/load.js';
import { Deadline, hookDeadlineMs } from './deadline.js';
import { hasLedgerMarker, sessionRoots, startDirectory } from './find-root.js';
import { readLedgerMemory, writeLedgerMemory } from './ledger-memory.js';
import { updateStopState } from './stop-state.js';

/** Ledger bytes one Stop-hook call reads, over every repository and scope: two ledgers at the per-file limit. */
export const HOOK_LEDGER_BYTES = 16 * 1024 * 1024;

/** Consecutive blocks without semantic progress before the hook lets the session stop. */
export const MAX_NO_PROGRESS = 6;
/** Every reason and message is at most this many characters (sanitized). */
export const REASON_CAP = 2000;
const MAX_IDS = 5;
const ITEM_CAP = 200;

export interface StopInput {
  /** The host's session id; 'unknown' when it sent none. */
  sessionId: string;
  /** The session's absolute working directory as the host reports it, or null. */
  cwd: string | null;
}

export type StopDecision = { kind: 'block'; reason: string } | { kind: 'allow'; message: string | null };

/** A block carries what to say when it is released instead (after MAX_NO_PROGRESS stops without progress). */
type Verdict = { block: string; release: string; fingerprint: string } | { allow: string | null; fingerprint: string | null };

/** One directory whose ledgers hold the session. */
interface Held {
  root: string;
  /** How its ids are prefixed: null for the session's repository itself. */
  prefix: string | null;
  ws: Workspace | null;
  /** Ledgers remembered with open gates (null: nothing remembered). */
  remembered: string[] | null;
}

/** Root ledgers plus every scope's: an empty or decoy scope directory hides nothing. */
function loadAll(root: string, cwd: string, checkpoint: () => void, budget: LedgerBudget): Workspace | null {
  const hasRootLedger = lstatOrNull(join(root, 'GATES.md')) !== null || lstatOrNull(join(root, 'gates')) !== null;
  const scopes: string[] = [];
  const scopeBase = join(root, '.gate-check');
  const st = lstatOrNull(scopeBase);
  if (st?.isDirectory()) {
    for (const e of readdirSync(scopeBase, { withFileTypes: true })) if (!e.name.startsWith('.')) scopes.push(e.name);
  } else if (st?.isSymbolicLink()) {
    loadWorkspace({ root, scope: 'x', files: [], cwd, budget }); // throws: symlinked .gate-check
  }
  const parts: Workspace[] = [];
  if (hasRootLedger) parts.push(loadWorkspace({ root, files: [], cwd, budget }));
  for (const scope of scopes.sort()) {
    checkpoint();
    const dir = lstatOrNull(join(scopeBase, scope));
    if (dir?.isDirectory() && readdirSync(join(scopeBase, scope)).some((n) => n.endsWith('.md') && !n.startsWith('.'))) {
      parts.push(loadWorkspace({ root, scope, files: [], cwd, budget }));
    } else if (!dir?.isDirectory()) {
      parts.push(loadWorkspace({ root, scope, files: [], cwd, budget })); // a symlinked scope throws
    }
  }
  if (parts.length === 0) return null;
  return { root: parts[0]!.root, explicit: false, ledgers: parts.flatMap((p) => p.ledgers), warnings: parts.flatMap((p) => p.warnings) };
}

function openLabel(g: GateReport): string {
  if (g.state === 'met') return `${g.verification ?? 'not verified'}${g.verificationReason ? `: ${g.verificationReason}` : ''}`;
  if (g.state === 'claimed') return `claimed: ${g.stateReason ?? 'ticked without evidence'}`;
  return 'unchecked';
}

/** At most MAX_IDS items, each capped, so the count and the next steps always fit. */
function capList(items: string[]): string {
  const shown = items.slice(0, MAX_IDS).map((i) => sanitizeLine(i, ITEM_CAP));
  return items.length > MAX_IDS ? `${shown.join('; ')} (+${items.length - MAX_IDS} more)` : shown.join('; ');
}

const NEXT_STEPS =
  'Next: run `gate-check --status` to see every gate. Checks run only after a person reviews and approves them, so ask your user to review and run `gate-check --approve`; once approved, `gate-check` runs them. Write `ABANDON: ID reason` only for a gate that is truly impossible.';

/** The strict view as an order-independent fingerprint: progress means it changed. */
function strictFingerprint(gates: readonly GateReport[]): string {
  const view = gates.map((g) => `${g.qualified}=${g.state === 'abandoned' ? 'abandoned' : strictlyMet(g) ? 'met' : 'open'}`).sort();
  return sha256Hex(view.join('\n'));
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

/** $CLAUDE_PROJECT_DIR when the host names the project; else what find-root.ts finds from the session's directory. */
function candidates(input: StopInput, io: Io): { gitTop: string | null; candidates: string[] } {
  const project = io.env.CLAUDE_PROJECT_DIR;
  if (project && isAbsolute(project) && !project.includes('\0') && lstatOrNull(project)?.isDirectory()) {
    const root = canonical(project);
    return { gitTop: root, candidates: [root] };
  }
  return sessionRoots(startDirectory(input.cwd, io.cwd));
}

function errorVerdict(e: unknown, where: string): Verdict | null {
  if (e instanceof ParseError) {
    const errs = e.diagnostics.slice(0, 3).map((d) => sanitizeLine(`${d.file ?? ''}${d.line ? `:${d.line}` : ''}: ${d.message}`, ITEM_CAP));
    const more = e.diagnostics.length > 3 ? ` (+${e.diagnostics.length - 3} more)` : '';
    const problem = `${where}the ledger does not parse: ${errs.join('; ')}${more}`;
    return {
      block: `gate-check: ${problem.replace('does not parse:', 'does not parse, so no gate can be checked:')}. Fix the ledger (see \`gate-check --status\`).`,
      release: `${problem}. A person needs to look at the ledger.`,
      fingerprint: `error:${sha256Hex(e.message + errs.join())}`,
    };
  }
  if (e instanceof GateCheckError && !(e instanceof DeadlineError)) {
    const problem = `${where}cannot read the gates (${sanitizeLine(e.message, ITEM_CAP)})`;
    return { block: `gate-check: ${problem}; fix this before stopping.`, release: `${problem}. A person needs to look at this.`, fingerprint: `error:${sha256Hex(e.message)}` };
  }
  return null;
}

function goneVerdict(held: readonly Held[]): Verdict | null {
  const gone: string[] = [];
  let where = '';
  for (const h of held) {
    if (h.remembered === null) continue;
    const present = new Set(h.ws?.ledgers.map((l) => l.location.display) ?? []);
    for (const display of h.remembered) {
      if (!present.has(display)) {
        gone.push(h.prefix === null ? display : `${h.prefix}/${display}`);
        where ||= h.root;
      }
    }
  }
  if (gone.length === 0) return null;
  const list = capList(gone);
  const verb = gone.length === 1 ? 'it is' : 'they are';
  return {
    block:
      `gate-check: ${list} had open gates when the Stop hook last looked, and ${verb} gone (removed or moved). Restore ${gone.length === 1 ? 'it' : 'them'} (for example \`git checkout -- ${sanitizeLine(gone[0]!, ITEM_CAP)}\`): removing or moving a ledger does not meet its gates. ` +
      `If a person retired ${gone.length === 1 ? 'it' : 'them'} on purpose, they run \`gate-check hook forget\` in ${sanitizeLine(where, ITEM_CAP)}.`,
    release: `${list} had open gates and ${verb} gone. A person needs to look at this.`,
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
    release: `verification was incomplete (${why}).${open} A person needs to look at these gates.`,
    fingerprint: `incomplete:${sha256Hex(gates.map((g) => g.qualified).sort().join('\n'))}`,
  };
}

function openVerdict(gates: readonly GateReport[]): Verdict {
  const open = gates.filter((g) => g.state !== 'abandoned' && !strictlyMet(g));
  const handoff = gates.filter((g) => g.state === 'abandoned').map((g) => g.qualified);
  const handoffNote = handoff.length > 0 ? ` HANDOFF REQUIRED for ${capList(handoff)}: a person must take these over.` : '';
  const fingerprint = strictFingerprint(gates);
  if (open.length === 0) return { allow: handoffNote ? `gate-check:${handoffNote}` : null, fingerprint };
  const listed = capList(open.map((g) => `${g.qualified} (${openLabel(g)})`));
  return {
    block: `gate-check: ${open.length} gate${open.length === 1 ? ' is' : 's are'} not met: ${listed}. ${NEXT_STEPS}${handoffNote}`,
    release: `still not met: ${listed}. A person needs to look at these gates.${handoffNote}`,
    fingerprint,
  };
}

function prefixFor(root: string, primary: string): string | null {
  if (root === primary) return null;
  return isInside(primary, root) ? relative(primary, root) : root;
}

interface Gathered {
  primary: string;
  held: Held[];
  /** A ledger that cannot be read: the verdict, whatever the rest holds. */
  unreadable: Verdict | null;
}

/** Loads every candidate's ledgers and memory. */
function gather(input: StopInput, io: Io, locations: StoreLocations, checkpoint: () => void): Gathered {
  const found = candidates(input, io);
  const store = canonical(locations.base);
  const loaded: Array<{ root: string; ws: Workspace | null; remembered: string[] | null }> = [];
  let unreadable: Verdict | null = null;
  let unreadableRoot: string | null = null;
  // One budget for every ledger of every repository this call reads: any number of files at
  // the per-file limit would otherwise outlast the deadline the host waits for.
  const budget = ledgerBudget(HOOK_LEDGER_BYTES, checkpoint);
  for (const root of found.candidates) {
    checkpoint();
    // A directory that holds the private store is not a repository (every command refuses
    // to use a store inside its repository); only the session's own repository goes on to fail closed.
    if (root !== found.gitTop && isInside(root, store)) continue;
    let ws: Workspace | null = null;
    if (hasLedgerMarker(root)) {
      try {
        ws = loadAll(root, io.cwd, checkpoint, budget);
      } catch (e) {
        unreadable = errorVerdict(e, root === found.gitTop || found.gitTop === null ? '' : `in ${sanitizeLine(root, ITEM_CAP)}: `);
        if (unreadable === null) throw e;
        unreadableRoot = root;
        break;
      }
    }
    const remembered = readLedgerMemory(locations, root);
    if (ws !== null || remembered !== null) loaded.push({ root, ws, remembered });
  }
  const primary = found.gitTop ?? unreadableRoot ?? loaded.find((l) => l.ws !== null)?.root ?? loaded[0]?.root ?? found.candidates[0]!;
  return { primary, held: loaded.map((l) => ({ ...l, prefix: prefixFor(l.root, primary) })), unreadable };
}

async function verdictFor(gathered: Gathered, io: Io, locations: StoreLocations, verifyBy: Deadline, lockTimeoutMs: number): Promise<Verdict> {
  const gone = goneVerdict(gathered.held);
  if (gone !== null) return gone;
  const withLedgers = gathered.held.filter((h): h is Held & { ws: Workspace } => h.ws !== null);
  if (withLedgers.length === 0) return { allow: null, fingerprint: null };

  const perRoot = withLedgers.map((h) => {
    const entries: GateEntry[] = h.ws.ledgers.flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
    return { h, entries };
  });
  let incomplete: string | null = null;
  try {
    for (const { h, entries } of perRoot) {
      if (!entries.some((e) => e.report.state === 'met')) continue;
      verifyBy.check();
      const ctx = readOnlyContext(h.ws, io);
      const saved = loadStatCache(locations, h.ws.root.path);
      ctx.resolver.useStatCache(saved.cache);
      ctx.resolver.setCheckpoint(verifyBy.check);
      try {
        await verifyMetGates(entries, ctx, verifyBy.check);
      } finally {
        // What was hashed before the deadline is worth keeping; a save is skipped when time is short.
        if (!verifyBy.expired()) saveStatCache(locations, h.ws.root.path, saved);
      }
    }
  } catch (e) {
    if (!(e instanceof DeadlineError)) throw e;
    incomplete = e.message;
  }
  const complete = incomplete === null;

  const gates: GateReport[] = [];
  for (const { h, entries } of perRoot) {
    const reports = entries.map((e) => e.report);
    disambiguate(reports);
    if (h.prefix !== null) for (const g of reports) g.qualified = `${h.prefix}/${g.qualified}`;
    for (const g of reports) gates.push(g);
  }

  // Remember the ledgers that have open gates (on an incomplete pass: every ledger, and what was remembered).
  for (const { h, entries } of perRoot) {
    const open = new Set<string>(complete ? [] : (h.remembered ?? []));
    for (const e of entries) {
      if (!complete || (e.report.state !== 'abandoned' && !strictlyMet(e.report))) open.add(e.loaded.location.display);
    }
    await writeLedgerMemory(locations, h.root, [...open], h.remembered, Math.min(lockTimeoutMs, verifyBy.remaining() + 100));
  }
  return incomplete === null ? openVerdict(gates) : incompleteVerdict(gates, incomplete);
}

async function decide(input: StopInput, io: Io, deadline: Deadline): Promise<StopDecision> {
  const locations = storeLocations(io.env);
  const verifyBy = deadline.forVerifying();
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  let gathered: Gathered;
  try {
    gathered = gather(input, io, locations, verifyBy.check);
  } catch (e) {
    if (!(e instanceof DeadlineError)) throw e;
    gathered = { primary: startDirectory(input.cwd, io.cwd), held: [], unreadable: incompleteVerdict([], e.message) };
  }
  const verdict = gathered.unreadable ?? (await verdictFor(gathered, io, locations, verifyBy, lockTimeoutMs));
  const root = gathered.primary;
  // The counter waits for its lock only as long as the answer can still be given in time.
  const lockMs = Math.min(lockTimeoutMs, Math.max(0, deadline.remaining() - 200));
  if ('allow' in verdict) {
    if (verdict.fingerprint !== null) await updateStopState(locations, root, input.sessionId, lockMs, () => ({ fingerprint: verdict.fingerprint!, blocks: 0 }));
    return { kind: 'allow', message: verdict.allow };
  }
  // Every block is counted, errors included, so that no block holds a session forever.
  const state = await updateStopState(locations, root, input.sessionId, lockMs, (prev) =>
    prev && prev.fingerprint === verdict.fingerprint ? { fingerprint: verdict.fingerprint, blocks: prev.blocks + 1 } : { fingerprint: verdict.fingerprint, blocks: 1 },
  );
  if (state.blocks > MAX_NO_PROGRESS) {
    return { kind: 'allow', message: `gate-check: released after ${MAX_NO_PROGRESS} stops without progress; ${verdict.release}` };
  }
  return { kind: 'block', reason: verdict.block };
}

function clean(decision: StopDecision): StopDecision {
  if (decision.kind === 'block') return { kind: 'block', reason: sanitizeLine(decision.reason, REASON_CAP) };
  return { kind: 'allow', message: decision.message === null ? null : sanitizeLine(decision.message, REASON_CAP) };
}

/**
 * The decision for one stop. Never throws: an unexpected error blocks, with the reason (an
 * error in the hook is not evidence that the work is done). Text is sanitized and capped.
 */
export async function decideStop(input: StopInput, io: Io): Promise<StopDecision> {
  const deadline = Deadline.fromProcessStart(hookDeadlineMs(io.env));
  try {
    return clean(await decide(input, io, deadline));
  } catch (e) {
    return clean({ kind: 'block', reason: `gate-check: the Stop hook could not check the gates (${e instanceof Error ? e.message : String(e)}). Fix this before stopping; \`gate-check --status --strict\` shows the gates.` });
  }
}
