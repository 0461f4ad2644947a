// A private copy of the repository (node_modules linked) where mutants are built and tested,
// so the working tree and a running CLI are never disturbed; and the two things done there,
// each in its own process group, killed whole when it runs too long.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ENTRIES = ['lib', 'test', 'bin', 'scripts', 'references', 'examples', 'package.json', 'tsconfig.json', 'vitest.config.ts', 'vitest.serial.config.ts', 'README.md', 'SECURITY.md', 'LICENSE', 'action.yml'];

// Every test file (serial ones too), with each test's line known, so `file:line` filters work.
const CONFIG = (extra) => `import { defineConfig } from 'vitest/config';
export default defineConfig({
  define: { __VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    includeTaskLocation: true,
    ${extra}
  },
});
`;

export const MUTATION_CONFIG = 'vitest.mutation.config.ts';

export function makeWorkspace(root, configExtra = '') {
  const dir = mkdtempSync(join(tmpdir(), 'gc-mutation-'));
  for (const entry of ENTRIES) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, MUTATION_CONFIG), CONFIG(configExtra));
  return dir;
}

// The tests' command runs under a perl parent that is a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER): whatever the tests leave running, even in sessions of its own (a
// mutant's run that never ends, its checks), is reparented to it and killed when the command
// ends or runs out of time. Without it, a mutant's leftover runs spun for the rest of a
// mutation run, took the CPU, and made later `--approve`s refuse (a run under way).
const REAPER = String.raw`
use POSIX ();
syscall(157, 36, 1, 0, 0, 0); # prctl(PR_SET_CHILD_SUBREAPER, 1) on x86-64
my $pid = fork();
die "fork: $!" unless defined $pid;
if ($pid == 0) { setpgrp(0, 0); exec { $ARGV[0] } @ARGV or die "exec: $!"; }
$SIG{TERM} = sub { kill 'KILL', -$pid; kill 'KILL', $pid; };
waitpid($pid, 0);
my $status = $?;
for my $round (1 .. 100) {
  my @left;
  for my $stat (glob('/proc/[0-9]*/stat')) {
    open(my $f, '<', $stat) or next;
    my $line = <$f>;
    push @left, $1 if defined $line && $line =~ /^(\d+) .*\) \S+ (\d+) / && $2 == $$;
  }
  last unless @left;
  kill 'KILL', @left;
  select(undef, undef, undef, 0.02);
  1 while waitpid(-1, POSIX::WNOHANG()) > 0;
}
exit($status & 127 ? 128 + ($status & 127) : $status >> 8);
`;

/** Runs a command; 'timeout' when it outlives timeoutMs. Everything it started is killed when it ends. */
function run(cmd, args, { cwd, timeoutMs, env }) {
  return new Promise((resolvePromise) => {
    // Not a session of its own: gate-check refuses --approve without a terminal while a run of
    // another session is under way (approval/approver.ts), so workspaces in separate sessions
    // would fail each other's tests (Node's detached is setsid).
    const child = spawn('perl', ['-e', REAPER, cmd, ...args], { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ outcome: timedOut ? 'timeout' : code === 0 ? 'passed' : 'failed', output });
    });
  });
}

// The build runs the CLI once to make its code cache, and bounds that run itself (build.mjs):
// a mutant that hangs the CLI builds without a cache, and the tests then meet the hang.
export async function build(dir) {
  const r = await run(process.execPath, ['scripts/build.mjs'], { cwd: dir, timeoutMs: 10 * 60_000 });
  return r.outcome === 'passed' ? null : r.output;
}

/** vitest over `filters` (files or file:line), stopping at the first failure. */
export function runTests(dir, filters, { timeoutMs, bail = true, env } = {}) {
  const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [vitest, 'run', '--config', MUTATION_CONFIG, '--reporter', 'dot', ...(bail ? ['--bail', '1'] : []), ...filters];
  return run(process.execPath, args, { cwd: dir, timeoutMs, env: { ...process.env, CI: '', ...env } });
}
