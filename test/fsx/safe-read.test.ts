// Real files, links and FIFOs: each refusal of safeReadFile.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeFileError } from '../../lib/errors.js';
import { safeReadFile } from '../../lib/fsx/safe-read.js';
import { tempDir } from '../helpers/cli.js';

describe('safeReadFile', () => {
  it('reads a single-link regular file and reports its identity', () => {
    const d = tempDir();
    writeFileSync(join(d, 'a.md'), 'hello');
    const r = safeReadFile(join(d, 'a.md'), 100);
    expect(r.bytes.toString()).toBe('hello');
    expect(r.identity.ino).toBeGreaterThan(0);
  });

  it('refuses a symbolic link, even to a good file', () => {
    const d = tempDir();
    writeFileSync(join(d, 'real.md'), 'x');
    symlinkSync(join(d, 'real.md'), join(d, 'link.md'));
    expect(() => safeReadFile(join(d, 'link.md'), 100)).toThrow(/symbolic link/);
  });

  it('refuses a file with a second hard link', () => {
    const d = tempDir();
    writeFileSync(join(d, 'a.md'), 'x');
    linkSync(join(d, 'a.md'), join(d, 'b.md'));
    expect(() => safeReadFile(join(d, 'a.md'), 100)).toThrow(/2 hard links/);
  });

  it('refuses a FIFO at once instead of blocking on it', () => {
    const d = tempDir();
    execFileSync('mkfifo', [join(d, 'fifo.md')]);
    const t0 = Date.now();
    expect(() => safeReadFile(join(d, 'fifo.md'), 100)).toThrow(/FIFO/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('refuses a directory', () => {
    const d = tempDir();
    mkdirSync(join(d, 'dir.md'));
    expect(() => safeReadFile(join(d, 'dir.md'), 100)).toThrow(/directory/);
  });

  it('refuses a file over the size cap and accepts one at it', () => {
    const d = tempDir();
    writeFileSync(join(d, 'a.md'), Buffer.alloc(101, 0x61));
    writeFileSync(join(d, 'b.md'), Buffer.alloc(100, 0x61));
    expect(() => safeReadFile(join(d, 'a.md'), 100)).toThrow(/101 bytes \(at most 100\)/);
    expect(safeReadFile(join(d, 'b.md'), 100).bytes.length).toBe(100);
  });

  it('reports a missing file as an UnsafeFileError', () => {
    const d = tempDir();
    expect(() => safeReadFile(join(d, 'nope.md'), 100)).toThrow(UnsafeFileError);
  });
});
