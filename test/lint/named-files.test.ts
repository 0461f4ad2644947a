// namedFiles: every repository file a CHECK names, and what it reaches through patterns,
// folders, module names, package.json and the files runners read by themselves (pure; the
// disk is given as sets).
import { describe, expect, it } from 'vitest';
import { globMatches } from '../../lib/lint/glob.js';
import { namedFiles } from '../../lib/lint/named-files.js';

const ROOT = '/repo';

// A repository as text by path; patterns are matched against it as globs, and a pattern in
// `unlistable` cannot be listed (the expander's null: past its bound, or a folder it cannot read).
function textDisk(files: Record<string, string>, unlistable: ReadonlySet<string> = new Set()) {
  return {
    isFile: (p: string) => Object.hasOwn(files, p),
    readText: (p: string) => (Object.hasOwn(files, p) ? files[p] : undefined),
    expand: (pattern: string, dir: string) => {
      if (unlistable.has(pattern)) return null;
      const prefix = dir === '.' ? '' : `${dir}/`;
      return Object.keys(files).filter((f) => f.startsWith(prefix) && globMatches(pattern, f.slice(prefix.length))).map((f) => f.slice(prefix.length));
    },
  };
}
const readWith = (check: string, files: Record<string, string>, depends: string[] = []) => namedFiles(check, ROOT, ROOT, depends, depends, textDisk(files));

