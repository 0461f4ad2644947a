// Gate states (DESIGN §3). Pure.
import type { Gate } from './types.js';

export type GateState = 'met' | 'unmet' | 'claimed' | 'abandoned';

export const PENDING_EVIDENCE = 'pending';

/** No EVIDENCE line, a blank one, or "pending": nothing has been proven. */
export function isPendingEvidence(evidence: string | null): boolean {
  if (evidence === null) return true;
  const v = evidence.trim().toLowerCase();
  return v === '' || v === PENDING_EVIDENCE;
}

/**
 * met: box checked and evidence recorded; claimed: box checked without evidence (worse than
 * unchecked: someone said done without proof); unmet: box unchecked; abandoned: handed off.
 */
export function gateState(gate: Gate): GateState {
  if (gate.abandon) return 'abandoned';
  if (!gate.checked) return 'unmet';
  return isPendingEvidence(gate.evidence) ? 'claimed' : 'met';
}
