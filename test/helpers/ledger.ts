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
