// The console examples of references/hook.md run as written: each ```console block in a fresh
// directory (no git, a private HOME), its `$ ` lines through bash with `gate-check` on PATH,
// and what they print compared with the lines that follow them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox } from '../helpers/cli.js';

const PAGE = resolve(import.meta.dirname, '../../references/hook.md');

interface Step {
  command: string;
  output: string;
}

function consoleBlocks(markdown: string): Step[][] {
  const blocks: Step[][] = [];
  for (const m of markdown.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const steps: Step[] = [];
    for (const line of m[1]!.split('\n').slice(0, -1)) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: '' });
      else steps[steps.length - 1]!.output += `${line}\n`;
    }
    blocks.push(steps);
  }
  return blocks;
}

describe('references/hook.md', () => {
  // The walk-through in /home/me/project shows this machine's paths in the page's place: hook-doc.test.ts runs it.
  const blocks = consoleBlocks(readFileSync(PAGE, 'utf8')).filter((steps) => !steps.some((s) => s.output.includes('/home/me/project')));

  it('has console examples', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  blocks.forEach((steps, i) => {
    it(`console example ${i + 1} (${steps[0]!.command.slice(0, 40)}…) prints what the page says`, () => {
      const s = sandbox();
      const bin = join(s.home, 'bin');
      mkdirSync(bin);
      // As npm installs it: a link named gate-check to the bin (the hook names it so in what it suggests).
      symlinkSync(BIN, join(bin, 'gate-check'));
      for (const step of steps) {
        const r = spawnSync('bash', ['-c', step.command], { cwd: s.repo, env: { ...s.env, PATH: `${bin}:${s.env.PATH}` }, encoding: 'utf8', timeout: 20_000 });
        expect(r.stdout, step.command).toBe(step.output);
        expect(r.status, `${step.command}\n${r.stderr}`).toBe(0);
      }
    });
  });
});
