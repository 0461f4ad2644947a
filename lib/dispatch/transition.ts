// The transitions of a wave: open, start, seal, return, abandon. Each takes the current state
// and the time, and returns the next state or refuses (DispatchRefusedError, exit 2) with what
// is wrong; the result is validated like a state read from disk before it is written. Pure.
import { DispatchRefusedError } from '../errors.js';
import {
  DISPATCH_SCHEMA,
  MAX_HANDLE,
  MAX_LEAVES,
  MAX_REASON,
  MAX_WAVES,
  idProblem,
  printableProblem,
  validateDispatchState,
  type DispatchState,
  type Wave,
} from './state.js';

export type Transition =
  | { action: 'open'; wave: string; leaves: readonly string[] }
  | { action: 'start'; wave: string; leaf: string; handle: string }
  | { action: 'seal'; wave: string }
  | { action: 'return'; wave: string; leaf: string }
  | { action: 'abandon'; wave: string; reason: string };

function refuse(message: string, hint?: string): never {
  throw new DispatchRefusedError(message, hint);
}

function checkId(id: string, what: string): void {
  const problem = idProblem(id, what);
  if (problem !== null) refuse(problem);
}

function findWave(state: DispatchState, id: string): Wave {
  const w = state.waves.find((x) => x.id === id);
  if (!w) refuse(`scope ${state.scope} has no wave ${id}`, `open it first: gate-check dispatch open --scope ${state.scope} --wave ${id} --leaf ID`);
  return w;
}

function progress(w: Wave): string {
  const started = w.leaves.filter((l) => l.startedAt !== null).length;
  const returned = w.leaves.filter((l) => l.returnedAt !== null).length;
  return w.state === 'open' ? `${started}/${w.leaves.length} started` : `${returned}/${w.leaves.length} returned`;
}

function copy(state: DispatchState): DispatchState {
  return { schema: DISPATCH_SCHEMA, scope: state.scope, waves: state.waves.map((w) => ({ ...w, leaves: w.leaves.map((l) => ({ ...l })) })) };
}

/** Applies one transition at time `at` (ISO, never before anything in the state). */
export function applyTransition(current: DispatchState | null, scope: string, t: Transition, at: string): DispatchState {
  checkId(t.wave, 'wave');
  const state = copy(current ?? { schema: DISPATCH_SCHEMA, scope, waves: [] });
  if (t.action === 'open') {
    if (state.waves.some((w) => w.id === t.wave)) refuse(`scope ${scope} already has a wave ${t.wave} (wave ids are never reused)`);
    if (t.leaves.length === 0) refuse('a wave needs at least one leaf (--leaf ID)');
    if (t.leaves.length > MAX_LEAVES) refuse(`a wave has at most ${MAX_LEAVES} leaves`);
    const seen = new Set<string>();
    for (const leaf of t.leaves) {
      checkId(leaf, 'leaf');
      if (seen.has(leaf)) refuse(`leaf ${leaf} is named twice`);
      seen.add(leaf);
    }
    if (state.waves.length >= MAX_WAVES) {
      const oldest = state.waves.findIndex((w) => w.state === 'complete');
      if (oldest === -1) refuse(`scope ${scope} already keeps ${MAX_WAVES} waves and none is complete`, 'finish (return every leaf) or abandon a wave first');
      state.waves.splice(oldest, 1);
    }
    state.waves.push({
      id: t.wave,
      state: 'open',
      openedAt: at,
      sealedAt: null,
      completedAt: null,
      abandonedAt: null,
      reason: null,
      leaves: t.leaves.map((id) => ({ id, handle: null, startedAt: null, returnedAt: null })),
    });
  } else {
    const w = findWave(state, t.wave);
    switch (t.action) {
      case 'start': {
        checkId(t.leaf, 'leaf');
        if (w.state !== 'open') refuse(`wave ${w.id} is ${w.state}: a leaf starts only while its wave is open`);
        const leaf = w.leaves.find((l) => l.id === t.leaf);
        if (!leaf) refuse(`wave ${w.id} has no leaf ${t.leaf} (its leaves: ${w.leaves.map((l) => l.id).join(', ')})`);
        if (leaf.startedAt !== null) refuse(`leaf ${leaf.id} of wave ${w.id} has already started`);
        const problem = printableProblem(t.handle, MAX_HANDLE, 'the handle');
        if (problem !== null) refuse(problem);
        if (w.leaves.some((l) => l.handle === t.handle)) refuse(`another leaf of wave ${w.id} already has this handle (handles are unique in a wave)`);
        leaf.handle = t.handle;
        leaf.startedAt = at;
        break;
      }
      case 'seal': {
        if (w.state !== 'open') refuse(`wave ${w.id} is ${w.state}: only an open wave is sealed`);
        const waiting = w.leaves.filter((l) => l.startedAt === null).map((l) => l.id);
        if (waiting.length > 0) refuse(`wave ${w.id} cannot be sealed: ${waiting.length} leaf${waiting.length === 1 ? ' has' : 's have'} not started (${waiting.slice(0, 10).join(', ')}) (${progress(w)})`);
        w.state = 'sealed';
        w.sealedAt = at;
        break;
      }
      case 'return': {
        checkId(t.leaf, 'leaf');
        if (w.state === 'open') refuse(`wave ${w.id} is open: leaves return only after the wave is sealed (${progress(w)})`, `seal it once every leaf started: gate-check dispatch seal --scope ${scope} --wave ${w.id}`);
        if (w.state !== 'sealed') refuse(`wave ${w.id} is ${w.state}: nothing returns to it any more`);
        const leaf = w.leaves.find((l) => l.id === t.leaf);
        if (!leaf) refuse(`wave ${w.id} has no leaf ${t.leaf} (its leaves: ${w.leaves.map((l) => l.id).join(', ')})`);
        if (leaf.returnedAt !== null) refuse(`leaf ${leaf.id} of wave ${w.id} has already returned`);
        leaf.returnedAt = at;
        if (w.leaves.every((l) => l.returnedAt !== null)) {
          w.state = 'complete';
          w.completedAt = at;
        }
        break;
      }
      case 'abandon': {
        if (w.state !== 'open' && w.state !== 'sealed') refuse(`wave ${w.id} is ${w.state}: only an open or sealed wave is abandoned`);
        const problem = printableProblem(t.reason, MAX_REASON, 'the reason');
        if (problem !== null) refuse(problem);
        w.state = 'abandoned';
        w.abandonedAt = at;
        w.reason = t.reason;
        break;
      }
    }
  }
  const checked = validateDispatchState(state, scope);
  // Unreachable unless a transition above is wrong: never write a state the loader would refuse.
  if (!checked.ok) refuse(`internal: the transition would leave an invalid state (${checked.reason}); nothing was written`);
  return checked.state;
}
