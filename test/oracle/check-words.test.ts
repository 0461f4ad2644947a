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

  it('reads a variable the CHECK sets by plain assignments as every value it may have there (round-34 LOW)', () => {
    // Set at the start: only the CHECK's value reaches PATH.
    expect(read('USER=x; PATH=/home/$USER/p:$PATH y').entries).toEqual(['/home/x/p']);
    expect(read('T=cli; PATH=$T:$PATH y').entries).toEqual(['/repo/cli']);
    expect(read('export T="cli" && PATH=${T}/bin:$PATH y').entries).toEqual(['/repo/cli/bin']);
    // Set later, or only on one branch: the environment's value (empty when unset: the check's folder) may reach it too.
    expect(read('true && T=cli; PATH=$T:$PATH y').entries).toEqual(['/repo/cli', '/repo']);
    expect(read('x || USER=y; PATH=/home/$USER/p:$PATH y').entries).toEqual(['/home/y/p', '/home/u/p']);
    // Each value it is given, and each part of a value with colons.
    expect(read('T=a; [ -d b ] && T=b:c; PATH=$T:$PATH y').entries).toEqual(['/repo/a', '/repo/b', '/repo/c']);
    // Quotes and backslashes as the shell takes them out; a variable through another (round-37 F4).
    expect(read("T='c li'; PATH=$T:$PATH y").entries).toEqual(['/repo/c li']);
    expect(read('T="my dir"; PATH=$T:$PATH y').entries).toEqual(['/repo/my dir']);
    expect(read('T=c\\li; PATH=$T:$PATH y').entries).toEqual(['/repo/cli']);
    expect(read('U=cli; T=$U/bin; PATH=$T:$PATH y').entries).toEqual(['/repo/cli/bin']);
    expect(read('U=cli; T="${U}"; PATH=$T:$PATH y').entries).toEqual(['/repo/cli']);
    // A default or an alternative is one more reading (round-37 F5).
    expect(read('PATH=${NOPE-cli}:${USER:-x}/b:$PATH y').entries).toEqual(['/repo', '/repo/cli', '/repo/u/b', '/repo/x/b']);
    expect(read('T=a; PATH=${T:+cli}:$PATH y').entries).toEqual(['/repo/cli', '/repo']);
    // What only looks like an assignment binds one folder more, never one less.
    expect(read('T=cli; echo T=x; PATH=$T:$PATH y').entries).toEqual(['/repo/cli', '/repo/x']);
    // Past 16 readings of one entry, it is not read (the screen stops there).
    expect(read('A=1; A=2; B=1; B=2; C=1; C=2; D=1; D=2; PATH=$A$B$C$D:$PATH y').entries).toHaveLength(16);
    expect(read('A=1; A=2; B=1; B=2; C=1; C=2; D=1; D=2; E=1; E=2; PATH=$A$B$C$D$E:$PATH y').entries).toEqual([]);
    // Relative values move with a `cd`: not placed.
    expect(read('cd x; T=cli; PATH=$T:$PATH y').moved).toBe('$T');
  });

  it('leaves out what it cannot know: a variable the CHECK sets another way, a command substitution', () => {
    for (const check of ['read T; PATH=$T:$PATH y', 'T=cli; T+=x; PATH=$T:$PATH y', 'T=$(pwd)/cli; PATH=$T:$PATH y', 'for T in a b; do PATH=$T:$PATH y; done', 'T=cli; PATH=${T:=x}:$PATH y', 'T=cli; printf -v T x; PATH=$T:$PATH y', 'T=cli; unset T; PATH=$T:$PATH y', 'declare -n T=PATH; T=cli:$T y', 'T=(cli); PATH=$T:$PATH y', 'T=cli; PATH=${T:=x}:$PATH y', 'PATH=${T:-$U}:$PATH y', 'set -- cli; PATH=$1:$PATH y', 'T=$T:x; PATH=$T:$PATH y', 'T=$1; PATH=$T:$PATH y', 'T="$(pwd)"; PATH=$T:$PATH y', 'T=`pwd`; PATH=$T:$PATH y', 'T="`pwd`"; PATH=$T:$PATH y', 'declare -n T=PATH; PATH=$T/x:$PATH y', 'local -rn T=PATH; PATH=$T/x:$PATH y']) {
      expect(read(check).entries, check).toEqual([]);
      // (A name reference with no PATH= at all is the screen's to stop at: lib/lint/scripts.ts.)
      if (check.includes('PATH=')) expect(read(check).unread, check).not.toEqual([]);
    }
    expect(read('PATH=$(pwd)/b:$PATH y').entries).toEqual([]);
    // What comes before a command substitution is read; the substitution is named as not read.
    expect(read('PATH=cli:$(pwd)/b:$PATH y')).toEqual({ entries: ['/repo/cli'], moved: null, unread: ['cli:$(pwd)/b:$PATH'] });
    // Unset, a variable is empty: `$NOPE/bin` is /bin, and `$NOPE` alone the check's folder.
    expect(read('PATH=$NOPE/bin:$NOPE:$PATH y').entries).toEqual(['/bin', '/repo']);
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
    // However the cd is spelled (round-37 F3).
    for (const cd of ['\\cd', 'c\\d', "c''d", '"cd"', "$'cd'"]) expect(read(`${cd} sub; T=cli; PATH=$T:$PATH x`).moved, cd).toBe('$T');
    expect(read('cd cli && PATH=/abs/bin:$HOME/b:$PATH x')).toEqual({ entries: ['/abs/bin', '/home/u/b'], moved: null, unread: [] });
  });
});
