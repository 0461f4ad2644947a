// DEPENDS resolution with real files: one shared list per pattern set, failures remembered
// per pass and named for each gate, the size cap, the checkpoint before every file, and the
// stat cache consulted across passes.
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeadlineError } from '../../lib/errors.js';
import { StatCache } from '../../lib/fsx/stat-cache.js';
import type { Gate } from '../../lib/ledger/types.js';
import { DEPENDS_MAX_FILE_BYTES, OracleResolver, ResolutionPass } from '../../lib/oracle/resolve.js';
import { LIST_MEMO_MAX_ENTRIES } from '../../lib/oracle/file-digests.js';
import { tempDir } from '../helpers/cli.js';

function resolver(root: string): OracleResolver {
  return new OracleResolver({ root, shell: '/bin/sh', timeoutMs: 1000, outputCap: 1024, regexCapMs: 10, platform: 'linux', path: '/bin', env: null, defaultCwd: null });
}
const gate = (id: string, depends: string[]) => ({ id, depends }) as unknown as Gate;

function repoWith(n: number): string {
  const root = tempDir();
  mkdirSync(join(root, 'd'));
  for (let i = 0; i < n; i++) writeFileSync(join(root, 'd', `f${i}.txt`), `file ${i}\n`);
  return root;
}

describe('OracleResolver.depends', () => {
  it('gates with the same pattern set (in any order, with repeats) share one frozen list', async () => {
    const root = repoWith(3);
    writeFileSync(join(root, 'x.txt'), 'x');
    const r = resolver(root);
    const a = await r.depends(gate('A', ['d/*', 'x.txt']), 'L:A');
    const b = await r.depends(gate('B', ['x.txt', 'd/*', 'd/*']), 'L:B');
    expect(b).toBe(a);
    expect(a!.map((e) => e[0])).toEqual(['d/f0.txt', 'd/f1.txt', 'd/f2.txt', 'x.txt']);
    // A fresh pass builds its own list (files are looked at again).
    expect(await r.depends(gate('A', ['d/*', 'x.txt']), 'L:A', new ResolutionPass())).not.toBe(a);
  });

  it('remembers at most LIST_MEMO_MAX_ENTRIES entries for sharing: distinct lists past it are used, not kept', async () => {
    const root = repoWith(3000);
    const per = 3001;
    for (let i = 0; i < 100; i++) writeFileSync(join(root, `e${i}.txt`), 'x');
    const r = resolver(root);
    const p = new ResolutionPass();
    const fit = Math.floor(LIST_MEMO_MAX_ENTRIES / per);
    const lists = [];
    for (let i = 0; i < fit + 3; i++) lists.push(await r.depends(gate(`G${i}`, ['d/*', `e${i}.txt`]), `L:G${i}`, p));
    expect(lists.every((l) => l!.length === per)).toBe(true);
    expect(p.lists.size).toBe(fit);
    expect(p.listEntries).toBe(fit * per);
    expect(p.listEntries).toBeLessThanOrEqual(LIST_MEMO_MAX_ENTRIES);
    // The kept ones are still shared; one past the bound is built again, equal but not the same.
    expect(await r.depends(gate('H0', ['e0.txt', 'd/*']), 'L:H0', p)).toBe(lists[0]);
    const late = await r.depends(gate(`H${fit}`, ['d/*', `e${fit}.txt`]), `L:H${fit}`, p);
    expect(late).not.toBe(lists[fit]);
    expect(late).toEqual(lists[fit]);
  });

  it('a failing file fails every gate that lists it, each error naming its own gate', async () => {
    const root = repoWith(2);
    truncateSync(join(root, 'd', 'f1.txt'), DEPENDS_MAX_FILE_BYTES + 1);
    const r = resolver(root);
    await expect(r.depends(gate('A', ['d/*']), 'L:A')).rejects.toThrow(/^DEPENDS of L:A: d\/f1\.txt: is 64\.0 MiB \(67108865 bytes\), over the 64 MiB limit/);
    await expect(r.depends(gate('B', ['d/*']), 'L:B')).rejects.toThrow(/^DEPENDS of L:B: d\/f1\.txt: is 64\.0 MiB/);
    symlinkSync('f0.txt', join(root, 'd', 'link'));
    const p = new ResolutionPass();
    await expect(r.depends(gate('C', ['d/*']), 'L:C', p)).rejects.toThrow(/^DEPENDS of L:C: d\/link is a symbolic link/);
    await expect(r.depends(gate('D', ['d/*']), 'L:D', p)).rejects.toThrow(/^DEPENDS of L:D: d\/link is a symbolic link/);
  });

  it('calls the checkpoint before every file; what it throws abandons the list and is not remembered as a failure', async () => {
    const root = repoWith(10);
    const r = resolver(root);
    let calls = 0;
    r.setCheckpoint(() => {
      if (++calls === 6) throw new DeadlineError('out of time');
    });
    await expect(r.depends(gate('A', ['d/*']), 'L:A')).rejects.toBeInstanceOf(DeadlineError);
    expect(calls).toBe(6); // the glob, then five files
    r.setCheckpoint(undefined);
    expect(await r.depends(gate('A', ['d/*']), 'L:A')).toHaveLength(10);
  });

  it('a deadline inside the hashing of a large file is not remembered as that file\'s failure', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'big.bin'), Buffer.alloc(300_000, 1));
    const r = resolver(root);
    let calls = 0;
    r.setCheckpoint(() => {
      if (++calls === 4) throw new DeadlineError('out of time'); // glob, file, then between chunks
    });
    await expect(r.depends(gate('A', ['d/*']), 'L:A')).rejects.toBeInstanceOf(DeadlineError);
    r.setCheckpoint(undefined);
    expect(await r.depends(gate('B', ['d/*']), 'L:B')).toHaveLength(1);
  });

  it('hashes through its stat cache, so a later pass need not read an unchanged file again', async () => {
    const root = repoWith(1);
    const r = resolver(root);
    const cache = new StatCache();
    r.useStatCache(cache);
    const first = await r.depends(gate('A', ['d/*']), 'L:A');
    // Pretend the file had settled when it was hashed, with a forged digest: the next pass answers from the cache.
    const { lstatSync } = await import('node:fs');
    const st = lstatSync(join(root, 'd', 'f0.txt'));
    cache.load(join(root, 'd', 'f0.txt'), { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, sha256: 'e'.repeat(64) });
    const again = await r.depends(gate('A', ['d/*']), 'L:A', new ResolutionPass());
    expect(first![0]![1]).not.toBe('e'.repeat(64));
    expect(again![0]![1]).toBe('e'.repeat(64));
  });
});
