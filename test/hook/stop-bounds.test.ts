// The Stop hook answers in bounded time and memory, whatever the repository holds: a huge
// DEPENDS file, thousands of gates sharing thousands of files, more gates than memory, or
// hashing that cannot finish before the deadline. Real files (sparse where they are huge),
// the real CLI as a subprocess, wall-clock and heap limits measured from outside.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HOOK_DEADLINE_MS } from '../../lib/hook/deadline.js';
import { sha256Hex } from '../../lib/oracle/oracle.js';
import { BIN, runCli, sandbox, writeFiles, type CliResult } from '../helpers/cli.js';
import { expectBlock, outcome, stopInput } from '../helpers/stop-hook.js';
import { snapshotTree } from '../helpers/tree.js';
import { defOf } from '../helpers/ledger.js';

const defs = new Map<string, string>();

/**
 * A ticked gate with hand-written evidence naming its definition (the definition leaves out
 * the id, so it is computed once per DEPENDS): verification resolves (and hashes) its DEPENDS.
 */
function ticked(id: string, depends: string): string {
  const body = `- [x] ${id}: t\n  CHECK: echo ok\n  EXPECT: ok\n  DEPENDS: ${depends}\n`;
  let def = defs.get(depends);
  if (def === undefined) defs.set(depends, (def = defOf(body, id)));
  return `${body}  EVIDENCE: exit=0; def=${def}; match=${'0'.repeat(12)}; receipt=${'0'.repeat(12)}\n`;
}

/** A sandbox removed right after the test (`onTestFinished`), while its many files are still cached: removing them later, after other tests evicted them, took minutes. */
function bigSandbox(): ReturnType<typeof sandbox> {
  const s = sandbox();
  onTestFinished(() => rmSync(dirname(s.repo), { recursive: true, force: true }));
  return s;
}

