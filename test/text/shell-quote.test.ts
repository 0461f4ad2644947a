// shellQuote: what a person pastes into a shell is exactly the word gate-check meant, for
// every string, checked by real shells (dash as /bin/sh, and bash, interactive-style
// history expansion included), not by reading the quoting rules.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrintableWord, shellCommand, shellQuote } from '../../lib/text/shell-quote.js';

/** What a shell makes of `printf '%s\0' <words>`: the words it received, in order. */
function received(shell: string, quotedWords: string[], extra: string[] = []): string[] {
  const r = spawnSync(shell, [...extra, '-c', `printf '%s\\0' ${quotedWords.join(' ')}`], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

const SHELLS = ['/bin/sh', '/usr/bin/bash'].filter((s) => spawnSync(s, ['-c', 'true']).status === 0);
const nasty = ["x;touch PWNED;y", '$(touch PWNED2)', '`touch PWNED3`', "it's", "'", "''", '"', '\\', '$HOME', '${HOME}', '~', '~root', '*', '?', '[a]', '{a,b}', '!!', '!$', '#c', 'a#b', '=x', 'a=b', '-n', '--approve', '&', '|', '>x', '<x', '(', ')', ' ', ' a ', 'é', '日本', '%s', '\t'];

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellQuote('GATES:G1@0123abcd')).toBe('GATES:G1@0123abcd');
    expect(shellQuote('gates/a-b_c.d,e+f%')).toBe('gates/a-b_c.d,e+f%');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('=x')).toBe("'=x'");
    expect(shellQuote('')).toBe("''");
  });

  for (const shell of SHELLS) {
    it(`${shell} receives exactly the words, for hostile words`, () => {
      expect(received(shell, nasty.map(shellQuote))).toEqual(nasty);
    });

    it(`${shell} receives exactly the words, for random strings`, () => {
      fc.assert(
        fc.property(fc.array(fc.string({ unit: fc.constantFrom(...'ab $`"\'\\!#~*?[]{}();&|<>=%@:,.-_/\n\té'.split('')), maxLength: 12 }), { minLength: 1, maxLength: 40 }), (words) => {
          expect(received(shell, words.map(shellQuote))).toEqual(words);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('bash with history expansion on (as at a prompt) still receives the words', () => {
    if (!SHELLS.includes('/usr/bin/bash')) return;
    const r = spawnSync('/usr/bin/bash', ['-c', `set -H; printf '%s\\0' ${nasty.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(nasty);
  });
});

describe('shellCommand', () => {
  it('refuses words a terminal would not show as they are', () => {
    for (const w of ['a\nb', 'a\rb', 'a\u001b[31mb', 'a\u202eb', 'a\u200bb', 'a\u2028b', '\u00ad', 'a\tb', '']) {
      expect(isPrintableWord(w), JSON.stringify(w)).toBe(false);
      expect(shellCommand(['gate-check', w])).toBeNull();
    }
    expect(shellCommand(['gate-check', '--root', 'my repo'])).toBe("gate-check --root 'my repo'");
  });
});
