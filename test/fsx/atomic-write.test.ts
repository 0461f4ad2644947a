// atomicWriteFile: each refusal, and that nothing partial or temporary is left behind.
import { linkSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicWriteFile } from '../../lib/fsx/atomic-write.js';
import { UnsafeFileError } from '../../lib/errors.js';
import { tempDir } from '../helpers/cli.js';

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
