// The formatter keeps every byte it was not asked to change. Example tests, then properties
// over generated ledgers (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLedger, type GateEdit } from '../../lib/ledger/format.js';
import { splitLines } from '../../lib/ledger/lines.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import { lines, parseOk } from '../helpers/ledger.js';

describe('formatLedger', () => {
  it('returns identical bytes when nothing changes', () => {
    const src = '\ufeff# T\r\n\r\n- [ ] G1: a  \r\n\tCHECK:   x  \r\n\tEXPECT: y\r\n  EVIDENCE:   pending   \r\ntrailing';
    expect(formatLedger(parseOk(src), [])).toBe(src);
  });

  it('ticks a box and replaces the EVIDENCE value, keeping indentation and CRLF', () => {
    const src = '- [ ] G1: a\r\n    CHECK: x\r\n    EXPECT: y\r\n    EVIDENCE: pending\r\n';
    const out = formatLedger(parseOk(src), [{ id: 'G1', checked: true, evidence: 'exit=0; sha256=ab' }]);
    expect(out).toBe('- [x] G1: a\r\n    CHECK: x\r\n    EXPECT: y\r\n    EVIDENCE: exit=0; sha256=ab\r\n');
  });

  it('inserts a missing EVIDENCE line after the last attribute, with that indentation and line ending', () => {
    const src = lines('- [ ] G1: a', '   CHECK: x', '   EXPECT: y', '   some note', '', '- [ ] G2: b');
    const out = formatLedger(parseOk(src), [{ id: 'G1', checked: true, evidence: 'exit=0' }]);
    expect(out).toBe(lines('- [x] G1: a', '   CHECK: x', '   EXPECT: y', '   EVIDENCE: exit=0', '   some note', '', '- [ ] G2: b'));
  });

  it('inserts after the gate line of a gate without attributes', () => {
    expect(formatLedger(parseOk('- [ ] G1: a\r\n'), [{ id: 'G1', evidence: 'pending' }])).toBe('- [ ] G1: a\r\n  EVIDENCE: pending\r\n');
  });

  it('keeps a missing final newline when inserting at the end', () => {
    const out = formatLedger(parseOk('- [ ] G1: a\n  CHECK: x\n  EXPECT: y'), [{ id: 'G1', evidence: 'pending' }]);
    expect(out).toBe('- [ ] G1: a\n  CHECK: x\n  EXPECT: y\n  EVIDENCE: pending');
  });

  it('demotes a checked gate and keeps an X box that stays checked', () => {
    const src = lines('- [X] G1: a', '- [x] G2: b');
    expect(formatLedger(parseOk(src), [{ id: 'G1', checked: true }, { id: 'G2', checked: false }])).toBe(lines('- [X] G1: a', '- [ ] G2: b'));
  });

  it('refuses evidence that is not one printable line', () => {
    expect(() => formatLedger(parseOk('- [ ] G1: a\n'), [{ id: 'G1', evidence: 'a\nb' }])).toThrow(/printable/);
    expect(() => formatLedger(parseOk('- [ ] G1: a\n'), [{ id: 'G1', evidence: '\u001b[2J' }])).toThrow(/printable/);
  });
});

// ---- properties ------------------------------------------------------------------------

const idArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,8}$/);
const safeText = fc.stringMatching(/^[A-Za-z0-9 .,#:;'"=()\/_-]{1,30}$/).filter((s) => s.trim() !== '');
const indentArb = fc.constantFrom('  ', '    ', '\t', '   ');
const eolArb = fc.constantFrom('\n', '\r\n');

interface GenGate {
  id: string;
  checked: boolean;
  title: string;
  runnable: boolean;
  check: string;
  expect: string;
  evidence: string | null;
  indent: string;
  note: string | null;
}

const gateArb = (id: string) =>
  fc.record({
    id: fc.constant(id),
    checked: fc.boolean(),
    title: safeText,
    runnable: fc.boolean(),
    check: safeText,
    expect: safeText.map((s) => s.replace(/^\//, 'x')),
    evidence: fc.option(fc.constantFrom('pending', 'exit=0; sha256=abc; bytes=3', '  pending  '), { nil: null }),
    indent: indentArb,
    note: fc.option(safeText, { nil: null }),
  });

const fillerArb = fc.constantFrom(
  ['# Gates: something'],
  ['Some prose at column 0.'],
  [''],
  ['```', '- [ ] X1: inside a fence', '```'],
  ['<!-- a comment', 'spanning lines -->'],
  ['~~~~ info', '  CHECK: not an attribute', '~~~~'],
);

const ledgerArb = fc
  .uniqueArray(idArb, { minLength: 1, maxLength: 6 })
  .chain((ids) =>
    fc.record({
      gates: fc.tuple(...ids.map(gateArb)),
      fillers: fc.array(fillerArb, { minLength: ids.length + 1, maxLength: ids.length + 1 }),
      eols: fc.array(eolArb, { minLength: 200, maxLength: 200 }),
      finalNewline: fc.boolean(),
      bom: fc.boolean(),
    }),
  )
  .map(({ gates, fillers, eols, finalNewline, bom }) => {
    const out: string[] = [];
    gates.forEach((g: GenGate, i: number) => {
      out.push(...fillers[i]!);
      out.push(`- [${g.checked ? 'x' : ' '}] ${g.id}: ${g.title}`);
      if (g.runnable) out.push(`${g.indent}CHECK: ${g.check}`, `${g.indent}EXPECT: ${g.expect}`);
      if (g.note) out.push(`${g.indent}${g.note.replace(/^[A-Za-z_-]+:/, 'n')}`);
      if (g.evidence !== null) out.push(`${g.indent}EVIDENCE: ${g.evidence}`);
    });
    out.push(...fillers[gates.length]!);
    let text = '';
    out.forEach((l, i) => {
      const last = i === out.length - 1;
      text += l + (last && !finalNewline ? '' : eols[i % eols.length]!);
    });
    return (bom ? '\ufeff' : '') + text;
  })
  .filter((src) => parseLedger(src).ok);

const editsArb = (ids: string[]) =>
  fc.array(
    fc.record(
      {
        id: fc.constantFrom(...ids),
        checked: fc.boolean(),
        evidence: fc.constantFrom('pending', 'exit=0; sha256=' + 'a'.repeat(64) + '; bytes=12', 'exit=0; bytes=1'),
      },
      { requiredKeys: ['id'] },
    ),
    { maxLength: 4 },
  );

describe('formatter properties', () => {
  it('formatting an unmodified document returns identical bytes', () => {
    fc.assert(
      fc.property(ledgerArb, (src) => {
        expect(formatLedger(parseOk(src), [])).toBe(src);
      }),
      { numRuns: 300 },
    );
  });

  it('parse∘format applies the edits, changes nothing else, and is stable', () => {
    fc.assert(
      fc.property(
        ledgerArb.chain((src) => fc.tuple(fc.constant(src), editsArb(parseOk(src).gates.map((g) => g.id)))),
        ([src, rawEdits]) => {
          // The last edit of a gate wins, as in a run.
          const edits = new Map<string, GateEdit>();
          for (const e of rawEdits) edits.set(e.id, { ...edits.get(e.id), ...e });
          const before = parseOk(src);
          const out = formatLedger(before, [...edits.values()]);
          const after = parseOk(out);

          expect(after.gates.map((g) => g.id)).toEqual(before.gates.map((g) => g.id));
          for (const g of after.gates) {
            const e = edits.get(g.id);
            const old = before.gates.find((b) => b.id === g.id)!;
            expect(g.checked).toBe(e?.checked ?? old.checked);
            expect(g.evidence).toBe(e?.evidence ?? old.evidence);
            expect([g.check, g.expectRaw, g.title, g.kind]).toEqual([old.check, old.expectRaw, old.title, old.kind]);
          }
          // Stable: applying the same edits again changes nothing.
          expect(formatLedger(after, [...edits.values()])).toBe(out);
          // Every line other than gate lines and EVIDENCE lines is unchanged, with its ending
          // (the last such line may gain a newline when EVIDENCE is appended after it).
          const kept = (text: string) => splitLines(text).filter((l) => !/^\ufeff?- \[[ xX]\] |^\s*EVIDENCE:/.test(l.text));
          const a = kept(src);
          const b = kept(out);
          expect(b.map((l) => l.text)).toEqual(a.map((l) => l.text));
          expect(b.slice(0, -1).map((l) => l.eol)).toEqual(a.slice(0, -1).map((l) => l.eol));
          // The BOM and the presence of a final newline survive.
          expect(out.startsWith('\ufeff')).toBe(src.startsWith('\ufeff'));
          expect(/\n$/.test(out)).toBe(/\n$/.test(src));
        },
      ),
      { numRuns: 300 },
    );
  });
});
