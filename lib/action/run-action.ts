// One run of the GitHub Action (action.yml's last step): gate-check in this process on the
// inputs, its --json report into a file, the verdict into the step outputs, its annotations
// held to GitHub's caps, and notes in the job summary about what the caps kept out.
// Nothing here decides a gate: the verdict is gate-check's exit code and report, checked by
// verdict.ts. Files are written through lib/fsx.
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Io } from '../program/io.js';
import { main } from '../cli/main.js';
import { UnsafeFileError, UsageError } from '../errors.js';
import { reportTargetGuard } from '../commands/report-targets.js';
import { appendNoFollow } from '../fsx/append-file.js';
import { atomicWriteFile } from '../fsx/atomic-write.js';
import { makeDirectory } from '../fsx/create.js';
import { lstatOrNull, safeReadFile } from '../fsx/safe-read.js';
import { escapeData } from '../report/github.js';
import { errorReport } from '../report/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { escapeLegacyCommands, guardLineStart } from '../text/workflow-commands.js';
import { AnnotationBudget, PER_JOB } from './annotations.js';
import { cliArguments, outputBaseName } from './argv.js';
import { INPUT_ENV, readInputs, type ActionInputs } from './inputs.js';
import { notMetGates, type NotMet } from './not-met.js';
import { outputEntries, type ActionOutputs } from './outputs.js';
import { actionNotes, notesFit, tableFits } from './summary.js';
import { actionVerdict, type ActionVerdict } from './verdict.js';

/** Where the action counts the annotations it made in this job (RUNNER_TEMP is per job). */
const BUDGET_FILE = 'gate-check-action-annotations';
const LOG_GATES = 50;
const RUNNER_FILES = ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'];

export interface ActionStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Untrusted text on a line of the action's own log output. */
function logSafe(text: string): string {
  return guardLineStart(escapeLegacyCommands(text));
}

function readJobUsed(temp: string | undefined): number {
  if (!temp) return 0;
  const path = join(temp, BUDGET_FILE);
  if (lstatOrNull(path) === null) return 0;
  try {
    const text = safeReadFile(path, 64, 'annotation count').bytes.toString('utf8');
    // Anything but a count (a check could have written it) counts as nothing used.
    return /^[0-9]{1,3}$/.test(text) ? Math.min(Number(text), PER_JOB) : 0;
  } catch {
    return 0;
  }
}

/** makeDirectory accepts one that exists: under a random name that can only be one planted there. */
export function assertPrivateDirectory(path: string): void {
  const st = lstatSync(path);
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  if (!st.isDirectory() || (uid !== null && st.uid !== uid) || (st.mode & 0o077) !== 0) throw new UnsafeFileError(path, 'is not a fresh private directory (refused)');
}

/** A fresh private folder for the report and JUnit file (RUNNER_TEMP: outside the checkout). */
function outputFolder(temp: string | undefined): string {
  const path = join(temp || tmpdir(), `gate-check-${randomBytes(8).toString('hex')}`);
  makeDirectory(path, 0o700);
  assertPrivateDirectory(path);
  return path;
}

function workingDirectory(inputs: ActionInputs, env: NodeJS.ProcessEnv): string {
  const dir = resolve(env.GITHUB_WORKSPACE || process.cwd(), inputs.workingDirectory);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    /* below */
  }
  if (!isDir) throw new UsageError(`input working-directory: ${dir} is not a directory`, 'see the inputs in action.yml (references/ci.md)');
  return dir;
}

/** merge: each input line is a report file, or a folder whose *.json files are reports (sorted). */
function reportFiles(inputs: ActionInputs, cwd: string): string[] {
  const out: string[] = [];
  for (const line of inputs.reports) {
    let isDir = false;
    try {
      isDir = statSync(resolve(cwd, line)).isDirectory();
    } catch {
      /* a missing file: merge says so */
    }
    if (!isDir) {
      out.push(line);
      continue;
    }
    const names = readdirSync(resolve(cwd, line))
      .filter((n) => n.endsWith('.json'))
      .sort();
    if (names.length === 0) throw new UsageError(`input reports: ${line} holds no .json file`, 'download the shard reports there first');
    for (const n of names) out.push(join(line, n));
  }
  return out;
}

