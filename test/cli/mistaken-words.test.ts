// `gate-check status`, `help`, `version`: a bare word named like an option, and no such file,
// is a usage error that suggests the option, in the form the user invoked gate-check.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationWords } from '../../lib/program/invocation.js';
import { shellCommand } from '../../lib/text/shell-quote.js';
import { BIN, runCli, sandbox, tempDir } from '../helpers/cli.js';

describe('a word that names an option, not a ledger', () => {
  it('suggests the flag (exit 2), started the way gate-check was: by its path, as gate-check on PATH, or through npx', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n');
    const start = shellCommand(invocationWords(s.env, BIN, process.execPath, s.repo))!;
    for (const [word, flag] of [['status', '--status'], ['help', '--help'], ['version', '--version'], ['reverify', '--reverify'], ['strict', '--strict']]) {
      const r = runCli([word!], { cwd: s.repo, env: s.env });
      expect(r.code, word).toBe(2);
      expect(r.stderr).toContain(`gate-check: ${word}: no such ledger file, and ${word} is not a command`);
      expect(r.stderr).toContain(`hint: did you mean '${start} ${flag}'?`);
    }
    // Found on PATH by its name (npm links it so): the name alone.
    const bin = tempDir('gc-bin-');
    symlinkSync(BIN, join(bin, 'gate-check'));
    const env = { ...s.env, PATH: `${bin}:${s.env.PATH}` };
    const linked = spawnSync(process.execPath, [join(bin, 'gate-check'), 'status'], { cwd: s.repo, env, encoding: 'utf8' });
    expect(linked.stderr).toContain("hint: did you mean 'gate-check --status'?");
    // Under npx: the project's node_modules/.bin/gate-check, with npm_command=exec.
    mkdirSync(join(s.repo, 'node_modules/.bin'), { recursive: true });
    symlinkSync(BIN, join(s.repo, 'node_modules/.bin/gate-check'));
    const npx = spawnSync(process.execPath, [join(s.repo, 'node_modules/.bin/gate-check'), 'status'], { cwd: s.repo, env: { ...s.env, npm_command: 'exec' }, encoding: 'utf8' });
    expect(npx.stderr).toContain("hint: did you mean 'npx --no-install gate-check --status'?");
    // npm_command inherited by a copy npx would not find from here: its own path (round-38c F3).
    const inherited = runCli(['status'], { cwd: s.repo, env: { ...s.env, npm_command: 'exec' } });
    expect(inherited.stderr).toContain(`hint: did you mean '${start} --status'?`);
  });

  it('a ledger file really named like that is read as one', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'status'), '- [x] A: t\n  EVIDENCE: reviewed\n');
    const r = runCli(['--status', 'status'], { cwd: s.repo, env: s.env });
    expect(r.stderr).not.toContain('did you mean');
  });
});
