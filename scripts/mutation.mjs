#!/usr/bin/env node
// Refusal-deletion mutation testing: every refusal in the security folders must have a test
// that fails when it is removed. Each refusal site (scripts/mutation/sites.mjs) is disabled on
// its own, the tree rebuilt, and the tests that reach that site run: a failure kills the mutant.
//
//   node scripts/mutation.mjs [--folders fsx,approval,...] [--file lib/x.ts[,lib/y.ts]]
//                             [--only lib/x.ts:12,...] [--jobs N] [--map FILE]
//                             [--timeout SECONDS] [--json report.json] [--list]
//                             [--remap]   (map the chosen sites again: tests were added since)
//                             [--map-tests test/run,...]   (map with these tests only: to try the script)
//
// First, a coverage map (scripts/mutation/coverage-map.mjs): the whole suite runs once over a
// tree whose sites report which test reached them. --map FILE keeps that map and reuses it
// while the sites are unchanged (a site is keyed by its text, not its line). Then each mutant
// runs against its tests only (`file:line` filters) and the test files named after its source
// file (a test written after the map), in --jobs workspaces at once. A run that exceeds
// --timeout counts as killed (the mutant made something hang, which a test noticed); a site
// no test reaches survives unrun.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { filtersOf, mapSlice, parseHits } from './mutation/coverage-map.mjs';
import { filesOf, mutantsOf } from './mutation/sites.mjs';
import { build, makeWorkspace, runTests } from './mutation/workspace.mjs';

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
const jobs = Math.max(1, Number(opt('--jobs', String(Math.min(2, availableParallelism())))));
const mapFile = opt('--map', null);
const log = (line) => process.stdout.write(`${line}\n`);

const targets = onlyFile ? onlyFile.split(',').filter(Boolean).map((f) => resolve(f)) : folders.flatMap((f) => filesOf(ROOT, f));
const only = opt('--only', null)?.split(',').filter(Boolean) ?? null;
const mutants = targets.flatMap((f) => mutantsOf(ROOT, f)).filter((m) => only === null || only.includes(`${m.file}:${m.line}`));
// A site is known by its file, its text and which of the same text it is, not by its line:
// the coverage map stays valid while comments and tests are added.
const keyOf = (m) => `${m.file}\t${m.source}\t${m.occurrence}`;
if (flag('--list')) {
  for (const m of mutants) log(`${m.file}:${m.line}  ${m.operator}${m.equivalent ? ' (equivalent)' : ''}  ${m.source}`);
  log(`${mutants.length} mutants`);
  process.exit(0);
}

