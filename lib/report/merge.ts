// Combining the --json reports of a sharded run into one verdict. Each runnable gate is
// answered by the shard that owns it (shardOf of its qualified id); reports from different
// ledger revisions, or shards that overlap, are refused. Pure.
import { shardOf } from '../run/shard.js';
import { effectivelyMet, emptyResult, REPORT_SCHEMA, summarize, type GateReport, type Report } from './model.js';

export type MergeResult = { ok: true; report: Report; missing: number[] } | { ok: false; reason: string };

function sameRevisions(a: Report, b: Report): boolean {
  return a.ledgers.length === b.ledgers.length && a.ledgers.every((l, i) => l.file === b.ledgers[i]!.file && l.sha256 === b.ledgers[i]!.sha256);
}

export function mergeReports(reports: readonly { name: string; report: Report }[]): MergeResult {
  if (reports.length === 0) return { ok: false, reason: 'no reports to merge' };
  const first = reports[0]!;
  const count = first.report.shard?.count;
  if (count === undefined) return { ok: false, reason: `${first.name} is not a --shard report` };
  const byIndex = new Map<number, { name: string; report: Report }>();
  for (const r of reports) {
    const shard = r.report.shard;
    if (!shard) return { ok: false, reason: `${r.name} is not a --shard report` };
    if (shard.count !== count) return { ok: false, reason: `${r.name} is shard ${shard.index}/${shard.count}, but ${first.name} has ${count} shards` };
    const other = byIndex.get(shard.index);
    if (other) return { ok: false, reason: `overlapping shards: ${other.name} and ${r.name} are both shard ${shard.index}/${count}` };
    byIndex.set(shard.index, r);
    if (!sameRevisions(first.report, r.report)) return { ok: false, reason: `${r.name} was made from a different ledger revision than ${first.name}` };
    const ids = r.report.gates.map((g) => g.qualified).join('\n');
    if (ids !== first.report.gates.map((g) => g.qualified).join('\n')) return { ok: false, reason: `${r.name} lists other gates than ${first.name}` };
    for (const g of r.report.gates) {
      if (g.result !== null && !(g.kind === 'runnable' && shardOf(g.qualified, count) === shard.index)) {
        return { ok: false, reason: `overlapping shards: ${r.name} (shard ${shard.index}/${count}) has a result for ${g.qualified}, which belongs to shard ${shardOf(g.qualified, count)}` };
      }
    }
  }
  const missing: number[] = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(i)) missing.push(i);

  const gates: GateReport[] = first.report.gates.map((g, i) => {
    if (g.kind !== 'runnable') return g;
    const owner = shardOf(g.qualified, count);
    const report = byIndex.get(owner)?.report;
    if (!report) return { ...g, result: emptyResult('not-run', `the report of shard ${owner}/${count} is missing`) };
    return report.gates[i]!;
  });
  const exitCode = gates.every(effectivelyMet) ? 0 : 1;
  return {
    ok: true,
    missing,
    report: {
      schema: REPORT_SCHEMA,
      mode: 'merge',
      exitCode,
      root: first.report.root,
      files: first.report.files,
      ledgers: first.report.ledgers,
      shard: null,
      summary: summarize(gates),
      warnings: first.report.warnings,
      errors: [],
      gates,
    },
  };
}
