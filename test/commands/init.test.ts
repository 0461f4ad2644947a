import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLedger } from '../../lib/ledger/parse.js';
import { runCli, sandbox } from '../helpers/cli.js';

describe('gate-check init', () => {
  it('writes a starter ledger that parses, with a runnable gate declaring its script and a manual gate', () => {
    const s = sandbox();
    const r = runCli(['init'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(0);
    const parsed = parseLedger(readFileSync(join(s.repo, 'GATES.md'), 'utf8'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.ledger.warnings).toEqual([]);
    const [g1, g2] = parsed.ledger.gates;
    expect(g1).toMatchObject({ kind: 'runnable', depends: ['scripts/check-gates-example.mjs'] });
    expect(g2!.kind).toBe('manual');
    expect(existsSync(join(s.repo, 'scripts/check-gates-example.mjs'))).toBe(true);
    expect(runCli(['lint', '--strict'], { cwd: s.repo, env: s.env }).code).toBe(0);
  });

  it('the starter gate passes once approved', () => {
    const s = sandbox();
    runCli(['init'], { cwd: s.repo, env: s.env });
    const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(r.stdout).toMatch(/^PASS GATES:G1/m);
  });

  it('refuses to overwrite an existing ledger or script, changing nothing', () => {
    const s = sandbox();
    writeFileSync(join(s.repo, 'GATES.md'), 'mine\n');
    const r = runCli(['init'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already exists/);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(s.repo, 'scripts'))).toBe(false);
  });
});
