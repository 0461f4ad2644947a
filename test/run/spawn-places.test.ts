// SECURITY.md's "Where gate-check touches the system" is a list to audit: every module of
// lib/ that can start a process (imports node:child_process) is named there, and every
// module named as starting processes does.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts')) out.push(relative(root, p));
  }
  return out;
}

describe('SECURITY.md lists every place that starts a process', () => {
  it('the modules importing node:child_process are exactly those the Processes item names', () => {
    const spawning = sources(join(root, 'lib'))
      .filter((f) => /from ['"](node:)?child_process['"]/.test(readFileSync(join(root, f), 'utf8')))
      .sort();
    const security = readFileSync(join(root, 'SECURITY.md'), 'utf8');
    const item = /^- \*\*Processes\*\*[\s\S]*?(?=^- \*\*)/m.exec(security)![0];
    const count = /started in (\w+) modules only/.exec(item)![1];
    const named = [...item.matchAll(/`(lib\/[\w/-]+\.ts)`/g)].map((m) => m[1]!).filter((f) => f !== 'lib/run/process-tree.ts' && f !== 'lib/run/kill-child.ts' && f !== 'lib/run/git-program.ts'); // named there, start nothing
    expect([...new Set(named)].sort()).toEqual(spawning);
    expect(count).toBe(['zero', 'one', 'two', 'three', 'four', 'five'][spawning.length]);
  });
});
