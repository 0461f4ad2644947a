// Gate states (DESIGN §3), decided from the ledger alone. Pure.
import { shortDefinition } from './definition.js';
import { parseEvidence } from './evidence-value.js';
import type { Gate } from './types.js';

export type GateState = 'met' | 'unmet' | 'claimed' | 'abandoned';

export const PENDING_EVIDENCE = 'pending';

export interface GateStatus {
  state: GateState;
  /** Why a checked gate is only claimed; null otherwise. */
  reason: string | null;
}

/** No EVIDENCE line, a blank one, or "pending": nothing has been proven. */
export function isPendingEvidence(evidence: string | null): boolean {
  if (evidence === null) return true;
  const v = evidence.trim().toLowerCase();
  return v === '' || v === PENDING_EVIDENCE;
}

const ABANDONED: GateStatus = { state: 'abandoned', reason: null };
const UNMET: GateStatus = { state: 'unmet', reason: null };
const MET: GateStatus = { state: 'met', reason: null };
const NO_EVIDENCE: GateStatus = { state: 'claimed', reason: 'ticked without evidence' };
const NOT_A_RUN: GateStatus = {
  state: 'claimed',
  reason: 'ticked, but its evidence was not written by a passing run of this gate (no def= of its definition)',
};
const NOT_AS_WRITTEN: GateStatus = {
  state: 'claimed',
  reason: 'ticked, but its evidence line is not exactly what a passing run writes (text added to it or changed): the page shows that text as part of the gate',
};
/** The whole line a passing run writes (evidence/line.ts formatEvidence): nothing before, between or after. */
const RUN_EVIDENCE = /^exit=0; def=[0-9a-f]{12}(?:; deps=[0-9a-f]{12})?(?:; inputs=[0-9a-f]{12})?; match=[0-9a-f]{12}; receipt=[0-9a-f]{12}$/;
const EDITED: GateStatus = {
  state: 'claimed',
  reason: 'ticked, but its evidence is for another definition: CHECK, EXPECT, CWD, DEPENDS, INPUTS or TIMEOUT changed since it was written',
};

/**
 * met: box checked and evidence recorded (for a runnable gate: evidence of a passing run of
 * the gate as it is written now); claimed: box checked without such evidence (worse than
 * unchecked: someone said done without proof); unmet: box unchecked; abandoned: handed off.
 */
export function gateStatus(gate: Gate): GateStatus {
  // Once per gate: a parsed gate is never changed, and a met gate's status is asked for by its
  // report, by verification and by runs (5,000 evidence lines parsed thrice cost the hook 8 ms).
  let status = statusOf.get(gate);
  if (status === undefined) statusOf.set(gate, (status = statusNow(gate)));
  return status;
}

const statusOf = new WeakMap<Gate, GateStatus>();

function statusNow(gate: Gate): GateStatus {
  if (gate.abandon) return ABANDONED;
  if (!gate.checked) return UNMET;
  if (isPendingEvidence(gate.evidence)) return NO_EVIDENCE;
  if (gate.kind === 'manual') return MET;
  const ev = parseEvidence(gate.evidence!);
  const def = ev?.get('def');
  if (def === undefined || ev!.get('exit') !== '0') return NOT_A_RUN;
  if (def !== shortDefinition(gate)) return EDITED;
  return RUN_EVIDENCE.test(gate.evidence!.trim()) ? MET : NOT_AS_WRITTEN;
}

export function gateState(gate: Gate): GateState {
  return gateStatus(gate).state;
}
