// The pure comparison behind gate-check diff: which edits weaken an obligation, which need a
// person's review, and which are cosmetic (fast-check properties over generated trees).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareLedgers, definitionChanges, type Change, type SnapshotLedger } from '../../lib/ledger/compare.js';
import { parseOk } from '../helpers/ledger.js';
import { applyCosmetic, applyWeakening, cosmeticEditArb, groupOf, renderFile, treeArb, weakeningEditArb, type TreeModel } from '../helpers/ledger-model.js';

function snap(files: Record<string, string>): SnapshotLedger[] {
  return Object.entries(files).map(([file, text]) => ({ file, scope: file.startsWith('.gate-check/') ? file.split('/')[1]! : null, ledger: parseOk(text) }));
}

function fromModel(tree: TreeModel): SnapshotLedger[] {
  return tree.map((f) => ({ file: f.path, scope: groupOf(f.path) || null, ledger: parseOk(renderFile(f)) }));
}

const kinds = (cs: Change[]) => cs.map((c) => `${c.severity} ${c.kind} ${c.id ?? c.file ?? c.baseFile}`);

const G1 = '- [ ] G1: tests pass\n  CHECK: npm test\n  EXPECT: /passed/\n  DEPENDS: a.js, b.js\n';
const G2 = '- [ ] G2: build works\n  CHECK: npm run build\n  EXPECT: built\n';
const M1 = '- [ ] M1: legal reviewed the wording\n';

