// The CHECK tokenizer, the list grouping and the abstract control flow behind the lint rules.
import { describe, expect, it } from 'vitest';
import { isAlwaysZero, printedTexts, unwrapped } from '../../lib/lint/commands.js';
import { analyzeFlow } from '../../lib/lint/flow.js';
import { globMatches } from '../../lib/lint/glob.js';
import { gateWorkdir, invokedScripts } from '../../lib/lint/scripts.js';
import { parseShellList } from '../../lib/lint/shell-list.js';
import { tokenize, type Token } from '../../lib/lint/shell-words.js';

const show = (t: Token) => (t.kind === 'word' ? `w:${t.value}` : t.kind === 'op' ? `op:${t.op}` : `r:${t.op}`);
const tokens = (text: string) => tokenize(text).tokens.map(show);
const words = (text: string) => parseShellList(text).items.map((i) => i.pipeline.map((c) => c.words.map((w) => w.value).join(' ')));

describe('tokenize', () => {
  it('splits words on blanks and removes quotes', () => {
    expect(tokens(`echo 'a b' "c d" e\\ f`)).toEqual(['w:echo', 'w:a b', 'w:c d', 'w:e f']);
  });

  it('reads control operators with or without blanks around them', () => {
    expect(tokens('a;b&&c||d|e&f')).toEqual(['w:a', 'op:;', 'w:b', 'op:&&', 'w:c', 'op:||', 'w:d', 'op:|', 'w:e', 'op:&', 'w:f']);
    expect(tokens('a |& b')).toEqual(['w:a', 'op:|&', 'w:b']);
  });

  it('keeps operators inside quotes as text', () => {
    expect(tokens(`echo 'a; b' "c && d" e\\;f`)).toEqual(['w:echo', 'w:a; b', 'w:c && d', 'w:e;f']);
  });

  it('reads redirections, with the fd that prefixes them', () => {
    expect(tokens('cmd 2>&1 >out &>all >>log <in')).toEqual(['w:cmd', 'r:2>&', 'w:1', 'r:>', 'w:out', 'r:&>', 'w:all', 'r:>>', 'w:log', 'r:<', 'w:in']);
    expect(tokens('echo a2>x')).toEqual(['w:echo', 'w:a2', 'r:>', 'w:x']);
  });

  it('keeps expansions opaque, dynamic and out of the literal text', () => {
    const [, word] = tokenize('echo "passed $N $(npm test; echo x) `date` ${A:-b}"').tokens;
    expect(word).toMatchObject({ kind: 'word', dynamic: true, substitution: true, literal: 'passed    ' });
    expect(word && word.kind === 'word' && word.value).toBe('passed $N $(npm test; echo x) `date` ${A:-b}');
  });

  it('treats a lone $ and single-quoted $ as literal', () => {
    expect(tokenize("echo $ '$HOME'").tokens.map((t) => t.kind === 'word' && [t.value, t.dynamic])).toEqual([
      ['echo', false],
      ['$', false],
      ['$HOME', false],
    ]);
  });

  it('drops a comment only at the start of a word', () => {
    expect(tokens('echo a#b #c d')).toEqual(['w:echo', 'w:a#b']);
  });

  it('reports an open quote or substitution as incomplete', () => {
    for (const text of [`echo 'a`, 'echo "a', 'echo $(a', 'echo `a']) expect(tokenize(text).complete, text).toBe(false);
    expect(tokenize(`echo 'a' "b" $(c) \`d\``).complete).toBe(true);
  });
});

