// The generous readings of a CHECK's words (lib/oracle/check-words.ts): a word too many costs
// a look-up, a word missed lets repository code run unbound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandWords, sourcedNames, wordPattern } from '../../lib/oracle/check-words.js';

describe('sourcedNames', () => {
  it('finds the name after . / source / a shell, however it is quoted or escaped (round-27 08)', () => {
    for (const check of ['. x.sh', "sh -c '. x.sh'", 'eval ". x.sh"', '\\. x.sh', '"." x.sh', '. -- x.sh', '. "x".sh', 'bash -o errexit x.sh', 'true && source x.sh']) {
      expect(sourcedNames(check), check).toContain('x.sh');
    }
    expect(sourcedNames('npm test')).toEqual([]);
    expect(sourcedNames('. ./x.sh')).toEqual([]);
  });
});

describe('commandWords', () => {
  it('unquotes, and splits assignments and expansions (round-27 09, round-28 08)', () => {
    expect(commandWords('\\mycli')).toContain('mycli');
    expect(commandWords('my""cli')).toContain('mycli');
    expect(commandWords('${x:-mycli}')).toContain('mycli');
    expect(commandWords('X=1 mycli')).toContain('mycli');
    for (const w of ['.mycli', 'my:cli', '-zcli', '123']) expect(commandWords(`${w} --a`)).toContain(w);
    expect(commandWords('./run.sh ..')).toEqual([]);
  });

  it('reads a brace group as a pattern over the names it may expand to (round-30 04)', () => {
    for (const check of ['my{cli,x}', 'my{cli,}', '"my"{cli,}', 'my{c..d}li']) {
      const patterns = commandWords(check).map(wordPattern).filter((p) => p !== null);
      expect(patterns.some((p) => p.test('mycli')), check).toBe(true);
    }
  });

  it('a plain word of any CHECK is always among them', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z0-9._:+-]{1,12}$/), { minLength: 1, maxLength: 6 }), (words) => {
        const found = commandWords(words.join(' '));
        for (const w of words) if (w !== '.' && w !== '..') expect(found).toContain(w);
      }),
    );
  });
});

describe('wordPattern', () => {
  it('reads *, ? and [...] as the shell does, and nothing else as a pattern', () => {
    expect(wordPattern('mycli')).toBeNull();
    expect(wordPattern('mycl[i]')!.test('mycli')).toBe(true);
    expect(wordPattern('mycl[!i]')!.test('mycli')).toBe(false);
    expect(wordPattern('m?c*')!.test('mycli')).toBe(true);
    expect(wordPattern('a.b*')!.test('axb')).toBe(false);
    expect(wordPattern('x[')!.test('x[')).toBe(true);
  });
});
