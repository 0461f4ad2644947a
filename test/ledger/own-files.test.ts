import { describe, expect, it } from 'vitest';
import { isLedgerOwnFile } from '../../lib/ledger/own-files.js';

describe('the files gate-check writes in a repository, by path', () => {
  it('the ledgers where discovery finds them, their locks and the temporary files beside them', () => {
    for (const p of [
      'GATES.md',
      'GATES.md.lock',
      '.GATES.md.gate-check-123-0a1b2c3d4e5f.tmp',
      '.GATES.md.lock.gate-check-9-abcdef012345.tmp',
      'gates/web.md',
      'gates/web.md.lock',
      'gates/.web.md.gate-check-77-00ff00ff00ff.tmp',
      '.gate-check/api/GATES.md',
      '.gate-check/api/more.md.lock',
      '.gate-check/api/.more.md.gate-check-1-aaaaaaaaaaaa.tmp',
    ]) {
      expect(isLedgerOwnFile(p), p).toBe(true);
    }
  });

  it('nothing else: other Markdown, other folders, names that only look alike', () => {
    for (const p of [
      'README.md',
      'docs/GATES.md',
      'gates/sub/x.md',
      'gates/.hidden.md',
      'gates/notes.txt',
      'src/gates/x.md',
      '.gate-check/api/sub/x.md',
      '.gate-check/x.md',
      'GATES.md.bak',
      'GATES.mdx',
      '.GATES.md.gate-check-x.tmp',
      'gates/.web.md.gate-check-1-zz.tmp',
      'lock',
    ]) {
      expect(isLedgerOwnFile(p), p).toBe(false);
    }
  });
});
