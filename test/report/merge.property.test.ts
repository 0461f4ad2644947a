// Property tests of the merger: (1) for random ledgers split into N shards, merging the
// genuine shard reports gives the verdict one unsharded run gives; (2) no single edit of
// one report (a field replaced by any value, also one copied from elsewhere; a field
// deleted; a list entry dropped, duplicated or moved; a report dropped or given twice)
// turns an unmet verdict into a met one: it is refused, or stays unmet.
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, tempDir } from '../helpers/cli.js';
import { mergeReports, type NamedReport } from '../../lib/report/merge.js';
import { parseReport } from '../../lib/report/parse-report.js';
import { runReport, shardReports, truthOf, workspace, type GateSpec, type LedgerSpec, type RunChoice, type Workspace } from './merge-fixtures.js';

const gateSpec = (id: string): fc.Arbitrary<GateSpec> =>
  fc.record({
    id: fc.constant(id),
    kind: fc.constantFrom('runnable' as const, 'runnable' as const, 'manual' as const),
    ticked: fc.boolean(),
    abandoned: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
    outcome: fc.constantFrom('pass' as const, 'pass' as const, 'pass' as const, 'fail' as const, 'unapproved' as const),
  });

const ledgerSpec = (file: string, prefix: string): fc.Arbitrary<LedgerSpec> =>
  fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => gateSpec(`${prefix}${i}`))).map((gates) => ({ file, gates })));

const workspaceArb: fc.Arbitrary<Workspace> = fc
  .tuple(ledgerSpec('GATES.md', 'G'), fc.option(ledgerSpec('gates/more.md', 'M'), { nil: undefined }))
  .map(([a, b]) => workspace(b ? [a, b] : [a]));

/** Mostly passing ledgers (an all-met verdict is common), for the verdict property. */
const choiceArb: fc.Arbitrary<RunChoice> = fc.constantFrom<RunChoice>({ mode: 'reverify' }, { mode: 'approve' }, { mode: 'run' });

function mergedExit(ws: Workspace, reports: readonly NamedReport[]): number | 'refused' {
  const r = mergeReports(truthOf(ws), reports, reports[0]?.report.shard?.count ?? 1);
  return r.ok ? r.report.exitCode : 'refused';
}

