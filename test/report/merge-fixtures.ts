// Shard reports as gate-check's run builds them (commands/run.ts: every gate listed, only
// the shard's runnable gates selected and answered for), made in-process from real parsed
// ledgers, for the merge unit and property tests. The CLI tests in test/commands/ci.test.ts
// check the same merge against reports of real runs.
import { createHash } from 'node:crypto';
import { shortDefinition } from '../../lib/ledger/definition.js';
import { gateState } from '../../lib/ledger/state.js';
import type { Gate } from '../../lib/ledger/types.js';
import { MAX_PASS_DURATION_MS, type LedgerTruth, type NamedReport } from '../../lib/report/merge.js';
import { effectivelyMet, emptyResult, gateReport, ledgerRevisions, REPORT_SCHEMA, summarize, type GateResult, type Mode, type Report } from '../../lib/report/model.js';
import { shardOf } from '../../lib/run/shard.js';
import { parseOk } from '../helpers/ledger.js';

export type Outcome = 'pass' | 'fail' | 'unapproved';

export interface GateSpec {
  id: string;
  kind: 'runnable' | 'manual';
  /** Ticked: for a runnable gate with evidence of a passing run of its definition; for a manual gate with evidence. */
  ticked: boolean;
  abandoned: boolean;
  /** What its check does when a shard runs it. */
  outcome: Outcome;
}

export interface LedgerSpec {
  file: string;
  gates: GateSpec[];
}

function hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function gateText(g: GateSpec): string {
  const box = g.ticked ? 'x' : ' ';
  let body = `- [${box}] ${g.id}: ${g.id} works\n`;
  if (g.kind === 'runnable') body += `  CHECK: run ${g.id}\n  EXPECT: ok-${g.id}\n`;
  return body;
}

/** Ledger text for the spec; a ticked runnable gate gets evidence naming its definition. */
export function ledgerText(spec: LedgerSpec): string {
  let text = '';
  for (const g of spec.gates) {
    let body = gateText(g);
    if (g.ticked) {
      if (g.kind === 'runnable') {
        const def = shortDefinition(parseOk(body).gates[0]!)!;
        body += `  EVIDENCE: exit=0; def=${def}; match=${'0'.repeat(12)}; receipt=${'0'.repeat(12)}\n`;
      } else {
        body += '  EVIDENCE: reviewed by a person\n';
      }
    }
    text += body;
  }
  const abandoned = spec.gates.filter((g) => g.abandoned);
  if (abandoned.length > 0) text += '\n' + abandoned.map((g) => `ABANDON: ${g.id} handed to a person\n`).join('');
  return text;
}

export interface Workspace {
  ledgers: { display: string; stem: string; source: string; gates: Gate[]; spec: LedgerSpec }[];
}

