// captureDirectoryChain / verifyDirectoryChain: the directories from a root down to a file,
// each a real directory, and each still the same one (device and inode) when checked again.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureDirectoryChain, verifyDirectoryChain } from '../../lib/fsx/dir-chain.js';
import { tempDir } from '../helpers/cli.js';

function tree() {
  const root = tempDir();
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  const file = join(root, 'a', 'b', 'L.md');
  writeFileSync(file, 'x');
  return { root, file };
}

describe('the directory chain of a ledger', () => {
  it('holds the root and every directory down to the file, and verifies while nothing changed', () => {
    const t = tree();
    const chain = captureDirectoryChain(t.root, t.file);
    expect(chain.dirs.map((d) => d.path)).toEqual([t.root, join(t.root, 'a'), join(t.root, 'a', 'b')]);
    verifyDirectoryChain(chain);
    expect(captureDirectoryChain(t.root, join(t.root, 'GATES.md')).dirs.map((d) => d.path)).toEqual([t.root]);
  });

  it('refuses a file outside the root', () => {
    const t = tree();
    expect(() => captureDirectoryChain(join(t.root, 'a'), join(t.root, 'GATES.md'))).toThrow(/GATES\.md: is outside the repository root/);
  });

  it('a directory that disappeared, or became a file, is refused by name', () => {
    const t = tree();
    const chain = captureDirectoryChain(t.root, t.file);
    rmSync(join(t.root, 'a'), { recursive: true });
    expect(() => verifyDirectoryChain(chain)).toThrow(`${join(t.root, 'a')}: cannot inspect the directory (ENOENT)`);
    writeFileSync(join(t.root, 'a'), 'now a file');
    expect(() => verifyDirectoryChain(chain)).toThrow(`${join(t.root, 'a')}: is not a directory`);
  });

  it('a directory renamed away and replaced by an identical-looking one is refused', () => {
    const t = tree();
    const chain = captureDirectoryChain(t.root, t.file);
    renameSync(join(t.root, 'a'), join(t.root, 'a.old'));
    mkdirSync(join(t.root, 'a', 'b'), { recursive: true });
    expect(() => verifyDirectoryChain(chain)).toThrow(`${join(t.root, 'a')}: was replaced by another directory since the run started`);
  });
});
