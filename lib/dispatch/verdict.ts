// What waves mean for a verdict: an open or sealed wave is unmet (`dispatch:W open (1/2
// started)`), an abandoned one is a hand-off, a complete one is met. Only ids, states and
// counts are used; handles and reasons (text an agent wrote) never reach a verdict. Pure.
import type { DispatchState, Wave, WaveState } from './state.js';

/** One wave as a report shows it. */
export interface WaveReport {
  id: string;
  state: WaveState;
  leaves: number;
  started: number;
  returned: number;
}

export function waveReport(w: Wave): WaveReport {
  let started = 0;
  let returned = 0;
  for (const l of w.leaves) {
    if (l.startedAt !== null) started++;
    if (l.returnedAt !== null) returned++;
  }
  return { id: w.id, state: w.state, leaves: w.leaves.length, started, returned };
}

export function waveReports(state: DispatchState | null): WaveReport[] {
  return (state?.waves ?? []).map(waveReport);
}

/** `dispatch:W open (1/2 started)`, `dispatch:W sealed (1/2 returned)`, `dispatch:W abandoned`, `dispatch:W complete`. */
export function waveLabel(w: WaveReport): string {
  if (w.state === 'open') return `dispatch:${w.id} open (${w.started}/${w.leaves} started)`;
  if (w.state === 'sealed') return `dispatch:${w.id} sealed (${w.returned}/${w.leaves} returned)`;
  return `dispatch:${w.id} ${w.state}`;
}

/** The verdict of a scope's waves: labels of those that keep it unmet, and those that hand it off. */
export function wavesVerdict(state: DispatchState | null): { open: string[]; handoff: string[] } {
  return wavesVerdictOf(waveReports(state));
}

export function wavesVerdictOf(waves: readonly WaveReport[]): { open: string[]; handoff: string[] } {
  const open: string[] = [];
  const handoff: string[] = [];
  for (const w of waves) {
    if (w.state === 'open' || w.state === 'sealed') open.push(waveLabel(w));
    else if (w.state === 'abandoned') handoff.push(waveLabel(w));
  }
  return { open, handoff };
}

/**
 * The waves as fingerprint items for "did anything progress?": one per wave, its id, state and
 * counts. A real transition (open, start, seal, return, abandon) changes it; an edit of a handle,
 * a reason or a time does not. Sorted, so order is not progress either.
 */
export function wavesFingerprint(state: DispatchState | null): string[] {
  const scope = state?.scope ?? '';
  return waveReports(state)
    .map((w) => `${scope}/dispatch:${w.id}=${w.state}:${w.started}/${w.returned}/${w.leaves}`)
    .sort();
}
