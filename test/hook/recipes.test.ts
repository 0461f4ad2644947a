// The Windsurf recipe of references/hook.md, run as the page shows it: its script is taken
// from the page, given the documented pre_run_command payloads, with gate-check on PATH.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, sandbox } from '../helpers/cli.js';

const PAGE = readFileSync(resolve(import.meta.dirname, '../../references/hook.md'), 'utf8');

describe('the Windsurf recipe', () => {
  it('refuses git commit and git push while a gate is open, lets other commands and met ledgers through, and fails closed on bad input', () => {
    const script = /```js\n(\/\/ Windsurf pre_run_command[\s\S]*?)```/.exec(PAGE)![1]!;
    const config = /```json\n(\{ "hooks": \{ "pre_run_command"[\s\S]*?)```/.exec(PAGE)![1]!;
    expect(JSON.parse(config).hooks.pre_run_command[0].command).toBe('node scripts/windsurf-gates.mjs');
    const s = sandbox();
    const bin = join(s.home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'gate-check'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(join(bin, 'gate-check'), 0o755);
    mkdirSync(join(s.repo, 'scripts'));
    writeFileSync(join(s.repo, 'scripts', 'windsurf-gates.mjs'), script);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: the importer handles empty files\n');
    const env = { ...s.env, PATH: `${bin}:${s.env.PATH}` };
    const hook = (input: string) => spawnSync(process.execPath, ['scripts/windsurf-gates.mjs'], { cwd: s.repo, env, input, encoding: 'utf8' });
    const payload = (command: string) => JSON.stringify({ agent_action_name: 'pre_run_command', trajectory_id: 't', execution_id: 'e', timestamp: '2026-12-01T00:00:00Z', tool_info: { command_line: command, cwd: s.repo } });
    const commit = hook(payload('git commit -am "done"'));
    expect(commit.status).toBe(2);
    expect(commit.stderr).toContain('gate-check: not every gate is met, so committing is refused');
    expect(commit.stderr).toContain('GATES:A');
    expect(hook(payload('git push origin main')).status).toBe(2);
    expect(hook(payload('npm test')).status).toBe(0);
    expect(hook('not json').status).toBe(2);
    writeFileSync(join(s.repo, 'GATES.md'), '- [x] A: the importer handles empty files\n  EVIDENCE: reviewed by Ada\n');
    expect(hook(payload('git commit -am "done"')).status).toBe(0);
  });
});
