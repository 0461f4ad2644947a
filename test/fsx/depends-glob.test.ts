// DEPENDS matching: the fast path (plain paths, last-segment wildcards) and fast-glob agree,
// symlinks are refused, nothing matched is an error.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchDependsGlob } from '../../lib/fsx/depends-glob.js';
import { BIN, cleanEnv, tempDir } from '../helpers/cli.js';

function tree() {
  const root = tempDir();
  for (const f of ['scripts/a.mjs', 'scripts/b.mjs', 'scripts/.hidden.mjs', 'scripts/c.js', 'fixtures/x.json', 'fixtures/sub/y.json', 'top.md', 'dir.mjs/inner.txt']) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  return root;
}

describe('matchDependsGlob', () => {
  it('matches plain paths and last-segment wildcards, dot files included, sorted', async () => {
    const root = tree();
    expect(await matchDependsGlob(root, 'scripts/a.mjs', 'T')).toEqual(['scripts/a.mjs']);
    expect(await matchDependsGlob(root, 'scripts/*.mjs', 'T')).toEqual(['scripts/.hidden.mjs', 'scripts/a.mjs', 'scripts/b.mjs']);
    expect(await matchDependsGlob(root, 'scripts/?.js', 'T')).toEqual(['scripts/c.js']);
    expect(await matchDependsGlob(root, '*.md', 'T')).toEqual(['top.md']);
  });

  it('agrees with fast-glob on the patterns it handles', async () => {
    const root = tree();
    for (const p of ['scripts/*.mjs', 'scripts/*', '*', 'fixtures/*.json']) {
      const fast = await matchDependsGlob(root, p, 'T');
      const viaFastGlob = (await matchDependsGlob(root, `{${p},${p}}`, 'T')).filter((f) => !f.endsWith('/'));
      expect(fast, p).toEqual(viaFastGlob);
    }
  });

  it('uses fast-glob for the rest (**, braces, classes)', async () => {
    const root = tree();
    expect(await matchDependsGlob(root, 'fixtures/**/*.json', 'T')).toEqual(['fixtures/sub/y.json', 'fixtures/x.json']);
    expect(await matchDependsGlob(root, 'scripts/{a,b}.mjs', 'T')).toEqual(['scripts/a.mjs', 'scripts/b.mjs']);
    expect(await matchDependsGlob(root, 'scripts/[ab].mjs', 'T')).toEqual(['scripts/a.mjs', 'scripts/b.mjs']);
  });

  it('a pattern that matches no file, or only a directory, is an error', async () => {
    const root = tree();
    await expect(matchDependsGlob(root, 'nope/*.js', 'T')).rejects.toThrow(/matches no file/);
    await expect(matchDependsGlob(root, 'missing.txt', 'T')).rejects.toThrow(/matches no file/);
    await expect(matchDependsGlob(root, 'dir.mjs', 'T')).rejects.toThrow(/matches no file/);
    await expect(matchDependsGlob(root, 'fixtures/**/*.txt', 'T')).rejects.toThrow(/matches no file/);
  });

  it('refuses a matched symlink on both paths, and does not descend a symlinked directory', async () => {
    const root = tree();
    symlinkSync('/etc/hostname', join(root, 'scripts', 'evil.mjs'));
    await expect(matchDependsGlob(root, 'scripts/evil.mjs', 'T')).rejects.toThrow(/symbolic link/);
    await expect(matchDependsGlob(root, 'scripts/*.mjs', 'T')).rejects.toThrow(/symbolic link/);
    await expect(matchDependsGlob(root, 'scripts/**/*.mjs', 'T')).rejects.toThrow(/symbolic link/);
    const other = tempDir();
    writeFileSync(join(other, 'secret.txt'), 's');
    symlinkSync(other, join(root, 'linked'));
    for (const p of ['linked/*.txt', 'linked/secret.txt', 'linked/**/*.txt', 'linked/{secret,x}.txt']) {
      await expect(matchDependsGlob(root, p, 'T'), p).rejects.toThrow(/goes through a symbolic link/);
    }
    mkdirSync(join(root, 'deep'));
    symlinkSync(other, join(root, 'deep', 'linked'));
    await expect(matchDependsGlob(root, 'deep/linked/secret.txt', 'T')).rejects.toThrow(/goes through a symbolic link/);
    // A symlinked directory met during a ** walk is not descended: what lies behind it is not a dependency.
    await expect(matchDependsGlob(root, 'deep/**/*.txt', 'T')).rejects.toThrow(/matches no file/);
  });
});

