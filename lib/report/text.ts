// Human output. Every string from a ledger passes through the sanitizer here.
import type { Diagnostic } from '../errors.js';
import { sanitizeLine } from '../text/sanitize.js';
import { guardLineStart } from '../text/workflow-commands.js';
import { waveLabel, wavesVerdictOf } from '../dispatch/verdict.js';
import { strictlyMet, type GateReport, type Report, type ScopeReport, type TreeVerdict } from './model.js';

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

/** What a verdict holds beyond its own gates: open waves and unmet scopes, qualified by scope (`task-7/leaf:L1`). */
export interface TreeItems {
  unmet: string[];
  handoff: string[];
  /** Met gates of the other scopes, for the ALL MET count. */
  met: number;
}

export function treeItems(tree: TreeVerdict): TreeItems {
  const own = wavesVerdictOf(tree.waves);
  const unmet = [...own.open];
  const handoff = [...own.handoff];
  let met = 0;
  for (const s of tree.scopes) {
    for (const id of s.unmet) unmet.push(`${s.scope}/${id}`);
    for (const id of s.handoff) handoff.push(`${s.scope}/${id}`);
    met += s.summary.met;
  }
  return { unmet, handoff, met };
}

const NO_ITEMS: TreeItems = { unmet: [], handoff: [], met: 0 };

function scopeLine(s: ScopeReport): string {
  const name = `scope ${sanitizeLine(s.scope, 80)}`;
  const ledgers = s.files.length === 0 ? ' (its folder has no ledgers; its dispatch state remains)' : '';
  if (s.exitCode === 0) {
    // As the ledger says (plain --status): met gates whose evidence does not hold here are
    // said, as the root's own are, with the view that lists them (round-41a F6).
    const flags = (['stale', 'mismatched', 'unverified'] as const).filter((k) => s.summary[k] > 0).map((k) => `${s.summary[k]} ${k}`);
    const flagged = flags.length === 0 ? '' : `; ${flags.join(', ')}: see --status --scope ${sanitizeLine(s.scope, 80)}`;
    return `${name}: ALL MET (${s.summary.met} met${flagged})${ledgers}`;
  }
  const parts: string[] = [];
  if (s.unmet.length > 0) parts.push(`UNMET: ${cappedIds(s.unmet)}`);
  if (s.handoff.length > 0) parts.push(`HANDOFF REQUIRED: ${cappedIds(s.handoff)}`);
  if (parts.length === 0) parts.push('UNMET');
  return `${name}: ${parts.join('; ')}${ledgers}`;
}

/** Lines for the waves of the report's scope that are not complete, then one verdict line per other scope. */
export function treeLines(tree: TreeVerdict): string[] {
  const out: string[] = [];
  for (const w of tree.waves) if (w.state !== 'complete') out.push(guardLineStart(sanitizeLine(waveLabel(w), 200)));
  for (const s of tree.scopes) out.push(scopeLine(s));
  return out;
}

/** The closing summary: ALL MET, or UNMET and/or HANDOFF REQUIRED with the ids (and the open waves and scopes of `tree`). */
export function summaryLines(gates: readonly GateReport[], notMet: (g: GateReport) => boolean = (g) => g.state !== 'met', tree: TreeItems = NO_ITEMS): string[] {
  const unmet = gates.filter((g) => g.state !== 'abandoned' && notMet(g)).map((g) => g.qualified);
  const handoff = gates.filter((g) => g.state === 'abandoned').map((g) => g.qualified);
  unmet.push(...tree.unmet);
  handoff.push(...tree.handoff);
  if (unmet.length === 0 && handoff.length === 0) return [`ALL MET (${gates.length + tree.met} met)`];
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
  out.push(...treeLines(report));
  for (const w of report.warnings) out.push(formatDiagnostic(w, 'warning'));
  if (flagged > 0 && !strict) out.push(`note: ${flagged} met gate${flagged === 1 ? '' : 's'} with evidence that is not verified here; --strict counts ${flagged === 1 ? 'it' : 'them'} as unmet`);
  out.push(...summaryLines(report.gates, strict ? (g) => !strictlyMet(g) : undefined, treeItems(report)));
  return out.join('\n') + '\n';
}