describe('namedFiles', () => {
  // The files of a repository, as the caller's isFile would find them on disk.
  const FILES = new Set(['scripts/serve', 'scripts/ziptest', 'scripts/count', 'scripts/cmp', 'scripts/report.sh', 'scripts/shell', 'scripts/unpack', 'scripts/msg',
    'tests/check.txt', 'tests/vimrc', 'tests/Check', 'tests/build.ninja', 'tests/setup.js', 'fixtures/a', 'sub/x.sh', 'expected.txt', 'GATES.md', 'path.txt']);
  const named = (check: string, depends: string[] = [], cwd = ROOT) => namedFiles(check, ROOT, cwd, depends, depends, { isFile: (p) => FILES.has(p) }).files;

  it('names every file of the repository the CHECK mentions: arguments, option values, words in values and quoted command lines, redirections (round-14 H2-H6)', () => {
    expect(named('git ls-remote --upload-pack=scripts/serve .')).toEqual(['scripts/serve']);
    expect(named('zip -q -T -TT scripts/ziptest /tmp/x.zip GATES.md')).toEqual(['scripts/ziptest', 'GATES.md']);
    expect(named('split -n 1 --filter=scripts/count GATES.md')).toEqual(['scripts/count', 'GATES.md']);
    expect(named('sdiff -s --diff-program=scripts/cmp fixtures/a fixtures/a')).toEqual(['scripts/cmp', 'fixtures/a']);
    expect(named("sed -n --expression='1e sh scripts/report.sh' GATES.md")).toEqual(['scripts/report.sh', 'GATES.md']);
    expect(named(`perl -e 'open F, "|-", "sh scripts/report.sh"; close F'`)).toEqual(['scripts/report.sh']);
    expect(named(`node -e "console.log(1)" -r ./tests/setup.js`)).toEqual(['tests/setup.js']);
    expect(named('python3 -m doctest -v tests/check.txt; sqlite3 :memory: < tests/check.txt')).toEqual(['tests/check.txt']);
    expect(named('vim -Nes -u tests/vimrc; java --source 17 tests/Check; ninja -f tests/build.ninja')).toEqual(['tests/vimrc', 'tests/Check', 'tests/build.ninja']);
    expect(named('make -s SHELL:=scripts/shell test; TAR_OPTIONS=--use-compress-program=scripts/unpack tar -xf f.tar')).toEqual(['scripts/shell', 'scripts/unpack']);
    expect(named('EDITOR=scripts/msg git commit -q --allow-empty')).toEqual(['scripts/msg']);
    // From the folder a cd leads to, and through the whole text past where the walk stops.
    expect(named('cd sub && sh ./x.sh')).toEqual(['sub/x.sh']);
    expect(named('f() { sh sub/x.sh; }; f')).toEqual(['sub/x.sh']);
    expect(named(`curl -d @expected.txt http://localhost/x`)).toEqual(['expected.txt']);
    expect(named(`${ROOT}/scripts/serve`)).toEqual(['scripts/serve']);
  });

  it('names nothing DEPENDS binds, nothing that is not a file there, and no option, variable or pattern', () => {
    expect(named('git ls-remote --upload-pack=scripts/serve .', ['scripts/serve'])).toEqual([]);
    expect(named('sh scripts/*.sh; cat "$F"; ls tests; echo -x; cat ../outside.txt; cat /etc/passwd; cat ~/x')).toEqual([]);
    expect(named('diff -u expected.txt out.txt')).toEqual(['expected.txt']);
    // Installed packages are not the repository's code.
    const installed = new Set(['node_modules/.bin/vitest', 'node_modules/x/cli.js']);
    expect(namedFiles('./node_modules/.bin/vitest run && node node_modules/x/cli.js', ROOT, ROOT, [], [], { isFile: (p) => installed.has(p) }).files).toEqual([]);
  });

  it('says where its bounds left text unread: a long word, a long CHECK, more files than it names (a name past them would go unshown)', () => {
    const all = (p: string) => /^f\d+\.txt$|^x\.sh$/.test(p);
    const read = (check: string) => namedFiles(check, ROOT, ROOT, [], [], { isFile: all });
    expect(read('sh x.sh')).toEqual({ files: ['x.sh'], unread: null });
    expect(read(`sed --expression='${'y'.repeat(5000)} 1e sh x.sh' f0.txt`).unread).toBe('a word longer than 4096 characters');
    expect(read(`true ${'a '.repeat(40_000)}; sh x.sh`).unread).toBe('a CHECK longer than 65536 characters');
    const many = Array.from({ length: 300 }, (_, i) => `f${i}.txt`).join(' ');
    const cut = read(`cat ${many}; sh x.sh`);
    expect(cut.files).toHaveLength(256);
    expect(cut.unread).toBe('more than 256 files named');
    expect(read(`cat ${Array.from({ length: 256 }, (_, i) => `f${i}.txt`).join(' ')}`).unread).toBe(null);
  });

  it('names what a program reads by itself from its folder: package.json and .npmrc for npm, the makefile, conftest.py, build.ninja, .pdbrc, .perldb (round-15 M2)', () => {
    const disk = new Set(['package.json', '.npmrc', 'Makefile', 'conftest.py', 'build.ninja', '.pdbrc', '.perldb', 'web/package.json', 'setup.py', 'tsconfig.json']);
    const files = (check: string) => namedFiles(check, ROOT, ROOT, [], [], { isFile: (p) => disk.has(p) }).files;
    expect(files('npm test')).toEqual(['package.json', '.npmrc']);
    expect(files('npm --prefix web run test:unit').sort()).toEqual(['.npmrc', 'package.json', 'web/package.json']);
    expect(files('make check')).toEqual(['Makefile']);
    expect(files('python3 -m pytest -q')).toEqual(['conftest.py']);
    expect(files('ninja')).toEqual(['build.ninja']);
    expect(files('ninja -f other.ninja')).toEqual([]);
    expect(files('python3 -m pdb -c continue t.py </dev/null')).toEqual(['.pdbrc']);
    expect(files('perl -d t/check.pl')).toEqual(['.perldb']);
    expect(files('pip install -e .')).toEqual(['setup.py']);
    expect(files('npx tsc --noEmit')).toEqual(['tsconfig.json']);
    // Bound: not named.
    expect(namedFiles('npm test', ROOT, ROOT, ['package.json'], ['{package.json,.npmrc}'], { isFile: (p) => disk.has(p) }).files).toEqual([]);
  });

  it("names what node loads through the repository's own package.json: a # import, a self-reference, and package.json itself (round-15 H3)", () => {
    const pkg = { name: 'selfpkg', exports: { '.': './index.js', './setup': { import: './tests/setup.mjs', require: './tests/setup.cjs' }, './helpers/*': './tests/helpers/*.js' }, imports: { '#setup': './tests/pre.mjs' } };
    const disk = new Set(['package.json', 'index.js', 'tests/setup.mjs', 'tests/setup.cjs', 'tests/helpers/a.js', 'tests/pre.mjs', 't.js']);
    const files = (check: string, cwd = ROOT) => namedFiles(check, ROOT, cwd, ['t.js'], ['t.js'], { isFile: (p) => disk.has(p), readText: (p) => (p === 'package.json' ? JSON.stringify(pkg) : undefined) }).files;
    expect(files('node -r selfpkg/setup t.js')).toEqual(['package.json', 'tests/setup.mjs', 'tests/setup.cjs']);
    expect(files("node --import '#setup' t.js")).toEqual(['package.json', 'tests/pre.mjs']);
    expect(files('node --import=selfpkg t.js')).toEqual(['package.json', 'index.js']);
    expect(files('node --require selfpkg/helpers/a t.js')).toEqual(['package.json', 'tests/helpers/a.js']);
    // From a folder below, the nearest package.json above it.
    expect(files('node -r selfpkg/setup ../t.js', `${ROOT}/tests`)).toEqual(['package.json', 'tests/setup.mjs', 'tests/setup.cjs']);
    // Another package (node_modules) or an unknown entry: nothing of the repository.
    expect(files('node -r dotenv/config t.js; node -r selfpkg/nothing t.js')).toEqual([]);
  });

  it('names the files a module name loads: python -m, runpy, pytest -p, pylint --load-plugins, perl -I -M, ruby -I -r (round-14 leftovers)', () => {
    const modules = new Set(['lib/Foo/Bar.pmc', 'tests/__init__.py', 'tests/run.py', 'pytest.py', 'tools/__main__.py', 'plug.py', 'lint_a.py', 'lint_b/__init__.py', 'lib/Foo/Bar.pm', 'lib/feat.rb', 'sub/m.py']);
    const files = (check: string, cwd = ROOT) => namedFiles(check, ROOT, cwd, [], [], { isFile: (p) => modules.has(p) }).files;
    expect(files('python3 -m tests.run')).toEqual(['tests/__init__.py', 'tests/run.py']);
    expect(files('python3 -m pytest -q')).toEqual(['pytest.py']);
    expect(files('python3 -m runpy tools')).toEqual(['tools/__main__.py']);
    expect(files('python3 -mtools')).toEqual(['tools/__main__.py']);
    expect(files('pytest -p plug -q; pylint --load-plugins=lint_a,lint_b src')).toEqual(['plug.py', 'lint_a.py', 'lint_b/__init__.py']);
    expect(files('perl -Ilib -MFoo::Bar -e 1; ruby -I lib -rfeat -e 1')).toEqual(['lib/Foo/Bar.pm', 'lib/Foo/Bar.pmc', 'lib/feat.rb']);
    expect(files('perl -Ilib -mFoo::Bar=x -e 1')).toEqual(['lib/Foo/Bar.pm', 'lib/Foo/Bar.pmc']);
    expect(files("perl -Ilib -M'Foo::Bar qw(run)' -e 1; perl -Ilib -M 'Foo::Bar qw(run)' -e 1")).toEqual(['lib/Foo/Bar.pm', 'lib/Foo/Bar.pmc']);
    expect(files('python3 -m unittest tests.run')).toEqual(['tests/__init__.py', 'tests/run.py']);
    // From the command's folder, as Python searches the working folder first.
    expect(files('cd sub && python3 -m m')).toEqual(['sub/m.py']);
    // Bound by DEPENDS: not named.
    expect(namedFiles('python3 -m tests.run', ROOT, ROOT, ['tests/run.py'], ['tests/*.py'], { isFile: (p) => modules.has(p) }).files).toEqual([]);
  });
});


