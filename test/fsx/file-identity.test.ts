// What the file system says of bound files before a check, compared after it: a write is
// seen even when the bytes are put back, and a file written within a clock tick of the look
// counts as changed (its next write could keep the same ctime).
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedSince, fileIdentities, RACY_CTIME_MS } from '../../lib/fsx/file-identity.js';
import { tempDir } from '../helpers/cli.js';

describe('fileIdentities / changedSince', () => {
  const settled = () => Date.now() + 10 * RACY_CTIME_MS; // "now" well after every ctime

  it('an untouched file is unchanged; a rewrite with the same bytes and the old mtime is changed (ctime)', async () => {
    const dir = tempDir('gc-ident-');
    writeFileSync(join(dir, 'a'), 'x\n');
    writeFileSync(join(dir, 'b'), 'y\n');
    const before = fileIdentities(dir, ['a', 'b'], settled);
    expect(before.racy.size).toBe(0);
    expect(changedSince(dir, before)).toEqual([]);
    await new Promise((r) => setTimeout(r, 30));
    writeFileSync(join(dir, 'a'), 'x\n');
    utimesSync(join(dir, 'a'), 1, 1);
    expect(changedSince(dir, before)).toEqual(['a']);
  });

  it('a file removed, or one that did not exist and then does, is changed', () => {
    const dir = tempDir('gc-ident-');
    writeFileSync(join(dir, 'a'), 'x\n');
    const before = fileIdentities(dir, ['a', 'later'], settled);
    writeFileSync(join(dir, 'later'), 'z\n');
    expect(changedSince(dir, before)).toEqual(['later']);
  });

  it('a file whose ctime is within a clock tick of the look is racy: changed, whatever happens next', () => {
    const dir = tempDir('gc-ident-');
    writeFileSync(join(dir, 'a'), 'x\n');
    const racy = fileIdentities(dir, ['a'], () => statSync(join(dir, 'a')).ctimeMs + RACY_CTIME_MS / 2);
    expect([...racy.racy]).toEqual(['a']);
    expect(changedSince(dir, racy)).toEqual(['a']);
  });
});
