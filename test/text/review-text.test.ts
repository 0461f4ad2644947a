// screenRows: every row of the approval screen fits the screen's width, and a row that goes
// on with the line above is marked, so that no text can start a row of its own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { screenRows, screenWidth } from '../../lib/text/review-text.js';

const columnsOf = (row: string) => Array.from(row).reduce((n, ch) => n + (ch <= '\x7e' ? 1 : 2), 0);

describe('screenRows', () => {
  it('a line that fits is one row; a longer one goes on in rows marked "  ~ ", none wider than the screen, nothing lost', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '|', '~', 'é', '界', '<'), maxLength: 400 }), fc.integer({ min: 20, max: 80 }), (line, width) => {
        const rows = screenRows(line, width);
        expect(rows.every((r) => columnsOf(r) <= width)).toBe(true);
        expect(rows.slice(1).every((r) => r.startsWith('  ~ ') && r.length > 4)).toBe(true);
        expect(rows[0]! + rows.slice(1).map((r) => r.slice(4)).join('')).toBe(line);
        if (columnsOf(line) <= width) expect(rows).toEqual([line]);
      }),
    );
  });

  it('the width follows the terminal from 20 to 80 columns', () => {
    expect([0, 10, 20, 59.5, 80, 200].map(screenWidth)).toEqual([20, 20, 20, 59, 80, 80]);
  });
});
