// publishNewFile / createNewFile: a new file appears complete or not at all, never over
// anything that is there (a dangling link included), and leaves no temporary file.
// setAside: a file is renamed to its mark; with no file, an empty mark is made (its ctime
// is what later verification compares), never through a link planted at the mark.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnsafeFileError } from '../../lib/errors.js';
import { createNewFile, makeDirectory, publishNewFile, setAside } from '../../lib/fsx/create.js';
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

  it('durable: false skips only the fsync: the file is still written before it is linked', () => {
    const d = tempDir();
    const synced: string[] = [];
    fsyncFault.fail = (p) => (synced.push(p), null);
    expect(publishNewFile(join(d, 'f'), 'body\n', 0o600, { durable: false })).toBe(true);
    expect(synced).toEqual([]);
    expect(readFileSync(join(d, 'f'), 'utf8')).toBe('body\n');
    expect(lstatSync(join(d, 'f'))).toMatchObject({ nlink: 1 });
    expect(publishNewFile(join(d, 'g'), 'body\n', 0o600)).toBe(true);
    expect(synced).toEqual([join(d, 'g')]);
    expect(publishNewFile(join(d, 'f'), 'ours', 0o600, { durable: false })).toBe(false);
    expect(readdirSync(d).sort()).toEqual(['f', 'g']);
  });

  it('createNewFile refuses an existing file', () => {
    const d = tempDir();
    writeFileSync(join(d, 'f'), 'theirs');
    expect(() => createNewFile(join(d, 'f'), 'ours', 0o644)).toThrow(/already exists \(never overwritten\)/);
  });
});

describe('setAside', () => {
  it('renames the file to its mark, content and all', () => {
    const d = tempDir();
    writeFileSync(join(d, 'r.json'), 'records');
    setAside(join(d, 'r.json'), join(d, 'r.json.forgotten'));
    expect(readdirSync(d)).toEqual(['r.json.forgotten']);
    expect(readFileSync(join(d, 'r.json.forgotten'), 'utf8')).toBe('records');
  });

  it('with no file, makes a new empty mark (an older mark is replaced, so its ctime is now)', async () => {
    const d = tempDir();
    writeFileSync(join(d, 'r.json.forgotten'), 'an older mark');
    const before = lstatSync(join(d, 'r.json.forgotten'));
    await new Promise((r) => setTimeout(r, 20));
    setAside(join(d, 'r.json'), join(d, 'r.json.forgotten'));
    const after = lstatSync(join(d, 'r.json.forgotten'));
    expect(readdirSync(d)).toEqual(['r.json.forgotten']);
    expect(after.size).toBe(0);
    expect(after.ino === before.ino && after.ctimeMs === before.ctimeMs).toBe(false);
    expect(after.mode & 0o777).toBe(0o600);
  });

  it('with no file, a link planted at the mark is replaced by a file, and its target is never created', () => {
    const d = tempDir();
    symlinkSync(join(d, 'elsewhere'), join(d, 'r.json.forgotten'));
    setAside(join(d, 'r.json'), join(d, 'r.json.forgotten'));
    expect(lstatSync(join(d, 'r.json.forgotten')).isFile()).toBe(true);
    expect(existsSync(join(d, 'elsewhere'))).toBe(false);
  });

  it('a mark that cannot be made is an error naming it', () => {
    const d = tempDir();
    expect(() => setAside(join(d, 'r.json'), join(d, 'missing-dir', 'r.json.forgotten'))).toThrow(UnsafeFileError);
    expect(() => setAside(join(d, 'r.json'), join(d, 'missing-dir', 'r.json.forgotten'))).toThrow(/missing-dir\/r\.json\.forgotten/);
  });

  it('a file that is there but cannot be renamed is an error, never an empty mark beside it (a directory planted at the file)', () => {
    const d = tempDir();
    mkdirSync(join(d, 'r.json'));
    writeFileSync(join(d, 'r.json', 'inside'), 'x');
    writeFileSync(join(d, 'r.json.forgotten'), 'older mark');
    expect(() => setAside(join(d, 'r.json'), join(d, 'r.json.forgotten'))).toThrow(/r\.json: cannot set aside \(ENOTDIR/);
    expect(readFileSync(join(d, 'r.json.forgotten'), 'utf8')).toBe('older mark');
    expect(readFileSync(join(d, 'r.json', 'inside'), 'utf8')).toBe('x');
  });
});

describe('makeDirectory', () => {
  it('tolerates a directory made meanwhile, and names any other failure', () => {
    const d = tempDir();
    mkdirSync(join(d, 'made'));
    expect(() => makeDirectory(join(d, 'made'), 0o700)).not.toThrow();
    writeFileSync(join(d, 'file'), '');
    expect(() => makeDirectory(join(d, 'file', 'sub'), 0o700)).toThrow(UnsafeFileError);
    expect(() => makeDirectory(join(d, 'file', 'sub'), 0o700)).toThrow(/file\/sub: cannot create the directory \(ENOTDIR/);
  });
});
