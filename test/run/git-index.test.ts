// git's own rewrite of an index, read (lib/run/git-index.ts): entries without their stat
// data, their marks, and the lasting extensions, by digest; anything git does not write
// (version 4, a name length that disagrees with its NUL, a checksum of neither length,
// trailing bytes) is no index here (null), so that the caller compares stat data instead.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalIndexFacts } from '../../lib/run/git-index.js';
import { tempDir, writeFiles } from '../helpers/cli.js';

function repo(initArgs: string[] = []) {
  const dir = tempDir('gc-index-');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q', ...initArgs);
  writeFiles(dir, { 'src/a.js': 'a\n', 'src/deep/b.js': 'b\n', 'README.md': 'r\n' });
  git('add', '-A');
  git('commit', '-qm', 'init');
  /** The index as run/git.ts reads it: git's rewrite of a copy (version 2, or 3 with extended flags). */
  const rewritten = () => {
    const copy = join(tempDir('gc-index-copy-'), 'index');
    copyFileSync(join(dir, '.git', 'index'), copy);
    execFileSync('git', ['-c', 'core.splitIndex=false', '-c', 'core.untrackedCache=keep', '-c', 'core.fsmonitor=false', 'update-index', '--index-version', '2', '--force-write-index'], { cwd: dir, env: { ...process.env, GIT_INDEX_FILE: copy } });
    return readFileSync(copy);
  };
  return { dir, git, rewritten, raw: () => readFileSync(join(dir, '.git', 'index')) };
}

const facts = (bytes: Buffer) => canonicalIndexFacts(bytes);

