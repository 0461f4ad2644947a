// undeclared-inputs (runners whose definition, tests and code the gate does not name) and
// the scripts undeclared-script now sees: `.`, `source`, `sh < file`, `cat file | sh`, and
// commands inside if/while.
import { describe, expect, it } from 'vitest';
import { gate, lint, only } from './lint-helper.js';

const EXPECT = '/^(?:#|\\u2139) pass [1-9]\\d*$/m';
const JS = ['package.json', 'test/import.test.mjs', 'src/import.mjs'];

describe('undeclared-inputs', () => {
  const fires = (check: string, extra: string[] = [], files: readonly string[] = JS, workdir = '.') => only(lint(gate(check, EXPECT, extra), { files, workdir }), 'undeclared-inputs');

  it('fires on npm test without DEPENDS or INPUTS: package.json defines it, the tests and code are unnamed', () => {
    const f = fires('npm test');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ line: 2, gate: 'G1' });
    expect(f[0]?.message).toBe(
      'CHECK runs npm test, but package.json, which defines what runs, is in no DEPENDS glob: a change there changes the check without a new approval; and neither DEPENDS nor INPUTS names the tests or the code they test: an edit to them leaves the evidence fresh',
    );
    expect(f[0]?.suggestion).toBe('add DEPENDS: package.json and INPUTS: test/**, src/**');
  });

  it('applied, the suggestion is quiet, for every runner', () => {
    const cases: Array<[string, readonly string[], string, string[]]> = [
      ['npm test', JS, 'add DEPENDS: package.json and INPUTS: test/**, src/**', ['  DEPENDS: package.json', '  INPUTS: test/**, src/**']],
      ['node --test', JS, 'add INPUTS: test/**, src/**', ['  INPUTS: test/**, src/**']],
      ['npx vitest run', [...JS, 'vitest.config.ts'], 'add DEPENDS: vitest.config.ts and INPUTS: test/**, src/**', ['  DEPENDS: vitest.config.ts', '  INPUTS: test/**, src/**']],
      // jest reads its configuration from jest.config.* when there is one, else from package.json.
      ['jest', [...JS, 'jest.config.js'], 'add DEPENDS: jest.config.js and INPUTS: test/**, src/**', ['  DEPENDS: jest.config.js', '  INPUTS: test/**, src/**']],
      ['jest', JS, 'add DEPENDS: package.json and INPUTS: test/**, src/**', ['  DEPENDS: package.json', '  INPUTS: test/**, src/**']],
      ['python -m pytest -q', ['pyproject.toml', 'conftest.py', 'tests/test_a.py'], 'add DEPENDS: pyproject.toml, conftest.py and INPUTS: tests/**', ['  DEPENDS: pyproject.toml, conftest.py', '  INPUTS: tests/**']],
      ['go test -v ./...', ['go.mod', 'go.sum', 'a.go', 'a_test.go'], 'add DEPENDS: go.mod and INPUTS: **/*.go, go.sum', ['  DEPENDS: go.mod', '  INPUTS: **/*.go, go.sum']],
      ['cargo test', ['Cargo.toml', 'Cargo.lock', 'src/lib.rs'], 'add DEPENDS: Cargo.toml and INPUTS: src/**, Cargo.lock', ['  DEPENDS: Cargo.toml', '  INPUTS: src/**, Cargo.lock']],
      ['make check', ['Makefile', 'src/a.c', 'test/t.c'], 'add DEPENDS: Makefile and INPUTS: src/**, test/**', ['  DEPENDS: Makefile', '  INPUTS: src/**, test/**']],
      ['make -f ci.mk check', ['ci.mk', 'Makefile', 'src/a.c'], 'add DEPENDS: ci.mk and INPUTS: src/**', ['  DEPENDS: ci.mk', '  INPUTS: src/**']],
    ];
    for (const [check, files, suggestion, fix] of cases) {
      expect(fires(check, [], files)[0]?.suggestion, check).toBe(suggestion);
      expect(fires(check, fix, files), `${check} fixed`).toEqual([]);
    }
  });

  it('resolves the definition where the runner runs: CWD, a literal cd, npm --prefix, make -C', () => {
    const files = ['web/package.json', 'web/test/a.test.mjs', 'Makefile'];
    expect(fires('npm test', [], files, 'web')[0]?.suggestion).toBe('add DEPENDS: web/package.json and INPUTS: web/test/**');
    expect(fires('cd web && npm test', [], files)[0]?.suggestion).toBe('add DEPENDS: web/package.json and INPUTS: web/test/**');
    expect(fires('npm --prefix web test', [], files)[0]?.suggestion).toBe('add DEPENDS: web/package.json and INPUTS: web/test/**');
    expect(fires('make -C web check', [], ['web/GNUmakefile', 'web/Makefile', 'web/src/a.c'])[0]?.suggestion).toBe('add DEPENDS: web/GNUmakefile and INPUTS: web/src/**');
  });

  it('counts a definition covered by a DEPENDS glob, and tests declared by INPUTS or a DEPENDS glob beyond the definitions', () => {
    expect(fires('npm test', ['  DEPENDS: *.json', '  INPUTS: test/**'])).toEqual([]);
    expect(fires('npm test', ['  DEPENDS: package.json, test/**'])).toEqual([]);
    // INPUTS is no place for the definition: editing it must call for an approval.
    expect(fires('npm test', ['  INPUTS: package.json, test/**'])[0]?.message).toMatch(/package\.json, which defines what runs, is in no DEPENDS glob/);
    // DEPENDS: package.json alone binds the definition but not the tests.
    expect(fires('npm test', ['  DEPENDS: package.json'])[0]?.suggestion).toBe('add INPUTS: test/**, src/**');
  });

  it('names only files that exist, and says so when none of the usual directories has files', () => {
    const f = fires('npm test', [], []);
    expect(f[0]?.message).toMatch(/^CHECK runs npm test, but neither DEPENDS nor INPUTS names the tests/);
    expect(f[0]?.suggestion).toBe('add INPUTS: globs of the tests and the code they test (none of the usual directories has files here)');
    expect(fires('npm test', ['  INPUTS: app/**'], [])).toEqual([]);
  });

  it('stays quiet on commands that are not runners, and outside the repository', () => {
    for (const check of ['node scripts/check.mjs', 'npm ci', 'node --version', 'bun test', 'npx tsc --noEmit && echo typecheck-ok']) expect(fires(check), check).toEqual([]);
    expect(only(lint(gate('npm test', EXPECT), { files: JS, workdir: null }), 'undeclared-inputs')).toEqual([]);
  });
});

