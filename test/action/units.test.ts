// The action's pure parts: inputs, the verdict from gate-check's exit code and report, the
// outputs file format, the annotation caps. The end-to-end runs are in action.test.ts.
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnnotationBudget, parseAnnotation } from '../../lib/action/annotations.js';
import { cliArguments } from '../../lib/action/argv.js';
import { INPUT_ENV, inputLines, readInputs, type ActionInputs } from '../../lib/action/inputs.js';
import { outputEntries } from '../../lib/action/outputs.js';
import { actionNotes, notesFit, STEP_SUMMARY_LIMIT, tableFits } from '../../lib/action/summary.js';
import { actionVerdict } from '../../lib/action/verdict.js';
import { REPORT_SCHEMA, summarize, type Report } from '../../lib/report/model.js';
import { assertPrivateDirectory } from '../../lib/action/run-action.js';
import { tempDir } from '../helpers/cli.js';
import { parseOutputFile } from './simulated-runner.js';

const env = (o: Partial<Record<keyof typeof INPUT_ENV, string>>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [INPUT_ENV[k as keyof typeof INPUT_ENV], v]));

describe('inputs', () => {
  it('one argument per line, blanks around each dropped, nothing split or expanded', () => {
    expect(inputLines(' --jobs \r\n\n 4\n$(touch x) ; y\n')).toEqual(['--jobs', '4', '$(touch x) ; y']);
    expect(readInputs(env({ mode: 'status', args: '--strict\ndocs/GATES.md' })).args).toEqual(['--strict', 'docs/GATES.md']);
  });

  it('refuses an unknown mode, shard inputs that do not go together, and shards outside reverify', () => {
    for (const [e, why] of [
      [{ mode: '' }, /input mode: "" is not one of status, reverify, merge/],
      [{ mode: 'Status' }, /input mode/],
      [{ mode: 'reverify', shardIndex: '1' }, /shard-index and shard-count go together/],
      [{ mode: 'reverify', shardCount: '2' }, /shard-index and shard-count go together/],
      [{ mode: 'reverify', shardIndex: '0', shardCount: '2' }, /input shard-index: "0" is not a whole number from 1/],
      [{ mode: 'reverify', shardIndex: '1', shardCount: '2x' }, /input shard-count/],
      [{ mode: 'reverify', shardIndex: '3', shardCount: '2' }, /3 is more than shard-count 2/],
      [{ mode: 'status', shardIndex: '1', shardCount: '2' }, /shards apply to mode reverify, not status/],
      [{ mode: 'merge' }, /merge needs the shard reports/],
      [{ mode: 'status', reports: 'r.json' }, /reports apply to mode merge/],
      [{ mode: 'status', workingDirectory: 'a\u0007b' }, /working-directory: holds a control character/],
      [{ mode: 'merge', reports: 'a\u001bb' }, /reports: a line holds a control character/],
      // Round-39y Y2: merge takes the shard count from the workflow, never from the reports.
      [{ mode: 'merge', reports: 'r.json' }, /input shard-count: merge needs shard-count, the number of shards the reverify jobs had/],
      [{ mode: 'merge', reports: 'r.json', shardIndex: '1', shardCount: '2' }, /input shard-index: merge takes shard-count alone/],
      [{ mode: 'merge', reports: 'r.json', shardCount: '0' }, /input shard-count: "0" is not a whole number from 1 to 1000/],
      [{ mode: 'merge', reports: 'r.json', shardCount: '1001' }, /input shard-count/],
    ] as const) {
      expect(() => readInputs(env(e)), JSON.stringify(e)).toThrow(why);
    }
    expect(readInputs(env({ mode: 'reverify', shardIndex: '2', shardCount: '4' })).shard).toEqual({ index: 2, count: 4 });
    expect(readInputs(env({ mode: 'merge', reports: 'r.json', shardCount: '4' }))).toMatchObject({ shard: null, shards: 4 });
  });

  it('refuses arguments that end the run without a report, or that the action sets', () => {
    for (const [arg, why] of [
      ['--help', /--help prints text and checks nothing/],
      ['--help=x', /--help prints text/],
      ['--version', /--version prints text/],
      ['-V', /short options are not accepted/],
      ['-hV', /short options/],
      ['--json', /--json is set by the action/],
      ['--junit', /--junit is set by the action/],
      ['--junit=x.xml', /--junit is set by the action/],
      ['--shard=1/2', /--shard is set by the action/],
      ['--shards', /--shards is set by the action/],
      ['--status', /--status is set by the action/],
      ['--reverify', /--reverify is set by the action/],
      ['--approve=G1@abcdef12', /--approve is set by the action/],
      ['a\tb', /control character/],
    ] as const) {
      expect(() => readInputs(env({ mode: 'status', args: arg })), arg).toThrow(why);
    }
    expect(() => readInputs(env({ mode: 'merge', reports: 'r.json', shardCount: '2', args: '--' }))).toThrow(/"--" is not accepted in merge mode/);
    expect(readInputs(env({ mode: 'reverify', args: '--only-stale\n--jobs\n4\n--\nGATES.md' })).args).toHaveLength(5);
  });

  it('--approve is followed by an option, never by a word it could take as a pin or ledger', () => {
    const inputs: ActionInputs = { mode: 'reverify', shard: { index: 1, count: 2 }, shards: null, args: ['GATES.md'], workingDirectory: '.', reports: [] };
    const argv = cliArguments(inputs, '/t/j.xml', []);
    expect(argv).toEqual(['--reverify', '--approve', '--json', '--junit', '/t/j.xml', '--shard', '1/2', 'GATES.md']);
    expect(cliArguments({ ...inputs, mode: 'merge', shard: null, shards: 2, args: ['--root', 'x'] }, 'j', ['--help'])).toEqual(['merge', '--json', '--junit', 'j', '--shards', '2', '--root', 'x', '--', '--help']);
  });
});

