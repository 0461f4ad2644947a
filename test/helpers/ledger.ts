import { shortDefinition } from '../../lib/ledger/definition.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import type { Ledger } from '../../lib/ledger/types.js';

/** Parse and insist on success. */
export function parseOk(source: string): Ledger {
  const r = parseLedger(source);
  if (!r.ok) throw new Error('expected a valid ledger, got:\n' + r.errors.map((e) => `${e.line}: ${e.message}`).join('\n'));
  return r.ledger;
}

/** Parse and insist on failure; returns "line: message" strings. */
export function parseErrors(source: string): string[] {
  const r = parseLedger(source);
  if (r.ok) throw new Error('expected parse errors, got a valid ledger');
  return r.errors.map((e) => `${e.line}: ${e.message}`);
}

export function warningsOf(source: string): string[] {
  const r = parseLedger(source);
  const w = r.ok ? r.ledger.warnings : r.warnings;
  return w.map((e) => `${e.line}: ${e.message}`);
}

export const lines = (...ls: string[]) => ls.join('\n') + '\n';

/** The def= value (12 hex) that evidence of gate `id` in this ledger must carry. */
export function defOf(source: string, id: string): string {
  const gate = parseOk(source).gates.find((g) => g.id === id);
  if (!gate) throw new Error(`no gate ${id}`);
  const d = shortDefinition(gate);
  if (d === null) throw new Error(`${id} is manual`);
  return d;
}

/**
 * A ticked runnable gate with hand-written evidence that names its definition correctly:
 * met in plain --status (the ledger agrees with itself), unverified where no run happened.
 */
export function handWrittenMet(id: string, title: string, check: string, expect: string, extra = ''): string {
  const body = `- [x] ${id}: ${title}\n  CHECK: ${check}\n  EXPECT: ${expect}\n${extra}`;
  return `${body}  EVIDENCE: exit=0; def=${defOf(body, id)}; match=${'0'.repeat(12)}; receipt=${'0'.repeat(12)}\n`;
}
