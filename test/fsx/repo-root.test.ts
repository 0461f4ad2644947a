// enclosingWorkTrees (lib/fsx/repo-root.ts): every folder at or above a root with a `.git` of
// any kind, outermost first, none that holds the home directory, at most one past the cap;
// isGitTopLevel, against git.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enclosingWorkTrees, isGitTopLevel, MAX_ENCLOSING_TREES } from '../../lib/fsx/repo-root.js';
import { tempDir } from '../helpers/cli.js';

describe('enclosingWorkTrees', () => {
  it('every folder with a .git, valid or not, outermost first; the root itself when there is none', () => {
    const d = tempDir('gc-trees-');
    mkdirSync(join(d, 'repo', '.git'), { recursive: true });
    mkdirSync(join(d, 'repo', 'web', 'deep'), { recursive: true });
    writeFileSync(join(d, 'repo', 'web', '.git'), 'not a gitfile\n');
    expect(enclosingWorkTrees(join(d, 'repo', 'web', 'deep'))).toEqual([join(d, 'repo'), join(d, 'repo', 'web')]);
    mkdirSync(join(d, 'plain'));
    expect(enclosingWorkTrees(join(d, 'plain'))).toEqual([join(d, 'plain')]);
  });

  it('stops one past the cap, so that the caller can refuse', () => {
    let dir = tempDir('gc-trees-');
    for (let i = 0; i <= MAX_ENCLOSING_TREES + 2; i++) {
      dir = join(dir, `n${i}`);
      mkdirSync(join(dir, '.git'), { recursive: true });
    }
    expect(enclosingWorkTrees(dir)).toHaveLength(MAX_ENCLOSING_TREES + 1);
  });
});

// isGitTopLevel must take what git takes: stricter, a folder git works in was passed over (a
// blank line after HEAD's ref hid a checkout from the Stop hook: round-39o O2, O3). git itself
// is the oracle: `git rev-parse --show-toplevel`, kept from looking above the folder.
describe('isGitTopLevel agrees with git', () => {
  const cases: Array<[string, (git: string) => void]> = [
    ['a HEAD as git writes it', () => {}],
    ['a blank line after the ref', (g) => writeFileSync(join(g, 'HEAD'), 'ref: refs/heads/main\n\n')],
    ['"ref:" and the ref on two lines', (g) => writeFileSync(join(g, 'HEAD'), 'ref:\nrefs/heads/main\n')],
    ['no blank after "ref:"', (g) => writeFileSync(join(g, 'HEAD'), 'ref:refs/heads/main')],
    ['blanks and tabs around the ref', (g) => writeFileSync(join(g, 'HEAD'), 'ref: \t refs/heads/main \t\n')],
    ['an object name, upper case', (g) => writeFileSync(join(g, 'HEAD'), `${'0123456789ABCDEF'.repeat(3).slice(0, 40)}\n`)],
    ['an object name and more', (g) => writeFileSync(join(g, 'HEAD'), `${'a'.repeat(40)} and more\n`)],
    ['HEAD a link to refs/heads/main', (g) => (rmSync(join(g, 'HEAD')), symlinkSync('refs/heads/main', join(g, 'HEAD')))],
    ['HEAD a link elsewhere', (g) => (rmSync(join(g, 'HEAD')), symlinkSync('/dev/null', join(g, 'HEAD')))],
    ['HEAD a folder', (g) => (rmSync(join(g, 'HEAD')), mkdirSync(join(g, 'HEAD')))],
    ['a HEAD of garbage', (g) => writeFileSync(join(g, 'HEAD'), 'garbage\n')],
    ['an empty HEAD', (g) => writeFileSync(join(g, 'HEAD'), '')],
    ['a ref outside refs/', (g) => writeFileSync(join(g, 'HEAD'), 'ref: heads/main\n')],
    ['a NUL before the ref', (g) => writeFileSync(join(g, 'HEAD'), 'ref: \0refs/heads/main\n')],
    ['objects/ a link to a folder elsewhere', (g) => (renameSync(join(g, 'objects'), join(g, '..', '..', 'objects-elsewhere')), symlinkSync(join(g, '..', '..', 'objects-elsewhere'), join(g, 'objects')))],
    ['no refs/', (g) => rmSync(join(g, 'refs'), { recursive: true })],
    ['an empty commondir', (g) => writeFileSync(join(g, 'commondir'), '')],
    ['a commondir of one newline (the folder itself)', (g) => writeFileSync(join(g, 'commondir'), '\n')],
    ['a commondir naming a folder without objects/', (g) => (mkdirSync(join(g, 'elsewhere')), writeFileSync(join(g, 'commondir'), 'elsewhere\n'))],
  ];
  for (const [name, change] of cases) {
    it(name, () => {
      const d = tempDir('gc-top-');
      const repo = join(d, 'repo');
      mkdirSync(repo);
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
      change(join(repo, '.git'));
      const git = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: d } });
      const gitTakes = git.status === 0 && git.stdout.trim() === realpathSync(repo);
      expect(isGitTopLevel(repo), `git: ${git.status} ${git.stderr}`).toBe(gitTakes);
    });
  }
});
