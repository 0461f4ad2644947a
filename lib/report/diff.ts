// gate-check diff's outputs: the JSON document (references/diff.schema.json), the human text,
// GitHub annotations and the job-summary table. Every string from a ledger or a path is
// untrusted: sanitized and capped for the terminal and annotations (escaped per the
// workflow-command rules), Markdown-escaped for the summary, exact but terminal-safe in JSON.
// Pure.
import type { Diagnostic } from '../errors.js';
import type { Change, Comparison, FieldChange, Severity } from '../ledger/compare.js';
import { reviewLine, reviewNotes } from '../text/review-text.js';
import { sanitizeLine, terminalSafeJson } from '../text/sanitize.js';
import { guardLineStart } from '../text/workflow-commands.js';
import { formatDiagnostic } from './text.js';
import { escapeData, escapeProperty, markdownText, MAX_ERROR_ANNOTATIONS, SUMMARY_CAP_BYTES } from './github.js';

export const DIFF_SCHEMA = 'gate-check/diff@1';

export interface DiffChange extends Change {
  message: string;
}

export interface DiffReport {
  schema: typeof DIFF_SCHEMA;
  exitCode: number;
  base: { rev: string; commit: string | null };
  root: string;
  scope: string | null;
  summary: Record<Severity, number> & { ledgersAtBase: number; ledgersNow: number; gatesAtBase: number; gatesNow: number };
  changes: DiffChange[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

function scopeLabel(scope: string | null): string {
  return scope === null ? 'the root ledgers' : `scope ${scope}`;
}

/** One sentence per finding, in plain (unsanitized) text. */
export function describeChange(c: Change, rev: string): string {
  switch (c.kind) {
    case 'removed':
      return `removed (it was at ${rev}:${c.baseFile}:${c.baseLine})`;
    case 'turned-manual':
      return 'turned manual: its CHECK and EXPECT are gone, so a ticked box with any evidence would meet it';
    case 'abandoned':
      return 'newly handed off (ABANDON): the work is surrendered, a person must take it over';
    case 'ledger-removed':
      return `${c.severity === 'weakened' ? 'ledger removed, with gates that are in no other ledger' : 'ledger removed; each of its gates is now in another ledger'} (it was at ${rev}:${c.baseFile})`;
    case 'changed':
      return `changed ${c.fields.map((f) => f.field).join(', ')}: a person must judge whether it still proves the outcome`;
    case 'turned-runnable':
      return "turned runnable: a command now stands where a person's judgement did";
    case 'moved':
      return c.scope !== c.baseScope
        ? `moved from ${c.baseFile} (${scopeLabel(c.baseScope)}) to ${scopeLabel(c.scope)}: another pipeline answers for it now`
        : `moved from ${c.baseFile}`;
    case 'added':
      return 'added';
    case 'ledger-added':
      return 'ledger added';
    case 'ledger-renamed':
      return `ledger renamed from ${c.baseFile}${c.fields.length > 0 ? ' (OWNS changed)' : ''}`;
    case 'unabandoned':
      return 'hand-off withdrawn (its ABANDON line is gone)';
    case 'retitled':
      return 'manual gate retitled (a person ticks it against this text)';
    case 'owns-changed':
      return 'OWNS changed';
  }
}

export interface DiffReportInput {
  rev: string;
  commit: string;
  root: string;
  scope: string | null;
  comparison: Comparison;
  warnings: Diagnostic[];
}

export function diffReport(input: DiffReportInput): DiffReport {
  const c = input.comparison;
  return {
    schema: DIFF_SCHEMA,
    exitCode: c.exitCode,
    base: { rev: input.rev, commit: input.commit },
    root: input.root,
    scope: input.scope,
    summary: { ...c.counts, ledgersAtBase: c.ledgersAtBase, ledgersNow: c.ledgersNow, gatesAtBase: c.gatesAtBase, gatesNow: c.gatesNow },
    changes: c.changes.map((ch) => ({ ...ch, message: describeChange(ch, input.rev) })),
    warnings: input.warnings,
    errors: [],
  };
}

/** The document of a diff that could not be made (exit 2): no findings, the errors. */
export function diffErrorReport(rev: string, root: string, scope: string | null, errors: Diagnostic[], warnings: Diagnostic[], exitCode: number): DiffReport {
  return {
    schema: DIFF_SCHEMA,
    exitCode,
    base: { rev, commit: null },
    root,
    scope,
    summary: { weakened: 0, review: 0, info: 0, ledgersAtBase: 0, ledgersNow: 0, gatesAtBase: 0, gatesNow: 0 },
    changes: [],
    warnings,
    errors,
  };
}

export function renderDiffJson(report: DiffReport): string {
  return terminalSafeJson(report) + '\n';
}

const LABEL: Record<Severity, string> = { weakened: 'WEAKENED', review: 'REVIEW  ', info: 'note    ' };
/** Findings listed in text; the rest are counted (JSON has them all). */
export const TEXT_CHANGES_CAP = 500;

/** Where it is now; for what is gone, its ledger (the message says where it was). */
function where(c: Change): string {
  if (c.file !== null) return `${sanitizeLine(c.file, 160)}${c.line !== null ? `:${c.line}` : ''}`;
  return sanitizeLine(c.baseFile ?? '', 160);
}

/** A changed value as the approval screen shows it (look-alike letters, runs of blanks: lib/text/review-text.ts). */
const VALUE_CAP = 300;

function value(v: string | null): string {
  return v === null ? '(none)' : v === '' ? '(empty)' : reviewLine(v, VALUE_CAP);
}

function fieldLines(f: FieldChange, rev: string): string[] {
  if (f.field === 'ABANDON') return [`    reason: ${value(f.now)}`];
  const notes = new Set<string>();
  for (const v of [f.base, f.now]) if (v !== null) for (const n of reviewNotes(v, VALUE_CAP, f.field)) notes.add(n.replace(/; not all of it is shown here\)$/, '; --json has it whole)'));
  return [`    ${f.field} at ${sanitizeLine(rev, 80)}: ${value(f.base)}`, `    ${f.field} now: ${value(f.now)}`, ...[...notes].map((n) => `      ${n}`)];
}

export function renderDiffText(report: DiffReport): string {
  const rev = report.base.rev;
  const out: string[] = [];
  for (const c of report.changes.slice(0, TEXT_CHANGES_CAP)) {
    const gate = c.id !== null ? ` ${sanitizeLine(c.id, 100)}` : '';
    // As the fields below show it (a retitled manual gate's new title is what a person ticks against).
    const title = c.title !== null ? ` "${reviewLine(c.title, 160)}"` : '';
    out.push(guardLineStart(`${LABEL[c.severity]} ${where(c)}${gate}: ${sanitizeLine(c.message, 400)}${title}`));
    for (const f of c.fields) out.push(...fieldLines(f, rev));
  }
  if (report.changes.length > TEXT_CHANGES_CAP) out.push(`(${report.changes.length - TEXT_CHANGES_CAP} more findings: --json lists them all)`);
  for (const w of report.warnings) out.push(formatDiagnostic(w, 'warning'));
  out.push(verdictLine(report));
  return out.join('\n') + '\n';
}

function counted(report: DiffReport, kind: Change['kind'], noun: string): string | null {
  const n = report.changes.filter((c) => c.kind === kind).length;
  return n === 0 ? null : `${n} ${noun}`;
}

export function verdictLine(report: DiffReport): string {
  const s = report.summary;
  const against = `since ${sanitizeLine(report.base.rev, 80)} (${(report.base.commit ?? '').slice(0, 12)})`;
  const sizes = `gates: ${s.gatesAtBase} at BASE, ${s.gatesNow} now`;
  if (report.exitCode === 1) {
    const parts = [s.weakened > 0 ? `${s.weakened} weakened` : null, s.review > 0 ? `${s.review} to review` : null].filter((p) => p !== null);
    return `GATES WEAKENED OR CHANGED ${against}: ${parts.join(', ')} (${sizes}); a person must review these ledger changes`;
  }
  const notes = [counted(report, 'added', 'added'), counted(report, 'moved', 'moved'), counted(report, 'ledger-renamed', 'ledger renamed'), counted(report, 'ledger-added', 'ledger added')].filter((p) => p !== null);
  return `NO GATE REMOVED OR WEAKENED ${against}${notes.length > 0 ? `: ${notes.join(', ')}` : ''} (${sizes})`;
}

// ---- GitHub Actions ----

function annotation(level: 'error' | 'warning', c: DiffChange, nowFiles: ReadonlySet<string>, prefix: string, rev: string): string {
  const props: string[] = [];
  // A gone gate is annotated on its ledger when that still exists; a gone ledger on nothing.
  const file = c.file ?? (c.baseFile !== null && nowFiles.has(c.baseFile) ? c.baseFile : null);
  if (file !== null) props.push(`file=${escapeProperty(sanitizeLine(prefix + file, 300))}`);
  if (file !== null && c.file !== null && c.line !== null) props.push(`line=${c.line}`);
  props.push(`title=${escapeProperty(sanitizeLine(`gate-check diff${c.id !== null ? `: ${c.id}` : ''}`, 200))}`);
  const subject = c.id !== null ? `${c.id} (${c.title ?? ''})` : (c.file ?? c.baseFile ?? '');
  const detail = c.fields
    .filter((f) => f.field !== 'ABANDON')
    .map((f) => `${f.field}: ${f.base ?? '(none)'} -> ${f.now ?? '(none)'}`)
    .join('; ');
  const message = `${subject}: ${describeChange(c, rev)}${detail ? `. ${detail}` : ''}`;
  return `::${level} ${props.join(',')}::${escapeData(sanitizeLine(message, 1000))}`;
}

function listOf(items: string[]): string {
  return `${items.slice(0, 50).join(', ')}${items.length > 50 ? ', …' : ''}`;
}

function shortName(c: Change): string {
  return sanitizeLine(c.id !== null ? `${c.file ?? c.baseFile}:${c.id}` : (c.file ?? c.baseFile ?? ''), 100);
}

/**
 * An ::error per weakening and a ::warning per change to review, on the line it concerns
 * (GitHub keeps 10 of each per step: the rest are summed up in one warning each).
 */
export function diffAnnotations(report: DiffReport, nowFiles: ReadonlySet<string>, prefix: string): string[] {
  const rev = report.base.rev;
  const weakened = report.changes.filter((c) => c.severity === 'weakened');
  const review = report.changes.filter((c) => c.severity === 'review');
  const errors = weakened.slice(0, MAX_ERROR_ANNOTATIONS).map((c) => annotation('error', c, nowFiles, prefix, rev));
  const warnings: string[] = [];
  const restWeakened = weakened.slice(MAX_ERROR_ANNOTATIONS);
  if (restWeakened.length > 0) warnings.push(`::warning title=gate-check diff::${escapeData(`${restWeakened.length} more gates removed or weakened: ${listOf(restWeakened.map(shortName))}`)}`);
  const room = MAX_ERROR_ANNOTATIONS - warnings.length;
  const shown = review.length > room ? review.slice(0, room - 1) : review;
  for (const c of shown) warnings.push(annotation('warning', c, nowFiles, prefix, rev));
  if (shown.length < review.length) {
    const more = review.slice(shown.length).map(shortName);
    warnings.push(`::warning title=gate-check diff::${escapeData(`${more.length} more gates changed: ${listOf(more)}`)}`);
  }
  return [...errors, ...warnings];
}

function cell(text: string): string {
  return markdownText(sanitizeLine(text, 300));
}

export function diffStepSummary(report: DiffReport): string {
  const s = report.summary;
  const verdict = report.exitCode === 1 ? `${s.weakened} weakened, ${s.review} to review` : 'no gate removed or weakened';
  const lines = [`### gate-check diff since ${cell(report.base.rev)}: ${verdict}`, '', '| Severity | Change | Gate | Ledger | Detail |', '| --- | --- | --- | --- | --- |'];
  let size = Buffer.byteLength(lines.join('\n')) + 1;
  let shown = 0;
  for (const c of report.changes) {
    const ledger = c.file !== null && c.baseFile !== null && c.file !== c.baseFile ? `${c.baseFile} → ${c.file}` : (c.file ?? c.baseFile ?? '');
    const detail = c.fields.map((f) => (f.field === 'ABANDON' ? `reason: ${f.now ?? ''}` : `${f.field}: ${f.base ?? '(none)'} → ${f.now ?? '(none)'}`)).join('; ');
    const row = `| ${c.severity} | ${cell(c.kind)} | ${c.id !== null ? cell(`${c.id}: ${c.title ?? ''}`) : ''} | ${cell(ledger)} | ${cell(detail || c.message)} |`;
    const bytes = Buffer.byteLength(row) + 1;
    if (size + bytes + 200 > SUMMARY_CAP_BYTES) break;
    lines.push(row);
    size += bytes;
    shown++;
  }
  if (report.changes.length === 0) lines.push('| — | — | — | — | no ledger changes |');
  if (shown < report.changes.length) lines.push('', `(${report.changes.length - shown} more findings not shown)`);
  return lines.join('\n') + '\n';
}
