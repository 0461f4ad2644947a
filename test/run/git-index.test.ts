// git's index read beyond its entries (lib/run/git-index.ts), against indexes git itself wrote:
// versions 2, 3 (an extended flag) and 4, SHA-1 and SHA-256; volatile extensions left out;
// anything else is no index (null), so that the caller falls back to the file's stat data.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexExtensionDigest } from '../../lib/run/git-index.js';
import { tempDir, writeFiles } from '../helpers/cli.js';

function repo(initArgs: string[] = []) {
  const dir = tempDir('gc-index-');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q', ...initArgs);
  writeFiles(dir, { 'src/a.js': 'a\n', 'src/deep/b.js': 'b\n', 'README.md': 'r\n' });
  git('add', '-A');
  git('commit', '-qm', 'init');
  return { dir, git, index: () => readFileSync(join(dir, '.git', 'index')) };
}

describe('indexExtensionDigest', () => {
  it('reads versions 2, 3 and 4: the cache tree by digest, and a rewritten cache tree gives another', () => {
    const r = repo();
    const v2 = indexExtensionDigest(r.index());
    expect(v2).toMatch(/^TREE=[0-9a-f]{16}$/);
    r.git('update-index', '--index-version', '4');
    expect(indexExtensionDigest(r.index())).toBe(v2);
    writeFiles(r.dir, { 'new.txt': 'n\n' });
    r.git('add', '-N', 'new.txt'); // intent to add: an extended flag, version 3
    expect(r.index().readUInt32BE(4)).toBe(4);
    r.git('update-index', '--index-version', '3');
    expect(indexExtensionDigest(r.index())).toMatch(/^TREE=[0-9a-f]{16}$/);
    expect(indexExtensionDigest(r.index())).not.toBe(v2);
  });

  it('reads a SHA-256 repository', () => {
    const r = repo(['--object-format=sha256']);
    expect(indexExtensionDigest(r.index())).toMatch(/^TREE=[0-9a-f]{16}$/);
  });

  it('leaves out the untracked cache, which git status rewrites as it looks', () => {
    const r = repo();
    const before = indexExtensionDigest(r.index());
    r.git('config', 'core.untrackedCache', 'true');
    r.git('update-index', '--untracked-cache');
    writeFiles(r.dir, { 'loose.txt': 'l\n' });
    r.git('status', '--short');
    expect(r.index().includes(Buffer.from('UNTR'))).toBe(true);
    expect(indexExtensionDigest(r.index())).toBe(before);
  });

  it('is null for what is not an index: another signature, a version it does not know, cut short, trailing bytes', () => {
    const good = repo().index();
    expect(indexExtensionDigest(good)).not.toBeNull();
    const bad = (edit: (b: Buffer) => Buffer) => indexExtensionDigest(edit(Buffer.from(good)));
    expect(bad((b) => (b.write('DIRX', 0, 'latin1'), b))).toBeNull();
    expect(bad((b) => (b.writeUInt32BE(5, 4), b))).toBeNull();
    expect(bad((b) => b.subarray(0, b.length - 30))).toBeNull();
    expect(bad((b) => Buffer.concat([b, Buffer.alloc(3)]))).toBeNull();
    expect(bad((b) => (b.writeUInt32BE(1000, 8), b))).toBeNull();
    expect(indexExtensionDigest(Buffer.alloc(0))).toBeNull();
    const file = join(tempDir('gc-index-'), 'x');
    writeFileSync(file, 'DIRC');
    expect(indexExtensionDigest(readFileSync(file))).toBeNull();
  });
});
