// A gate's definition: what it checks, as written in the ledger (CHECK, EXPECT, CWD, DEPENDS
// and INPUTS patterns, TIMEOUT). Its digest is carried by the evidence line (def=), so that
// evidence for an edited gate is recognisable from the ledger alone, on any machine, without
// receipts. Nothing of the environment (shell, PATH, the reader's --timeout) is part of it.
// Pure.
import { sha256Hex } from '../oracle/sha256.js';
import type { Gate } from './types.js';

export const DEFINITION_VERSION = 'gate-check/definition@1';
/** Hex digits of the definition digest written on evidence lines. */
export const DEFINITION_SHORT = 12;

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedOrNull(list: readonly string[] | null): string[] | null {
  return list === null ? null : [...list].sort(byCodeUnit);
}

/** The canonical text of a runnable gate's definition (keys in sorted order). */
export function definitionText(gate: Gate): string {
  // Order of a pattern list does not change what it matches, so it is not part of the definition.
  return JSON.stringify({
    check: gate.check,
    cwd: gate.cwd,
    depends: sortedOrNull(gate.depends),
    expect: gate.expectRaw,
    inputs: sortedOrNull(gate.inputs),
    timeout: gate.timeoutSeconds,
    v: DEFINITION_VERSION,
  });
}

const cache = new WeakMap<Gate, string>();

/** SHA-256 (64 hex) of a runnable gate's definition; null for a manual gate. */
export function definitionDigest(gate: Gate): string | null {
  if (gate.kind !== 'runnable') return null;
  const known = cache.get(gate);
  if (known !== undefined) return known;
  const text = definitionText(gate);
  const digest = sha256Hex(text);
  cache.set(gate, digest);
  return digest;
}

/** The def= value of evidence for this gate. */
export function shortDefinition(gate: Gate): string | null {
  const d = definitionDigest(gate);
  return d === null ? null : d.slice(0, DEFINITION_SHORT);
}