function sparse(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** Runs the hook with extra node flags and environment, timing it from outside. */
function timedHook(s: ReturnType<typeof sandbox>, opts: { nodeFlags?: string[]; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): { r: CliResult; ms: number } {
  const t0 = Date.now();
  const p = spawnSync(process.execPath, [...(opts.nodeFlags ?? []), BIN, 'hook', 'claude-stop'], {
    cwd: s.repo,
    env: { ...s.env, ...opts.env },
    input: stopInput(s.repo, 'bounds'),
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const ms = Date.now() - t0;
  if (p.error) throw p.error;
  return { r: { code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr }, ms };
}

/**
 * The hook, at a 0.3 s deadline, answers "incomplete" well before --status has parsed the
 * repository's one slow ledger (timed here on the same machine), so the deadline was kept
 * inside that parse.
 */
function expectDeadlineInParse(s: ReturnType<typeof sandbox>): void {
    const t0 = Date.now();
    runCli(['--status'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    const parseMs = Date.now() - t0;
    const { r, ms } = timedHook(s, { env: { GATE_CHECK_HOOK_DEADLINE_MS: '300' } });
    expect(expectBlock(outcome(r))).toMatch(/^gate-check: verification was incomplete: the Stop hook's 0\.3 s limit ran out/);
    expect(ms, `the hook took ${ms} ms; --status parses this ledger in ${parseMs} ms`).toBeLessThan(Math.max(1_200, parseMs * 0.6));
}

describe('a size cap on what DEPENDS may hash', () => {
  it('a 64 GiB (sparse) DEPENDS file makes its gate stale with a reason, at once', () => {
    const s = sandbox();
    sparse(join(s.repo, 'blob.bin'), 64 * 2 ** 30);
    writeFileSync(join(s.repo, 'GATES.md'), ticked('A', 'blob.bin'));
    const { r, ms } = timedHook(s, { timeoutMs: 20_000 });
    expect(expectBlock(outcome(r))).toContain('GATES:A (stale: DEPENDS cannot be read: DEPENDS of GATES:A: blob.bin: is 64 GiB, over the 64 MiB limit for a DEPENDS or INPUTS file (refused))');
    expect(ms).toBeLessThan(5_000);
    // --status says the same, and so does a run (which refuses to run what it cannot bind).
    const status = runCli(['--status', '--strict'], { cwd: s.repo, env: s.env });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain('over the 64 MiB limit for a DEPENDS or INPUTS file');
  });

  it('a file just over the cap is refused; one at the cap is hashed', () => {
    const s = sandbox();
    sparse(join(s.repo, 'over.bin'), 64 * 2 ** 20 + 1);
    sparse(join(s.repo, 'at.bin'), 64 * 2 ** 20);
    writeFileSync(join(s.repo, 'GATES.md'), ticked('A', 'over.bin') + ticked('B', 'at.bin'));
    const reason = expectBlock(outcome(timedHook(s).r));
    expect(reason).toContain('GATES:A (stale: DEPENDS cannot be read: DEPENDS of GATES:A: over.bin: is 64.0 MiB (67108865 bytes), over the 64 MiB limit');
    // B was hashed: its hand-written evidence has no deps=, so DEPENDS "changed".
    expect(reason).toContain('GATES:B (stale: DEPENDS changed: the matched files or their contents)');
  });
});

describe('hash what is needed only once', () => {
  it('5,000 ticked gates sharing DEPENDS: d/* over 2,000 files answer in well under the deadline', () => {
    const s = bigSandbox();
    mkdirSync(join(s.repo, 'd'));
    for (let i = 0; i < 2000; i++) writeFileSync(join(s.repo, 'd', `f${i}.txt`), `file ${i}\n`);
    let ledger = '';
    for (let i = 1; i <= 5000; i++) ledger += ticked(`G${i}`, 'd/*');
    writeFileSync(join(s.repo, 'GATES.md'), ledger);
    const { r, ms } = timedHook(s);
    // Every gate was verified (no "incomplete"), each one stale for lack of deps=.
    expect(expectBlock(outcome(r))).toMatch(/^gate-check: 5000 gates are not met: GATES:G1 \(stale: DEPENDS changed: the matched files or their contents\);/);
    expect(ms).toBeLessThan(5_000); // 8.5 s before the lists were shared
  });

  it('88,000 such gates are all verified within the deadline in a 640 MiB heap', () => {
    const s = bigSandbox();
    mkdirSync(join(s.repo, 'd'));
    mkdirSync(join(s.repo, 'gates'));
    for (let i = 0; i < 2000; i++) writeFileSync(join(s.repo, 'd', `f${i}.txt`), `file ${i}\n`);
    for (let f = 0; f < 11; f++) {
      let ledger = '';
      for (let i = 1; i <= 8000; i++) ledger += ticked(`G${i}`, 'd/*');
      writeFileSync(join(s.repo, 'gates', `part${f}.md`), ledger);
    }
    const { r, ms } = timedHook(s, { nodeFlags: ['--max-old-space-size=640'], timeoutMs: 60_000 });
    expect(expectBlock(outcome(r))).toMatch(/^gate-check: 88000 gates are not met: part0:G1 \(stale: DEPENDS changed/);
    expect(ms).toBeLessThan(HOOK_DEADLINE_MS + 2_000);
  }, 60_000);

  it('gates whose DEPENDS lists all differ cannot exhaust memory: lists past the memo bound are dropped, verification stops at a budget and blocks', () => {
    const s = bigSandbox();
    mkdirSync(join(s.repo, 'd'));
    mkdirSync(join(s.repo, 'e'));
    for (let i = 0; i < 4000; i++) writeFileSync(join(s.repo, 'd', `f${i}.txt`), `file ${i}\n`);
    let ledger = '';
    for (let i = 1; i <= 20_000; i++) {
      writeFileSync(join(s.repo, 'e', `f${i}.txt`), 'x');
      ledger += ticked(`G${i}`, `d/*, e/f${i}.txt`); // 20,000 lists of 4,001 entries each: gigabytes
    }
    writeFileSync(join(s.repo, 'GATES.md'), ledger);
    const { r, ms } = timedHook(s, { nodeFlags: ['--max-old-space-size=192'], timeoutMs: 60_000 });
    // Kept, these lists held 0.8 MB per gate with their JSON and aborted Node in CI; dropped, the
    // heap holds garbage, and the heap or the time budget ends verification (which one depends on GC timing).
    expect(expectBlock(outcome(r))).toMatch(
      /^gate-check: verification was incomplete: the Stop hook's (memory limit \(\d+ MiB of heap\)|10 s limit) ran out after checking \d+ of 20000 met gates, and a gate that is not verified is not met\./,
    );
    expect(ms).toBeLessThan(HOOK_DEADLINE_MS + 2_000);
  }, 60_000);
});

describe('a fixed deadline, even while hashing runs', () => {
  /**
   * One ticked gate whose DEPENDS are `n` names of one sparse 60 MiB file (hard links: the
   * hashing costs seconds of CPU, the page cache holds 60 MiB, not gigabytes).
   */
  function slowRepo(n: number) {
    const s = bigSandbox();
    mkdirSync(join(s.repo, 'big'));
    sparse(join(s.repo, 'big', 'f000.bin'), 60 * 2 ** 20);
    for (let i = 1; i < n; i++) linkSync(join(s.repo, 'big', 'f000.bin'), join(s.repo, 'big', `f${String(i).padStart(3, '0')}.bin`));
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] U: still open\n' + ticked('A', 'big/*'));
    return s;
  }

  it('answers "block: verification was incomplete" at the deadline (lowered to 1.5 s here), naming what it knows', () => {
    const s = slowRepo(120); // 7 GiB to hash
    const { r, ms } = timedHook(s, { env: { GATE_CHECK_HOOK_DEADLINE_MS: '1500' } });
    const reason = expectBlock(outcome(r));
    expect(reason).toMatch(/^gate-check: verification was incomplete: the Stop hook's 1\.5 s limit ran out after checking [01] of 1 met gate, and a gate that is not verified is not met\. Not met so far: GATES:U \(unchecked\)\. Run `gate-check --status --strict`/);
    expect(ms).toBeLessThan(1500 + 1500);
  });

  it('a deadline that runs out while the ledgers are still being read is an incomplete verdict too', () => {
    const s = bigSandbox();
    let ledger = '';
    for (let i = 1; i <= 8000; i++) ledger += `- [ ] G${i}: open\n  CHECK: echo ok\n  EXPECT: ok\n`;
    for (let f = 0; f < 60; f++) { // 480,000 gates: seconds of parsing
      writeFiles(s.repo, { [`.gate-check/scope${String(f).padStart(2, '0')}/part.md`]: ledger });
    }
    const { r, ms } = timedHook(s, { env: { GATE_CHECK_HOOK_DEADLINE_MS: '400' } });
    expect(expectBlock(outcome(r))).toMatch(/^gate-check: verification was incomplete: the Stop hook's 0\.4 s limit ran out after checking 0 of 0 met gates/);
    expect(ms).toBeLessThan(2_500);
  });

  // Found by an attack: the deadline was looked at only between files, and one file at the
  // 8 MiB limit took 20 s to parse (DEPENDS lines of 256 patterns each).
  it('the deadline is kept inside the parse of one file, and a ledger whose braces expand past the bound is refused quickly', () => {
    const s = bigSandbox();
    const patterns = Array.from({ length: 256 }, (_, k) => `d${k}/f`).join(',');
    const gate = (i: number) => `- [ ] Z${i}: t\n  DEPENDS: ${patterns}\n`;
    let slow = '';
    for (let i = 0; slow.length < 8 * 2 ** 20 - 2_000; i++) slow += gate(i);
    writeFiles(s.repo, { 'GATES.md': slow });
    expectDeadlineInParse(s);

    // {1..64} four times: 256 alternatives a line, each checked as a path. Past 262,144 in one ledger: refused.
    let braces = '';
    for (let i = 0; braces.length < 2 * 2 ** 20; i++) braces += `- [ ] Z${i}: t\n  DEPENDS: {1..64},{1..64}/a,{1..64}/b,{1..64}/c\n`;
    writeFiles(s.repo, { 'GATES.md': braces });
    const status = runCli(['--status'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/^error: GATES\.md:2050: DEPENDS: brace expansion of this ledger's patterns gives more than 262144 patterns in all, which is what one ledger may hold \(refused\)/m);
    // Exactly at the bound (1,024 such lines): parsed.
    writeFiles(s.repo, { 'GATES.md': braces.split('\n').slice(0, 2 * 1024).join('\n') + '\n' });
    expect(runCli(['--status'], { cwd: s.repo, env: s.env }).stderr).not.toMatch(/brace expansion/);
  }, 60_000);

  it('the deadline is kept in the parse of one file of many lines (760,000 warnings under one gate)', () => {
    const s = bigSandbox();
    const line = '  RETRY: 1\n';
    writeFiles(s.repo, { 'GATES.md': '- [x] G1: done\n  EVIDENCE: exit=0\n' + line.repeat(Math.floor((8 * 2 ** 20 - 100) / line.length)) });
    expectDeadlineInParse(s);
  }, 60_000);

  it('the default deadline holds: 18 GiB to hash, an answer within 10 s', () => {
    const s = slowRepo(300);
    const { r, ms } = timedHook(s, { timeoutMs: 40_000 });
    expect(expectBlock(outcome(r))).toMatch(/^gate-check: verification was incomplete: the Stop hook's 10 s limit ran out/);
    expect(ms).toBeLessThan(HOOK_DEADLINE_MS + 1_000);
    expect(ms).toBeGreaterThan(HOOK_DEADLINE_MS - 2_500);
  }, 60_000);

  it('an incomplete verdict is counted like any block, and released after six stops without progress', () => {
    const s = slowRepo(40); // 2.3 GiB: more than a second of hashing
    const env = { GATE_CHECK_HOOK_DEADLINE_MS: '1000' };
    for (let i = 0; i < 6; i++) expect(expectBlock(outcome(timedHook(s, { env }).r))).toMatch(/verification was incomplete/);
    const released = outcome(timedHook(s, { env }).r);
    expect(released).toEqual({ kind: 'message', message: expect.stringMatching(/^gate-check: released: verification was incomplete \(the Stop hook's 1 s limit ran out\)/) });
  });

  it('however far each incomplete pass got, it is the same lack of progress (a loaded machine put the release off)', () => {
    // A 1 ms deadline runs out before any ledger is read, a 1 s one while hashing: on a CI
    // machine under load the two happened in one session, and the count started again.
    const s = slowRepo(40);
    for (const ms of ['1000', '1', '1000', '1', '1000', '1']) {
      expect(expectBlock(outcome(timedHook(s, { env: { GATE_CHECK_HOOK_DEADLINE_MS: ms } }).r))).toMatch(/verification was incomplete/);
    }
    const released = outcome(timedHook(s, { env: { GATE_CHECK_HOOK_DEADLINE_MS: '1' } }).r);
    expect(released).toEqual({ kind: 'message', message: expect.stringMatching(/^gate-check: released: verification was incomplete/) });
  });

  it('GATE_CHECK_HOOK_DEADLINE_MS cannot lengthen the deadline', () => {
    const s = slowRepo(300);
    const { r, ms } = timedHook(s, { env: { GATE_CHECK_HOOK_DEADLINE_MS: '600000' }, timeoutMs: 40_000 });
    expect(expectBlock(outcome(r))).toMatch(/the Stop hook's 10 s limit ran out/);
    expect(ms).toBeLessThan(HOOK_DEADLINE_MS + 1_000);
  }, 60_000);
});

// Found by an attack: ten ledgers just under the per-file limit kept the hook busy for 77 s,
// long after the host stopped waiting (and let the agent stop).
describe('a budget on the ledger bytes one call reads', () => {
  it('ledgers over 16 MiB together block at once, naming the budget; --status stops at 32 MiB (exit 2)', () => {
    const s = bigSandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the real work\n  CHECK: node verify.mjs\n  EXPECT: verified\n' });
    mkdirSync(join(s.repo, 'gates'));
    // Read whole, they count; NUL bytes keep each file's parse short for the test.
    for (const n of ['a', 'b', 'c']) sparse(join(s.repo, 'gates', `pad-${n}.md`), 8 * 1024 * 1024 - 4096);
    const { r, ms } = timedHook(s);
    expect(expectBlock(outcome(r))).toMatch(/cannot read the gates \(.*pad-c\.md: the ledgers read so far hold more than 16777216 bytes together/);
    expect(ms).toBeLessThan(5_000);
    for (const n of ['d', 'e']) sparse(join(s.repo, 'gates', `pad-${n}.md`), 8 * 1024 * 1024 - 4096);
    const st = runCli(['--status'], { cwd: s.repo, env: s.env });
    expect(st.code).toBe(2);
    expect(st.stderr).toMatch(/pad-e\.md: the ledgers read so far hold more than 33554432 bytes together/);
  });
});

describe('the stat cache in the private store', () => {
  const BIG = 300 * 1024; // over PERSIST_MIN_BYTES

  /** A gate that passed for real, whose DEPENDS file is large and settled (mtime and ctime 3 s old). */
  async function settled() {
    const s = sandbox();
    writeFileSync(join(s.repo, 'big.txt'), 'ok\n' + 'x'.repeat(BIG));
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n  CHECK: head -c 2 big.txt\n  EXPECT: ok\n  DEPENDS: big.txt\n');
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    await new Promise((r) => setTimeout(r, 3_300)); // past the racy-clean margin
    return s;
  }
  const cacheDir = (s: { home: string }) => join(s.home, '.gate-check', 'stat-cache');

  it('a fresh file is not remembered (racy clean); a settled one is, and --status never writes the cache', async () => {
    const fresh = sandbox();
    writeFileSync(join(fresh.repo, 'big.txt'), 'ok\n' + 'x'.repeat(BIG));
    writeFileSync(join(fresh.repo, 'GATES.md'), '- [ ] A: t\n  CHECK: head -c 2 big.txt\n  EXPECT: ok\n  DEPENDS: big.txt\n');
    expect(runCli(['--approve'], { cwd: fresh.repo, env: fresh.env }).code).toBe(0);
    expect(outcome(timedHook(fresh).r)).toEqual({ kind: 'allow' });
    expect(() => readdirSync(cacheDir(fresh))).toThrow(); // nothing settled, nothing saved

    const s = await settled();
    const before = snapshotTree(s.home);
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(snapshotTree(s.home)).toEqual(before);
    expect(outcome(timedHook(s).r)).toEqual({ kind: 'allow' });
    const files = readdirSync(cacheDir(s));
    expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{16}\.json$/)]);
    const saved = JSON.parse(readFileSync(join(cacheDir(s), files[0]!), 'utf8')) as { root: string; entries: unknown[][] };
    expect(saved.root).toBe(s.repo);
    expect(saved.entries).toHaveLength(1);
    expect(saved.entries[0]![0]).toBe('big.txt');
  });

  it('the saved entry is what is trusted while the stat is unchanged; an edit that keeps size and mtime is still seen', async () => {
    const s = await settled();
    expect(outcome(timedHook(s).r)).toEqual({ kind: 'allow' });
    const [file] = readdirSync(cacheDir(s));
    const path = join(cacheDir(s), file!);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { root: string; entries: Array<[string, number, number, number, number, number, string]> };

    // A forged digest under the file's real stat is believed (same-user boundary, SECURITY.md):
    // proof that the cache, not a fresh read, answered.
    const forged = { ...saved, entries: [[...saved.entries[0]!.slice(0, 6), 'f'.repeat(64)]] };
    writeFileSync(path, JSON.stringify(forged), { mode: 0o600 });
    expect(expectBlock(outcome(timedHook(s).r))).toContain('GATES:A (stale: DEPENDS changed');
    writeFileSync(path, JSON.stringify(saved), { mode: 0o600 });
    expect(outcome(timedHook(s).r)).toEqual({ kind: 'allow' });

    // Same size, mtime put back: ctime moved, so the entry no longer matches and the edit is seen.
    const p = join(s.repo, 'big.txt');
    const old = readFileSync(p, 'utf8');
    const { mtimeNs } = statSync(p, { bigint: true });
    writeFileSync(p, 'no' + old.slice(2));
    execFileSync('touch', ['-m', '-d', `@${mtimeNs / 1_000_000_000n}.${String(mtimeNs % 1_000_000_000n).padStart(9, '0')}`, p]);
    expect(statSync(p, { bigint: true }).mtimeNs).toBe(mtimeNs);
    expect(expectBlock(outcome(timedHook(s).r))).toContain('GATES:A (stale: DEPENDS changed: big.txt)');
  });

  it('a malformed or foreign cache file is ignored, never trusted and never fatal', async () => {
    const s = await settled();
    expect(outcome(timedHook(s).r)).toEqual({ kind: 'allow' });
    const [file] = readdirSync(cacheDir(s));
    const path = join(cacheDir(s), file!);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { root: string; entries: unknown[][] };
    // Each variant carries a forged digest under big.txt's real stat: trusting it would make A stale.
    const forged = [...saved.entries[0]!.slice(0, 6), 'f'.repeat(64)];
    const variants = [
      { root: '/elsewhere', entries: [forged] },
      { root: s.repo, entries: [forged], extra: 1 },
      { root: s.repo, entries: [[...forged, 'x']] },
      { root: s.repo, entries: [[...forged.slice(0, 6), 'F'.repeat(64)]] },
      { root: s.repo, entries: [['../repo/big.txt', ...forged.slice(1)]] },
      { root: s.repo, entries: [['other.txt', -1, 0, 0, 0, 0, 'f'.repeat(64)], forged] },
    ];
    for (const doc of variants) {
      writeFileSync(path, JSON.stringify(doc), { mode: 0o600 });
      expect(outcome(timedHook(s).r)).toEqual({ kind: 'allow' });
    }
    writeFileSync(path, 'not json', { mode: 0o600 });
    expect(outcome(timedHook(s).r)).toEqual({ kind: 'allow' });
  });
});

describe('nothing the hook waits for outlasts the deadline', () => {
  it('a host that never closes stdin: the hook answers from what arrived', async () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: open\n');
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-stop'], { cwd: s.repo, env: s.env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write(stopInput(s.repo, 'open-stdin'));
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const t0 = Date.now();
    const code = await new Promise<number | null>((res) => child.on('close', res));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(6_000);
    expect(JSON.parse(stdout)).toEqual({ decision: 'block', reason: expect.stringMatching(/^gate-check: 1 gate is not met: GATES:A /) });
  });

  it('a non-blocking stdin whose payload comes late is waited for; a closed stdin is refused at once', async () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: open\n');
    // python3 sets O_NONBLOCK on the pipe (a host may share one so), then execs the CLI.
    const nonBlocking = `import fcntl, os, sys\nfcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)\nos.execv(sys.argv[1], sys.argv[1:])`;
    const child = spawn('python3', ['-c', nonBlocking, process.execPath, BIN, 'hook', 'claude-stop'], { cwd: s.repo, env: s.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const closed = new Promise<number | null>((res) => child.on('close', res));
    const input = stopInput(s.repo, 'late');
    setTimeout(() => child.stdin.write(input.slice(0, 20)), 300);
    setTimeout(() => child.stdin.end(input.slice(20)), 600);
    expect(await closed).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ decision: 'block', reason: expect.stringMatching(/^gate-check: 1 gate is not met: GATES:A /) });

    // A terminal on stdin that nobody types into (someone runs the hook by hand): the wait
    // ends, the hook answers and exits. (Reading descriptor 0 on the thread pool hung here.)
    // script's own stdin stays open (never ended), so the terminal never sees an end of file.
    const tty = spawn('script', ['-qec', `"${process.execPath}" "${BIN}" hook claude-stop; echo "exit=$?"`, '/dev/null'], { cwd: s.repo, env: s.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let ttyOut = '';
    tty.stdout.setEncoding('utf8').on('data', (d: string) => (ttyOut += d));
    const t1 = Date.now();
    for (let i = 0; i < 200 && !ttyOut.includes('exit='); i++) await new Promise((r) => setTimeout(r, 50));
    tty.kill('SIGKILL');
    expect(Date.now() - t1).toBeGreaterThanOrEqual(1_900);
    expect(ttyOut).toMatch(/the hook input is empty \(no JSON on stdin\)[^]*exit=0/);

    const t0 = Date.now();
    const p = spawnSync('sh', ['-c', `exec "$@" 0<&-`, 'sh', process.execPath, BIN, 'hook', 'claude-stop'], { cwd: s.repo, env: s.env, encoding: 'utf8', timeout: 20_000 });
    expect(Date.now() - t0).toBeLessThan(1_500);
    expect(p.status).toBe(0);
    expect(expectBlock(outcome({ code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr }))).toMatch(/the hook input is not a Claude Code stop event: the hook input is empty \(no JSON on stdin\)/);
  });

  it('a counter lock left by a dead process is waited for only until the deadline', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: open\n');
    const session = 'locked';
    expectBlock(outcome(timedHook(s).r)); // creates the store
    const hooks = join(s.home, '.gate-check', 'hooks');
    const name = `${sha256Hex(s.repo).slice(0, 16)}-${sha256Hex(session).slice(0, 16)}.json.lock`;
    writeFileSync(join(hooks, name), JSON.stringify({ pid: 999_999_999, token: 'x' }) + '\n', { mode: 0o600 });
    const t0 = Date.now();
    const p = spawnSync(process.execPath, [BIN, 'hook', 'claude-stop'], {
      cwd: s.repo,
      env: { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '120000', GATE_CHECK_HOOK_DEADLINE_MS: '2000' },
      input: stopInput(s.repo, session),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(Date.now() - t0).toBeLessThan(4_000);
    const reason = expectBlock(outcome({ code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr }));
    expect(reason).toMatch(/^gate-check: the Stop hook could not check the gates \(.*lock/);
  });
});
