// The approval screen's diff of a changed DEPENDS file (pure): what the person reviews must be
// the change, shown as the rest of the screen shows text, and bounded.
import { describe, expect, it } from 'vitest';
import { DIFF_LINES_PER_FILE, DIFF_LINES_TOTAL, dependsDiff, dependsDiffLines } from '../../lib/report/depends-diff.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('dependsDiffLines', () => {
  it('a unified diff of the approved version against the file now, with context', () => {
    const lines = dependsDiffLines([{ path: 'scripts/check.sh', approved: b('a\nb\nc\n'), now: b('a\nB\nc\nd\n'), nowIsApproved: true }]);
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
    expect(dependsDiffLines([{ path: 'x.sh', approved: b(''), now: b('exit 0\n'), nowIsApproved: true }])).toEqual(['  DIFF    x.sh (approved version, then now):', '  | @@ -0,0 +1,1 @@', '  | +exit 0']);
  });

  it('escapes, controls, bidi overrides and look-alikes in a line are shown, not passed to the terminal', () => {
    const lines = dependsDiffLines([{ path: 'p\u001b[2J.sh', approved: b('ok\n'), now: b('echo \u001b[31mred\u202e evil\necho \u0441at\n'), nowIsApproved: true }]);
    const text = lines.join('\n');
    expect(text).not.toMatch(/[\u001b\u202e\u0441]/);
    expect(text).toContain('<U+0441>');
    expect(text).toContain('<U+202E>');
  });

  it('no copy, an unreadable file, a binary file, or a change too large for a diff: said, and the person reads the file', () => {
    expect(dependsDiffLines([{ path: 'a', approved: null, now: b('x'), nowIsApproved: true }])[0]).toMatch(/^ {2}DIFF {4}a: no copy of the approved version is kept .*read the whole file$/);
    expect(dependsDiffLines([{ path: 'a', approved: b('x'), now: null, nowIsApproved: true }])[0]).toMatch(/^ {2}DIFF {4}a: cannot be read now/);
    expect(dependsDiffLines([{ path: 'a', approved: b('x\0y'), now: b('x'), nowIsApproved: true }])[0]).toBe('  DIFF    a: binary file: 3 bytes approved, 1 bytes now; the diff is not shown: read the whole file');
    expect(dependsDiffLines([{ path: 'a', approved: Buffer.from([0xff, 0x41]), now: b('A'), nowIsApproved: true }])[0]).toMatch(/binary file/);
    const many = (tag: string) => b(Array.from({ length: 3000 }, (_, i) => `${tag}${i}`).join('\n'));
    expect(dependsDiffLines([{ path: 'a', approved: many('x'), now: many('y'), nowIsApproved: true }])[0]).toMatch(/changed too much for a diff/);
  });

  it('a file read for the diff that is not the version hashed into the oracle: no diff is shown', () => {
    expect(dependsDiffLines([{ path: 'a.sh', approved: b('x\n'), now: b('y\n'), nowIsApproved: false }])).toEqual([
      '  DIFF    a.sh: changed while this screen was being made, so the diff is not shown: run again once the file holds still',
    ]);
  });

  it('a changed line longer than the screen: cut with a note, and the file is named as not shown in full (round-7 attack)', () => {
    const head = `msg="${'x'.repeat(215)}"`;
    const d = dependsDiff([{ path: 'check.sh', approved: b(`${head}; export OK=1\nrows=3\n`), now: b(`${head}; touch PWNED\nrows=3\n`), nowIsApproved: true }]);
    expect(d.cut).toEqual(['check.sh']);
    expect(d.lines.filter((l) => l.includes('not all of it is shown here'))).toEqual([
      '  | … that line is 234 characters; not all of it is shown here',
      '  | … that line is 234 characters; not all of it is shown here',
    ]);
    // A long unchanged context line is noted too, but does not hold the approval back.
    const context = dependsDiff([{ path: 'c.sh', approved: b(`${head}\na\n`), now: b(`${head}\nb\n`), nowIsApproved: true }]);
    expect(context.cut).toEqual([]);
    expect(context.lines).toContain('  | … that line is 221 characters; not all of it is shown here');
  });

  it('a run of blanks that would push a command off the line is shown as <N spaces>', () => {
    const lines = dependsDiffLines([{ path: 'a.sh', approved: b('echo a\n'), now: b(`echo a\necho checking${' '.repeat(190)}; touch PWNED\n`), nowIsApproved: true }]);
    expect(lines).toContain('  | +echo checking<190 spaces>; touch PWNED');
  });

  it('bounded per file and in all, saying what was left out', () => {
    const long = (tag: string) => b(Array.from({ length: 200 }, (_, i) => `${tag}${i}`).join('\n') + '\n');
    const one = dependsDiffLines([{ path: 'a', approved: long('x'), now: long('y'), nowIsApproved: true }]);
    expect(one.length).toBe(DIFF_LINES_PER_FILE + 2);
    expect(one.at(-1)).toMatch(/^ {2}\| … \d+ more diff lines not shown: read the whole file$/);
    const files = Array.from({ length: 10 }, (_, i) => ({ path: `f${i}`, approved: long('x'), now: long('y'), nowIsApproved: true }));
    const all = dependsDiffLines(files);
    expect(all.filter((l) => l.startsWith('  | ') && !l.startsWith('  | …')).length).toBe(DIFF_LINES_TOTAL);
    expect(all.at(-1)).toBe('  DIFF    7 more changed files not shown: read them before approving');
  });
});
