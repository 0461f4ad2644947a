// `gate-check hook claude-stop`: the Claude Code Stop hook. Reads the hook JSON on stdin
// (session_id, cwd, stop_hook_active), always exits 0, and prints
//   {"decision":"block","reason":…}  to keep the session going while any gate is open in the
//                                    strict view (unmet, claimed, unverified, mismatched, stale),
//   {"systemMessage":…}              to allow the stop with a note (hand-offs, a release),
//   nothing                          to allow the stop silently.
// It never executes a CHECK, never approves, never writes the ledger. It fails closed: a
// malformed ledger or an unsafe file blocks. After MAX_NO_PROGRESS consecutive blocks
// without semantic progress it releases, so an agent that cannot proceed is not trapped.
import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Io } from '../cli/io.js';
import { readOnlyContext, verifyMetGates, type GateEntry } from '../commands/verification.js';
import { GateCheckError, ParseError } from '../errors.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { sha256Hex } from '../oracle/oracle.js';
import { gateReport, strictlyMet, type GateReport } from '../report/model.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { loadWorkspace, type Workspace } from '../workspace/load.js';
import { peekStopState, updateStopState } from './stop-state.js';

/** Consecutive blocks without semantic progress before the hook lets the session stop. */
export const MAX_NO_PROGRESS = 6;
const MAX_INPUT_BYTES = 1024 * 1024;
const MAX_IDS = 5;
const REASON_CAP = 2000;
const ITEM_CAP = 200;

interface HookInput {
  sessionId: string;
  cwd: string | null;
}

type Decision = { block: string } | { message: string } | null;

function parseInput(text: string): HookInput {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { sessionId: 'unknown', cwd: null };
  }
  const obj = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const sessionId = Object.hasOwn(obj, 'session_id') && typeof obj.session_id === 'string' && obj.session_id !== '' ? obj.session_id : 'unknown';
  const cwd = Object.hasOwn(obj, 'cwd') && typeof obj.cwd === 'string' && isAbsolute(obj.cwd) ? obj.cwd : null;
  return { sessionId, cwd };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    total += b.length;
    if (total > MAX_INPUT_BYTES) break;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Root ledgers plus every scope's: an empty or decoy scope directory hides nothing. */
function loadAll(root: string, io: Io): Workspace | null {
  const hasRootLedger = lstatOrNull(join(root, 'GATES.md')) !== null || lstatOrNull(join(root, 'gates')) !== null;
  const scopes: string[] = [];
  const scopeBase = join(root, '.gate-check');
  const st = lstatOrNull(scopeBase);
  if (st?.isDirectory()) {
    for (const e of readdirSync(scopeBase, { withFileTypes: true })) if (!e.name.startsWith('.')) scopes.push(e.name);
  } else if (st?.isSymbolicLink()) {
    loadWorkspace({ root, scope: 'x', files: [], cwd: io.cwd }); // throws: symlinked .gate-check
  }
  const parts: Workspace[] = [];
  if (hasRootLedger) parts.push(loadWorkspace({ root, files: [], cwd: io.cwd }));
  for (const scope of scopes.sort()) {
    const dir = lstatOrNull(join(scopeBase, scope));
    if (dir?.isDirectory() && readdirSync(join(scopeBase, scope)).some((n) => n.endsWith('.md') && !n.startsWith('.'))) {
      parts.push(loadWorkspace({ root, scope, files: [], cwd: io.cwd }));
    } else if (!dir?.isDirectory()) {
      parts.push(loadWorkspace({ root, scope, files: [], cwd: io.cwd })); // a symlinked scope throws
    }
  }
  if (parts.length === 0) return null;
  return { root: parts[0]!.root, explicit: false, ledgers: parts.flatMap((p) => p.ledgers), warnings: parts.flatMap((p) => p.warnings) };
}

