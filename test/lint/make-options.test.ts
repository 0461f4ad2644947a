// makeOptions: GNU make's command line as make reads it (round-20 G1). Pure.
import { describe, expect, it } from 'vitest';
import { makeOptions } from '../../lib/lint/make-options.js';
import { parseShellList } from '../../lib/lint/shell-list.js';

const options = (line: string) => makeOptions(parseShellList(`make ${line}`).items[0]!.pipeline[0]!.words.slice(1));

describe('makeOptions', () => {
  it('-C in a cluster, attached, after -j or -l without a number, by a long prefix, each relative to the one before', () => {
    for (const line of ['-sC sub test', '-sCsub test', '-kC sub test', '-j -C sub test', '-l -C sub test', '--jobs -C sub test', '--dir=sub test', '--direc sub test', '-C sub test']) {
      expect(options(line), line).toMatchObject({ subdir: 'sub', target: 'test', unread: null });
    }
    expect(options('-sC a -sC b test').subdir).toBe('a/b');
    expect(options('-C a -C /abs test').subdir).toBe('/abs');
    // A number after -j is its value, not a target.
    expect(options('-j 4 test')).toMatchObject({ target: 'test', subdir: null });
    expect(options('-j4 -C sub')).toMatchObject({ subdir: 'sub', target: null });
  });

  it('-f in every spelling; assignments are no target', () => {
    expect(options('-sf x.mk CC=gcc test')).toMatchObject({ definitions: ['x.mk'], target: 'test' });
    expect(options('--fil=y.mk --makefile z.mk')).toMatchObject({ definitions: ['y.mk', 'z.mk'] });
  });

  it('after --, every word is a target or an assignment (make -- -C sub: a target -C)', () => {
    expect(options('-s -- -C sub -f x.mk test')).toMatchObject({ subdir: null, definitions: [], target: '-C' });
    expect(options('-- X=1 test')).toMatchObject({ target: 'test' });
  });

  it('says what it cannot follow: include folders in any spelling, a folder set at run time, --eval, too many -C', () => {
    for (const line of ['-I mk', '-Imk', '-sI mk', '-sImk', '--include-dir=mk', '--include=mk', '--inc mk']) expect(options(line).unread, line).toBe('make -I: the include folders it searches');
    for (const line of ['-C "$D"', '-C"$D"', '--directory="$D"', '-sC "$D"']) expect(options(line).unread, line).toBe('make -C to a folder set at run time');
    expect(options("--eval 'include x.mk'").unread).toBe('make --eval: text it reads as a makefile');
    expect(options('-C d '.repeat(33)).unread).toBe('make -C more than 32 times');
    expect(options('-s -k test').unread).toBe(null);
  });
});
