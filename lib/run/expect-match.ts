// Matching EXPECT against a check's output. A substring is matched in-process. A regex runs
// in a reusable vm context under a time cap: V8 interrupts a catastrophic backtrack at the
// cap, so no Worker is started per match (measured: about 0.2 ms per match; a Worker costs
// tens of milliseconds to start).
import { createContext, Script, type Context } from 'node:vm';
import type { Expect } from '../ledger/expect.js';

export const DEFAULT_REGEX_CAP_MS = 250;

export type MatchResult = { ok: true; matched: boolean } | { ok: false; error: string };

let context: Context | null = null;
let script: Script | null = null;

function regexSandbox(): { context: Context; script: Script } {
  context ??= createContext(Object.create(null) as object);
  script ??= new Script('pattern.test(subject)');
  return { context, script };
}

export function matchExpect(expect: Expect, output: string, regexCapMs: number): MatchResult {
  if (expect.kind === 'substring') return { ok: true, matched: output.includes(expect.text) };
  let pattern: RegExp;
  try {
    pattern = new RegExp(expect.source, expect.flags);
  } catch (e) {
    return { ok: false, error: `invalid EXPECT regex: ${(e as Error).message}` };
  }
  const sandbox = regexSandbox();
  sandbox.context.pattern = pattern;
  sandbox.context.subject = output;
  try {
    return { ok: true, matched: sandbox.script.runInContext(sandbox.context, { timeout: regexCapMs }) === true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      return { ok: false, error: `EXPECT regex ran longer than ${regexCapMs} ms (catastrophic backtracking?); failed instead of hanging` };
    }
    return { ok: false, error: `EXPECT regex failed: ${(e as Error).message}` };
  } finally {
    sandbox.context.pattern = null;
    sandbox.context.subject = null;
  }
}