describe('namedFiles: what runners run through their own files (round 16)', () => {
  const read = readWith;

  it('npm: the commands of the script, its pre and post scripts, and the scripts they run in turn (B1, B2)', () => {
    const pkg = JSON.stringify({ scripts: { pretest: 'sh scripts/pre.sh', test: 'node scripts/t.js && npm run lint', posttest: 'sh scripts/post.sh', lint: 'node scripts/lint.js' } });
    const files = { 'package.json': pkg, 'scripts/pre.sh': '', 'scripts/t.js': '', 'scripts/post.sh': '', 'scripts/lint.js': '' };
    expect(read('npm test', files, ['package.json']).files.sort()).toEqual(['scripts/lint.js', 'scripts/post.sh', 'scripts/pre.sh', 'scripts/t.js']);
    // Bound too: nothing to say.
    expect(read('npm test', files, ['package.json', 'scripts/*']).files).toEqual([]);
  });

  // Round-31b F8: package.json was also read as text, so `npm test` named every other
  // script's files and the package's bin; the screen then asked to bind what never runs.
  it('npm test, npm run NAME: only the scripts they run, never the others nor the bin; npm install reads the whole file', () => {
    const pkg = JSON.stringify({ bin: { tally: 'src/cli.js' }, scripts: { test: 'node --test t/', lint: 'node scripts/lint.js', build: 'node scripts/build.js' } });
    const files = { 'package.json': pkg, 'src/cli.js': '', 'scripts/lint.js': '', 'scripts/build.js': '', 't/a.test.js': '' };
    expect(read('npm test', files, ['package.json']).files).not.toContain('scripts/lint.js');
    expect(read('npm test', files, ['package.json']).files).not.toContain('src/cli.js');
    expect(read('npm run -s build', files, ['package.json']).files).toEqual(['scripts/build.js']);
    expect(read('yarn run lint', files, ['package.json']).files).toEqual(['scripts/lint.js']);
    expect(read('npm install', files, ['package.json']).files.sort()).toEqual(['scripts/build.js', 'scripts/lint.js', 'src/cli.js']);
  });

  it('task runners whose tasks are commands in a repository file: the file, and what its text names (round-21 F2)', () => {
    const task = 'test = "sh scripts/t.sh"\n';
    const cases: Array<[string, string]> = [
      ['composer test', 'composer.json'],
      ['pdm run test', 'pyproject.toml'],
      ['poe test', 'poe_tasks.toml'],
      ['hatch run test', 'hatch.toml'],
      ['invoke test', 'tasks.py'],
      ['inv test', 'invoke.yaml'],
      ['pre-commit run --all-files', '.pre-commit-config.yaml'],
      ['mise run test', '.mise.toml'],
      ['lefthook run pre-push', 'lefthook.yml'],
      ['rspec', '.rspec'],
      ['bundle exec rspec', '.rspec'],
      ['rspec', 'spec/spec_helper.rb'],
      ['poetry run rspec', '.rspec'],
    ];
    for (const [check, file] of cases) {
      // spec/spec_helper.rb names files from its own folder.
      const script = file.startsWith('spec/') ? 'spec/scripts/t.sh' : 'scripts/t.sh';
      expect(read(check, { [file]: task, [script]: '' }).files.sort(), check).toEqual([file, script].sort());
    }
    // mise's file tasks (round-22 F2).
    expect(read('mise run test:unit', { 'mise-tasks/test/unit': '', '.mise/tasks/lint': '' }).files).toEqual(['mise-tasks/test/unit']);
    expect(read('mise r lint', { '.mise/tasks/lint': '' }).files).toEqual(['.mise/tasks/lint']);
    expect(read('mise tasks run lint', { '.config/mise/tasks/lint': '' }).files).toEqual(['.config/mise/tasks/lint']);
    // `bundle install` runs nothing of the Gemfile's tasks; `poetry show rspec` runs no rspec.
    expect(read('bundle install', { '.rspec': task, 'scripts/t.sh': '' }).files).toEqual([]);
    expect(read('poetry show rspec', { '.rspec': task, 'scripts/t.sh': '' }).files).toEqual([]);
  });

  it('npm: the workspace -w names, and a stop where it cannot be read (B3)', () => {
    const files = { 'package.json': '{}', 'packages/a/package.json': JSON.stringify({ scripts: { test: 'node t.js' } }), 'packages/a/t.js': '' };
    expect(read('npm test -w packages/a', files, ['package.json']).files.sort()).toEqual(['packages/a/package.json', 'packages/a/t.js']);
    expect(read('npm test --workspaces', files, ['package.json']).unread).toBe('the scripts of every workspace');
    expect(read('npm test -w @me/a', files, ['package.json']).unread).toBe('an npm workspace it cannot find (@me/a)');
    expect(read('npm test', { 'package.json': '{"scripts": 7' }).unread).toBe('a package.json it cannot read (package.json)');
  });

  it('make: what the makefile and its includes name, recipes included (B4, B5); ninja -C (B6)', () => {
    const files = { Makefile: 'include rules.mk\ntest:\n\t@sh scripts/t.sh\n', 'rules.mk': 'lint:\n\tnode scripts/lint.js\n', 'scripts/t.sh': '', 'scripts/lint.js': '', 'build/build.ninja': '' };
    expect(read('make -s test', files, ['Makefile']).files.sort()).toEqual(['rules.mk', 'scripts/lint.js', 'scripts/t.sh']);
    expect(read('ninja -C build', files).files).toEqual(['build/build.ninja']);
  });

  it('tests a runner finds by itself: bare node --test, pytest and its conftest.py files, unittest discovery with its packages (A4, A5)', () => {
    const files = { 'test/a.test.js': '', 'src/x.js': '', 'tests/conftest.py': '', 'tests/test_a.py': '', 'tests/__init__.py': '', 'tests/unit/__init__.py': '', 'tests/unit/test_b.py': '' };
    expect(read('node --test', files).files).toEqual(['test/a.test.js']);
    expect(read('pytest -q', files).files.sort()).toEqual(['tests/conftest.py', 'tests/test_a.py', 'tests/unit/test_b.py']);
    expect(read('python3 -m unittest', files).files.sort()).toEqual(['tests/__init__.py', 'tests/test_a.py', 'tests/unit/__init__.py', 'tests/unit/test_b.py']);
    expect(read('python3 -m unittest discover -s tests/unit -t .', files).files.sort()).toEqual(['tests/__init__.py', 'tests/unit/__init__.py', 'tests/unit/test_b.py']);
  });

  it('package.json: one it cannot read, or an entry past the walk, is said (C1-C3); a require in inline code is resolved (B9)', () => {
    const deep = { name: 'pkg', exports: { './setup': { a: { b: { c: { d: { e: { f: { g: './s.js' } } } } } } } } };
    expect(read('node -r pkg/setup t.js', { 'package.json': JSON.stringify(deep), 's.js': '', 't.js': '' }, ['t.js']).unread).toBe('a package.json entry too deep or too long to read (pkg/setup)');
    expect(read('node -r pkg/setup t.js', { 'package.json': '{not json', 't.js': '' }, ['t.js'])).toEqual({ files: ['package.json'], unread: 'a package.json it cannot read (package.json)' });
    const pkg = JSON.stringify({ name: 'pkg', exports: { './setup': './s.js' } });
    expect(read(`node -e 'require("pkg/setup")'`, { 'package.json': pkg, 's.js': '' }).files).toEqual(['package.json', 's.js']);
  });
});

