import { linkSync, readFileSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendNoFollow } from '../../lib/fsx/append-file.js';
import { tempDir } from '../helpers/cli.js';

describe('appendNoFollow', () => {
  it('appends, creating the file', () => {
    const f = join(tempDir(), 'log');
    appendNoFollow(f, 'a\n');
    appendNoFollow(f, 'b\n');
    expect(readFileSync(f, 'utf8')).toBe('a\nb\n');
  });

  it('refuses a symlink, leaving its target alone', () => {
    const d = tempDir();
    writeFileSync(join(d, 'target'), 'keep');
    symlinkSync(join(d, 'target'), join(d, 'log'));
    expect(() => appendNoFollow(join(d, 'log'), 'x')).toThrow(/symbolic link/);
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('keep');
  });

  it('for a private log, refuses a second hard link and group/other bits', () => {
    const d = tempDir();
    writeFileSync(join(d, 'log'), '', { mode: 0o600 });
    linkSync(join(d, 'log'), join(d, 'alias'));
    expect(() => appendNoFollow(join(d, 'log'), 'x', { privateLog: true })).toThrow(/2 hard links/);
    writeFileSync(join(d, 'open'), '');
    chmodSync(join(d, 'open'), 0o644);
    expect(() => appendNoFollow(join(d, 'open'), 'x', { privateLog: true })).toThrow(/group or other/);
    expect(readFileSync(join(d, 'open'), 'utf8')).toBe('');
  });
});
