// The gates a report does not count as met, with why: for a shard, only the gates it ran
// (its share); otherwise every gate. Pure.
import type { Report } from '../report/model.js';
import { gateOutcome } from '../report/outcome.js';

export interface NotMet {
  qualified: string;
  why: string;
}

export function notMetGates(report: Report, strict: boolean): NotMet[] {
  const gates = report.shard ? report.gates.filter((g) => g.result !== null) : report.gates;
  const out: NotMet[] = [];
  for (const g of gates) {
    const o = gateOutcome(g, report.mode, strict);
    if (o.kind !== 'passed') out.push({ qualified: g.qualified, why: `${o.kind}: ${o.message}` });
  }
  return out;
}
