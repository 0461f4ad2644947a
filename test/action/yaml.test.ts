// action.yml, the reusable workflow and the YAML examples in the docs, checked as data: the
// keys GitHub needs, and no input ever interpolated into a script (`${{ inputs.* }}` only as
// the value of an `env:` or `with:` entry, no `${{ }}` at all inside `run:`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { INPUT_ENV } from '../../lib/action/inputs.js';
import { ACTION_OUTPUTS } from '../../lib/action/outputs.js';
import { ROOT } from './simulated-runner.js';

const EXPRESSION = /\$\{\{([^}]*)\}\}/g;

interface Found {
  path: (string | number)[];
  value: string;
}

/** Every string in a YAML document (keys too), with where it is. */
function strings(node: unknown, path: (string | number)[] = [], out: Found[] = []): Found[] {
  if (typeof node === 'string') out.push({ path, value: node });
  else if (Array.isArray(node)) node.forEach((v, i) => strings(v, [...path, i], out));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      out.push({ path: [...path, `key:${k}`], value: k });
      strings(v, [...path, k], out);
    }
  }
  return out;
}

/** The rule, for any workflow or action document: expressions never in a script, inputs only as env/with values. */
function injectionProblems(doc: unknown): string[] {
  const problems: string[] = [];
  for (const { path, value } of strings(doc)) {
    const where = path.join('.');
    const last = path[path.length - 1];
    const parent = path[path.length - 2];
    const exprs = [...value.matchAll(EXPRESSION)].map((m) => m[1]!.trim());
    if (value.includes('${{') && exprs.length === 0) problems.push(`${where}: an unclosed expression`);
    if (exprs.length === 0) continue;
    if (last === 'run' || path.includes('run')) problems.push(`${where}: an expression inside run: (${exprs.join(', ')})`);
    if (typeof last === 'string' && last.startsWith('key:')) problems.push(`${where}: an expression in a key`);
    for (const e of exprs) {
      if (/\binputs\./.test(e) && parent !== 'env' && parent !== 'with') problems.push(`${where}: ${e} outside env: or with:`);
    }
  }
  return problems;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
const workflow = parse(readFileSync(join(ROOT, '.github/workflows/gates-reusable.yml'), 'utf8'));
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

describe('action.yml', () => {
  it('is a composite action with the keys GitHub needs', () => {
    expect(Object.keys(action).sort()).toEqual(['author', 'branding', 'description', 'inputs', 'name', 'outputs', 'runs']);
    expect(typeof action.name).toBe('string');
    expect(typeof action.description).toBe('string');
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) {
      expect(Object.keys(step).every((k) => ['name', 'id', 'shell', 'env', 'run'].includes(k)), JSON.stringify(step)).toBe(true);
      expect(step.shell).toBe('bash');
      expect(typeof step.run).toBe('string');
      expect(typeof step.name).toBe('string');
    }
    for (const [name, spec] of Object.entries<{ description: string }>(action.inputs)) expect(typeof spec.description, name).toBe('string');
  });

  it('no expression in a script; inputs reach the scripts only through env:', () => {
    expect(injectionProblems(action)).toEqual([]);
    const found = strings(action).filter((s) => s.value.includes('${{'));
    for (const f of found) {
      const at = f.path.join('.');
      expect(/^runs\.steps\.\d+\.env\.[A-Z_]+$/.test(at) || /^outputs\.[a-z-]+\.value$/.test(at), at).toBe(true);
    }
  });

  it('maps every input to the variable lib/action/inputs.ts reads, and every output to what the step writes', () => {
    const step = action.runs.steps.find((s: { id?: string }) => s.id === 'gate-check');
    const inputName: Record<string, string> = { mode: 'mode', 'shard-index': 'shardIndex', 'shard-count': 'shardCount', args: 'args', 'working-directory': 'workingDirectory', reports: 'reports' };
    expect(Object.keys(action.inputs).sort()).toEqual(Object.keys(inputName).sort());
    const expected = Object.fromEntries(Object.entries(inputName).map(([input, key]) => [INPUT_ENV[key as keyof typeof INPUT_ENV], `\${{ inputs.${input} }}`]));
    expect(step.env).toEqual(expected);
    expect(Object.keys(action.outputs)).toEqual([...ACTION_OUTPUTS]);
    for (const name of ACTION_OUTPUTS) expect(action.outputs[name].value).toBe(`\${{ steps.gate-check.outputs.${name} }}`);
    // Only the last step writes the job summary (a composite action may show only the last step's).
    expect(action.runs.steps[action.runs.steps.length - 1]).toBe(step);
    expect(step.run.trim()).toBe('exec node "$GITHUB_ACTION_PATH/dist/action.js"');
  });

  it('builds from its own lockfile without running install scripts, with files that exist', () => {
    const build = action.runs.steps[0].run as string;
    expect(build).toMatch(/^set -euo pipefail$/m);
    expect(build).toMatch(/^cd -- "\$GITHUB_ACTION_PATH"$/m);
    expect(build).toMatch(/^npm ci --ignore-scripts\b/m);
    for (const m of build.matchAll(/node (scripts\/\S+)/g)) expect(existsSync(join(ROOT, m[1]!)), m[1]).toBe(true);
    expect(readFileSync(join(ROOT, 'scripts/action/build.mjs'), 'utf8')).toContain("outfile: 'dist/action.js'");
  });
});

