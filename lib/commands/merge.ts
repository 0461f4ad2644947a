// gate-check merge --shards N report-*.json [--root DIR] [--scope ID | --ledger FILE…] [--junit FILE] [--json]:
// one verdict from the --json reports of a sharded run (a CI matrix). Runs nothing. The
// ledgers are read from the checkout the merge runs in (as --status would find them): they,
// not the reports, say which gates exist, what each is, and which shard owns it.
import { resolve } from 'node:path';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UnsafeFileError, UsageError } from '../errors.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { MAX_PASS_DURATION_MS, mergeReports, type LedgerTruth, type PassBounds } from '../report/merge.js';
import { gateReport, ledgerRevisions, treeMet } from '../report/model.js';
import { parseReport } from '../report/parse-report.js';
import { resultLine } from '../report/run-text.js';
import { cappedIds, summaryLines, treeItems, treeLines } from '../report/text.js';
import { sanitizeLine } from '../text/sanitize.js';
import { loadWorkspace } from '../workspace/load.js';
import { DEFAULT_REGEX_CAP_MS, matchExpect } from '../run/expect-match.js';
import type { Gate } from '../ledger/types.js';
import { emitReport } from './emit.js';
import { otherScopesNote, treeVerdict, unmetScopes } from './scopes.js';

const MAX_REPORT_BYTES = 64 * 1024 * 1024;
/** As --shard I/N allows. */
const MAX_SHARDS = 1000;
/** Lines naming gates without a fresh result; the rest are counted. */
const LACK_LINES = 20;

interface MergeOptions {
  shards?: string;
  junit?: string;
  json?: boolean;
  root?: string;
  scope?: string;
  ledger?: string[];
}

const HELP_AFTER = `
The ledgers are read from the checkout this runs in (--root, default the current directory:
GATES.md and gates/*.md, or --scope, or each --ledger), and every report must have been made
from exactly those bytes. A runnable gate is met only by a pass in the report of the shard
that owns it; a manual gate by its ledger. Exit codes: 0 every gate met; 1 a gate failed,
is open, handed off, or has no fresh result (a shard did not run it, or its report is
missing); 2 reports that cannot be merged (another ledger revision, overlapping or
inconsistent shards, a malformed report) or a ledger that cannot be read.
`;

