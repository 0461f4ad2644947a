// GitHub Actions output: an ::error annotation per failed or unmet gate (GitHub keeps only
// 10 errors per step: the first 10, then one ::warning that sums up the rest, since warnings
// have their own quota), a ::warning per hand-off, and a Markdown table for
// $GITHUB_STEP_SUMMARY. Values are escaped per the workflow-command
// rules; check output is never part of it. Pure.
import { sanitizeLine } from '../text/sanitize.js';
import { openTreeItems, type GateReport, type Report } from './model.js';
import { gateOutcome, type GateOutcome } from './outcome.js';

export const MAX_ERROR_ANNOTATIONS = 10;
/** Well under GitHub's 1 MiB limit per step summary. */
export const SUMMARY_CAP_BYTES = 256 * 1024;

/** Message data: %, CR and LF are escaped. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values: also : and , (they separate properties). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function annotation(level: 'error' | 'warning', g: GateReport, message: string): string {
  const props = `file=${escapeProperty(sanitizeLine(g.file, 300))},line=${g.line},title=${escapeProperty(sanitizeLine(g.qualified, 200))}`;
  return `::${level} ${props}::${escapeData(sanitizeLine(message, 1000))}`;
}

function listOf(ids: string[]): string {
  return `${ids.slice(0, 50).join(', ')}${ids.length > 50 ? ', …' : ''}`;
}

/** The gates a report answers for: a shard's report lists every gate but runs only its share (the rest are other shards', and merge's). */
function answeredGates(report: Report): readonly GateReport[] {
  return report.shard ? report.gates.filter((g) => g.result !== null) : report.gates;
}

export function githubAnnotations(report: Report, strict: boolean): string[] {
  const errors: string[] = [];
  const warnings: string[] = [];
  const failed: { g: GateReport; message: string }[] = [];
  const handoffs: GateReport[] = [];
  for (const g of answeredGates(report)) {
    const o = gateOutcome(g, report.mode, strict);
    if (g.state === 'abandoned') handoffs.push(g);
    else if (o.kind === 'failed' || (o.kind === 'skipped' && g.kind === 'runnable')) failed.push({ g, message: `${g.qualified}: ${sanitizeLine(g.title, 200)}: ${o.message}` });
  }
  // The open scopes and waves the verdict counts beyond its gates: an error each, in the same quota.
  const tree = report.shard ? [] : openTreeItems(report).map((t) => `::error title=gate-check::${escapeData(sanitizeLine(`${t.label} is not met: ${listOf(t.open)}`, 1000))}`);
  errors.push(...tree.slice(0, MAX_ERROR_ANNOTATIONS));
  for (const f of failed.slice(0, Math.max(0, MAX_ERROR_ANNOTATIONS - errors.length))) errors.push(annotation('error', f.g, f.message));
  const rest = failed.slice(Math.max(0, MAX_ERROR_ANNOTATIONS - Math.min(tree.length, MAX_ERROR_ANNOTATIONS))).map((f) => sanitizeLine(f.g.qualified, 100));
  // Warnings have their own quota of 10: the summary of the rest, then hand-offs.
  if (rest.length > 0) warnings.push(`::warning title=gate-check::${escapeData(`${rest.length} more gates are not met: ${listOf(rest)}`)}`);
  const room = MAX_ERROR_ANNOTATIONS - warnings.length;
  const shownHandoffs = handoffs.length > room ? handoffs.slice(0, room - 1) : handoffs;
  for (const g of shownHandoffs) warnings.push(annotation('warning', g, `${g.qualified} is handed off (ABANDON): a person must take it over`));
  if (shownHandoffs.length < handoffs.length) {
    const more = handoffs.slice(shownHandoffs.length).map((g) => sanitizeLine(g.qualified, 100));
    warnings.push(`::warning title=gate-check::${escapeData(`${more.length} more gates are handed off: ${listOf(more)}`)}`);
  }
  return [...errors, ...warnings];
}

/** ASCII punctuation: CommonMark lets a backslash make every one of them literal. */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Untrusted text as literal Markdown (GFM, as the job summary renders it): every ASCII
 * punctuation character backslash-escaped, so no link, image, emphasis, code span, HTML,
 * table-cell break, autolink (":", "." and "@" are escaped), mention, issue reference or
 * emoji shortcode survives. Rendered, it reads exactly as the text.
 */
export function markdownText(text: string): string {
  return text.replace(MARKDOWN_PUNCTUATION, '\\$&');
}

function cell(text: string): string {
  return markdownText(sanitizeLine(text, 300));
}

/** The job summary's section for a run that stopped with an error after its checks may have run: no verdict. */
export function githubErrorSummary(mode: string, message: string, exitCode: number): string {
  return `### gate-check: error, no verdict (${cell(mode)})\n\ngate-check stopped with exit ${exitCode}: ${cell(message)}\n`;
}

export function githubStepSummary(report: Report, strict: boolean): string {
  const gates = answeredGates(report);
  const whose = report.shard ? `shard ${report.shard.index}/${report.shard.count}: ` : '';
  const verdict = report.shard ? (report.exitCode === 0 ? `its ${gates.length} gates met` : 'its gates not met') : report.exitCode === 0 ? 'all gates met' : 'gates not met';
  const lines = [`### gate-check: ${whose}${verdict} (${report.mode})`, '', '| Gate | Title | Outcome |', '| --- | --- | --- |'];
  // Bytes, not code units: the cap is GitHub's, and it counts UTF-8.
  let size = Buffer.byteLength(lines.join('\n')) + 1;
  let shown = 0;
  // What decides the verdict first: failed, then skipped, then passed, each in ledger order, so
  // that the cap drops passes (2,000 ticked manual gates ahead of one failure once pushed it
  // out of the table: round-39u U3). A ticked manual gate is met on a person's word: said so.
  const rows = gates.map((g) => ({ g, o: gateOutcome(g, report.mode, strict) }));
  const rank = (o: GateOutcome) => (o.kind === 'failed' ? 0 : o.kind === 'skipped' ? 1 : 2);
  rows.sort((a, b) => rank(a.o) - rank(b.o));
  // Open scopes and waves first of all: the verdict counts them, and no gate row names them.
  const tree = report.shard ? [] : openTreeItems(report);
  for (const t of tree) {
    const row = `| ${cell(t.label)} | | ${cell(`failed: not met: ${listOf(t.open)}`)} |`;
    const bytes = Buffer.byteLength(row) + 1;
    if (size + bytes + 200 > SUMMARY_CAP_BYTES) break;
    lines.push(row);
    size += bytes;
  }
  for (const { g, o } of rows) {
    const passed = g.kind === 'manual' ? "met (manual: a person's evidence)" : 'passed';
    const row = `| ${cell(g.qualified)} | ${cell(g.title)} | ${o.kind === 'passed' ? passed : cell(`${o.kind}: ${o.message}`)} |`;
    const bytes = Buffer.byteLength(row) + 1;
    if (size + bytes + 200 > SUMMARY_CAP_BYTES) break;
    lines.push(row);
    size += bytes;
    shown++;
  }
  if (shown < gates.length) lines.push('', `(${gates.length - shown} more gates not shown)`);
  if (report.shard) lines.push('', `Only this shard's gates are listed; the verdict for all of them is the merged report's.`);
  return lines.join('\n') + '\n';
}
