// publishNewFile / createNewFile: a new file appears complete or not at all, never over
// anything that is there (a dangling link included), and leaves no temporary file.
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnsafeFileError } from '../../lib/errors.js';
import { createNewFile, publishNewFile } from '../../lib/fsx/create.js';
import { fsyncFault } from '../../lib/fsx/sync.js';
import { tempDir } from '../helpers/cli.js';

describe('publishNewFile', () => {
  afterEach(() => {
    fsyncFault.fail = null;
  });

  it('publishes a complete single-link file with the mode asked for, and nothing else', () => {
    const d = tempDir();
    expect(publishNewFile(join(d, 'f'), 'body\n', 0o600)).toBe(true);
    expect(readFileSync(join(d, 'f'), 'utf8')).toBe('body\n');
    expect(lstatSync(join(d, 'f'))).toMatchObject({ nlink: 1 });
    expect(lstatSync(join(d, 'f')).mode & 0o777).toBe(0o600);
    expect(readdirSync(d)).toEqual(['f']);
  });

  it('returns false over an existing file and leaves it alone', () => {
    const d = tempDir();
    writeFileSync(join(d, 'f'), 'theirs');
    expect(publishNewFile(join(d, 'f'), 'ours', 0o600)).toBe(false);
    expect(readFileSync(join(d, 'f'), 'utf8')).toBe('theirs');
    expect(readdirSync(d)).toEqual(['f']);
  });

  it('returns false over a dangling symlink, and never creates its target', () => {
    const d = tempDir();
    symlinkSync(join(d, 'target'), join(d, 'f'));
    expect(publishNewFile(join(d, 'f'), 'ours', 0o600)).toBe(false);
    expect(existsSync(join(d, 'target'))).toBe(false);
    expect(readdirSync(d)).toEqual(['f']);
  });

  it('a failure before the file is complete (injected fsync error) publishes nothing and names the path', () => {
    const d = tempDir();
    fsyncFault.fail = () => Object.assign(new Error('EIO'), { code: 'EIO' });
    expect(() => publishNewFile(join(d, 'f'), 'ours', 0o600)).toThrow(new UnsafeFileError(join(d, 'f'), 'cannot create (EIO: input/output error)'));
    expect(readdirSync(d)).toEqual([]);
  });

  it('createNewFile refuses an existing file', () => {
    const d = tempDir();
    writeFileSync(join(d, 'f'), 'theirs');
    expect(() => createNewFile(join(d, 'f'), 'ours', 0o644)).toThrow(/already exists \(never overwritten\)/);
  });
});