function openLabel(g: GateReport): string {
  if (g.state === 'met') return `${g.verification}${g.verificationReason ? `: ${g.verificationReason}` : ''}`;
  if (g.state === 'claimed') return 'claimed: ticked without evidence';
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

/** The repository the session works in: $CLAUDE_PROJECT_DIR, else the nearest directory up from cwd with a ledger or a .git. */
function findRoot(input: HookInput, io: Io): string {
  const project = io.env.CLAUDE_PROJECT_DIR;
  if (project && isAbsolute(project) && lstatOrNull(project)?.isDirectory()) return project;
  const start = input.cwd ?? io.cwd;
  for (let dir = start; ; dir = dirname(dir)) {
    if (['GATES.md', 'gates', '.gate-check', '.git'].some((n) => lstatOrNull(join(dir, n)) !== null)) return dir;
    if (dirname(dir) === dir) return start;
  }
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

/** A block carries what to say when it is released instead (after MAX_NO_PROGRESS stops without progress). */
type Verdict = { block: string; release: string; fingerprint: string } | { allow: string | null; fingerprint: string | null };

async function verdictFor(root: string, input: HookInput, io: Io): Promise<Verdict> {
  let ws: Workspace | null;
  try {
    ws = loadAll(root, io);
  } catch (e) {
    if (e instanceof ParseError) {
      const errs = e.diagnostics.slice(0, 3).map((d) => sanitizeLine(`${d.file ?? ''}${d.line ? `:${d.line}` : ''}: ${d.message}`, ITEM_CAP));
      const more = e.diagnostics.length > 3 ? ` (+${e.diagnostics.length - 3} more)` : '';
      const problem = `the ledger does not parse: ${errs.join('; ')}${more}`;
      return {
        block: `gate-check: ${problem.replace('does not parse:', 'does not parse, so no gate can be checked:')}. Fix the ledger (see \`gate-check --status\`).`,
        release: `${problem}. A person needs to look at the ledger.`,
        fingerprint: `error:${sha256Hex(e.message + errs.join())}`,
      };
    }
    if (e instanceof GateCheckError) {
      const problem = `cannot read the gates (${sanitizeLine(e.message, ITEM_CAP)})`;
      return { block: `gate-check: ${problem}; fix this before stopping.`, release: `${problem}. A person needs to look at this.`, fingerprint: `error:${sha256Hex(e.message)}` };
    }
    throw e;
  }
  if (ws === null) {
    // No ledger now. If this session had one, it was removed or moved: that is not done.
    if (peekStopState(storeLocations(io.env), root, input.sessionId) === null) return { allow: null, fingerprint: null };
    return {
      block: 'gate-check: this session had gates, and GATES.md (or gates/) is gone. Restore the ledger; removing it does not meet its gates.',
      release: 'the ledger this session had is gone. A person needs to look at this.',
      fingerprint: 'error:ledger-gone',
    };
  }
  const entries: GateEntry[] = ws.ledgers.flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
  if (entries.some((e) => e.report.state === 'met')) {
    await verifyMetGates(entries, readOnlyContext(ws, io));
  }
  const gates = entries.map((e) => e.report);
  disambiguate(gates);
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

async function decide(input: HookInput, io: Io): Promise<Decision> {
  const root = findRoot(input, io);
  const verdict = await verdictFor(root, input, io);
  const locations = storeLocations(io.env);
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  if ('allow' in verdict) {
    if (verdict.fingerprint !== null) await updateStopState(locations, root, input.sessionId, lockTimeoutMs, () => ({ fingerprint: verdict.fingerprint!, blocks: 0 }));
    return verdict.allow === null ? null : { message: verdict.allow };
  }
  // Every block is counted, errors included, so that no block holds a session forever.
  const state = await updateStopState(locations, root, input.sessionId, lockTimeoutMs, (prev) =>
    prev && prev.fingerprint === verdict.fingerprint ? { fingerprint: verdict.fingerprint, blocks: prev.blocks + 1 } : { fingerprint: verdict.fingerprint, blocks: 1 },
  );
  if (state.blocks > MAX_NO_PROGRESS) {
    return { message: `gate-check: released after ${MAX_NO_PROGRESS} stops without progress; ${verdict.release}` };
  }
  return { block: verdict.block };
}

export async function claudeStopCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout('Usage: gate-check hook claude-stop   (reads the Claude Code Stop-hook JSON on stdin; see references/hook.md)\n');
    return 0;
  }
  const input = parseInput(await readStdin());
  let decision: Decision;
  try {
    decision = await decide(input, io);
  } catch (e) {
    // Fail closed: an unexpected error keeps the session going, with the reason.
    decision = { block: `gate-check: the Stop hook could not check the gates (${e instanceof Error ? e.message : String(e)}).` };
  }
  if (decision === null) return 0;
  const out = 'block' in decision ? { decision: 'block', reason: sanitizeLine(decision.block, REASON_CAP) } : { systemMessage: sanitizeLine(decision.message, REASON_CAP) };
  io.stdout(JSON.stringify(out) + '\n');
  return 0;
}
