// How each gate of a report ends up, for JUnit, GitHub annotations and merged verdicts:
// passed, failed (with why), skipped (with why). Pure.
import { INTERRUPTED_BEFORE_END, NOT_STARTED_FAIL_FAST, strictlyMet, type GateReport, type Mode } from './model.js';

export type GateOutcome = { kind: 'passed' } | { kind: 'failed'; message: string } | { kind: 'skipped'; message: string };

const STATE_MESSAGE: Record<string, string> = {
  unmet: 'unmet: the box is not ticked',
  claimed: 'claimed: ticked without evidence',
};

export function gateOutcome(g: GateReport, mode: Mode, strict: boolean): GateOutcome {
  const r = g.result;
  if (g.state === 'abandoned') return { kind: 'skipped', message: 'abandoned: handed off to a person' };
  if (r) {
    switch (r.status) {
      case 'pass':
        return { kind: 'passed' };
      case 'fail':
        return { kind: 'failed', message: r.error ?? 'failed' };
      case 'stale':
        return { kind: 'failed', message: `stale: ${r.error ?? 'oracle changed while it ran'}; result not written` };
      case 'approval-required':
        return { kind: 'skipped', message: r.error ?? 'approval required' };
      case 'not-run': {
        // In a merged verdict, a runnable gate that no shard ran is not verified: a failure of the
        // required check. In a run, one not started for a reason of its own (not runnable, changed
        // since approval) fails too (a CWD renamed away read as a skip: round-39v V6); only one
        // left for another gate's failure (--fail-fast) or an interrupt is skipped.
        const forOthers = r.error === NOT_STARTED_FAIL_FAST || r.error === INTERRUPTED_BEFORE_END;
        return { kind: mode === 'merge' || !forOthers ? 'failed' : 'skipped', message: r.error ?? 'not run' };
      }
    }
  }
  if (g.state === 'met') {
    if (!strict || strictlyMet(g)) return { kind: 'passed' };
    return { kind: 'failed', message: `met, ${g.verification}: ${g.verificationReason ?? ''}`.trim() };
  }
  // An open manual gate makes the verdict UNMET (exit 1): a failure, as every gate that decides
  // it, or the test report and the annotations read greener than the exit code (round-39w W3).
  if (g.kind === 'manual') return { kind: 'failed', message: `manual gate, ${STATE_MESSAGE[g.state] ?? g.state}: a person ticks it and writes its EVIDENCE` };
  // An open runnable gate that nothing attempted: failed in a status report, skipped in a run.
  const message = g.state === 'claimed' && g.stateReason ? `claimed: ${g.stateReason}` : (STATE_MESSAGE[g.state] ?? g.state);
  if (mode === 'status') return { kind: 'failed', message };
  return { kind: 'skipped', message: `${message}; not run` };
}