describe('compareLedgers: each kind of change alone', () => {
  const base = { 'GATES.md': G1 + G2 + M1 };

  it('identical ledgers: no findings, exit 0', () => {
    const c = compareLedgers(snap(base), snap(base));
    expect(c.changes).toEqual([]);
    expect(c.exitCode).toBe(0);
  });

  it('cosmetic edits: order, whitespace, titles, ticks, evidence, notes, DEPENDS order, CRLF: no findings', () => {
    const now = '# Gates\r\n\r\n' + M1.replace('\n', '\r\n') + '- [x] G2:    the build   works\r\n\tEXPECT: built \r\n\tCHECK:   npm run build\r\n\tEVIDENCE: exit=0; def=000000000000\r\n\r\nsome paragraph\r\n- [x] G1: tests pass\r\n    DEPENDS: b.js,a.js\r\n    EXPECT: /passed/\r\n    CHECK: npm test\r\n    a note\r\n';
    const c = compareLedgers(snap(base), snap({ 'GATES.md': now }));
    expect(kinds(c.changes)).toEqual([]);
    expect(c.exitCode).toBe(0);
  });

  it('a removed gate is weakened', () => {
    const c = compareLedgers(snap(base), snap({ 'GATES.md': G1 + M1 }));
    expect(kinds(c.changes)).toEqual(['weakened removed G2']);
    expect(c.changes[0]).toMatchObject({ file: null, line: null, baseFile: 'GATES.md', baseLine: 5, title: 'build works' });
    expect(c.exitCode).toBe(1);
  });

  it('a runnable gate turned manual is weakened; a manual gate turned runnable needs review', () => {
    const c = compareLedgers(snap(base), snap({ 'GATES.md': G1 + '- [ ] G2: build works\n' + '- [ ] M1: legal reviewed the wording\n  CHECK: true\n  EXPECT: x\n' }));
    expect(kinds(c.changes)).toEqual(['weakened turned-manual G2', 'review turned-runnable M1']);
  });

  for (const [field, edit, base_, now_] of [
    ['CHECK', (s: string) => s.replace('CHECK: npm test', 'CHECK: npm test -- --bail'), 'npm test', 'npm test -- --bail'],
    ['EXPECT', (s: string) => s.replace('EXPECT: /passed/', 'EXPECT: /passed|skipped/'), '/passed/', '/passed|skipped/'],
    ['CWD', (s: string) => s.replace('  DEPENDS', '  CWD: sub\n  DEPENDS'), null, 'sub'],
    ['DEPENDS', (s: string) => s.replace('DEPENDS: a.js, b.js', 'DEPENDS: b.js'), 'a.js, b.js', 'b.js'],
    ['INPUTS', (s: string) => s.replace('  DEPENDS', '  INPUTS: data/*.json\n  DEPENDS'), null, 'data/*.json'],
    ['TIMEOUT', (s: string) => s.replace('  DEPENDS', '  TIMEOUT: 900\n  DEPENDS'), null, '900'],
  ] as const) {
    it(`a changed ${field} needs review, naming the field with both values and its line`, () => {
      const c = compareLedgers(snap(base), snap({ 'GATES.md': edit(G1) + G2 + M1 }));
      expect(kinds(c.changes)).toEqual(['review changed G1']);
      expect(c.changes[0]!.fields).toEqual([{ field, base: base_, now: now_, line: expect.any(Number) }]);
      expect(c.changes[0]!.line).toBe(c.changes[0]!.fields[0]!.line);
      expect(c.exitCode).toBe(1);
    });
  }

  it('a removed attribute: its line is the gate line, its value now is null', () => {
    const c = compareLedgers(snap(base), snap({ 'GATES.md': G1.replace('  DEPENDS: a.js, b.js\n', '') + G2 + M1 }));
    expect(c.changes[0]!.fields).toEqual([{ field: 'DEPENDS', base: 'a.js, b.js', now: null, line: null }]);
    expect(c.changes[0]!.line).toBe(1);
  });

  it('a new ABANDON is weakened, also on a gate added with it; a withdrawn one is a note; a new reason is nothing', () => {
    const abandoned = compareLedgers(snap(base), snap({ 'GATES.md': G1 + G2 + M1 + '- [ ] G9: new\n\nABANDON: G2 too hard\nABANDON: G9 later\n' }));
    expect(kinds(abandoned.changes)).toEqual(['weakened abandoned G2', 'weakened abandoned G9', 'info added G9']);
    expect(abandoned.changes[0]).toMatchObject({ line: 11, fields: [{ field: 'ABANDON', base: null, now: 'too hard', line: 11 }] });
    const baseAbandoned = { 'GATES.md': G1 + G2 + M1 + '\nABANDON: G2 too hard\n' };
    expect(kinds(compareLedgers(snap(baseAbandoned), snap(base)).changes)).toEqual(['info unabandoned G2']);
    expect(compareLedgers(snap(baseAbandoned), snap({ 'GATES.md': G1 + G2 + M1 + '\nABANDON: G2 another reason\n' })).changes).toEqual([]);
  });

  it('an added gate or ledger is a note, exit 0', () => {
    const c = compareLedgers(snap(base), snap({ ...base, 'gates/extra.md': '- [ ] E1: extra\n' }));
    expect(kinds(c.changes)).toEqual(['info ledger-added gates/extra.md', 'info added E1']);
    expect(c.exitCode).toBe(0);
  });

  it('a manual gate retitled is a note (its title is what a person ticks against)', () => {
    const c = compareLedgers(snap(base), snap({ 'GATES.md': G1 + G2 + '- [ ] M1: legal skimmed it\n' }));
    expect(kinds(c.changes)).toEqual(['info retitled M1']);
    expect(c.changes[0]!.fields[0]).toMatchObject({ field: 'TITLE', base: 'legal reviewed the wording', now: 'legal skimmed it' });
  });

  it('OWNS changes are a note', () => {
    const c = compareLedgers(snap({ 'GATES.md': 'OWNS: src/**\n\n' + G1 }), snap({ 'GATES.md': 'OWNS: src/**, lib/**\n\n' + G1 }));
    expect(kinds(c.changes)).toEqual(['info owns-changed GATES.md']);
    expect(c.changes[0]!.fields).toEqual([{ field: 'OWNS', base: 'src/**', now: 'lib/**, src/**', line: null }]);
  });
});