function testFiles(dir) {
  if (statSync(join(ROOT, dir)).isFile()) return [dir];
  const out = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const p = join(dir, name);
    if (statSync(join(ROOT, p)).isDirectory()) out.push(...testFiles(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/**
 * The test files named after a source file (lib/fsx/lock.ts: test/fsx/lock*.test.ts), always
 * tried whole: a test written after the map was made still counts.
 */
function mirrorTests(file) {
  const rel = relative(join(ROOT, 'lib'), join(ROOT, file));
  const folder = rel.split('/').slice(0, -1).join('/');
  const stem = rel.split('/').pop().replace(/\.ts$/, '');
  const dir = join(ROOT, 'test', folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => (n === `${stem}.test.ts` || n.startsWith(`${stem}-`) || n.startsWith(`${stem}.`)) && n.endsWith('.test.ts'))
    .map((n) => join('test', folder, n));
}

/** Map(key → filters) for every mutant, from --map when it covers them all, else measured now. */
async function coverage() {
  const saved = mapFile && existsSync(mapFile) ? JSON.parse(readFileSync(mapFile, 'utf8')) : {};
  // --remap: measure the chosen sites again (tests were added since the map was made).
  const missing = mutants.filter((m) => flag('--remap') || !Object.hasOwn(saved, keyOf(m)));
  if (missing.length === 0) return saved;
  // Biggest files first, dealt in turn: the slices take about as long as each other.
  const files = (opt('--map-tests', 'test') ?? 'test').split(',').flatMap(testFiles).sort((a, b) => statSync(join(ROOT, b)).size - statSync(join(ROOT, a)).size);
  const slices = Array.from({ length: jobs }, (_, k) => files.filter((_f, i) => i % jobs === k));
  const started = Date.now();
  log(`mapping ${missing.length} sites over ${files.length} test files (${jobs} at once)…`);
  const texts = await Promise.all(slices.map((slice) => mapSlice(ROOT, missing, slice, { timeoutMs: 120 * 60_000, log })));
  const hits = parseHits(texts.join('\n'));
  missing.forEach((m, id) => {
    saved[keyOf(m)] = filtersOf(hits.get(id) ?? new Set());
  });
  log(`mapped in ${Math.round((Date.now() - started) / 60000)} min`);
  if (mapFile) writeFileSync(mapFile, JSON.stringify(saved, null, 1) + '\n');
  return saved;
}

async function tryMutants(map) {
  const reached = (m) => map[keyOf(m)].length > 0 || mirrorTests(m.file).length > 0;
  const queue = mutants.map((m, n) => ({ m, n })).filter(({ m }) => !m.equivalent && reached(m));
  const results = new Map();
  for (const m of mutants) {
    if (m.equivalent) results.set(m, 'equivalent');
    else if (!reached(m)) results.set(m, 'unreached');
  }
  const worker = async () => {
    const dir = makeWorkspace(ROOT);
    try {
      if ((await build(dir)) !== null) throw new Error('the unmutated tree does not build');
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { m, n } = next;
        const copy = join(dir, m.file);
        const original = readFileSync(copy, 'utf8');
        const lines = original.split('\n');
        lines[m.line - 1] = m.mutated;
        writeFileSync(copy, lines.join('\n'));
        const filters = filtersOf(new Set([...map[keyOf(m)], ...mirrorTests(m.file)]));
        const t0 = Date.now();
        let outcome;
        if ((await build(dir)) !== null) outcome = 'invalid';
        else {
          const r = await runTests(dir, filters, { timeoutMs });
          outcome = r.outcome === 'passed' ? 'survived' : 'killed';
          if (r.outcome === 'failed' && !/(?:Test Files|Tests)\s+\d+ failed/.test(r.output.replace(/\x1b\[[0-9;]*m/g, ''))) {
            // vitest itself failed (not a test): say so rather than count a kill.
            outcome = 'error';
            log(r.output.slice(-2000));
          }
        }
        writeFileSync(copy, original);
        results.set(m, outcome);
        log(`[${n + 1}/${mutants.length}] ${outcome.padEnd(8)} ${m.file}:${m.line}  ${filters.length} tests ${Math.round((Date.now() - t0) / 1000)} s  ${m.source.slice(0, 90)}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

const started = Date.now();
const map = await coverage();
const results = await tryMutants(map);

const byFolder = new Map();
for (const [m, outcome] of results) {
  const key = m.file.startsWith('lib/report/') ? m.file.slice(4) : `${m.file.split('/')[1]}/`;
  const row = byFolder.get(key) ?? { killed: 0, survived: 0, unreached: 0, equivalent: 0, invalid: 0, error: 0 };
  row[outcome]++;
  byFolder.set(key, row);
}
log(`\nrefusal-deletion mutants (${Math.round((Date.now() - started) / 60000)} min); score = killed / (killed + survived + unreached), equivalents left out`);
const total = { killed: 0, n: 0 };
for (const [key, row] of [...byFolder].sort()) {
  const n = row.killed + row.survived + row.unreached;
  total.killed += row.killed;
  total.n += n;
  const extra = [row.unreached && `${row.unreached} reached by no test`, row.equivalent && `${row.equivalent} equivalent`, row.invalid && `${row.invalid} did not build`, row.error && `${row.error} vitest errors`].filter(Boolean).join(', ');
  log(`  ${key.padEnd(28)} ${String(row.killed).padStart(4)} / ${String(n).padStart(4)} killed  ${n ? ((100 * row.killed) / n).toFixed(0) : '-'}%${extra ? `  (${extra})` : ''}`);
}
log(`  ${'total'.padEnd(28)} ${String(total.killed).padStart(4)} / ${String(total.n).padStart(4)} killed  ${total.n ? ((100 * total.killed) / total.n).toFixed(0) : '-'}%`);
const survivors = [...results].filter(([, o]) => o === 'survived' || o === 'unreached' || o === 'error');
if (survivors.length > 0) {
  log('\nsurvivors (a refusal no test notices, or an equivalent mutant: say which in a "Mutation note: equivalent" comment at the site):');
  for (const [m, o] of survivors) log(`  ${o.padEnd(9)} ${m.file}:${m.line}  ${m.source}`);
}
const jsonOut = opt('--json', null);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ results: [...results].map(([m, outcome]) => ({ file: m.file, line: m.line, operator: m.operator, source: m.source, outcome })) }, null, 2) + '\n');
