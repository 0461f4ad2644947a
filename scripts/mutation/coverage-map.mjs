// Which tests reach each refusal site. In a workspace of its own, every site reports the test
// that reached it (a probe that changes nothing: `if ((probe(7), COND))`, `throw probe(7) ?? new …`),
// from the test process itself and from every CLI it starts (a file path baked into the build,
// so a test that clears the environment still reports). A mutant is then tried only against
// the tests that reach its site, each named by `file:line`; a site no test reaches survives
// without a run.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, makeWorkspace, runTests } from './workspace.mjs';

const SETUP = 'mutation-probe.setup.ts';

function probeSource(probeDir) {
  const dir = JSON.stringify(probeDir);
  return `
import { appendFileSync as __gcAppend, readFileSync as __gcRead } from 'node:fs';
function __gcProbe(id: number): undefined {
  try {
    const g = globalThis as any;
    const test: string = g.__gcTest ?? (g.__gcTestOfProcess ??= __gcRead(${dir} + '/current', 'utf8'));
    const seen: Set<string> = (g.__gcSeen ??= new Set());
    const key = id + '\\t' + test;
    if (!seen.has(key)) {
      seen.add(key);
      __gcAppend(${dir} + '/hits', key + '\\n');
    }
  } catch {
    /* a probe never changes what runs */
  }
  return undefined;
}
`;
}

// In the test process: the test running now (its file and line) is the one to credit, and the
// file named in 'current' is what CLIs started by it read.
function setupSource(probeDir, root) {
  return `import { afterEach, beforeEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
const g = globalThis as any;
const file = relative(${JSON.stringify(root)}, g.__vitest_worker__?.filepath ?? '?');
const name = (id: string) => {
  g.__gcTest = id;
  try { writeFileSync(${JSON.stringify(probeDir)} + '/current', id); } catch { /* no probe dir: nothing to credit */ }
};
name('collect:' + file);
beforeEach((ctx) => name(ctx.task.location ? file + ':' + ctx.task.location.line : 'collect:' + file));
afterEach(() => name('collect:' + file));
`;
}

/** A workspace whose sites carry probes, and the tests of `testFiles` run in it; returns hits text. */
export async function mapSlice(root, mutants, testFiles, { timeoutMs, log }) {
  const dir = makeWorkspace(root, `setupFiles: ['./${SETUP}'], fileParallelism: false,`);
  const probeDir = join(dir, '.probe');
  mkdirSync(probeDir);
  chmodSync(probeDir, 0o777);
  const byFile = new Map();
  mutants.forEach((m, id) => byFile.set(m.file, [...(byFile.get(m.file) ?? []), [id, m]]));
  for (const [file, sites] of byFile) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    for (const [id, m] of sites) lines[m.line - 1] = m.probed(id);
    writeFileSync(join(dir, file), lines.join('\n') + probeSource(probeDir));
  }
  writeFileSync(join(dir, SETUP), setupSource(probeDir, dir));
  try {
    const failed = await build(dir);
    if (failed !== null) throw new Error(`the probed tree does not build:\n${failed}`);
    writeFileSync(join(probeDir, 'hits'), '');
    const r = await runTests(dir, testFiles, { timeoutMs, bail: false });
    // A failing test still says which sites it reached; only a cut-short run maps too little.
    log(`mapped ${testFiles.length} test files (${r.outcome === 'timeout' ? 'cut short: the map misses tests' : r.outcome})`);
    return readFileSync(join(probeDir, 'hits'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** hits text → Map(id → Set of filters: 'file:line', or 'file' when a site ran while the file was collected). */
export function parseHits(text) {
  const map = new Map();
  for (const row of text.split('\n')) {
    const tab = row.indexOf('\t');
    if (tab < 0) continue;
    const id = Number(row.slice(0, tab));
    const test = row.slice(tab + 1);
    if (test === '' || test.endsWith('?')) continue;
    const filter = test.startsWith('collect:') ? test.slice('collect:'.length) : test;
    if (!map.has(id)) map.set(id, new Set());
    map.get(id).add(filter);
  }
  return map;
}

/** The filters to give vitest: a whole file where one was credited at collection, else its lines. */
export function filtersOf(set) {
  const whole = new Set([...set].filter((f) => !/:\d+$/.test(f)));
  return [...set].filter((f) => whole.has(f) || !whole.has(f.replace(/:\d+$/, ''))).sort();
}