describe('compareLedgers: ledgers and moves', () => {
  it('a gate moved to another ledger of its scope, unchanged, is not removed', () => {
    const c = compareLedgers(snap({ 'GATES.md': G1 + G2, 'gates/b.md': M1 }), snap({ 'GATES.md': G1, 'gates/b.md': M1 + G2 }));
    expect(kinds(c.changes)).toEqual(['info moved G2']);
    expect(c.changes[0]).toMatchObject({ file: 'gates/b.md', baseFile: 'GATES.md', line: 2, baseLine: 5 });
    expect(c.exitCode).toBe(0);
  });

  it('a gate moved to another ledger with a changed definition is removed there and added here', () => {
    const c = compareLedgers(snap({ 'GATES.md': G1 + G2, 'gates/b.md': M1 }), snap({ 'GATES.md': G1, 'gates/b.md': M1 + G2.replace('built', 'done') }));
    expect(kinds(c.changes)).toEqual(['weakened removed G2', 'info added G2']);
  });

  it('a manual gate moved with a new title is removed: a title is all a manual gate says', () => {
    const c = compareLedgers(snap({ 'GATES.md': G1 + M1 }), snap({ 'GATES.md': G1, 'gates/b.md': '- [ ] M1: nothing much\n' }));
    expect(kinds(c.changes)).toEqual(['weakened removed M1', 'info ledger-added gates/b.md', 'info added M1']);
  });

  it('a gate moved to another scope needs review: another pipeline answers for it', () => {
    const c = compareLedgers(snap({ 'GATES.md': G1 + G2 }), snap({ 'GATES.md': G1, '.gate-check/s1/x.md': G2 }));
    expect(kinds(c.changes)).toEqual(['review moved G2', 'info ledger-added .gate-check/s1/x.md']);
    expect(c.changes[0]).toMatchObject({ scope: 's1', baseScope: null });
    expect(c.exitCode).toBe(1);
  });

  it('a renamed ledger (every gate in one new file of its scope) is one note, not a move per gate', () => {
    const c = compareLedgers(snap({ 'gates/a.md': G1 + G2, 'GATES.md': M1 }), snap({ 'gates/renamed.md': G2 + G1, 'GATES.md': M1 }));
    expect(kinds(c.changes)).toEqual(['info ledger-renamed gates/renamed.md']);
    expect(c.changes[0]).toMatchObject({ baseFile: 'gates/a.md', file: 'gates/renamed.md' });
    expect(c.exitCode).toBe(0);
  });

  it('a renamed ledger that lost a gate: the ledger is removed, the gate too', () => {
    const c = compareLedgers(snap({ 'gates/a.md': G1 + G2 }), snap({ 'gates/renamed.md': G1 }));
    expect(kinds(c.changes)).toEqual(['weakened ledger-removed gates/a.md', 'weakened removed G2', 'info ledger-added gates/renamed.md', 'info moved G1']);
  });

  it('a removed ledger is weakened; a deleted scope is reported gate by gate', () => {
    const c = compareLedgers(snap({ 'GATES.md': G1, '.gate-check/s1/x.md': G2 + M1 }), snap({ 'GATES.md': G1 }));
    expect(kinds(c.changes)).toEqual(['weakened ledger-removed .gate-check/s1/x.md', 'weakened removed G2', 'weakened removed M1']);
  });

  it('a ledger split into two of its scope: removed as a file, every gate moved, exit 0', () => {
    const c = compareLedgers(snap({ 'gates/a.md': G1 + G2 }), snap({ 'gates/b.md': G1, 'gates/c.md': G2 }));
    expect(c.changes.map((x) => x.kind).sort()).toEqual(['ledger-added', 'ledger-added', 'ledger-removed', 'moved', 'moved']);
    expect(c.exitCode).toBe(0);
  });

  it('the same id in several ledgers: each keeps its own, a moved one is found, a removed one is removed', () => {
    const base = { 'gates/a.md': G1, 'gates/b.md': G1.replace('npm test', 'npm run unit'), 'gates/c.md': G2 };
    // b's G1 is now in a; a's G1 is now in c: the same obligations, two moves, nothing lost.
    const moved = compareLedgers(snap(base), snap({ 'gates/a.md': G1.replace('npm test', 'npm run unit'), 'gates/c.md': G2 + G1 }));
    expect(kinds(moved.changes)).toEqual(['info moved G1', 'info ledger-removed gates/b.md', 'info moved G1']);
    expect(moved.changes.filter((c) => c.kind === 'moved').map((c) => `${c.baseFile}->${c.file}`)).toEqual(['gates/b.md->gates/a.md', 'gates/a.md->gates/c.md']);
    expect(moved.exitCode).toBe(0);
    const removed = compareLedgers(snap(base), snap({ 'gates/a.md': G1, 'gates/c.md': G2 }));
    expect(kinds(removed.changes)).toEqual(['weakened ledger-removed gates/b.md', 'weakened removed G1']);
  });

  it('findings are ordered weakened, review, info; counts and sizes are reported', () => {
    const c = compareLedgers(snap({ 'GATES.md': G1 + G2 + M1 }), snap({ 'GATES.md': '- [ ] N1: n\n' + G1.replace('npm test', 'x') + M1 + '\nABANDON: M1 r\n' }));
    expect(c.changes.map((x) => x.severity)).toEqual(['weakened', 'weakened', 'review', 'info']);
    expect(c.counts).toEqual({ weakened: 2, review: 1, info: 1 });
    expect(c).toMatchObject({ ledgersAtBase: 1, ledgersNow: 1, gatesAtBase: 3, gatesNow: 3 });
  });
});

