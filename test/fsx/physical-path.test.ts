// physicalRepositoryPath: where a path a shell follows leads, on a real file system.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globCanBindLater, physicalRepositoryPath, reachesThroughProcess } from '../../lib/fsx/physical-path.js';
import { inDirectory } from '../../lib/lint/scripts.js';

function tree() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gc-phys-')));
  const root = join(base, 'repo');
  mkdirSync(join(root, 'spec', 'unit'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(root, 'check.sh'), 'echo ok\n');
  writeFileSync(join(root, 'spec', 'check.sh'), 'echo ok\n');
  symlinkSync('spec/unit', join(root, 'tests'));
  symlinkSync('../outside', join(root, 'lib'));
  return root;
}

describe('physicalRepositoryPath', () => {
  const root = tree();
  const at = (path: string, dir = '.') => physicalRepositoryPath(root, path, dir, inDirectory);

  it('a path through a symlinked folder is named as written: no DEPENDS binds the link, whose retarget runs other code (round-8 and round-8c attacks)', () => {
    // Not the top-level check.sh the text names, nor spec/check.sh, which a DEPENDS may bind while the link moves.
    expect(at('../check.sh', 'tests')).toBe('tests/../check.sh');
    expect(at('tests/../check.sh')).toBe('tests/../check.sh');
    expect(at('tests/..')).toBe('tests/..');
    expect(at('run.sh', 'tests')).toBe('tests/run.sh');
    expect(at('tests/run.sh')).toBe('tests/run.sh');
    // The last name is kept (DEPENDS never binds a link).
    expect(at('tests')).toBe('tests');
    // Without a link on the way, the path is the file's.
    expect(at('spec/unit/../check.sh')).toBe('spec/check.sh');
  });

  it('a plain path is itself; one a link leads out of the repository is named as written; one the text leads out is outside (null)', () => {
    expect(at('check.sh')).toBe('check.sh');
    expect(at('./spec/../check.sh')).toBe('check.sh');
    expect(at('lib/run.sh')).toBe('lib/run.sh');
    // From a folder a link leads out of the repository, `..` is out there too: kept as written (round-8b attack).
    expect(at('../check.sh', 'lib')).toBe('lib/../check.sh');
    expect(at('..')).toBeNull();
  });

  it('what does not exist yet is read as text, unless a `..` follows a folder the CHECK may make a link (round-8b attack)', () => {
    expect(at('later/x.sh')).toBe('later/x.sh');
    expect(at('x.sh', 'nowhere')).toBe('nowhere/x.sh');
    expect(at('../x.sh', 'nowhere')).toBe('nowhere/../x.sh');
  });
});

describe('globCanBindLater', () => {
  const root = tree();
  it('only what is not there yet, with no symlinked folder on the way (a glob never enters one)', () => {
    expect(globCanBindLater(root, 'later.sh')).toBe(true);
    expect(globCanBindLater(root, 'spec/new/later.sh')).toBe(true);
    expect(globCanBindLater(root, 'check.sh')).toBe(false);
    expect(globCanBindLater(root, 'tests/later.sh')).toBe(false);
    expect(globCanBindLater(root, 'lib/run.sh')).toBe(false);
    expect(globCanBindLater(root, 'spec/../later.sh')).toBe(false);
    // A path named as written, through a folder not made yet: what it leads to cannot be known.
    expect(globCanBindLater(root, 'notyet/../later.sh')).toBe(false);
    expect(globCanBindLater(root, 'notyet/./later.sh')).toBe(false);
  });
});

// Round-33 F2: a path that goes through a process's own folder in /proc is another folder for
// each process. Each branch of the rule: a cwd or root reached by a link and `..`, an open
// descriptor or a thread read as a folder; and what is only read.
describe.skipIf(process.platform !== 'linux')('reachesThroughProcess', () => {
  it('is true through a cwd, a root, a descriptor read as a folder, or a thread', () => {
    for (const p of ['/proc/self/cwd/x', '/dev/fd/../cwd/x', '/dev//fd/./../root/etc', '/dev/fd/0/x', '/proc/self/fd/1/..', '/proc/self/task/999999999/cwd']) {
      expect(reachesThroughProcess(p), p).toBe(true);
    }
    const out = mkdtempSync(join(tmpdir(), 'gc-proc-'));
    symlinkSync('/dev/fd', join(out, 'fdl'));
    // Written as the shell passes it: join() would take the `..` out as text.
    expect(reachesThroughProcess(`${out}/fdl/../cwd/x`)).toBe(true);
  });

  it('is false for what is only read, and for a path that leads nowhere', () => {
    for (const p of ['/dev/stderr', '/dev/fd/1', '/proc/self/status', '/proc/cpuinfo', '/usr/bin/env', '/nonexistent/cwd/x']) {
      expect(reachesThroughProcess(p), p).toBe(false);
    }
  });
});
