// appendRecords / appendNoFollow: only a regular file, never through a link, never waited
// on; one write per record, a record after a torn one starts on a fresh line; every error
// names the file.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, linkSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendNoFollow, appendRecords } from '../../lib/fsx/append-file.js';
import { fsyncFault } from '../../lib/fsx/sync.js';
import { tempDir } from '../helpers/cli.js';
import { isRoot } from '../helpers/limits.js';
import { sleep } from '../helpers/process.js';

describe('appendNoFollow', () => {
  it('appends, creating the file', () => {
    const f = join(tempDir(), 'log');
    appendNoFollow(f, 'a\n');
    appendNoFollow(f, 'b\n');
    expect(readFileSync(f, 'utf8')).toBe('a\nb\n');
  });

  it('refuses a symlink, leaving its target alone', () => {
    const d = tempDir();
    writeFileSync(join(d, 'target'), 'keep');
    symlinkSync(join(d, 'target'), join(d, 'log'));
    expect(() => appendNoFollow(join(d, 'log'), 'x')).toThrow(/log: is a symbolic link/);
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('keep');
  });

  it('for a private log, refuses a second hard link and group/other bits', () => {
    const d = tempDir();
    writeFileSync(join(d, 'log'), '', { mode: 0o600 });
    linkSync(join(d, 'log'), join(d, 'alias'));
    expect(() => appendNoFollow(join(d, 'log'), 'x', { privateLog: true })).toThrow(/2 hard links/);
    writeFileSync(join(d, 'open'), '');
    chmodSync(join(d, 'open'), 0o644);
    expect(() => appendNoFollow(join(d, 'open'), 'x', { privateLog: true })).toThrow(/group or other/);
    expect(readFileSync(join(d, 'open'), 'utf8')).toBe('');
  });

  it.skipIf(!isRoot)('for a private log, refuses one owned by another user (run as root)', () => {
    const d = tempDir();
    writeFileSync(join(d, 'log'), 'theirs\n', { mode: 0o600 });
    chownSync(join(d, 'log'), 4242, 4242);
    expect(() => appendNoFollow(join(d, 'log'), 'x\n', { privateLog: true })).toThrow(/log: is owned by uid 4242, not by you/);
    expect(readFileSync(join(d, 'log'), 'utf8')).toBe('theirs\n');
  });
});

describe('a target that is not a regular file is refused before anything is written, and never waited on', () => {
  it('a FIFO without a reader', () => {
    const f = join(tempDir(), 'fifo');
    execFileSync('mkfifo', [f]);
    const t0 = Date.now();
    expect(() => appendNoFollow(f, 'x')).toThrow(/fifo: is a FIFO or socket \(refused: only a regular file is appended to\)/);
    expect(() => appendNoFollow(f, 'x', { privateLog: true })).toThrow(/is a FIFO/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('a FIFO with a reader gets nothing', async () => {
    const f = join(tempDir(), 'fifo');
    execFileSync('mkfifo', [f]);
    const reader = spawn('cat', [f]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    try {
      await sleep(100);
      expect(() => appendNoFollow(f, 'leak')).toThrow(/is a FIFO/);
    } finally {
      reader.kill();
    }
    expect(got).toBe('');
  });

  for (const device of ['/dev/null', '/dev/full']) {
    it(`a device (${device})`, () => {
      expect(() => appendNoFollow(device, 'x')).toThrow(new RegExp(`^${device}: is a device \\(refused`));
    });
  }

  it('a directory', () => {
    const d = tempDir();
    expect(() => appendNoFollow(d, 'x')).toThrow(/is a directory \(refused/);
  });
});

describe('record-atomic appends', () => {
  afterEach(() => {
    fsyncFault.fail = null;
  });

  it('a private log that ends mid-line (a torn record) gets the next record on a fresh line', () => {
    const f = join(tempDir(), 'log');
    writeFileSync(f, '{"a":1}\n{"tor', { mode: 0o600 });
    appendRecords(f, ['{"b":2}\n', '{"c":3}\n'], { privateLog: true });
    expect(readFileSync(f, 'utf8')).toBe('{"a":1}\n{"tor\n{"b":2}\n{"c":3}\n');
    appendRecords(f, ['{"d":4}\n'], { privateLog: true });
    expect(readFileSync(f, 'utf8')).toBe('{"a":1}\n{"tor\n{"b":2}\n{"c":3}\n{"d":4}\n');
  });

  it('refuse() is asked about the opened file: a hard link to a protected file is seen by identity', () => {
    const d = tempDir();
    writeFileSync(join(d, 'GATES.md'), 'ledger\n');
    linkSync(join(d, 'GATES.md'), join(d, 'summary.md'));
    const ino = statSync(join(d, 'GATES.md')).ino;
    expect(() => appendNoFollow(join(d, 'summary.md'), 'report', { refuse: (st) => (st.ino === ino ? 'is the ledger (refused)' : null) })).toThrow(/summary\.md: is the ledger \(refused\)/);
    expect(readFileSync(join(d, 'GATES.md'), 'utf8')).toBe('ledger\n');
  });

  it('an fsync error of a private log (injected: nothing makes fsync fail for real) surfaces, naming the log', () => {
    const f = join(tempDir(), 'log');
    fsyncFault.fail = (p) => (p === f ? Object.assign(new Error('EIO'), { code: 'EIO' }) : null);
    expect(() => appendRecords(f, ['x\n'], { privateLog: true, mode: 0o600 })).toThrow(`${f}: cannot append (EIO: input/output error)`);
  });
});