describe('undeclared-script: sourced, piped and redirected scripts, and scripts inside if/while', () => {
  const fires = (check: string, extra: string[] = []) => only(lint(gate(check, '/verified \\d+/', extra)), 'undeclared-script');

  it('fires on each form the shell runs a file in', () => {
    for (const [check, script] of [
      ['. ./env.sh && node --version', 'env.sh'],
      ['source tools/env.sh; node --version', 'tools/env.sh'],
      ['sh < tools/ci.sh', 'tools/ci.sh'],
      ['bash -s < tools/ci.sh', 'tools/ci.sh'],
      ['sh - < tools/ci.sh', 'tools/ci.sh'],
      ['node < scripts/check.mjs', 'scripts/check.mjs'],
      ['cat tools/ci.sh | sh', 'tools/ci.sh'],
      ['if ./scripts/check.sh; then echo verified 1; fi', 'scripts/check.sh'],
      ['if ! node scripts/a.mjs; then exit 1; fi', 'scripts/a.mjs'],
      ['while ./scripts/poll.sh; do sleep 1; done', 'scripts/poll.sh'],
      ['if true; then sh tools/x.sh; else . ./y.sh; fi', 'tools/x.sh'],
    ] as const) {
      const f = fires(check);
      expect(f, check).toHaveLength(1);
      expect(f[0]?.suggestion, check).toMatch(new RegExp(`^DEPENDS: ${script.replace(/\./g, '\\.')}`));
    }
    expect(fires('if true; then sh tools/x.sh; else . ./y.sh; fi')[0]?.suggestion).toBe('DEPENDS: tools/x.sh, y.sh');
  });

  it('applied, the suggestion is quiet', () => {
    expect(fires('. ./env.sh && sh < tools/ci.sh', ['  DEPENDS: env.sh, tools/ci.sh'])).toEqual([]);
    expect(fires('if ./scripts/check.sh; then echo verified 1; fi', ['  DEPENDS: scripts/check.sh'])).toEqual([]);
  });

  it('does not take data on standard input, inline code or an option for a script', () => {
    for (const check of ['node -e "x" < data.json', 'python3 -c "x" < in.txt', "sh -c 'x' < in.txt", 'cat data.txt | node -e "x"', 'cat a b | sh', 'grep x < in.txt', '. "$ENV_FILE"', 'source -h']) {
      expect(fires(check), check).toEqual([]);
    }
    expect(fires('node scripts/x.mjs < data.json')[0]?.suggestion).toBe('DEPENDS: scripts/x.mjs');
  });
});

