// Reading a revision through git (gate-check diff): one cat-file --batch for many reads,
// every answer bounded, requests only ever hex object ids; raw tree objects parsed strictly.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/errors.js';
import { findEntry, parseTree } from '../../lib/run/git-tree.js';
import { openObjectReader, resolveRevision } from '../../lib/run/git.js';
import { sandbox, writeFiles } from '../helpers/cli.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: s.repo, env: s.env, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'c');
  return { ...s, git };
}

const LIMITS = { maxObjectBytes: 1024, maxTotalBytes: 4096, timeoutMs: 20_000 };

describe('openObjectReader', () => {
  it('answers pipelined reads in order: blobs, trees, a commit\'s tree, and missing objects', async () => {
    const s = repo({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const reader = openObjectReader(s.repo, s.env, LIMITS);
    const [tree, a, missing, b] = await Promise.all([
      reader.read(`${s.git('rev-parse', 'HEAD')}^{tree}`),
      reader.read(s.git('rev-parse', 'HEAD:a.txt')),
      reader.read('0'.repeat(40)),
      reader.read(s.git('rev-parse', 'HEAD:b.txt')),
    ]);
    reader.close();
    expect(a).toEqual({ kind: 'object', type: 'blob', bytes: Buffer.from('alpha\n') });
    expect(b).toEqual({ kind: 'object', type: 'blob', bytes: Buffer.from('beta\n') });
    expect(missing).toEqual({ kind: 'missing' });
    expect(tree.kind === 'object' && tree.type).toBe('tree');
    const entries = parseTree(tree.kind === 'object' ? tree.bytes : Buffer.alloc(0), 20)!;
    expect(entries.map((e) => [e.name.toString(), e.kind])).toEqual([
      ['a.txt', 'blob'],
      ['b.txt', 'blob'],
    ]);
    expect(findEntry(entries, 'b.txt')!.oid).toBe(s.git('rev-parse', 'HEAD:b.txt'));
  });

  it('an object over the per-object cap is refused at its header, and the reader ends', async () => {
    const s = repo({ 'big.txt': 'x'.repeat(5000), 'small.txt': 's' });
    const reader = openObjectReader(s.repo, s.env, LIMITS);
    const big = reader.read(s.git('rev-parse', 'HEAD:big.txt'));
    const after = reader.read(s.git('rev-parse', 'HEAD:small.txt'));
    expect(await big).toEqual({ kind: 'too-large', type: 'blob', size: 5000, limit: 'object' });
    await expect(after).rejects.toThrow(/over the size cap ended the reader/);
    await expect(reader.read(s.git('rev-parse', 'HEAD:small.txt'))).rejects.toThrow(/over the size cap/);
  });

  it('all objects together are capped too', async () => {
    const s = repo({ 'a.txt': 'a'.repeat(1000), 'b.txt': 'b'.repeat(1000) });
    const reader = openObjectReader(s.repo, s.env, { ...LIMITS, maxTotalBytes: 1500 });
    expect((await reader.read(s.git('rev-parse', 'HEAD:a.txt'))).kind).toBe('object');
    expect(await reader.read(s.git('rev-parse', 'HEAD:b.txt'))).toEqual({ kind: 'too-large', type: 'blob', size: 1000, limit: 'total' });
    reader.close();
  });

  it('only hex object ids are requests: a name, a path or a second line is refused before git sees it', async () => {
    const s = repo({ 'a.txt': 'a' });
    const reader = openObjectReader(s.repo, s.env, LIMITS);
    for (const bad of ['HEAD', 'HEAD:a.txt', `${'a'.repeat(40)}\n${'b'.repeat(40)}`, `${'a'.repeat(40)}^{commit}`, 'A'.repeat(40), '']) {
      await expect(reader.read(bad), JSON.stringify(bad)).rejects.toThrow(/not an object id/);
    }
    expect((await reader.read(s.git('rev-parse', 'HEAD:a.txt'))).kind).toBe('object');
    reader.close();
  });

  it('is bounded in time', async () => {
    const s = repo({ 'a.txt': 'a' });
    const reader = openObjectReader(s.repo, s.env, { ...LIMITS, timeoutMs: 1 });
    await new Promise((r) => setTimeout(r, 50));
    await expect(reader.read(s.git('rev-parse', 'HEAD:a.txt'))).rejects.toThrow(/did not finish within/);
  });

  it('without git on PATH: a clear error, not a hang', async () => {
    const s = repo({ 'a.txt': 'a' });
    const oid = s.git('rev-parse', 'HEAD:a.txt');
    const reader = openObjectReader(s.repo, { ...s.env, PATH: '/nonexistent' }, LIMITS);
    await expect(reader.read(oid)).rejects.toThrow(/git is not installed/);
  });
});

describe('resolveRevision', () => {
  it('the commit and where the root lies in the repository, even for a directory named with a newline', async () => {
    const s = repo({ 'a.txt': 'a' });
    const dir = join(s.repo, 'we\nird', 'sub');
    mkdirSync(dir, { recursive: true });
    const t = await resolveRevision(dir, 'HEAD', s.env);
    expect(t).toEqual({ commit: s.git('rev-parse', 'HEAD'), prefix: 'we\nird/sub/' });
    expect((await resolveRevision(s.repo, 'HEAD', s.env)).prefix).toBe('');
  });

  it('a revision that starts with "-" is never passed to git; one git cannot resolve is a usage error', async () => {
    const s = repo({ 'a.txt': 'a' });
    await expect(resolveRevision(s.repo, '--output=x', s.env)).rejects.toThrow(UsageError);
    await expect(resolveRevision(s.repo, '--output=x', s.env)).rejects.toThrow(/not a revision: "--output=x"/);
    await expect(resolveRevision(s.repo, '', s.env)).rejects.toThrow(/not a revision/);
    await expect(resolveRevision(s.repo, 'nope', s.env)).rejects.toThrow(/cannot resolve BASE "nope" to a commit/);
    await expect(resolveRevision(s.repo, s.git('rev-parse', 'HEAD:a.txt'), s.env)).rejects.toThrow(/cannot resolve/);
  });
});

describe('an answer git would never give is refused, not guessed at (a stand-in git on PATH)', () => {
  const FAKE = `#!/bin/sh
for a in "$@"; do case "$a" in cat-file) mode=cat;; --show-prefix) mode=prefix;; esac; done
case "$FAKE_GIT:$mode" in
  bad-prefix:prefix) printf 'abc\\n'; exit 0;;
  latin1-prefix:prefix) printf '\\377/\\n'; exit 0;;
  bad-header:cat) read l; printf 'garbage here\\n'; sleep 1;;
  no-lf:cat) read l; printf '%s blob 3\\nabcX' "$l"; sleep 1;;
  extra:cat) read l; printf '%s missing\\n%s missing\\n' "$l" "$l"; sleep 1;;
  long-header:cat) read l; head -c 300 /dev/zero | tr '\\0' a; sleep 1;;
  exit:cat) read l; echo boom >&2; exit 3;;
esac
`;
  function fake(mode: string) {
    const s = sandbox();
    const bin = join(s.home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), FAKE);
    chmodSync(join(bin, 'git'), 0o755);
    return { dir: s.repo, env: { ...s.env, PATH: `${bin}:${s.env.PATH}`, FAKE_GIT: mode } };
  }
  const OID = 'ab'.repeat(20);

  it('a prefix that is not a directory path, or not UTF-8', async () => {
    const a = fake('bad-prefix');
    await expect(resolveRevision(a.dir, 'HEAD', a.env)).rejects.toThrow(/unexpected answer from git rev-parse --show-prefix: "abc"/);
    const b = fake('latin1-prefix');
    await expect(resolveRevision(b.dir, 'HEAD', b.env)).rejects.toThrow(/not valid UTF-8/);
  });

  for (const [mode, message] of [
    ['bad-header', /unexpected answer from git cat-file: "garbage here"/],
    ['no-lf', /did not end where its header said/],
    ['long-header', /header line too long/],
    ['exit', /git cat-file ended before answering: boom/],
  ] as const) {
    it(`cat-file: ${mode}`, async () => {
      const f = fake(mode);
      const reader = openObjectReader(f.dir, f.env, LIMITS);
      await expect(reader.read(OID)).rejects.toThrow(message);
      reader.close();
    });
  }

  it('cat-file: an answer to a request never made ends the reader', async () => {
    const f = fake('extra');
    const reader = openObjectReader(f.dir, f.env, LIMITS);
    expect(await reader.read(OID)).toEqual({ kind: 'missing' });
    await new Promise((r) => setTimeout(r, 200));
    await expect(reader.read(OID)).rejects.toThrow(/answered a request that was never made/);
    reader.close();
  });

  it('a closed reader reads nothing', async () => {
    const s = repo({ 'a.txt': 'a' });
    const reader = openObjectReader(s.repo, s.env, LIMITS);
    reader.close();
    await expect(reader.read(s.git('rev-parse', 'HEAD:a.txt'))).rejects.toThrow(/reader is closed/);
  });
});

describe('parseTree refuses malformed trees', () => {
  const oid = Buffer.alloc(20, 0xab);
  const entry = (mode: string, name: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), oid]);

  it('parses entries of every kind', () => {
    const t = Buffer.concat([entry('40000', 'd'), entry('100644', 'f'), entry('100755', 'x'), entry('120000', 'l'), entry('160000', 'm'), entry('100600', 'odd')]);
    expect(parseTree(t, 20)!.map((e) => `${e.name} ${e.kind} ${e.oid.slice(0, 4)}`)).toEqual(['d tree abab', 'f blob abab', 'x blob abab', 'l symlink abab', 'm gitlink abab', 'odd unknown abab']);
    expect(parseTree(Buffer.alloc(0), 20)).toEqual([]);
  });

  for (const [what, bytes] of [
    ['a truncated object id', Buffer.concat([entry('100644', 'a'), Buffer.from('100644 b\0abc')])],
    ['no space after the mode', Buffer.from('100644\0' + 'x'.repeat(20))],
    ['a mode that is not octal', entry('10x644', 'a')],
    ['an over-long mode', entry('10000644', 'a')],
    ['an empty name', entry('100644', '')],
    ['the name "."', entry('40000', '.')],
    ['the name ".."', entry('40000', '..')],
    ['a name with a slash', entry('100644', 'gates/x.md')],
    ['a name twice', Buffer.concat([entry('100644', 'GATES.md'), entry('100644', 'GATES.md')])],
    ['no NUL after the name', Buffer.from('100644 name-without-end')],
  ] as const) {
    it(what, () => expect(parseTree(bytes, 20)).toBeNull());
  }
});