function report(over: Partial<Report> = {}): Report {
  return { schema: REPORT_SCHEMA, mode: 'status', exitCode: 0, root: '/r', files: ['GATES.md'], ledgers: [], shard: null, scope: null, waves: [], scopes: [], summary: summarize([]), warnings: [], errors: [], gates: [], ...over };
}
const json = (r: Report) => JSON.stringify(r);

describe('the verdict', () => {
  const status = { mode: 'status' as const, shard: null };
  it('met only for exit 0 with a report of the requested mode and shard that says 0', () => {
    expect(actionVerdict(0, json(report()), status)).toMatchObject({ verdict: 'met', exitCode: 0 });
    expect(actionVerdict(1, json(report({ exitCode: 1 })), status)).toMatchObject({ verdict: 'unmet', exitCode: 1 });
    const shard = { mode: 'reverify' as const, shard: { index: 2, count: 3 } };
    expect(actionVerdict(0, json(report({ mode: 'reverify', shard: { index: 2, count: 3, reran: 'all' } })), shard).verdict).toBe('met');
  });

  it('exit 0 without a report (help text, nothing, two documents) is an error, exit 2', () => {
    for (const out of ['Usage: gate-check [options]\n', '', json(report()) + json(report())]) {
      expect(actionVerdict(0, out, status)).toMatchObject({ verdict: 'error', exitCode: 2, problem: expect.stringMatching(/gate-check exited 0 without a report/) });
    }
  });

  it('a report of another mode, shard or exit code is an error', () => {
    expect(actionVerdict(0, json(report({ mode: 'run' })), status)).toMatchObject({ verdict: 'error', exitCode: 2, problem: 'the report is of mode run, not status' });
    expect(actionVerdict(0, json(report({ exitCode: 1 })), status)).toMatchObject({ verdict: 'error', problem: 'gate-check exited 0, but its report says 1' });
    const shard = { mode: 'reverify' as const, shard: { index: 2, count: 3 } };
    expect(actionVerdict(0, json(report({ mode: 'reverify', shard: { index: 1, count: 3, reran: 'all' } })), shard)).toMatchObject({ verdict: 'error', problem: 'the report covers shard 1/3, not 2/3' });
    expect(actionVerdict(0, json(report({ mode: 'reverify' })), shard)).toMatchObject({ verdict: 'error', problem: 'the report covers shard none, not 2/3' });
    expect(actionVerdict(0, json(report({ mode: 'reverify', shard: { index: 1, count: 1, reran: 'all' } })), { mode: 'reverify', shard: null }).verdict).toBe('error');
  });

  it("gate-check's own failures keep their code", () => {
    expect(actionVerdict(2, '', status)).toMatchObject({ verdict: 'error', exitCode: 2, problem: null });
    expect(actionVerdict(130, json(report({ exitCode: 130 })), status)).toMatchObject({ verdict: 'error', exitCode: 130 });
  });
});

