// Human output of a run: approval requests, one line per result, failure diagnostics. All
// text from the repository or from a check passes through the sanitizer here.
import { checkPathEntries, commandWords, sourcedNames } from '../oracle/check-words.js';
import { pinSignature, type Oracle } from '../oracle/oracle.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../program/run-options.js';
import { displayed, reviewLine, SCREEN_COLUMNS, screenRows, screenWidth, shownInFull } from '../text/review-text.js';
import { sanitizeBlock, sanitizeLine, visibleNonAscii } from '../text/sanitize.js';
import { shellCommand } from '../text/shell-quote.js';
import type { GateReport } from './model.js';
import { cappedIds } from './text.js';

const CHECK_DISPLAY_CAP = 2000;
const FIELD_DISPLAY_CAP = 500;
/** The UNBOUND names before `(+N more)`: room left for the count within FIELD_DISPLAY_CAP. */
const UNBOUND_DISPLAY_CAP = 440;
/** The names of the files DEPENDS matched, on rows of their own: some hundred files. */
const DEPENDS_DISPLAY_CAP = 4000;

function dependsNames(depends: readonly (readonly [string, string])[]): string {
  return depends.map((d) => d[0]).join(', ');
}

/**
 * The repository executables PATH binds, those the CHECK names by a word first (`node` found
 * in node_modules/.bin before /usr/bin runs that file, not node: round-21 F5). Any word of the
 * CHECK counts, so a name is marked even where an earlier PATH entry would win: it only adds.
 */
