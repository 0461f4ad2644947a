// `gate-check status`, `help`, `version`: a bare word named like an option, and no such file,
// is a usage error that suggests the option, in the form the user invoked gate-check.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from '../helpers/cli.js';

describe('a word that names an option, not a ledger', () => {
  it('suggests the flag (exit 2), and the npx form when npm exec started it', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] A: t\n');
    for (const [word, flag] of [['status', '--status'], ['help', '--help'], ['version', '--version'], ['reverify', '--reverify'], ['strict', '--strict']]) {
      const r = runCli([word!], { cwd: s.repo, env: { ...s.env, npm_command: '' } });
      expect(r.code, word).toBe(2);
      expect(r.stderr).toContain(`gate-check: ${word}: no such ledger file, and ${word} is not a command`);
      expect(r.stderr).toContain(`hint: did you mean 'gate-check ${flag}'?`);
    }
    const npx = runCli(['status'], { cwd: s.repo, env: { ...s.env, npm_command: 'exec' } });
    expect(npx.stderr).toContain("hint: did you mean 'npx gate-check --status'?");
  });

  it('a ledger file really named like that is read as one', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'status'), '- [x] A: t\n  EVIDENCE: reviewed\n');
    const r = runCli(['--status', 'status'], { cwd: s.repo, env: s.env });
    expect(r.stderr).not.toContain('did you mean');
  });
});