describe('outputs', () => {
  it('heredoc form, read back by the runner, values with newlines, "=" and "<<" intact', () => {
    const values = { a: 'x=y', b: 'one\ntwo\n', c: 'p<<EOF', d: '' };
    expect(parseOutputFile(outputEntries(values))).toEqual(values);
  });

  it('refuses a value that contains its delimiter, and a bad name', () => {
    expect(() => outputEntries({ a: 'x\nD\ny' }, () => 'D')).toThrow(/its value contains the delimiter D/);
    expect(() => outputEntries({ 'a<<b': 'x' })).toThrow(/is not a valid name/);
    expect(() => outputEntries({ 'a=b': 'x' })).toThrow(/is not a valid name/);
  });
});

describe('annotation caps', () => {
  it('10 per type per step, 50 per job, counting what earlier steps made', () => {
    const b = new AnnotationBudget(0);
    const err = (i: number) => `::error file=GATES.md,line=${i},title=GATES%3AG${i}::x`;
    for (let i = 0; i < 12; i++) b.admit(err(i));
    for (let i = 0; i < 12; i++) b.admit(`::warning title=gate-check::w${i}`);
    expect(b.shown).toBe(20);
    expect(b.held).toBe(4);
    expect([...b.annotatedGates]).toHaveLength(10);
    expect(b.admit('GATES:G1  unchecked  x')).toBe(true); // not an annotation
    const late = new AnnotationBudget(45);
    for (let i = 0; i < 10; i++) late.admit(err(i));
    expect(late.shown).toBe(5);
    expect(late.jobTotal()).toBe(50);
    expect(parseAnnotation('::error file=a%2Cb.md,line=3,title=S%3AG1::m')).toEqual({ type: 'error', properties: { file: 'a,b.md', line: '3', title: 'S:G1' } });
    expect(parseAnnotation('  ::error::indented is still a command, but not gate-check\'s')).toBeNull();
  });
});

describe('summary room', () => {
  it("gate-check's table only with room for it and the notes; the notes only where they fit", () => {
    expect(tableFits(0)).toBe(true);
    expect(tableFits(STEP_SUMMARY_LIMIT - 256 * 1024 - 4096)).toBe(true);
    expect(tableFits(STEP_SUMMARY_LIMIT - 256 * 1024 - 4095)).toBe(false);
    expect(notesFit(STEP_SUMMARY_LIMIT - 3, 'abc')).toBe(true);
    expect(notesFit(STEP_SUMMARY_LIMIT - 2, 'abc')).toBe(false);
  });

  it('escapes what it quotes from gate-check', () => {
    const notes = actionNotes({ verdict: 'error', exitCode: 2, mode: 'merge', shard: null, gates: 0, notMet: [], annotated: 0, held: 0, jobUsedBefore: 0, problem: 'r.json: [x](http://e) <img>', tableRefusedAt: null });
    expect(notes).toContain('- r\\.json\\: \\[x\\]\\(http\\:\\/\\/e\\) \\<img\\>');
  });
});

describe('the output folder', () => {
  it('must be a private directory of this user, not a link, a file or an open one', () => {
    const base = tempDir('gc-out-');
    const ok = join(base, 'ok');
    mkdirSync(ok, { mode: 0o700 });
    expect(() => assertPrivateDirectory(ok)).not.toThrow();
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    symlinkSync(ok, join(base, 'link'));
    writeFileSync(join(base, 'file'), '', { mode: 0o600 });
    const refused = [open, join(base, 'link'), join(base, 'file')];
    if (process.getuid?.() === 0) {
      // As root (CI here): a private directory of another user.
      const theirs = join(base, 'theirs');
      mkdirSync(theirs, { mode: 0o700 });
      chownSync(theirs, 65534, 65534);
      refused.push(theirs);
    }
    for (const p of refused) expect(() => assertPrivateDirectory(p), p).toThrow(/is not a fresh private directory \(refused\)/);
  });
});
