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
import { isAbsolute, join } from 'node:path';
import type { Io } from '../cli/io.js';
import { readOnlyContext, verifyMetGates, type GateEntry } from '../commands/verification.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../cli/options.js';
import { GateCheckError, ParseError } from '../errors.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { sha256Hex } from '../oracle/oracle.js';
import { gateReport, strictlyMet, type GateReport } from '../report/model.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { loadWorkspace, type Workspace } from '../workspace/load.js';
import { updateStopState } from './stop-state.js';

/** Consecutive blocks without semantic progress before the hook lets the session stop. */
export const MAX_NO_PROGRESS = 6;
const MAX_INPUT_BYTES = 1024 * 1024;
const MAX_IDS = 5;
const REASON_CAP = 2000;

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

function capList(items: string[]): string {
  return items.length > MAX_IDS ? `${items.slice(0, MAX_IDS).join('; ')} (+${items.length - MAX_IDS} more)` : items.join('; ');
}

const NEXT_STEPS =
  'Next: run `gate-check --status` to see every gate. Checks run only after a person reviews and approves them, so ask your user to review and run `gate-check --approve`; once approved, `gate-check` runs them. Write `ABANDON: ID reason` only for a gate that is truly impossible.';

/** The strict view as an order-independent fingerprint: progress means it changed. */
function strictFingerprint(gates: readonly GateReport[]): string {
  const view = gates.map((g) => `${g.qualified}=${g.state === 'abandoned' ? 'abandoned' : strictlyMet(g) ? 'met' : 'open'}`).sort();
  return sha256Hex(view.join('\n'));
}

async function decide(input: HookInput, io: Io): Promise<Decision> {
  const root = input.cwd ?? io.cwd;
  let ws: Workspace | null;
  try {
    ws = loadAll(root, io);
  } catch (e) {
    if (e instanceof ParseError) {
      const errs = e.diagnostics.slice(0, 3).map((d) => `${d.file ?? ''}${d.line ? `:${d.line}` : ''}: ${d.message}`);
      return { block: `gate-check: the ledger does not parse, so no gate can be checked: ${errs.join('; ')}${e.diagnostics.length > 3 ? ` (+${e.diagnostics.length - 3} more)` : ''}. Fix the ledger (see \`gate-check --status\`).` };
    }
    if (e instanceof GateCheckError) return { block: `gate-check: cannot read the gates (${e.message}); fix this before stopping.` };
    throw e;
  }
  if (ws === null) return null; // no ledger here: nothing to hold the session to
  const entries: GateEntry[] = ws.ledgers.flatMap((loaded) => loaded.ledger.gates.map((gate) => ({ loaded, gate, report: gateReport(loaded.location.display, loaded.stem, gate) })));
  if (entries.some((e) => e.report.state === 'met')) {
    await verifyMetGates(entries, readOnlyContext(ws, { shell: undefined, cwd: undefined, timeoutSeconds: DEFAULT_TIMEOUT_SECONDS }, io));
  }
  const gates = entries.map((e) => e.report);
  const open = gates.filter((g) => g.state !== 'abandoned' && !strictlyMet(g));
  const handoff = gates.filter((g) => g.state === 'abandoned').map((g) => g.qualified);
  const handoffNote = handoff.length > 0 ? `gate-check: HANDOFF REQUIRED for ${capList(handoff)}: a person must take these over.` : null;

  if (open.length === 0) {
    await updateStopState(storeLocations(io.env), ws.root.path, input.sessionId, lockTimeoutFromEnv(io.env), () => ({ fingerprint: strictFingerprint(gates), blocks: 0 }));
    return handoffNote ? { message: handoffNote } : null;
  }
  const fingerprint = strictFingerprint(gates);
  const state = await updateStopState(storeLocations(io.env), ws.root.path, input.sessionId, lockTimeoutFromEnv(io.env), (prev) =>
    prev && prev.fingerprint === fingerprint ? { fingerprint, blocks: prev.blocks + 1 } : { fingerprint, blocks: 1 },
  );
  const listed = capList(open.map((g) => `${g.qualified} (${openLabel(g)})`));
  if (state.blocks > MAX_NO_PROGRESS) {
    return {
      message: `gate-check: released after ${MAX_NO_PROGRESS} stops without progress; still not met: ${listed}. A person needs to look at these gates.${handoffNote ? ' ' + handoffNote : ''}`,
    };
  }
  return { block: `gate-check: ${open.length} gate${open.length === 1 ? ' is' : 's are'} not met: ${listed}. ${NEXT_STEPS}${handoffNote ? ' ' + handoffNote : ''}` };
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
