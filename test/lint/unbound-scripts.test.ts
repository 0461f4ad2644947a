// The scripts the approval screen names as bound by no DEPENDS (lint/unbound-scripts.ts):
// the same reading of the CHECK as undeclared-script, judged on the files the oracle binds.
import { describe, expect, it } from 'vitest';
import { unboundNotJudged, unboundScripts } from '../../lib/lint/unbound-scripts.js';

const ROOT = '/repo';
// Whether a glob can bind a path once written: yes, unless a test says otherwise.
const none = () => true;

describe('unboundScripts', () => {
  it('names each script the CHECK runs, inside a literal sh -c too, from the directory it runs in', () => {
    expect(unboundScripts("sh check.sh && node sub/t.js && sh -c 'cd sub && sh ../x.sh'", ROOT, ROOT, [], null, none)).toEqual(['check.sh', 'sub/t.js', 'x.sh']);
    expect(unboundScripts('./run.sh', ROOT, `${ROOT}/pkg`, [], null, none)).toEqual(['pkg/run.sh']);
  });

  it('names no script for empty standard input (`python3 -i </dev/null`)', () => {
    expect(unboundScripts('PYTHONSTARTUP=s.py python3 -i </dev/null', ROOT, ROOT, [], null, none)).toEqual([]);
    expect(unboundScripts('python3 < run.py', ROOT, ROOT, [], null, none)).toEqual(['run.py']);
  });

  it('names the scripts of the forms round 8 found unnamed: no extension, versioned interpreters, wrappers (round-8 attack)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('sh verify')).toEqual(['verify']);
    expect(named('bash check')).toEqual(['check']);
    expect(named('python3.11 t.py')).toEqual(['t.py']);
    expect(named('node tests')).toEqual(['tests']);
    expect(named('mksh x.sh; busybox sh y.sh')).toEqual(['x.sh', 'y.sh']);
    expect(named('stdbuf -oL ./run.sh')).toEqual(['run.sh']);
    expect(named('stdbuf -o L ./run.sh')).toEqual(['run.sh']);
    expect(named('setsid -w sh a.sh; flock -w 5 /tmp/lock sh b.sh; nice --adjustment 5 sh c.sh; ionice -c 3 sh d.sh')).toEqual(['a.sh', 'b.sh', 'c.sh', 'd.sh']);
    // A package script is not a file.
    expect(named('bun run test')).toEqual([]);
  });

  it("names every file node's test runner is given, and none when it finds them itself (round-8b N6)", () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('node --test test/sum.test.js')).toEqual(['test/sum.test.js']);
    expect(named('node --test --test-reporter spec --test-concurrency 1 a.test.js b.test.mjs')).toEqual(['a.test.js', 'b.test.mjs']);
    expect(named('node --test --test-reporter=tap -- t/x.js')).toEqual(['t/x.js']);
    // Patterns and a bare --test name no one file: the runner looks for them.
    expect(named('node --test')).toEqual([]);
    expect(named("node --test 'test/**/*.test.js'")).toEqual([]);
    expect(named('node --test --test-name-pattern sum')).toEqual([]);
    // Inline code is still not a file.
    expect(named("node -e 'require(1)' --test")).toEqual([]);
  });

  it('names the files of code that inline code loads by a quoted path (round-11 M1)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named(`node -e "require('./x.js')"`)).toEqual(['x.js']);
    expect(named(`node --eval="import('./a.mjs')"`)).toEqual(['a.mjs']);
    expect(named(`python3 -c "exec(open('x.py').read())"`)).toEqual(['x.py']);
    expect(named(`python3 -c "import runpy; runpy.run_path('t/x.py')"`)).toEqual(['t/x.py']);
    expect(named(`perl -we 'do "./lib/x.pl"'`)).toEqual(['lib/x.pl']);
    expect(named(`ruby -e "load 'x.rb'"`)).toEqual(['x.rb']);
    expect(named(`cd pkg && node -r ./h.js -e "require('../y.js')"`)).toEqual(['pkg/h.js', 'y.js']);
    // Every spelling of the option (round-12 H1, H2), a path with a slash or the folder itself (M1).
    for (const check of [`node -pe "require('./x.js')"`, `node -p -e "require('./x.js')"`, `env node -pe "require('./x.js')"`]) expect(named(check), check).toEqual(['x.js']);
    expect(named(`python3 -c"exec(open('x.py').read())"`)).toEqual(['x.py']);
    expect(named(`perl -le'do "./x.pl"'`)).toEqual(['x.pl']);
    expect(named('awk -fx.awk f.txt; sed -fx.sed f.txt')).toEqual(['x.awk', 'x.sed']);
    expect(named(`python3 -c "exec(open('scripts/check').read())"`)).toEqual(['scripts/check']);
    expect(named(`node -e "require('.')"`)).toEqual(['.']);
    // The file a loading call is given by name, whatever it looks like.
    expect(named(`python3 -c "import runpy; runpy.run_path('scripts', run_name='__main__')"`)).toEqual(['scripts']);
    expect(named(`lua -e 'dofile("x")'; ruby -e "load 'y'"; php -r 'include "z";'`)).toEqual(['x', 'y', 'z']);
    // Options around them keep their meaning.
    expect(named('python3 -Werror t.py; python3 -W error u.py; perl -we "print 1"')).toEqual(['t.py', 'u.py']);
    // Bound by DEPENDS: not named.
    expect(unboundScripts(`node -e "require('./x.js')"`, ROOT, ROOT, ['x.js'], null, none)).toEqual([]);
    // A module by name, a string that is no path, a bare call: nothing to name.
    expect(named(`node -e "require('fs')"`)).toEqual([]);
    expect(named(`node -e 'console.log("done.")'`)).toEqual([]);
    expect(named(`python3 -c 'import t; t.run()'`)).toEqual([]);
  });

  it('names a script in every folder it may run in: a cd that may not run or may fail leaves both (round-8d attack)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('false && cd spec; sh run.sh')).toEqual(['spec/run.sh', 'run.sh']);
    expect(named('cd spec; sh run.sh')).toEqual(['spec/run.sh', 'run.sh']);
    expect(named('cd spec && sh run.sh || sh other.sh')).toEqual(['spec/run.sh', 'spec/other.sh', 'other.sh']);
    // Only where it hangs on the cd: && chains, and `|| exit` ends the failed path.
    expect(named('cd spec && sh run.sh && cd .. && sh check.sh')).toEqual(['spec/run.sh', 'check.sh']);
    expect(named('cd spec || exit 1; sh run.sh')).toEqual(['spec/run.sh']);
    // Outside the repository, as written (an absolute one too); an absolute path inside it, as its repository path.
    expect(named('sh ../outside.sh; sh /repo/x.sh; sh /usr/lib/y.sh')).toEqual(['../outside.sh', 'x.sh', '/usr/lib/y.sh']);
  });

  it('names a preload written as a relative path, before the script; a package is not a file (round-8b N6)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('node -r ./h.js t.js')).toEqual(['h.js', 't.js']);
    expect(named('node --import=./setup.mjs --require ../pkg/x.cjs --test a.test.js')).toEqual(['setup.mjs', '../pkg/x.cjs', 'a.test.js']);
    expect(named('cd pkg && node --import ./setup.mjs --test')).toEqual(['pkg/setup.mjs']);
    expect(named("node -r ./h.js -e 'x()'")).toEqual(['h.js']);
    expect(named('node -r ts-node/register --import tsx t.ts')).toEqual(['t.ts']);
    expect(named('node --loader ./l.mjs')).toEqual([]);
  });

  it('names what node runs after an option with a value, or after one it does not know; awk and sed program files; standard input; paths through ~ or /proc (round-9 attack)', () => {
    const named = (check: string, matched: string[] = []) => unboundScripts(check, ROOT, ROOT, matched, null, none);
    expect(named('node --title scripts/check.js scripts/helper.js', ['scripts/check.js'])).toEqual(['scripts/helper.js']);
    for (const option of ['--disable-warning', '--unhandled-rejections', '--env-file-if-exists', '--inspect-port', '--redirect-warnings']) {
      expect(named(`node ${option} scripts/check.js scripts/helper.js`, ['scripts/check.js'])).toEqual(['scripts/helper.js']);
    }
    // An option it does not know: its next word may be the script, or the word after it.
    expect(named('node --frobnicate scripts/check.js scripts/helper.js')).toEqual(['scripts/check.js', 'scripts/helper.js']);
    expect(named('node --enable-source-maps scripts/check.js')).toEqual(['scripts/check.js']);
    expect(named('awk -f x.awk in.txt; gawk --file=y.awk in.txt; sed -f x.sed in.txt')).toEqual(['x.awk', 'y.awk', 'x.sed']);
    expect(named("awk '{print}' in.txt; sed -e s/a/b/ in.txt")).toEqual([]);
    expect(named('sh /dev/stdin < x.sh; bash /dev/fd/0 < y.sh')).toEqual(['x.sh', 'y.sh']);
    expect(named('sh ~/../repo/x.sh; sh /proc/self/cwd/x.sh; sh /opt/tools/y.sh; sh /repo/z.sh')).toEqual(['~/../repo/x.sh', '/proc/self/cwd/x.sh', '/opt/tools/y.sh', 'z.sh']);
  });

  it('names what python runs after grouped options, a node test reporter given as a path, and the script after an unknown node option whatever its value looks like (round-10 attack)', () => {
    const named = (check: string, matched: string[] = []) => unboundScripts(check, ROOT, ROOT, matched, null, none);
    expect(named('python3 -BX scripts/check.py scripts/helper.py', ['scripts/check.py'])).toEqual(['scripts/helper.py']);
    expect(named('python3 -IW ignore scripts/helper.py')).toEqual(['scripts/helper.py']);
    expect(named('python3 -Wd scripts/helper.py')).toEqual(['scripts/helper.py']);
    expect(named("python3 -Bc 'print(1)' scripts/x.py")).toEqual([]);
    expect(named("perl -we 'print 1' x.pl")).toEqual([]);
    expect(named('perl -Ilib t.pl')).toEqual(['t.pl']);
    expect(named('node --test-reporter ./tools/reporter.mjs --test t.mjs')).toEqual(['tools/reporter.mjs', 't.mjs']);
    expect(named('node --test-reporter=./tools/reporter.mjs --test t.mjs')).toEqual(['tools/reporter.mjs', 't.mjs']);
    expect(named('node --test-reporter spec --test t.mjs')).toEqual(['t.mjs']);
    expect(named('node --disable-proto throw scripts/helper.js', ['throw'])).toEqual(['scripts/helper.js']);
  });

  it('names the files of round 11: python -m cProfile/trace/pdb scripts, make -f makefiles, tclsh, php -f (round-11 attack)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('python3 -m cProfile -o /dev/null scripts/x.py')).toEqual(['scripts/x.py']);
    expect(named('python3 -m trace --trace scripts/x.py')).toEqual(['scripts/x.py']);
    expect(named('python3 -m pdb -c continue scripts/x.py')).toEqual(['scripts/x.py']);
    expect(named('python3 -m pytest -q tests')).toEqual([]);
    expect(named('make -s -f scripts/x.mk; make -j 4 --file=y.mk all')).toEqual(['scripts/x.mk', 'y.mk']);
    expect(named('make test')).toEqual([]);
    // -f is read from the folder -C leads to, whatever the order (round-20 G6).
    expect(named('make -C sub -f ../x.mk test; make -f y.mk -C a -C b test')).toEqual(['x.mk', 'a/b/y.mk']);
    expect(named('tclsh scripts/x.sh; php -f x.php; php y.php')).toEqual(['scripts/x.sh', 'x.php', 'y.php']);
  });

  it('names the files of code a program it does not know is given, and what a python module is given (round-13 H3)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('python3 -m unittest tests/test_x.py')).toEqual(['tests/test_x.py']);
    expect(named('python3 -m doctest -v lib/x.py')).toEqual(['lib/x.py']);
    expect(named('java T.java')).toEqual(['T.java']);
    expect(named('timeout 60 java src/T.java')).toEqual(['src/T.java']);
    expect(named('cmake -P scripts/x.cmake')).toEqual(['scripts/x.cmake']);
    expect(named('vim -es -S scripts/x.vim -c q; ex -S y.vim')).toEqual(['scripts/x.vim', 'y.vim']);
    expect(named('sqlite3 test.db < scripts/x.sql')).toEqual(['scripts/x.sql']);
    expect(named('ed -s f.txt < scripts/x.ed')).toEqual(['scripts/x.ed']);
    expect(named('go run ./cmd/main.go; bats t/x.bats; m4 x.m4')).toEqual(['cmd/main.go', 't/x.bats', 'x.m4']);
    expect(named('rake -f Rakefile; just --justfile ci/justfile test')).toEqual(['Rakefile', 'ci/justfile']);
    expect(named('jest --config=./jest.config.js tests/a.test.js')).toEqual(['jest.config.js', 'tests/a.test.js']);
    expect(named('gawk -E scripts/x.awk f; gawk -i lib.awk -f y.awk f')).toEqual(['scripts/x.awk', 'lib.awk', 'y.awk']);
    expect(named('git bisect run ./x.sh')).toEqual(['x.sh']);
    // Programs that only read, compare or format what they are given, data files, URLs, patterns, Go's ./...
    expect(named('eslint src/a.ts && prettier --check src/b.ts && shellcheck x.sh && diff -u a.js b.js && git diff -- a.ts')).toEqual([]);
    expect(named('tsc -p tsconfig.json && curl -fsS http://localhost/a.php && go test ./... && jest "src/**/*.test.ts"')).toEqual([]);
    expect(named('python3 -m json.tool a.json && python3 -m pytest -q tests')).toEqual([]);
  });

  it('names the file behind a descriptor path, and the script an interpreter in a folder runs (round-13 L1)', () => {
    const named = (check: string) => unboundScripts(check, ROOT, ROOT, [], null, none);
    expect(named('sh /dev/fd/3 3<scripts/x.sh')).toEqual(['scripts/x.sh']);
    expect(named('awk -f - f.txt < scripts/x.awk; awk -f /dev/stdin f.txt < y.awk; cat z.awk | awk -f - f.txt')).toEqual(['scripts/x.awk', 'y.awk', 'z.awk']);
    expect(named('python3 -m venv v && v/bin/python scripts/x.py')).toEqual(['v/bin/python', 'scripts/x.py']);
    expect(named('./node_modules/.bin/jest t/a.test.js; node_modules/.bin/tsx b.ts')).toEqual(['t/a.test.js', 'b.ts']);
    expect(named('node_modules/.bin/eslint a.js; ./node_modules/.bin/vitest run')).toEqual([]);
  });

  it('a script DEPENDS matched, or one its globs will match once it is written, is bound', () => {
    expect(unboundScripts('sh check.sh; sh later.sh', ROOT, ROOT, ['check.sh'], ['check.sh', '*.sh'], none)).toEqual([]);
    expect(unboundScripts('sh check.sh; sh later.sh', ROOT, ROOT, ['check.sh'], ['check.sh'], none)).toEqual(['later.sh']);
    // A script that is there but was not matched (a glob does not enter a symlinked folder) is bound by nothing.
    expect(unboundScripts('sh lib/run.sh', ROOT, ROOT, [], ['**/*.sh'], (p) => p !== 'lib/run.sh')).toEqual(['lib/run.sh']);
    // The files the oracle binds decide, whatever a glob reading would say of them.
    expect(unboundScripts('sh check.sh', ROOT, ROOT, ['check.sh'], null, none)).toEqual([]);
  });

  it('a file the CHECK only syntax-checks is not run, and a CHECK that runs no file names none', () => {
    expect(unboundScripts('node --check x.js && echo ok', ROOT, ROOT, [], null, none)).toEqual([]);
  });

  it('outside the repository nothing is judged', () => {
    expect(unboundScripts('sh check.sh', ROOT, '/elsewhere', [], null, none)).toEqual([]);
    // A sibling whose name starts with the root's is outside it too.
    expect(unboundScripts('sh check.sh', ROOT, '/repository', [], null, none)).toEqual([]);
  });
});

