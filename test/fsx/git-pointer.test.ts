// readGitPointer: a worktree's `.git` file or `commondir`, read as git reads it (through links,
// any link count) yet bounded and never blocking: null when absent, an error naming the file
// when it is there but not a small regular file.
import { linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeFileError } from '../../lib/errors.js';
import { gitdirOf, readGitPointer } from '../../lib/fsx/git-pointer.js';
import { tempDir } from '../helpers/cli.js';

describe('readGitPointer', () => {
  it('reads a file, through a symbolic link and with a second hard link; null when absent', () => {
    const d = tempDir();
    writeFileSync(join(d, 'commondir'), '../..\n');
    symlinkSync(join(d, 'commondir'), join(d, 'link'));
    linkSync(join(d, 'commondir'), join(d, 'hard'));
    expect(readGitPointer(join(d, 'commondir'))).toBe('../..\n');
    expect(readGitPointer(join(d, 'link'))).toBe('../..\n');
    expect(readGitPointer(join(d, 'hard'))).toBe('../..\n');
    expect(readGitPointer(join(d, 'absent'))).toBeNull();
  });

  it('refuses a folder and a FIFO (without waiting for a writer), naming them', () => {
    const d = tempDir();
    mkdirSync(join(d, 'dir'));
    expect(() => readGitPointer(join(d, 'dir'))).toThrow(new UnsafeFileError(join(d, 'dir'), 'is not a regular file'));
    expect(spawnSync('mkfifo', [join(d, 'fifo')]).status).toBe(0);
    expect(() => readGitPointer(join(d, 'fifo'))).toThrow(new UnsafeFileError(join(d, 'fifo'), 'is not a regular file'));
  });

  it('refuses a file over 64 KiB, and one that says it is empty but reads longer', () => {
    const d = tempDir();
    writeFileSync(join(d, 'big'), 'x'.repeat(64 * 1024 + 1));
    expect(() => readGitPointer(join(d, 'big'))).toThrow(new UnsafeFileError(join(d, 'big'), 'is 65537 bytes (at most 65536)'));
    writeFileSync(join(d, 'edge'), 'x'.repeat(64 * 1024));
    expect(readGitPointer(join(d, 'edge'))).toHaveLength(64 * 1024);
  });

  // A /proc file says size 0 and reads longer: the size seen first is no bound on what is read.
  const growing = ['/proc/kallsyms', '/proc/self/smaps'].find((p) => {
    try {
      return statSync(p).size === 0 && readFileSync(p).length > 64 * 1024;
    } catch {
      return false;
    }
  });
  it.runIf(growing !== undefined)(`refuses a file that reads longer than 64 KiB after saying it is smaller (${growing})`, () => {
    expect(() => readGitPointer(growing!)).toThrow(new UnsafeFileError(growing!, 'grew past 65536 bytes while being read'));
  });
});

describe('gitdirOf: the path a .git file names, as git reads it', () => {
  it('takes exactly "gitdir: ", drops trailing CR and LF, keeps every other byte (round-39n N1)', () => {
    expect(gitdirOf('gitdir: /r/.git/worktrees/w\n')).toBe('/r/.git/worktrees/w');
    expect(gitdirOf('gitdir: ../r/.git/worktrees/w\r\n\n\r')).toBe('../r/.git/worktrees/w');
    expect(gitdirOf('gitdir:  /x\n')).toBe(' /x');
    expect(gitdirOf('gitdir: x \t\n')).toBe('x \t');
    expect(gitdirOf('gitdir: x\0junk\n')).toBe('x');
  });

  it('refuses what git refuses: another prefix, no space, no path', () => {
    for (const text of ['gitdir:x\n', 'Gitdir: x\n', ' gitdir: x\n', 'gitdir: \n', 'gitdir: ', 'gitdir: \0x\n', '']) expect(gitdirOf(text), JSON.stringify(text)).toBeNull();
  });
});
