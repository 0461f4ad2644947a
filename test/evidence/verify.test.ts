// Evidence you can trust, through the real CLI: verified / unverified / mismatched / stale,
// --status --strict, stale gates in plain runs, --reverify --only-stale, receipts store.
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { assertReportSchema } from '../helpers/schema.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    run: (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: s.repo, env: { ...s.env, ...env } }),
    ledger: () => readFileSync(join(s.repo, 'GATES.md'), 'utf8'),
    setLedger: (text: string) => writeFileSync(join(s.repo, 'GATES.md'), text),
  };
}

const GATES = [
  '- [ ] A: the verifier accepts the fixture',
  '  CHECK: echo run >> a.count; node scripts/verify.mjs',
  '  EXPECT: verified',
  '  DEPENDS: scripts/verify.mjs',
  '- [ ] B: the other check passes',
  '  CHECK: echo run >> b.count; echo other-ok',
  '  EXPECT: other-ok',
  '',
].join('\n');
const VERIFY = "console.log('verified');\n";

function passed() {
  const s = repo({ 'GATES.md': GATES, 'scripts/verify.mjs': VERIFY });
  expect(s.run(['--approve']).code).toBe(0);
  return s;
}

const count = (s: { repo: string }, f: string) => {
  try {
    return readFileSync(join(s.repo, f), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

describe('verification states', () => {
  it('a real pass is verified: --status --strict exits 0', () => {
    const s = passed();
    expect(s.ledger()).toMatch(/EVIDENCE: exit=0; sha256=[0-9a-f]{64}; bytes=9; shell=\/bin\/sh; cwd=\.; path=[0-9a-f]{12}\/\d+; deps=[0-9a-f]{12}; receipt=[0-9a-f]{12}/);
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ALL MET (2 met)\n');
    const j = JSON.parse(s.run(['--status', '--json']).stdout);
    assertReportSchema(j);
    expect(j.gates.map((g: { verification: string }) => g.verification)).toEqual(['verified', 'verified']);
    expect(j.summary).toMatchObject({ met: 2, verified: 2 });
  });

  it('hand-written evidence is unverified: flagged by --status, unmet under --strict', () => {
    const s = repo({
      'GATES.md': '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  EVIDENCE: exit=0; sha256=' + 'a'.repeat(64) + '; bytes=3\n',
    });
    const plain = s.run(['--status']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^GATES:A {2}met, unverified {2}t: no receipt on this machine/m);
    expect(plain.stdout).toMatch(/^ALL MET \(1 met\)$/m);
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^UNMET: GATES:A$/m);
  });

  it('an evidence line edited after a real pass is mismatched', () => {
    const s = passed();
    s.setLedger(s.ledger().replace(/sha256=([0-9a-f])/, (_m, c: string) => `sha256=${c === '0' ? '1' : '0'}`));
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:A {2}met, mismatched .*the evidence line differs from the receipt it names$/m);
  });

  it('evidence copied from another gate is mismatched', () => {
    const s = passed();
    const lines = s.ledger().split('\n');
    const evA = lines.findIndex((l) => l.includes('EVIDENCE:'));
    const evB = lines.findIndex((l, i) => i > evA && l.includes('EVIDENCE:'));
    lines[evB] = lines[evA]!;
    s.setLedger(lines.join('\n'));
    const r = s.run(['--status', '--strict', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.gates[1].verification).not.toBe('verified');
    expect(r.code).toBe(1);
  });

  it('a DEPENDS file edited after a pass makes the gate stale, naming the file', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/verify.mjs'), VERIFY + '// edited\n');
    const r = s.run(['--status']);
    expect(r.code).toBe(0); // without --strict, today's exit semantics
    expect(r.stdout).toMatch(/^GATES:A {2}met, stale .*: DEPENDS changed: scripts\/verify\.mjs$/m);
    expect(s.run(['--status', '--strict']).code).toBe(1);
  });

  it('a changed PATH makes the evidence stale', () => {
    const s = passed();
    const r = s.run(['--status', '--strict'], { PATH: `/opt/extra:${process.env.PATH}` });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/met, stale .*PATH changed/);
  });

  it('a claimed gate is unmet under --strict and reported as claimed', () => {
    const s = repo({ 'GATES.md': '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  EVIDENCE: pending\n' });
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:A {2}claimed/m);
  });

  it('a manual gate is human evidence', () => {
    const s = repo({ 'GATES.md': '- [x] M: reviewed\n  EVIDENCE: reviewed by Ada on 2026-11-02\n' });
    expect(s.run(['--status', '--strict']).code).toBe(0);
    expect(JSON.parse(s.run(['--status', '--json']).stdout).gates[0].verification).toBe('manual');
  });
});

describe('stale gates in runs', () => {
  it('a plain run never re-reports a stale gate as met: it needs approval and a run', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/verify.mjs'), VERIFY + '// edited\n');
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:A@/m);
    expect(r.stdout).toMatch(/approved before for another oracle: DEPENDS: scripts\/verify\.mjs changed/);
    expect(count(s, 'a.count')).toBe(1);
    expect(s.run(['--approve']).code).toBe(0);
    expect(count(s, 'a.count')).toBe(2);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it('--reverify --only-stale runs exactly the stale gates', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/verify.mjs'), VERIFY + '// edited\n');
    const r = s.run(['--reverify', '--only-stale', '--approve']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS GATES:A/m);
    expect(r.stdout).not.toMatch(/GATES:B/);
    expect([count(s, 'a.count'), count(s, 'b.count')]).toEqual([2, 1]);
    const again = s.run(['--reverify', '--only-stale']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/no stale or mismatched evidence; nothing to re-run/);
  });
});

describe('receipt store refusals', () => {
  const receiptsDir = (home: string) => join(home, '.gate-check', 'receipts');

  it('a tampered receipts file stops --status with exit 2', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, file), text.replace(/"bytes":9/, '"bytes":10'), { mode: 0o600 });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid receipts file/);
  });

  it('a symlinked receipts directory stops --status with exit 2', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    renameSync(dir, `${dir}.real`);
    symlinkSync(`${dir}.real`, dir);
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
  });

  it('a forged receipt (right shape, digest not covering its fields) does not verify', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    doc.receipts[0].outputSha256 = 'b'.repeat(64);
    writeFileSync(join(dir, file), JSON.stringify(doc), { mode: 0o600 });
    expect(s.run(['--status', '--strict']).code).toBe(2);
  });

  it('--status creates no receipts or history directory', () => {
    const s = repo({ 'GATES.md': '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  EVIDENCE: exit=0\n' });
    mkdirSync(join(s.home, '.gate-check'), { mode: 0o700 });
    s.run(['--status', '--strict']);
    expect(readdirSync(join(s.home, '.gate-check'))).toEqual([]);
  });
});
