// The generous readings of a CHECK's words (lib/oracle/check-words.ts): a word too many costs
// a look-up, a word missed lets repository code run unbound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPathEntries, commandWords, sourcedNames, wordPattern } from '../../lib/oracle/check-words.js';

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

describe('checkPathEntries', () => {
  const env = { HOME: '/home/u', USER: 'u', GOPATH: '/opt/go:/srv/go' };
  const read = (check: string) => checkPathEntries(check, env, '/repo');

  it('reads the folders a CHECK puts on PATH, plain, as the shell gives them', () => {
    expect(read('PATH=tools:$PATH runtests').entries).toEqual(['/repo/tools']);
    expect(read('PATH="$HOME"/p/cli:${PATH} x; env PATH=${HOME}/q:~/r x').entries).toEqual(['/home/u/p/cli', '/home/u/q', '/home/u/r']);
    expect(read('export PATH=$PATH:$PWD/bin:~+/b2::.; x').entries).toEqual(['/repo/bin', '/repo/b2', '/repo']);
    expect(read('PATH=/home/$USER/p:$GOPATH/bin x').entries).toEqual(['/home/u/p', '/opt/go', '/srv/go/bin']);
    expect(read('PATH+=:tools x').entries).toEqual(['/repo/tools']);
    expect(read('echo no path here').entries).toEqual([]);
  });

  it('leaves out what it cannot know: a variable the CHECK sets, an unset one, a command substitution', () => {
    expect(read('USER=x; PATH=/home/$USER/p:$PATH y').entries).toEqual([]);
    expect(read('PATH=$NOPE/bin:$(pwd)/b:$PATH y').entries).toEqual([]);
    // Round-34 F2: a `+` or `-` of an expansion is no folder.
    expect(read('PATH=${PWD:-/x}/cli:$PATH y; PATH=cli${PATH%x} y').entries).toEqual([]);
    // The idiom that adds no empty entry is read as the entries it adds.
    expect(read('PATH=cli${PATH:+:$PATH} y; PATH=${PATH:+${PATH}:}bin y').entries).toEqual(['/repo/cli', '/repo/bin']);
  });

  it('names an entry relative to the check\'s folder in a CHECK that changes folder', () => {
    expect(read('cd cli && PATH=.:$PATH mycli').moved).toBe('.');
    expect(read('cd cli; PATH=$PWD:$PATH mycli').moved).toBe('$PWD');
    expect(read('pushd cli; PATH=:$PATH x').moved).toBe('(empty: the working directory)');
    expect(read('env -C cli PATH=.:/usr/bin x').moved).toBe('.');
    expect(read('env --chdir=cli PATH=.:/usr/bin x').moved).toBe('.');
    expect(read('cd cli && PATH=/abs/bin:$HOME/b:$PATH x')).toEqual({ entries: ['/abs/bin', '/home/u/b'], moved: null });
  });
});
