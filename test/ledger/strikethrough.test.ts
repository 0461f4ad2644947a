// Tildes matched across the lines of a gate's paragraph, as GFM matches them.
import { describe, expect, it } from 'vitest';
import { strikeAcrossAttributes, type ParagraphLine } from '../../lib/ledger/strikethrough.js';

const para = (...lines: [string, string | null][]): ParagraphLine[] => lines.map(([text, attribute], i) => ({ line: i + 1, text, attribute }));

describe('strikeAcrossAttributes', () => {
  it('a pair from a note into an attribute line is found, with the opening tildes', () => {
    expect(strikeAcrossAttributes(para(['G1: t', null], ['  legacy: ~~ran in', null], ['  CWD: fixtures~~', 'CWD']))).toEqual({ line: 2, column: 11, tildes: '~~', to: 3, attribute: 'CWD', attributeLine: 3 });
  });
  it('within one line, or across notes only, is styling: none', () => {
    expect(strikeAcrossAttributes(para(['G1: the ~~old~~ way', null], ['  CHECK: ls ~/a ~/b', 'CHECK'], ['  a ~~b', null], ['  c~~', null]))).toBeNull();
  });
  it('runs of different length, of three or more, escaped, or not flanking do not pair', () => {
    expect(strikeAcrossAttributes(para(['G1: ~~x', null], ['  CHECK: y~', 'CHECK']))).toBeNull();
    expect(strikeAcrossAttributes(para(['G1: ~~~x', null], ['  CHECK: y~~~', 'CHECK']))).toBeNull();
    expect(strikeAcrossAttributes(para(['G1: \\~x', null], ['  CHECK: y~', 'CHECK']))).toBeNull();
    expect(strikeAcrossAttributes(para(['G1: a ~ x', null], ['  CHECK: y ~ z', 'CHECK']))).toBeNull();
  });
  it('a pair matched first leaves no opener between (the later closer pairs with nothing)', () => {
    expect(strikeAcrossAttributes(para(['G1: ~a ~b~', null], ['  CHECK: y~', 'CHECK']))).toEqual(expect.objectContaining({ line: 1, to: 2, attribute: 'CHECK' }));
    expect(strikeAcrossAttributes(para(['G1: ~a~ b', null], ['  CHECK: y~', 'CHECK']))).toBeNull();
  });
});
