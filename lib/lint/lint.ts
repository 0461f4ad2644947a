// Runs every rule over one parsed ledger. Pure: the command supplies what needs the disk
// (each gate's working directory, DEPENDS matches, which files exist) and the bounded
// EXPECT matcher.
import type { Expect } from '../ledger/expect.js';
import type { Gate } from '../ledger/types.js';
import { checkRules, packageScriptRules } from './rule-check.js';
import { anyOutputRule } from './rule-any-output.js';
import { expectRules, weakness } from './rule-expect.js';
import { inputsRule, type LocatedRunner } from './rule-inputs.js';
import { ledgerRule } from './rule-ledger.js';
import { manualMeasurableRule, unmeasuredNumberRule } from './rule-measurable.js';
import { pathRule } from './rule-paths.js';
import { scriptRule } from './rule-scripts.js';
import { titleRule } from './rule-title.js';
import { passingSuggestion, zeroTestRule } from './rule-zero-tests.js';
import { runnerOf, type RunnerCall } from './runners.js';
import { inlineLists, walkWithInline } from './inline-shell.js';
import { parseShellList, type ShellList } from './shell-list.js';
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
  if (gate.kind === 'manual') {
    // A handed-off gate is a person's call by definition.
    if (gate.abandon === null) for (const f of manualMeasurableRule(gate.title, gate.line)) found.push(f);
    return found;
  }
  if (gate.check === null || gate.expect === null || gate.expectRaw === null) return found;
  const runnable = { ...gate, check: gate.check, expect: gate.expect, expectRaw: gate.expectRaw };
  const checkLine = gate.attributeLines.CHECK ?? gate.line;
  const expectLine = gate.attributeLines.EXPECT ?? gate.line;
  const list = parseShellList(gate.check);
  const context = contextOf(gate);
  const runners = runnerCalls(list);
  const passing = passingSuggestion(runners);
  const acceptable = (e: Expect) => weakness(e) === null && zeroTestRule(runners, e, '', expectLine, match).length === 0;
  const weakOrAny = [...expectRules(gate.expect, gate.expectRaw, expectLine, passing), ...anyOutputRule(gate.expect, gate.expectRaw, expectLine, match, passing, acceptable)];
  // A too generic EXPECT or one that matches anything already says more than "zero tests pass it".
  const vague = weakOrAny.some((f) => f.rule === 'weak-expect' || f.rule === 'matches-anything');
  for (const rule of [
    unmeasuredNumberRule(gate.title, gate.check, gate.expectRaw, gate.line),
    checkRules(runnable, list, match),
    packageScriptRules(runners, context.workdir, context.packageScript, checkLine),
    weakOrAny,
    vague ? [] : zeroTestRule(runners, gate.expect, gate.expectRaw, expectLine, match),
    scriptRule(list, gate, context, checkLine),
    context.workdir === null ? [] : inputsRule(locatedRunners(list, context.workdir), gate, context, checkLine),
    pathRule(list, checkLine),
  ]) {
    for (const f of rule) found.push(f);
  }
  return found;
}

/** Every test or task runner the CHECK calls, in order, including those inside a literal `sh -c '…'`. */
function runnerCalls(list: ShellList): RunnerCall[] {
  const calls: RunnerCall[] = [];
  for (const l of [list, ...inlineLists(list)]) {
    for (const item of l.items) {
      for (const cmd of item.pipeline) {
        const call = runnerOf(cmd);
        if (call) calls.push(call);
      }
    }
  }
  return calls;
}

/** The runners with the directory each runs in (a literal `cd` is followed, as for scripts). */
function locatedRunners(list: ShellList, workdir: string): LocatedRunner[] {
  const located: LocatedRunner[] = [];
  walkWithInline(list, workdir, (cmd, dir) => {
    const call = runnerOf(cmd);
    if (call) located.push({ call, dir });
  });
  return located;
}