describe('namedFiles: where runner files name what their text does not say (round 17)', () => {
  const read = readWith;

  it('a makefile with variables, other folders or patterns, and a ninja file with variables, stop the reading', () => {
    expect(read('make test', { Makefile: 'S = scripts\ntest:\n\tsh $(S)/t.sh\n' }, ['Makefile']).unread).toBe('Makefile: its variables, patterns or other folders (read it yourself)');
    expect(read('make test', { Makefile: 'test:\n\tcd sub && sh t.sh\n' }, ['Makefile']).unread).toBe('Makefile: its variables, patterns or other folders (read it yourself)');
    expect(read('make -Csub test', { 'sub/Makefile': 'test:\n\tsh t.sh\n', 'sub/t.sh': '' }).files).toEqual(['sub/Makefile', 'sub/t.sh']);
    expect(read('ninja', { 'build.ninja': 'rule r\n  command = sh $in\n' }).unread).toBe('build.ninja: its variables, patterns or other folders (read it yourself)');
    // `$$` is the shell's `$`: a shell variable stops the reading as in a CHECK (round-20 G2); `$$$$` (the pid) does not.
    for (const recipe of ['sh "$$PWD/t.sh"', 'sh "$$(pwd)/t.sh"', 'sh $${PWD}/t.sh', "sh 't$$x.sh'"]) {
      expect(read('make test', { Makefile: `test:\n\t${recipe}\n`, 't.sh': '' }, ['Makefile']).unread, recipe).toBe('Makefile: its variables, patterns or other folders (read it yourself)');
    }
    expect(read('make test', { Makefile: 'test:\n\tsh t.sh && echo $$$$\n', 't.sh': '' }, ['Makefile'])).toEqual({ files: ['t.sh'], unread: null });
  });

  it('make: recipes are read as commands (npm, patterns, cd, a line continued), an include it cannot find stops (round-17 B3, B6-B8, B10)', () => {
    const pkg = JSON.stringify({ scripts: { test: 'node t.js' } });
    expect(read('make -s test', { Makefile: 'test:\n\t@npm test --silent\n', 'package.json': pkg, 't.js': '' }, ['Makefile']).files.sort()).toEqual(['package.json', 't.js']);
    expect(read('make test', { Makefile: 'test:\n\t-sh scripts/*.sh\n', 'scripts/t.sh': '' }, ['Makefile']).files).toEqual(['scripts/t.sh']);
    expect(read('make test', { Makefile: 'test:\n\t@sh scr\\\n\tipts/t.sh\n', 'scripts/t.sh': '' }, ['Makefile']).files).toEqual(['scripts/t.sh']);
    expect(read('make test', { Makefile: 'test:\n\t@cd sub && sh t.sh\n', 'sub/t.sh': '' }, ['Makefile'])).toEqual({ files: ['sub/t.sh'], unread: 'Makefile: its variables, patterns or other folders (read it yourself)' });
    expect(read('make test', { Makefile: 'include rules.mk\n-include optional.mk\n', 'mk/rules.mk': '' }, ['Makefile']).unread).toBe('an include it cannot find (rules.mk)');
    expect(read('make test', { Makefile: '-include optional.mk\ntest:\n\ttrue\n' }, ['Makefile']).unread).toBe(null);
    const many = `test:\n${'\ttrue\n'.repeat(512)}\tsh t.sh\n`;
    expect(read('make test', { Makefile: many, 't.sh': '' }, ['Makefile'])).toEqual({ files: ['t.sh'], unread: 'more recipe lines than it reads (Makefile)' });
  });

  it('tsc: a JSON escape in a key or a value, and the references tsc -b builds (round-19 T1, T2)', () => {
    expect(read('tsc', { 'tsconfig.json': '{"ext\\u0065nds": "./b\\u0061se"}', 'base.json': '' }).files.sort()).toEqual(['base.json', 'tsconfig.json']);
    const refs = { 'tsconfig.json': '{"references": [{"path": "./sub"}]}', 'sub/tsconfig.json': '', 'other/tsconfig.json': '' };
    expect(read('tsc -b', refs).files.sort()).toEqual(['sub/tsconfig.json', 'tsconfig.json']);
    expect(read('npx tsc --build other', refs).files).toEqual(['other/tsconfig.json']);
  });

  it("package.json's main resolved as text (a missing folder before ..); tsconfig \\/ escapes and backslashes as separators (round-20 G3, G4)", () => {
    expect(read('node .', { 'package.json': JSON.stringify({ main: './lib/../t.js' }), 't.js': '' }, ['package.json']).files).toEqual(['t.js']);
    expect(read('tsc', { 'tsconfig.json': '{"extends": "./cfg\\/base"}', 'cfg/base.json': '' }).files.sort()).toEqual(['cfg/base.json', 'tsconfig.json']);
    expect(read('tsc', { 'tsconfig.json': '{"extends": "./cfg\\\\base"}', 'cfg/base.json': '' }).files.sort()).toEqual(['cfg/base.json', 'tsconfig.json']);
    expect(read('tsc -b', { 'tsconfig.json': '{"references": [{"path": ".\\/sub"}, {"path": "other\\\\"}]}', 'sub/tsconfig.json': '', 'other/tsconfig.json': '' }).files.sort()).toEqual(['other/tsconfig.json', 'sub/tsconfig.json', 'tsconfig.json']);
    expect(read('tsc -p sub\\\\tsconfig.json', { 'sub/tsconfig.json': '' }).files).toEqual(['sub/tsconfig.json']);
  });

  it('each file read and parsed once however often the CHECK runs its runner (round-20 G5)', () => {
    const disk = textDisk({ 'package.json': JSON.stringify({ scripts: { test: 'node t.js' } }), 't.js': '' });
    let reads = 0;
    const counted = { ...disk, readText: (p: string) => (reads++, disk.readText(p)) };
    expect(namedFiles('npm test; '.repeat(2000), ROOT, ROOT, ['package.json'], ['package.json'], counted)).toEqual({ files: ['t.js'], unread: null });
    expect(reads).toBeLessThan(10);
  });

  it('a makefile of 20,000 continued recipe lines is read in one pass, each word looked up once (round-19 F5)', () => {
    const disk = textDisk({ Makefile: `test:\n\t@echo ${'x \\\n'.repeat(20_000)}\t; sh t.sh\n`, 't.sh': '' });
    let lookups = 0;
    const counted = { ...disk, isFile: (p: string) => (lookups++, disk.isFile(p)) };
    expect(namedFiles('make test', ROOT, ROOT, ['Makefile'], ['Makefile'], counted)).toEqual({ files: ['t.sh'], unread: null });
    expect(lookups).toBeLessThan(100);
  });

  it('make: includes and recipes from the folder make runs in, -C relative to the one before, -I and a run-time -C stop, a name with blanks (round-19 M1-M4)', () => {
    const files = { 'sub/Makefile': 'include rules.mk\ntest:\n\tsh t.sh\n', 'rules.mk': '', 'sub/rules.mk': '', 't.sh': '', 'sub/t.sh': '' };
    expect(read('make -f sub/Makefile test', files, ['sub/Makefile', 'sub/rules.mk', 'sub/t.sh']).files.sort()).toEqual(['rules.mk', 't.sh']);
    expect(read('make -C a -C b test', { 'a/b/Makefile': '', 'b/Makefile': '' }).files).toEqual(['a/b/Makefile']);
    // make -f FILE reads FILE only, from the folder -C leads to; after `--`, `-C sub` are targets (round-20 G6).
    expect(read('make -C sub -f ../x.mk test', { 'x.mk': '', 'sub/Makefile': '', Makefile: '' }, ['x.mk']).files).toEqual([]);
    expect(read('make -s -- -C sub test', { 'sub/Makefile': '', Makefile: '' }).files).toEqual(['Makefile']);
    // An include's includes too: from make's folder, not the including file's.
    expect(read('make test', { Makefile: 'include mk/a.mk\n', 'mk/a.mk': 'include b.mk\n', 'b.mk': '', 'mk/b.mk': '' }, ['Makefile', 'mk/a.mk', 'mk/b.mk']).files).toEqual(['b.mk']);
    expect(read('make -I mk test', { Makefile: '-include rules.mk\n', 'mk/rules.mk': '' }, ['Makefile']).unread).toBe('make -I: the include folders it searches');
    expect(read('make --include-dir=mk test', { Makefile: '', 'mk/rules.mk': '' }, ['Makefile']).unread).toBe('make -I: the include folders it searches');
    expect(read('make -C "$D" test', { Makefile: '' }).unread).toBe('make -C to a folder set at run time');
    expect(read('make test', { Makefile: 'test:\n\tsh "t x.sh"\n\tsh ./u\\ y.sh\n', 't x.sh': '', 'u y.sh': '' }, ['Makefile']).files.sort()).toEqual(['t x.sh', 'u y.sh']);
  });

  it("node: package.json's main is a file name as written (pattern characters, ~, an escape); npm start's script empty or not a string runs server.js (round-19 N1-N3, P1)", () => {
    for (const main of ['*.js', '~/t.js', 't\u001b[8m.js', '$HOME.js']) {
      expect(read('node .', { 'package.json': JSON.stringify({ main }), [main]: '' }, ['package.json']).files).toEqual([main]);
    }
    for (const start of ['', null, false, 0, {}, []]) {
      expect(read('npm start', { 'package.json': JSON.stringify({ scripts: { start } }), 'server.js': '' }, ['package.json']).files).toEqual(['server.js']);
    }
  });

  it('tsc: -p names its project, extends without .json and down the chain, a long chain stops (round 17)', () => {
    const chain = { 'tsconfig.json': '{"extends": "./cfg/a"}', 'cfg/a.json': '{"extends": ["./b.json"]}', 'cfg/b.json': '{"compilerOptions": {"plugins": [{"name": "./p.js"}]}}', 'cfg/p.js': '' };
    expect(read('npx tsc -p .', chain).files.sort()).toEqual(['cfg/a.json', 'cfg/b.json', 'cfg/p.js', 'tsconfig.json']);
    expect(read('tsc --project cfg/b.json', chain).files.sort()).toEqual(['cfg/b.json', 'cfg/p.js']);
    const long: Record<string, string> = { 'tsconfig.json': '{"extends": "./t1"}' };
    for (let i = 1; i < 12; i++) long[`t${i}.json`] = `{"extends": "./t${i + 1}"}`;
    expect(read('tsc', long).unread).toBe('more definition files than it reads (t8.json)');
    const cycle = { 'tsconfig.json': '{"extends": "./a.json"}', 'a.json': '{"extends": "./tsconfig.json"}' };
    expect(read('tsc', cycle)).toEqual({ files: ['tsconfig.json', 'a.json'], unread: null });
  });

  it('an npm script with variables or a runner of scripts by pattern, and a workspace chosen in .npmrc, stop the reading', () => {
    const pkg = (test: string) => JSON.stringify({ scripts: { test } });
    expect(read('npm test', { 'package.json': pkg('node $npm_package_config_e') }, ['package.json']).unread).toBe('the npm script test: its variables or the scripts it runs by pattern (read it yourself)');
    expect(read('npm test', { 'package.json': pkg('run-s t:*') }, ['package.json']).unread).toBe('the npm script test: its variables or the scripts it runs by pattern (read it yourself)');
    expect(read('npm test', { 'package.json': pkg('node t.js'), '.npmrc': 'workspace=packages/a\n' }, ['package.json', '.npmrc']).unread).toBe('a workspace chosen in .npmrc');
    expect(read('npm install', { 'package.json': pkg('node t.js') }).files).toEqual(['package.json']);
  });

  it('unittest: discovery options are not its start folder, a test id names its module; bare prove runs t/ and reads .proverc; a POSIX class stops', () => {
    const files = { 'chk_a.py': '', 'tests/__init__.py': '', 'tests/test_a.py': '', 't/a.t': '', '.proverc': '' };
    expect(read("python3 -m unittest discover -p 'chk*.py'", files).files).toContain('chk_a.py');
    expect(read('python3 -m unittest tests.test_a.T.test_x', files).files.sort()).toEqual(['tests/__init__.py', 'tests/test_a.py']);
    expect(read('prove', files).files.sort()).toEqual(['.proverc', 't/a.t']);
    expect(read('node --test test/[[:alpha:]].test.js', files).unread).toBe('a pattern with a character class (test/[[:alpha:]].test.js)');
  });
});

