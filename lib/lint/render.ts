// The lint report: its JSON document (references/lint.schema.json) and its human form.
// Every string from a ledger is sanitized and capped on the way to the terminal.
import type { Diagnostic } from '../errors.js';
import { formatDiagnostic } from '../report/text.js';
import { sanitizeLine, terminalSafeJson } from '../text/sanitize.js';
import { guardLineStart } from '../text/workflow-commands.js';
import { RULES, type Finding, type RuleId } from './types.js';

export const LINT_SCHEMA = 'gate-check/lint@1';

export interface LintReport {
  schema: typeof LINT_SCHEMA;
  exitCode: number;
  root: string;
  files: string[];
  summary: { findings: number; gates: number; byRule: Partial<Record<RuleId, number>> };
  findings: Finding[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

/** Counts per rule, in rule order, only for rules that fired. */
export function countByRule(findings: readonly Finding[]): Partial<Record<RuleId, number>> {
  const counts: Partial<Record<RuleId, number>> = {};
  for (const rule of RULES) {
    const n = findings.filter((f) => f.rule === rule).length;
    if (n > 0) counts[rule] = n;
  }
  return counts;
}

export function renderLintJson(report: LintReport): string {
  return terminalSafeJson(report) + '\n';
}

export function renderLintText(report: LintReport): string {
  const out: string[] = [];
  for (const f of report.findings) {
    // The line starts with a file name from the repository: a "::" there must not reach a CI runner as a workflow command.
    out.push(guardLineStart(`${sanitizeLine(f.file, 160)}:${f.line}: ${sanitizeLine(f.qualified, 100)} [${f.rule}] ${sanitizeLine(f.message, 400)}`));
    if (f.suggestion !== null) out.push(`  suggestion: ${sanitizeLine(f.suggestion, 400)}`);
  }
  for (const w of report.warnings) out.push(formatDiagnostic(w, 'warning'));
  const { findings, gates, byRule } = report.summary;
  if (findings === 0) {
    out.push(`lint: no findings in ${plural(gates, 'gate')}`);
  } else {
    const parts = Object.entries(byRule).map(([rule, n]) => `${rule}: ${n}`);
    out.push(`${plural(findings, 'finding')} (${parts.join(', ')})`);
  }
  return out.join('\n') + '\n';
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
