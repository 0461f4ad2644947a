// holdsBlob: whether a file of the working tree holds an object id, as git hashes a blob
// (SHA-1 or SHA-256 by the id's length; a link by its target); false when it cannot be read.
import { execFileSync } from 'node:child_process';
import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsBlob } from '../../lib/fsx/git-blob.js';
import { tempDir } from '../helpers/cli.js';

const hashObject = (dir: string, file: string, format = 'sha1') => {
  execFileSync('git', ['init', '-q', `--object-format=${format}`], { cwd: dir });
  return execFileSync('git', ['hash-object', file], { cwd: dir, encoding: 'utf8' }).trim();
};

describe('holdsBlob', () => {
  it('matches git hash-object for a file, SHA-1 and SHA-256, and nothing else', () => {
    for (const format of ['sha1', 'sha256']) {
      const d = tempDir('gc-blob-');
      writeFileSync(join(d, 'f.txt'), 'content\n');
      const oid = hashObject(d, 'f.txt', format);
      expect(oid.length).toBe(format === 'sha1' ? 40 : 64);
      expect(holdsBlob(Buffer.from(join(d, 'f.txt')), 0o100644, oid)).toBe(true);
      writeFileSync(join(d, 'f.txt'), 'content!\n');
      expect(holdsBlob(Buffer.from(join(d, 'f.txt')), 0o100644, oid)).toBe(false);
    }
  });

  it('a link entry (mode 120000) by its target, never what it leads to', () => {
    const d = tempDir('gc-blob-');
    writeFileSync(join(d, 'target.txt'), 'x\n');
    symlinkSync('target.txt', join(d, 'l'));
    execFileSync('git', ['init', '-q'], { cwd: d });
    const oid = execFileSync('git', ['hash-object', '--stdin'], { cwd: d, input: 'target.txt', encoding: 'utf8' }).trim();
    expect(holdsBlob(Buffer.from(join(d, 'l')), 0o120000, oid)).toBe(true);
    expect(holdsBlob(Buffer.from(join(d, 'l')), 0o100644, oid)).toBe(false);
  });

  it('a name that is no UTF-8, by its bytes', () => {
    const d = tempDir('gc-blob-');
    const name = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // "caf" and a Latin-1 e-acute
    writeFileSync(Buffer.concat([Buffer.from(`${d}/`), name]), 'x\n');
    execFileSync('git', ['init', '-q'], { cwd: d });
    const oid = execFileSync('git', ['hash-object', '--stdin'], { cwd: d, input: 'x\n', encoding: 'utf8' }).trim();
    expect(holdsBlob(Buffer.concat([Buffer.from(`${d}/`), name]), 0o100644, oid)).toBe(true);
    expect(holdsBlob(Buffer.from(join(d, name.toString('utf8'))), 0o100644, oid)).toBe(false);
  });

  it('false for what it cannot read: missing, a second hard link', () => {
    const d = tempDir('gc-blob-');
    writeFileSync(join(d, 'f.txt'), 'content\n');
    const oid = hashObject(d, 'f.txt');
    expect(holdsBlob(Buffer.from(join(d, 'missing.txt')), 0o100644, oid)).toBe(false);
    linkSync(join(d, 'f.txt'), join(d, 'g.txt'));
    expect(holdsBlob(Buffer.from(join(d, 'f.txt')), 0o100644, oid)).toBe(false);
  });
});