describe('parseShellList', () => {
  it('groups pipelines and list operators', () => {
    const list = parseShellList('A=1 npm test | tee log && echo OK; true &');
    expect(list.items.map((i) => i.op)).toEqual([null, '&&', ';']);
    expect(words('A=1 npm test | tee log && echo OK; true &')).toEqual([['npm test', 'tee log'], ['echo OK'], ['true']]);
    expect(list.items[0]!.pipeline[0]!.assignments.map((w) => w.value)).toEqual(['A=1']);
    expect(list.background).toBe(true);
  });

  it('reads NAME="value" as an assignment, as the shell does, and a quoted or escaped name as a command (round-14 L1)', () => {
    const first = (text: string) => parseShellList(text).items[0]!.pipeline[0]!;
    expect(first('NODE_OPTIONS="--enable-source-maps --no-warnings" node t.js').assignments.map((w) => w.value)).toEqual(['NODE_OPTIONS=--enable-source-maps --no-warnings']);
    expect(first("A='x y' B=$HOME/z node t.js").words.map((w) => w.value)).toEqual(['node', 't.js']);
    for (const text of ['"A=x" node', "'A'=x node", '\\A=x node']) {
      expect(first(text).assignments, text).toEqual([]);
      expect(first(text).words[0]!.value, text).toBe('A=x');
    }
  });

  it('flattens subshells and brace groups', () => {
    expect(words('(npm test || true) && { echo ok; }')).toEqual([['npm test'], ['true'], ['echo ok']]);
  });

  it('marks compound commands as complex and syntax errors as incomplete', () => {
    expect(parseShellList('if npm test; then echo ok; fi').complex).toBe(true);
    for (const text of ['a &&', '&& a', 'a | | b', 'a ;; b', 'a >', '| a']) expect(parseShellList(text).complete, text).toBe(false);
    for (const text of ['a;', 'a &', 'a 2>&1 | b']) expect(parseShellList(text).complete, text).toBe(true);
  });
});

describe('commands', () => {
  const cmd = (text: string) => parseShellList(text).items[0]!.pipeline[0]!;

  it('sees through wrappers', () => {
    expect(unwrapped(cmd('env -u X A=1 timeout -s KILL 30 npx --yes tsx a.ts')).map((w) => w.value)).toEqual(['tsx', 'a.ts']);
    expect(unwrapped(cmd('pnpm dlx tsx a.ts')).map((w) => w.value)).toEqual(['tsx', 'a.ts']);
  });

  it('knows the commands that cannot fail', () => {
    for (const text of ['echo x', 'printf x', 'true', ':', 'exit 0', 'exit', 'A=1', '/bin/echo x', 'command echo x']) expect(isAlwaysZero(cmd(text)), text).toBe(true);
    for (const text of ['false', 'exit 1', 'npm test', '! true', 'exit $X', 'env']) expect(isAlwaysZero(cmd(text)), text).toBe(false);
  });

  it('renders what echo and printf print, unless it goes to a file', () => {
    expect(printedTexts(cmd('echo -n "all" good'))?.texts).toContain('all good');
    expect(printedTexts(cmd("printf '%s passed\\n' 12"))?.texts).toContain('12 passed\n');
    expect(printedTexts(cmd('echo OK >&2'))).not.toBeNull();
    expect(printedTexts(cmd('echo OK > status.txt'))).toBeNull();
    expect(printedTexts(cmd('echo OK >/dev/null'))).toBeNull();
    expect(printedTexts(cmd('npm test'))).toBeNull();
  });
});

describe('analyzeFlow', () => {
  const reach = (text: string) => analyzeFlow(parseShellList(text)).steps.map((s) => s.reach);
  const exit = (text: string) => analyzeFlow(parseShellList(text)).exit;

  it('tells when each pipeline runs', () => {
    expect(reach('npm test; echo OK')).toEqual(['always', 'always']);
    expect(reach('npm test && echo OK')).toEqual(['always', 'on-success']);
    expect(reach('npm test || echo OK')).toEqual(['always', 'on-failure']);
    expect(reach('npm test || true && echo OK')).toEqual(['always', 'on-failure', 'always']);
    expect(reach('true || echo never')).toEqual(['always', 'never']);
    expect(reach('set -e; npm test; echo OK')).toEqual(['always', 'always', 'on-success']);
    expect(reach('exit 0; npm test')).toEqual(['always', 'never']);
  });

  it('classifies the final exit status', () => {
    expect(exit('npm test')).toBe('maybe');
    expect(exit('npm test; echo OK')).toBe('zero');
    expect(exit('npm test || true')).toBe('zero');
    expect(exit('npm test && echo OK')).toBe('maybe');
    expect(exit('npm test | tail -n 3')).toBe('zero');
    expect(exit('set -o pipefail; npm test | tail -n 3')).toBe('maybe');
    expect(exit('npm test | grep passed')).toBe('maybe');
    expect(exit('npm test &')).toBe('zero');
    expect(exit('! npm test')).toBe('maybe');
    expect(exit('echo a && false')).toBe('nonzero');
  });
});

