// ApprovalStore in-process, with real directories: a store directory replaced while in use
// (mv'd away by another process and made anew, as a check could do) stops every operation
// that reads the directory or writes to it; and records go by name, read or not.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalStore, recordFileName } from '../../lib/approval/store.js';
import { UnsafeStoreError } from '../../lib/errors.js';
import { ORACLE_VERSION, signOracle, type Oracle } from '../../lib/oracle/oracle.js';
import { storeLocations } from '../../lib/store/locations.js';
import { tempDir } from '../helpers/cli.js';

function oracle(gate = 'G1'): Oracle {
  return signOracle({
    v: ORACLE_VERSION,
    ledger: '/repo/GATES.md',
    gate,
    check: 'echo ok',
    expect: 'ok',
    cwd: '/repo',
    shell: '/bin/sh',
    timeoutMs: 120_000,
    outputCap: 1_048_576,
    regexCapMs: 250,
    platform: 'linux',
    path: '/usr/bin:/bin',
    depends: null,
  });
}

async function setup() {
  const home = tempDir('gc-home-');
  const locations = storeLocations({ HOME: home });
  const repo = join(tempDir('gc-repo-'), 'repo');
  mkdirSync(repo);
  const store = ApprovalStore.open(locations, repo, true);
  await store.approve(oracle(), new Date(), 1000);
  const dir = locations.approvals;
  return {
    store,
    dir,
    /** What a check could do: move the directory away and make a fresh private one in its place. */
    replace: () => execFileSync('/bin/sh', ['-c', 'mv "$1" "$1.old" && mkdir -m 700 "$1"', 'sh', dir]),
  };
}

const REPLACED = /approved: was replaced while in use \(refused\)/;

describe('an approvals directory replaced while in use', () => {
  it('verify() refuses', async () => {
    const s = await setup();
    s.store.verify();
    s.replace();
    expect(() => s.store.verify()).toThrow(REPLACED);
  });

  it('listing (all, names, previous) refuses', async () => {
    const s = await setup();
    s.replace();
    expect(() => s.store.all()).toThrow(REPLACED);
    expect(() => s.store.names()).toThrow(REPLACED);
    expect(() => s.store.previous('/repo/GATES.md', 'G1', 'f'.repeat(64))).toThrow(REPLACED);
  });

  it('approving refuses, and writes nothing into the new directory', async () => {
    const s = await setup();
    s.replace();
    await expect(s.store.approve(oracle('G2'), new Date(), 1000)).rejects.toThrow(REPLACED);
    expect(readdirSync(s.dir)).toEqual([]);
  });

  it('removing refuses, and the record in the directory that was opened stays', async () => {
    const s = await setup();
    const name = recordFileName('/repo/GATES.md', 'G1', oracle().signature);
    s.replace();
    writeFileSync(join(s.dir, name), 'decoy', { mode: 0o600 });
    await expect(s.store.removeByName(name, 1000)).rejects.toThrow(REPLACED);
    expect(existsSync(join(`${s.dir}.old`, name))).toBe(true);
    expect(existsSync(join(s.dir, name))).toBe(true);
  });
});

describe('removing a record by name', () => {
  it('removes a record it cannot read, and says false when there is none', async () => {
    const s = await setup();
    const name = `${'0'.repeat(16)}-${'1'.repeat(64)}.json`;
    writeFileSync(join(s.dir, name), 'not json', { mode: 0o644 });
    expect(s.store.all().invalid).toEqual([name]);
    expect(await s.store.removeByName(name, 1000)).toBe(true);
    expect(await s.store.removeByName(name, 1000)).toBe(false);
    expect(s.store.all().invalid).toEqual([]);
  });

  it('refuses anything but a record name (no path can leave the store)', async () => {
    const s = await setup();
    for (const bad of ['../GATES.md', 'x.json', `${'0'.repeat(16)}-${'1'.repeat(64)}.json/..`, `../${'0'.repeat(16)}-${'1'.repeat(64)}.json`]) {
      await expect(s.store.removeByName(bad, 1000)).rejects.toThrow(/is not an approval record name/);
    }
  });

  it('an UnsafeStoreError names the directory', async () => {
    const s = await setup();
    s.replace();
    const err = (() => {
      try {
        s.store.verify();
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(UnsafeStoreError);
    expect((err as UnsafeStoreError).path).toBe(s.dir);
  });
});
