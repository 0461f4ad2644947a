// gate-check dispatch through the real CLI: the lifecycle, refusals (exit 2, nothing written),
// hostile state files (exit 2 everywhere they are read), concurrent starts that all persist, a
// lock that is never stolen, and waves folded into --status, its JSON and the exit of a run.
import { chmodSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchDirPath } from '../../lib/dispatch/location.js';
import { storeLocations } from '../../lib/store/locations.js';
import { runCli, sandbox, startCli, writeFiles } from '../helpers/cli.js';
import { sleep } from '../helpers/process.js';
import { assertReportSchema } from '../helpers/schema.js';
import { snapshotTree } from '../helpers/tree.js';

const MET = '- [x] M: done\n  EVIDENCE: reviewed\n';

function repo(files: Record<string, string> = { '.gate-check/s/work.md': MET }) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const run = (args: string[], env = s.env) => runCli(args, { cwd: s.repo, env });
  const d = (...args: string[]) => run(['dispatch', ...args]);
  const stateDir = () => dispatchDirPath(storeLocations({ HOME: s.home }), s.repo);
  const statePath = (scope = 's') => join(stateDir(), `${scope}.json`);
  return { ...s, run, d, stateDir, statePath };
}

describe('dispatch', () => {
  it('open, start, seal, return: the scope is unmet until the wave is complete', () => {
    const s = repo();
    expect(s.run(['--status']).code).toBe(0);
    expect(s.d('open', '--wave', 'w1', '--leaf', 'a', '--leaf', 'b').stdout).toBe('opened wave w1 of scope s with 2 leaves: dispatch:w1 open (0/2 started)\n');
    let st = s.run(['--status']);
    expect(st.code).toBe(1);
    expect(st.stdout).toBe('dispatch:w1 open (0/2 started)\nUNMET: dispatch:w1 open (0/2 started)\n');
    expect(s.d('start', '--wave', 'w1', '--leaf', 'a', '--handle', 'task-1').code).toBe(0);
    expect(s.run(['--status']).stdout).toContain('UNMET: dispatch:w1 open (1/2 started)');
    expect(s.d('start', '--wave', 'w1', '--leaf', 'b', '--handle', 'task-2').code).toBe(0);
    expect(s.d('seal', '--wave', 'w1').stdout).toBe('sealed: dispatch:w1 sealed (0/2 returned)\n');
    expect(s.d('return', '--wave', 'w1', '--leaf', 'b').code).toBe(0);
    st = s.run(['--status', '--json']);
    expect(st.code).toBe(1);
    const doc = JSON.parse(st.stdout);
    assertReportSchema(doc);
    expect(doc.scope).toBe('s');
    expect(doc.waves).toEqual([{ id: 'w1', state: 'sealed', leaves: 2, started: 2, returned: 1 }]);
    expect(s.d('status').code).toBe(1);
    expect(s.d('return', '--wave', 'w1', '--leaf', 'a').stdout).toBe('returned leaf a: wave w1 is complete\n');
    expect(s.run(['--status']).stdout).toBe('ALL MET (1 met)\n');
    expect(s.d('status').code).toBe(0);
    expect(s.d('status', '--wave', 'w1').code).toBe(0);
  });

  it('an abandoned wave is a hand-off (exit 1), and neither handles nor reasons reach --status', () => {
    const s = repo();
    s.d('open', '--wave', 'w1', '--leaf', 'a');
    s.d('start', '--wave', 'w1', '--leaf', 'a', '--handle', 'HANDLE-TEXT');
    expect(s.d('abandon', '--wave', 'w1', '--reason', 'REASON TEXT: ignore the gates').code).toBe(0);
    const st = s.run(['--status']);
    expect(st.code).toBe(1);
    expect(st.stdout).toContain('HANDOFF REQUIRED: dispatch:w1 abandoned');
    const json = s.run(['--status', '--json']).stdout;
    for (const out of [st.stdout, json]) expect(out).not.toMatch(/HANDLE-TEXT|REASON TEXT/);
    // dispatch status shows them, sanitized.
    const ds = s.d('status');
    expect(ds.code).toBe(1);
    expect(ds.stdout).toContain('handle: HANDLE-TEXT');
    expect(ds.stdout).toContain('reason: REASON TEXT: ignore the gates');
  });

  it('refuses what the lifecycle does not allow (exit 2) and writes nothing', () => {
    const s = repo();
    s.d('open', '--wave', 'w1', '--leaf', 'a', '--leaf', 'b');
    s.d('start', '--wave', 'w1', '--leaf', 'a', '--handle', 'h1');
    const before = readFileSync(s.statePath());
    const refusals: [string[], RegExp][] = [
      [['seal', '--wave', 'w1'], /cannot be sealed: 1 leaf has not started \(b\)/],
      [['return', '--wave', 'w1', '--leaf', 'a'], /leaves return only after the wave is sealed/],
      [['start', '--wave', 'w1', '--leaf', 'a', '--handle', 'h2'], /already started/],
      [['start', '--wave', 'w1', '--leaf', 'b', '--handle', 'h1'], /handles are unique/],
      [['start', '--wave', 'w1', '--leaf', 'b', '--handle', 'x\u001b[2Jy'], /printable/],
      [['start', '--wave', 'w1', '--leaf', 'b', '--handle', 'x'.repeat(257)], /longer than 256/],
      [['start', '--wave', 'w1', '--leaf', 'b', '--leaf', 'a', '--handle', 'h3'], /takes one --leaf/],
      [['open', '--wave', 'w1', '--leaf', 'c'], /already has a wave w1/],
      [['open', '--wave', 'w2'], /at least one leaf/],
      [['open', '--wave', 'w2', '--leaf', 'x', '--leaf', 'x'], /named twice/],
      [['abandon', '--wave', 'w1', '--reason', 'r'.repeat(501)], /longer than 500/],
      [['abandon', '--wave', 'w9', '--reason', 'r'], /has no wave w9/],
      [['status', '--wave', 'w9'], /has no wave w9/],
      [['seal'], /required option/],
      [['launch', '--wave', 'w1'], /unknown command/],
      [[], /needs an action/],
    ];
    for (const [args, message] of refusals) {
      const r = s.d(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect(readFileSync(s.statePath()).equals(before)).toBe(true);
  });

  it('chooses the scope like the other commands: --scope, GATE_CHECK_SCOPE, the only scope; open needs its folder', () => {
    const s = repo({ '.gate-check/a/x.md': MET, '.gate-check/b/y.md': MET });
    const guess = s.d('open', '--wave', 'w', '--leaf', 'l');
    expect(guess.code).toBe(2);
    expect(guess.stderr).toContain('Refusing to guess');
    expect(s.run(['dispatch', 'open', '--wave', 'w', '--leaf', 'l'], { ...s.env, GATE_CHECK_SCOPE: 'b' }).stdout).toContain('of scope b');
    expect(s.d('open', '--scope', 'typo', '--wave', 'w', '--leaf', 'l').stderr).toContain('scope typo not found');
    expect(s.d('open', '--scope', '../a', '--wave', 'w', '--leaf', 'l').stderr).toContain('invalid scope id');
    expect(s.run(['--status', '--scope', 'b']).stdout).toContain('dispatch:w open (0/1 started)');
    expect(s.run(['--status', '--scope', 'a']).code).toBe(0);
  });

  it('the waves of a scope whose folder is gone keep the tree unmet, and its transitions still work', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/s/work.md': MET });
    s.d('open', '--scope', 's', '--wave', 'w1', '--leaf', 'a');
    rmSync(join(s.repo, '.gate-check'), { recursive: true });
    const st = s.run(['--status']);
    expect(st.code).toBe(1);
    expect(st.stdout).toContain('scope s: UNMET: dispatch:w1 open (0/1 started) (its folder has no ledgers; its dispatch state remains)');
    expect(st.stdout).toContain('UNMET: s/dispatch:w1 open (0/1 started)');
    expect(s.d('abandon', '--scope', 's', '--wave', 'w1', '--reason', 'scope removed').code).toBe(0);
    expect(s.run(['--status']).stdout).toContain('HANDOFF REQUIRED: s/dispatch:w1 abandoned');
  });

  it('a plain run and --reverify fold the waves in: exit 1 while a wave is open', () => {
    const s = repo({ '.gate-check/s/work.md': MET });
    s.d('open', '--wave', 'w1', '--leaf', 'a');
    for (const args of [[], ['--reverify'], ['--json']]) {
      const r = s.run(args);
      expect(r.code, args.join(' ')).toBe(1);
      if (args[0] === '--json') {
        const doc = JSON.parse(r.stdout);
        assertReportSchema(doc);
        expect(doc.waves[0].state).toBe('open');
      } else expect(r.stdout).toContain('UNMET: dispatch:w1 open (0/1 started)');
    }
  });

  it('--status reads the state without writing or creating anything', () => {
    const s = repo();
    s.d('open', '--wave', 'w1', '--leaf', 'a');
    const home = snapshotTree(s.home);
    const tree = snapshotTree(s.repo);
    s.run(['--status']);
    s.run(['--status', '--json']);
    s.d('status');
    expect(snapshotTree(s.home)).toEqual(home);
    expect(snapshotTree(s.repo)).toEqual(tree);
    const fresh = repo();
    fresh.run(['--status']);
    expect(readdirSync(fresh.home)).toEqual([]);
  });

  it('the state lives in the private store, one private file per scope, never in the repository', () => {
    const s = repo();
    const tree = snapshotTree(s.repo);
    s.d('open', '--wave', 'w1', '--leaf', 'a');
    expect(snapshotTree(s.repo)).toEqual(tree);
    const names = readdirSync(s.stateDir());
    expect(names).toContain('s.json');
    const doc = JSON.parse(readFileSync(s.statePath(), 'utf8'));
    expect(Object.keys(doc)).toEqual(['schema', 'scope', 'waves']);
  });
});

describe('a dispatch state that cannot be trusted is exit 2 wherever it is read', () => {
  const spoilers: [string, (path: string) => void, RegExp][] = [
    ['malformed JSON', (p) => writeFileSync(p, '{"schema":', { mode: 0o600 }), /invalid dispatch state: not valid JSON/],
    ['a return before the seal', (p) => {
      const d = JSON.parse(readFileSync(p, 'utf8'));
      d.waves[0].leaves[0] = { ...d.waves[0].leaves[0], handle: 'h', startedAt: d.waves[0].openedAt, returnedAt: d.waves[0].openedAt };
      writeFileSync(p, JSON.stringify(d), { mode: 0o600 });
    }, /returned before the wave was sealed/],
    ['a stray key', (p) => {
      const d = JSON.parse(readFileSync(p, 'utf8'));
      d.waves[0].done = true;
      writeFileSync(p, JSON.stringify(d), { mode: 0o600 });
    }, /not a wave/],
    ['a symbolic link', (p) => {
      const copy = join(p, '..', '..', 'elsewhere.json');
      writeFileSync(copy, readFileSync(p), { mode: 0o600 });
      rmSync(p);
      symlinkSync(copy, p);
    }, /symbolic link/],
    ['readable by others', (p) => chmodSync(p, 0o644), /group or other/],
    ['oversized', (p) => writeFileSync(p, ' '.repeat(4 * 1024 * 1024 + 1), { mode: 0o600 }), /bytes \(at most/],
  ];
  for (const [name, spoil, reason] of spoilers) {
    it(name, () => {
      const s = repo({ 'GATES.md': MET, '.gate-check/s/work.md': MET });
      s.d('open', '--scope', 's', '--wave', 'w1', '--leaf', 'a');
      spoil(s.statePath());
      for (const args of [['--status'], ['--status', '--scope', 's'], ['--status', '--json'], ['dispatch', 'status', '--scope', 's'], ['dispatch', 'start', '--scope', 's', '--wave', 'w1', '--leaf', 'a', '--handle', 'h'], []]) {
        const r = s.run(args);
        expect(r.code, `${name}: ${args.join(' ')}`).toBe(2);
        expect(r.stderr, args.join(' ')).toMatch(reason);
      }
    });
  }

  it('a file in the dispatch store that is no state is refused, not skipped', () => {
    const s = repo({ 'GATES.md': MET, '.gate-check/s/work.md': MET });
    s.d('open', '--scope', 's', '--wave', 'w1', '--leaf', 'a');
    writeFileSync(join(s.stateDir(), 'notes'), 'x', { mode: 0o600 });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a dispatch state file');
  });
});

describe('concurrency', () => {
  it('concurrent starts of every leaf all persist', async () => {
    const n = 8;
    const leaves = Array.from({ length: n }, (_, i) => `l${i}`);
    const s = repo();
    expect(s.d('open', '--wave', 'w1', ...leaves.flatMap((l) => ['--leaf', l])).code).toBe(0);
    // Hold the scope's lock while the starters begin, so that they race for it at one moment.
    const lock = join(s.stateDir(), 's.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, token: 'test' }) + '\n', { mode: 0o600 });
    const env = { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '60000' };
    const runs = leaves.map((l) => startCli(['dispatch', 'start', '--wave', 'w1', '--leaf', l, '--handle', `task-${l}`], { cwd: s.repo, env }));
    await sleep(2500);
    rmSync(lock);
    const results = await Promise.all(runs.map((r) => r.done));
    expect(results.map((r) => r.code), JSON.stringify(results.map((r) => r.stderr))).toEqual(Array(n).fill(0));
    const doc = JSON.parse(readFileSync(s.statePath(), 'utf8'));
    expect(doc.waves[0].leaves.map((l: { handle: string }) => l.handle).sort()).toEqual(leaves.map((l) => `task-${l}`).sort());
    expect(s.d('seal', '--wave', 'w1').code).toBe(0);
  });

  it('a lock left behind is never stolen: a transition fails closed naming it', () => {
    const s = repo();
    s.d('open', '--wave', 'w1', '--leaf', 'a');
    const lock = join(s.stateDir(), 's.lock');
    writeFileSync(lock, JSON.stringify({ pid: 999999, token: 't' }) + '\n', { mode: 0o600 });
    const r = s.run(['dispatch', 'seal', '--wave', 'w1'], { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '200' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`lock ${lock} is held by PID 999999`);
    expect(readFileSync(lock, 'utf8')).toContain('999999');
  });
});
