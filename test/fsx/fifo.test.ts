// The FIFOs for a check's output (lib/fsx/fifo.ts), with real FIFOs: the private directory
// is refused unless it is a real 0700 directory of this user, a FIFO is taken only if it is
// the one made here, and a batch leaves no name, no directory and no descriptor behind,
// whatever fails; a batch of a process that is gone is removed.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, linkSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fifoBaseCandidates, makeFifos, openFifoReadEnd, privateFifoDir, removeStaleBatches } from '../../lib/fsx/fifo.js';
import { tempDir } from '../helpers/cli.js';

const uid = process.getuid!();
const openFds = () => readdirSync('/proc/self/fd').length;
const mkfifo = (...paths: string[]) => execFileSync('mkfifo', ['-m', '600', ...paths]);

describe('the private directory (refused unless it is a real 0700 directory of this user)', () => {
  it('is created 0700 in the base', () => {
    const b = tempDir('gc-pipes-new-');
    const dir = privateFifoDir(b);
    expect(dir).toBe(join(b, `gate-check-${uid}`));
    expect(execFileSync('stat', ['-c', '%a', dir], { encoding: 'utf8' }).trim()).toBe('700');
  });

  it('refuses a symbolic link, a file, and group or other access', () => {
    const link = tempDir('gc-pipes-link-');
    symlinkSync(tempDir('gc-pipes-elsewhere-'), join(link, `gate-check-${uid}`));
    expect(() => privateFifoDir(link)).toThrow(/is a symbolic link \(refused/);
    const file = tempDir('gc-pipes-file-');
    writeFileSync(join(file, `gate-check-${uid}`), '');
    expect(() => privateFifoDir(file)).toThrow(/is not a directory/);
    const open = tempDir('gc-pipes-open-');
    mkdirSync(join(open, `gate-check-${uid}`));
    chmodSync(join(open, `gate-check-${uid}`), 0o755);
    expect(() => privateFifoDir(open)).toThrow(/has permissions 0755: group or other may access it/);
  });

  it.skipIf(uid !== 0)("refuses another user's directory (as root: one chowned to nobody)", () => {
    const other = tempDir('gc-pipes-other-');
    const dir = join(other, `gate-check-${uid}`);
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(() => privateFifoDir(other)).toThrow(/is owned by uid 65534, not by you \(uid 0\) \(refused/);
  });
});

describe('a FIFO is taken only if it is the one made here', () => {
  it('opens a FIFO of this user with one link, and unlinks it', () => {
    const dir = tempDir('gc-fifo-');
    mkfifo(join(dir, 'p'));
    const fd = openFifoReadEnd(join(dir, 'p'));
    expect(existsSync(join(dir, 'p'))).toBe(false);
    closeSync(fd);
  });

  it('refuses a regular file, a link to a FIFO, and a FIFO with a second name, and leaves no descriptor open', () => {
    const dir = tempDir('gc-fifo-');
    const before = openFds();
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => openFifoReadEnd(join(dir, 'file'))).toThrow(/is not the FIFO gate-check made/);
    mkfifo(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(() => openFifoReadEnd(join(dir, 'link'))).toThrow(/cannot open the output pipe \(ELOOP/);
    linkSync(join(dir, 'real'), join(dir, 'second'));
    expect(() => openFifoReadEnd(join(dir, 'real'))).toThrow(/is not the FIFO gate-check made/);
    expect(existsSync(join(dir, 'real'))).toBe(true);
    expect(openFds()).toBe(before);
  });

  it.skipIf(uid !== 0)("refuses another user's FIFO (as root: one chowned to nobody)", () => {
    const dir = tempDir('gc-fifo-');
    mkfifo(join(dir, 'theirs'));
    chownSync(join(dir, 'theirs'), 65534, 65534);
    const before = openFds();
    expect(() => openFifoReadEnd(join(dir, 'theirs'))).toThrow(/is not the FIFO gate-check made/);
    expect(existsSync(join(dir, 'theirs'))).toBe(true);
    expect(openFds()).toBe(before);
  });
});

describe('batches leave nothing behind', () => {
  it('a batch returns read ends and removes its directory', () => {
    const dir = tempDir('gc-batch-');
    const fds = makeFifos(dir, 6, 2, (paths) => mkfifo(...paths));
    expect(fds).toHaveLength(6);
    expect(readdirSync(dir)).toEqual([]);
    for (const fd of fds) closeSync(fd);
  });

  it('mkfifo failing half-way: the error, no directory, no FIFO, no descriptor', () => {
    const dir = tempDir('gc-batch-');
    const before = openFds();
    expect(() =>
      makeFifos(dir, 4, 2, (paths) => {
        mkfifo(paths[0]!, paths[1]!);
        throw new Error('mkfifo failed');
      }),
    ).toThrow('mkfifo failed');
    expect(readdirSync(dir)).toEqual([]);
    expect(openFds()).toBe(before);
  });

  it('a name in a batch that is not our FIFO: the FIFOs before it are kept when they are enough, else nothing', () => {
    const dir = tempDir('gc-batch-');
    const plant = (paths: string[]) => {
      mkfifo(paths[0]!, paths[1]!, paths[3]!);
      writeFileSync(paths[2]!, 'planted');
    };
    const fds = makeFifos(dir, 4, 2, plant);
    expect(fds).toHaveLength(2);
    expect(readdirSync(dir)).toEqual([]);
    for (const fd of fds) closeSync(fd);
    const before = openFds();
    expect(() => makeFifos(dir, 4, 3, plant)).toThrow(/is not the FIFO gate-check made/);
    expect(readdirSync(dir)).toEqual([]);
    expect(openFds()).toBe(before);
  });

  it('the batch of a process that is gone is removed; a live process\'s and any other name are kept', () => {
    const dir = tempDir('gc-stale-');
    const dead = execFileSync('sh', ['-c', 'sh -c "echo \\$\\$"'], { encoding: 'utf8' }).trim();
    const staleBatch = join(dir, `${dead}-0123456789ab`);
    mkdirSync(staleBatch);
    mkfifo(join(staleBatch, '0'), join(staleBatch, '1'));
    const liveBatch = join(dir, `${process.pid}-0123456789ab`);
    mkdirSync(liveBatch);
    const parentBatch = join(dir, `${process.ppid}-aaaaaaaaaaaa`);
    mkdirSync(parentBatch);
    mkdirSync(join(dir, 'not-a-batch'));
    removeStaleBatches(dir);
    expect(readdirSync(dir).sort()).toEqual([`${process.pid}-0123456789ab`, `${process.ppid}-aaaaaaaaaaaa`, 'not-a-batch'].sort());
  });
});

describe('where the private directory may be', () => {
  it('$XDG_RUNTIME_DIR, /dev/shm, the temporary directory: absolute ones only, each once', () => {
    expect(fifoBaseCandidates({ XDG_RUNTIME_DIR: '/run/user/7', TMPDIR: '/tmp' })[0]).toBe('/run/user/7');
    expect(fifoBaseCandidates({ XDG_RUNTIME_DIR: 'relative/dir' })[0]).toBe('/dev/shm');
    expect(fifoBaseCandidates({ XDG_RUNTIME_DIR: '/dev/shm' }).filter((b) => b === '/dev/shm')).toHaveLength(1);
  });

  it('a base that does not exist: the private directory cannot be created, and says so', () => {
    const gone = join(tempDir('gc-pipes-gone-'), 'nope');
    expect(() => privateFifoDir(gone)).toThrow(/cannot create the directory \(ENOENT/);
  });

  it('a batch cannot be made in a directory that does not exist: the error, nothing else', () => {
    const gone = join(tempDir('gc-batch-gone-'), 'nope');
    let created = false;
    expect(() => makeFifos(gone, 2, 2, () => (created = true))).toThrow(/cannot create the directory \(ENOENT/);
    expect(created).toBe(false);
  });
});
