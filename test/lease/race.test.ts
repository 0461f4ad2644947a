// Real concurrent claimers: the registry lock makes "compare with every lease, then write" one
// step. N processes racing for overlapping globs: exactly one wins, the others get exit 3. N
// processes with disjoint globs: all win. Nothing is lost or left half-written.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaseRepository } from '../../lib/lease/repository.js';
import { sha256Hex } from '../../lib/oracle/oracle.js';
import { sandbox, startCli, writeFiles } from '../helpers/cli.js';
import { sleep } from '../helpers/process.js';

const N = 8;

function race(owns: (i: number) => string) {
  const s = sandbox();
  const files: Record<string, string> = {};
  for (let i = 0; i < N; i++) files[`.gate-check/s${i}/work.md`] = `OWNS: ${owns(i)}\n\n- [ ] W: work ${i}\n`;
  writeFiles(s.repo, files);
  // The registry lock is held (by this test) while the claimers start, so that they all wait
  // on it and race for it at the same moment when it goes.
  const leases = join(s.home, '.gate-check', 'leases');
  mkdirSync(leases, { recursive: true, mode: 0o700 });
  const lock = join(leases, `${sha256Hex(leaseRepository(s.repo)).slice(0, 32)}.lock`);
  writeFileSync(lock, JSON.stringify({ pid: process.pid, token: 'test' }) + '\n', { mode: 0o600 });
  const env = { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '60000' };
  const runs = Array.from({ length: N }, (_, i) => startCli(['--claim', '--scope', `s${i}`], { cwd: s.repo, env }));
  return { s, runs, go: async () => {
    await sleep(2500);
    rmSync(lock);
  } };
}

function leaseFiles(home: string): string[] {
  const base = join(home, '.gate-check', 'leases');
  const dir = readdirSync(base, { withFileTypes: true }).find((e) => e.isDirectory())!;
  return readdirSync(join(base, dir.name));
}

describe('concurrent claims', () => {
  it(`${N} claimers racing for overlapping globs: exactly one wins`, async () => {
    // Every pair overlaps (through src/**, src or a wildcard), each in its own way.
    const { s, runs, go } = race((i) => [`own${i}/**, src/**`, `src`, `src/*/**, own${i}b`, `*/api/**`][i % 4]!);
    await go();
    const results = await Promise.all(runs.map((r) => r.done));
    const codes = results.map((r) => r.code);
    expect(codes.filter((c) => c === 0), JSON.stringify(results.map((r) => r.stderr))).toHaveLength(1);
    expect(codes.filter((c) => c === 3)).toHaveLength(N - 1);
    for (const r of results) if (r.code === 3) expect(r.stderr).toMatch(/CLAIM REFUSED/);
    expect(leaseFiles(s.home)).toHaveLength(1);
  });

  it(`${N} claimers with disjoint globs: all win, every lease is kept`, async () => {
    const { s, runs, go } = race((i) => `pkg${i}/**, docs/pkg${i}.md`);
    await go();
    const results = await Promise.all(runs.map((r) => r.done));
    expect(results.map((r) => r.code), JSON.stringify(results.map((r) => r.stderr))).toEqual(Array(N).fill(0));
    expect(leaseFiles(s.home).filter((n) => n.endsWith('.json'))).toHaveLength(N);
    expect(leaseFiles(s.home).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
