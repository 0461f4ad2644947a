#!/usr/bin/env node
// Benchmarks, as ratios against floors measured in the same run (never a timed unit test).
//   node scripts/bench.mjs [status] [--runs N]
// Runs are interleaved round-robin so that machine noise hits every variant alike; the
// figures are medians.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '../bin/gate-check.js');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 20;
const only = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function timeOnce(cmd, argv, opts) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== (opts.expect ?? 0) && !(opts.expect === 'any')) {
    throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return ms;
}

/** variants: [{name, cmd, argv, opts}]; returns name -> median ms. */
function measure(variants, runs = RUNS) {
  const times = new Map(variants.map((v) => [v.name, []]));
  for (const v of variants) timeOnce(v.cmd, v.argv, v.opts); // warm-up
  for (let i = 0; i < runs; i++) for (const v of variants) times.get(v.name).push(timeOnce(v.cmd, v.argv, v.opts));
  return new Map([...times].map(([k, xs]) => [k, median(xs)]));
}

function ledger(n, { depends = false } = {}) {
  let s = '# Gates: benchmark\n\n';
  for (let i = 1; i <= n; i++) {
    s += `- [ ] G${i}: outcome number ${i} is reached\n  CHECK: node scripts/check.mjs ${i}\n  EXPECT: ${i % 3 ? 'check passed' : '/check passed \\(\\d+\\)/'}\n`;
    if (depends) s += `  DEPENDS: deps/g${i}/*.txt\n`;
    s += '  EVIDENCE: pending\n\n';
  }
  return s;
}

const work = mkdtempSync(join(tmpdir(), 'gc-bench-'));
const report = (title, rows) => {
  console.log(`\n${title}`);
  for (const [name, value] of rows) console.log(`  ${name.padEnd(46)} ${value}`);
};

try {
  if (only.length === 0 || only.includes('status')) {
    const small = join(work, 'small');
    const large = join(work, 'large');
    mkdirSync(small);
    mkdirSync(large);
    writeFileSync(join(small, 'GATES.md'), ledger(12));
    writeFileSync(join(large, 'GATES.md'), ledger(5000));
    const m = measure([
      { name: 'node -e 0', cmd: process.execPath, argv: ['-e', '0'], opts: {} },
      { name: '--status, 12 gates', cmd: process.execPath, argv: [BIN, '--status'], opts: { cwd: small, expect: 1 } },
      { name: '--status, 5,000 gates', cmd: process.execPath, argv: [BIN, '--status'], opts: { cwd: large, expect: 1 } },
    ]);
    const floor = m.get('node -e 0');
    report(`status (median of ${RUNS} interleaved runs)`, [
      ['node -e 0', `${floor.toFixed(1)} ms`],
      ['--status, 12 gates', `${m.get('--status, 12 gates').toFixed(1)} ms  = ${(m.get('--status, 12 gates') / floor).toFixed(2)}x node -e 0 (target <= 1.5x)`],
      ['--status, 5,000 gates', `${m.get('--status, 5,000 gates').toFixed(1)} ms  = ${(m.get('--status, 5,000 gates') / floor).toFixed(2)}x node -e 0 (target <= 3x)`],
    ]);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
