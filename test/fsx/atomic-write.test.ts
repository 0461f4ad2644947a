// atomicWriteFile: each refusal, and that nothing partial or temporary is left behind.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicWriteFile, checkUnchanged } from '../../lib/fsx/atomic-write.js';
import { safeReadFile } from '../../lib/fsx/safe-read.js';
import { fsyncFault } from '../../lib/fsx/sync.js';
import { UnsafeFileError } from '../../lib/errors.js';
import { tempDir } from '../helpers/cli.js';
import { isRoot } from '../helpers/limits.js';

const noTemps = (d: string) => expect(readdirSync(d).filter((f) => f.endsWith('.tmp'))).toEqual([]);

describe('atomicWriteFile', () => {
  it('replaces a file with the given mode, keeping no temporary file', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'old');
    atomicWriteFile(f, 'new', { mode: 0o640 });
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    noTemps(d);
  });

  it('refuses to write through a symlink, leaving its target alone', () => {
    const d = tempDir();
    writeFileSync(join(d, 'target'), 'keep');
    symlinkSync(join(d, 'target'), join(d, 'a.md'));
    expect(() => atomicWriteFile(join(d, 'a.md'), 'x', { mode: 0o644 })).toThrow(/symbolic link/);
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('keep');
    noTemps(d);
  });

  it('refuses a file with a second hard link', () => {
    const d = tempDir();
    writeFileSync(join(d, 'a.md'), 'keep');
    linkSync(join(d, 'a.md'), join(d, 'b.md'));
    expect(() => atomicWriteFile(join(d, 'a.md'), 'x', { mode: 0o644 })).toThrow(/2 hard links/);
    expect(readFileSync(join(d, 'b.md'), 'utf8')).toBe('keep');
  });

  it('refuses when the file is no longer the one that was read (identity check)', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'first');
    const st = statSync(f);
    writeFileSync(join(d, 'other'), 'swapped in');
    renameSync(join(d, 'other'), f);
    expect(() => atomicWriteFile(f, 'x', { mode: 0o644, expect: { dev: st.dev, ino: st.ino } })).toThrow(/replaced by another file/);
    expect(readFileSync(f, 'utf8')).toBe('swapped in');
    noTemps(d);
  });

  it('creates only with create, and refuses a missing target otherwise', () => {
    const d = tempDir();
    expect(() => atomicWriteFile(join(d, 'new.md'), 'x', { mode: 0o644 })).toThrow(UnsafeFileError);
    atomicWriteFile(join(d, 'new.md'), 'x', { mode: 0o600, create: true });
    expect(readFileSync(join(d, 'new.md'), 'utf8')).toBe('x');
  });

  it('refuses a directory in place of the file', () => {
    const d = tempDir();
    expect(() => atomicWriteFile(d, 'x', { mode: 0o644 })).toThrow(/not a regular file/);
  });
});

describe('atomicWriteFile: a file edited in place after it was read is never overwritten', () => {
  it('an append by another process (size, mtime, ctime changed) is refused, and kept', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'first\n');
    const read = safeReadFile(f, 1000);
    execFileSync('/bin/sh', ['-c', 'printf "edit\\n" >> "$1"', 'sh', f]);
    expect(() => atomicWriteFile(f, 'ours\n', { mode: 0o644, expect: { ...read.identity, stamp: read.stamp } })).toThrow(/a\.md: was modified while gate-check was writing it/);
    expect(readFileSync(f, 'utf8')).toBe('first\nedit\n');
    noTemps(d);
  });

  it('a same-size edit is refused by content even when size and times are not compared', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'AAAA\n');
    const read = safeReadFile(f, 1000);
    const fd = openSync(f, 'r+');
    writeSync(fd, 'BBBB', 0);
    closeSync(fd);
    expect(() => atomicWriteFile(f, 'ours\n', { mode: 0o644, expect: { ...read.identity, bytes: read.bytes } })).toThrow(/was modified while gate-check was writing it/);
    expect(readFileSync(f, 'utf8')).toBe('BBBB\n');
    noTemps(d);
  });

  it('an unchanged file (same stamp, same bytes) is replaced', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'first\n');
    const read = safeReadFile(f, 1000);
    atomicWriteFile(f, 'ours\n', { mode: 0o644, expect: { ...read.identity, stamp: read.stamp, bytes: read.bytes } });
    expect(readFileSync(f, 'utf8')).toBe('ours\n');
    expect(() => checkUnchanged(f, { ...read.identity, bytes: read.bytes })).toThrow(/replaced by another file/);
  });
});

describe('atomicWriteFile: what the replacement keeps', () => {
  it('keeps the exact permission bits (the umask does not apply) but never setuid, setgid or sticky', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'x');
    chmodSync(f, 0o7664);
    const st = statSync(f);
    const old = process.umask(0o077);
    try {
      atomicWriteFile(f, 'y', { mode: st.mode, keep: { mode: st.mode, uid: st.uid, gid: st.gid } });
    } finally {
      process.umask(old);
    }
    expect(statSync(f).mode & 0o7777).toBe(0o664);
  });

  it('a new file never gets setuid, setgid or sticky bits either', () => {
    const d = tempDir();
    atomicWriteFile(join(d, 'n'), 'y', { mode: 0o6755, create: true });
    expect(statSync(join(d, 'n')).mode & 0o7000).toBe(0);
  });

  it.skipIf(!isRoot)('keeps the owner and group of the file it replaces (run as root)', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'x');
    chownSync(f, 4242, 4343);
    const st = statSync(f);
    atomicWriteFile(f, 'y', { mode: st.mode, keep: { mode: st.mode, uid: st.uid, gid: st.gid } });
    expect(statSync(f)).toMatchObject({ uid: 4242, gid: 4343 });
    expect(readFileSync(f, 'utf8')).toBe('y');
  });
});

