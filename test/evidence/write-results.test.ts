// writeResults under attack, in-process but with real files, real directory swaps (mv, ln)
// and real concurrent writers: the swaps and edits happen exactly where they must (before
// the call, while it waits for the lock, while it holds the lock), through the callbacks the
// writer itself runs there, so that each check is proven on its own.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResults, type OracleCheck, type PendingWrite } from '../../lib/evidence/writeback.js';
import { captureDirectoryChain } from '../../lib/fsx/dir-chain.js';
import { acquireLock } from '../../lib/fsx/lock.js';
import type { Oracle } from '../../lib/oracle/oracle.js';
import { MAX_LEDGER_BYTES } from '../../lib/workspace/load.js';
import { tempDir } from '../helpers/cli.js';
import { isRoot } from '../helpers/limits.js';

const LEDGER = '- [ ] G1: one\n  CHECK: echo ok\n  EXPECT: ok\n\n- [ ] G2: two\n  CHECK: echo ok\n  EXPECT: ok\n';
const ORACLE = { fields: {}, signature: '0'.repeat(64) } as unknown as Oracle;
const pass = (id: string): PendingWrite => ({ gateId: id, oracle: ORACLE, edit: { id, checked: true, evidence: 'exit=0; sha256=x' } });
const unchanged: OracleCheck = async () => [];

function setup() {
  const base = tempDir();
  const root = join(base, 'repo');
  const outside = join(base, 'elsewhere');
  mkdirSync(join(root, 'gates'), { recursive: true });
  mkdirSync(join(outside, 'gates'), { recursive: true });
  const ledger = join(root, 'gates', 'work.md');
  writeFileSync(ledger, LEDGER);
  // Another repository's ledger at the same relative place, with the same gates.
  const foreign = join(outside, 'gates', 'work.md');
  writeFileSync(foreign, LEDGER);
  // Set back in time, so that any entry created (and removed) there would show in its mtime.
  utimesSync(join(outside, 'gates'), new Date(2001, 0, 1), new Date(2001, 0, 1));
  const outsideMtime = () => statSync(join(outside, 'gates')).mtimeMs;
  const before = outsideMtime();
  return {
    root,
    outside,
    ledger,
    foreign,
    directories: captureDirectoryChain(root, ledger),
    /** gates/ becomes a symlink to the other repository's gates/. */
    swapForLink: () => execFileSync('/bin/sh', ['-c', 'mv gates gates.orig && ln -s "$1/gates" gates', 'sh', outside], { cwd: root }),
    outsideUntouched: () => {
      expect(readFileSync(foreign, 'utf8')).toBe(LEDGER);
      expect(readdirSync(join(outside, 'gates'))).toEqual(['work.md']);
      expect(outsideMtime()).toBe(before);
    },
  };
}

describe('writeResults: the directories above the ledger are checked against the start of the run', () => {
  it('writes through an unchanged chain; beforeWrite gets the written ids before the ledger changes', async () => {
    const s = setup();
    const seen: string[][] = [];
    const outcome = await writeResults(s.ledger, [pass('G1'), pass('G2')], unchanged, {
      lockTimeoutMs: 1000,
      directories: s.directories,
      beforeWrite: (ids) => {
        seen.push([...ids]);
        expect(readFileSync(s.ledger, 'utf8')).toBe(LEDGER);
      },
    });
    expect(outcome.written).toEqual(['G1', 'G2']);
    expect(seen).toEqual([['G1', 'G2']]);
    expect(readFileSync(s.ledger, 'utf8')).toMatch(/^- \[x\] G1: one$/m);
  });

  it('gates/ swapped for a link before the write: refused before even the lock is created there', async () => {
    const s = setup();
    s.swapForLink();
    let called = false;
    const err = await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories, beforeWrite: () => (called = true) }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${join(s.root, 'gates')}: is a symbolic link (refused: gate-check writes only inside the repository)`);
    expect(called).toBe(false);
    s.outsideUntouched();
  });

  it('gates/ swapped while the writer waits for the lock: refused under the lock, before any receipt', async () => {
    const s = setup();
    const held = await acquireLock(`${s.ledger}.lock`, 1000);
    let called = false;
    const pending = writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 5000, directories: s.directories, beforeWrite: () => (called = true) }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    s.swapForLink(); // the held lock moves away with gates/: the writer now takes one through the link
    const err = await pending;
    held.release();
    expect((err as Error).message).toMatch(/repo\/gates: is a symbolic link/);
    expect(called).toBe(false);
    expect(readFileSync(s.foreign, 'utf8')).toBe(LEDGER);
  });

  it('gates/ moved out of the repository (ledger and all) and linked back while the lock is held: refused right before the rename', async () => {
    const s = setup();
    const moved = join(s.outside, 'moved');
    const check: OracleCheck = async () => {
      execFileSync('/bin/sh', ['-c', 'mv gates "$1" && ln -s "$1" gates', 'sh', moved], { cwd: s.root });
      return [];
    };
    const err = await writeResults(s.ledger, [pass('G1')], check, { lockTimeoutMs: 1000, directories: s.directories }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/repo\/gates: is a symbolic link/);
    // The file outside the repository (it is the ledger that was read) was not rewritten.
    expect(readFileSync(join(moved, 'work.md'), 'utf8')).toBe(LEDGER);
    expect(readdirSync(moved).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a scope directory replaced by another repository\'s real directory (moved in, not linked): refused by identity', async () => {
    const s = setup();
    execFileSync('/bin/sh', ['-c', 'mv gates gates.orig && mv "$1/gates" gates', 'sh', s.outside], { cwd: s.root });
    const err = await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${join(s.root, 'gates')}: was replaced by another directory since the run started (refused: nothing below it is written)`);
    expect(readFileSync(join(s.root, 'gates', 'work.md'), 'utf8')).toBe(LEDGER);
    expect(readdirSync(join(s.root, 'gates'))).toEqual(['work.md']);
  });

  it('the repository root itself replaced: refused', async () => {
    const s = setup();
    const parent = join(s.root, '..');
    execFileSync('/bin/sh', ['-c', 'mv repo repo.orig && mkdir -p repo/gates && cp repo.orig/gates/work.md repo/gates/'], { cwd: parent });
    const err = await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/repo: was replaced by another directory since the run started/);
  });
});