describe('namedFiles: what node completes, and what npm runs by default (round 17 A2, A3)', () => {
  const read = readWith;

  it('node: a path without its extension, a folder by its package.json main or index, a relative -r module', () => {
    const files = { 'package.json': JSON.stringify({ main: 'scripts/t.js' }), 'scripts/t.js': '', 'lib/index.js': '', 'setup.cjs': '', 'tool/package.json': JSON.stringify({ main: './cli' }), 'tool/cli.mjs': '' };
    expect(read('node .', files).files).toEqual(['package.json', 'scripts/t.js']);
    expect(read('node scripts/t', files).files).toEqual(['scripts/t.js']);
    expect(read('node lib', files).files).toEqual(['lib/index.js']);
    expect(read('node -r ./setup lib/', files).files.sort()).toEqual(['lib/index.js', 'setup.cjs']);
    expect(read('node tool', files).files.sort()).toEqual(['tool/cli.mjs', 'tool/package.json']);
    expect(read('node /repo/scripts/t', files).files).toEqual(['scripts/t.js']);
    // Bound: nothing to say; not node: no completion.
    expect(read('node .', files, ['package.json', 'scripts/t.js']).files).toEqual([]);
    expect(read('cat scripts/t', files).files).toEqual([]);
    expect(read('node .', { 'package.json': '{oops' }).unread).toBe('a package.json it cannot read (package.json)');
  });

  it("a JavaScript configuration's module paths, completed as node does: jest <rootDir>, presets, mocha's require; a rootDir of its own stops", () => {
    const jest = { 'jest.config.js': "module.exports = { preset: './pre', setupFiles: ['<rootDir>/test/setup.js'], testEnvironment: './env' };", 'pre/jest-preset.js': '', 'test/setup.js': '', 'env.js': '' };
    expect(read('npx jest', jest).files.sort()).toEqual(['env.js', 'jest.config.js', 'pre/jest-preset.js', 'test/setup.js']);
    expect(read('npx jest', { ...jest, 'jest.config.js': "module.exports = { rootDir: '..', setupFiles: ['<rootDir>/x.js'] };" }).unread).toBe('jest.config.js: its rootDir (read it yourself)');
    expect(read('npx mocha', { '.mocharc.yml': 'require: test/setup\n', 'test/setup.js': '' }).files.sort()).toEqual(['.mocharc.yml', 'test/setup.js']);
    const many = { '.mocharc.json': JSON.stringify({ spec: Array.from({ length: 300 }, (_, i) => `t/${i}`) }) };
    expect(read('npx mocha', many).unread).toBe('more module paths than it completes (.mocharc.json)');
  });

  it('python: an extension module or a sourceless .pyc that is imported instead of the source', () => {
    const files = { 'tests/__init__.py': '', 'tests/run.py': '', 'tests/run.cpython-312-x86_64-linux-gnu.so': '', 'fast.pyc': '' };
    expect(read('python3 -m tests.run; python3 -m fast', files, ['tests/run.py', 'tests/__init__.py']).files.sort()).toEqual(['fast.pyc', 'tests/run.cpython-312-x86_64-linux-gnu.so']);
  });

  it('eslint --rulesdir: the rule modules in the folder', () => {
    expect(read('npx eslint --rulesdir tools/rules src', { 'tools/rules/a.js': '', 'tools/rules/deep/b.cjs': '', 'tools/rules/README.md': '' }).files.sort()).toEqual(['tools/rules/a.js', 'tools/rules/deep/b.cjs']);
  });

  it('npm start without a start script runs node server.js; npm restart without a restart script runs stop and start', () => {
    expect(read('npm start', { 'package.json': '{}', 'server.js': '' }, ['package.json']).files).toEqual(['server.js']);
    expect(read('npm start', { 'package.json': JSON.stringify({ scripts: { start: 'node app.js' } }), 'server.js': '', 'app.js': '' }, ['package.json']).files).toEqual(['app.js']);
    expect(read('npm restart', { 'package.json': JSON.stringify({ scripts: { stop: 'sh stop.sh' } }), 'server.js': '', 'stop.sh': '' }, ['package.json']).files.sort()).toEqual(['server.js', 'stop.sh']);
  });
});

