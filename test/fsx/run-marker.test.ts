// A run's marker in the approvals directory: there while the run lives (even if removed by
// hand), gone when it ends, and a crashed run's marker stops counting once its heartbeat stops.
import { chmodSync, existsSync, symlinkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemProbe } from '../../lib/approval/approver.js';
import { freshRunMarkers, MARKER_FRESH_MS } from '../../lib/fsx/run-marker.js';
import { runCli, sandbox, startCli, tempDir, writeFiles } from '../helpers/cli.js';
import { isRoot, tinyTmpfs } from '../helpers/limits.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const markersIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.live')) : []);

describe('a run marker', () => {
  it('is published while a run lives, published again when removed by hand, and removed when the run ends', async () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: slow\n  CHECK: sleep 3; echo ok\n  EXPECT: ok\n' });
    const approvals = join(s.home, '.gate-check', 'approved');
    const run = startCli(['--approve'], { cwd: s.repo, env: s.env });
    const base = join(s.home, '.gate-check');
    // Published in both stores one after the other: wait for both (CI saw the gap between them).
    for (let i = 0; i < 250 && (markersIn(approvals).length === 0 || markersIn(base).length === 0); i++) await sleep(20);
    const [name] = markersIn(approvals);
    expect(name).toMatch(new RegExp(`^\\.run-\\d+-${run.child.pid}-\\d+\\.live$`));
    expect(freshRunMarkers(approvals)!.map((m) => m.pid)).toEqual([run.child.pid]);
    // Also in the store that holds the Stop hook's state, which `hook accept` writes (found by an attack).
    expect(markersIn(base)).toEqual([name]);
    expect(systemProbe({ ...s.env, GATE_CHECK_APPROVAL_DIR: tempDir() }).runMarkers()!.map((m) => m.pid)).toEqual([run.child.pid]);
    rmSync(join(approvals, name!));
    await sleep(1_300);
    expect(markersIn(approvals)).toEqual([name]);
    // Renamed (to a later start), or replaced by a file dated an hour ago: made again, and the renamed one no longer refreshed.
    const renamed = name!.replace(/-\d+\.live$/, `-${Date.now() + 3_600_000}.live`);
    renameSync(join(approvals, name!), join(approvals, renamed));
    writeFileSync(join(base, name!.replace('.live', '.tmp')), '');
    renameSync(join(base, name!.replace('.live', '.tmp')), join(base, name!));
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    utimesSync(join(base, name!), hourAgo, hourAgo);
    await sleep(1_300);
    expect(markersIn(approvals).sort()).toEqual([name, renamed].sort());
    expect(Date.now() - statSync(join(base, name!)).mtimeMs).toBeLessThan(MARKER_FRESH_MS);
    const renamedAge = Date.now() - statSync(join(approvals, renamed)).mtimeMs;
    expect((await run.done).code).toBe(0);
    expect(renamedAge).toBeGreaterThan(300);
    expect(markersIn(approvals)).toEqual([renamed]);
    expect(markersIn(base)).toEqual([]);
    rmSync(join(approvals, renamed));
    // A run that ends on its own refusal leaves none either.
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: nope\n' });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(1);
    expect(markersIn(approvals)).toEqual([]);
  });

  it('counts only while fresh, and only names of its exact shape', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'd'));
    const now = Date.now();
    const touch = (name: string, ageMs: number) => {
      writeFileSync(join(dir, name), '');
      utimesSync(join(dir, name), (now - ageMs) / 1000, (now - ageMs) / 1000);
    };
    touch('.run-4026531836-123-1700000000000.live', 0);
    touch('.run-4026531836-124-1700000000001.live', MARKER_FRESH_MS + 1_000); // a crashed run's
    touch('.run-x-125-1700000000002.live', 0);
    touch('run-4026531836-126-1700000000003.live', 0);
    touch('.run-4026531836-127-1700000000004.live.tmp', 0);
    expect(freshRunMarkers(dir, now)).toEqual([{ namespace: 4026531836, pid: 123, start: 1700000000000 }]);
    expect(freshRunMarkers(join(dir, 'missing'), now)).toEqual([]);
    // Not a directory: no run marks it (the store refuses it, naming it). Cannot be read: null, never "no run".
    expect(freshRunMarkers(join(dir, '.run-4026531836-123-1700000000000.live'), now)).toEqual([]);
    // (A directory made unreadable, chmod 0300, found by an attack; as root, which reads anyway, a link loop: ELOOP.)
    symlinkSync('loop', join(dir, 'loop'));
    expect(freshRunMarkers(join(dir, 'loop'), now)).toBeNull();
    if (process.getuid?.() !== 0) {
      chmodSync(join(dir, 'd'), 0o300);
      expect(freshRunMarkers(join(dir, 'd'), now)).toBeNull();
      chmodSync(join(dir, 'd'), 0o700);
    }
  });

  // As root: a tmpfs that runs out of inodes, and one mounted read-only.
  it.skipIf(!isRoot)('a marker that cannot be made stops the run before anything runs (exit 2, naming it); on a read-only approvals directory there is nothing to guard', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
    // Two inodes: the mount's root and the approvals directory.
    const full = tinyTmpfs(1 << 20, 'mode=0700,nr_inodes=2');
    const ro = tinyTmpfs(1 << 20, 'mode=0700');
    if (full === null || ro === null) return;
    try {
      mkdirSync(join(full.dir, 'approved'), { mode: 0o700 });
      const r = runCli([], { cwd: s.repo, env: { ...s.env, GATE_CHECK_APPROVAL_DIR: join(full.dir, 'approved') } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\/approved\/\.run-\d+-\d+-\d+\.live: cannot make this run's marker \(ENOSPC\)/);
      expect(r.stdout).not.toMatch(/APPROVAL REQUIRED/);
      // Read-only: approved beforehand, the run goes on without a marker.
      const env = { ...s.env, GATE_CHECK_APPROVAL_DIR: join(ro.dir, 'approved') };
      mkdirSync(join(ro.dir, 'approved'), { mode: 0o700 });
      expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
      writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
      expect(ro.readOnly()).toBe(true);
      const again = runCli([], { cwd: s.repo, env });
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
    } finally {
      full.unmount();
      ro.unmount();
    }
  });

  // Round-12 L2: the marker in the approvals directory was made, the one in the store's base
  // was not; the first stayed behind and refused every approval for MARKER_FRESH_MS.
  it.skipIf(!isRoot)('a run stopped by its second marker leaves no first marker behind', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
    // Three inodes: the mount's root, receipts/ and history/; the marker is the fourth.
    const base = tinyTmpfs(1 << 20, 'mode=0700,nr_inodes=3');
    if (base === null) return;
    try {
      const approvals = join(tempDir(), 'approved');
      mkdirSync(approvals, { mode: 0o700 });
      const env = { ...s.env, GATE_CHECK_HOME: base.dir, GATE_CHECK_APPROVAL_DIR: approvals };
      const r = runCli(['--approve'], { cwd: s.repo, env });
      expect(r.stderr).toMatch(new RegExp(`${base.dir}/\\.run-\\d+-\\d+-\\d+\\.live: cannot make this run's marker \\(ENOSPC\\)`));
      expect(r.code).toBe(2);
      expect(existsSync(join(s.repo, 'ran'))).toBe(false);
      expect(markersIn(approvals)).toEqual([]);
      expect(freshRunMarkers(approvals)).toEqual([]);
    } finally {
      base.unmount();
    }
  });
});
