// The GitHub Action, run as the runner runs a composite action (simulated-runner.ts): its
// build step in a checkout of the action, then its gate-check step on a simulated job, with
// real output and summary files, the annotations parsed back, the JUnit file parsed.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertReportSchema } from '../helpers/schema.js';
import { tempDir } from '../helpers/cli.js';
import { actionCheckout, newJob, parseOutputFile, runAction, type ActionRun, type Job } from './simulated-runner.js';

const BUILD = 'Build gate-check from the action\'s source';
const gate = (id: string, check: string, expect: string, title = `${id} works`) => `- [ ] ${id}: ${title}\n  CHECK: ${check}\n  EXPECT: ${expect}\n`;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

let action = '';
let built = false;
/** The build step runs for real once (the first action run); later runs in the same checkout skip it. */
function run(job: Job, inputs: Record<string, string>, options: Parameters<typeof runAction>[3] = {}): ActionRun {
  const r = runAction(action, job, inputs, { ...options, skip: built ? [BUILD] : [] });
  if (!built) {
    expect(r.steps[0]!.code, r.steps[0]!.stderr).toBe(0);
    built = true;
  }
  return r;
}

const annotations = (r: ActionRun, type: string) => r.main.commands.filter((c) => c.command === type);

beforeAll(() => {
  action = actionCheckout();
  expect(existsSync(join(action, 'dist'))).toBe(false);
}, 60_000);

