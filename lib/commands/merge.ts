// gate-check merge report-*.json [--junit FILE] [--json]: one verdict from the --json
// reports of a sharded run (a CI matrix). Runs nothing.
import { resolve } from 'node:path';
import type { Io } from '../cli/io.js';
import { parseSubcommand, subcommandProgram } from '../cli/subcommand-program.js';
import { UnsafeFileError, UsageError } from '../errors.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { mergeReports } from '../report/merge.js';
import { effectivelyMet } from '../report/model.js';
import { parseReport } from '../report/parse-report.js';
import { resultLine } from '../report/run-text.js';
import { cappedIds, summaryLines } from '../report/text.js';
import { sanitizeLine } from '../text/sanitize.js';
import { emitReport } from './emit.js';

const MAX_REPORT_BYTES = 64 * 1024 * 1024;

interface MergeOptions {
  junit?: string;
  json?: boolean;
}

export async function mergeCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('merge', 'Combine the --json reports of --shard runs into one verdict, exit code and optional JUnit report.');
  program
    .argument('<report...>', 'reports written by gate-check --shard I/N --json')
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--json', 'print the merged report as one JSON document');
  const parsed = parseSubcommand<MergeOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const reports = parsed.args.map((name) => {
    const path = resolve(io.cwd, name);
    const text = safeReadFile(path, MAX_REPORT_BYTES, 'report').bytes.toString('utf8');
    const r = parseReport(text);
    if (!r.ok) throw new UnsafeFileError(name, `not a gate-check report: ${r.reason}`);
    return { name, report: r.report };
  });
  const merged = mergeReports(reports);
  if (!merged.ok) throw new UsageError(`cannot merge: ${merged.reason}`, 'merge the reports of one sharded run: same ledger revision, each shard once');
  const report = merged.report;
  await emitReport(report, { json: parsed.options.json === true, junit: parsed.options.junit, strict: false }, io, () => {
    const out: string[] = [];
    for (const g of report.gates) if (g.result && g.result.status !== 'pass') out.push(resultLine(g));
    const count = reports[0]!.report.shard!.count;
    if (merged.missing.length > 0) out.push(`missing shard reports: ${merged.missing.map((i) => `${i}/${count}`).join(', ')}: their gates count as not run`);
    out.push(...summaryLines(report.gates, (g) => !effectivelyMet(g)));
    out.push(`merged ${reports.length} report${reports.length === 1 ? '' : 's'}: ${cappedIds(reports.map((r) => sanitizeLine(r.name, 100)))}`);
    return out.join('\n') + '\n';
  });
  return report.exitCode;
}
