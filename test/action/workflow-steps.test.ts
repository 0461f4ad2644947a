// The reusable workflow's own scripts (the steps that are not actions), run with bash as the
// runner runs them: their `env:` filled in from the inputs, nothing interpolated into the
// script, a real GITHUB_OUTPUT file read back with the runner's rules.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { parseOutputFile, ROOT } from './simulated-runner.js';

interface Step {
  id?: string;
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = parse(readFileSync(join(ROOT, '.github/workflows/gates-reusable.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };

function runStep(step: Step, values: Record<string, string>) {
  const dir = tempDir('gc-wf-');
  const output = join(dir, 'output');
  writeFileSync(output, '');
  const env: NodeJS.ProcessEnv = cleanEnv({ GITHUB_OUTPUT: output, GITHUB_ACTIONS: 'true' });
  for (const [k, v] of Object.entries(step.env ?? {})) {
    env[k] = v.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
      if (!(expr in values)) throw new Error(`no value for ${expr}`);
      return values[expr]!;
    });
  }
  const script = join(dir, 'step.sh');
  writeFileSync(script, step.run!);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs: parseOutputFile(readFileSync(output, 'utf8')), dir };
}

describe('the reusable workflow, step by step', () => {
  const plan = workflow.jobs.plan!.steps.find((s) => s.id === 'plan')!;

  it('plan: the shard list for the matrix', () => {
    expect(runStep(plan, { 'inputs.shards': '4' }).outputs).toEqual({ shards: '[1,2,3,4]' });
    expect(runStep(plan, { 'inputs.shards': '1' }).outputs).toEqual({ shards: '[1]' });
    expect(JSON.parse(runStep(plan, { 'inputs.shards': '64' }).outputs.shards!)).toHaveLength(64);
  });

  it('plan: refuses 0, 65 and anything that is not a number, as data', () => {
    for (const n of ['0', '65', '', '4; touch PWNED', '$(touch PWNED)']) {
      const r = runStep(plan, { 'inputs.shards': n });
      expect(r.code, n).toBe(2);
      expect(r.stdout).toMatch(/^::error title=gate-check::shards must be 1\.\.64/);
      expect(r.outputs).toEqual({});
      expect(existsSync(join(r.dir, 'PWNED'))).toBe(false);
    }
  });

  it('setup: runs the given commands in the working directory (they are code, by design), nothing when empty', () => {
    const setup = workflow.jobs.reverify!.steps.find((s) => s.name === 'setup')!;
    expect(runStep(setup, { 'inputs.setup': '', 'inputs.working-directory': '.' }).code).toBe(0);
    const r = runStep(setup, { 'inputs.setup': 'echo made > made.txt\ntest -f made.txt', 'inputs.working-directory': '.' });
    expect(r.code).toBe(0);
    expect(readFileSync(join(r.dir, 'made.txt'), 'utf8')).toBe('made\n');
    expect(runStep(setup, { 'inputs.setup': 'false', 'inputs.working-directory': '.' }).code).not.toBe(0);
    // The working directory is a name: a hostile one is not run.
    const odd = runStep(setup, { 'inputs.setup': '', 'inputs.working-directory': '$(touch PWNED)' });
    expect(odd.code).not.toBe(0);
    expect(existsSync(join(odd.dir, 'PWNED'))).toBe(false);
  });

  it('gates (required) fails unless the ledger check succeeded', () => {
    const check = workflow.jobs.gates!.steps[workflow.jobs.gates!.steps.length - 1]!;
    expect(runStep(check, { 'needs.ledger.result': 'success' }).code).toBe(0);
    for (const result of ['failure', 'cancelled', 'skipped', '']) {
      const r = runStep(check, { 'needs.ledger.result': result });
      expect(r.code, result).toBe(1);
      expect(r.stdout).toMatch(/^::error title=gate-check::the read-only ledger check did not pass/);
    }
  });
});