describe('matchDependsGlob never leaves the repository through brace expansion (issue 8 §9)', () => {
  it('{.,..}/outside.txt and {/abs,x}/f are refused although the files outside exist', async () => {
    const root = tree();
    writeFileSync(join(root, '..', 'outside.txt'), 'outside');
    const other = tempDir();
    writeFileSync(join(other, 'f'), 'outside');
    mkdirSync(join(root, 'x'));
    writeFileSync(join(root, 'x', 'f'), 'inside');
    writeFileSync(join(root, 'outside.txt'), 'inside');
    await expect(matchDependsGlob(root, '{.,..}/outside.txt', 'T')).rejects.toThrow(/outside the repository through its brace alternative \.\.\/outside\.txt/);
    await expect(matchDependsGlob(root, `{${other},x}/f`, 'T')).rejects.toThrow(/outside the repository through its brace alternative \/.*\/f/);
    await expect(matchDependsGlob(root, 'a/{b,../..}/outside.txt', 'T')).rejects.toThrow(/outside the repository/);
    // The same patterns without the outside alternative match inside.
    expect(await matchDependsGlob(root, '{.,x}/outside.txt', 'T')).toEqual(['outside.txt']);
  });

  it('brace bombs and unbounded wildcards are refused before any file system work', async () => {
    const root = tree();
    await expect(matchDependsGlob(root, '{a,b,c,d}'.repeat(10), 'T')).rejects.toThrow(/brace expansion gives 1048576 patterns/);
    await expect(matchDependsGlob(root, 'scripts/*a*b*c*d', 'T')).rejects.toThrow(/more than 3 '\*'/);
    await expect(matchDependsGlob(root, 'scripts/+(a|aa).mjs', 'T')).rejects.toThrow(/extended glob/);
  });
});

// Round-39u U4: a folder under a glob that cannot be listed ended a run with "internal error:
// EACCES … scandir"; it is named as a file that cannot be read is. Root lists anything, so as
// root the CLI runs as nobody (setpriv) over a sandbox of its own.
describe('a folder a pattern walks that cannot be listed', () => {
  it('ends the run with exit 2, naming the folder and the gate, and runs nothing', () => {
    const root = tempDir();
    const repo = join(root, 'repo');
    const home = join(root, 'home');
    mkdirSync(join(repo, 'data', 'sub'), { recursive: true });
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(repo, 'data', 'a.txt'), '1\n');
    writeFileSync(join(repo, 'data', 'sub', 'x.txt'), 'x\n');
    writeFileSync(join(repo, 'GATES.md'), '- [ ] G1: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n  INPUTS: data/**\n');
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chown', ['-R', '65534:65534', root]);
    chmodSync(root, 0o755);
    chmodSync(join(repo, 'data', 'sub'), 0o000);
    const argv = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, '--approve'] : [process.execPath, BIN, '--approve'];
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: repo, env: cleanEnv({ HOME: home }), encoding: 'utf8', input: '' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe('gate-check: INPUTS of GATES:G1: data/sub: cannot be listed (EACCES)\n');
    expect(existsSync(join(repo, 'ran'))).toBe(false);
    chmodSync(join(repo, 'data', 'sub'), 0o755); // so that the temporary folder can be removed
  });
});