describe('the reusable workflow', () => {
  it('is only callable, reads the repository only, and takes no secrets', () => {
    expect(Object.keys(workflow.on)).toEqual(['workflow_call']);
    expect(workflow.on.workflow_call.secrets).toBeUndefined();
    expect(workflow.permissions).toEqual({ contents: 'read' });
    const text = readFileSync(join(ROOT, '.github/workflows/gates-reusable.yml'), 'utf8');
    expect(text).not.toMatch(/pull_request_target|secrets\.|write-all|: write\b/);
    for (const [id, job] of Object.entries<Record<string, unknown>>(workflow.jobs)) {
      expect(job['runs-on'], id).toBe('ubuntu-latest');
      expect(job.permissions, id).toBeUndefined();
      expect(Array.isArray(job.steps), id).toBe(true);
    }
  });

  it('no expression in a script; inputs only as env: or with: values', () => {
    expect(injectionProblems(workflow)).toEqual([]);
  });

  it('uses the action at the version of this package, and pins every other action to a major version', () => {
    const uses = strings(workflow).filter((s) => s.path[s.path.length - 1] === 'uses').map((s) => s.value);
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) {
      expect(u, u).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/);
      if (u.startsWith('gate-check/')) expect(u).toBe(`gate-check/gate-check@v${version}`);
    }
    expect(uses.filter((u) => u.startsWith('gate-check/'))).toHaveLength(3);
  });

  it('checks out without persisting the token, runs setup only in the shards, and merges into "gates (required)"', () => {
    for (const [id, job] of Object.entries<{ steps: { uses?: string; with?: Record<string, unknown>; env?: Record<string, string> }[] }>(workflow.jobs)) {
      for (const s of job.steps) if (s.uses?.startsWith('actions/checkout@')) expect(s.with?.['persist-credentials'], id).toBe(false);
      const runsSetup = job.steps.some((s) => Object.values(s.env ?? {}).some((v) => v.includes('inputs.setup')));
      expect(runsSetup, id).toBe(id === 'reverify');
    }
    const gates = workflow.jobs.gates;
    expect(gates.name).toBe('gates (required)');
    expect(gates.if).toBe('always()');
    expect(gates.needs).toEqual(expect.arrayContaining(['ledger', 'reverify']));
    const merge = gates.steps.find((s: { id?: string }) => s.id === 'merge');
    expect(merge.with.mode).toBe('merge');
    // The matrix's size, never the reports' word (round-39y Y2).
    expect(merge.with['shard-count']).toBe('${{ inputs.shards }}');
    const ledgerCheck = gates.steps[gates.steps.length - 1];
    expect(ledgerCheck.if).toBe('always()');
    expect(ledgerCheck.env.LEDGER).toBe('${{ needs.ledger.result }}');
    const reverify = workflow.jobs.reverify;
    expect(reverify.strategy['fail-fast']).toBe(false);
    const shard = reverify.steps.find((s: { id?: string }) => s.id === 'gates');
    expect(shard.with).toMatchObject({ mode: 'reverify', 'shard-index': '${{ matrix.shard }}', 'shard-count': '${{ inputs.shards }}' });
    const upload = reverify.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-artifact@'));
    const download = gates.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/download-artifact@'));
    expect(upload.with.name).toBe('gate-check-report-${{ matrix.shard }}');
    expect(download.with).toMatchObject({ pattern: 'gate-check-report-*', 'merge-multiple': true });
    expect(merge.with.reports).toBe(download.with.path);
  });
});

describe('YAML in the docs', () => {
  for (const page of ['references/ci.md', 'references/hooks-in-git.md']) {
    it(`${page}: every yaml block parses, and no workflow in it interpolates into a script`, () => {
      const md = readFileSync(join(ROOT, page), 'utf8');
      const blocks = [...md.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
      expect(blocks.length).toBeGreaterThan(0);
      for (const b of blocks) {
        const docs = parseAllDocuments(b);
        for (const d of docs) {
          expect(d.errors, b.slice(0, 200)).toEqual([]);
          expect(injectionProblems(d.toJS()), b.slice(0, 200)).toEqual([]);
        }
      }
    });
  }
});
