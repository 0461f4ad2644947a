// Talking to `gate-check hook claude-stop` the way Claude Code does, and checking that every
// answer keeps the protocol: exit 0, nothing or one JSON line, clean and bounded text.
import { expect } from 'vitest';
import type { CliResult } from './cli.js';

export type HookOutcome = { kind: 'block'; reason: string } | { kind: 'message'; message: string } | { kind: 'allow' };

// C0 (TAB and LF included: a one-line reason has neither), DEL, C1, ALM, LRM/RLM, LS/PS, LRE..RLO, LRI..PDI.
export const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/;
export const REASON_CAP = 2000;

/** The Claude Code Stop-hook input, as Claude Code sends it. */
export function stopInput(cwd: string, session: string, active = false): string {
  return JSON.stringify({ session_id: session, transcript_path: `/tmp/claude/${session}.jsonl`, cwd, hook_event_name: 'Stop', stop_hook_active: active });
}

/** Exit 0; stdout empty or one protocol line whose text is clean and bounded. */
export function outcome(r: CliResult): HookOutcome {
  expect(r.signal, `killed by a signal; stderr ends: ${r.stderr.slice(-1500)}`).toBeNull();
  expect(r.code).toBe(0);
  expect(r.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  if (r.stdout === '') return { kind: 'allow' };
  expect(r.stdout.endsWith('\n')).toBe(true);
  const line = r.stdout.slice(0, -1);
  expect(line).not.toContain('\n');
  expect(line).not.toMatch(UNSAFE);
  expect(line).not.toMatch(/\\u00[0-9a-f]{2}|\\[btfr]/i); // no control character escaped into the JSON either
  const doc = JSON.parse(line) as Record<string, unknown>;
  const text = doc.decision === 'block' ? doc.reason : doc.systemMessage;
  expect(typeof text).toBe('string');
  expect(text as string).not.toMatch(UNSAFE);
  expect(Array.from(text as string).length).toBeLessThanOrEqual(REASON_CAP);
  if (doc.decision === 'block') {
    expect(Object.keys(doc).sort()).toEqual(['decision', 'reason']);
    return { kind: 'block', reason: text as string };
  }
  expect(Object.keys(doc)).toEqual(['systemMessage']);
  return { kind: 'message', message: text as string };
}

export function expectBlock(o: HookOutcome): string {
  if (o.kind !== 'block') throw new Error(`expected a block, got ${JSON.stringify(o)}`);
  return o.reason;
}

export function expectMessage(o: HookOutcome): string {
  if (o.kind !== 'message') throw new Error(`expected a systemMessage, got ${JSON.stringify(o)}`);
  return o.message;
}