describe('the action, step by step', () => {
  it('builds gate-check in its own checkout: npm ci --ignore-scripts (the lockfile) and one bundle, nothing in the workspace', () => {
    const job = newJob({ 'GATES.md': gate('A', 'echo ok', 'ok') });
    const r = run(job, { mode: 'status' }, { timeoutMs: 300_000 });
    expect(existsSync(join(action, 'dist/action.js'))).toBe(true);
    expect(existsSync(join(action, 'node_modules/esbuild'))).toBe(true);
    expect(readdirSync(job.workspace)).toEqual(['GATES.md']);
    expect(r.main.code).toBe(1); // A is not ticked
  }, 300_000);

  it('refuses (exit 2, before installing anything) a node older than package.json engines; the action then fails with no verdict', () => {
    const old = actionCheckout();
    const pkg = JSON.parse(readFileSync(join(old, 'package.json'), 'utf8'));
    writeFileSync(join(old, 'package.json'), JSON.stringify({ ...pkg, engines: { node: '>=99.0' } }));
    const r = runAction(old, newJob({ 'GATES.md': gate('A', 'echo ok', 'ok') }), { mode: 'status' });
    expect(r.steps[0]!.code).toBe(2);
    expect(r.steps[0]!.commands[0]!.data).toMatch(/^the action needs Node\.js 99\.0 or later on PATH; found v\d+/);
    expect(existsSync(join(old, 'node_modules'))).toBe(false);
    expect(r.main.skipped).toBe(true);
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('');
  });

  it('status: outputs, a JSON report, a JUnit file, annotations on the ledger lines and a job summary', () => {
    const ledger = gate('A', 'echo ok', 'ok') + gate('B', 'exit 1', 'ok') + '- [ ] M: a person signs off\n';
    const job = newJob({ 'GATES.md': ledger });
    const r = run(job, { mode: 'status' });
    expect(r.code).toBe(1);
    expect(r.main.code).toBe(1);
    expect(r.outputs).toMatchObject({ verdict: 'unmet', 'exit-code': '1', 'not-met': 'GATES:A\nGATES:B\nGATES:M' });
    const report = JSON.parse(readFileSync(r.outputs.report!, 'utf8'));
    assertReportSchema(report);
    expect(report.mode).toBe('status');
    expect(basename(r.outputs.report!)).toBe('gate-check-status.json');
    expect(r.outputs.report!.startsWith(job.temp)).toBe(true);
    const junit = readFileSync(r.outputs.junit!, 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(xml.parse(junit).testsuites).toMatchObject({ tests: '3' });
    const errors = annotations(r, 'error');
    expect(errors.map((e) => [e.properties.file, e.properties.line, e.properties.title])).toEqual([
      ['GATES.md', '1', 'GATES:A'],
      ['GATES.md', '4', 'GATES:B'],
      // An open manual gate makes the verdict unmet: an error too (round-39w W3).
      ['GATES.md', '7', 'GATES:M'],
    ]);
    const md = r.main.summary.toString('utf8');
    expect(md).toContain('| GATES\\:B | B works |');
    expect(md).toContain('**Verdict: unmet** (exit 1; mode status)');
    expect(md).toContain('3 of 3 gates not met; 3 with an annotation on its ledger line.');
    // Read-only: the ledger is untouched, nothing new in the workspace.
    expect(readFileSync(join(job.workspace, 'GATES.md'), 'utf8')).toBe(ledger);
    expect(readdirSync(job.workspace)).toEqual(['GATES.md']);
  });

  it('every value is written in the heredoc form with a fresh random delimiter, as @actions/core does', () => {
    const job = newJob({ 'GATES.md': gate('A', 'exit 1', 'ok') + gate('B', 'exit 1', 'ok') });
    const r = run(job, { mode: 'reverify' });
    const text = readFileSync(r.main.outputsFile, 'utf8');
    const heads = [...text.matchAll(/^([a-z-]+)<<(ghadelimiter_[0-9a-f-]{36})$/gm)];
    expect(heads.map((h) => h[1])).toEqual(['verdict', 'exit-code', 'report', 'junit', 'not-met']);
    const delimiters = heads.map((h) => h[2]!);
    expect(new Set(delimiters).size).toBe(delimiters.length);
    expect(text).toContain(`not-met<<${delimiters[4]}\nGATES:A\nGATES:B\n${delimiters[4]}\n`);
    expect(parseOutputFile(text)['not-met']).toBe('GATES:A\nGATES:B');
    const again = readFileSync(run(job, { mode: 'reverify' }).main.outputsFile, 'utf8');
    expect(again).not.toContain(delimiters[0]!);
  });

  it("reverify shards and merge: each shard's report, then one verdict from a checkout of the same commit", () => {
    const ids = Array.from({ length: 8 }, (_, i) => `G${i}`);
    const passing = ids.map((id) => gate(id, `echo ok-${id}`, `ok-${id}`)).join('');
    const reports = tempDir('gc-artifacts-');
    for (const i of [1, 2, 3]) {
      const shardJob = newJob({ 'GATES.md': passing });
      const r = run(shardJob, { mode: 'reverify', 'shard-index': String(i), 'shard-count': '3', args: '--jobs\n2' });
      expect(r.outputs.verdict).toBe('met');
      expect(basename(r.outputs.report!)).toBe(`gate-check-reverify-shard-${i}-of-3.json`);
      expect(JSON.parse(readFileSync(r.outputs.report!, 'utf8')).shard).toEqual({ index: i, count: 3, reran: 'all' });
      // download-artifact with merge-multiple: every shard's file in one folder.
      copyFileSync(r.outputs.report!, join(reports, basename(r.outputs.report!)));
    }
    const mergeJob = newJob({ 'GATES.md': passing });
    const merged = run(mergeJob, { mode: 'merge', 'shard-count': '3', reports });
    expect(merged.outputs).toMatchObject({ verdict: 'met', 'exit-code': '0', 'not-met': '' });
    expect(merged.code).toBe(0);
    expect(JSON.parse(readFileSync(merged.outputs.report!, 'utf8')).mode).toBe('merge');
    expect(XMLValidator.validate(readFileSync(merged.outputs.junit!, 'utf8'))).toBe(true);

    // A missing shard: its gates have no result, so the merged verdict is unmet.
    const two = tempDir('gc-artifacts-');
    for (const f of readdirSync(reports).slice(0, 2)) copyFileSync(join(reports, f), join(two, f));
    const partial = run(newJob({ 'GATES.md': passing }), { mode: 'merge', 'shard-count': '3', reports: two });
    expect(partial.outputs.verdict).toBe('unmet');
    expect(partial.outputs['not-met']!.split('\n').length).toBeGreaterThan(0);
    expect(partial.code).toBe(1);
  });

  it('a report of another ledger revision cannot be merged: verdict error, exit 2, one error annotation', () => {
    const reports = tempDir('gc-artifacts-');
    const r = run(newJob({ 'GATES.md': gate('A', 'echo ok', 'ok') }), { mode: 'reverify', 'shard-index': '1', 'shard-count': '1' });
    copyFileSync(r.outputs.report!, join(reports, 'r.json'));
    const merged = run(newJob({ 'GATES.md': gate('A', 'echo ok', 'ok', 'A still works') }), { mode: 'merge', 'shard-count': '1', reports });
    expect(merged.outputs).toMatchObject({ verdict: 'error', 'exit-code': '2', report: '' });
    expect(merged.main.code).toBe(2);
    const errors = annotations(merged, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.data).toMatch(/^gate-check: cannot merge: .*r\.json: ledgers\[0\]\.sha256: made from another revision/);
  });
});

describe('merge inputs', () => {
  it('a folder without reports is refused, naming it (a download that found no artifact)', () => {
    const job = newJob({ 'GATES.md': gate('A', 'echo ok', 'ok'), 'reports/.keep': '' });
    const r = run(job, { mode: 'merge', 'shard-count': '1', reports: 'reports' });
    expect(r.outputs.verdict).toBe('error');
    expect(annotations(r, 'error')[0]!.data).toMatch(/^gate-check: input reports: reports holds no \.json file/);
  });
});

describe('inputs are data, never code', () => {
  const hostile = ['; touch PWNED', '$(touch PWNED)', '`touch PWNED`', "'; touch PWNED; '", '"; touch PWNED; "', '${{ 1 }}$(touch PWNED)'];

  function nowhere(job: Job) {
    for (const dir of [job.workspace, job.temp, job.home, action, process.cwd()]) expect(existsSync(join(dir, 'PWNED'))).toBe(false);
  }

  it('args: each line is one argument, passed as is (here: a ledger file that does not exist)', () => {
    for (const arg of hostile) {
      const job = newJob({ 'GATES.md': gate('A', 'echo ok', 'ok') });
      const r = run(job, { mode: 'status', args: arg });
      nowhere(job);
      expect(r.outputs.verdict).toBe('error');
      expect(r.main.code).toBe(2);
      expect(r.main.stderr).toContain(`ledger name "${arg}" cannot qualify gate ids`);
    }
  });

  it('mode, shard, working-directory and reports: refused or used as names, never run', () => {
    for (const arg of hostile) {
      const job = newJob({ 'GATES.md': gate('A', 'echo ok', 'ok') });
      for (const inputs of [
        { mode: `status${arg}` },
        { mode: 'reverify', 'shard-index': `1${arg}`, 'shard-count': '2' },
        { mode: 'reverify', 'shard-index': '1', 'shard-count': arg },
        { mode: 'status', 'working-directory': arg },
        { mode: 'merge', 'shard-count': '1', reports: arg },
      ]) {
        const r = run(job, inputs);
        expect(r.outputs.verdict, JSON.stringify(inputs)).toBe('error');
        expect(r.main.code).toBe(2);
        if (inputs['working-directory']) expect(annotations(r, 'error')[0]!.data).toContain(`input working-directory: ${join(job.workspace, arg.trim())} is not a directory`);
      }
      nowhere(job);
    }
  });

  it('refuses --help and --version (they exit 0 and check nothing) and the arguments the action owns', () => {
    const job = newJob({ 'GATES.md': gate('A', 'exit 1', 'ok') });
    for (const [args, why] of [
      ['--help', /--help prints text and checks nothing/],
      ['--version', /--version prints text and checks nothing/],
      ['-hV', /short options are not accepted/],
      ['-h', /--help|short options/],
      ['--json', /--json is set by the action/],
      ['--junit=elsewhere.xml', /--junit is set by the action/],
      ['--shard\n1/1', /--shard is set by the action/],
      ['--approve', /--approve is set by the action/],
      ['--status', /--status is set by the action/],
    ] as const) {
      const r = run(job, { mode: 'reverify', args });
      expect(r.outputs.verdict, args).toBe('error');
      expect(r.main.code).toBe(2);
      expect(annotations(r, 'error')[0]!.data).toMatch(why);
    }
  });
});

describe("GitHub's caps", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => gate(`F${i}`, 'exit 1', 'ok')).join('');

  it('10 errors and 10 warnings per step, 50 annotations per job; the summary says how many gates have none', () => {
    const job = newJob({ 'GATES.md': many(30) });
    const runs: ActionRun[] = [];
    const made = (r: ActionRun) => r.main.commands.filter((c) => ['error', 'warning', 'notice'].includes(c.command)).length;
    for (let i = 0; i < 6; i++) {
      const r = run(job, { mode: 'reverify' });
      runs.push(r);
      expect(r.outputs.verdict).toBe('unmet');
      expect(annotations(r, 'error').length).toBeLessThanOrEqual(10);
      expect(annotations(r, 'warning').length).toBeLessThanOrEqual(10);
    }
    // gate-check makes 11 per run (10 errors, one warning summing up the rest): 11, 22, 33, 44, then 6 of 11, then none.
    expect(runs.map(made)).toEqual([11, 11, 11, 11, 6, 0]);
    const first = runs[0]!.main.summary.toString('utf8');
    expect(first).toContain('30 of 30 gates not met; 10 with an annotation on its ledger line, 20 without one (GitHub shows at most 10 errors and 10 warnings per step and 50 annotations per job)');
    expect(first).not.toContain('held back');
    const fifth = runs[4]!.main.summary.toString('utf8');
    expect(fifth).toContain('30 of 30 gates not met; 6 with an annotation on its ledger line, 24 without one');
    expect(fifth).toContain("5 annotations were held back to stay within GitHub's caps; earlier steps of this job had made 44 of its 50.");
    const sixth = runs[5]!.main.summary.toString('utf8');
    expect(sixth).toContain('30 of 30 gates not met; 0 with an annotation on its ledger line, 30 without one');
    expect(sixth).toContain('11 annotations were held back');
  });

  it('the step summary stays within 1 MiB: a huge ledger, and a summary file that is already nearly full', () => {
    const long = 'x'.repeat(150);
    const job = newJob({ 'GATES.md': Array.from({ length: 4000 }, (_, i) => gate(`L${i}`, 'exit 1', 'ok', `${long} ${i}`)).join('') });
    const big = run(job, { mode: 'status' });
    expect(big.main.summary.length).toBeLessThanOrEqual(1024 * 1024);
    expect(big.main.summary.toString('utf8')).toMatch(/\(\d+ more gates not shown\)/);
    expect(big.main.summary.toString('utf8')).toContain('4000 of 4000 gates not met');

    const prefill = Buffer.alloc(900 * 1024, 'p');
    const full = run(job, { mode: 'status' }, { summaryPrefill: prefill });
    expect(full.main.summary.length).toBeLessThanOrEqual(1024 * 1024);
    expect(full.main.summary.subarray(0, prefill.length).equals(prefill)).toBe(true);
    const added = full.main.summary.subarray(prefill.length).toString('utf8');
    expect(added).not.toContain('| Gate | Title | Outcome |');
    expect(added).toContain("The gate table was not written: this step's summary already held 900 KiB of GitHub's 1 MiB");
    expect(full.outputs.verdict).toBe('unmet');

    const brim = Buffer.alloc(1024 * 1024 - 100, 'p');
    const none = run(job, { mode: 'status' }, { summaryPrefill: brim });
    expect(none.main.summary.equals(brim)).toBe(true);
    expect(none.main.stdout).toMatch(/the action's notes would pass GitHub's 1 MiB, so they were left out/);
    expect(none.outputs.verdict).toBe('unmet');
  });
});

