#!/usr/bin/env node
// The measurement behind keeping the runtime parser hand-written (issue 9 §1): what --status
// would cost with a GFM parser on its start-up path. micromark + GFM are bundled the way
// scripts/build.mjs bundles gate-check, preloaded with --import, and made to parse the
// ledger before gate-check's own start-up; ratios against `node -e 0`, as scripts/bench.mjs.
//   node scripts/bench-parser-library.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const BIN = resolve(import.meta.dirname, '../bin/gate-check.js');
const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const RUNS = at >= 0 ? Number(args[at + 1]) : 10;
const work = mkdtempSync(join(tmpdir(), 'gc-bench-lib-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function ledger(n) {
  let s = '# Gates: benchmark\n\n';
  for (let i = 1; i <= n; i++) s += `- [ ] G${i}: outcome number ${i} is reached\n  CHECK: node scripts/check.mjs ${i}\n  EXPECT: check passed\n  EVIDENCE: pending\n\n`;
  return s;
}

try {
  writeFileSync(join(work, 'entry.mjs'), "import { micromark } from 'micromark'; import { gfm, gfmHtml } from 'micromark-extension-gfm'; import { readFileSync } from 'node:fs';\nconst html = micromark(readFileSync('GATES.md', 'utf8'), { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });\nif (html.length === 0) process.exitCode = 3;\n");
  await build({ entryPoints: [join(work, 'entry.mjs')], outfile: join(work, 'preload.mjs'), bundle: true, format: 'esm', platform: 'node', minify: true, nodePaths: [resolve(import.meta.dirname, '../node_modules')], logLevel: 'warning' });
  const variants = [{ name: 'node -e 0', argv: ['-e', '0'], cwd: work }];
  for (const n of [12, 5000]) {
    const dir = join(work, `g${n}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'GATES.md'), ledger(n));
    variants.push({ name: `--status, ${n} gates (hand-written parser)`, argv: [BIN, '--status'], cwd: dir });
    variants.push({ name: `--status, ${n} gates + micromark/GFM parse`, argv: ['--import', join(work, 'preload.mjs'), BIN, '--status'], cwd: dir });
  }
  const times = new Map(variants.map((v) => [v.name, []]));
  for (let i = 0; i <= RUNS; i++) {
    for (const v of variants) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, v.argv, { cwd: v.cwd, stdio: 'ignore' });
      if (r.status !== (v.name === 'node -e 0' ? 0 : 1)) throw new Error(`${v.name} exited ${r.status}`);
      if (i > 0) times.get(v.name).push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  const floor = times.get('node -e 0');
  console.log(`parser library on the start-up path (median of ${RUNS} interleaved runs; ratio = median of per-round ratios to node -e 0)`);
  for (const v of variants) {
    const xs = times.get(v.name);
    console.log(`  ${v.name.padEnd(46)} ${median(xs).toFixed(1)} ms  = ${median(xs.map((x, k) => x / floor[k])).toFixed(2)}x`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