describe('merging genuine shard reports = one unsharded run', () => {
  it('for random ledgers and any shard count, on a fresh runner', () => {
    fc.assert(
      fc.property(workspaceArb, fc.integer({ min: 1, max: 7 }), choiceArb, (ws, count, choice) => {
        // A fresh CI runner verifies nothing, so a plain run and --approve re-run every gate too.
        const whole = runReport(ws, null, choice).exitCode;
        expect(mergedExit(ws, shardReports(ws, count, choice))).toBe(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the same, against real runs of the CLI (a few samples: each is several processes)', () => {
  it('merge of real shard reports exits as one real unsharded --reverify --approve', () => {
    const gateArb = fc.record({ kind: fc.constantFrom('pass', 'pass', 'fail', 'manual-open', 'manual-met', 'abandoned') });
    fc.assert(
      fc.property(fc.array(gateArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 3 }), (gates, count) => {
        const text =
          gates
            .map((g, i) => {
              if (g.kind === 'manual-open') return `- [ ] M${i}: manual\n`;
              if (g.kind === 'manual-met') return `- [x] M${i}: manual\n  EVIDENCE: reviewed\n`;
              return `- [ ] G${i}: gate works\n  CHECK: ${g.kind === 'fail' ? 'exit 1' : `echo ok-${i}`}\n  EXPECT: ok-${i}\n`;
            })
            .join('') + gates.map((g, i) => (g.kind === 'abandoned' ? `ABANDON: G${i} handed over\n` : '')).join('');
        const s = sandbox();
        const base = tempDir('gc-prop-');
        const checkout = (name: string) => {
          const dir = join(base, name);
          mkdirSync(dir);
          writeFileSync(join(dir, 'GATES.md'), text);
          return dir;
        };
        const whole = runCli(['--reverify', '--approve'], { cwd: checkout('whole'), env: s.env });
        const reports = Array.from({ length: count }, (_, i) => {
          const r = runCli(['--reverify', '--approve', '--shard', `${i + 1}/${count}`, '--json'], { cwd: checkout(`shard-${i + 1}`), env: s.env });
          const file = join(base, `report-${i + 1}.json`);
          writeFileSync(file, r.stdout);
          return file;
        });
        const merged = runCli(['merge', '--shards', String(count), ...reports], { cwd: checkout('merge'), env: s.env });
        expect(merged.code, merged.stdout + merged.stderr).toBe(whole.code);
      }),
      { numRuns: 4 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// Single edits.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

function paths(v: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k]!, [...at, k], out);
  return out;
}
function get(v: Json, p: Path): Json {
  return p.reduce<Json>((x, k) => (x as Record<string | number, Json>)[k]!, v);
}

const HEX = (c: string) => c.repeat(64);
const POOL: Json[] = [
  null, true, false, 0, 1, 2, 3, 130, -1, 1000, 1001, 0.5, '', 'x', 'pass', 'fail', 'approval-required', 'stale', 'not-run',
  'met', 'unmet', 'claimed', 'abandoned', 'manual', 'runnable', 'verified', 'all', 'unverified', 'run', 'approve', 'reverify', 'status', 'merge',
  'GATES.md', 'gates/more.md', 'GATES:G0', 'more:M0', HEX('a'), HEX('0'), [], {}, [null], { message: 'm' },
];

type Edit =
  | { kind: 'replace'; report: number; path: number; value: number; copyFrom: number | null }
  | { kind: 'delete'; report: number; path: number }
  | { kind: 'list'; report: number; path: number; op: 'drop' | 'dup' | 'swap'; a: number; b: number }
  | { kind: 'drop-report'; report: number }
  | { kind: 'dup-report'; report: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('replace' as const), report: fc.nat(), path: fc.nat(), value: fc.nat(), copyFrom: fc.option(fc.nat(), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), report: fc.nat(), path: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('list' as const), report: fc.nat(), path: fc.nat(), op: fc.constantFrom('drop' as const, 'dup' as const, 'swap' as const), a: fc.nat(), b: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop-report' as const), report: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dup-report' as const), report: fc.nat() }) },
);

/** Applies one edit to the JSON of the reports; returns a description for failure messages. */
function applyEdit(docs: { name: string; doc: Json }[], e: Edit): string {
  const r = e.report % docs.length;
  if (e.kind === 'drop-report') {
    docs.splice(r, 1);
    return `drop report ${r}`;
  }
  if (e.kind === 'dup-report') {
    docs.push({ name: `copy-${r}.json`, doc: structuredClone(docs[r]!.doc) });
    return `duplicate report ${r}`;
  }
  const doc = docs[r]!.doc;
  const all = paths(doc).slice(1);
  if (e.kind === 'list') {
    const lists = all.filter((p) => Array.isArray(get(doc, p)) && (get(doc, p) as Json[]).length > 0);
    if (lists.length === 0) return 'no list';
    const p = lists[e.path % lists.length]!;
    const list = get(doc, p) as Json[];
    const a = e.a % list.length;
    const b = e.b % list.length;
    if (e.op === 'drop') list.splice(a, 1);
    else if (e.op === 'dup') list.splice(a, 0, structuredClone(list[a]!));
    else [list[a], list[b]] = [list[b]!, list[a]!];
    return `${e.op} ${a}/${b} in ${r}:${p.join('.')}`;
  }
  const p = all[e.path % all.length]!;
  const parent = get(doc, p.slice(0, -1)) as Record<string | number, Json>;
  const key = p[p.length - 1]!;
  if (e.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return `delete ${r}:${p.join('.')}`;
  }
  let value: Json;
  if (e.copyFrom !== null) {
    const src = docs[e.copyFrom % docs.length]!.doc;
    const srcPaths = paths(src);
    value = structuredClone(get(src, srcPaths[(e.copyFrom >> 3) % srcPaths.length]!));
  } else {
    value = structuredClone(POOL[e.value % POOL.length]!);
  }
  parent[key] = value;
  return `set ${r}:${p.join('.')} = ${JSON.stringify(value).slice(0, 80)}`;
}

function mergeEdited(ws: Workspace, reports: NamedReport[], edit: Edit): { exit: number | 'refused'; what: string } {
  const docs = reports.map((r) => ({ name: r.name, doc: JSON.parse(JSON.stringify(r.report)) as Json }));
  const what = applyEdit(docs, edit);
  const parsed: NamedReport[] = [];
  for (const d of docs) {
    const p = parseReport(JSON.stringify(d.doc));
    if (!p.ok) return { exit: 'refused', what };
    parsed.push({ name: d.name, report: p.report });
  }
  return { exit: mergedExit(ws, parsed), what };
}

describe('no single edit of a report turns an unmet verdict into a met one', () => {
  const unmetWorkspace = workspaceArb.filter((ws) => runReport(ws, null, { mode: 'reverify' }).exitCode === 1);

  it('random edits of genuine reports with an unmet verdict: refused or still unmet', () => {
    fc.assert(
      fc.property(unmetWorkspace, fc.integer({ min: 1, max: 5 }), choiceArb, editArb, (ws, count, choice, edit) => {
        const reports = shardReports(ws, count, choice);
        expect(mergedExit(ws, reports)).toBe(1);
        const { exit, what } = mergeEdited(ws, reports, edit);
        expect([1, 'refused'], what).toContain(exit);
      }),
      { numRuns: 3000 },
    );
  });

  it('random edits of genuine reports with a met verdict: the same verdict, refused or unmet', () => {
    const metWorkspace = workspaceArb.map((ws) =>
      workspace(ws.ledgers.map((l) => ({ file: l.spec.file, gates: l.spec.gates.map((g) => ({ ...g, outcome: 'pass' as const, abandoned: false, ticked: g.kind === 'manual' ? true : g.ticked })) }))),
    );
    fc.assert(
      fc.property(metWorkspace, fc.integer({ min: 1, max: 5 }), editArb, (ws, count, edit) => {
        const reports = shardReports(ws, count);
        expect(mergedExit(ws, reports)).toBe(0);
        const { exit } = mergeEdited(ws, reports, edit);
        expect([0, 1, 'refused']).toContain(exit);
      }),
      { numRuns: 500 },
    );
  });

  it('every replacement of every field by every pooled value and by every node of every report (small ledgers, each unmet for one reason)', () => {
    const g = (id: string, over: Partial<GateSpec> = {}): GateSpec => ({ id, kind: 'runnable', ticked: false, abandoned: false, outcome: 'pass', ...over });
    const cases: [string, GateSpec[], RunChoice][] = [
      ['a failing gate', [g('A'), g('B', { outcome: 'fail', ticked: true })], { mode: 'reverify' }],
      ['an unapproved gate', [g('A'), g('U', { outcome: 'unapproved' })], { mode: 'reverify' }],
      ['an open manual gate', [g('A'), g('M', { kind: 'manual' })], { mode: 'reverify' }],
      ['a ticked, handed-off manual gate', [g('A'), g('H', { kind: 'manual', ticked: true, abandoned: true })], { mode: 'reverify' }],
      ['a handed-off runnable gate', [g('A'), g('X', { abandoned: true, ticked: true })], { mode: 'reverify' }],
      ['gates nothing re-ran (--only-stale)', [g('A', { ticked: true, outcome: 'fail' }), g('C', { ticked: true })], { mode: 'reverify', onlyStale: true, verified: new Set(['GATES:A', 'GATES:C']) }],
    ];
    let edits = 0;
    for (const [why, gates, choice] of cases) {
      const ws = workspace([{ file: 'GATES.md', gates }]);
      for (const count of [1, 2]) {
        const reports = shardReports(ws, count, choice);
        expect(mergedExit(ws, reports), why).toBe(1);
        const docs = reports.map((r) => JSON.parse(JSON.stringify(r.report)) as Json);
        // Every distinct value found anywhere in the reports (a copy of another gate's result, id, state…).
        // (Whole reports and gate lists left out: no single field holds one.)
        const sources = [...new Map(docs.flatMap((d) => paths(d).map((p) => get(d, p))).map((v) => [JSON.stringify(v), v])).entries()].filter(([k]) => k.length < 1500).map(([, v]) => v);
        for (let r = 0; r < count; r++) {
          for (const p of paths(docs[r]!).slice(1)) {
            for (const value of [...POOL, ...sources]) {
              // Set, serialize, put back: the report as merge would read it from disk.
              const parent = get(docs[r]!, p.slice(0, -1)) as Record<string | number, Json>;
              const key = p[p.length - 1]!;
              const before = parent[key]!;
              parent[key] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
              const text = JSON.stringify(docs[r]);
              parent[key] = before;
              const x = parseReport(text);
              const refusedEarly = !x.ok;
              const parsed = reports.map((rep, i) => (i === r && x.ok ? { name: rep.name, report: x.report } : rep));
              edits++;
              if (refusedEarly) continue;
              expect([1, 'refused'], `${why}, ${count} shard(s): set ${r}:${p.join('.')} = ${JSON.stringify(value).slice(0, 100)}`).toContain(mergedExit(ws, parsed));
            }
          }
        }
      }
    }
    expect(edits).toBeGreaterThan(30_000);
  });
});
