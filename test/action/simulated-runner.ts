// Runs action.yml's composite steps as GitHub's runner would, without GitHub: a checkout of
// the action (the repository's files, no node_modules, no dist), one job (RUNNER_TEMP,
// GITHUB_WORKSPACE, HOME), and per step fresh GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files,
// the step's `env:` evaluated from the inputs, its `run:` script executed by
// `bash --noprofile --norc -eo pipefail`, its output files read back with the runner's rules
// (actions/runner: FileCommandManager.cs), and the workflow commands of its stdout and
// stderr parsed by test/helpers/actions-runner.ts.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { runnerCommands, type RunnerCommand } from '../helpers/actions-runner.js';
import { cleanEnv, tempDir } from '../helpers/cli.js';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface ActionYaml {
  inputs: Record<string, { required?: boolean; default?: string; description: string }>;
  outputs: Record<string, { value: string; description: string }>;
  runs: { using: string; steps: { name: string; id?: string; shell: string; run: string; env?: Record<string, string> }[] };
}

export function readActionYaml(dir = ROOT): ActionYaml {
  return parse(readFileSync(join(dir, 'action.yml'), 'utf8')) as ActionYaml;
}

/** The action as `uses: OWNER/gate-check@REF` gets it: the repository's files (tracked and new), nothing built. */
export function actionCheckout(): string {
  const dir = tempDir('gc-action-');
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  for (const rel of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(ROOT, rel);
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    copyFileSync(from, join(dir, rel));
  }
  return dir;
}

/** One job on a runner: its workspace (the checkout under test), RUNNER_TEMP and HOME. */
export interface Job {
  workspace: string;
  temp: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export function newJob(files: Record<string, string> = {}): Job {
  const base = tempDir('gc-job-');
  const job = { workspace: join(base, 'workspace'), temp: join(base, 'runner-temp'), home: join(base, 'home'), env: {} as NodeJS.ProcessEnv };
  mkdirSync(job.workspace);
  mkdirSync(job.temp);
  mkdirSync(job.home, { mode: 0o700 });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(job.workspace, rel)), { recursive: true });
    writeFileSync(join(job.workspace, rel), text);
  }
  // npm ci in the action's checkout: from the local cache when it has the packages.
  job.env = cleanEnv({ HOME: job.home, npm_config_prefer_offline: 'true', npm_config_cache: join(process.env.HOME ?? '', '.npm'), npm_config_update_notifier: 'false' });
  return job;
}

export interface StepResult {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Workflow commands the runner reads from this step's stdout and stderr. */
  commands: RunnerCommand[];
  outputsFile: string;
  outputs: Record<string, string>;
  summaryFile: string;
  summary: Buffer;
  skipped: boolean;
}

export interface ActionRun {
  steps: StepResult[];
  /** The action step's result: failure when a step exited non-zero. */
  code: number;
  outputs: Record<string, string>;
  /** The step that ran gate-check. */
  main: StepResult;
}

/**
 * $GITHUB_OUTPUT as the runner reads it (Linux): NAME=VALUE lines, or NAME<<DELIMITER, the
 * value's lines, DELIMITER. Throws where the runner fails the step.
 */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let index = 0;
  const readLine = (): { line: string; newline: boolean } | null => {
    if (index >= text.length) return null;
    const lf = text.indexOf('\n', index);
    if (lf < 0) {
      const line = text.slice(index);
      index = text.length;
      return { line, newline: false };
    }
    const line = text.slice(index, lf);
    index = lf + 1;
    return { line, newline: true };
  };
  for (let l = readLine(); l !== null; l = readLine()) {
    const line = l.line;
    if (line === '') continue;
    const eq = line.indexOf('=');
    const heredoc = line.indexOf('<<');
    if (eq >= 0 && (heredoc < 0 || eq < heredoc)) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
    } else if (heredoc >= 0 && (eq < 0 || heredoc < eq)) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      if (name === '' || delimiter === '') throw new Error(`Invalid format '${line}'`);
      const start = index;
      let end = index;
      for (;;) {
        const t = readLine();
        if (t === null) throw new Error(`Matching delimiter not found '${delimiter}'`);
        if (t.line === delimiter) break;
        if (!t.newline) throw new Error('EOF marker missing new line');
        end = index - 1;
      }
      out[name] = end > start ? text.slice(start, end) : '';
    } else {
      throw new Error(`Invalid format '${line}'`);
    }
  }
  return out;
}

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
  actionPath: string;
  job: Job;
}

