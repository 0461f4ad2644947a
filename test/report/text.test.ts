// Human status lines: the untrusted text that starts a line cannot start a workflow command.
import { describe, expect, it } from 'vitest';
import type { GateReport } from '../../lib/report/model.js';
import { gateLine } from '../../lib/report/text.js';
import { runnerCommands } from '../helpers/actions-runner.js';

function gate(qualified: string): GateReport {
  return { file: 'GATES.md', line: 1, id: 'A', qualified, title: '::error::t', kind: 'manual', definition: null, state: 'unmet', stateReason: null, checked: false, verification: null, verificationReason: null, result: null };
}

describe('gateLine', () => {
  it('a qualified id that would start a workflow command gets a backslash (ledger names are refused earlier; this is the second line)', () => {
    for (const q of ['::stop-commands::tok:A', '\u00a0::error::x:A', ' ::warning::w:A']) {
      const line = gateLine(gate(q));
      expect(line.startsWith('\\')).toBe(true);
      expect(runnerCommands(line)).toEqual([]);
    }
    expect(gateLine(gate('GATES:A'))).toBe('GATES:A  unchecked  ::error::t');
  });
});
