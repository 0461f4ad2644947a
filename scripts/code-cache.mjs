// node scripts/code-cache.mjs DIST NAME: writes DIST/NAME.cjs.cache, the V8 code cache of a
// fast build (bin/fast-loader.cjs). The cache holds the functions compiled so far, so it is
// taken after the calls it should speed up have run once, in this process: for status.cjs,
// --status (plain, strict, JSON) over a small repository with every kind of gate; for
// hook.cjs, the Stop hook over it, its payload on stdin (scripts/build.mjs passes one); for
// run.cjs, --approve (which runs `echo ok` and `echo two`), a run and --reverify. (Warming
// status and the hook over approved, met gates too was measured: no faster.) Their exit
// codes do not matter (an approval is refused when the build itself runs inside a check).
// Everything happens in a temporary repository with a private HOME, removed afterwards.
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const dist = resolve(process.argv[2]);
const name = process.argv[3];
const WARM_UPS = { status: [['--status'], ['--status', '--strict'], ['--status', '--json']], hook: [['hook', 'claude-stop']], run: [['--approve'], [], ['--reverify']] };
if (!Object.hasOwn(WARM_UPS, name)) throw new Error(`no such fast build: ${name}`);
const { loadFast, cacheFile } = createRequire(import.meta.url)('../bin/fast-loader.cjs');

const work = mkdtempSync(join(tmpdir(), 'gate-check-code-cache-'));
try {
  const home = join(work, 'home');
  const repo = join(work, 'repo');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, 'dep.txt'), 'a dependency\n');
  writeFileSync(
    join(repo, 'GATES.md'),
    [
      '# Gates: code cache',
      '',
      '- [ ] G1: a runnable gate that waits',
      '  CHECK: echo ok',
      '  EXPECT: ok',
      '  DEPENDS: dep.txt',
      '  EVIDENCE: pending',
      '',
      '- [x] G2: a met gate with evidence',
      '  CHECK: echo two',
      // Not a regex: matching one turns on a V8 flag (run/expect-match.ts), and a cache made
      // under other flags is rejected by every process that starts without them.
      '  EXPECT: two',
      '  EVIDENCE: 2026-01-01T00:00:00Z sha256=0000000000000000000000000000000000000000000000000000000000000000; receipt=000000000000',
      '',
      '- [ ] G3: a manual gate',
      '- [x] G4: a manual gate that is met',
      '',
    ].join('\n'),
  );
  process.env.HOME = home;
  process.chdir(repo);
  const { exports: fast, script, source } = loadFast(name, { dist, useCache: false });
  const io = {
    stdout: () => {},
    stderr: () => {},
    env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: repo },
    cwd: repo,
    interactive: () => false,
    stderrIsTTY: false,
    colour: () => false,
    ask: async () => null,
  };
  for (const argv of WARM_UPS[name]) await fast.main(argv, io);
  writeFileSync(join(dist, `${name}.cjs.cache`), cacheFile(source, script.createCachedData()));
} finally {
  rmSync(work, { recursive: true, force: true });
}

