// The lines a failed check's output is shown by (lib/report/run-text.ts diagnosticLines).
import { describe, expect, it } from 'vitest';
import { approvalSuggestion, diagnosticLines } from '../../lib/report/run-text.js';

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

// Round-31b F10: six pending pins gave no command to paste, only "write the command yourself".
describe('approvalSuggestion', () => {
  const o = { invocation: ['npx', '--no-install', 'gate-check'], root: undefined, scope: undefined, files: [], shell: undefined, cwd: undefined, timeoutSeconds: 120 };
  const pins = (n: number) => Array.from({ length: n }, (_, i) => `GATES:G${i}@${'a'.repeat(32)}`);
  it('suggests one command with every pin, up to 20', () => {
    const lines = approvalSuggestion(pins(20), o);
    expect(lines.at(-1)).toBe(`  npx --no-install gate-check --approve ${pins(20).join(',')}`);
  });
  it('past 20, names the form and asks for the command to be written', () => {
    expect(approvalSuggestion(pins(21), o).at(-1)).toMatch(/approve exactly those with npx --no-install gate-check --approve ID@HEX,\.\.\. \(more than 20 gates: write the command yourself\)$/);
  });
});