describe('atomicWriteFile: callers can refuse the target', () => {
  it('refuse() is asked on the existing target; its reason names the path', () => {
    const d = tempDir();
    const f = join(d, 'GATES.md');
    writeFileSync(f, 'ledger');
    const ino = statSync(f).ino;
    expect(() => atomicWriteFile(f, 'report', { mode: 0o644, create: true, refuse: (st) => (st.ino === ino ? 'is a ledger (refused)' : null) })).toThrow(/GATES\.md: is a ledger \(refused\)/);
    expect(readFileSync(f, 'utf8')).toBe('ledger');
    noTemps(d);
  });

  it('beforeRename() throwing leaves the target and no temporary file, and its refusal is the error as it was thrown', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'keep');
    const refusal = new UnsafeFileError(d, 'was replaced');
    expect(() =>
      atomicWriteFile(f, 'x', {
        mode: 0o644,
        beforeRename: () => {
          throw refusal;
        },
      }),
    ).toThrow(refusal);
    // Not rewrapped as a write failure: the refusal itself says what was wrong.
    const thrown = (() => {
      try {
        atomicWriteFile(f, 'x', { mode: 0o644, beforeRename: () => { throw refusal; } });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(thrown).toBe(refusal);
    expect(readFileSync(f, 'utf8')).toBe('keep');
    noTemps(d);
  });
});

describe('atomicWriteFile: write and fsync errors surface, naming the file', () => {
  afterEach(() => {
    fsyncFault.fail = null;
  });

  it('an fsync error of the new file (injected: nothing makes fsync fail for real) refuses and leaves the target', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'keep');
    fsyncFault.fail = (p) => (p === f ? Object.assign(new Error('EIO'), { code: 'EIO' }) : null);
    const err = (() => {
      try {
        atomicWriteFile(f, 'x', { mode: 0o644 });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(UnsafeFileError);
    expect((err as Error).message).toBe(`${f}: write failed (EIO: input/output error); the file was left as it was`);
    expect(readFileSync(f, 'utf8')).toBe('keep');
    noTemps(d);
  });

  it('an fsync error of the directory after the rename is reported, not swallowed', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'old');
    fsyncFault.fail = (p) => (p === d ? Object.assign(new Error('EIO'), { code: 'EIO' }) : null);
    expect(() => atomicWriteFile(f, 'new', { mode: 0o644 })).toThrow(/a\.md: was written, but its directory could not be synced \(EIO/);
  });

  it('durable: false syncs neither the file nor the directory, and keeps every check', () => {
    const d = tempDir();
    const f = join(d, 'a.md');
    writeFileSync(f, 'old');
    const synced: string[] = [];
    fsyncFault.fail = (p) => {
      synced.push(p);
      return null;
    };
    atomicWriteFile(f, 'new', { mode: 0o644, durable: false });
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(synced).toEqual([]);
    noTemps(d);
    atomicWriteFile(f, 'newer', { mode: 0o644 });
    expect(synced).toEqual([f, d]);
    symlinkSync(join(d, 'elsewhere'), join(d, 'link.md'));
    expect(() => atomicWriteFile(join(d, 'link.md'), 'x', { mode: 0o644, durable: false })).toThrow(/symbolic link/);
  });
});

describe('replaceAnything (the job summary put back)', () => {
  it('replaces a link itself (never its target), a FIFO and a read-only file; a directory fails the write', () => {
    const d = tempDir();
    const target = join(d, 'summary.md');
    writeFileSync(join(d, 'elsewhere'), 'theirs');
    symlinkSync(join(d, 'elsewhere'), target);
    atomicWriteFile(target, 'ours', { mode: 0o644, create: true, replaceAnything: true });
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('ours');
    expect(readFileSync(join(d, 'elsewhere'), 'utf8')).toBe('theirs');
    rmSync(target);
    execFileSync('mkfifo', [target]);
    atomicWriteFile(target, 'ours', { mode: 0o644, create: true, replaceAnything: true });
    expect(readFileSync(target, 'utf8')).toBe('ours');
    chmodSync(target, 0o444);
    atomicWriteFile(target, 'again', { mode: 0o644, create: true, replaceAnything: true });
    expect(readFileSync(target, 'utf8')).toBe('again');
    expect(lstatSync(target).mode & 0o777).toBe(0o644);
    rmSync(target);
    mkdirSync(target);
    expect(() => atomicWriteFile(target, 'x', { mode: 0o644, create: true, replaceAnything: true })).toThrow(/summary\.md: write failed \(E(ISDIR|NOTEMPTY|EXIST)/);
    expect(readdirSync(d).sort()).toEqual(['elsewhere', 'summary.md']);
  });
});
