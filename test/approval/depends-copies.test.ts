// Copies of approved DEPENDS files (for the diff shown at the next approval), on real files:
// only the approved content is kept, a copy whose content no longer has its digest is never
// shown as the approved version, the store stays private, and prune removes what no approval
// refers to.
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COPY_MAX_BYTES, approvedCopy, keepApprovedCopies, pruneCopies } from '../../lib/approval/depends-copies.js';
import { sha256Hex } from '../../lib/oracle/sha256.js';
import { storeLocations } from '../../lib/store/locations.js';
import { tempDir } from '../helpers/cli.js';

function setup() {
  const base = tempDir();
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(repo, 'scripts'), { recursive: true });
  mkdirSync(home, { mode: 0o700 });
  return { repo, locations: storeLocations({ HOME: home }), copies: join(home, '.gate-check', 'copies') };
}

describe('copies of approved DEPENDS files', () => {
  it('keeps the approved content, private (0700 directory, 0600 files), named by its digest, once', () => {
    const s = setup();
    writeFileSync(join(s.repo, 'scripts/a.sh'), 'echo a\n');
    const digest = sha256Hex('echo a\n');
    expect(keepApprovedCopies(s.locations, s.repo, [['scripts/a.sh', digest]])).toBe(1);
    expect(readdirSync(s.copies)).toEqual([digest]);
    expect(statSync(s.copies).mode & 0o777).toBe(0o700);
    expect(statSync(join(s.copies, digest)).mode & 0o777).toBe(0o600);
    expect(approvedCopy(s.locations, s.repo, digest)?.toString()).toBe('echo a\n');
    expect(keepApprovedCopies(s.locations, s.repo, [['scripts/a.sh', digest]])).toBe(1);
  });

  it('a file changed since it was hashed for the approval is not kept as the approved version', () => {
    const s = setup();
    writeFileSync(join(s.repo, 'scripts/a.sh'), 'echo changed\n');
    expect(keepApprovedCopies(s.locations, s.repo, [['scripts/a.sh', sha256Hex('echo a\n')]])).toBe(0);
    expect(approvedCopy(s.locations, s.repo, sha256Hex('echo a\n'))).toBeNull();
  });

  it('a copy altered in place, or not private, is never shown as the approved version', () => {
    const s = setup();
    writeFileSync(join(s.repo, 'scripts/a.sh'), 'echo a\n');
    const digest = sha256Hex('echo a\n');
    keepApprovedCopies(s.locations, s.repo, [['scripts/a.sh', digest]]);
    writeFileSync(join(s.copies, digest), 'echo something else\n');
    expect(approvedCopy(s.locations, s.repo, digest)).toBeNull();
    writeFileSync(join(s.copies, digest), 'echo a\n');
    expect(approvedCopy(s.locations, s.repo, digest)?.toString()).toBe('echo a\n');
    chmodSync(join(s.copies, digest), 0o644);
    expect(approvedCopy(s.locations, s.repo, digest)).toBeNull();
    expect(approvedCopy(s.locations, s.repo, '../../etc/passwd')).toBeNull();
  });

  it('a file over the cap is not copied', () => {
    const s = setup();
    const big = 'x'.repeat(COPY_MAX_BYTES + 1);
    writeFileSync(join(s.repo, 'scripts/big.sh'), big);
    expect(keepApprovedCopies(s.locations, s.repo, [['scripts/big.sh', sha256Hex(big)]])).toBe(0);
  });

  it('prune removes the copies no approval refers to (a dry run only counts them)', () => {
    const s = setup();
    writeFileSync(join(s.repo, 'scripts/a.sh'), 'a\n');
    writeFileSync(join(s.repo, 'scripts/b.sh'), 'b\n');
    const [a, b] = [sha256Hex('a\n'), sha256Hex('b\n')];
    keepApprovedCopies(s.locations, s.repo, [['scripts/a.sh', a], ['scripts/b.sh', b]]);
    expect(pruneCopies(s.locations, s.repo, new Set([a]), true)).toBe(1);
    expect(readdirSync(s.copies).sort()).toEqual([a, b].sort());
    expect(pruneCopies(s.locations, s.repo, new Set([a]), false)).toBe(1);
    expect(readdirSync(s.copies)).toEqual([a]);
  });
});
