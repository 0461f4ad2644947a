// references/parallel.md runs as written: its ledgers are written into a fresh repository and
// every `$ ` command of its console block is run there (through sh, with gate-check on PATH);
// the output must be what the page shows, where a line ending in `…` is a prefix.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox, writeFiles } from '../helpers/cli.js';

const PAGE = readFileSync(resolve(import.meta.dirname, '../../references/parallel.md'), 'utf8');

function ledgers(): Record<string, string> {
  const files: Record<string, string> = {};
  const re = /^`([^`\n]+)`:\n\n```markdown\n([\s\S]*?)```$/gm;
  for (const m of PAGE.matchAll(re)) files[m[1]!] = m[2]!;
  return files;
}

function session(): { command: string; expected: string[] }[] {
  const block = /```console\n([\s\S]*?)```/.exec(PAGE)![1]!;
  const steps: { command: string; expected: string[] }[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
    else if (line !== '') steps[steps.length - 1]!.expected.push(line);
  }
  return steps;
}

describe('references/parallel.md', () => {
  it('the walk-through runs as shown', () => {
    const s = sandbox();
    const files = ledgers();
    expect(Object.keys(files)).toEqual(['GATES.md', '.gate-check/api/work.md', '.gate-check/web/work.md', '.gate-check/all/work.md']);
    writeFiles(s.repo, files);
    const bin = join(s.home, '..', 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'gate-check'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'gate-check'), 0o755);
    const env = { ...s.env, PATH: `${bin}:${process.env.PATH}` };
    const steps = session();
    expect(steps.length).toBeGreaterThan(15);
    for (const step of steps) {
      const r = spawnSync('/bin/sh', ['-c', `{ ${step.command}; } 2>&1`], { cwd: s.repo, env, encoding: 'utf8' });
      const actual = r.stdout.split('\n').filter((l) => l !== '');
      expect(actual.length, `${step.command}\n${r.stdout}`).toBe(step.expected.length);
      step.expected.forEach((want, i) => {
        if (want.endsWith('…')) expect(actual[i]!.startsWith(want.slice(0, -1)), `${step.command}: ${actual[i]}`).toBe(true);
        else expect(actual[i], step.command).toBe(want);
      });
    }
  });
});