export async function mergeCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('merge', 'Combine the --json reports of --shard runs into one verdict, exit code and optional JUnit report.');
  program
    .argument('<report...>', 'reports written by gate-check --shard I/N --json')
    .option('--shards <n>', 'how many shards the run had (required: the workflow\'s matrix, never what a report says)')
    .option('--root <dir>', 'the checkout whose ledgers the reports must describe (default: the current directory)')
    .option('--scope <id>', 'the ledgers of .gate-check/<id>/ (as the shards were run)')
    .option('--ledger <file>', 'a ledger file the shards were run on (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--json', 'print the merged report as one JSON document')
    .addHelpText('after', HELP_AFTER);
  const parsed = parseSubcommand<MergeOptions>(program, output, args, ['ledger']);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const { options } = parsed;
  // From the workflow, not from the reports: shard 1's report rewritten to say 1/1, merged
  // alone while the others were missing, owned every gate (round-39y Y2).
  if (options.shards === undefined) throw new UsageError('merge needs --shards N, the number of shards the run had (the matrix\'s size): the reports alone cannot tell a missing shard from a smaller run', "see 'gate-check merge --help'");
  if (!/^[1-9][0-9]{0,3}$/.test(options.shards) || Number(options.shards) > MAX_SHARDS) throw new UsageError(`--shards ${sanitizeLine(options.shards, 40)}: not a whole number from 1 to ${MAX_SHARDS}`);
  const shards = Number(options.shards);
  const reports = parsed.args.map((name) => {
    const text = safeReadFile(resolve(io.cwd, name), MAX_REPORT_BYTES, 'report').bytes.toString('utf8');
    const r = parseReport(text);
    if (!r.ok) throw new UnsafeFileError(name, `not a gate-check report: ${r.reason}`);
    return { name, report: r.report };
  });
  const ws = loadWorkspace({ root: options.root, scope: options.scope, files: options.ledger ?? [], cwd: io.cwd, env: io.env });
  const truth: LedgerTruth = {
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    ledgers: ledgerRevisions(ws.ledgers.map((l) => ({ display: l.location.display, source: l.source }))),
    gates: ws.ledgers.flatMap((l) => l.ledger.gates.map((g) => gateReport(l.location.display, l.stem, g))),
    passBounds: ws.ledgers.flatMap((l) => l.ledger.gates.map(passBounds)),
    warnings: ws.warnings,
  };
  const merged = mergeReports(truth, reports, shards);
  if (!merged.ok) {
    // Shards run in this very checkout rewrote its ledger (they write evidence): the usual way to get here locally (round-38b F7).
    const rewritten = merged.reason.includes('made from another revision of')
      ? "; if the shards ran in this checkout, their runs wrote evidence into the ledger since: merge in a checkout of the commit as it was (a fresh clone, or put the ledger back with git stash or git checkout -- ITS FILE)"
      : '';
    throw new UsageError(`cannot merge: ${merged.reason}`, `merge the reports of one sharded run, in a checkout of the commit the shards ran on: same ledger revision, each shard once${rewritten}`);
  }
  // The shards answer for their ledgers; the other scopes and the waves are read here, and
  // no shard ran another scope's gates: only its manual gates can be met in this verdict.
  const tree = await treeVerdict(ws, io, 'rerun');
  const report = { ...merged.report, ...tree, exitCode: merged.report.exitCode === 0 && treeMet(tree) ? 0 : 1 };
  await emitReport(report, { json: parsed.options.json === true, junit: parsed.options.junit, strict: false }, io, () => {
    const out: string[] = [];
    for (const g of report.gates) if (g.result && g.result.status === 'fail') out.push(resultLine(g));
    for (const l of merged.lacking.slice(0, LACK_LINES)) out.push(`NO RESULT ${sanitizeLine(l.qualified, 120)}: ${sanitizeLine(l.why, 300)}`);
    if (merged.lacking.length > LACK_LINES) out.push(`NO RESULT: ${merged.lacking.length - LACK_LINES} more gates`);
    if (merged.missing.length > 0) out.push(`missing shard reports: ${cappedIds(merged.missing.map((i) => `${i}/${merged.count}`))}`);
    out.push(...treeLines(tree));
    if (unmetScopes(tree).length > 0) out.push(otherScopesNote('rerun', unmetScopes(tree), io.env));
    out.push(...summaryLines(report.gates, undefined, treeItems(tree)));
    out.push(`merged ${reports.length} report${reports.length === 1 ? '' : 's'}: ${cappedIds(reports.map((r) => sanitizeLine(r.name, 100)))}`);
    return out.join('\n') + '\n';
  });
  return report.exitCode;
}

/** How much later than its TIMEOUT a pass may be measured to end (timers and the output's close run late under load). */
const PASS_CLOCK_SLACK_MS = 2_000;

/** What a real pass of `gate` can look like (report/merge.ts checks every pass against it). */
function passBounds(gate: Gate): PassBounds | null {
  if (gate.expect === null) return null;
  // Each character of the output's text comes from at least one byte. A regex that cannot be
  // judged in time is given the benefit: the other bounds still hold.
  const empty = matchExpect(gate.expect, '', DEFAULT_REGEX_CAP_MS);
  // Its UTF-8 bytes, but one for each U+FFFD, which one invalid byte decodes to (round-32 F6).
  const minBytes = gate.expect.kind === 'substring' ? Buffer.byteLength(gate.expect.text.replaceAll('\uFFFD', ''), 'utf8') + (gate.expect.text.match(/\uFFFD/g)?.length ?? 0) : !empty.ok || empty.matched ? 0 : 1;
  // The check is killed at its TIMEOUT: a pass ends before it, measured with 2 s for a late
  // clock (5 s let a forged pass run 2.5 times a TIMEOUT: 2: round-35 F2).
  return { minBytes, maxMs: gate.timeoutSeconds === null ? MAX_PASS_DURATION_MS : gate.timeoutSeconds * 1000 + PASS_CLOCK_SLACK_MS };
}