/** The expressions action.yml may use; anything else is an error here (keep the action simple to audit). */
function evaluate(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    let m: RegExpExecArray | null;
    if ((m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expr))) {
      if (!(m[1]! in ctx.inputs)) throw new Error(`unknown input ${m[1]}`);
      return ctx.inputs[m[1]!]!;
    }
    if ((m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expr))) return ctx.steps[m[1]!]?.[m[2]!] ?? '';
    if (expr === 'github.action_path') return ctx.actionPath;
    if (expr === 'runner.temp') return ctx.job.temp;
    if (expr === 'github.workspace') return ctx.job.workspace;
    throw new Error(`expression not supported by the simulated runner: ${expr}`);
  });
}

export interface RunOptions {
  /** Bytes already in the gate-check step's summary file when it starts. */
  summaryPrefill?: Buffer;
  /** Variables of the gate-check step replaced (a misconfigured or hostile runner environment). */
  mainEnv?: NodeJS.ProcessEnv;
  /** Steps (by name) that already ran in this action checkout and need not run again (the build). */
  skip?: readonly string[];
  timeoutMs?: number;
}

export function runAction(actionPath: string, job: Job, given: Record<string, string>, options: RunOptions = {}): ActionRun {
  const yml = readActionYaml(actionPath);
  if (yml.runs.using !== 'composite') throw new Error('not a composite action');
  const inputs: Record<string, string> = {};
  for (const name of Object.keys(given)) if (!(name in yml.inputs)) throw new Error(`Unexpected input '${name}'`);
  for (const [name, spec] of Object.entries(yml.inputs)) {
    if (spec.required && given[name] === undefined) throw new Error(`Input required and not supplied: ${name}`);
    inputs[name] = given[name] ?? spec.default ?? '';
  }
  const ctx: Context = { inputs, steps: {}, actionPath, job };
  const commandsDir = join(job.temp, '_runner_file_commands');
  mkdirSync(commandsDir, { recursive: true });
  const results: StepResult[] = [];
  let failed = false;
  for (const step of yml.runs.steps) {
    const skipped = failed || (options.skip ?? []).includes(step.name);
    const suffix = randomUUID();
    const outputsFile = join(commandsDir, `set_output_${suffix}`);
    const summaryFile = join(commandsDir, `step_summary_${suffix}`);
    writeFileSync(outputsFile, '');
    writeFileSync(summaryFile, step.id === 'gate-check' && options.summaryPrefill ? options.summaryPrefill : '');
    const result: StepResult = { name: step.name, code: null, stdout: '', stderr: '', commands: [], outputsFile, outputs: {}, summaryFile, summary: Buffer.alloc(0), skipped };
    results.push(result);
    if (skipped) continue;
    if (step.shell !== 'bash') throw new Error(`step ${step.name}: shell ${step.shell}`);
    const env: NodeJS.ProcessEnv = {
      ...job.env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: job.workspace,
      RUNNER_TEMP: job.temp,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: outputsFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ENV: join(commandsDir, `set_env_${suffix}`),
      GITHUB_PATH: join(commandsDir, `add_path_${suffix}`),
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(v, ctx);
    if (step.id === 'gate-check') Object.assign(env, options.mainEnv ?? {});
    const script = join(job.temp, `${suffix}.sh`);
    writeFileSync(script, evaluate(step.run, ctx));
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: job.workspace, env, encoding: 'utf8', timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 });
    if (r.error) throw r.error;
    result.code = r.status;
    result.stdout = r.stdout;
    result.stderr = r.stderr;
    result.commands = [...runnerCommands(r.stdout), ...runnerCommands(r.stderr)];
    result.outputs = parseOutputFile(readFileSync(outputsFile, 'utf8'));
    result.summary = readFileSync(summaryFile);
    if (step.id) ctx.steps[step.id] = result.outputs;
    if (r.status !== 0) failed = true;
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(yml.outputs)) outputs[name] = evaluate(spec.value, ctx);
  const main = results.find((s) => s.name === 'gate-check');
  if (!main) throw new Error('no gate-check step');
  return { steps: results, code: failed ? 1 : 0, outputs, main };
}