export function workspace(specs: readonly LedgerSpec[]): Workspace {
  return {
    ledgers: specs.map((spec) => {
      const source = ledgerText(spec);
      const stem = spec.file.replace(/^.*\//, '').replace(/\.md$/, '');
      return { display: spec.file, stem, source, gates: parseOk(source).gates, spec };
    }),
  };
}

export function truthOf(ws: Workspace, root = '/checkout'): LedgerTruth {
  return {
    root,
    files: ws.ledgers.map((l) => l.display),
    ledgers: ledgerRevisions(ws.ledgers),
    gates: ws.ledgers.flatMap((l) => l.gates.map((g) => gateReport(l.display, l.stem, g))),
    // Every EXPECT here is ok-<id>: a pass prints at least that.
    passBounds: ws.ledgers.flatMap((l) => l.gates.map((g) => (g.expect?.kind === 'substring' ? { minBytes: g.expect.text.length, maxMs: MAX_PASS_DURATION_MS } : null))),
    warnings: [],
  };
}

function outcomeOf(ws: Workspace, qualified: string): Outcome {
  for (const l of ws.ledgers) for (const g of l.spec.gates) if (`${l.stem}:${g.id}` === qualified) return g.outcome;
  throw new Error(`no gate ${qualified}`);
}

function resultFor(qualified: string, outcome: Outcome): GateResult {
  const signature = hex(`oracle ${qualified}`);
  if (outcome === 'unapproved') return emptyResult('approval-required', 'approval required', signature);
  const pass = outcome === 'pass';
  return { status: pass ? 'pass' : 'fail', exit: pass ? 0 : 1, outputSha256: hex(`out ${qualified}`), bytes: 12, durationMs: 5, error: pass ? null : 'exit 1', signature, changed: null, request: null };
}

export interface RunChoice {
  mode: Exclude<Mode, 'status' | 'merge'>;
  onlyStale?: boolean;
  /** Met gates whose evidence is verified on the shard's machine (a fresh CI runner has none). */
  verified?: ReadonlySet<string>;
}

/** The report a run makes (commands/run.ts), sharded when `shard` is given. */
export function runReport(ws: Workspace, shard: { index: number; count: number } | null, choice: RunChoice): Report {
  const verified = choice.verified ?? new Set<string>();
  const entries = ws.ledgers.flatMap((l) => l.gates.map((gate) => ({ gate, qualified: `${l.stem}:${gate.id}`, report: gateReport(l.display, l.stem, gate) })));
  const inScope = (e: (typeof entries)[number]) => !shard || (e.gate.kind === 'runnable' && shardOf(e.qualified, shard.count) === shard.index);
  const scope = entries.filter(inScope);
  for (const e of scope) if (e.report.state === 'met' && e.gate.kind === 'runnable') e.report.verification = verified.has(e.qualified) ? 'verified' : 'unverified';
  const reverify = choice.mode === 'reverify';
  const candidates = scope.filter((e) => {
    if (e.gate.kind !== 'runnable') return false;
    const state = gateState(e.gate);
    if (state === 'abandoned') return false;
    const holds = state === 'met' && e.report.verification === 'verified';
    if (choice.onlyStale) return e.gate.checked && !holds;
    if (reverify) return true;
    return !holds;
  });
  for (const e of candidates) {
    const outcome = outcomeOf(ws, e.qualified);
    const result = resultFor(e.qualified, outcome);
    e.report.result = result;
    if (result.status === 'pass' || result.status === 'fail') {
      const pass = result.status === 'pass';
      e.report.state = pass ? 'met' : 'unmet';
      e.report.checked = pass;
      e.report.verification = pass ? 'verified' : null;
      e.report.verificationReason = null;
    }
  }
  const scoped = scope.map((e) => e.report);
  return {
    schema: REPORT_SCHEMA,
    mode: choice.mode,
    exitCode: scoped.every(effectivelyMet) ? 0 : 1,
    root: `/runner/${shard ? shard.index : 0}`,
    files: ws.ledgers.map((l) => l.display),
    ledgers: ledgerRevisions(ws.ledgers),
    shard: shard ? { index: shard.index, count: shard.count, reran: choice.onlyStale ? 'stale' : reverify ? 'all' : 'unverified' } : null,
    scope: null,
    waves: [],
    scopes: [],
    summary: summarize(scoped),
    warnings: [],
    errors: [],
    gates: entries.map((e) => e.report),
  };
}

/** Every shard's report of one sharded run, named report-I.json. */
export function shardReports(ws: Workspace, count: number, choice: RunChoice = { mode: 'reverify' }): NamedReport[] {
  return Array.from({ length: count }, (_, i) => ({ name: `report-${i + 1}.json`, report: runReport(ws, { index: i + 1, count }, choice) }));
}

/** A deep copy through JSON, as merge reads a report back from disk. */
export function roundTrip<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** The qualified id of the first gate (in ledger order) matching `pred`. */
export function findGate(ws: Workspace, pred: (g: GateSpec, qualified: string) => boolean): { index: number; qualified: string } | null {
  let index = 0;
  for (const l of ws.ledgers)
    for (const g of l.spec.gates) {
      const q = `${l.stem}:${g.id}`;
      if (pred(g, q)) return { index, qualified: q };
      index++;
    }
  return null;
}