describe('inside a literal sh -c body: the runners and scripts it runs are seen', () => {
  const NODE_PASSING = '/^(?:#|\\u2139) pass [1-9]\\d*$/m';

  it('passes-with-no-tests and undeclared-inputs see the runner in the pipefail form the masked-exit advice gives', () => {
    const zero = only(lint(gate("bash -o pipefail -c 'node --test | tail -n 5'", '/# fail 0/', ['  INPUTS: test/**'])), 'passes-with-no-tests');
    expect(zero).toHaveLength(1);
    expect(zero[0]?.suggestion).toBe(`expect a count of passing tests of at least 1: EXPECT: ${NODE_PASSING}`);
    const inputs = only(lint(gate("bash -o pipefail -c 'npm test | tail -n 5'", NODE_PASSING), { files: ['package.json', 'test/a.test.mjs'] }), 'undeclared-inputs');
    expect(inputs[0]?.suggestion).toBe('add DEPENDS: package.json and INPUTS: test/**');
    // Applied: clean of every rule.
    expect(lint(gate("bash -o pipefail -c 'npm test | tail -n 5'", NODE_PASSING, ['  DEPENDS: package.json', '  INPUTS: test/**']), { files: ['package.json', 'test/a.test.mjs'] })).toEqual([]);
  });

  it('undeclared-script resolves a body from the directory sh runs in; a cd inside the body stays inside', () => {
    const fires = (check: string) => only(lint(gate(check, '/verified \\d+/')), 'undeclared-script')[0]?.suggestion;
    expect(fires("sh -c 'node scripts/x.mjs'")).toBe('DEPENDS: scripts/x.mjs');
    expect(fires("bash -ec '. ./env.sh && node scripts/x.mjs'")).toBe('DEPENDS: env.sh, scripts/x.mjs');
    expect(fires("cd sub && sh -c 'node x.mjs'")).toBe('DEPENDS: sub/x.mjs');
    expect(fires("sh -c 'cd a && node x.mjs'; node y.mjs")).toBe('DEPENDS: y.mjs, a/x.mjs');
    expect(only(lint(gate("sh -c 'node scripts/x.mjs'", '/verified \\d+/', ['  DEPENDS: scripts/x.mjs'])), 'undeclared-script')).toEqual([]);
  });

  it('leaves bodies it cannot know alone, and does not take a script operand for a body', () => {
    const all = (check: string) => lint(gate(check, '/verified \\d+/')).map((f) => f.rule);
    expect(all('sh -c "$CMD"')).toEqual([]);
    expect(all("sh -c 'echo \"$(node --version)\"' > /dev/null; node --version")).toEqual([]);
    expect(only(lint(gate('sh tools/run.sh -c x', '/verified \\d+/')), 'undeclared-script')[0]?.suggestion).toBe('DEPENDS: tools/run.sh');
    expect(only(lint(gate("sh -o pipefail tools/run.sh 'node x.mjs'", '/verified \\d+/')), 'undeclared-script')[0]?.suggestion).toBe('DEPENDS: tools/run.sh');
  });
});

describe('a file the CHECK only syntax-checks is an input, not a script', () => {
  const findings = (check: string, extra: string[] = []) => lint(gate(check, '/verified \\d+/', extra));
  it('node --check, node -c, sh -n, bash -n and ruby -c ask for INPUTS, not DEPENDS', () => {
    for (const [check, file] of [
      ['node --check src/x.js', 'src/x.js'],
      ['node -c src/x.js', 'src/x.js'],
      ['sh -n tools/ci.sh', 'tools/ci.sh'],
      ['bash -n tools/ci.sh', 'tools/ci.sh'],
      ['ruby -c lib/a.rb', 'lib/a.rb'],
      ["sh -c 'cd src && node --check x.js'", 'src/x.js'],
    ] as const) {
      const f = findings(check);
      expect(only(f, 'undeclared-script'), check).toEqual([]);
      const inputs = only(f, 'undeclared-inputs');
      expect(inputs, check).toHaveLength(1);
      expect(inputs[0]!.message, check).toContain(`checks ${file} without running it`);
      expect(inputs[0]!.suggestion, check).toBe(`INPUTS: ${file}`);
    }
  });
  it('an INPUTS or DEPENDS glob that covers the file settles it; one that does not is kept in the suggestion', () => {
    expect(only(findings('node --check src/x.js', ['  INPUTS: src/**/*.js']), 'undeclared-inputs')).toEqual([]);
    expect(only(findings('node --check src/x.js', ['  DEPENDS: src/x.js'], ), 'undeclared-inputs')).toEqual([]);
    expect(only(findings('node --check src/x.js', ['  INPUTS: test/*.js']), 'undeclared-inputs')[0]!.suggestion).toBe('INPUTS: test/*.js, src/x.js');
  });
  it('running the same file is still a script that DEPENDS must cover', () => {
    expect(only(findings('node --check src/x.js && node src/x.js', ['  INPUTS: src/x.js']), 'undeclared-script')[0]!.suggestion).toBe('DEPENDS: src/x.js');
    // The preload runs too, before the script.
    expect(only(findings('node --require ./hook.js src/x.js'), 'undeclared-script')[0]!.suggestion).toBe('DEPENDS: hook.js, src/x.js');
  });
});