/** gate-check's stderr, line by line, through the annotation caps; its first error message kept for the annotation of a failure. */
function lineFilter(budget: AnnotationBudget, write: (text: string) => void) {
  let partial = '';
  const emit = (line: string) => {
    if (filter.firstError === null) {
      const m = /^(?:error|gate-check): (.*)$/.exec(line);
      if (m) filter.firstError = m[1]!;
    }
    if (budget.admit(line)) write(line + '\n');
  };
  const filter = {
    firstError: null as string | null,
    write(text: string) {
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const l of lines) emit(l);
    },
    end() {
      if (partial !== '') emit(partial);
      partial = '';
    },
  };
  return filter;
}

interface RunFacts {
  inputs: ActionInputs | null;
  /** The checkout gate-check ran in, once known: its ledgers are never a target. */
  cwd: string | null;
  verdict: ActionVerdict;
  reportPath: string;
  junitPath: string;
  notMet: NotMet[];
  gates: number;
  tableRefusedAt: number | null;
}

function logLines(f: RunFacts): string[] {
  const mode = f.inputs ? f.inputs.mode : 'unknown';
  const shard = f.inputs?.shard ? `, shard ${f.inputs.shard.index}/${f.inputs.shard.count}` : '';
  const lines = [`gate-check action: mode ${mode}${shard}: ${f.verdict.verdict} (exit ${f.verdict.exitCode})`];
  if (f.verdict.problem !== null) lines.push(`  ${sanitizeLine(f.verdict.problem, 600)}`);
  for (const g of f.notMet.slice(0, LOG_GATES)) lines.push(`  not met: ${sanitizeLine(g.qualified, 120)}: ${sanitizeLine(g.why, 300)}`);
  if (f.notMet.length > LOG_GATES) lines.push(`  not met: ${f.notMet.length - LOG_GATES} more (the JSON report and the JUnit file list every gate)`);
  if (f.reportPath) lines.push(`  report: ${sanitizeLine(f.reportPath, 500)}`);
  if (f.junitPath) lines.push(`  junit: ${sanitizeLine(f.junitPath, 500)}`);
  if (f.inputs?.mode === 'reverify' && f.verdict.verdict === 'unmet') {
    lines.push('  (with --json gate-check prints no check output; run the failing gate locally to see it)');
  }
  return lines.map(logSafe);
}

function errorAnnotation(message: string): string {
  return `::error title=gate-check::${escapeData(escapeLegacyCommands(sanitizeLine(message, 900)))}`;
}

