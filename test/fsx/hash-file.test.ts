import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256File } from '../../lib/fsx/hash-file.js';
import { tempDir } from '../helpers/cli.js';

describe('sha256File', () => {
  it('hashes small and multi-chunk files exactly', () => {
    const d = tempDir();
    for (const size of [0, 10, 65536, 65537, 300000]) {
      const data = Buffer.alloc(size, 7);
      writeFileSync(join(d, `f${size}`), data);
      expect(sha256File(join(d, `f${size}`))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('refuses a symlink and a FIFO (at once, never blocking)', () => {
    const d = tempDir();
    writeFileSync(join(d, 'real'), 'x');
    symlinkSync(join(d, 'real'), join(d, 'link'));
    expect(() => sha256File(join(d, 'link'))).toThrow(/symbolic link/);
    execFileSync('mkfifo', [join(d, 'fifo')]);
    const t0 = Date.now();
    expect(() => sha256File(join(d, 'fifo'))).toThrow(/not a regular file/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
