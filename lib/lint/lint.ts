// Runs every rule over one parsed ledger. Pure: the command supplies what needs the disk
// (each gate's working directory and DEPENDS matches) and the bounded EXPECT matcher.
import type { Gate } from '../ledger/types.js';
import { checkRules } from './rule-check.js';
import { expectRules } from './rule-expect.js';
import { ledgerRule } from './rule-ledger.js';
import { pathRule } from './rule-paths.js';
import { scriptRule } from './rule-scripts.js';
import { titleRule } from './rule-title.js';
import { parseShellList } from './shell-list.js';
import { RULES, type ExpectMatcher, type Finding, type GateContext, type GateFinding } from './types.js';

export interface LedgerToLint {
  /** Path as displayed. */
  file: string;
  /** File name without .md: qualifies ids. */
  stem: string;
  gates: readonly Gate[];
}

export function lintLedger(ledger: LedgerToLint, contextOf: (gate: Gate) => GateContext, match: ExpectMatcher): Finding[] {
  // Field order is the order of the JSON document.
  const tag = (f: GateFinding, gate: string | null): Finding => ({
    file: ledger.file,
    line: f.line,
    gate,
    qualified: gate === null ? ledger.stem : `${ledger.stem}:${gate}`,
    rule: f.rule,
    message: f.message,
    suggestion: f.suggestion,
  });
  const findings = ledgerRule(ledger.gates).map((f) => tag(f, null));
  for (const gate of ledger.gates) for (const f of lintGate(gate, contextOf, match)) findings.push(tag(f, gate.id));
  const order = (f: Finding) => RULES.indexOf(f.rule);
  return findings.sort((a, b) => a.line - b.line || order(a) - order(b));
}

export function lintGate(gate: Gate, contextOf: (gate: Gate) => GateContext, match: ExpectMatcher): GateFinding[] {
  const found = titleRule(gate.title, gate.line);
  if (gate.kind !== 'runnable' || gate.check === null || gate.expect === null || gate.expectRaw === null) return found;
  const runnable = { ...gate, check: gate.check, expect: gate.expect, expectRaw: gate.expectRaw };
  const checkLine = gate.attributeLines.CHECK ?? gate.line;
  const list = parseShellList(gate.check);
  for (const rule of [
    checkRules(runnable, list, match),
    expectRules(gate.expect, gate.expectRaw, gate.attributeLines.EXPECT ?? gate.line),
    scriptRule(list, gate.depends, contextOf(gate), checkLine),
    pathRule(list, checkLine),
  ]) {
    for (const f of rule) found.push(f);
  }
  return found;
}
