// Colour of the verdict words: who decides (FORCE_COLOR, NO_COLOR, a terminal), what is
// coloured (only gate-check's own words at a line start), and the real CLI on a
// pseudo-terminal (script -c) and in a pipe.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { colourLine, colouringWriter, colourWanted } from '../../lib/text/colour.js';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';

const ESC = '\u001b';

describe('colourWanted', () => {
  it('FORCE_COLOR decides when set; else NO_COLOR; else a terminal that is not dumb', () => {
    expect(colourWanted({}, true)).toBe(true);
    expect(colourWanted({}, false)).toBe(false);
    expect(colourWanted({ TERM: 'dumb' }, true)).toBe(false);
    expect(colourWanted({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colourWanted({ NO_COLOR: '' }, true)).toBe(true); // an empty NO_COLOR is unset (no-color.org)
    expect(colourWanted({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourWanted({ FORCE_COLOR: '' }, false)).toBe(true);
    expect(colourWanted({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourWanted({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(colourWanted({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true); // as Node: FORCE_COLOR wins
  });
});

describe('colourLine and the writer', () => {
  it('colours a leading verdict word followed by a space, a colon or the end, nothing else', () => {
    expect(colourLine('PASS GATES:A  t')).toBe(`${ESC}[32mPASS${ESC}[39m GATES:A  t`);
    expect(colourLine('FAIL GATES:A  t: exit 1')).toBe(`${ESC}[31mFAIL${ESC}[39m GATES:A  t: exit 1`);
    expect(colourLine('UNMET: GATES:A')).toBe(`${ESC}[31mUNMET${ESC}[39m: GATES:A`);
    expect(colourLine('ALL MET (3 met)')).toBe(`${ESC}[32mALL MET${ESC}[39m (3 met)`);
    expect(colourLine('APPROVAL REQUIRED: GATES:A@x')).toBe(`${ESC}[33mAPPROVAL REQUIRED${ESC}[39m: GATES:A@x`);
    for (const plain of ['PASSED', 'GATES:A  PASS', '  | PASS', 'pass', '', 'PASS:G1  unchecked  t', 'UNMET:A  unchecked  t']) expect(colourLine(plain)).toBe(plain);
  });

  it('a write that continues a line is not taken for a new one', () => {
    const out: string[] = [];
    const w = colouringWriter((t) => out.push(t));
    w('GATES:A  ');
    w('PASS looks like a word here\nFAIL GATES:B\n');
    w('');
    w('PASS GATES:C');
    expect(out.join('')).toBe(`GATES:A  PASS looks like a word here\n${ESC}[31mFAIL${ESC}[39m GATES:B\n${ESC}[32mPASS${ESC}[39m GATES:C`);
  });
});

describe('the CLI', () => {
  const s = sandbox();
  // A title that tries to start a line with a verdict word (it is one line: it cannot).
  writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n- [ ] B: \u001b[32mPASS fake\n' });
  const onTerminal = (args: string, env: NodeJS.ProcessEnv = {}) =>
    spawnSync('script', ['-qec', `${process.execPath} ${BIN} ${args}`, '/dev/null'], { cwd: s.repo, env: { ...s.env, TERM: 'xterm', ...env }, encoding: 'utf8' }).stdout;

  it('colours on a terminal; not with NO_COLOR, not in a pipe, never in JSON; FORCE_COLOR colours a pipe', () => {
    const tty = onTerminal('--status');
    expect(tty).toContain(`${ESC}[31mUNMET${ESC}[39m: GATES:A, GATES:B`);
    expect(tty.split(ESC).length - 1).toBe(2); // the title's escape was sanitized away
    expect(onTerminal('--status', { NO_COLOR: '1' })).not.toContain(ESC);
    expect(onTerminal('--status --json', {})).not.toContain(ESC);
    expect(onTerminal('--status --json', { FORCE_COLOR: '1' })).not.toContain(ESC);
    expect(runCli(['--status'], { cwd: s.repo, env: s.env }).stdout).not.toContain(ESC);
    const forced = runCli(['--status'], { cwd: s.repo, env: { ...s.env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}[31mUNMET${ESC}[39m`);
    expect(runCli(['--status'], { cwd: s.repo, env: { ...s.env, FORCE_COLOR: '0' } }).stdout).not.toContain(ESC);
  });

  it('a ledger named like a verdict word (PASS.md) does not colour its open gates', () => {
    const t = sandbox();
    writeFiles(t.repo, { 'gates/PASS.md': '- [ ] G1: open\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const out = runCli(['--status'], { cwd: t.repo, env: { ...t.env, FORCE_COLOR: '1' } }).stdout;
    expect(out).toMatch(/^PASS:G1 {2}unchecked {2}open$/m);
    expect(out).toContain(`${ESC}[31mUNMET${ESC}[39m: PASS:G1`);
  });

  it('subcommands and hook answers stay plain even when colour is forced', () => {
    const lint = runCli(['lint'], { cwd: s.repo, env: { ...s.env, FORCE_COLOR: '1' } });
    expect(lint.stdout + lint.stderr).not.toContain(ESC);
  });
});