describe('definitionChanges compares exactly what the definition digest covers', () => {
  it('no DEPENDS and an empty DEPENDS differ; one glob "a, b" and two globs a and b differ, though they print alike', () => {
    const a = parseOk(G1).gates[0]!;
    expect(definitionChanges({ ...a, depends: null, inputs: [] }, { ...a, depends: [], inputs: null }).map((f) => f.field)).toEqual(['DEPENDS', 'INPUTS']);
    expect(definitionChanges({ ...a, depends: ['a, b'] }, { ...a, depends: ['a', 'b'] })).toEqual([{ field: 'DEPENDS', base: 'a, b', now: 'a, b', line: 4 }]);
    expect(definitionChanges(a, { ...a, depends: ['b.js', 'a.js'] })).toEqual([]);
  });
});

describe('compareLedgers properties', () => {
  it('any sequence of cosmetic edits to any tree of ledgers: exit 0, nothing weakened or to review', () => {
    fc.assert(
      fc.property(treeArb, fc.array(cosmeticEditArb, { maxLength: 8 }), (tree, edits) => {
        const after = edits.reduce(applyCosmetic, tree);
        const c = compareLedgers(fromModel(tree), fromModel(after));
        expect(kinds(c.changes.filter((x) => x.severity !== 'info'))).toEqual([]);
        expect(c.exitCode).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it('cosmetic edits, then one weakening edit: exit 1', () => {
    fc.assert(
      fc.property(treeArb, fc.array(cosmeticEditArb, { maxLength: 6 }), weakeningEditArb, (tree, edits, weakening) => {
        const after = applyWeakening(tree, edits.reduce(applyCosmetic, tree), weakening);
        fc.pre(after !== null);
        const c = compareLedgers(fromModel(tree), fromModel(after!));
        expect(c.exitCode).toBe(1);
        expect(c.counts.weakened + c.counts.review).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it('compare(A, A) is empty for every generated tree, and the result does not depend on the order of the ledgers', () => {
    fc.assert(
      fc.property(treeArb, fc.array(cosmeticEditArb, { maxLength: 4 }), (tree, edits) => {
        expect(compareLedgers(fromModel(tree), fromModel(tree)).changes).toEqual([]);
        const after = edits.reduce(applyCosmetic, tree);
        const forward = compareLedgers(fromModel(tree), fromModel(after));
        const reversed = compareLedgers(fromModel([...tree].reverse()), fromModel([...after].reverse()));
        expect(reversed.exitCode).toBe(forward.exitCode);
      }),
      { numRuns: 200 },
    );
  });
});
