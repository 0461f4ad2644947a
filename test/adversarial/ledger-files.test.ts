// Adversarial ledger files and locations, through the real CLI. Each refusal exits 2 and
// would pass silently if the refusal were removed.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

const GOOD = '- [x] A: t\n  EVIDENCE: exit=0\n';

function setup() {
  const s = sandbox();
  const outside = tempDir('gc-outside-');
  writeFileSync(join(outside, 'GATES.md'), GOOD);
  return { ...s, outside, run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env, timeoutMs: 10_000 }) };
}

describe('unsafe ledger files are refused with exit 2', () => {
  it('GATES.md that is a symlink (even to a met ledger)', () => {
    const s = setup();
    symlinkSync(join(s.outside, 'GATES.md'), join(s.repo, 'GATES.md'));
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md is a symbolic link/);
  });

  it('a gates/ directory that is a symlink', () => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': GOOD });
    symlinkSync(s.outside, join(s.repo, 'gates'));
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gates is a symbolic link/);
  });

  it('a symlinked file inside gates/', () => {
    const s = setup();
    mkdirSync(join(s.repo, 'gates'));
    symlinkSync(join(s.outside, 'GATES.md'), join(s.repo, 'gates', 'x.md'));
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gates\/x\.md is a symbolic link/);
  });

  it('a symlinked scope directory, and a symlinked .gate-check', () => {
    const s = setup();
    mkdirSync(join(s.repo, '.gate-check'));
    symlinkSync(s.outside, join(s.repo, '.gate-check', 'task'));
    expect(s.run(['--status', '--scope', 'task']).stderr).toMatch(/\.gate-check\/task is a symbolic link/);
    const t = setup();
    symlinkSync(t.outside, join(t.repo, '.gate-check'));
    expect(t.run(['--status', '--scope', 'task']).code).toBe(2);
  });

  it('--scope naming a path: refused as an invalid scope id, never read (a met ledger waits outside)', () => {
    const s = setup();
    mkdirSync(join(s.repo, '.gate-check'));
    const up = relative(join(s.repo, '.gate-check'), s.outside);
    expect(up.startsWith('../')).toBe(true);
    for (const scope of [up, `../${basename(s.repo)}`, '..', '.', s.outside, 'a/../..', '.hidden', 'x'.repeat(65)]) {
      for (const args of [['--status', '--scope', scope], ['approvals', 'list', '--scope', scope]]) {
        const r = s.run(args);
        expect(r.code, scope).toBe(2);
        expect(r.stderr).toContain(`invalid scope id "${scope}"`);
        expect(r.stdout).not.toMatch(/\bA\b/);
      }
    }
    // The same ledger inside a real scope is read: the refusal is about the id, not the ledger.
    mkdirSync(join(s.repo, '.gate-check', 'task'));
    writeFileSync(join(s.repo, '.gate-check', 'task', 'GATES.md'), GOOD);
    expect(s.run(['--status', '--scope', 'task']).code).toBe(0);
  });

  it('an explicit ledger outside the root, directly or through a symlinked directory', () => {
    const s = setup();
    expect(s.run(['--status', join(s.outside, 'GATES.md')]).stderr).toMatch(/outside the repository root/);
    symlinkSync(s.outside, join(s.repo, 'docs'));
    const r = s.run(['--status', 'docs/GATES.md']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/outside the repository root/);
  });

  it('an explicit ledger that is a symlink inside the root', () => {
    const s = setup();
    writeFiles(s.repo, { 'real.md': GOOD });
    symlinkSync(join(s.repo, 'real.md'), join(s.repo, 'link.md'));
    const r = s.run(['--status', 'link.md']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
  });

  it('a hard-linked ledger', () => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': GOOD });
    linkSync(join(s.repo, 'GATES.md'), join(s.outside, 'alias.md'));
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 hard links/);
  });

  it('a FIFO named GATES.md, at once', () => {
    const s = setup();
    execFileSync('mkfifo', [join(s.repo, 'GATES.md')]);
    const t0 = Date.now();
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.stderr).toMatch(/not a regular file|FIFO/);
  });

  it('an explicit FIFO, at once', () => {
    const s = setup();
    execFileSync('mkfifo', [join(s.repo, 'pipe.md')]);
    const r = s.run(['--status', 'pipe.md']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/FIFO/);
  });

  it('a directory named like a ledger', () => {
    const s = setup();
    mkdirSync(join(s.repo, 'gates', 'x.md'), { recursive: true });
    expect(s.run(['--status']).code).toBe(2);
  });

  it('a ledger over 8 MiB (and accepts one just under)', () => {
    const s = setup();
    const big = GOOD + 'x'.repeat(8 * 1024 * 1024 - GOOD.length + 1);
    writeFiles(s.repo, { 'GATES.md': big });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/8388609 bytes \(at most 8388608\)/);
    writeFiles(s.repo, { 'GATES.md': GOOD + 'x'.repeat(8 * 1024 * 1024 - GOOD.length - 1) + '\n' });
    expect(s.run(['--status']).code).toBe(0);
  });

  it('a missing explicit ledger', () => {
    const s = setup();
    const r = s.run(['--status', 'nope.md']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file/);
  });
});

describe('ledger text that would hide or forge gates', () => {
  const cases: [string, string, RegExp][] = [
    ['nested task item with its own CHECK', '- [x] A: t\n  EVIDENCE: exit=0\n  - [ ] B: nested\n    CHECK: true\n    EXPECT: x\n', /nested task item/],
    ['attribute after the gate body ended', '- [x] A: t\n\n## Later\n  EVIDENCE: exit=0\n', /EVIDENCE is not under a gate/],
    ['unclosed HTML comment hiding the rest', '- [x] A: t\n  EVIDENCE: exit=0\n<!--\n- [ ] B: t\n', /unclosed HTML comment/],
    ['unclosed fence hiding the rest', '- [x] A: t\n  EVIDENCE: exit=0\n```\n- [ ] B: t\n', /unclosed code fence/],
    ['star-bullet task the parser would otherwise skip', '- [x] A: t\n  EVIDENCE: exit=0\n* [ ] B: t\n', /malformed gate line/],
    ['bare CR splitting a line for renderers', '- [x] A: t\r  EVIDENCE: exit=0\n', /bare carriage return/],
  ];
  for (const [name, text, pattern] of cases) {
    it(`${name}: exit 2`, () => {
      const s = setup();
      writeFiles(s.repo, { 'GATES.md': text });
      const r = s.run(['--status']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(pattern);
    });
  }

  it('gates inside an HTML comment are ignored, not counted as met', () => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: visible\n<!--\n- [x] A2: hidden\n  EVIDENCE: exit=0\n-->\n' });
    const r = s.run(['--status', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.gates.map((g: { id: string }) => g.id)).toEqual(['A']);
    expect(doc.warnings[0].message).toMatch(/HTML comment/);
  });
});
