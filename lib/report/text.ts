// Human output. Every string from a ledger passes through the sanitizer here.
import type { Diagnostic } from '../errors.js';
import { sanitizeLine } from '../text/sanitize.js';
import { guardLineStart } from '../text/workflow-commands.js';
import { strictlyMet, type GateReport, type Report } from './model.js';

const LIST_CAP = 10;

export function formatDiagnostic(d: Diagnostic, severity: 'error' | 'warning'): string {
  const where = d.file !== undefined ? `${sanitizeLine(d.file, 160)}${d.line !== undefined ? `:${d.line}` : ''}: ` : '';
  return `${severity}: ${where}${sanitizeLine(d.message, 400)}`;
}

export function cappedIds(ids: readonly string[], cap = LIST_CAP): string {
  const shown = ids.slice(0, cap).map((id) => sanitizeLine(id, 80));
  return ids.length > cap ? `${shown.join(', ')} (+${ids.length - cap} more)` : shown.join(', ');
}

const STATE_LABEL: Record<GateReport['state'], string> = {
  met: 'met',
  unmet: 'unchecked',
  claimed: 'claimed (checked, evidence pending)',
  abandoned: 'abandoned',
};

function stateLabel(g: GateReport): string {
  if (g.stateReason && (g.state === 'claimed' || g.state === 'unmet')) return `${g.state === 'claimed' ? 'claimed' : 'unchecked'} (${sanitizeLine(g.stateReason, 200)})`;
  return STATE_LABEL[g.state];
}

export function gateLine(g: GateReport, label = stateLabel(g)): string {
  return `${guardLineStart(sanitizeLine(g.qualified, 100))}  ${label}  ${sanitizeLine(g.title, 160)}`;
}

/** The closing summary: ALL MET, or UNMET and/or HANDOFF REQUIRED with the ids. */
export function summaryLines(gates: readonly GateReport[], notMet: (g: GateReport) => boolean = (g) => g.state !== 'met'): string[] {
  const unmet = gates.filter((g) => g.state !== 'abandoned' && notMet(g)).map((g) => g.qualified);
  const handoff = gates.filter((g) => g.state === 'abandoned').map((g) => g.qualified);
  if (unmet.length === 0 && handoff.length === 0) return [`ALL MET (${gates.length} met)`];
  const out: string[] = [];
  if (unmet.length > 0) out.push(`UNMET: ${cappedIds(unmet)}`);
  if (handoff.length > 0) out.push(`HANDOFF REQUIRED: ${cappedIds(handoff)}`);
  return out;
}

/** A met gate whose evidence does not hold up: `met, stale: DEPENDS changed: scripts/v.mjs`. */
function flaggedLine(g: GateReport): string {
  return `${gateLine(g, `met, ${g.verification}`)}: ${sanitizeLine(g.verificationReason ?? '', 300)}`;
}

export function renderStatusText(report: Report, strict = false): string {
  const out: string[] = [];
  let flagged = 0;
  for (const g of report.gates) {
    if (g.state !== 'met') out.push(gateLine(g));
    else if (!strictlyMet(g) && g.verification !== null) {
      out.push(flaggedLine(g));
      flagged++;
    }
  }
  for (const w of report.warnings) out.push(formatDiagnostic(w, 'warning'));
  if (flagged > 0 && !strict) out.push(`note: ${flagged} met gate${flagged === 1 ? '' : 's'} with evidence that is not verified here; --strict counts ${flagged === 1 ? 'it' : 'them'} as unmet`);
  out.push(...summaryLines(report.gates, strict ? (g) => !strictlyMet(g) : undefined));
  return out.join('\n') + '\n';
}
