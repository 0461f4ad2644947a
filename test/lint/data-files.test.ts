// What a CHECK only reads as data (lib/lint/data-files.ts): named nowhere but to a reader.
import { describe, expect, it } from 'vitest';
import { dataOnlyFiles } from '../../lib/lint/data-files.js';

const data = (check: string, named: string[], workdir: string | null = '.') => [...dataOnlyFiles(check, workdir, named)].sort();

describe('dataOnlyFiles', () => {
  it('a file given only to grep, cat, test, diff … is data (round-38b F3)', () => {
    expect(data('npm run build >/dev/null && grep -c "export function mul" dist/math.js', ['dist/math.js'])).toEqual(['dist/math.js']);
    expect(data('test -f dist/app.js && diff -u expected.txt out.txt && wc -l < counts.txt', ['dist/app.js', 'expected.txt', 'out.txt', 'counts.txt'])).toEqual(['counts.txt', 'dist/app.js', 'expected.txt', 'out.txt']);
    expect(data("sh -c 'grep ok log.txt'", ['log.txt'])).toEqual(['log.txt']);
  });
  it('named anywhere else, or piped on, it is not (round-38c F6)', () => {
    expect(data('cat x.sh | sh', ['x.sh'])).toEqual([]);
    expect(data("sh -c 'cat x.sh | sh'", ['x.sh'])).toEqual([]);
    expect(data('grep -q ok t.txt && python3 t.txt', ['t.txt'])).toEqual([]);
    expect(data('test -f run.sh && sh run.sh', ['run.sh'])).toEqual([]);
    expect(data('FILE=conf.txt grep x conf.txt', ['conf.txt'])).toEqual([]);
    expect(data('env grep x conf.txt', ['conf.txt'])).toEqual([]); // through a wrapper: not judged a reader
    expect(data('sqlite3 db < t.sql', ['t.sql'])).toEqual([]);
    // Written to a file, what a reader read may run there (round-38e F1: `cat rules.mk > Makefile; make`).
    expect(data('cat rules.mk > Makefile; make -s gate', ['rules.mk'])).toEqual([]);
    expect(data('grep -v x t.sh > run.sh; sh run.sh', ['t.sh'])).toEqual([]);
    expect(data('head -n 5 x.js >> index.js; node .', ['x.js'])).toEqual([]);
    expect(data('grep x f.txt > out.txt', ['f.txt', 'out.txt'])).toEqual([]);
    // Thrown away or sent to the other stream: still data.
    expect(data('grep -q x f.txt > /dev/null 2>&1 && cat g.txt >&2 && cat h.txt 1>&2', ['f.txt', 'g.txt', 'h.txt'])).toEqual(['f.txt', 'g.txt', 'h.txt']);
  });
  it('only files it was asked about, and nothing outside the repository', () => {
    expect(data('grep x a.txt b.txt', ['a.txt'])).toEqual(['a.txt']);
    expect(data('grep x a.txt', ['a.txt'], null)).toEqual([]);
    expect(data('grep x a.txt', [])).toEqual([]);
  });
});
