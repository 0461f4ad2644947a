// Matching EXPECT against a check's output, in-process and bounded in time.
// - A substring is matched with includes().
// - A regex first tries V8's linear-time engine (the `l` flag, enabled on first use): it
//   cannot backtrack catastrophically, and costs nothing extra per match. It is used when the
//   pattern is supported (no backreferences, lookarounds, `i` or `u` in this V8) and the work
//   (output length × pattern size, counted repetitions expanded) is small.
// - Otherwise the regex runs in a reusable vm context under the time cap: V8 interrupts a
//   backtracking regex at the cap. That costs a watchdog thread per match (measured: tenths
//   of a millisecond), still far less than a Worker.
import { builtinModule } from '../builtin-module.js';
import { createContext, Script, type Context } from 'node:vm';
import type { Expect } from '../ledger/expect.js';

export const DEFAULT_REGEX_CAP_MS = 250;
/** Output length × pattern weight at or below which the linear engine runs without a watchdog. */
const LINEAR_BUDGET = 4_000_000;

/** On a match, `text` is what matched (the EXPECT substring, or the regex's whole match). */
export type MatchResult = { ok: true; matched: boolean; text: string | null } | { ok: false; error: string };

let sandbox: { context: Context; script: Script } | null = null;
let linearEnabled = false;
const linearCache = new Map<string, RegExp | null>();

/** Pattern length times every counted repetition's bound: an upper estimate of the automaton size. */
function patternWeight(source: string): number {
  let weight = source.length + 1;
  for (const m of source.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    const bound = Number(m[2] || m[1]) || 1;
    weight *= Math.max(1, Math.min(bound, 1e6));
    if (weight > LINEAR_BUDGET) return Infinity;
  }
  return weight;
}

function linearRegex(source: string, flags: string): RegExp | null {
  const key = `${flags}/${source}`;
  if (linearCache.has(key)) return linearCache.get(key)!;
  let re: RegExp | null = null;
  try {
    if (!linearEnabled) {
      // node:v8 is loaded here, on the first regex, not by every command that loads this file.
      builtinModule<typeof import('node:v8')>('node:v8').setFlagsFromString('--enable-experimental-regexp-engine');
      linearEnabled = true;
    }
    re = new RegExp(source, flags + 'l');
  } catch {
    re = null; // not expressible in linear time, or the engine is unavailable
  }
  linearCache.set(key, re);
  return re;
}

function runWithCap(pattern: RegExp, subject: string, capMs: number): MatchResult {
  sandbox ??= { context: createContext(Object.create(null) as object), script: new Script('(pattern.lastIndex = 0, pattern.exec(subject))') };
  sandbox.context.pattern = pattern;
  sandbox.context.subject = subject;
  try {
    const m = sandbox.script.runInContext(sandbox.context, { timeout: capMs }) as RegExpExecArray | null;
    return m === null ? { ok: true, matched: false, text: null } : { ok: true, matched: true, text: m[0] };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      return { ok: false, error: `EXPECT regex ran longer than ${capMs} ms (catastrophic backtracking?); failed instead of hanging` };
    }
    return { ok: false, error: `EXPECT regex failed: ${(e as Error).message}` };
  } finally {
    sandbox.context.pattern = null;
    sandbox.context.subject = null;
  }
}

export function matchExpect(expect: Expect, output: string, regexCapMs: number): MatchResult {
  if (expect.kind === 'substring') {
    const found = output.includes(expect.text);
    return { ok: true, matched: found, text: found ? expect.text : null };
  }
  if (output.length * patternWeight(expect.source) <= LINEAR_BUDGET) {
    const linear = linearRegex(expect.source, expect.flags);
    if (linear) {
      linear.lastIndex = 0; // the cached object is reused: g and y must start from the beginning
      const m = linear.exec(output);
      return m === null ? { ok: true, matched: false, text: null } : { ok: true, matched: true, text: m[0] };
    }
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(expect.source, expect.flags);
  } catch (e) {
    return { ok: false, error: `invalid EXPECT regex: ${(e as Error).message}` };
  }
  return runWithCap(pattern, output, regexCapMs);
}