/** `bytes` with its SHA-1 checksum made again after `edit`. */
function resealed(bytes: Buffer, edit: (body: Buffer) => Buffer): Buffer {
  const body = edit(Buffer.from(bytes.subarray(0, bytes.length - 20)));
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

describe('canonicalIndexFacts', () => {
  it('reads what git rewrites from versions 2, 3 and 4 alike; a rewritten cache tree gives another digest', () => {
    const r = repo();
    const v2 = facts(r.rewritten());
    expect(v2?.digest).toMatch(/^[0-9a-f]{64}$/);
    r.git('update-index', '--index-version', '4');
    expect(r.raw().readUInt32BE(4)).toBe(4);
    expect(r.rewritten().readUInt32BE(4)).toBe(2);
    expect(facts(r.rewritten())?.digest).toBe(v2?.digest);
    // The cache tree for src/ made invalid (a staged entry put back): another digest.
    const blob = r.git('rev-parse', ':src/a.js').trim();
    r.git('update-index', '--cacheinfo', `100644,${blob},src/a.js`);
    expect(facts(r.rewritten())?.digest).not.toBe(v2?.digest);
  });

  it('leaves stat data out of the digest, and gives it apart: a file touched and refreshed by git status', () => {
    const r = repo();
    const before = facts(r.rewritten())!;
    expect(before.stats.get('src/a.js')).toMatchObject({ mode: 0o100644, oid: r.git('rev-parse', ':src/a.js').trim() });
    execFileSync('touch', ['-d', '2001-01-01', join(r.dir, 'src/a.js')]);
    r.git('update-index', '--really-refresh');
    r.git('status', '--short');
    const after = facts(r.rewritten())!;
    expect(after.digest).toBe(before.digest);
    expect(after.marked).toEqual(before.marked);
    expect(after.stats.get('src/a.js')!.stat).not.toBe(before.stats.get('src/a.js')!.stat);
    expect(after.stats.get('README.md')).toEqual(before.stats.get('README.md'));
  });

  // Round-39g F3: an untracked cache planted where there was none hid a new file from the
  // person's git status; git status rewrites one that is there as it looks.
  it('counts the untracked cache by its presence, not its content', () => {
    const r = repo();
    const none = facts(r.rewritten())!.digest;
    r.git('config', 'core.untrackedCache', 'true');
    r.git('update-index', '--untracked-cache');
    writeFiles(r.dir, { 'loose.txt': 'l\n' });
    r.git('status', '--short');
    expect(r.raw().includes(Buffer.from('UNTR'))).toBe(true);
    const some = facts(r.rewritten())!.digest;
    expect(some).not.toBe(none);
    writeFiles(r.dir, { 'more/loose.txt': 'm\n' });
    r.git('status', '--short');
    expect(facts(r.rewritten())!.digest).toBe(some);
  });

  it('leaves out fsmonitor\'s token and the offset tables, should a rewrite hold them', () => {
    const r = repo();
    const before = facts(r.rewritten());
    const rewritten = r.rewritten();
    const volatile = (sig: string) => {
      const head = Buffer.alloc(8);
      head.write(sig, 0, 'latin1');
      head.writeUInt32BE(3, 4);
      return Buffer.concat([head, Buffer.from('xyz')]);
    };
    expect(facts(resealed(rewritten, (body) => Buffer.concat([body, volatile('FSMN'), volatile('EOIE'), volatile('IEOT')])))).toEqual(before);
    expect(facts(resealed(rewritten, (body) => Buffer.concat([body, volatile('REUC')])))?.digest).not.toBe(before?.digest);
  });

  // Round-39f F3: the intent-to-add mark left a tracked file out of the next tree git builds
  // for its folder; ls-files --stage -v shows the same line.
  it('names entries marked intent-to-add, skip-worktree or assume-unchanged, and each mark changes the digest', () => {
    const r = repo();
    const plain = facts(r.rewritten())!;
    expect(plain.marked.size).toBe(0);
    writeFiles(r.dir, { 'new.txt': 'n\n' });
    r.git('add', '-N', 'new.txt');
    const ita = facts(r.rewritten())!;
    expect(r.rewritten().readUInt32BE(4)).toBe(3);
    expect([...ita.marked]).toEqual([['new.txt', 'intent-to-add']]);
    r.git('update-index', '--skip-worktree', 'src/a.js');
    r.git('update-index', '--assume-unchanged', 'README.md');
    const all = facts(r.rewritten())!;
    expect(all.marked.get('src/a.js')).toBe('skip-worktree');
    expect(all.marked.get('README.md')).toBe('assume-unchanged');
    expect(new Set([plain.digest, ita.digest, all.digest]).size).toBe(3);
  });

  it('reads a SHA-256 repository, by its checksum', () => {
    const r = repo(['--object-format=sha256']);
    expect(facts(r.rewritten())?.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  // Round-39f F2: an index read as SHA-1 first and, failing that, as SHA-256 showed this
  // reading another cache tree than git's. The checksum decides, once.
  it('is null when the checksum is of neither length, or bytes are left over before it', () => {
    const good = repo().rewritten();
    expect(facts(good)).not.toBeNull();
    const wrongSum = Buffer.from(good);
    wrongSum[wrongSum.length - 1]! ^= 1;
    expect(facts(wrongSum)).toBeNull();
    expect(facts(resealed(good, (body) => Buffer.concat([body, Buffer.alloc(4, 0x55)])))).toBeNull();
  });

  // Rounds 39e F1 and 39f F1: git ends an entry's name where the length in its flags says.
  it('is null for an entry whose name length disagrees with where its name ends, or whose padding is not NULs', () => {
    const good = repo().rewritten();
    const name = good.indexOf(Buffer.from('src/deep/b.js'));
    const flags = good.readUInt16BE(name - 2);
    expect(flags & 0x0fff).toBe('src/deep/b.js'.length);
    for (const length of [(flags & 0x0fff) + 8, (flags & 0x0fff) - 1]) {
      expect(facts(resealed(good, (b) => (b.writeUInt16BE((flags & 0xf000) | length, name - 2), b)))).toBeNull();
    }
    expect(facts(resealed(good, (b) => ((b[name + 'src/deep/b.js'.length + 1] = 0x41), b)))).toBeNull();
  });

  it('is null for what git does not write: another signature, version 4 or 5, cut short, an entry count too large, trailing bytes', () => {
    const r = repo();
    const good = r.rewritten();
    const bad = (edit: (b: Buffer) => Buffer) => facts(resealed(good, edit));
    expect(bad((b) => b)).not.toBeNull();
    expect(bad((b) => (b.write('DIRX', 0, 'latin1'), b))).toBeNull();
    expect(bad((b) => (b.writeUInt32BE(4, 4), b))).toBeNull();
    expect(bad((b) => (b.writeUInt32BE(5, 4), b))).toBeNull();
    expect(bad((b) => b.subarray(0, b.length - 30))).toBeNull();
    expect(bad((b) => (b.writeUInt32BE(1000, 8), b))).toBeNull();
    expect(bad((b) => Buffer.concat([b, Buffer.alloc(3)]))).toBeNull();
    // Extended flags in a version 2 index (git writes version 3 for them).
    writeFiles(r.dir, { 'new.txt': 'n\n' });
    r.git('add', '-N', 'new.txt');
    const v3 = r.rewritten();
    expect(v3.readUInt32BE(4)).toBe(3);
    expect(facts(v3)).not.toBeNull();
    expect(facts(resealed(v3, (b) => (b.writeUInt32BE(2, 4), b)))).toBeNull();
    r.git('update-index', '--index-version', '4');
    expect(facts(r.raw())).toBeNull();
    expect(facts(Buffer.alloc(0))).toBeNull();
    expect(facts(Buffer.from('DIRC'))).toBeNull();
    // A header that promises an entry, then only the checksum: the entry would be read past the buffer's end.
    const header = Buffer.alloc(12);
    header.write('DIRC', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(1, 8);
    expect(facts(Buffer.concat([header, createHash('sha1').update(header).digest()]))).toBeNull();
  });
});
