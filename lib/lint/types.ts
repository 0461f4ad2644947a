// The vocabulary of gate-check lint: rules, findings, and what the pure rules are given.
import type { Expect } from '../ledger/expect.js';

/** Every rule, in the order findings of one line are reported. */
export const RULES = [
  'mostly-manual',
  'activity-title',
  'manual-measurable',
  'unmeasured-number',
  'cannot-fail',
  'self-satisfying',
  'inverted-exit',
  'masked-exit',
  'weak-expect',
  'matches-anything',
  'passes-with-no-tests',
  'path-like-regex',
  'undeclared-script',
  'undeclared-inputs',
  'machine-specific-path',
] as const;
export type RuleId = (typeof RULES)[number];

export interface Finding {
  /** Ledger path as displayed (relative to the root). */
  file: string;
  /** 1-based line the finding is about. */
  line: number;
  /** Gate id, or null for a finding about the whole ledger. */
  gate: string | null;
  /** STEM:ID, or STEM for a ledger finding. */
  qualified: string;
  rule: RuleId;
  message: string;
  suggestion: string | null;
}

/** A finding before the ledger-level fields (file, qualified) are filled in. */
export type GateFinding = Omit<Finding, 'file' | 'qualified' | 'gate'>;

/**
 * Tests an EXPECT against a text. Injected, so that the pure rules stay pure and the command
 * can use the bounded matcher (a regex from a ledger is untrusted and may backtrack).
 */
export type ExpectMatcher = (expect: Expect, text: string) => boolean;

/** What a gate's rules need from outside the ledger text, resolved by the command. */
export interface GateContext {
  /** Repository-relative working directory of the CHECK ('.' is the root); null when outside it. */
  workdir: string | null;
  /** Repository-relative files that the gate's DEPENDS globs match on disk. */
  dependsMatched: ReadonlySet<string>;
  /**
   * Whether a repository-relative glob matches at least one file on disk now. Suggestions
   * only name globs that do: a DEPENDS or INPUTS glob that matches nothing makes the gate
   * not runnable. Absent: nothing is known to exist (no definition file is required).
   */
  hasFiles?: (glob: string) => boolean;
  /**
   * The text of a package.json script (`test` for `npm test`) in the folder a package manager
   * runs in (repository-relative), or null when there is none or it cannot be read. Absent:
   * package scripts are not read.
   */
  packageScript?: (dir: string, name: string) => string | null;
}
