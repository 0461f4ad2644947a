// openPrivateDir: a store folder is a real folder of the user's, closed to others, outside the
// repository, and the same folder for as long as it is used (verify()).
import { chmodSync, mkdirSync, renameSync, rmdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeStoreError } from '../../lib/errors.js';
import { openPrivateDir } from '../../lib/fsx/private-dir.js';
import { tempDir } from '../helpers/cli.js';

describe('openPrivateDir', () => {
  it('creates a 0700 folder and verifies it while it stays', () => {
    const d = tempDir();
    const dir = openPrivateDir(join(d, 'store'), { repoRoot: join(d, 'repo'), create: true });
    expect(() => dir.verify()).not.toThrow();
  });

  it('refuses a folder inside the repository, a link, and one open to others', () => {
    const d = tempDir();
    mkdirSync(join(d, 'repo'));
    expect(() => openPrivateDir(join(d, 'repo', 'store'), { repoRoot: join(d, 'repo'), create: true })).toThrow(/is inside the repository/);
    mkdirSync(join(d, 'real'), { mode: 0o700 });
    symlinkSync(join(d, 'real'), join(d, 'link'));
    expect(() => openPrivateDir(join(d, 'link'), { repoRoot: join(d, 'repo'), create: false })).toThrow(/is a symbolic link/);
    chmodSync(join(d, 'real'), 0o750);
    expect(() => openPrivateDir(join(d, 'real'), { repoRoot: join(d, 'repo'), create: false })).toThrow(/has permissions 0750/);
  });

  it('verify() refuses a folder that disappeared, or was replaced, while in use', () => {
    const d = tempDir();
    const dir = openPrivateDir(join(d, 'store'), { repoRoot: join(d, 'repo'), create: true });
    renameSync(join(d, 'store'), join(d, 'moved'));
    expect(() => dir.verify()).toThrow(new UnsafeStoreError(join(d, 'store'), 'disappeared while in use (ENOENT)'));
    mkdirSync(join(d, 'store'), { mode: 0o700 });
    expect(() => dir.verify()).toThrow(new UnsafeStoreError(join(d, 'store'), 'was replaced while in use (refused)'));
    rmdirSync(join(d, 'store'));
  });
});
