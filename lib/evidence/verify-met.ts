// Verifying the evidence of every met gate (status, strict status, stale detection in runs).
// Loaded only when some gate is met, so the status path of a fresh ledger stays lean.
import { ApprovalStore } from '../approval/store.js';
import type { Io } from '../program/io.js';
import { ReceiptStore } from './receipt-store.js';
import { verifyMetGate, type VerifyContext } from './verify.js';
import { gateState } from '../ledger/state.js';
import type { Gate } from '../ledger/types.js';
import { FileDigests } from '../oracle/file-digests.js';
import type { GateReport } from '../report/model.js';
import { storeLocations } from '../store/locations.js';
import { NotRunnableError, NotRunnableYetError, OnlyLedgersError } from '../errors.js';
import { checkGateCwd } from '../oracle/resolve.js';
import { visibleNonAscii } from '../text/sanitize.js';
import { matchDependsGlob } from '../fsx/depends-glob.js';
import type { LoadedLedger, Workspace } from '../workspace/load.js';

export interface GateEntry {
  loaded: LoadedLedger;
  gate: Gate;
  report: GateReport;
}

/**
 * A read-only context: nothing is created; an unsafe store still fails closed (exit 2).
 * Verification needs nothing of the reader's environment (shell, PATH, --timeout).
 */
export function readOnlyContext(ws: Workspace, io: Io): VerifyContext {
  const locations = storeLocations(io.env);
  return {
    resolver: new FileDigests(ws.root.path),
    receipts: ReceiptStore.open(locations, ws.root.path, 'view'),
    approvals: ApprovalStore.openIfExists(locations, ws.root.path),
  };
}

/**
 * Open runnable gates that a run would not run: a CWD missing, not a directory or outside the
 * repository, DEPENDS or INPUTS patterns that match no file yet (or only ledgers). Said in
 * --status, so that a gate written before the work shows why a run will not run it yet.
 * Errors other than these are left to the run, which refuses them.
 */
export async function markNotRunnableYet(entries: readonly GateEntry[], root: string): Promise<void> {
  for (const e of entries) {
    if (e.report.state !== 'unmet' || e.gate.kind !== 'runnable') continue;
    try {
      checkGateCwd(root, e.loaded, e.gate);
    } catch (err) {
      if (!(err instanceof NotRunnableError)) throw err;
      e.report.stateReason = `${err.stateLabel}: ${err.message}`;
      continue;
    }
    for (const [what, patterns] of [['DEPENDS', e.gate.depends], ['INPUTS', e.gate.inputs]] as const) {
      if (patterns === null || e.report.stateReason !== null) continue;
      for (const pattern of patterns) {
        try {
          await matchDependsGlob(root, pattern, e.report.qualified, what);
        } catch (err) {
          if (err instanceof NotRunnableError) {
            // The pattern as the approval screen would show it: a look-alike letter is why a pattern matches nothing.
            const shown = visibleNonAscii(pattern).text;
            e.report.stateReason =
              err instanceof NotRunnableYetError
                ? `not runnable yet: ${what} pattern ${shown} matches no file under ${root}`
                : err instanceof OnlyLedgersError
                  ? `not runnable: ${what} pattern ${shown} matches only ledgers, which gate-check rewrites on every run and never hashes`
                  : `not runnable: ${err.message}`;
            break;
          }
        }
      }
    }
  }
}

/**
 * Sets verification and its reason on the report of every met gate. `checkpoint` (the Stop
 * hook's deadline) is called before each gate and once at the end; what it throws abandons
 * the verification, and a verdict taken from a partly verified set would be wrong.
 */
export async function verifyMetGates(entries: readonly GateEntry[], ctx: VerifyContext, checkpoint?: () => void): Promise<void> {
  for (const e of entries) {
    if (gateState(e.gate) !== 'met') continue;
    checkpoint?.();
    const v = await verifyMetGate(ctx, e.loaded, e.gate);
    e.report.verification = v.state;
    e.report.verificationReason = v.reason;
  }
  checkpoint?.();
}
