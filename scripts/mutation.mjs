#!/usr/bin/env node
// Refusal-deletion mutation testing: every refusal in the security folders must have a test
// that fails when it is removed. For each refusal site, the script disables that one refusal,
// rebuilds, runs the tests, and records whether a test failed (killed) or not (survived).
//
//   node scripts/mutation.mjs [--folders fsx,approval,...] [--file lib/x.ts[,lib/y.ts]] [--full]
//                             [--tests test/a,test/b] [--quick-only]
//                             [--timeout SECONDS] [--json report.json] [--list]
//                             [--only lib/x.ts:12,lib/y.ts:34]
//
// --tests replaces the folder's first tests; --quick-only reports a mutant those tests miss
// as surviving them, without trying the whole suite (for a quick score of one area: say so).
// --mirror tries first the tests that mirror the mutated file (test/<folder>/<name>*.test.ts),
// then the folder's tests; only a mutant both miss goes on to the whole suite.
//
// Operators (one per mutant, each on one line of source):
//   guard   `if (COND) throw …` / `if (COND) return <refusal>` / `if (COND) {` + throw
//           → the condition becomes `false`
//   throw   a bare `throw new <GateCheck error>(…)` → `void new …(…)` (the refusal is built, not thrown)
// A refusal return is `return null`, `return false`, `return undefined`, `return { ok: false`.
//
// It works in a copy of the repository (node_modules linked), so the working tree and a
// running CLI are never disturbed. Tests run with the suite's own runner; a mutant is first
// tried against the tests of its folder (fast), and a survivor is tried again against the
// whole suite before it counts as surviving. A run that exceeds --timeout counts as killed
// (the mutant made something hang, which a test noticed).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(name);

const DEFAULT_FOLDERS = ['fsx', 'approval', 'evidence', 'report/parse-report.ts', 'report/merge.ts', 'hook', 'run'];
const folders = (opt('--folders', DEFAULT_FOLDERS.join(',')) ?? '').split(',').filter(Boolean);
const onlyFile = opt('--file', null);
const timeoutMs = Number(opt('--timeout', '600')) * 1000;
const chosenTests = opt('--tests', null)?.split(',').filter(Boolean) ?? null;
const quickOnly = flag('--quick-only');
const mirror = flag('--mirror');

/** The test files named after `file` (lib/run/shell.ts: test/run/shell*.test.ts), in the workspace. */
function mirrorTests(dir, file) {
  const rel = relative(join(ROOT, 'lib'), file);
  const folder = rel.split('/').slice(0, -1).join('/');
  const stem = rel.split('/').pop().replace(/\.ts$/, '');
  const testDir = join(dir, 'test', folder);
  if (!existsSync(testDir)) return [];
  return readdirSync(testDir)
    .filter((n) => n.startsWith(stem) && n.endsWith('.test.ts'))
    .map((n) => join('test', folder, n));
}

/** Which tests exercise each folder first (a survivor is always re-run against everything). */
const QUICK_TESTS = {
  fsx: ['test/fsx', 'test/adversarial', 'test/evidence', 'test/approval', 'test/commands'],
  approval: ['test/approval', 'test/adversarial', 'test/oracle', 'test/commands/approvals'],
  evidence: ['test/evidence', 'test/adversarial', 'test/hook', 'test/commands'],
  report: ['test/report', 'test/commands/ci.test.ts', 'test/adversarial'],
  hook: ['test/hook', 'test/adversarial/stop-hook.test.ts'],
  run: ['test/run', 'test/adversarial', 'test/commands', 'test/approval'],
};

const ERRORS = 'UnsafeFileError|UnsafeStoreError|RunSetupError|ParseError|LockTimeoutError|UsageError|DiscoveryError|InterruptedError|Invalid';
const REFUSAL_RETURN = String.raw`return (?:null|false|undefined|\{ ok: false)`;
const GUARD = new RegExp(String.raw`^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*(?:throw |${REFUSAL_RETURN}))`);
const GUARD_BLOCK = /^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*\{\s*)$/;
const BARE_THROW = new RegExp(String.raw`^(\s*)throw (new (?:${ERRORS})\()`);

function filesOf(target) {
  const abs = join(ROOT, 'lib', target);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [abs];
  const out = [];
  for (const name of readdirSync(abs)) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...filesOf(relative(join(ROOT, 'lib'), p)));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

/** Balanced parentheses: the condition of `if (` … `)` must close where the regex says. */
function balanced(text) {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function mutantsOf(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('*')) return;
    let m = GUARD.exec(line);
    if (m && balanced(m[2])) {
      out.push({ file, line: i + 1, operator: 'guard', source: trimmed, mutated: line.replace(GUARD, (_a, head, _cond, tail) => `${head}(false)${tail}`) });
      return;
    }
    m = GUARD_BLOCK.exec(line);
    if (m && balanced(m[2]) && BARE_THROW.test(lines[i + 1] ?? '')) {
      out.push({ file, line: i + 1, operator: 'guard', source: trimmed, mutated: line.replace(GUARD_BLOCK, (_a, head, _cond, tail) => `${head}(false)${tail}`) });
      return;
    }
    m = BARE_THROW.exec(line);
    if (m && !/^\s*(?:\}\s*else\s+)?if\s*\(/.test(lines[i - 1] ?? '')) {
      out.push({ file, line: i + 1, operator: 'throw', source: trimmed, mutated: line.replace(BARE_THROW, (_a, indent, rest) => `${indent}void ${rest}`) });
    }
  });
  return out;
}

