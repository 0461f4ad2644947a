// What changed in a tree's ledgers between two revisions, judged as obligations (gate-check
// diff). Pure: two lists of parsed ledgers in, a list of findings out.
//
// A gate is identified by its ledger file and id. A gate whose file no longer holds its id is
// looked for in the other ledgers: one with the same id and the same obligation (the same
// definition for a runnable gate, the same title for a manual one, whose title is all it says)
// is the same gate, moved. Everything else at the base is removed.
//
// Severities:
// - weakened: an obligation is gone or can now be met without being met: a gate removed,
//   a runnable gate turned manual, a new ABANDON (a hand-off instead of the work), a ledger
//   removed with gates in it.
// - review: the obligation changed and no tool can say whether it is weaker: any change to
//   CHECK, EXPECT, CWD, DEPENDS, INPUTS or TIMEOUT (is `npm test -- --bail` weaker than
//   `npm test`?), a manual gate turned runnable (a command instead of a person), a gate moved
//   to another scope (another pipeline, another agent answers for it).
// - info: nothing owed is lost: gates and ledgers added, moves within a scope, a renamed
//   ledger, a withdrawn ABANDON, a manual gate's new title, OWNS changes.
// Cosmetic edits are not findings at all: order, whitespace, notes, headings, titles of
// runnable gates, ticked boxes, EVIDENCE lines, a hand-off's reason, DEPENDS order.
import { definitionText } from './definition.js';
import type { Gate, Ledger } from './types.js';

export interface SnapshotLedger {
  /** Path relative to the root, '/' separated. */
  file: string;
  /** The scope whose folder holds it (.gate-check/<scope>/), or null for GATES.md and gates/. */
  scope: string | null;
  ledger: Ledger;
}

export type Severity = 'weakened' | 'review' | 'info';

export type ChangeKind =
  | 'removed'
  | 'turned-manual'
  | 'abandoned'
  | 'ledger-removed'
  | 'changed'
  | 'turned-runnable'
  | 'moved'
  | 'added'
  | 'ledger-added'
  | 'ledger-renamed'
  | 'unabandoned'
  | 'retitled'
  | 'owns-changed';

export type FieldName = 'CHECK' | 'EXPECT' | 'CWD' | 'DEPENDS' | 'INPUTS' | 'TIMEOUT' | 'OWNS' | 'TITLE' | 'ABANDON' | 'definition';

export interface FieldChange {
  field: FieldName;
  base: string | null;
  now: string | null;
  /** Where the field is written now (1-based), or null when it is gone. */
  line: number | null;
}

export interface Change {
  kind: ChangeKind;
  severity: Severity;
  /** Gate id; null for a ledger-level finding. */
  id: string | null;
  /** The gate's title now, or at the base when it is gone. */
  title: string | null;
  /** Where it is now (null when gone) and where it was (null when new). */
  file: string | null;
  line: number | null;
  scope: string | null;
  baseFile: string | null;
  baseLine: number | null;
  baseScope: string | null;
  fields: FieldChange[];
}

export interface Comparison {
  changes: Change[];
  counts: Record<Severity, number>;
  /** 1 when anything was weakened or needs review, else 0. */
  exitCode: 0 | 1;
  ledgersAtBase: number;
  ledgersNow: number;
  gatesAtBase: number;
  gatesNow: number;
}

export const SEVERITY_OF: Readonly<Record<ChangeKind, Severity>> = {
  removed: 'weakened',
  'turned-manual': 'weakened',
  abandoned: 'weakened',
  'ledger-removed': 'weakened',
  changed: 'review',
  'turned-runnable': 'review',
  moved: 'info',
  added: 'info',
  'ledger-added': 'info',
  'ledger-renamed': 'info',
  unabandoned: 'info',
  retitled: 'info',
  'owns-changed': 'info',
};

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { weakened: 0, review: 1, info: 2 };

