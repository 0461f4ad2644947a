// --claim and --release through the real CLI: leases on OWNS: globs in the private store,
// conflicts named with exit 3, lease files that cannot be trusted holding everything, release
// that works without the scope's folder, nothing ever stolen.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync, linkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaseFileName } from '../../lib/lease/record.js';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { snapshotTree } from '../helpers/tree.js';

const leaf = (owns: string, gate = '- [ ] L1: leaf work\n') => `OWNS: ${owns}\n\n${gate}`;

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const run = (args: string[], env = s.env) => runCli(args, { cwd: s.repo, env });
  const registry = () => {
    const base = join(s.home, '.gate-check', 'leases');
    const dirs = readdirSync(base, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(dirs).toHaveLength(1);
    return join(base, dirs[0]!.name);
  };
  return { ...s, run, registry };
}

const TWO = {
  'GATES.md': '- [x] M: root\n  EVIDENCE: reviewed\n',
  '.gate-check/api/work.md': leaf('src/api/**, tests/api/**'),
  '.gate-check/all/work.md': leaf('src/**'),
  '.gate-check/web/work.md': leaf('src/web/**'),
};

describe('--claim', () => {
  it('takes a lease on the OWNS globs; an overlapping claim is refused with exit 3 naming the conflict; disjoint ones succeed', () => {
    const s = repo(TWO);
    const a = s.run(['--claim', '--scope', 'api']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('CLAIMED scope api leaf work: src/api/**, tests/api/**');
    const web = s.run(['--claim', '--scope', 'web']);
    expect(web.code).toBe(0);
    const all = s.run(['--claim', '--scope', 'all']);
    expect(all.code).toBe(3);
    expect(all.stderr).toContain('conflict: OWNS src/** overlaps src/api/** held by scope api leaf work');
    expect(all.stderr).toContain('conflict: OWNS src/** overlaps src/web/** held by scope web leaf work');
    expect(all.stderr).toMatch(/CLAIM REFUSED \(2 conflicts\): nothing was claimed/);
    expect(all.stderr).toContain('leases are never stolen or expired: once PID');
    expect(all.stderr).toContain('gate-check --release --scope api --leaf work');
    expect(readdirSync(s.registry()).filter((n) => n.endsWith('.json'))).toHaveLength(2);
  });

  it('a second claim for the same scope and leaf conflicts, even with the same globs', () => {
    const s = repo(TWO);
    expect(s.run(['--claim', '--scope', 'api']).code).toBe(0);
    const again = s.run(['--claim', '--scope', 'api', '--leaf', 'work']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('conflict: scope api leaf work already holds a lease');
  });

  it('a lease is never stolen: its holder gone, the claim still conflicts, and is told how to remove it by hand', () => {
    const s = repo(TWO);
    // Claimed from a shell that exits at once: the recorded PID is gone afterwards.
    const r = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" --claim --scope api; exit 0`], { cwd: s.repo, env: s.env, encoding: 'utf8' });
    expect(r.stdout).toContain('CLAIMED');
    const lease = JSON.parse(readFileSync(join(s.registry(), leaseFileName('api', 'work')), 'utf8'));
    const c = s.run(['--claim', '--scope', 'all']);
    expect(c.code).toBe(3);
    expect(c.stderr).toContain(`by PID ${lease.pid} (not running)`);
    expect(c.stderr).toContain(`once PID ${lease.pid} is gone and no one works on scope api leaf work, remove it by hand: gate-check --release --scope api --leaf work (or rm '${join(s.registry(), leaseFileName('api', 'work'))}')`);
    expect(s.run(['--release', '--scope', 'api', '--leaf', 'work']).stdout).toContain('RELEASED scope api leaf work');
    expect(s.run(['--claim', '--scope', 'all']).code).toBe(0);
  });

  it('picks the leaf: --leaf, or the only ledger; several without --leaf, an unknown leaf, no OWNS, no scope: exit 2', () => {
    const s = repo({
      '.gate-check/two/a.md': leaf('a/**'),
      '.gate-check/two/b.md': leaf('b/**'),
      '.gate-check/bare/x.md': '- [ ] X: no owns\n',
      '.gate-check/one/only.md': leaf('only/**'),
    });
    const several = s.run(['--claim', '--scope', 'two']);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('scope two has 2 ledgers (a, b): pass --leaf');
    expect(s.run(['--claim', '--scope', 'two', '--leaf', 'c']).stderr).toContain('scope two has no ledger c.md (its ledgers: a, b)');
    expect(s.run(['--claim', '--scope', 'two', '--leaf', 'b']).code).toBe(0);
    expect(s.run(['--claim', '--scope', 'two', '--leaf', 'a']).code).toBe(0);
    const bare = s.run(['--claim', '--scope', 'bare']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('.gate-check/bare/x.md declares no OWNS: (nothing to claim)');
    const none = s.run(['--claim']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Refusing to guess');
    expect(s.run(['--claim'], { ...s.env, GATE_CHECK_SCOPE: 'one' }).stdout).toContain('CLAIMED scope one leaf only');
    expect(s.run(['--claim', '--scope', '../one']).stderr).toContain('invalid scope id');
    expect(s.run(['--claim', '--scope', 'missing']).code).toBe(2);
  });

  it('a ledger that does not parse is not claimed for (exit 2)', () => {
    const s = repo({ '.gate-check/api/work.md': 'OWNS: /etc/**\n\n- [ ] L1: x\n' });
    const r = s.run(['--claim', '--scope', 'api']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('absolute path not allowed');
  });

  it('--help documents exit 3 and the lease options', () => {
    const h = runCli(['--help'], { cwd: sandbox().repo });
    expect(h.stdout).toMatch(/^  3    lease conflict: --claim overlaps a live lease/m);
    expect(h.stdout).toContain('--claim');
    expect(h.stdout).toContain('--release');
    expect(h.stdout).toContain('--list-scopes');
    expect(h.stdout).toMatch(/dispatch open\|start\|seal\|return\|abandon\|status/);
  });

  it('--claim and --release take only --scope, --leaf and --root', () => {
    const s = repo(TWO);
    for (const extra of [['--status'], ['--json'], ['--approve'], ['--jobs', '2'], ['GATES.md'], ['--release'], ['--list-scopes']]) {
      const r = s.run(['--claim', '--scope', 'api', ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
    }
    expect(s.run(['--status', '--leaf', 'work']).stderr).toContain('--leaf applies to --claim and --release');
    expect(s.run(['--release', '--scope', 'api', '--leaf', '../x']).stderr).toContain('invalid leaf');
  });

  it('never touches the repository: leases live in the private store (0700 directories, 0600 files)', () => {
    const s = repo(TWO);
    const before = snapshotTree(s.repo);
    expect(s.run(['--claim', '--scope', 'api']).code).toBe(0);
    expect(snapshotTree(s.repo)).toEqual(before);
    const file = join(s.registry(), leaseFileName('api', 'work'));
    const st = (p: string) => (spawnSync('stat', ['-c', '%a', p], { encoding: 'utf8' }).stdout.trim());
    expect(st(file)).toBe('600');
    expect(st(s.registry())).toBe('700');
    const lease = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(lease)).toEqual(['schema', 'scope', 'leaf', 'globs', 'pid', 'host', 'root', 'claimedAt']);
    expect(lease.globs).toEqual(['src/api/**', 'tests/api/**']);
  });

  it('a registry lock that is held makes a claim fail closed (exit 2) naming the lock, never stealing it', () => {
    const s = repo(TWO);
    expect(s.run(['--claim', '--scope', 'web']).code).toBe(0);
    const lockPath = `${s.registry()}.lock`;
    writeFileSync(lockPath, JSON.stringify({ pid: 999999, token: 'x' }) + '\n', { mode: 0o600 });
    const r = s.run(['--claim', '--scope', 'api'], { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '200' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`lock ${lockPath} is held by PID 999999`);
    expect(r.stderr).toContain('remove the lock by hand');
    expect(readFileSync(lockPath, 'utf8')).toContain('999999');
  });
});

describe('a lease file that cannot be trusted counts as holding everything', () => {
  const cases: [string, (dir: string, good: string) => void, RegExp][] = [
    ['malformed JSON', (d) => writeFileSync(join(d, leaseFileName('x', 'y')), '{not json', { mode: 0o600 }), /not valid JSON/],
    ['a stray key', (d, good) => writeFileSync(join(d, leaseFileName('web', 'work')), JSON.stringify({ ...JSON.parse(good), extra: 1 }), { mode: 0o600 }), /not a lease/],
    ['a name that is not the hash of its identity', (d, good) => writeFileSync(join(d, leaseFileName('other', 'work')), good, { mode: 0o600 }), /its name is not the hash/],
    ['unnormalized globs', (d, good) => writeFileSync(join(d, leaseFileName('web', 'work')), JSON.stringify({ ...JSON.parse(good), globs: ['./docs//x'] }), { mode: 0o600 }), /not normalized/],
    ['a symbolic link', (d, good) => {
      writeFileSync(join(d, '..', 'elsewhere.json'), good, { mode: 0o600 });
      symlinkSync(join(d, '..', 'elsewhere.json'), join(d, leaseFileName('web', 'work')));
    }, /symbolic link/],
    ['a hard link', (d, good) => {
      writeFileSync(join(d, '..', 'twin.json'), good, { mode: 0o600 });
      linkSync(join(d, '..', 'twin.json'), join(d, leaseFileName('web', 'work')));
    }, /hard links/],
    ['oversized', (d) => writeFileSync(join(d, leaseFileName('web', 'work')), ' '.repeat(70 * 1024), { mode: 0o600 }), /bytes \(at most/],
    ['another owner', (d, good) => {
      const p = join(d, leaseFileName('web', 'work'));
      writeFileSync(p, good, { mode: 0o600 });
      chownSync(p, 12345, 12345);
    }, /owned by uid 12345/],
    ['readable by others', (d, good) => {
      const p = join(d, leaseFileName('web', 'work'));
      writeFileSync(p, good);
      chmodSync(p, 0o644);
    }, /group or other/],
    ['a FIFO', (d) => {
      spawnSync('mkfifo', [join(d, leaseFileName('web', 'work'))]);
    }, /FIFO|fifo|not a regular/],
    ['a file that is not a lease name', (d) => writeFileSync(join(d, 'notes.txt'), 'hello', { mode: 0o600 }), /not a lease file name/],
    ['a directory', (d) => mkdirSync(join(d, leaseFileName('web', 'work'))), /directory/],
  ];
  for (const [name, spoil, reason] of cases) {
    it(name, () => {
      const s = repo(TWO);
      expect(s.run(['--claim', '--scope', 'web']).code).toBe(0);
      const dir = s.registry();
      const good = readFileSync(join(dir, leaseFileName('web', 'work')), 'utf8');
      rmSync(join(dir, leaseFileName('web', 'work')));
      spoil(dir, good);
      // Disjoint from everything the file could have held: still refused.
      const r = s.run(['--claim', '--scope', 'api']);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/cannot be trusted \(.*\): it counts as holding every path/);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).toContain('remove it by hand: rm ');
    });
  }

  it('--release --leaf removes the slot of that identity whatever it holds; others are only reported', () => {
    const s = repo(TWO);
    expect(s.run(['--claim', '--scope', 'web']).code).toBe(0);
    const dir = s.registry();
    writeFileSync(join(dir, leaseFileName('web', 'work')), '{broken', { mode: 0o600 });
    writeFileSync(join(dir, 'stray'), 'x', { mode: 0o600 });
    const r = s.run(['--release', '--scope', 'web', '--leaf', 'work']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('RELEASED scope web leaf work');
    expect(r.stderr).toMatch(/note: .*stray cannot be trusted .* blocks every claim/);
    expect(s.run(['--claim', '--scope', 'api']).code).toBe(3);
    rmSync(join(dir, 'stray'));
    expect(s.run(['--claim', '--scope', 'api']).code).toBe(0);
  });
});

describe('--release', () => {
  it('works when the scope folder is gone or its ledger no longer parses', () => {
    const s = repo(TWO);
    expect(s.run(['--claim', '--scope', 'api']).code).toBe(0);
    expect(s.run(['--claim', '--scope', 'web']).code).toBe(0);
    writeFileSync(join(s.repo, '.gate-check/web/work.md'), '- [ ] A: x\n  - [ ] B: nested\n');
    expect(s.run(['--status', '--scope', 'web']).code).toBe(2);
    const web = s.run(['--release', '--scope', 'web']);
    expect(web.code).toBe(0);
    expect(web.stdout).toContain('RELEASED scope web leaf work');
    rmSync(join(s.repo, '.gate-check/api'), { recursive: true });
    const api = s.run(['--release', '--scope', 'api']);
    expect(api.code).toBe(0);
    expect(api.stdout).toContain('RELEASED scope api leaf work');
    expect(readdirSync(s.registry())).toEqual([]);
    expect(s.run(['--release', '--scope', 'api']).stdout).toContain('no lease of scope api was held');
  });

  it('without --leaf gives back every lease of the scope, and only those', () => {
    const s = repo({ ...TWO, '.gate-check/api/more.md': leaf('lib/**') });
    expect(s.run(['--claim', '--scope', 'api', '--leaf', 'work']).code).toBe(0);
    expect(s.run(['--claim', '--scope', 'api', '--leaf', 'more']).code).toBe(0);
    expect(s.run(['--claim', '--scope', 'web']).code).toBe(0);
    const r = s.run(['--release', '--scope', 'api']);
    expect(r.stdout.match(/RELEASED/g)).toHaveLength(2);
    expect(readdirSync(s.registry())).toEqual([leaseFileName('web', 'work')]);
  });
});

describe('worktrees of one repository share one registry', () => {
  /** A git repository of `files`, committed, with a linked worktree beside it. */
  function withWorktree(files: Record<string, string>) {
    const s = sandbox();
    const git = (args: string[], cwd = s.repo) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', env: s.env });
      expect(r.status, r.stderr).toBe(0);
    };
    writeFiles(s.repo, files);
    git(['init', '-q']);
    git(['add', '-A']);
    git(['commit', '-qm', 'ledgers']);
    const other = join(s.repo, '..', 'other-worktree');
    git(['worktree', 'add', '-q', other]);
    return { s, git, other };
  }

  it('a claim in one worktree conflicts with an overlapping lease taken in another', () => {
    const { s, other } = withWorktree({ '.gate-check/api/work.md': leaf('src/api/**'), '.gate-check/all/work.md': leaf('src/**') });
    expect(runCli(['--claim', '--scope', 'api'], { cwd: s.repo, env: s.env }).code).toBe(0);
    const r = runCli(['--claim', '--scope', 'all'], { cwd: other, env: s.env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`OWNS src/** overlaps src/api/** held by scope api leaf work`);
    expect(r.stderr).toContain(`in ${s.repo}`);
    // Released from the other worktree: the same registry.
    expect(runCli(['--release', '--scope', 'api'], { cwd: other, env: s.env }).stdout).toContain('RELEASED');
    expect(runCli(['--claim', '--scope', 'all'], { cwd: other, env: s.env }).code).toBe(0);
  });

  // Round-39p P1: the repository's git folder moved to a name that is not UTF-8 and linked back
  // (git works on), a decoy repository where Node's decoding of that name leads: the worktree's
  // registry was the decoy's, new and empty, and a second claim of a leased scope went through.
  it('a git folder whose real path is not UTF-8 refuses the claim rather than key a decoy', () => {
    const { s, git, other } = withWorktree({ '.gate-check/api/work.md': leaf('src/api/**') });
    expect(runCli(['--claim', '--scope', 'api'], { cwd: s.repo, env: s.env }).code).toBe(0);
    const odd = Buffer.concat([Buffer.from(`${join(s.repo, '..')}/`), Buffer.from([0xff])]);
    renameSync(join(s.repo, '.git'), odd);
    symlinkSync(odd, join(s.repo, '.git'));
    git(['init', '-q', '--bare', join(s.repo, '..', '\ufffd')]);
    mkdirSync(join(s.repo, '..', '\ufffd', 'worktrees', 'other-worktree'), { recursive: true });
    writeFileSync(join(s.repo, '..', '\ufffd', 'worktrees', 'other-worktree', 'HEAD'), 'ref: refs/heads/x\n');
    writeFileSync(join(s.repo, '..', '\ufffd', 'worktrees', 'other-worktree', 'commondir'), '../..\n');
    git(['status', '--short'], other); // git works there
    const r = runCli(['--claim', '--scope', 'api'], { cwd: other, env: s.env });
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    expect(r.stdout).not.toMatch(/CLAIMED/);
    expect(r.stderr).toMatch(/resolves to a path that is not UTF-8 text/);
  });

  it('a directory that is not a git checkout keeps its own registry', () => {
    const a = repo(TWO);
    const b = repo(TWO);
    expect(a.run(['--claim', '--scope', 'all']).code).toBe(0);
    expect(runCli(['--claim', '--scope', 'all'], { cwd: b.repo, env: a.env }).code).toBe(0);
  });
});
