import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeFileError } from '../../lib/errors.js';
import { readHead, sha256File, sha256FileWithStat } from '../../lib/fsx/hash-file.js';
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

describe('sha256File limits', () => {
  function sparse(path: string, bytes: number) {
    writeFileSync(path, '');
    truncateSync(path, bytes);
  }

  it('refuses a file over maxBytes before reading it (a 64 GiB sparse file is one fstat)', () => {
    const d = tempDir();
    sparse(join(d, 'huge'), 64 * 2 ** 30);
    const t0 = Date.now();
    expect(() => sha256File(join(d, 'huge'), 'huge', { maxBytes: 64 * 2 ** 20 })).toThrow('huge: is 64 GiB, over the 64 MiB limit for a DEPENDS or INPUTS file (refused)');
    expect(Date.now() - t0).toBeLessThan(1000);
    // At the cap exactly, it is hashed.
    sparse(join(d, 'at'), 1 << 20);
    expect(sha256File(join(d, 'at'), 'at', { maxBytes: 1 << 20 })).toBe(createHash('sha256').update(Buffer.alloc(1 << 20)).digest('hex'));
    expect(() => sha256File(join(d, 'at'), 'at', { maxBytes: (1 << 20) - 1 })).toThrow('at: is 1 MiB, over the 1024.0 KiB (1048575 bytes) limit');
  });

  it('a file that grows past maxBytes while it is read is refused', () => {
    const d = tempDir();
    const p = join(d, 'growing');
    writeFileSync(p, Buffer.alloc(200_000, 1));
    let grown = false;
    const grow = () => {
      if (!grown) appendFileSync(p, Buffer.alloc(200_000, 2));
      grown = true;
    };
    expect(() => sha256File(p, 'growing', { maxBytes: 300_000, checkpoint: grow })).toThrow(/growing: is .* over the .* limit for a DEPENDS or INPUTS file/);
  });

  it('the checkpoint runs between chunks and what it throws abandons the hash', () => {
    const d = tempDir();
    writeFileSync(join(d, 'f'), Buffer.alloc(10 * 65536 + 5, 3));
    let calls = 0;
    expect(sha256FileWithStat(join(d, 'f'), 'f', { checkpoint: () => void calls++ }).before.size).toBe(10 * 65536 + 5);
    expect(calls).toBe(11);
    let left = 3;
    expect(() =>
      sha256File(join(d, 'f'), 'f', {
        checkpoint: () => {
          if (--left === 0) throw new Error('out of time');
        },
      }),
    ).toThrow('out of time');
  });
});

describe('readHead', () => {
  it('reads the first bytes of a regular file; a file that cannot be opened or is no regular file is an error naming the label', () => {
    const d = tempDir();
    writeFileSync(join(d, 'tool'), '#!/bin/sh\necho hi\n');
    expect(readHead(join(d, 'tool'), 'tools/tool', 4).toString()).toBe('#!/b');
    expect(() => readHead(join(d, 'absent'), 'tools/absent')).toThrow(new UnsafeFileError('tools/absent', 'cannot read (ENOENT)'));
    expect(() => readHead(d, 'tools')).toThrow(new UnsafeFileError('tools', 'is not a regular file (refused)'));
  });
});
