// shellPatternMatches on real folders: what the shell (or a runner's own glob) would run.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shellPatternMatches } from '../../lib/fsx/shell-pattern.js';

const root = mkdtempSync(join(tmpdir(), 'gc-pattern-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const files = ['test/a.test.js', 'test/b.test.js', 'test/unit/c.test.js', 'test/readme.md', 't/a.t', 't/b.t', 'node_modules/x/y.test.js', 'sub/test/d.test.js'];
for (const f of files) {
  mkdirSync(join(root, f, '..'), { recursive: true });
  writeFileSync(join(root, f), '');
}
mkdirSync(join(root, 'other'));
writeFileSync(join(root, 'other', 'e.test.js'), '');
symlinkSync('other', join(root, 'linked'));

const sorted = (x: string[] | null) => (x === null ? null : [...x].sort());

describe('shellPatternMatches', () => {
  it('lists what a wildcard, a brace list and ** match, from the folder the command runs in', () => {
    expect(sorted(shellPatternMatches(root, '.', 'test/*.test.js'))).toEqual(['test/a.test.js', 'test/b.test.js']);
    expect(sorted(shellPatternMatches(root, '.', 't/{a,b}.t'))).toEqual(['t/a.t', 't/b.t']);
    expect(sorted(shellPatternMatches(root, '.', 'test/[ab].test.js'))).toEqual(['test/a.test.js', 'test/b.test.js']);
    expect(sorted(shellPatternMatches(root, '.', 'test/**/*.test.js'))).toEqual(['test/a.test.js', 'test/b.test.js', 'test/unit/c.test.js']);
    expect(sorted(shellPatternMatches(root, 'sub', 'test/*.js'))).toEqual(['test/d.test.js']);
    expect(shellPatternMatches(root, '.', 'nothing/*.js')).toEqual([]);
  });

  it('follows links as the shell does, and skips installed packages and what lies above the folder', () => {
    expect(shellPatternMatches(root, '.', 'linked/*.js')).toEqual(['linked/e.test.js']);
    expect(sorted(shellPatternMatches(root, '.', '**/*.test.js'))).not.toContain('node_modules/x/y.test.js');
    expect(shellPatternMatches(root, 'sub', '../test/*.js')).toEqual([]);
  });

  it('lists the folders a pattern matches when asked (a runner given them runs their code), marked by a slash', () => {
    expect(sorted(shellPatternMatches(root, '.', 't*', true))).toEqual(['t/', 'test/']);
    expect(shellPatternMatches(root, '.', 't*')).toEqual([]);
  });

  it('is null for what the shell reads otherwise than this listing: a POSIX class, a zero-padded sequence, an extended pattern (round-16 H1)', () => {
    expect(shellPatternMatches(root, '.', 'test/[[:alpha:]].test.js')).toBeNull();
    expect(shellPatternMatches(root, '.', 't/{01..03}.t')).toBeNull();
    expect(shellPatternMatches(root, '.', 'test/@(a|b).test.js')).toBeNull();
    expect(sorted(shellPatternMatches(root, '.', 't/{a..b}.t'))).toEqual(['t/a.t', 't/b.t']);
  });

  it('is null past its bounds: a brace list of more than 64 patterns, a walk of more than 20,000 entries', () => {
    expect(shellPatternMatches(root, '.', 't/{a,b,c,d,e,f,g,h,i}{a,b,c,d,e,f,g,h,i}.t')).toBeNull();
    const wide = join(root, 'wide');
    mkdirSync(wide);
    for (let i = 0; i < 20_100; i++) writeFileSync(join(wide, `f${i}`), '');
    expect(shellPatternMatches(root, '.', 'wide/*.js')).toBeNull();
    expect(shellPatternMatches(root, '.', 'wide/f1')).toEqual(['wide/f1']);
  });
});