function pathBoundNames(check: string, bound: readonly (readonly [string, string])[]): string {
  const words = new Set([...check.split(/[\s;&|()<>`"'=]+/), ...commandWords(check), ...sourcedNames(check)]);
  const named: string[] = [];
  const rest: string[] = [];
  for (const [path] of bound) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (words.has(name)) named.push(`${path} (the CHECK's "${name}" may run it)`);
    else rest.push(path);
  }
  return [...named, ...rest].join(', ');
}

function field(label: string, value: string, cap: number, what: string): string[] {
  const shown = displayed(value);
  const runs = shown.runs;
  const out = [`  ${label.padEnd(8)}${sanitizeLine(shown.text, cap)}`];
  if (!shownInFull(value, cap)) out.push(`         (${what} is ${value.length} characters; only the first ${cap - 1} shown characters are here: read it in full before approving it by its pin)`);
  if (shown.escaped > 0) out.push(`         (${what} has ${shown.escaped} non-ASCII character${shown.escaped === 1 ? '' : 's'}, shown as <U+XXXX>)`);
  if (runs > 0) out.push(`         (${what} has ${runs} run${runs === 1 ? '' : 's'} of 8 or more spaces, shown as <N spaces>)`);
  if (shown.literal > 0) out.push(`         (${what} has ${shown.literal} "<" that would read as an escape, shown as <U+003C>)`);
  return out;
}

/**
 * The fields of what would run that the approval screen cannot show in full (a CHECK longer
 * than its line): such an oracle is never approved by answering a prompt, only by its pin.
 */
export function fieldsCut(r: ApprovalRequest): string[] {
  const f = r.oracle.fields;
  const cut: string[] = [];
  if (!shownInFull(f.check, CHECK_DISPLAY_CAP)) cut.push('CHECK');
  if (!shownInFull(f.expect, CHECK_DISPLAY_CAP)) cut.push('EXPECT');
  if (!shownInFull(f.cwd, FIELD_DISPLAY_CAP)) cut.push('CWD');
  if (!shownInFull(f.shell, FIELD_DISPLAY_CAP)) cut.push('SHELL');
  if (!shownInFull(f.path ?? '', FIELD_DISPLAY_CAP)) cut.push('PATH');
  for (const [name, value] of f.env ?? []) if (!shownInFull(`${name}=${value}`, FIELD_DISPLAY_CAP)) cut.push(`ENV ${name}`);
  // A list cut short could hide that a script is not among the files bound.
  if (f.depends && !shownInFull(dependsNames(f.depends), DEPENDS_DISPLAY_CAP)) cut.push('DEPENDS list');
  // So could a list of the repository's PATH executables cut short (round-21 F5).
  if (f.pathBound && !shownInFull(pathBoundNames(f.check, f.pathBound), FIELD_DISPLAY_CAP)) cut.push('list of PATH executables in the repository');
  cut.push(...r.dependsNotShown);
  return cut;
}

export interface ApprovalRequest {
  qualified: string;
  oracle: Oracle;
  file: string;
  line: number;
  title: string;
  /** The gate's own TIMEOUT: in seconds, or null when the run's --timeout applies. */
  gateTimeout: number | null;
  /** What differs from the closest earlier approval; null: never approved. */
  changed: string[] | null;
  /** The diff of each DEPENDS file changed since that approval, as screen lines (report/depends-diff.ts). */
  dependsDiff: string[];
  /** What the screen could not show faithfully of the DEPENDS files (commands/depends-review.ts), as labels. */
  dependsNotShown: string[];
  /** Repository files the CHECK runs as scripts or names otherwise that DEPENDS does not bind (lint/unbound-scripts.ts, lint/named-files.ts). */
  unboundScripts: string[];
  /** Those of them it only reads as data (lint/data-files.ts): shown apart. */
  unboundData: string[];
  /** Where the reading of the CHECK for scripts stopped (lint/unbound-scripts.ts unboundNotJudged), or null. */
  unboundNotJudged: string | null;
}

/** Scripts named on one line: the first five, then a count. */
/** As many names as fit `cap` characters, then how many more: a name past a few decoys is still shown. */
function cappedList(items: readonly string[], cap: number): string {
  let text = '';
  for (let i = 0; i < items.length; i++) {
    const next = text === '' ? items[i]! : `${text}, ${items[i]}`;
    const rest = items.length - i - 1;
    if (next.length + (rest > 0 ? ` (+${rest} more)`.length : 0) > cap && text !== '') return `${text} (+${items.length - i} more)`;
    text = next;
  }
  return text;
}

function timeoutText(ms: number, own: number | null): string {
  const s = ms / 1000;
  return own !== null ? `${s} s (the gate's TIMEOUT:)` : `${s} s (${s === DEFAULT_TIMEOUT_SECONDS ? 'the default' : '--timeout'}; a gate sets its own with TIMEOUT:)`;
}

/**
 * The approval screen of one oracle. Every row fits `columns` (the terminal's width, 20 to
 * 80; text/review-text.ts screenRows): a row the terminal wrapped itself could put
 * part of the CHECK at the start of a row that reads as another field.
 */
export function approvalRequestText(r: ApprovalRequest, columns = SCREEN_COLUMNS): string {
  const f = r.oracle.fields;
  const lines = [
    `APPROVAL REQUIRED ${sanitizeLine(r.qualified, 120)}@${pinSignature(r.oracle.signature)}  (${sanitizeLine(r.file, 160)}:${r.line})`,
    ...field('TITLE', r.title, FIELD_DISPLAY_CAP, 'TITLE'),
    ...field('CHECK', f.check, CHECK_DISPLAY_CAP, 'CHECK'),
    ...field('EXPECT', f.expect, CHECK_DISPLAY_CAP, 'EXPECT'),
    ...field('CWD', f.cwd, FIELD_DISPLAY_CAP, 'CWD'),
    ...field('SHELL', f.shell, FIELD_DISPLAY_CAP, 'SHELL'),
    `  TIMEOUT ${timeoutText(f.timeoutMs, r.gateTimeout)}`,
    ...field('PATH', f.path ?? '(unset)', FIELD_DISPLAY_CAP, 'PATH'),
  ];
  const changed = r.changed;
  if (f.depends) {
    const names = dependsNames(f.depends);
    // As shownInFull measures it: blank runs as <N spaces>.
    lines.push(`  DEPENDS ${f.depends.length} file${f.depends.length === 1 ? '' : 's'}: ${sanitizeLine(displayed(names).text, DEPENDS_DISPLAY_CAP)}`);
    if (!shownInFull(names, DEPENDS_DISPLAY_CAP)) lines.push(`         (a list of ${names.length} characters: the first ${DEPENDS_DISPLAY_CAP - 1} are here)`);
  }
  if (f.pathBound) {
    const n = f.pathBound.length;
    if (n === 0) lines.push('  PATH    leads into the repository, to folders with no file now (left out of PATH above): one made there later needs a new approval');
    else lines.push(
      `  PATH    leads into the repository: ${n} file${n === 1 ? '' : 's'} there ${n === 1 ? 'is' : 'are'} bound into this approval: ${reviewLine(pathBoundNames(f.check, f.pathBound), FIELD_DISPLAY_CAP)} (read ${n === 1 ? 'it' : 'them'} too)`,
    );
  }
  // What a PATH the CHECK sets puts on it at run time cannot be read, so is bound by nothing
  // (its HOME does not matter here: only whether an entry can be read).
  const unread = checkPathEntries(f.check, { HOME: '/' }, f.cwd).unread;
  if (unread.length > 0) {
    lines.push(`  PATH    set in the CHECK, not read: ${sanitizeLine(visibleNonAscii(cappedList(unread, UNBOUND_DISPLAY_CAP)).text, FIELD_DISPLAY_CAP)} (made at run time): what runs from there is not bound; read the CHECK yourself`);
  }
  const unbound = r.unboundScripts;
  // What it runs or names, then what it only reads as data (`grep x dist/out.js`: build output
  // the check writes itself was said to run, round-38b F3). Only a file named nowhere but to a
  // reader (grep, cat, test, diff …) is data: what a runner finds by itself is code (round-38c F6).
  const code = unbound.filter((p) => !r.unboundData.includes(p));
  const data = unbound.filter((p) => r.unboundData.includes(p));
  for (const [list, how] of [
    [code, (it: string) => [`CHECK runs or names ${it}, no DEPENDS binds ${it}: edits run unasked`]],
    [data, (it: string) => [`CHECK only reads ${it} (grep, cat, test …): edits change the verdict`, `unasked; bind ${it} in DEPENDS or INPUTS unless the check writes ${it}`]],
  ] as const) {
    if (list.length === 0) continue;
    lines.push(`  UNBOUND ${sanitizeLine(visibleNonAscii(cappedList(list, UNBOUND_DISPLAY_CAP)).text, FIELD_DISPLAY_CAP)}`, ...how(list.length === 1 ? 'it' : 'them').map((l) => `          ${l}`));
  }
  if (r.unboundNotJudged) {
    lines.push(`  ${unbound.length > 0 ? '       ' : 'UNBOUND'} not read past ${sanitizeLine(r.unboundNotJudged, 80)}: read the rest yourself`);
  }
  for (const [name, value] of f.env ?? []) lines.push(...field('ENV', `${name}=${value}`, FIELD_DISPLAY_CAP, `ENV ${name}`));
  lines.push(changed === null ? '  never approved before' : `  approved before for another oracle: ${reviewLine(changed.join(', ') || 'no field differs', 600)}`);
  lines.push(...r.dependsDiff);
  const width = screenWidth(columns);
  return lines.flatMap((l) => screenRows(l, width)).join('\n') + '\n';
}

export function resultLine(g: GateReport): string {
  const r = g.result!;
  const id = sanitizeLine(g.qualified, 120);
  const title = sanitizeLine(g.title, 160);
  const took = r.durationMs !== null ? ` (${r.durationMs} ms)` : '';
  switch (r.status) {
    case 'pass':
      return `PASS ${id}${took}  ${title}`;
    case 'fail':
      return `FAIL ${id}${took}  ${title}: ${sanitizeLine(r.error ?? 'failed', 300)}`;
    case 'stale':
      return `STALE ${id}: ${sanitizeLine(r.error ?? 'oracle changed', 300)}; result not written`;
    case 'not-run':
      return `NOT RUN ${id}  ${title}: ${sanitizeLine(r.error ?? 'not started', 200)}`;
    case 'approval-required':
      return `APPROVAL REQUIRED ${id}  ${title}${r.error && r.error !== 'approval required' ? `: ${sanitizeLine(r.error, 300)}` : ''}`;
  }
}

/** The first and last lines of a failed check's output, sanitized: terminal only, never a file. */
export function diagnosticLines(output: string, overflowed = false): string[] {
  if (overflowed) return ['  | (the output passed the cap and was not kept)'];
  if (output.length === 0) return ['  | (no output)'];
  return sanitizeBlock(output, 12, 200, TELLING_LINE).map((l) => `  | ${l}`);
}

/** Lines that say what failed, as test runners print them (TAP `not ok`, node:test's ✖, jest's ●, assertion values, errors). */
const TELLING_LINE = /^\s*(?:not ok\b|[✖✗×●]|FAIL\b|(?:\w+)?Error\b|expected\b|actual\b|Expected\b|Received\b|[+-] (?:Expected|Received|expected|actual)\b|E +)|\b(?:failed|failing)\b|(?:expected|actual):/;

/** What of a run's command line decides which gates a pin names and which oracle it must match. */
export interface SuggestionOptions {
  /** How gate-check was started (lib/program/invocation.ts): the suggestion starts it the same way. */
  invocation: readonly string[];
  root: string | undefined;
  scope: string | undefined;
  files: readonly string[];
  shell: string | undefined;
  cwd: string | undefined;
  timeoutSeconds: number;
}

/** Pins in one suggested command: more are approved in parts (`--approve` asks for each at a terminal). */
const MAX_SUGGESTED_PINS = 20;

/**
 * The closing lines for gates that need approval: their pins, and the command that approves
 * exactly those, to be pasted into a shell: every word shell-quoted, with the options that
 * select the same ledgers and compute the same oracles. No command is suggested when a word
 * cannot be shown exactly as the shell would receive it.
 */
export function approvalSuggestion(pins: readonly string[], o: SuggestionOptions): string[] {
  const lines = [`APPROVAL REQUIRED: ${cappedIds(pins)}`];
  const words = [...o.invocation, '--approve', pins.length <= MAX_SUGGESTED_PINS ? pins.join(',') : '<ID@HEX,...>'];
  if (o.root !== undefined) words.push('--root', o.root);
  if (o.scope !== undefined) words.push('--scope', o.scope);
  if (o.shell !== undefined) words.push('--shell', o.shell);
  if (o.cwd !== undefined) words.push('--cwd', o.cwd);
  if (o.timeoutSeconds !== DEFAULT_TIMEOUT_SECONDS) words.push('--timeout', String(o.timeoutSeconds));
  // Files after "--": a ledger named like an option stays a file.
  if (o.files.length > 0) words.push('--', ...o.files);
  const command = shellCommand(words);
  if (command === null || pins.length > MAX_SUGGESTED_PINS) {
    const why = command === null ? 'a path or id above cannot be shown exactly as typed' : `more than ${MAX_SUGGESTED_PINS} gates`;
    const start = shellCommand(o.invocation) ?? 'gate-check';
    lines.push(`  review each command above, then approve exactly those with ${start} --approve ID@HEX,... (${why}: write the command yourself)`);
  } else {
    // The command on a row of its own, to be copied whole (a row is never cut inside it).
    lines.push('  review each command above, then approve exactly those:', `  ${command}`);
  }
  return lines;
}
