// The report every mode produces: one entry per gate in ledger order, a summary, the exit
// code. Rendered as text (report/text.ts) or JSON (report/json.ts). Pure.
import { sha256Hex } from '../oracle/sha256.js';
import type { Diagnostic } from '../errors.js';
import { definitionDigest } from '../ledger/definition.js';
import { lazyField } from '../lazy-field.js';
import { gateStatus, type GateState } from '../ledger/state.js';
import type { Gate } from '../ledger/types.js';
import type { Verification } from '../evidence/verify.js';
import type { OracleFields } from '../oracle/oracle.js';
import type { WaveReport } from '../dispatch/verdict.js';

export type { WaveReport };

export const REPORT_SCHEMA = 'gate-check/report@1';

export type Mode = 'status' | 'run' | 'approve' | 'reverify' | 'merge';
export type ResultStatus = 'pass' | 'fail' | 'approval-required' | 'stale' | 'not-run';

/** Why a run did not start a gate that has nothing wrong of its own (a 'not-run' result that is skipped, not failed). */
export const NOT_STARTED_FAIL_FAST = 'not started (--fail-fast)';
export const INTERRUPTED_BEFORE_END = 'interrupted before it finished';

/**
 * The open scopes and waves a report's verdict counts beyond its gates (the tree-wide view),
 * each with what is open: for the CI outputs, which list gates (round-39v V6: an unmet scope
 * gate failed the run and appeared in no annotation, test case or summary row).
 */
export function openTreeItems(report: Report): { label: string; open: string[] }[] {
  const out: { label: string; open: string[] }[] = [];
  for (const w of report.waves) if (w.state !== 'complete') out.push({ label: `${report.scope === null ? '' : `scope ${report.scope} `}wave ${w.id}`, open: [`${w.state}: ${w.returned} of ${w.leaves} leaves returned`] });
  for (const sc of report.scopes) if (sc.exitCode !== 0) out.push({ label: `scope ${sc.scope}`, open: sc.unmet });
  return out;
}

export interface GateResult {
  status: ResultStatus;
  exit: number | null;
  outputSha256: string | null;
  bytes: number | null;
  durationMs: number | null;
  error: string | null;
  /** Full oracle signature the attempt was made (or approval is needed) for. */
  signature: string | null;
  /** For approval-required: what differs from the gate's last approved oracle (null: never approved). */
  changed: string[] | null;
  /** For approval-required: what a person is asked to approve, so that an editor or a bot can show it. */
  request: ApprovalView | null;
}

/** The parts of an oracle a person reads before approving it (the approval screen, in data). */
export interface ApprovalView {
  check: string;
  expect: string;
  cwd: string;
  shell: string;
  timeoutMs: number;
  path: string | null;
  /** Files matched by DEPENDS, and executables bound from PATH entries inside the repository (paths only). */
  depends: string[];
  pathBound: string[];
  /** The bound environment variables that are set (bound-env.ts), as NAME=value. */
  env: string[];
  /**
   * What the approval screen cannot show in full (a CHECK past its line, a DEPENDS change
   * with no diff, a changed PATH executable…), as labels: such an oracle is approved only by
   * its pin, by someone who has read it elsewhere. Empty: the screen shows all of it.
   */
  pinOnly: string[];
  /**
   * Repository files the CHECK runs as scripts that DEPENDS does not bind: an edit to them
   * runs without a new approval. Null when not judged (an oracle that changed as its run began).
   */
  unboundScripts: string[] | null;
  /**
   * Where the screen stopped reading the CHECK for scripts (after a `cd` it cannot follow, at
   * a script named only at run time): what runs after it is the reader's to judge. Null:
   * read to the end (or not judged at all, with unboundScripts null).
   */
  unboundNotJudged: string | null;
}

export function approvalViewOf(f: OracleFields, pinOnly: string[], unboundScripts: string[] | null, unboundNotJudged: string | null): ApprovalView {
  return {
    check: f.check,
    expect: f.expect,
    cwd: f.cwd,
    shell: f.shell,
    timeoutMs: f.timeoutMs,
    path: f.path,
    depends: (f.depends ?? []).map((d) => d[0]),
    pathBound: (f.pathBound ?? []).map((d) => d[0]),
    env: (f.env ?? []).map(([name, value]) => `${name}=${value}`),
    pinOnly,
    unboundScripts,
    unboundNotJudged,
  };
}

export function emptyResult(status: ResultStatus, error: string | null, signature: string | null = null): GateResult {
  return { status, exit: null, outputSha256: null, bytes: null, durationMs: null, error, signature, changed: null, request: null };
}

export interface GateReport {
  file: string;
  line: number;
  id: string;
  qualified: string;
  title: string;
  kind: 'runnable' | 'manual';
  /** SHA-256 of the gate's definition (CHECK, EXPECT, CWD, DEPENDS, INPUTS, TIMEOUT as written); null for a manual gate. */
  definition: string | null;
  state: GateState;
  /** Why a checked gate is only claimed (no evidence, or evidence for another definition), or why an open gate cannot run yet; null otherwise. */
  stateReason: string | null;
  checked: boolean;
  /** For met gates: whether the evidence can be verified here (null for gates that are not met). */
  verification: Verification | null;
  verificationReason: string | null;
  result: GateResult | null;
}

export interface Summary {
  total: number;
  met: number;
  unmet: number;
  claimed: number;
  abandoned: number;
  /** Met gates by evidence verification. */
  verified: number;
  unverified: number;
  mismatched: number;
  stale: number;
  manual: number;
}

/** The ledger bytes a report was made from: shard reports merge only when these agree. */
export interface LedgerRevision {
  file: string;
  /** SHA-256 of the ledger's bytes as read at the start of the command. */
  sha256: string;
}

