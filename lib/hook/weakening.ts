// Which gates were weakened since a session's baseline (issue 12 §4): removed, turned manual,
// CHECK/EXPECT/CWD/DEPENDS/INPUTS/TIMEOUT changed, or newly abandoned. The comparison is
// `gate-check diff`'s (compareLedgers), run over projections of the gates: what the baseline
// keeps of a gate (its definition, kind, hand-off, and a digest of a manual gate's title) on
// both sides, so that both are compared alike. Cosmetic edits (order, whitespace, a runnable
// gate's title, boxes, EVIDENCE lines) are no finding at all; moves keep the gate; a manual
// gate's new title, a manual gate turned runnable, INPUTS that only gain patterns and a
// withdrawn ABANDON are no weakening. A gate added during the session joins the baseline; one
// added already abandoned is a hand-off, not a weakening. Pure.
import { compareLedgers, type FieldChange, type SnapshotLedger } from '../ledger/compare.js';
import { definitionDigest } from '../ledger/definition.js';
import type { Gate, Ledger } from '../ledger/types.js';
import { sha256Hex } from '../oracle/oracle.js';

/** What the baseline keeps of one gate. */
export interface BaselineGate {
  /** The ledger's path relative to the repository root. */
  file: string;
  scope: string | null;
  id: string;
  kind: 'runnable' | 'manual';
  check: string | null;
  expect: string | null;
  cwd: string | null;
  depends: string[] | null;
  inputs: string[] | null;
  timeout: number | null;
  /** A runnable gate's definition digest (ledger/definition.ts); null for a manual gate. */
  def: string | null;
  /** SHA-256 of a manual gate's title, blanks collapsed (its title is all it says); null for a runnable gate. */
  title: string | null;
  abandoned: boolean;
  /**
   * A runnable gate's earlier definitions in this session (their digests): the one the session
   * began with and each a person replaced with `hook accept`. Going back to one is no weakening
   * (round-41a F9: the session's own start was called weakened after an accept). Absent: none.
   */
  earlier?: string[];
}

/** Most earlier definitions a baseline gate keeps. */
export const MAX_EARLIER = 32;

export function projectGate(file: string, scope: string | null, gate: Gate): BaselineGate {
  const runnable = gate.kind === 'runnable';
  return {
    file,
    scope,
    id: gate.id,
    kind: gate.kind,
    check: gate.check,
    expect: gate.expectRaw,
    cwd: gate.cwd,
    depends: gate.depends === null ? null : [...gate.depends],
    inputs: gate.inputs === null ? null : [...gate.inputs],
    timeout: gate.timeoutSeconds,
    def: runnable ? definitionDigest(gate) : null,
    title: runnable ? null : sha256Hex(gate.title.replace(/\s+/g, ' ').trim()),
    abandoned: gate.abandon !== null,
  };
}

export function gateKey(file: string, id: string): string {
  return `${file}\u0000${id}`;
}

/** The fields compareLedgers reads, from a projection. */
function stubGate(b: BaselineGate): Gate {
  return {
    id: b.id,
    title: b.title ?? '',
    line: 0,
    checked: false,
    kind: b.kind,
    check: b.check,
    expectRaw: b.expect,
    expect: null,
    cwd: b.cwd,
    depends: b.depends,
    inputs: b.inputs,
    timeoutSeconds: b.timeout,
    evidence: null,
    abandon: b.abandoned ? { reason: '', line: 0 } : null,
    attributeLines: {},
    lineIndex: 0,
    evidenceIndex: null,
    lastAttributeIndex: 0,
    attributeIndent: '',
  };
}

function snapshot(gates: readonly BaselineGate[]): SnapshotLedger[] {
  const byFile = new Map<string, { scope: string | null; gates: Gate[] }>();
  for (const g of gates) {
    let at = byFile.get(g.file);
    if (at === undefined) byFile.set(g.file, (at = { scope: g.scope, gates: [] }));
    at.gates.push(stubGate(g));
  }
  return [...byFile].map(([file, at]) => ({ file, scope: at.scope, ledger: { lines: [], gates: at.gates, owns: [], warnings: [] } satisfies Ledger }));
}

export type WeakeningKind = 'removed' | 'turned manual' | 'changed' | 'newly abandoned';

export interface Weakening {
  /** Where the gate is now (null when it is gone) and where the baseline has it. */
  file: string | null;
  baseFile: string;
  id: string;
  kinds: WeakeningKind[];
  /** The definition fields that changed (for `changed`), baseline value and current one. */
  fields: FieldChange[];
}

export interface BaselineComparison {
  weakened: Weakening[];
  /** Gates first seen now: they join the baseline as they are. */
  added: BaselineGate[];
}

