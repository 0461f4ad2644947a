// Verifying the evidence of every met gate (status, strict status, stale detection in runs).
// Loaded only when some gate is met, so the status path of a fresh ledger stays lean.
import { ApprovalStore } from '../approval/store.js';
import type { Io } from '../cli/io.js';
import { ReceiptStore } from '../evidence/receipt-store.js';
import { verifyMetGate, type VerifyContext } from '../evidence/verify.js';
import { gateState } from '../ledger/state.js';
import type { Gate } from '../ledger/types.js';
import type { GateReport } from '../report/model.js';
import { storeLocations } from '../store/locations.js';
import type { LoadedLedger, Workspace } from '../workspace/load.js';
import { runSettings, type OracleOptions, type RunSettings } from './settings.js';
import { RunSetupError } from '../errors.js';

export interface GateEntry {
  loaded: LoadedLedger;
  gate: Gate;
  report: GateReport;
}

/** A read-only context: nothing is created; an unsafe store still fails closed (exit 2). */
export function readOnlyContext(ws: Workspace, options: OracleOptions, io: Io): VerifyContext {
  let settings: RunSettings | null = null;
  let settingsError: string | null = null;
  try {
    settings = runSettings(options, io, ws);
  } catch (e) {
    if (!(e instanceof RunSetupError)) throw e;
    settingsError = e.message;
  }
  const locations = storeLocations(io.env);
  return {
    resolver: settings?.resolver ?? null,
    settingsError,
    receipts: ReceiptStore.open(locations, ws.root.path, false),
    approvals: ApprovalStore.openIfExists(locations, ws.root.path),
  };
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
