// The lines a failed check's output is shown by (lib/report/run-text.ts diagnosticLines).
import { describe, expect, it } from 'vitest';
import { diagnosticLines } from '../../lib/report/run-text.js';

describe('diagnosticLines', () => {
  it("shows where a long test run failed, not only its first and last lines (round-31b F3)", () => {
    const passing = (from: number) => Array.from({ length: 20 }, (_, i) => `ok ${from + i} - case ${from + i}\n  ---\n  duration_ms: 1.2\n  ...`).join('\n');
    const failing = ['not ok 21 - adds numbers', '  ---', '  error: |-', '    Expected values to be strictly equal:', '    2 !== 3', '  expected: 3', '  actual: 2', '  ...'].join('\n');
    const output = ['TAP version 13', passing(1), failing, passing(22), '# pass 40', '# fail 1'].join('\n');
    const shown = diagnosticLines(output);
    expect(shown.length).toBeLessThan(30);
    for (const line of ['  | not ok 21 - adds numbers', '  |     Expected values to be strictly equal:', '  |   expected: 3', '  |   actual: 2', '  | # fail 1', '  | TAP version 13']) expect(shown).toContain(line);
  });

  it('says so for no output and for output past the cap', () => {
    expect(diagnosticLines('')).toEqual(['  | (no output)']);
    expect(diagnosticLines('x', true)).toEqual(['  | (the output passed the cap and was not kept)']);
  });
});
