// withScratchFile: a private copy for a process to rewrite (run/git.ts's copy of the index),
// in a new directory of mode 700, removed whatever happens, read back without following links.
import { existsSync, lstatSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withScratchFile } from '../../lib/fsx/scratch.js';
import { tempDir } from '../helpers/cli.js';

describe('withScratchFile', () => {
  it('gives a new file with the bytes, mode 600 in a directory of mode 700, and removes both', async () => {
    let seen = '';
    const out = await withScratchFile('index', Buffer.from('bytes'), {}, async (file) => {
      seen = file.path;
      expect(lstatSync(file.path).mode & 0o777).toBe(0o600);
      expect(lstatSync(dirname(file.path)).mode & 0o777).toBe(0o700);
      writeFileSync(file.path, 'rewritten');
      return file.read(100).toString();
    });
    expect(out).toBe('rewritten');
    expect(existsSync(dirname(seen))).toBe(false);
  });

  it('dates the file as asked', async () => {
    await withScratchFile('index', Buffer.from('x'), { mtimeSeconds: 2 ** 32 }, async (file) => {
      expect(lstatSync(file.path).mtimeMs).toBe(2 ** 32 * 1000);
    });
  });

  it('removes the directory when its user throws', async () => {
    let seen = '';
    await expect(
      withScratchFile('index', Buffer.from('x'), {}, async (file) => {
        seen = file.path;
        throw new Error('git failed');
      }),
    ).rejects.toThrow('git failed');
    expect(existsSync(dirname(seen))).toBe(false);
  });

  it('reads back no link (a process that put one there), and no more than asked', async () => {
    const elsewhere = join(tempDir('gc-scratch-'), 'other');
    writeFileSync(elsewhere, 'not the copy');
    await withScratchFile('index', Buffer.from('xy'), {}, async (file) => {
      expect(() => file.read(1)).toThrow();
      rmSync(file.path);
      symlinkSync(elsewhere, file.path);
      expect(() => file.read(100)).toThrow();
    });
  });

  it('fails, naming where, when no directory can be made there', async () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = join(tempDir('gc-scratch-'), 'missing');
    try {
      await expect(withScratchFile('index', Buffer.from('x'), {}, async () => 1)).rejects.toThrow(/missing\/gate-check-\*.*cannot create/);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