function folderOf(file) {
  const rel = relative(join(ROOT, 'lib'), file).split('/');
  return rel[0];
}

function makeWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'gc-mutation-'));
  for (const entry of ['lib', 'test', 'bin', 'scripts', 'references', 'examples', 'package.json', 'tsconfig.json', 'vitest.config.ts', 'vitest.serial.config.ts', 'README.md', 'SECURITY.md', 'action.yml']) {
    if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

// The build runs the CLI once to make its code cache, and bounds that run itself (build.mjs):
// a mutant that hangs the CLI builds without a cache, and the tests then meet the hang.
function build(dir) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, encoding: 'utf8', timeout: 10 * 60_000, killSignal: 'SIGKILL' });
  return r.status === 0;
}

function runTests(dir, tests) {
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const r = spawnSync(process.execPath, [vitest, 'run', '--bail', '1', '--reporter', 'dot', ...tests], {
    cwd: dir,
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    env: { ...process.env, CI: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error && r.error.code === 'ETIMEDOUT') return 'timeout';
  return r.status === 0 ? 'passed' : 'failed';
}

const targets = onlyFile ? onlyFile.split(',').filter(Boolean).map((f) => resolve(f)) : folders.flatMap(filesOf);
// --only file:line,...: just those mutants (to try a first pass's survivors against more tests).
const only = opt('--only', null)?.split(',').filter(Boolean) ?? null;
const mutants = targets.flatMap(mutantsOf).filter((m) => only === null || only.includes(`${relative(ROOT, m.file)}:${m.line}`));
if (flag('--list')) {
  for (const m of mutants) console.log(`${relative(ROOT, m.file)}:${m.line}  ${m.operator}  ${m.source}`);
  console.log(`${mutants.length} mutants`);
  process.exit(0);
}

const work = makeWorkspace();
const results = [];
const started = Date.now();
try {
  if (!build(work) || runTests(work, ['test/ledger/state.test.ts']) !== 'passed') throw new Error('the unmutated tree does not build or pass');
  for (const [n, m] of mutants.entries()) {
    const rel = relative(ROOT, m.file);
    const copy = join(work, rel);
    const original = readFileSync(copy, 'utf8');
    const lines = original.split('\n');
    lines[m.line - 1] = m.mutated;
    writeFileSync(copy, lines.join('\n'));
    let outcome;
    if (!build(work)) outcome = 'invalid';
    else {
      const mirrored = mirror ? mirrorTests(work, m.file) : [];
      const first = mirrored.length > 0 ? runTests(work, mirrored) : 'passed';
      const quick = flag('--full') ? 'passed' : first !== 'passed' ? first : runTests(work, chosenTests ?? QUICK_TESTS[folderOf(m.file)] ?? ['test']);
      outcome = quick !== 'passed' ? 'killed' : quickOnly ? 'survived' : runTests(work, []) !== 'passed' ? 'killed' : 'survived';
    }
    writeFileSync(copy, original);
    results.push({ file: rel, line: m.line, operator: m.operator, source: m.source, outcome });
    process.stdout.write(`[${n + 1}/${mutants.length}] ${outcome.padEnd(8)} ${rel}:${m.line}  ${m.source.slice(0, 100)}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const byFolder = new Map();
for (const r of results) {
  const key = r.file.startsWith('lib/report/') ? r.file.slice(4) : `${r.file.split('/')[1]}/`;
  const row = byFolder.get(key) ?? { killed: 0, survived: 0, invalid: 0 };
  row[r.outcome === 'killed' ? 'killed' : r.outcome === 'survived' ? 'survived' : 'invalid']++;
  byFolder.set(key, row);
}
console.log(`\nrefusal-deletion mutants (${Math.round((Date.now() - started) / 60000)} min)`);
let killed = 0;
let total = 0;
for (const [key, row] of [...byFolder].sort()) {
  const n = row.killed + row.survived;
  killed += row.killed;
  total += n;
  console.log(`  ${key.padEnd(28)} ${String(row.killed).padStart(4)} / ${String(n).padStart(4)} killed  ${n ? ((100 * row.killed) / n).toFixed(0) : '-'}%${row.invalid ? `  (${row.invalid} did not build)` : ''}`);
}
console.log(`  ${'total'.padEnd(28)} ${String(killed).padStart(4)} / ${String(total).padStart(4)} killed  ${total ? ((100 * killed) / total).toFixed(0) : '-'}%`);
const survivors = results.filter((r) => r.outcome === 'survived');
if (survivors.length > 0) {
  console.log('\nsurvivors (a refusal no test notices, or an equivalent mutant: say which in a comment at the site):');
  for (const s of survivors) console.log(`  ${s.file}:${s.line}  ${s.source}`);
}
const jsonOut = opt('--json', null);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ results }, null, 2) + '\n');