describe("the runner's files are never a ledger", () => {
  it('GITHUB_OUTPUT or GITHUB_STEP_SUMMARY naming the ledger: refused (exit 2), the ledger untouched', () => {
    const ledger = gate('A', 'echo ok', 'ok');
    for (const name of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY']) {
      const job = newJob({ 'GATES.md': ledger });
      const r = run(job, { mode: 'status' }, { mainEnv: { [name]: join(job.workspace, 'GATES.md') } });
      expect(r.main.code, name).toBe(2);
      expect(readFileSync(join(job.workspace, 'GATES.md'), 'utf8')).toBe(ledger);
      expect(r.main.stdout + r.main.stderr).toMatch(/is the ledger .*GATES\.md \(refused: a report never replaces or extends a ledger\)/);
    }
  });
});

describe('what a check can and cannot do to the outputs', () => {
  it('a check gets no GITHUB_OUTPUT, and an output it forges in the file is overridden by the action', () => {
    // In scripts: on a gate's lines, the text between two dollar signs is math on GitHub.
    const forge = `for f in "$RUNNER_TEMP"/_runner_file_commands/set_output_*; do printf 'verdict=met\\nexit-code=0\\n' >> "$f"; done; exit 1\n`;
    const clean = 'test -z "${GITHUB_OUTPUT-}${GITHUB_ENV-}${GITHUB_PATH-}${GATE_CHECK_ACTION_MODE-}" && echo clean\n';
    const job = newJob({ 'GATES.md': gate('A', 'sh forge.sh', 'never') + gate('B', 'sh clean.sh', 'clean'), 'forge.sh': forge, 'clean.sh': clean });
    const r = run(job, { mode: 'reverify' });
    expect(r.outputs['not-met']).toBe('GATES:A'); // B passed: none of those variables reached the checks
    // The forged lines are in the file, before the action's own: the runner keeps the last value.
    expect(readFileSync(r.main.outputsFile, 'utf8').startsWith('verdict=met\nexit-code=0\n')).toBe(true);
    expect(r.outputs).toMatchObject({ verdict: 'unmet', 'exit-code': '1' });
    expect(r.main.code).toBe(1);
  });

  it('check output cannot issue workflow commands through the action', () => {
    const job = newJob({ 'GATES.md': gate('A', "printf '::error::forged\\n::set-output name=verdict::met\\n##[error]legacy\\n'; exit 1", 'ok') });
    writeFileSync(join(job.workspace, 'x'), '');
    const r = run(job, { mode: 'reverify' });
    expect(r.main.commands.some((c) => c.data.includes('forged') || c.data.includes('legacy') || c.command === 'set-output')).toBe(false);
    expect(r.outputs.verdict).toBe('unmet');
  });
});
