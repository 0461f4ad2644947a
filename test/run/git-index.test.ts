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

  it('reads an EOIE and IEOT that git wrote (index.threads): where they say the entries and extensions are', () => {
    const r = repo();
    const before = indexExtensionDigest(r.index());
    r.git('-c', 'index.recordEndOfIndexEntries=true', '-c', 'index.recordOffsetTable=true', '-c', 'index.threads=2', 'update-index', '--really-refresh');
    r.git('-c', 'index.recordEndOfIndexEntries=true', '-c', 'index.recordOffsetTable=true', '-c', 'index.threads=2', 'update-index', '--force-write-index');
    const index = r.index();
    expect(index.includes(Buffer.from('EOIE'))).toBe(true);
    expect(indexExtensionDigest(index)).toBe(before);
  });

  // Round-39d F1: git, reading with threads, starts at the offset the EOIE names; an EOIE
  // naming a TREE hidden inside an UNTR showed git another cache tree than this reading.
  it('is null for an EOIE (where git looks for one) that names another place than where the entries end', () => {
    const good = repo().index();
    const entriesEnd = good.indexOf(Buffer.from('TREE'));
    const ext = good.subarray(entriesEnd, good.length - 20);
    const be = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      return b;
    };
    const withTail = (extensions: Buffer, eoieOffset: number) => {
      const body = Buffer.concat([good.subarray(0, entriesEnd), extensions, Buffer.from('EOIE'), be(24), be(eoieOffset), Buffer.alloc(20)]);
      return Buffer.concat([body, Buffer.alloc(20)]);
    };
    expect(indexExtensionDigest(withTail(ext, entriesEnd))).not.toBeNull();
    const hidden = Buffer.concat([Buffer.from('UNTR'), be(ext.length), ext]);
    expect(indexExtensionDigest(withTail(Buffer.concat([hidden, ext]), entriesEnd + 8))).toBeNull();
    expect(indexExtensionDigest(withTail(ext, entriesEnd + 1))).toBeNull();
    // An EOIE's bytes inside another extension, at the place git looks for one.
    const inside = Buffer.concat([Buffer.from('UNTR'), be(32), Buffer.from('EOIE'), be(24), be(entriesEnd), Buffer.alloc(20)]);
    expect(indexExtensionDigest(Buffer.concat([good.subarray(0, entriesEnd), ext, inside, Buffer.alloc(20)]))).toBeNull();
  });

  it('is null for an IEOT whose blocks do not start where entries start, or do not cover them', () => {
    const good = repo().index();
    const entriesEnd = good.indexOf(Buffer.from('TREE'));
    const ext = good.subarray(entriesEnd, good.length - 20);
    const ieot = (pairs: number[][]) => {
      const data = Buffer.alloc(4 + 8 * pairs.length);
      data.writeUInt32BE(1, 0);
      pairs.forEach(([offset, n], i) => (data.writeUInt32BE(offset!, 4 + 8 * i), data.writeUInt32BE(n!, 8 + 8 * i)));
      const head = Buffer.alloc(8);
      head.write('IEOT', 0, 'latin1');
      head.writeUInt32BE(data.length, 4);
      return Buffer.concat([good.subarray(0, entriesEnd), ext, head, data, Buffer.alloc(20)]);
    };
    const count = good.readUInt32BE(8);
    expect(indexExtensionDigest(ieot([[12, count]]))).not.toBeNull();
    expect(indexExtensionDigest(ieot([[13, count]]))).toBeNull();
    expect(indexExtensionDigest(ieot([[12, count - 1]]))).toBeNull();
  });

  // Round-39e F1: git ends an entry's path where the length in its flags says; a length 8
  // longer than the path, padded with NULs, moved git's end of the entries onto a hidden TREE.
  it('is null for an entry whose name length (in its flags) disagrees with where its name ends', () => {
    const good = repo().index();
    const name = good.indexOf(Buffer.from('src/deep/b.js'));
    const flags = good.readUInt16BE(name - 2);
    expect(flags & 0x0fff).toBe('src/deep/b.js'.length);
    const longer = Buffer.from(good);
    longer.writeUInt16BE((flags & 0xf000) | ((flags & 0x0fff) + 8), name - 2);
    expect(indexExtensionDigest(longer)).toBeNull();
    const shorter = Buffer.from(good);
    shorter.writeUInt16BE((flags & 0xf000) | ((flags & 0x0fff) - 1), name - 2);
    expect(indexExtensionDigest(shorter)).toBeNull();
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