/**
 * Which of its gates a shard's run re-ran: every one (--reverify), those whose evidence is not
 * verified on the runner (a plain run or --approve), or only ticked gates whose evidence does
 * not hold (--reverify --only-stale). Merge says so when a gate has no result.
 */
export type Reran = 'all' | 'unverified' | 'stale';

export interface ShardInfo {
  index: number;
  count: number;
  reran: Reran;
}

/** What a shard run re-ran, from its options. */
export function reranBy(options: { reverify: boolean; onlyStale: boolean }): Reran {
  return options.onlyStale ? 'stale' : options.reverify ? 'all' : 'unverified';
}

/**
 * The verdict of one scope that a report covers without listing its gates (the tree-wide view:
 * the root ledgers were chosen, and the tree has scopes). Met (exit 0) only when every gate of
 * the scope is met (strict: verified) and every wave of it complete.
 */
export interface ScopeReport {
  scope: string;
  /** The scope's ledgers, relative to the root; empty when only its dispatch state is left. */
  files: string[];
  exitCode: 0 | 1;
  summary: Summary;
  /** Qualified ids (STEM:ID) of gates not met, then the labels of open or sealed waves. */
  unmet: string[];
  /** Qualified ids of abandoned gates, then the labels of abandoned waves. */
  handoff: string[];
  waves: WaveReport[];
}

export interface Report {
  schema: typeof REPORT_SCHEMA;
  mode: Mode;
  exitCode: number;
  root: string;
  files: string[];
  ledgers: LedgerRevision[];
  /** For --shard runs: which share this report covers (results only for its gates). */
  shard: ShardInfo | null;
  /** The scope whose ledgers `gates` lists; null for the root ledgers or named files. */
  scope: string | null;
  /** The waves of that scope (empty without one); an open or sealed wave keeps the verdict unmet. */
  waves: WaveReport[];
  /** Every other scope the verdict covers (the tree-wide view); each must be met for exit 0. */
  scopes: ScopeReport[];
  summary: Summary;
  warnings: Diagnostic[];
  errors: Diagnostic[];
  gates: GateReport[];
}

/** The part of a verdict beyond the report's own gates: its scope's waves, and the other scopes. */
export interface TreeVerdict {
  scope: string | null;
  waves: WaveReport[];
  scopes: ScopeReport[];
}

export const NO_TREE: TreeVerdict = { scope: null, waves: [], scopes: [] };

/** True when the waves and scopes of a verdict hold nothing open: every wave complete, every scope met. */
export function treeMet(tree: TreeVerdict): boolean {
  return tree.waves.every((w) => w.state === 'complete') && tree.scopes.every((s) => s.exitCode === 0);
}

const lazyRevision = lazyField<LedgerRevision, 'sha256', string>('sha256', sha256Hex);

export function ledgerRevisions(ledgers: readonly { display: string; source: string }[]): LedgerRevision[] {
  return ledgers.map((l) => lazyRevision({ file: l.display } as LedgerRevision, l.source));
}

export function gateReport(file: string, stem: string, gate: Gate, result: GateResult | null = null): GateReport {
  const status = gateStatus(gate);
  // Built in the order of the JSON document, `definition` added in its place, never redefined.
  const report = { file, line: gate.line, id: gate.id, qualified: `${stem}:${gate.id}`, title: gate.title, kind: gate.kind } as GateReport;
  // An open gate's digest is only shown (JSON): computed when read, so that a status of open
  // gates hashes nothing. A ticked gate's is computed anyway (its evidence names it), and an
  // accessor on each of 88,000 reports cost the Stop hook 40 MB.
  if (gate.kind === 'runnable' && !gate.checked) lazyDefinition(report, gate);
  else report.definition = definitionDigest(gate);
  report.state = status.state;
  report.stateReason = status.reason;
  report.checked = gate.checked;
  report.verification = null;
  report.verificationReason = null;
  report.result = result;
  return report;
}

const lazyDefinition = lazyField<GateReport, 'definition', Gate>('definition', definitionDigest);

export function summarize(gates: readonly GateReport[]): Summary {
  const s: Summary = { total: gates.length, met: 0, unmet: 0, claimed: 0, abandoned: 0, verified: 0, unverified: 0, mismatched: 0, stale: 0, manual: 0 };
  for (const g of gates) {
    s[g.state]++;
    if (g.state === 'met' && g.verification) s[g.verification]++;
  }
  return s;
}

/** After a run: met, and not contradicted by this run's attempt (a failed or unapproved re-run is not met). */
export function effectivelyMet(g: GateReport): boolean {
  return g.state === 'met' && (g.result === null || g.result.status === 'pass');
}

/** Met with evidence that holds up: verified here, or human evidence of a manual gate. */
export function strictlyMet(g: GateReport): boolean {
  return g.state === 'met' && (g.verification === 'verified' || g.verification === 'manual');
}

/** 0 when every gate is met (strict: and its evidence verified); 1 when anything is unmet, claimed, not run or handed off. */
export function outcomeExitCode(gates: readonly GateReport[], strict = false): 0 | 1 {
  return gates.length > 0 && gates.every((g) => (strict ? strictlyMet(g) : g.state === 'met')) ? 0 : 1;
}

export function errorReport(mode: Mode, root: string, errors: Diagnostic[], warnings: Diagnostic[] = [], files: string[] = []): Report {
  return {
    schema: REPORT_SCHEMA,
    mode,
    exitCode: 2,
    root,
    files,
    ledgers: [],
    shard: null,
    scope: null,
    waves: [],
    scopes: [],
    summary: summarize([]),
    warnings,
    errors,
    gates: [],
  };
}
