// gate-check diff BASE [--root DIR] [--scope ID] [--json]: what a change does to the gates,
// for a pull request's review. The ledgers at BASE are read from git's object database (no
// checkout, nothing from the repository runs); the working tree's as discovery finds them.
// Lists removed gates, gates turned manual, changed definitions, new hand-offs, removed or
// renamed ledgers; exit 1 when anything was weakened or needs a person's review. Runs no
// CHECK, approves nothing, writes nothing but the step summary on GitHub Actions (a report
// target like any other: never a ledger, never in the private store).
import { resolve } from 'node:path';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { DiscoveryError, ParseError, UsageError, type Diagnostic } from '../errors.js';
import { appendNoFollow } from '../fsx/append-file.js';
import { compareLedgers } from '../ledger/compare.js';
import { diffAnnotations, diffErrorReport, diffReport, diffStepSummary, renderDiffJson, renderDiffText, type DiffReport } from '../report/diff.js';
import { exitCodeFor } from '../program/exit-codes.js';
import { findUnsafeChar } from '../text/sanitize.js';
import { loadRevisionLedgers } from '../workspace/revision-ledgers.js';
import { loadTreeLedgers } from '../workspace/tree-ledgers.js';
import { reportTargetGuard } from './report-targets.js';

interface DiffOptions {
  root?: string;
  scope?: string;
  json?: boolean;
}

const MAX_REV_LENGTH = 1024;

const HELP_AFTER = `
Compares the ledgers at BASE (read from git's objects, never checked out or run) with the
working tree: by default GATES.md, gates/*.md and every .gate-check/<scope>/*.md at either
revision, so a deleted scope is reported; --scope ID compares one scope.

Weakened: a gate removed, a runnable gate turned manual, a new ABANDON, a ledger removed.
To review: a changed CHECK, EXPECT, CWD, DEPENDS, INPUTS or TIMEOUT (named), a manual gate
turned runnable, a gate moved to another scope. Not findings: order, whitespace, titles of
runnable gates, ticked boxes, EVIDENCE lines, a gate moved to another ledger of its scope.
See references/diff.md.

Exit codes:
  0  no gate removed, weakened or changed: gates only added, moved or edited cosmetically
  1  a gate weakened, or changed in a way a person must review
  2  usage error, BASE that git cannot resolve, a ledger that cannot be read or parsed
     (at BASE or now), or git failing
`;

export async function diffCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('diff', 'List the gates a change removed, weakened or changed since BASE (for a pull request: gate-check diff origin/main).');
  program
    .argument('<base>', 'the revision to compare with, e.g. origin/main (any commit git can resolve)')
    .option('--root <dir>', 'repository root whose ledgers are compared (default: the current directory)')
    .option('--scope <id>', 'compare only the ledgers of .gate-check/<id>/')
    .option('--json', 'one JSON document on stdout (references/diff.schema.json)')
    .addHelpText('after', HELP_AFTER);
  const parsed = parseSubcommand<DiffOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const options = parsed.options;
  const rev = parsed.args[0]!;
  let report: Awaited<ReturnType<typeof diff>>;
  try {
    report = await diff(rev, options, io);
  } catch (error) {
    // With --json, stdout still gets one document; main prints the error and exits 2.
    if (options.json) {
      const errors: Diagnostic[] = error instanceof ParseError ? error.diagnostics : [{ message: error instanceof Error ? error.message : String(error) }];
      const warnings = error instanceof ParseError ? error.warnings : [];
      io.stdout(renderDiffJson(diffErrorReport(rev, '', options.scope ?? null, errors, warnings, exitCodeFor(error))));
    }
    throw error;
  }
  io.stdout(options.json ? renderDiffJson(report.doc) : renderDiffText(report.doc));
  if (io.env.GITHUB_ACTIONS === 'true') {
    // With --json, stdout carries the document: annotations go to stderr (the runner reads both).
    const lines = diffAnnotations(report.doc, report.nowFiles, report.prefix);
    if (lines.length > 0) (options.json ? io.stderr : io.stdout)(lines.join('\n') + '\n');
    const summary = io.env.GITHUB_STEP_SUMMARY;
    if (summary) {
      // Never over a ledger, never into the private store (as for every report).
      const target = resolve(io.cwd, summary);
      const guard = reportTargetGuard({ root: report.doc.root, files: [...report.nowFiles] }, io.env);
      guard.checkPath(target);
      appendNoFollow(target, diffStepSummary(report.doc), { refuse: guard.refuse });
    }
  }
  return report.doc.exitCode;
}

async function diff(rev: string, options: DiffOptions, io: Io): Promise<{ doc: DiffReport; nowFiles: Set<string>; prefix: string }> {
  // A revision is one line of printable text that is not an option.
  if (rev === '' || rev.startsWith('-') || rev.length > MAX_REV_LENGTH || /[\t\n]/.test(rev) || findUnsafeChar(rev) !== null) {
    throw new UsageError(`not a revision: ${JSON.stringify(rev.slice(0, 80))}`, "name a commit git can resolve, e.g. 'gate-check diff origin/main'");
  }
  // The working tree first: its refusals (a bad --root, a symlinked ledger) need no git.
  const now = loadTreeLedgers(options.root, options.scope, io.cwd);
  const base = await loadRevisionLedgers({ root: now.root.path, rev, scope: options.scope, env: io.env });
  if (base.ledgers.length === 0 && now.ledgers.length === 0) {
    const what = options.scope !== undefined ? `scope ${options.scope} (.gate-check/${options.scope}/*.md)` : 'GATES.md, gates/*.md or .gate-check/<scope>/*.md';
    // Nothing to compare is not a pass.
    throw new DiscoveryError(`no ledgers to compare: neither ${rev} nor the working tree has ${what}`, 'run it at the repository root, or pass --root or --scope');
  }
  const comparison = compareLedgers(base.ledgers, now.ledgers);
  const warnings = [...base.warnings, ...now.warnings];
  const doc = diffReport({ rev, commit: base.commit, root: now.root.path, scope: options.scope ?? null, comparison, warnings });
  return { doc, nowFiles: new Set(now.ledgers.map((l) => l.file)), prefix: base.prefix };
}

