// The parsed shape of a ledger. Pure data: no I/O anywhere under lib/ledger/.
import type { Diagnostic } from '../errors.js';
import type { Expect } from './expect.js';
import type { SourceLine } from './lines.js';

export const ATTRIBUTE_KEYS = ['CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS', 'TIMEOUT', 'EVIDENCE'] as const;
export type AttributeKey = (typeof ATTRIBUTE_KEYS)[number];

/** What a gate id must look like: explicit, non-empty, no spaces or colons. */
export const GATE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface Gate {
  id: string;
  title: string;
  /** 1-based line of the `- [ ] ID: title` line. */
  line: number;
  checked: boolean;
  kind: 'runnable' | 'manual';
  /** Exact CHECK text (trimmed of surrounding blanks), or null on a manual gate. */
  check: string | null;
  /** Exact EXPECT text as written, and its parsed form. */
  expectRaw: string | null;
  expect: Expect | null;
  /** Normalized relative working directory as written, or null (the default applies). */
  cwd: string | null;
  /** Normalized repository-relative globs, or null when the gate has no DEPENDS. */
  depends: string[] | null;
  /**
   * Normalized globs of the files the check reads as data (INPUTS): a change makes the
   * evidence stale and calls for a re-run, but needs no new approval. Null when absent.
   */
  inputs: string[] | null;
  /** The gate's own TIMEOUT in seconds, or null (the run's --timeout applies). */
  timeoutSeconds: number | null;
  /** The EVIDENCE value, or null when the gate has no EVIDENCE line. */
  evidence: string | null;
  abandon: { reason: string; line: number } | null;
  /** Where each attribute was written (1-based lines). */
  attributeLines: Partial<Record<AttributeKey, number>>;
  /** 0-based indices used by the formatter. */
  lineIndex: number;
  evidenceIndex: number | null;
  lastAttributeIndex: number;
  attributeIndent: string;
}

export interface Ledger {
  lines: SourceLine[];
  gates: Gate[];
  owns: string[];
  warnings: Diagnostic[];
}

export type ParseResult =
  | { ok: true; ledger: Ledger }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };
