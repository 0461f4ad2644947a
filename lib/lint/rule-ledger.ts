// mostly-manual: a ledger whose gates are mostly ticked by hand proves little; a person's
// tick is the "I am done" that gate-check exists to replace. Pure.
import type { Gate } from '../ledger/types.js';
import type { GateFinding } from './types.js';

export function ledgerRule(gates: readonly Gate[]): GateFinding[] {
  const manual = gates.filter((g) => g.kind === 'manual').length;
  if (manual < 2 || manual * 2 <= gates.length) return [];
  return [
    {
      line: 1,
      rule: 'mostly-manual',
      message: `${manual} of ${gates.length} gates are manual (no CHECK/EXPECT): nothing but a person's tick shows they are met`,
      suggestion: 'give every outcome a command can observe a CHECK and an EXPECT; keep manual gates for real judgment calls (wording, product decisions)',
    },
  ];
}
