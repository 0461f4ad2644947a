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

describe('look-alike attribute names and invisible characters (issue 9 §2), through the CLI', () => {
  // A ticked gate with hand-written evidence whose CHECK line is not quite CHECK: before, it
  // was a manual gate and --status --strict said ALL MET.
  const ticked = (checkLine: string) => `- [x] G1: the import round-trips\n${checkLine}\n  EXPECT: import ok\n  EVIDENCE: exit=0; reviewed by hand\n`;
  const cases: [string, string, RegExp][] = [
    ['a zero-width space in the name', '  CHE\u200bCK: node scripts/check.mjs', /GATES\.md:2: .*U\+200B ZERO WIDTH SPACE.*did you mean CHECK\?/],
    ['a Cyrillic С', '  \u0421HECK: node scripts/check.mjs', /GATES\.md:2: .*U\+0421 \(looks like C\).*did you mean CHECK\?/],
    ['a fullwidth colon', '  CHECK\uff1a node scripts/check.mjs', /GATES\.md:2: .*U\+FF1A instead of ':'.*did you mean CHECK\?/],
    ['a typo', '  CHEK: node scripts/check.mjs', /GATES\.md:2: CHEK: is not an attribute: did you mean CHECK\?/],
    ['NBSP indentation', '\u00a0\u00a0CHECK: node scripts/check.mjs', /GATES\.md:2: .*did you mean CHECK\?/],
  ];
  for (const [name, line, pattern] of cases) {
    it(`${name}: --status --strict exits 2 on the line, not ALL MET`, () => {
      const s = setup();
      writeFiles(s.repo, { 'GATES.md': ticked(line) });
      const r = s.run(['--status', '--strict']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(pattern);
      expect(r.stdout).not.toMatch(/ALL MET/);
    });
  }

  it('DEPEND: (which binds the approval to nothing) is an error, not a warning', () => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: t\n  CHECK: node s.mjs\n  EXPECT: ok\n  DEPEND: s.mjs\n', 's.mjs': '' });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md:4: DEPEND: is not an attribute: did you mean DEPENDS\?/);
  });

  it('a zero-width space or a TAB inside CHECK is refused with the code point named', () => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: t\n  CHECK: node scripts/che\u200bck.mjs\n  EXPECT: ok\n- [ ] G2: u\n  CHECK: node\tx.mjs\n  EXPECT: ok\n' });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md:2: CHECK contains U\+200B ZERO WIDTH SPACE/);
    expect(r.stderr).toMatch(/GATES\.md:5: CHECK contains U\+0009 CHARACTER TABULATION/);
  });

  it('the approval request shows non-ASCII in CHECK and EXPECT as <U+XXXX>', () => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: t\n  CHECK: echo h\u00e9llo \u0441url\n  EXPECT: h\u00e9llo\n' });
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ {2}CHECK {3}echo h<U\+00E9>llo <U\+0441>url$/m);
    expect(r.stdout).toMatch(/\(CHECK has 2 non-ASCII characters, shown as <U\+XXXX>\)/);
    expect(r.stdout).toMatch(/^ {2}EXPECT {2}h<U\+00E9>llo$/m);
  });
});

describe('linear or bounded on hostile ledgers (issue 9 §3), through the CLI', () => {
  const quick = (args: string[], ledger: string, files: Record<string, string> = {}) => {
    const s = setup();
    writeFiles(s.repo, { 'GATES.md': ledger, ...files });
    const t0 = Date.now();
    const r = runCli(args, { cwd: s.repo, env: s.env, timeoutMs: 20_000, input: args[0] === 'hook' ? JSON.stringify({ session_id: 's', cwd: s.repo, hook_event_name: 'Stop', stop_hook_active: false }) : '' });
    return { ...r, ms: Date.now() - t0 };
  };

  it('"> " x 40 then "[" (exponential before): --status, a plain run, lint and the Stop hook finish at once', () => {
    const ledger = `- [x] A: t\n  EVIDENCE: exit=0\n${'> '.repeat(40)}[\n\n${'> '.repeat(40)}[ x\n`;
    for (const args of [['--status'], [], ['lint'], ['hook', 'claude-stop']]) {
      const r = quick(args, ledger);
      expect(r.signal, args.join(' ')).toBeNull();
      expect(r.ms, args.join(' ')).toBeLessThan(10_000);
      expect(r.stderr).not.toMatch(/Maximum call stack/);
    }
  });

  it('a DEPENDS brace bomb is refused by --status and lint, with the limit named, no engine error', () => {
    const ledger = `- [x] G1: t\n  CHECK: node s.mjs\n  EXPECT: ok\n  DEPENDS: ${'{a,b,c,d}'.repeat(10)}\n  EVIDENCE: exit=0\n`;
    for (const args of [['--status'], ['lint']]) {
      const r = quick(args, ledger);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.ms).toBeLessThan(10_000);
      expect(r.stderr).toMatch(/GATES\.md:4: DEPENDS: brace expansion gives 1048576 patterns \(at most 64\)/);
      expect(r.stderr).not.toMatch(/Maximum call stack|RangeError/);
    }
  });

  it('130,000 diagnostics: exit 2 with line numbers and "… and N more", no stack overflow', () => {
    const r = quick(['--status'], `- [x] G1: t\n  EVIDENCE: exit=0\n## end\n${'  CHECK: x\n'.repeat(130_000)}`);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    expect(r.stderr).toMatch(/^error: GATES\.md:4: CHECK is not under a gate/m);
    // The parser keeps 1,000 and counts the rest; the CLI prints the first of them.
    expect(r.stderr).toMatch(/^error: GATES\.md:103: CHECK is not under a gate/m);
    expect(r.stderr).toMatch(/… and \d+ more/);
    const w = quick(['--status'], `- [x] G1: t\n  EVIDENCE: exit=0\n${'  RETRY: 1\n'.repeat(130_000)}`);
    expect(w.code).toBe(0);
    expect(`${w.stdout}${w.stderr}`).not.toMatch(/Maximum call stack/);
    expect(`${w.stdout}${w.stderr}`).toMatch(/GATES\.md:3: unknown attribute RETRY ignored/);
  });

  it('lint on 200 kB of "cd x; " (quadratic before: over 60 s)', () => {
    const r = quick(['lint'], `- [ ] G1: the check passes\n  CHECK: ${'cd x; '.repeat(34_000)}node t.js\n  EXPECT: all good here\n`);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('DEPENDS through a brace alternative outside the repository ({.,..}/outside.txt, {/abs,x}/f) is refused up front', () => {
    const s = setup();
    writeFileSync(join(s.repo, '..', 'outside.txt'), 'secret');
    writeFileSync(join(s.outside, 'f'), 'secret');
    for (const pattern of ['{.,..}/outside.txt', `{${s.outside},x}/f`]) {
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: t\n  CHECK: cat outside.txt\n  EXPECT: secret\n  DEPENDS: ${pattern}\n` });
      for (const args of [['--status'], ['--approve']]) {
        const r = s.run(args);
        expect(r.code, `${pattern} ${args.join(' ')}`).toBe(2);
        expect(r.stderr).toMatch(/GATES\.md:4: DEPENDS: .*(\.\.|absolute path).*an alternative of/);
      }
    }
  });
});
