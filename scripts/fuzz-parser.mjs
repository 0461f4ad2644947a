#!/usr/bin/env node
// The differential parser test (test/adversarial/renderer.test.ts) with more generated
// ledgers than `npm test` runs: gate-check's parser against micromark + GFM + parse5.
//   node scripts/fuzz-parser.mjs [--runs N]     (default 20,000)
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const runs = at >= 0 ? Number(args[at + 1]) : 20_000;
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node scripts/fuzz-parser.mjs [--runs N]');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const vitest = resolve(root, 'node_modules/vitest/vitest.mjs');
const started = Date.now();
const r = spawnSync(process.execPath, [vitest, 'run', 'test/adversarial/renderer.test.ts', '-t', 'differential'], {
  cwd: root,
  env: { ...process.env, GATE_CHECK_FUZZ_RUNS: String(runs) },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const out = `${r.stdout}${r.stderr}`;
const counts = /fuzz:parser runs=\d+ accepted=\d+ gates=\d+ refused=\d+/.exec(out);
if (r.status !== 0 || !counts) {
  process.stdout.write(out);
  console.error(`fuzz:parser FAILED after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(1);
}
console.log(`${counts[0]} in ${((Date.now() - started) / 1000).toFixed(1)} s: no disagreement`);
