// The stat cache: a digest is reused only while device, inode, size, mtime and ctime all
// match, and only for files that had settled (racy clean) and did not change while read.
// Real files; the clock is moved forward instead of sleeping past the racy margin.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, lstatSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashWithCache, RACY_MARGIN_MS, StatCache } from '../../lib/fsx/stat-cache.js';
import { tempDir } from '../helpers/cli.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** Sets a file's mtime to exactly (nanoseconds) what it was, as an attacker would. */
function restoreMtime(path: string, mtimeNs: bigint): void {
  execFileSync('touch', ['-m', '-d', `@${mtimeNs / 1_000_000_000n}.${String(mtimeNs % 1_000_000_000n).padStart(9, '0')}`, path]);
}

const later = () => Date.now() + RACY_MARGIN_MS + 1000; // as if hashing happened once the file had settled

describe('hashWithCache', () => {
  it('remembers a settled file and answers from the cache while nothing changed', () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, 'one');
    const cache = new StatCache();
    expect(hashWithCache(cache, p, 'f', {}, later)).toBe(sha('one'));
    expect(cache.get(p)?.sha256).toBe(sha('one'));
    // Proof that the cache answers: a forged digest under the same stat is returned.
    cache.load(p, { ...cache.get(p)!, sha256: 'f'.repeat(64) });
    expect(hashWithCache(cache, p, 'f', {}, later)).toBe('f'.repeat(64));
  });

  it('does not remember a file whose mtime or ctime is within the racy margin of now', () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, 'one');
    const cache = new StatCache();
    expect(hashWithCache(cache, p, 'f')).toBe(sha('one'));
    expect(cache.get(p)).toBeUndefined();
    // A file dated in the future is not settled either.
    const future = new Date(Date.now() + 60_000);
    utimesSync(p, future, future);
    hashWithCache(cache, p, 'f', {}, later);
    expect(cache.get(p)).toBeUndefined();
  });

  it('an edit that keeps the size and puts the mtime back is seen (ctime moved)', async () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, 'one');
    const cache = new StatCache();
    hashWithCache(cache, p, 'f', {}, later);
    const before = statSync(p, { bigint: true });
    await new Promise((r) => setTimeout(r, 20)); // a new timestamp tick for the ctime
    writeFileSync(p, 'two');
    restoreMtime(p, before.mtimeNs);
    expect(statSync(p, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    expect(statSync(p, { bigint: true }).ctimeNs).not.toBe(before.ctimeNs);
    expect(hashWithCache(cache, p, 'f', {}, later)).toBe(sha('two'));
  });

  it('a file replaced by another (rename over it, same size and times) is seen (inode moved)', () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, 'one');
    const cache = new StatCache();
    hashWithCache(cache, p, 'f', {}, later);
    const st = statSync(p, { bigint: true });
    writeFileSync(join(d, 'g'), 'two');
    restoreMtime(join(d, 'g'), st.mtimeNs);
    renameSync(join(d, 'g'), p);
    expect(hashWithCache(cache, p, 'f', {}, later)).toBe(sha('two'));
  });

  it('a file that changed while it was read is remembered under its old stat, which no longer matches: it is read again', () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, Buffer.alloc(200_000, 1));
    utimesSync(p, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const cache = new StatCache();
    let once = false;
    // Settled by the real clock (ctime is now, so "later" stands in for a file aged 4 s).
    hashWithCache(cache, p, 'f', { checkpoint: () => (once ? undefined : ((once = true), appendFileSync(p, 'y'))) }, later);
    const now = Buffer.concat([Buffer.alloc(200_000, 1), Buffer.from('y')]);
    expect(hashWithCache(cache, p, 'f', {}, later)).toBe(createHash('sha256').update(now).digest('hex'));
  });

  it('an entry that differs from the file in any one of device, inode, size, mtime, ctime is not used', () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, 'one');
    const st = lstatSync(p);
    const exact = { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, sha256: 'f'.repeat(64) };
    const cache = new StatCache();
    cache.load(p, exact);
    expect(hashWithCache(cache, p, 'f', {}, later)).toBe('f'.repeat(64));
    for (const key of ['dev', 'ino', 'size', 'mtimeMs', 'ctimeMs'] as const) {
      cache.load(p, { ...exact, [key]: exact[key] + 1 });
      expect(hashWithCache(cache, p, 'f', {}, later)).toBe(sha('one'));
    }
  });

  it('refuses a link or a non-regular file, and a file over the cap, even when an entry exists', () => {
    const d = tempDir();
    const p = join(d, 'f');
    writeFileSync(p, 'x'.repeat(100));
    const cache = new StatCache();
    hashWithCache(cache, p, 'f', {}, later);
    expect(() => hashWithCache(cache, p, 'f', { maxBytes: 10 }, later)).toThrow(/over the 10 bytes limit/);
    symlinkSync(p, join(d, 'link'));
    cache.load(join(d, 'link'), { ...cache.get(p)! });
    expect(() => hashWithCache(cache, join(d, 'link'), 'link', {}, later)).toThrow(/symbolic link/);
    const dst = lstatSync(d);
    cache.load(d, { dev: dst.dev, ino: dst.ino, size: dst.size, mtimeMs: dst.mtimeMs, ctimeMs: dst.ctimeMs, sha256: 'a'.repeat(64) });
    expect(() => hashWithCache(cache, d, 'dir', {}, later)).toThrow(/not a regular file/);
    expect(() => hashWithCache(cache, join(d, 'missing'), 'missing', {}, later)).toThrow(/missing: cannot read \(ENOENT\)/);
  });
});