interface Located {
  at: SnapshotLedger;
  gate: Gate;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedOrNull(list: readonly string[] | null): string[] | null {
  return list === null ? null : [...list].sort(byCodeUnit);
}

function listText(list: readonly string[] | null): string | null {
  return list === null ? null : sortedOrNull(list)!.join(', ');
}

/** Runs of blanks are not a different title. */
function normalTitle(gate: Gate): string {
  return gate.title.replace(/\s+/g, ' ').trim();
}

/**
 * What a move must keep for the moved gate to count as the same gate: its id and kind, and
 * its definition (runnable) or its title (manual: the title is all it says).
 */
const keys = new WeakMap<Gate, string>();
function obligationKey(gate: Gate): string {
  let key = keys.get(gate);
  if (key === undefined) {
    key = JSON.stringify([gate.id, gate.kind, gate.kind === 'runnable' ? definitionText(gate) : normalTitle(gate)]);
    keys.set(gate, key);
  }
  return key;
}

/** CHECK, EXPECT, CWD, DEPENDS, INPUTS and TIMEOUT of two runnable gates, each that differs. */
export function definitionChanges(base: Gate, now: Gate): FieldChange[] {
  const out: FieldChange[] = [];
  const field = (name: FieldName, a: string | null, b: string | null, line: number | undefined, same = a === b) => {
    if (!same) out.push({ field: name, base: a, now: b, line: b === null ? null : (line ?? now.line) });
  };
  // Lists are compared exactly (as sets) and shown joined: ["a, b"] and ["a", "b"] differ.
  const list = (name: FieldName, a: readonly string[] | null, b: readonly string[] | null, line: number | undefined) =>
    field(name, listText(a), listText(b), line, JSON.stringify(sortedOrNull(a)) === JSON.stringify(sortedOrNull(b)));
  field('CHECK', base.check, now.check, now.attributeLines.CHECK);
  field('EXPECT', base.expectRaw, now.expectRaw, now.attributeLines.EXPECT);
  field('CWD', base.cwd, now.cwd, now.attributeLines.CWD);
  list('DEPENDS', base.depends, now.depends, now.attributeLines.DEPENDS);
  list('INPUTS', base.inputs, now.inputs, now.attributeLines.INPUTS);
  field('TIMEOUT', base.timeoutSeconds === null ? null : String(base.timeoutSeconds), now.timeoutSeconds === null ? null : String(now.timeoutSeconds), now.attributeLines.TIMEOUT);
  // Fail closed: should the definition ever gain a part this list does not name, a
  // difference in it is still a change. (Unreachable while the list names every part.)
  if (out.length === 0 && definitionText(base) !== definitionText(now)) out.push({ field: 'definition', base: definitionText(base), now: definitionText(now), line: now.line });
  return out;
}

export function compareLedgers(base: readonly SnapshotLedger[], now: readonly SnapshotLedger[]): Comparison {
  const changes: Change[] = [];
  const gateChange = (kind: ChangeKind, b: Located | null, n: Located | null, fields: FieldChange[] = [], line?: number): Change => ({
    kind,
    severity: SEVERITY_OF[kind],
    id: (n ?? b)!.gate.id,
    title: (n ?? b)!.gate.title,
    file: n ? n.at.file : null,
    line: n ? (line ?? n.gate.line) : null,
    scope: n ? n.at.scope : null,
    baseFile: b ? b.at.file : null,
    baseLine: b ? b.gate.line : null,
    baseScope: b ? b.at.scope : null,
    fields,
  });

  const nowByFile = new Map<string, { at: SnapshotLedger; byId: Map<string, Gate> }>();
  for (const at of now) nowByFile.set(at.file, { at, byId: new Map(at.ledger.gates.map((g) => [g.id, g])) });
  const baseFiles = new Set(base.map((l) => l.file));

  // Pairing base gates with gates now, one to one, in three passes:
  // 1. same file, same id, same obligation (unchanged, perhaps reordered or retitled);
  // 2. moved: the same id and obligation in another ledger, preferably of the same scope;
  // 3. same file, same id, another obligation (changed).
  // What is left is removed (base) or added (now). So the obligations are compared as a
  // multiset: gates that swapped ledgers are moves, not a change and a removal.
  const pairs: { b: Located; n: Located }[] = [];
  const claimed = new Set<Gate>();
  const pair = (b: Located, n: Located) => {
    pairs.push({ b, n });
    claimed.add(n.gate);
  };
  const sameFile = (b: Located): Located | null => {
    const there = nowByFile.get(b.at.file);
    const match = there?.byId.get(b.gate.id);
    return match && !claimed.has(match) ? { at: there!.at, gate: match } : null;
  };
  let unmatched: Located[] = [];
  for (const at of base) {
    for (const gate of at.ledger.gates) {
      const b = { at, gate };
      const n = sameFile(b);
      if (n && obligationKey(n.gate) === obligationKey(gate)) pair(b, n);
      else unmatched.push(b);
    }
  }
  // Queues by key, each consumed from the front past claimed gates: linear overall.
  const inScope = new Map<string, { items: Located[]; at: number }>();
  const anywhere = new Map<string, { items: Located[]; at: number }>();
  const enqueue = (map: Map<string, { items: Located[]; at: number }>, key: string, item: Located) => {
    const q = map.get(key);
    if (q) q.items.push(item);
    else map.set(key, { items: [item], at: 0 });
  };
  const take = (q: { items: Located[]; at: number } | undefined): Located | undefined => {
    if (!q) return undefined;
    while (q.at < q.items.length && claimed.has(q.items[q.at]!.gate)) q.at++;
    return q.items[q.at];
  };
  for (const at of now) {
    for (const gate of at.ledger.gates) {
      if (claimed.has(gate)) continue;
      const key = obligationKey(gate);
      enqueue(inScope, JSON.stringify([at.scope, key]), { at, gate });
      enqueue(anywhere, key, { at, gate });
    }
  }
  const stillUnmatched: Located[] = [];
  for (const b of unmatched) {
    const key = obligationKey(b.gate);
    const n = take(inScope.get(JSON.stringify([b.at.scope, key]))) ?? take(anywhere.get(key));
    if (n) pair(b, n);
    else stillUnmatched.push(b);
  }
  unmatched = stillUnmatched;
  const removed: Located[] = [];
  for (const b of unmatched) {
    const n = sameFile(b);
    if (n) pair(b, n);
    else removed.push(b);
  }

  // Ledger files: removed, renamed (every gate moved into one new file of the same scope), added.
  const pairedTo = new Map<Gate, Located>();
  for (const p of pairs) pairedTo.set(p.b.gate, p.n);
  const renamedTo = new Map<string, string>();
  const renameTargets = new Set<string>();
  for (const at of base) {
    if (nowByFile.has(at.file)) continue;
    const targets = new Set<string>();
    let lost = 0;
    for (const gate of at.ledger.gates) {
      const n = pairedTo.get(gate);
      if (n) targets.add(n.at.file);
      else lost++;
    }
    const [target] = targets;
    const targetLedger = target === undefined ? undefined : nowByFile.get(target)!.at;
    if (lost === 0 && targets.size === 1 && !baseFiles.has(target!) && !renameTargets.has(target!) && targetLedger!.scope === at.scope) {
      renamedTo.set(at.file, target!);
      renameTargets.add(target!);
      changes.push({ kind: 'ledger-renamed', severity: 'info', id: null, title: null, file: target!, line: null, scope: targetLedger!.scope, baseFile: at.file, baseLine: null, baseScope: at.scope, fields: ownsChanges(at.ledger, targetLedger!.ledger) });
    } else {
      changes.push({ kind: 'ledger-removed', severity: lost > 0 ? 'weakened' : 'info', id: null, title: null, file: null, line: null, scope: null, baseFile: at.file, baseLine: null, baseScope: at.scope, fields: [] });
    }
  }
  for (const at of now) {
    if (baseFiles.has(at.file) || renameTargets.has(at.file)) continue;
    changes.push({ kind: 'ledger-added', severity: 'info', id: null, title: null, file: at.file, line: null, scope: at.scope, baseFile: null, baseLine: null, baseScope: null, fields: [] });
  }
  for (const at of base) {
    const there = nowByFile.get(at.file);
    if (!there) continue;
    const fields = ownsChanges(at.ledger, there.at.ledger);
    if (fields.length > 0) changes.push({ kind: 'owns-changed', severity: 'info', id: null, title: null, file: at.file, line: null, scope: there.at.scope, baseFile: at.file, baseLine: null, baseScope: at.scope, fields });
  }

  // Gates.
  for (const b of removed) changes.push(gateChange('removed', b, null));
  for (const { b, n } of pairs) {
    if (b.at.file !== n.at.file) {
      const crossScope = b.at.scope !== n.at.scope;
      // A renamed ledger says it once for all its gates.
      if (crossScope || renamedTo.get(b.at.file) !== n.at.file) {
        changes.push({ ...gateChange('moved', b, n), severity: crossScope ? 'review' : 'info' });
      }
    }
    const bg = b.gate;
    const ng = n.gate;
    if (bg.kind === 'runnable' && ng.kind === 'manual') {
      changes.push(gateChange('turned-manual', b, n));
    } else if (bg.kind === 'manual' && ng.kind === 'runnable') {
      changes.push(gateChange('turned-runnable', b, n, [], ng.attributeLines.CHECK));
    } else if (bg.kind === 'runnable') {
      const fields = definitionChanges(bg, ng);
      if (fields.length > 0) changes.push(gateChange('changed', b, n, fields, fields[0]!.line ?? ng.line));
    } else if (normalTitle(bg) !== normalTitle(ng)) {
      changes.push(gateChange('retitled', b, n, [{ field: 'TITLE', base: bg.title, now: ng.title, line: ng.line }]));
    }
    if (!bg.abandon && ng.abandon) changes.push(gateChange('abandoned', b, n, [abandonField(ng)], ng.abandon.line));
    else if (bg.abandon && !ng.abandon) changes.push(gateChange('unabandoned', b, n));
  }
  for (const at of now) {
    for (const gate of at.ledger.gates) {
      if (claimed.has(gate)) continue;
      const n = { at, gate };
      changes.push(gateChange('added', null, n));
      // A gate handed off as it is written is still a new ABANDON: a person must take it over.
      if (gate.abandon) changes.push(gateChange('abandoned', null, n, [abandonField(gate)], gate.abandon.line));
    }
  }

  changes.sort(compareChanges);
  const counts: Record<Severity, number> = { weakened: 0, review: 0, info: 0 };
  for (const c of changes) counts[c.severity]++;
  const gateCount = (ls: readonly SnapshotLedger[]) => ls.reduce((sum, l) => sum + l.ledger.gates.length, 0);
  return {
    changes,
    counts,
    exitCode: counts.weakened > 0 || counts.review > 0 ? 1 : 0,
    ledgersAtBase: base.length,
    ledgersNow: now.length,
    gatesAtBase: gateCount(base),
    gatesNow: gateCount(now),
  };
}

function abandonField(gate: Gate): FieldChange {
  return { field: 'ABANDON', base: null, now: gate.abandon!.reason, line: gate.abandon!.line };
}

function ownsChanges(base: Ledger, now: Ledger): FieldChange[] {
  const a = listText(base.owns);
  const b = listText(now.owns);
  return a === b ? [] : [{ field: 'OWNS', base: base.owns.length === 0 ? null : a, now: now.owns.length === 0 ? null : b, line: null }];
}

function compareChanges(a: Change, b: Change): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    byCodeUnit(a.file ?? a.baseFile ?? '', b.file ?? b.baseFile ?? '') ||
    (a.line ?? a.baseLine ?? 0) - (b.line ?? b.baseLine ?? 0) ||
    byCodeUnit(a.kind, b.kind) ||
    byCodeUnit(a.id ?? '', b.id ?? '')
  );
}
