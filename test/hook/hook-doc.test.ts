// references/hook.md and README.md run as written: the walk-through of the hook page (its
// console block) runs in a fresh repository with gate-check on PATH, and its output must be
// what the page shows once this machine's paths are put in the page's place (the repository
// is /home/me/project, HOME /home/me, node /usr/local/bin/node, the CLI under
// /usr/local/lib/node_modules); the README's hook commands all exit 0 in order.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox } from '../helpers/cli.js';

const PAGE = readFileSync(resolve(import.meta.dirname, '../../references/hook.md'), 'utf8');
const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

function session(block: string): { command: string; expected: string[] }[] {
  const steps: { command: string; expected: string[] }[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
    else if (line !== '') steps[steps.length - 1]!.expected.push(line);
  }
  return steps;
}

function withCli() {
  const s = sandbox();
  const bin = join(s.home, '..', 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'gate-check'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'gate-check'), 0o755);
  const env = { ...s.env, PATH: `${bin}:${process.env.PATH}` };
  const run = (command: string) => spawnSync('/bin/sh', ['-c', `{ ${command}; } 2>&1`], { cwd: s.repo, env, encoding: 'utf8' });
  return { ...s, run };
}

describe('references/hook.md', () => {
  it('the walk-through runs as shown', () => {
    // The walk-through is the console block in /home/me/project; hook-docs.test.ts runs the others.
    const blocks = [...PAGE.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes('/home/me/project'));
    expect(blocks).toHaveLength(1);
    const s = withCli();
    const page = (text: string) =>
      text
        .split(realpathSync(BIN))
        .join('/usr/local/lib/node_modules/gate-check/bin/gate-check.js')
        .split(process.execPath)
        .join('/usr/local/bin/node')
        .split(s.repo)
        .join('/home/me/project')
        .split(s.home)
        .join('/home/me');
    const steps = session(blocks[0]!);
    expect(steps.length).toBeGreaterThan(5);
    for (const step of steps) {
      const r = s.run(step.command);
      const actual = page(r.stdout).split('\n').filter((l) => l !== '');
      expect(actual, step.command).toEqual(step.expected);
    }
  });

  it('the refusal shown under "One hook per host" is the walk-through\'s', () => {
    const text = /```text\n(\$ gate-check hook install --host copilot --shared\ngate-check: refused[\s\S]*?)```/.exec(PAGE)![1]!;
    const walk = [...PAGE.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('/home/me/project'))!;
    expect(walk).toContain(text);
  });
});

describe('README.md', () => {
  it('the hook commands run in order, each with exit 0', () => {
    const block = /```sh\n((?:\s*gate-check hook [^\n]*\n)+)\s*```/.exec(README)![1]!;
    const commands = block
      .split('\n')
      .map((l) => l.replace(/#.*$/, '').trim())
      .filter((l) => l !== '');
    expect(commands.length).toBe(5);
    const s = withCli();
    for (const command of commands) {
      const r = s.run(command);
      expect(r.status, `${command}\n${r.stdout}`).toBe(0);
    }
    expect(s.run('ls -A .claude .codex').stdout.trim()).toBe('.claude:\n\n.codex:');
  });
});