describe('writeResults: a ledger edited in place while the lock is held is never overwritten', () => {
  it('an append by a concurrent process during the stale checks is refused before any receipt, and kept', async () => {
    const s = setup();
    const check: OracleCheck = async () => {
      execFileSync('/bin/sh', ['-c', 'printf "a note\\n" >> "$1"', 'sh', s.ledger]);
      return [];
    };
    let called = false;
    const err = await writeResults(s.ledger, [pass('G1')], check, { lockTimeoutMs: 1000, directories: s.directories, beforeWrite: () => (called = true) }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${s.ledger}: was modified while gate-check was writing it (refused to overwrite the change; nothing was written)`);
    expect(called).toBe(false);
    expect(readFileSync(s.ledger, 'utf8')).toBe(LEDGER + 'a note\n');
  });

  it('an edit made while the receipts are written (after the last check before them) is still refused', async () => {
    const s = setup();
    const err = await writeResults(s.ledger, [pass('G1')], unchanged, {
      lockTimeoutMs: 1000,
      directories: s.directories,
      beforeWrite: () => execFileSync('/bin/sh', ['-c', 'printf "late\\n" >> "$1"', 'sh', s.ledger]),
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/was modified while gate-check was writing it/);
    expect(readFileSync(s.ledger, 'utf8')).toBe(LEDGER + 'late\n');
  });
});

describe('writeResults: what is written', () => {
  it('beforeWrite never sees a stale result; with only stale ones it sees none (failures are still recorded)', async () => {
    const s = setup();
    const staleG1: OracleCheck = async (_l, gate) => (gate.id === 'G1' ? ['DEPENDS: dep.sh changed'] : []);
    const seen: string[][] = [];
    const outcome = await writeResults(s.ledger, [pass('G1'), pass('G2')], staleG1, { lockTimeoutMs: 1000, directories: s.directories, beforeWrite: (ids) => seen.push([...ids]) });
    expect(outcome.stale.map((x) => x.gateId)).toEqual(['G1']);
    expect(seen).toEqual([['G2']]);
    const none = await writeResults(s.ledger, [pass('G1')], staleG1, { lockTimeoutMs: 1000, directories: s.directories, beforeWrite: (ids) => seen.push([...ids]) });
    expect(none.written).toEqual([]);
    expect(seen).toEqual([['G2'], []]);
  });

  it('a result that would grow the ledger past what every command reads is refused; nothing is written', async () => {
    const s = setup();
    const big = LEDGER + '\n' + 'x'.repeat(MAX_LEDGER_BYTES - LEDGER.length - 20) + '\n';
    writeFileSync(s.ledger, big);
    let called = false;
    const err = await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories, beforeWrite: () => (called = true) }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(new RegExp(`work\\.md: the results would make the ledger \\d+ bytes, over the ${MAX_LEDGER_BYTES} bytes every command reads`));
    expect(called).toBe(false);
    expect(readFileSync(s.ledger, 'utf8')).toBe(big);
  });

  it('drops setuid, setgid and sticky bits and keeps the other permission bits exactly', async () => {
    const s = setup();
    chmodSync(s.ledger, 0o7666);
    await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories });
    expect(statSync(s.ledger).mode & 0o7777).toBe(0o666);
  });

  it.skipIf(!isRoot)('keeps the owner and group of the ledger on a run as root', async () => {
    const s = setup();
    chownSync(s.ledger, 4242, 4343);
    await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories });
    expect(readFileSync(s.ledger, 'utf8')).toMatch(/^- \[x\] G1/m);
    expect(lstatSync(s.ledger)).toMatchObject({ uid: 4242, gid: 4343 });
  });

  it('removes temporary files of its own ledger and lock left by dead writers', async () => {
    const s = setup();
    const dir = join(s.root, 'gates');
    for (const n of ['.work.md.gate-check-999999-abababababab.tmp', '.work.md.lock.gate-check-999999-cdcdcdcdcdcd.tmp']) writeFileSync(join(dir, n), 'junk');
    await writeResults(s.ledger, [pass('G1')], unchanged, { lockTimeoutMs: 1000, directories: s.directories });
    expect(readdirSync(dir)).toEqual(['work.md']);
    expect(existsSync(`${s.ledger}.lock`)).toBe(false);
  });
});