describe('scripts', () => {
  const scripts = (text: string, workdir = '.') => invokedScripts(parseShellList(text), workdir);

  it('finds the scripts interpreters and paths run', () => {
    expect(scripts('node scripts/x.mjs a b')).toEqual(['scripts/x.mjs']);
    expect(scripts('node --import tsx ./scripts/x.js')).toEqual(['scripts/x.js']);
    expect(scripts('sh tools/y.sh && bash -e tools/z.sh')).toEqual(['tools/y.sh', 'tools/z.sh']);
    expect(scripts('python z.py; python3 -u w.py')).toEqual(['z.py', 'w.py']);
    expect(scripts('./scripts/run.sh --fast')).toEqual(['scripts/run.sh']);
    expect(scripts('npx tsx scripts/a.ts')).toEqual(['scripts/a.ts']);
    expect(scripts('deno run --allow-read scripts/a.ts')).toEqual(['scripts/a.ts']);
    expect(scripts('ruby x.rb | perl -w y.pl')).toEqual(['x.rb', 'y.pl']);
    expect(scripts('/usr/bin/env node s.mjs')).toEqual(['s.mjs']);
    expect(scripts('bash -euo pipefail tools/ci.sh')).toEqual(['tools/ci.sh']);
  });

  it('follows a literal cd, and stops resolving after one it cannot follow', () => {
    expect(scripts('cd packages/a && node ../../scripts/x.mjs && node y.js')).toEqual(['scripts/x.mjs', 'packages/a/y.js']);
    expect(scripts('node a.js; cd "$DIR" && node b.js')).toEqual(['a.js']);
    expect(scripts('cd /srv && node c.js')).toEqual([]);
  });

  it('skips inline code, modules, package scripts and tools', () => {
    expect(scripts(`python3 -m pytest; node -e "x"; sh -c './a.sh'; bash -lc b.sh; npm run check; npx vitest run; deno test a.ts; node --test; ./node_modules/.bin/x; node $S`)).toEqual([]);
  });

  it("names the files node's test runner is given: it runs each of them", () => {
    expect(scripts('node --test t.js u.test.mjs')).toEqual(['t.js', 'u.test.mjs']);
  });

  it('resolves against the working directory and stays inside the repository', () => {
    expect(scripts('node ../../scripts/check-package.mjs', 'packages/importer')).toEqual(['scripts/check-package.mjs']);
    expect(scripts('node ../outside.js')).toEqual([]);
    expect(scripts('node /abs/x.js ~/y.js')).toEqual([]);
  });

  it('anchors the working directory like the oracle does', () => {
    // CWD: is relative to the repository root, whether the ledger was discovered or named.
    expect(gateWorkdir(null)).toBe('.');
    expect(gateWorkdir('pkg')).toBe('pkg');
    expect(gateWorkdir('pkg/../tools')).toBe('tools');
    expect(gateWorkdir('..')).toBeNull();
  });
});

describe('globMatches', () => {
  it('matches DEPENDS globs the way fast-glob does for plain files', () => {
    expect(globMatches('scripts/*.mjs', 'scripts/x.mjs')).toBe(true);
    expect(globMatches('scripts/*.mjs', 'scripts/a/x.mjs')).toBe(false);
    expect(globMatches('scripts/**', 'scripts/a/x.mjs')).toBe(true);
    expect(globMatches('**/*.sh', 'run.sh')).toBe(true);
    expect(globMatches('src/{a,b}.js', 'src/b.js')).toBe(true);
    expect(globMatches('x?.[jt]s', 'x1.ts')).toBe(true);
    expect(globMatches('*', '.hidden')).toBe(true);
    expect(globMatches('a.js', 'aXjs')).toBe(false);
  });
});
