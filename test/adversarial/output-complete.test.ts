// Output is complete (issue 9 §5): gate-check never exits with output pending. Every output
// format, several pipe buffers long, read by a reader that starts only after a second: the
// bytes received equal those written to a file, and the exit code is kept.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { approveOnTerminal } from '../helpers/process.js';

const PIPE_BUFFER = 65_536;
// Long titles make every line long: each format then spans more than a pipe buffer. The
// read-only formats need no run (1000 gates); the run and merge formats need one (400).
const title = (i: number) => `gate number ${i} ${'with a long title '.repeat(10)}`;
const ledgerOf = (n: number) => Array.from({ length: n }, (_, i) => `- [ ] G${i}: ${title(i)}\n  CHECK: exit 1\n  EXPECT: ok\n`).join('');

let readOnly: ReturnType<typeof sandbox>;
let ran: ReturnType<typeof sandbox>;
beforeAll(async () => {
  readOnly = sandbox();
  writeFiles(readOnly.repo, { 'GATES.md': ledgerOf(1600) });
  ran = sandbox();
  writeFiles(ran.repo, { 'GATES.md': ledgerOf(400) });
  // Approve every gate (each fails) as a person does, then keep a shard report for merge.
  expect((await approveOnTerminal([process.execPath, BIN, '--approve', '--jobs', '4'], { cwd: ran.repo, env: ran.env })).code).toBe(1);
  const r = runCli(['--jobs', '4', '--shard', '1/1', '--json'], { cwd: ran.repo, env: ran.env, timeoutMs: 120_000 });
  expect(r.code, r.stderr).toBe(1);
  writeFiles(ran.repo, { 'report-1.json': r.stdout });
}, 150_000);

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** The command's stdout as a file receives it, and as a reader that waits a second before reading receives it. */
function bothWays(s: ReturnType<typeof sandbox>, args: string[]) {
  const cmd = [process.execPath, BIN, ...args].map(quote).join(' ');
  const direct = spawnSync('sh', ['-c', `${cmd} > direct.out 2>/dev/null`], { cwd: s.repo, env: s.env, timeout: 60_000 });
  const slow = spawnSync('sh', ['-c', `{ ${cmd} 2>/dev/null; echo $? > slow.code; } | (sleep 1; cat > slow.out)`], { cwd: s.repo, env: s.env, timeout: 60_000 });
  expect(slow.status).toBe(0);
  return {
    directCode: direct.status,
    slowCode: Number(readFileSync(join(s.repo, 'slow.code'), 'utf8')),
    direct: readFileSync(join(s.repo, 'direct.out')),
    slow: readFileSync(join(s.repo, 'slow.out')),
  };
}

describe('a slow reader receives every byte, and the exit code is kept', () => {
  const formats: [string, 'readOnly' | 'ran', string[], number][] = [
    ['--status (text)', 'readOnly', ['--status'], 1],
    ['--status --json', 'readOnly', ['--status', '--json'], 1],
    ['lint --json', 'readOnly', ['lint', '--json'], 0],
    ['approvals list', 'readOnly', ['approvals', 'list'], 0],
    ['approvals list --json', 'readOnly', ['approvals', 'list', '--json'], 0],
    ['a run (text)', 'ran', ['--reverify', '--jobs', '4'], 1],
    ['merge (text)', 'ran', ['merge', '--shards', '1', 'report-1.json'], 1],
    ['merge --json', 'ran', ['merge', '--shards', '1', 'report-1.json', '--json'], 1],
  ];
  it.each(formats)('%s', (_, where, args, code) => {
    const r = bothWays(where === 'ran' ? ran : readOnly, args);
    expect(r.direct.length, 'the output must be larger than a pipe buffer for this test to mean anything').toBeGreaterThan(PIPE_BUFFER + 4096);
    expect(r.directCode).toBe(code);
    expect(r.slowCode).toBe(code);
    if (args.includes('--reverify')) {
      // A run's lines carry durations: compare the shape, line by line.
      const norm = (b: Buffer) => b.toString('utf8').replace(/\(\d+ ms\)/g, '(# ms)').replace(/"durationMs": \d+/g, '"durationMs": #');
      expect(norm(r.slow)).toBe(norm(r.direct));
    } else {
      expect(r.slow.length).toBe(r.direct.length);
      expect(r.slow.equals(r.direct)).toBe(true);
    }
    if (args.includes('--json')) JSON.parse(r.slow.toString('utf8'));
  }, 60_000);
});
