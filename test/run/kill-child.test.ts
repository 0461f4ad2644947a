// lib/run/kill-child.ts: a child whose spawn failed with EMFILE has no pid, and Node 20's own
// kill() then signals pid 0, the caller's process group (Node 22 and 24 no longer do: the
// first case fails on Node 20 when the guard is removed). Real processes, a real
// descriptor limit: each case runs in a process of its own, in a session of its own (setsid),
// so that a wrong kill reaches only that session.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '../..');

/** Runs `body` (an ES module, with killChild and a spawn that fails with EMFILE in `failed`) under `ulimit -n 40` in its own session. */
function runCase(body: string) {
  const dir = tempDir('gc-kill-child-');
  const file = join(dir, 'case.mjs');
  // The module as it is built (Node 20 cannot load TypeScript itself).
  writeFileSync(join(dir, 'kill-child.mjs'), transformSync(readFileSync(join(ROOT, 'lib/run/kill-child.ts'), 'utf8'), { loader: 'ts', format: 'esm' }).code);
  writeFileSync(
    file,
    `import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { killChild } from './kill-child.mjs';
const held = [];
try { for (;;) held.push(openSync('/dev/null', 'r')); } catch {}
const failed = spawn('/bin/true', [], { stdio: 'ignore' });
failed.on('error', () => {});
${body}
console.log('alive');
`,
  );
  return spawnSync('setsid', ['-w', 'sh', '-c', `ulimit -n 40 && '${process.execPath}' '${file}'; echo "exit $?"`], { encoding: 'utf8', timeout: 20_000 });
}

describe('killChild', () => {
  it('a child whose spawn failed with EMFILE: nothing is signalled (Node itself would kill our own group)', () => {
    const r = runCase(`console.log('pid ' + failed.pid); killChild(failed);`);
    expect(r.stdout).toContain('pid undefined');
    expect(r.stdout).toContain('alive');
    expect(r.stdout).toContain('exit 0');
  });

  it('a running child is killed by its pid, and an ended one is left alone', async () => {
    const r = runCase(`
const { once } = await import('node:events');
const { closeSync } = await import('node:fs');
for (const fd of held.splice(0)) closeSync(fd);
const child = spawn('sleep', ['30'], { stdio: 'ignore' });
await once(child, 'spawn');
killChild(child);
const [, signal] = await once(child, 'exit');
console.log('signal ' + signal);
killChild(child);`);
    expect(r.stdout).toContain('signal SIGKILL');
    expect(r.stdout).toContain('alive');
  });
});