describe('namedFiles: every bound on the reading says "not read past" (a name past it would go unshown)', () => {
  const read = readWith;

  it('a pattern it cannot list, and a folder given to a runner with too many files to list', () => {
    const files = { 'test/a.test.js': '', 'test/b.test.js': '' };
    const cut = (check: string, pattern: string) => namedFiles(check, ROOT, ROOT, [], [], textDisk(files, new Set([pattern]))).unread;
    expect(read('node --test test/*.test.js', files).unread).toBe(null);
    expect(cut('node --test test/*.test.js', 'test/*.test.js')).toBe('a pattern it cannot list (test/*.test.js)');
    expect(read('node --test test/', files)).toEqual({ files: ['test/a.test.js', 'test/b.test.js'], unread: null });
    expect(cut('node --test test/', 'test/**/*')).toBe('a folder with too many files to list (test)');
  });

  it('npm scripts nested past eight, or longer than a CHECK it reads; a script run by many is read once', () => {
    const chain: Record<string, string> = { s9: 'node t.js' };
    for (let i = 1; i < 9; i++) chain[`s${i}`] = `npm run s${i + 1}`;
    expect(read('npm run s2', { 'package.json': JSON.stringify({ scripts: chain }), 't.js': '' }, ['package.json'])).toEqual({ files: ['t.js'], unread: null });
    expect(read('npm run s1', { 'package.json': JSON.stringify({ scripts: chain }), 't.js': '' }, ['package.json']).unread).toBe('an npm script nested or long past reading (s9)');
    // Each script runs the next one three times: 3^7 readings of package.json without the memo.
    const fan: Record<string, string> = { f7: 'node t.js' };
    for (let i = 0; i < 7; i++) fan[`f${i}`] = Array.from({ length: 3 }, () => `npm run f${i + 1}`).join(' && ');
    const disk = textDisk({ 'package.json': JSON.stringify({ scripts: fan }), 't.js': '' });
    let reads = 0;
    const counted = { ...disk, readText: (p: string) => (p === 'package.json' && reads++, disk.readText(p)) };
    expect(namedFiles('npm run f0', ROOT, ROOT, ['package.json'], ['package.json'], counted)).toEqual({ files: ['t.js'], unread: null });
    expect(reads).toBeLessThan(64);
    const long = { test: `true ${'a '.repeat(33_000)}; node t.js` };
    expect(read('npm test', { 'package.json': JSON.stringify({ scripts: long }), 't.js': '' }, ['package.json']).unread).toBe('an npm script nested or long past reading (test)');
  });

  it('more makefile includes than it reads, nested or many', () => {
    const nested: Record<string, string> = { Makefile: 'include m1.mk\n', 'm8.mk': 't:\n\tsh t.sh\n', 't.sh': '' };
    for (let i = 1; i < 8; i++) nested[`m${i}.mk`] = `include m${i + 1}.mk\n`;
    expect(read('make t', { ...nested, Makefile: 'include m2.mk\n' }, ['Makefile']).unread).toBe(null);
    expect(read('make t', nested, ['Makefile']).unread).toBe('more definition files than it reads (m8.mk)');
    const many: Record<string, string> = { Makefile: Array.from({ length: 40 }, (_, i) => `include m${i}.mk`).join('\n') };
    for (let i = 0; i < 40; i++) many[`m${i}.mk`] = '';
    expect(read('make t', many, ['Makefile']).unread).toBe('more definition files than it reads (m31.mk)');
  });

  it('a definition file it cannot read, or longer than it reads', () => {
    const disk = { ...textDisk({ 't.sh': '' }), isFile: (p: string) => p === 'Makefile' || p === 't.sh' };
    expect(namedFiles('make t', ROOT, ROOT, [], [], disk)).toEqual({ files: ['Makefile'], unread: 'a file it cannot read (Makefile)' });
    const long = `t:\n\tsh t.sh\n${'#'.repeat(262_144)}\n`;
    expect(read('make t', { Makefile: long, 't.sh': '' }, ['Makefile'])).toEqual({ files: ['t.sh'], unread: 'a file longer than it reads (Makefile)' });
  });
});