describe('unboundNotJudged', () => {
  const why = (check: string, cdpath = false) => unboundNotJudged(check, ROOT, ROOT, cdpath);

  it('says where the reading stops: a cd it cannot follow, pushd, set -P, a CDPATH (round-8c attack)', () => {
    expect(why('cd spec && cd - >/dev/null && sh check.sh')).toBe('cd -');
    expect(why('d=tests; cd "$d" && sh ../check.sh')).toBe('a cd to a folder set at run time');
    expect(why('cd && sh check.sh')).toBe('a cd to $HOME');
    expect(why('HOME=spec; cd && sh check.sh')).toBe('HOME set in the CHECK (it chooses what runs; an approval binds it only as the environment gives it)');
    expect(why('cd "$PWD/tests" && sh ../check.sh')).toBe('a cd to a folder set at run time');
    expect(why('cd /repo/tests && sh run.sh')).toBe('a cd to an absolute path');
    expect(why('cd .. && sh repo/x.sh')).toBe('a cd out of the repository');
    expect(why('cd tests && cd -P .. && sh check.sh')).toBe('cd -P (it resolves links)');
    expect(why('set -o physical; cd tests && cd .. && sh check.sh')).toBe('set -P (cd resolves links)');
    expect(why('set -eP; sh check.sh')).toBe('set -P (cd resolves links)');
    expect(why('pushd sub && sh x.sh')).toBe('pushd');
    expect(why('CDPATH=spec cd unit && sh run.sh')).toBe('a cd through CDPATH');
    expect(why('export CDPATH=spec; cd unit && sh run.sh')).toBe('a cd through CDPATH');
    // From the environment: a name CDPATH may find; ./unit is no lookup.
    expect(why('cd unit && sh run.sh', true)).toBe('a cd through CDPATH');
    expect(why('cd ./unit && sh run.sh', true)).toBeNull();
    // Inside sh -c too.
    expect(why("sh -c 'cd - && sh x.sh'")).toBe('cd -');
  });

  it('says so at a script named only at run time', () => {
    expect(why('cd tests && sh "$PWD/../check.sh"')).toBe('a program named at run time');
    expect(why('sh $(pwd)/../check.sh')).toBe('a program named at run time');
    expect(why('"$PWD/run.sh"')).toBe('a program named at run time');
    expect(why('. "$ENV_FILE"; echo ok')).toBe('a program named at run time');
  });

  it('stops where the shell may not do what the words say: control flow, functions, pipelines, the background, eval, trap, bash -P (round-8d attack)', () => {
    expect(why('if [ -d x ]; then cd x; fi; sh run.sh')).toBe('a cd inside if/for/while/case or a function');
    expect(why('f() { cd spec; }; f; sh run.sh')).toBe('a function definition');
    expect(why('cd tests | true; sh run.sh')).toBe('a cd in a pipeline');
    expect(why('cd tests & wait; sh run.sh')).toBe('a cd in the background');
    expect(why('true || cd spec; sh run.sh')).toBe('a cd that runs only if a command failed');
    expect(why('cd a b && sh x.sh')).toBe('a cd with more than one folder');
    expect(why('eval cd spec; sh run.sh')).toBe('eval');
    expect(why('trap "cd spec" USR1; kill -USR1 $$; sh run.sh')).toBe('trap');
    expect(why('bash -P -c "cd tests/.. && sh check.sh"')).toBe('a shell started with -P (cd resolves links)');
    expect(why('bash -o physical -c "cd tests/.. && sh check.sh"')).toBe('a shell started with -P (cd resolves links)');
    // Start-up files and shell options (round-8e attack).
    expect(why('BASH_ENV=hook.sh bash check.sh')).toBe('a shell start-up file or option set in the CHECK');
    expect(why('export BASH_ENV=hook.sh; bash check.sh')).toBe('a shell start-up file or option set in the CHECK');
    expect(why('env ENV=hook.sh sh -i check.sh')).toBe('a shell start-up file or option set in the CHECK');
    expect(why('SHELLOPTS=physical bash -c "cd tests/.. && sh check.sh"')).toBe('a shell start-up file or option set in the CHECK');
    expect(why('bash --rcfile hook.sh -i check.sh')).toBe('a shell started with start-up files or options');
    expect(why('bash -O cdable_vars -c "cd spec && sh run.sh"')).toBe('a shell started with start-up files or options');
    expect(why('shopt -s cdable_vars; cd spec && sh run.sh')).toBe('shopt');
    expect(why('cd sp*c && sh run.sh')).toBe('a cd to a pattern');
    expect(why('bash -euo pipefail -c "sh check.sh"')).toBeNull();
    // A sourced file may cd: the reading goes on, and says it is unsure from there.
    expect(why('. ./setenv.sh && sh run.sh')).toBe('a sourced file (it may cd)');
  });

  it('stops at code the words do not show: substitutions, env -S, programs that run another command (round-9 attack)', () => {
    const sub = 'a command substitution $(…)';
    expect(why('test "$(sh scripts/check.sh)" = ok && echo VERIFIED')).toBe(sub);
    expect(why('test "`sh scripts/check.sh`" = ok')).toBe(sub);
    expect(why('X=$(sh a.sh) true')).toBe(sub);
    expect(why('sh -c "$(cat x.sh)"')).toBe(sub);
    expect(why('bash -c "$(<x.sh)"')).toBe(sub);
    expect(why('diff <(sh a.sh) b')).toBe('a process substitution <(…)');
    expect(why('bash <(cat x.sh)')).toBe('a process substitution <(…)');
    // Its words are not taken for the command's: `cat` is not a script.
    expect(unboundScripts('bash <(cat x.sh)', ROOT, ROOT, [], null, none)).toEqual([]);
    expect(why("env -S 'sh x.sh'")).toBe('env -S (a command line split at run time)');
    for (const wrapper of ['xargs sh', 'taskset 1 sh x.sh', 'chrt 1 sh x.sh', 'unshare -r sh x.sh', 'strace -o /dev/null sh x.sh', 'sudo sh x.sh', "watch 'sh x.sh'", 'coproc sh x.sh']) {
      expect(why(wrapper)).toBe(`a command run through ${wrapper.split(' ')[0]}`);
    }
    expect(why("find . -name '*.sh' -exec sh {} \\;")).toBe('a command run through find');
    expect(why("find . -name '*.sh'")).toBeNull();
  });

  it('stops at the forms round 10 ran unseen: substitutions inside ${…} and $((…)), functions, case, env -S behind a wrapper, a program fed on standard input, a command line given to flock/npx, nested sh -c, unknown programs given an interpreter', () => {
    const sub = 'a command substitution $(…)';
    expect(why('test "${UNSET:-$(sh scripts/check.sh)}" = ok')).toBe(sub);
    expect(why('test $(( $(sh x.sh | grep -c ok) )) -eq 1')).toBe(sub);
    expect(why('echo $((1+1)) && sh x.sh')).toBeNull();
    expect(why('f() { sh x.sh; }; f')).toBe('a function definition');
    expect(why('function f { sh x.sh; }; f')).toBe('a function definition');
    expect(why('case x in x) sh x.sh;; esac')).toBe('case (its branches are not read)');
    expect(why('nice env -S "sh x.sh"')).toBe('env -S (a command line split at run time)');
    expect(why('timeout 60 env -S "sh x.sh"')).toBe('env -S (a command line split at run time)');
    for (const fed of ['echo "sh x.sh" | sh', 'printf x | bash', 'sh <>x.sh', 'exec 3<x.sh; sh <&3', 'bash <<< "sh x.sh"', 'sh <<EOF', 'cat < x.sh | sh', 'tail -n +1 x.sh | sh']) {
      expect(why(fed), fed).toBe('a program fed on standard input');
    }
    expect(why('cat -- x.sh | sh')).toBeNull();
    expect(why('flock /tmp/l -c "sh x.sh"')).toBe('a command line given to flock');
    expect(why('npx -c "sh x.sh"')).toBe('a command line given to npx');
    expect(why('git --git-dir=fixtures/snap status --short')).toBe('git given another git directory or its settings on its command line');
    for (const [check, program] of [['zip -q -T -TT scripts/ziptest x.zip f', 'zip'], ['split -n 1 --filter=scripts/count f', 'split'], ['sdiff -s --diff-program=x a b', 'sdiff'], ['git ls-remote --upload-pack=scripts/serve .', 'git'], ['install -s --strip-program=x a b', 'install']]) {
      expect(why(check!), check).toBe(`a command run through ${program}`);
    }
    expect(why('zip -r out.zip src && split -l 10 f && git ls-remote origin')).toBeNull();
    expect(why('sg grp -c "sh x.sh"')).toBe('a command line given to sg');
    expect(why('npm exec -- sh x.sh')).toBe('a command run through npm exec');
    expect(why("git -c alias.t='!sh x.sh' t")).toBe('git -c (an alias or a setting that runs a command)');
    expect(why("sh -c \"sh -c 'sh x.sh'\"")).toBe('a sh -c inside a sh -c');
    expect(why("bash -c $'sh x.sh\\n'")).toBe('a shell command line made at run time');
    for (const wrapped of ['setarch x86_64 sh x.sh', 'run-parts scripts', 'dbus-run-session -- sh x.sh', 'mytool --with node x.js']) {
      expect(why(wrapped), wrapped).toMatch(/^a command run through /);
    }
    // Everyday commands stay read to the end.
    for (const plain of ['npm test', 'node --test', 'pytest -q', 'go test ./...', 'make test', 'eslint .', 'grep -q node package.json', 'python3 -m pytest', 'node --version', 'command -v node && node t.js', 'node -e "main()"', "python3 -c 'import t; t.run()'", 'node --version | grep v2']) {
      expect(why(plain), plain).toBeNull();
    }
  });

  it('stops at tar, sort and rsync options that run a program, and at git settings in the environment (round-11 attack)', () => {
    expect(why('tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec="sh x.sh" GATES.md')).toBe('a command run through tar');
    expect(why('tar -cf /dev/null -I scripts/x.sh GATES.md')).toBe('a command run through tar');
    expect(why('sort --compress-program=scripts/x.sh in.txt')).toBe('a command run through sort');
    expect(why('rsync -e scripts/x.sh a b')).toBe('a command run through rsync');
    expect(why('env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.t GIT_CONFIG_VALUE_0="!sh x.sh" git t')).toBe('git settings given in the environment (GIT_CONFIG_…, GIT_SSH_COMMAND, …)');
    expect(why('GIT_SSH_COMMAND="sh x.sh" git fetch')).toBe('git settings given in the environment (GIT_CONFIG_…, GIT_SSH_COMMAND, …)');
    expect(why('tar -xzf a.tgz && sort in.txt && rsync -av a b')).toBeNull();
  });

  it('stops at interpreter code that runs a command line itself (round-11 M1)', () => {
    expect(why(`node -e "require('child_process').execSync('sh x.sh')"`)).toBe('node code that runs commands');
    expect(why(`python3 -c "import os; os.system('sh x.sh')"`)).toBe('python3 code that runs commands');
    expect(why(`python3 -c "import subprocess; subprocess.run(['sh', 'x.sh'])"`)).toBe('python3 code that runs commands');
    expect(why(`awk 'BEGIN { system("sh x.sh") }'`)).toBe('awk code that runs commands');
    expect(why(`awk '{ print | "sh" }' cmds.txt`)).toBe('awk code that runs commands');
    expect(why("perl -e '`sh x.sh`'")).toBe('perl code that runs commands');
    expect(why(`perl -e 'exec "sh x.sh"'`)).toBe('perl code that runs commands');
    expect(why(`ruby -e 'system "sh x.sh"'`)).toBe('ruby code that runs commands');
    expect(why(`lua -e 'os.execute("sh x.sh")'`)).toBe('lua code that runs commands');
    // Round 12 (H3, M1): readpipe, os.execv/posix_spawn, sed's e command and s///e flag, a chdir in the code.
    expect(why(`perl -e 'readpipe("sh x.sh")'`)).toBe('perl code that runs commands');
    expect(why(`python3 -c "import os; os.execv('x.sh', ['x'])"`)).toBe('python3 code that runs commands');
    expect(why(`python3 -c "import os; os.posix_spawn('x.sh', ['x'], {})"`)).toBe('python3 code that runs commands');
    expect(why("sed '1e sh scripts/x.sh' f.txt")).toBe('sed code that runs commands');
    expect(why("sed 's/x/y/e' f.txt")).toBe('sed code that runs commands');
    expect(why(`python3 -c "import os; os.chdir('scripts'); exec(open('x.py').read())"`)).toBe('python3 code that changes its directory');
    // Code loaded by a name or text the reading cannot see (round-12 M1).
    for (const check of [`node -e "require('./scri' + 'pts/x')"`, `node -e "eval(require('fs').readFileSync('scripts/check.txt', 'utf8'))"`, `node -e "require(process.cwd() + '/scripts/x')"`, `python3 -c "exec(open('x.py').read())"`, `node -e "new Function(src)()"`]) {
      expect(why(check), check).toMatch(/^(?:node|python3) code that loads code by a computed name$/);
    }
    for (const plain of ["sed -e 's/foo/bar/' f.txt", "sed -n '/^e$/p' f.txt", `python3 -c "import platform; print(platform.system())"`, `python3 -c "import json; json.load(open('a.json'))"`, `node -e "console.log(require('./package.json').version)"`, `node -e "import('./x.mjs')"`]) {
      expect(why(plain), plain).toBeNull();
    }
    // exec in Python runs Python code (named above as loading by a computed name); an option word is not code.
    for (const plain of ['node t.js --exec', "awk '{print $1}' f.txt", 'node t.js --system']) {
      expect(why(plain), plain).toBeNull();
    }
  });

  it('stops at a variable that chooses what runs set in the CHECK itself, and at a shell given to npm or make (round-13 H1, H2)', () => {
    const set = (name: string) => `${name} set in the CHECK (it chooses what runs; ${name === 'PATH' ? 'an approval binds its repository folders only where they are spelled plainly' : 'an approval binds it only as the environment gives it'})`;
    expect(why('PATH=scripts:$PATH run-tests')).toBe(set('PATH'));
    expect(why('export PATH=scripts:$PATH; check')).toBe(set('PATH'));
    expect(why('env PATH=$PWD/scripts:$PATH check')).toBe(set('PATH'));
    expect(why('PATH+=:scripts; check')).toBe(set('PATH'));
    // Round-34 F1: a name made at run time, or a reference to PATH.
    for (const computed of ['x=PATH; export "$x=cli:$PATH"; mycli', 'export $x=cli; mycli', 'readonly "$x=cli"; mycli', 'export PATH${x}=cli; mycli', 'x=PA; export ${x}TH=cli; mycli', 'printf -v "$x" %s cli; mycli', 'read "$x" <<< cli; mycli']) {
      expect(why(computed), computed).toBe(set('a variable whose name is made at run time'));
    }
    for (const ref of ['declare -n P=PATH; P=cli; mycli', 'typeset -n P=PATH; mycli', 'local -n P=PATH']) expect(why(ref), ref).toBe(set('a name reference (declare -n)'));
    // Not names: printf's values, read's prompt, export -n (which unexports).
    for (const plain of ['printf "%s\\n" "$x"', 'read -p "$prompt" answer', 'export -n FOO']) expect(why(plain), plain).toBeNull();
    expect(why('NODE_OPTIONS=--require=./scripts/setup.js node scripts/t.js')).toBe(set('NODE_OPTIONS'));
    expect(why('nice env NODE_OPTIONS=-r./x.js node t.js')).toBe(set('NODE_OPTIONS'));
    expect(why('PERL5OPT=-Iscripts PERL5LIB=scripts perl -MCheck -e 1')).toBe(set('PERL5OPT'));
    expect(why('npm_config_script_shell=scripts/shell npm test')).toBe(set('npm_config_script_shell'));
    expect(why('NPM_CONFIG_SCRIPT_SHELL=scripts/shell npm test')).toBe(set('NPM_CONFIG_SCRIPT_SHELL'));
    expect(why('sh -c "PYTHONPATH=scripts python3 -m x"')).toBe(set('PYTHONPATH'));
    expect(why('LD_PRELOAD=./scripts/x.so ls')).toBe(set('LD_PRELOAD'));
    expect(why('declare -x RUBYOPT=-rscripts/x; ruby -e 1')).toBe(set('RUBYOPT'));
    for (const check of ['npm test --silent --script-shell=scripts/shell', 'npm --script-shell scripts/shell test', 'npx --node-options=--require=./x.js vitest', 'pnpm test --userconfig=ci/npmrc']) {
      expect(why(check), check).toMatch(/^a shell, node options or configuration given to (?:npm|npx|pnpm)$/);
    }
    expect(why('make -s SHELL=scripts/shell test')).toBe('a shell, settings or code given to make');
    expect(why("make --eval='x: ; sh y.sh' x")).toBe('a shell, settings or code given to make');
    // Set without a NAME= word, or by another operator, or a variable that chooses a program (round-14 H1-H3).
    expect(why('for PATH in scripts:/usr/bin:/bin; do run-tests; done')).toBe(set('PATH'));
    expect(why('read PATH < path.txt; run-tests')).toBe(set('PATH'));
    expect(why('printf -v PATH %s scripts; run-tests')).toBe(set('PATH'));
    expect(why(': ${NODE_OPTIONS:=--require=./scripts/setup.js}; export NODE_OPTIONS; node t.js')).toBe(set('NODE_OPTIONS'));
    expect(why('NODE_OPTIONS="-r ./x.js" node t.js')).toBe(set('NODE_OPTIONS'));
    expect(why('HOME=tests/home git status')).toBe(set('HOME'));
    expect(why('EDITOR=scripts/msg git commit -q')).toBe(set('EDITOR'));
    expect(why('TAR_OPTIONS=--use-compress-program=scripts/unpack tar -xOf f.tar')).toBe(set('TAR_OPTIONS'));
    expect(why(`PATH=${ROOT}/scripts:$PATH run-tests`)).toBe(set('PATH'));
    for (const check of ['make -s SHELL:=scripts/shell test', 'make SHELL::=x t', 'make SHELL!=echo t', "make 'override SHELL=x' t", 'make SHELL+=x t']) {
      expect(why(check), check).toBe('a shell, settings or code given to make');
    }
    // Words that set nothing, and variables or values that choose no code (round-14 L1: absolute
    // PATH entries outside the repository, node options that load nothing, a hash seed).
    for (const plain of ['PATH=/usr/local/go/bin:$PATH go version', 'NODE_OPTIONS=--max-old-space-size=4096 node t.js', 'NODE_OPTIONS="--enable-source-maps --no-warnings" node t.js', 'PYTHONHASHSEED=0 python3 t.py', 'npx eslint -c eslint.config.js src', 'PATH="$HOME/.cargo/bin:$PATH" cargo test', 'export PATH=$PATH:/opt/tool/bin; tool --check', 'HOME=/tmp/h npm test', 'for f in a b; do echo $f; done', 'read -r line < f.txt; echo "$line"']) {
      expect(why(plain), plain).toBeNull();
    }
    expect(why('npx -c "sh x.sh"')).toBe('a command line given to npx');
    expect(why('git --git-dir=fixtures/snap status --short')).toBe('git given another git directory or its settings on its command line');
    for (const [check, program] of [['zip -q -T -TT scripts/ziptest x.zip f', 'zip'], ['split -n 1 --filter=scripts/count f', 'split'], ['sdiff -s --diff-program=x a b', 'sdiff'], ['git ls-remote --upload-pack=scripts/serve .', 'git'], ['install -s --strip-program=x a b', 'install']]) {
      expect(why(check!), check).toBe(`a command run through ${program}`);
    }
    expect(why('zip -r out.zip src && split -l 10 f && git ls-remote origin')).toBeNull();
    for (const plain of ['echo PATH=$PATH', 'grep NODE_OPTIONS= .env.example', 'LANG=C sort a.txt', 'CI=1 npm test', 'make test V=1', 'npm test --silent']) {
      expect(why(plain), plain).toBeNull();
    }
  });

  it('a program named like a property of every object (toString, constructor, __proto__) is read as any other, never a crash', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(why(`${name} a.sh -x`), name).toBeNull();
      expect(unboundScripts(`${name} a.sh && timeout 5 ${name} b.py`, ROOT, ROOT, [], null, none), name).toEqual(['a.sh', 'b.py']);
    }
  });

  it('is null when the whole CHECK was read', () => {
    expect(why('cd tests && sh run.sh && cd .. && sh check.sh')).toBeNull();
    expect(why('cd -L tests && sh run.sh')).toBeNull();
    expect(why("node -e 'x' && echo $HOME && set -e && sh check.sh")).toBeNull();
  });
});
