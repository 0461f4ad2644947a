// enclosingWorkTrees (lib/fsx/repo-root.ts): every folder at or above a root with a `.git` of
// any kind, outermost first, none that holds the home directory, at most one past the cap.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enclosingWorkTrees, MAX_ENCLOSING_TREES } from '../../lib/fsx/repo-root.js';
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