function sameProjection(a: BaselineGate, b: BaselineGate): boolean {
  return a.kind === b.kind && a.def === b.def && a.title === b.title && a.abandoned === b.abandoned && a.scope === b.scope;
}

/** `now` is a definition the baseline gate had earlier in the session (its start, or one a person accepted since). */
function backToEarlier(base: BaselineGate | undefined, now: BaselineGate | undefined): boolean {
  return base !== undefined && now !== undefined && now.kind === 'runnable' && now.def !== null && (base.earlier ?? []).includes(now.def);
}

/**
 * Whether a changed field only makes the gate stricter: INPUTS that keep every pattern they
 * had and add more (more changes make its evidence stale; INPUTS choose nothing that runs).
 */
function onlyStricter(f: FieldChange, b: BaselineGate | undefined, n: BaselineGate | undefined): boolean {
  if (f.field !== 'INPUTS' || b === undefined || n === undefined || n.inputs === null) return false;
  const now = new Set(n.inputs);
  return (b.inputs ?? []).every((p) => now.has(p));
}

/** What changed from `base` to `now` that weakens an obligation, and which gates are new. */
export function compareWithBaseline(base: readonly BaselineGate[], now: readonly BaselineGate[]): BaselineComparison {
  // The common case, nothing but additions: every baseline gate is where it was, as it was.
  const nowByKey = new Map<string, BaselineGate>();
  for (const g of now) nowByKey.set(gateKey(g.file, g.id), g);
  const baseKeys = new Set<string>();
  let unchanged = true;
  for (const b of base) {
    const key = gateKey(b.file, b.id);
    baseKeys.add(key);
    const n = nowByKey.get(key);
    if (n === undefined || !(sameProjection(b, n) || (backToEarlier(b, n) && n.abandoned === b.abandoned && n.scope === b.scope))) unchanged = false;
  }
  if (unchanged) return { weakened: [], added: now.filter((g) => !baseKeys.has(gateKey(g.file, g.id))) };

  const comparison = compareLedgers(snapshot(base), snapshot(now));
  const baseByKey = new Map<string, BaselineGate>();
  for (const b of base) baseByKey.set(gateKey(b.file, b.id), b);
  const weakened = new Map<string, Weakening>();
  const added: BaselineGate[] = [];
  const note = (c: { file: string | null; baseFile: string | null; id: string | null }, kind: WeakeningKind, fields: FieldChange[] = []) => {
    const key = c.file !== null ? `now\u0000${gateKey(c.file, c.id!)}` : `gone\u0000${gateKey(c.baseFile!, c.id!)}`;
    let w = weakened.get(key);
    if (w === undefined) weakened.set(key, (w = { file: c.file, baseFile: c.baseFile!, id: c.id!, kinds: [], fields: [] }));
    if (!w.kinds.includes(kind)) w.kinds.push(kind);
    for (const f of fields) w.fields.push(f);
  };
  for (const c of comparison.changes) {
    if (c.id === null) continue; // ledger-level findings: their gates are listed one by one
    switch (c.kind) {
      case 'removed':
        note(c, 'removed');
        break;
      case 'turned-manual':
        note(c, 'turned manual');
        break;
      case 'changed': {
        if (backToEarlier(baseByKey.get(gateKey(c.baseFile!, c.id!)), nowByKey.get(gateKey(c.file!, c.id!)))) break;
        const weaker = c.fields.filter((f) => !onlyStricter(f, baseByKey.get(gateKey(c.baseFile!, c.id!)), nowByKey.get(gateKey(c.file!, c.id!))));
        if (weaker.length > 0) note(c, 'changed', weaker);
        break;
      }
      case 'abandoned':
        // A gate added already abandoned is a hand-off of new work, not a weakened obligation.
        if (c.baseFile !== null) note(c, 'newly abandoned');
        break;
      case 'added': {
        const g = nowByKey.get(gateKey(c.file!, c.id));
        if (g !== undefined) added.push(g);
        break;
      }
      default:
        break; // moved, turned runnable, retitled, unabandoned, OWNS: nothing owed is lost
    }
  }
  return { weakened: [...weakened.values()], added };
}

/** "removed", "turned manual", "CHECK, EXPECT changed", "newly abandoned", joined. */
export function describeWeakening(w: Weakening): string {
  const parts: string[] = [];
  for (const k of w.kinds) {
    if (k !== 'changed') parts.push(k);
    else parts.push(`${[...new Set(w.fields.map((f) => (f.field === 'definition' ? 'definition' : f.field)))].join(', ')} changed`);
  }
  return parts.join(', ');
}