export async function runAction(env: NodeJS.ProcessEnv, streams: ActionStreams): Promise<number> {
  const temp = env.RUNNER_TEMP || undefined;
  const jobUsed = readJobUsed(temp);
  const budget = new AnnotationBudget(jobUsed);
  const summaryPath = env.GITHUB_STEP_SUMMARY || undefined;
  let facts: RunFacts = {
    inputs: null,
    cwd: null,
    verdict: { verdict: 'error', exitCode: 2, report: null, problem: null },
    reportPath: '',
    junitPath: '',
    notMet: [],
    gates: 0,
    tableRefusedAt: null,
  };

  try {
    const inputs = readInputs(env);
    facts.inputs = inputs;
    const cwd = workingDirectory(inputs, env);
    facts.cwd = cwd;
    const reports = inputs.mode === 'merge' ? reportFiles(inputs, cwd) : [];
    const folder = outputFolder(temp);
    const base = outputBaseName(inputs);
    const reportPath = join(folder, `${base}.json`);
    const junitPath = join(folder, `${base}.xml`);

    // gate-check and its checks see the job's environment, less the action's own inputs and
    // the runner's files that set outputs, environment and PATH for later steps: a check has
    // no business there (defence in depth: a check can still look for the files, and the
    // action's outputs, written after every check, are the ones the runner keeps).
    const cliEnv: NodeJS.ProcessEnv = { ...env };
    for (const name of [...Object.values(INPUT_ENV), ...RUNNER_FILES]) delete cliEnv[name];
    if (summaryPath !== undefined) {
      const before = lstatOrNull(summaryPath)?.size ?? 0;
      if (!tableFits(before)) {
        delete cliEnv.GITHUB_STEP_SUMMARY;
        facts.tableRefusedAt = before;
      }
    }

    let stdout = '';
    const stderr = lineFilter(budget, streams.stderr);
    const io: Io = {
      stdout: (t) => void (stdout += t),
      stderr: (t) => stderr.write(t),
      env: cliEnv,
      cwd,
      interactive: () => false,
      stderrIsTTY: false,
      ask: async () => null,
    };
    const code = await main(cliArguments(inputs, junitPath, reports), io);
    stderr.end();

    const verdict = actionVerdict(code, stdout, inputs);
    if (verdict.verdict === 'error' && verdict.problem === null && !verdict.report?.errors.length && stderr.firstError !== null) {
      verdict.problem = stderr.firstError;
    }
    const strict = inputs.mode === 'status' && inputs.args.includes('--strict');
    if (verdict.report) {
      atomicWriteFile(reportPath, stdout, { mode: 0o644, create: true });
      facts.reportPath = reportPath;
      facts.notMet = notMetGates(verdict.report, strict);
      facts.gates = verdict.report.shard ? verdict.report.gates.filter((g) => g.result !== null).length : verdict.report.gates.length;
    }
    if (lstatOrNull(junitPath)?.isFile()) facts.junitPath = junitPath;
    facts = { ...facts, verdict };
  } catch (e) {
    // A refused input or an unsafe file: no verdict but an error (exit 2).
    const message = e instanceof Error ? e.message : String(e);
    const hint = e instanceof UsageError && e.hint ? ` (${e.hint})` : '';
    facts = { ...facts, verdict: { verdict: 'error', exitCode: 2, report: null, problem: `${message}${hint}` } };
  }

  const v = facts.verdict;
  if (v.verdict === 'error') {
    const first = v.problem ?? v.report?.errors[0]?.message ?? `gate-check exited ${v.exitCode}`;
    const line = errorAnnotation(`gate-check: ${first}`);
    if (budget.admit(line)) streams.stdout(line + '\n');
  }
  streams.stdout(logLines(facts).join('\n') + '\n');

  // The runner's files, like any report target, are never a ledger nor in the private store.
  const guard = reportTargetGuard(v.report ?? errorReport('status', facts.cwd ?? '', []), env);
  const append = (path: string, text: string) => {
    guard.checkPath(resolve(path));
    appendNoFollow(path, text, { refuse: guard.refuse });
  };
  const problems: string[] = [];
  if (env.GITHUB_OUTPUT) {
    try {
      append(
        env.GITHUB_OUTPUT,
        outputEntries({
          verdict: v.verdict,
          'exit-code': String(v.exitCode),
          report: facts.reportPath,
          junit: facts.junitPath,
          'not-met': facts.notMet.map((g) => g.qualified).join('\n'),
        } satisfies ActionOutputs),
      );
    } catch (e) {
      problems.push(`cannot set the step outputs: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  if (summaryPath !== undefined) {
    const notes = actionNotes({
      verdict: v.verdict,
      exitCode: v.exitCode,
      mode: facts.inputs?.mode ?? 'unknown',
      shard: facts.inputs?.shard ?? null,
      gates: facts.gates,
      notMet: facts.notMet.map((g) => g.qualified),
      annotated: facts.notMet.filter((g) => budget.annotatedGates.has(g.qualified)).length,
      held: budget.held,
      jobUsedBefore: jobUsed,
      problem: v.verdict === 'error' ? (v.problem ?? v.report?.errors[0]?.message ?? null) : null,
      tableRefusedAt: facts.tableRefusedAt,
    });
    try {
      const now = lstatOrNull(summaryPath)?.size ?? 0;
      if (notesFit(now, notes)) append(summaryPath, notes);
      else streams.stdout(logSafe(`gate-check action: the step summary holds ${now} bytes; the action's notes would pass GitHub's 1 MiB, so they were left out`) + '\n');
    } catch (e) {
      streams.stdout(logSafe(`gate-check action: cannot write the job summary: ${sanitizeLine(e instanceof Error ? e.message : String(e), 600)}`) + '\n');
    }
  }

  if (temp) {
    try {
      atomicWriteFile(join(temp, BUDGET_FILE), String(budget.jobTotal()), { mode: 0o600, create: true });
    } catch {
      /* the count is advice: the next step then assumes none were used */
    }
  }

  if (problems.length > 0) {
    for (const p of problems) streams.stderr(logSafe(`gate-check action: ${sanitizeLine(p, 600)}`) + '\n');
    return v.exitCode >= 2 ? v.exitCode : 2;
  }
  return v.exitCode;
}
