// The Stop hook's budget of time and memory. A host that waits too long lets the agent stop
// (GitHub Copilot fails open after its default 30 s; Claude Code after the hook's "timeout",
// 30 s as `hook install` writes it), and a hook that runs out of memory crashes, which hosts
// also treat as "allow". So when either budget runs out, the hook stops verifying and
// answers "block: verification was incomplete", whatever the repository holds.
//
// The checks are cooperative: the verification loop, ledger loading, DEPENDS matching and
// hashing call `check()` between gates, scopes, files and 64 KiB chunks. A worker thread that
// could be abandoned at any point was measured instead: an empty Worker alone costs ~23 ms
// per call (73 ms against 50 ms for `node -e 0`, medians of 30 interleaved runs), a third
// of the hook's whole start-up (see references/hook.md).
import { builtinModule } from '../builtin-module.js';
import { DeadlineError } from '../errors.js';

/** Milliseconds from process start within which the hook prints its answer. */
export const HOOK_DEADLINE_MS = 10_000;
/** The share of the budget kept for writing the counter and the answer after verification stops (1.5 s of 10 s). */
export const HOOK_ANSWER_RESERVE_SHARE = 0.15;
/** Verification stops when the JavaScript heap and the memory outside it that JavaScript holds (Buffers) exceed this share of the heap's limit. */
export const HOOK_HEAP_SHARE = 0.4;
/**
 * The heap is looked at on every this-many checks (often enough that one step between looks
 * cannot fill the rest of a small heap: 64 let Node 24 abort once in CI), through node:v8 (a look costs 0.25 µs;
 * process.memoryUsage() measured 0.4 ms here). node:v8 is loaded at the first look, at the
 * FIRST_HEAP_LOOK-th check, so a small repository (with 12 met gates node:v8 stays
 * unloaded, as process.moduleLoadList shows), which never gets that far, does not pay its 1 to 2 ms of start-up. The steps before it are
 * bounded (a gate, a file, a 64 KiB chunk) and start from the few MiB a fresh process holds.
 */
const HEAP_EVERY = 8;
const FIRST_HEAP_LOOK = 64;

let v8: typeof import('node:v8') | null = null;
function heapStatistics(): { used: number; limit: number } {
  v8 ??= builtinModule<typeof import('node:v8')>('node:v8');
  const h = v8.getHeapStatistics();
  return { used: h.used_heap_size + h.external_memory, limit: h.heap_size_limit };
}

/** Milliseconds since the process started (process.uptime needs no module, unlike perf_hooks). */
function now(): number {
  return process.uptime() * 1000;
}

export class Deadline {
  private calls = 0;

  /**
   * @param at milliseconds since the process started at which time is up
   * @param budgetMs the whole time budget, for messages
   */
  constructor(
    readonly at: number,
    readonly budgetMs: number,
  ) {}

  /** The budget measured from process start, so Node's own start-up counts too. */
  static fromProcessStart(ms: number): Deadline {
    return new Deadline(ms, ms);
  }

  remaining(): number {
    return Math.max(0, this.at - now());
  }

  expired(): boolean {
    return now() >= this.at;
  }

  /** Throws DeadlineError once time is up or the heap is over budget. */
  readonly check = (): void => {
    if (now() >= this.at) throw new DeadlineError(`the Stop hook's ${this.budgetMs / 1000} s limit ran out`);
    if (++this.calls % HEAP_EVERY !== 0 || this.calls < FIRST_HEAP_LOOK) return;
    const heap = heapStatistics();
    if (heap.used > heap.limit * HOOK_HEAP_SHARE) {
      throw new DeadlineError(`the Stop hook's memory limit (${Math.round((heap.limit * HOOK_HEAP_SHARE) / 2 ** 20)} MiB of heap) ran out`);
    }
  };

  /** The deadline for verifying: HOOK_ANSWER_RESERVE_SHARE of the budget earlier. */
  forVerifying(): Deadline {
    return new Deadline(this.at - this.budgetMs * HOOK_ANSWER_RESERVE_SHARE, this.budgetMs);
  }
}

/** GATE_CHECK_HOOK_DEADLINE_MS can only shorten the deadline (tests use it); anything else is ignored. */
export function hookDeadlineMs(env: NodeJS.ProcessEnv): number {
  const raw = env.GATE_CHECK_HOOK_DEADLINE_MS;
  if (raw === undefined || raw === '') return HOOK_DEADLINE_MS;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 && n < HOOK_DEADLINE_MS ? n : HOOK_DEADLINE_MS;
}
