// Each lint rule on a positive fixture and a negative control, through the pure entry point.
import { describe, expect, it } from 'vitest';
import { gate, lint, only, rules } from './lint-helper.js';

const GOOD = gate('node scripts/check-import.mjs fixtures/valid.json', '/import verification passed \\(\\d+ rows\\)/', ['  DEPENDS: scripts/check-import.mjs, fixtures/*.json']);
const GOOD_MATCHED = new Set(['scripts/check-import.mjs', 'fixtures/valid.json', 'fixtures/other.json']);

describe('a well-written gate', () => {
  it('has no finding', () => {
    expect(lint(GOOD, { dependsMatched: GOOD_MATCHED })).toEqual([]);
  });

  it('has no finding when its script does not exist yet but a DEPENDS glob covers it', () => {
    expect(lint(gate('node scripts/check.mjs', '/check passed \\(\\d+ files\\)/', ['  DEPENDS: scripts/*.mjs']))).toEqual([]);
  });
});

describe('cannot-fail', () => {
  it('fires when the CHECK only runs echo, printf, true, : or exit 0', () => {
    for (const check of ['echo ok', "printf 'x' && true", ': ; exit 0', 'true | echo done && echo x', 'A=1; echo "$(npm test)"']) {
      const f = only(lint(gate(check, 'import verification passed (12 rows)')), 'cannot-fail');
      expect(f, check).toHaveLength(1);
      expect(f[0]).toMatchObject({ file: 'GATES.md', line: 2, gate: 'G1', qualified: 'GATES:G1' });
    }
  });

  it('fires on a CHECK the shell reads as a comment', () => {
    expect(only(lint(gate('#npm test', 'import verification passed (12 rows)')), 'cannot-fail')[0]?.message).toMatch(/runs nothing/);
  });

  it('says that a $(…) inside echo has its status discarded', () => {
    expect(only(lint(gate('echo "$(npm test)"', '/\\d+ passing/')), 'cannot-fail')[0]?.message).toMatch(/status of a \$\(…\) inside is discarded/);
  });

  it('stays quiet on a CHECK that runs something real', () => {
    for (const check of ['npm test', 'echo start && npm test', 'false', 'exit 1', 'if true; then echo ok; fi']) {
      expect(rules(lint(gate(check, 'import verification passed (12 rows)'))), check).not.toContain('cannot-fail');
    }
  });
});

describe('self-satisfying', () => {
  const fires = (check: string, expectText: string) => only(lint(gate(check, expectText)), 'self-satisfying');

  it('fires on a lone echo, on ";" and on "||"', () => {
    expect(fires('echo passed', 'passed')[0]?.message).toMatch(/echo prints it whatever the code does/);
    expect(fires('node t.js; echo OK', 'OK')[0]?.message).toMatch(/echo prints it whatever node t\.js does/);
    expect(fires('npm test || echo OK', 'OK')[0]?.message).toMatch(/after '\|\|' prints it exactly when npm test fails/);
    expect(fires("npm test; printf 'done\\n'", 'done')).toHaveLength(1);
  });

  it('tests a regex EXPECT against what echo and printf print', () => {
    expect(fires("npm test; printf '%s rows passed\\n' 12", '/\\d+ rows passed/')).toHaveLength(1);
    expect(fires('npm test; echo "verification passed (3 rows)"', '/verification passed \\(\\d+ rows\\)/')).toHaveLength(1);
  });

  it('flags "&& echo" as weaker: the EXPECT only restates the exit status', () => {
    expect(fires('npm test && echo ALL-TESTS-GREEN', 'ALL-TESTS-GREEN')[0]?.message).toMatch(/after '&&': it proves only that npm test exited 0/);
  });

  it('sees "|| true &&" and "set -e"', () => {
    expect(fires('npm test || true && echo GREEN-BUILD', 'GREEN-BUILD')[0]?.message).toMatch(/whatever npm test does/);
    expect(fires('set -e; npm test; echo GREEN-BUILD', 'GREEN-BUILD')[0]?.message).toMatch(/after '&&'|proves only/);
  });

  it('stays quiet when the echo prints something else, goes to a file, or only feeds a pipe', () => {
    expect(fires('npm test || echo "tests failed"', 'all 12 tests passed')).toEqual([]);
    expect(fires('npm test; echo GREEN-BUILD > status.txt', 'GREEN-BUILD')).toEqual([]);
    expect(fires('echo GREEN-BUILD | node check.js', 'GREEN-BUILD')).toEqual([]);
    expect(fires('node check.js --label GREEN-BUILD', 'GREEN-BUILD')).toEqual([]);
    expect(fires('npm test; echo "$RESULT"', 'GREEN-BUILD')).toEqual([]);
  });
});

describe('masked-exit', () => {
  const fires = (check: string) => only(lint(gate(check, 'import verification passed (12 rows)')), 'masked-exit');

  it('fires when a failure of the real command still exits 0', () => {
    expect(fires('npm test || true')[0]?.message).toMatch(/'\|\| true' turns a failure into success/);
    expect(fires('npm test | tail -n 5')[0]?.message).toMatch(/'\| tail': a pipeline exits with its last command's status/);
    expect(fires('npm test; exit 0')).toHaveLength(1);
    expect(fires('npm test &')[0]?.message).toMatch(/background/);
  });

  it('stays quiet when the status gets through', () => {
    for (const check of ['npm test', 'npm test | grep passed', 'set -o pipefail; npm test | tail -n 5', 'npm test && echo done', 'npm test 2>&1']) {
      expect(fires(check), check).toEqual([]);
    }
  });
});

describe('weak-expect', () => {
  const fires = (expectText: string) => only(lint(gate('npm test', expectText)), 'weak-expect');

  it('fires on generic words and on one or two characters, case-insensitively', () => {
    for (const e of ['ok', 'OK', 'Done', 'passed', 'PASS', 'success', 'succeeded', 'true', '0', '1', 'complete', 'finished', 'yes', 'test', 'tests', '✓', 'ab', '/ok/', '/^passed$/m', '/\\bdone\\b/i']) {
      expect(fires(e), e).toHaveLength(1);
    }
    expect(fires('ok')[0]).toMatchObject({ line: 3 });
    expect(fires('ok')[0]?.message).toMatch(/not ok 3/);
  });

  it('stays quiet on a specific EXPECT', () => {
    for (const e of ['all 12 tests passed', '/# fail 0/', '/\\d+ passing/', 'import verification passed', 'abc']) expect(fires(e), e).toEqual([]);
  });
});

describe('path-like-regex', () => {
  const fires = (expectText: string) => only(lint(gate('npm test', expectText)), 'path-like-regex');

  it('fires on a slash-wrapped path and suggests the escaped regex', () => {
    for (const e of ['/usr/lib/', '/tmp/out/', '/src/index/', '/src/index.ts/']) expect(fires(e), e).toHaveLength(1);
    expect(fires('/usr/lib/')[0]?.suggestion).toBe('to match the path literally, escape it: EXPECT: /\\/usr\\/lib\\//');
  });

  it('stays quiet on a real regex and on a path that is already a substring', () => {
    for (const e of ['/\\d+ passing/', '/passed/', '/usr/bin/node', '/a|b/c/', '/\\/usr\\/lib\\//']) expect(fires(e), e).toEqual([]);
  });
});

describe('undeclared-script', () => {
  it('fires on a script no DEPENDS glob covers, with the merged DEPENDS line', () => {
    const f = only(lint(gate('node scripts/x.mjs && sh tools/y.sh', '/x passed \\(\\d+\\)/', ['  DEPENDS: fixtures/*.json']), { dependsMatched: new Set(['fixtures/a.json']) }), 'undeclared-script');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ line: 2, suggestion: 'DEPENDS: fixtures/*.json, scripts/x.mjs, tools/y.sh' });
    expect(f[0]?.message).toMatch(/CHECK runs scripts\/x\.mjs, tools\/y\.sh, which no DEPENDS glob covers/);
  });

  it('fires without any DEPENDS, and for each kind of invocation', () => {
    for (const [check, script] of [
      ['node ./scripts/x.js', 'scripts/x.js'],
      ['bash tools/y.sh', 'tools/y.sh'],
      ['python z.py', 'z.py'],
      ['./scripts/run.sh', 'scripts/run.sh'],
      ['npx tsx scripts/a.ts', 'scripts/a.ts'],
      ['deno run scripts/a.ts', 'scripts/a.ts'],
      ['ruby x.rb', 'x.rb'],
      ['perl x.pl', 'x.pl'],
    ] as const) {
      expect(only(lint(gate(check, '/verified \\d+/')), 'undeclared-script')[0]?.suggestion, check).toBe(`DEPENDS: ${script}`);
    }
  });

  it('resolves the script against CWD and reports it repository-relative', () => {
    const f = only(lint(gate('node ../../scripts/check-package.mjs', '/verified \\d+/', ['  CWD: packages/importer']), { workdir: 'packages/importer' }), 'undeclared-script');
    expect(f[0]?.suggestion).toBe('DEPENDS: scripts/check-package.mjs');
  });

  it('stays quiet when fast-glob matched the script or a glob covers it, and on modules', () => {
    expect(only(lint(gate('node scripts/x.mjs', '/v \\d+/', ['  DEPENDS: scripts/**']), { dependsMatched: new Set(['scripts/x.mjs']) }), 'undeclared-script')).toEqual([]);
    expect(only(lint(gate('node scripts/x.mjs', '/v \\d+/', ['  DEPENDS: scripts/**'])), 'undeclared-script')).toEqual([]);
    expect(only(lint(gate('python3 -m pytest && npm test', '/\\d+ passed/')), 'undeclared-script')).toEqual([]);
    expect(only(lint(gate('node scripts/x.mjs', '/v \\d+/'), { workdir: null }), 'undeclared-script')).toEqual([]);
  });

  // Round-38b F4: the folder was suggested as a DEPENDS pattern, which matches no file and made
  // the gate not runnable; and INPUTS does make the evidence stale.
  it('a folder given to a runner: the files in it, bound by a glob that matches them', () => {
    const files = ['test/a.test.js', 'test/sub/b.test.js', 'src/x.js'];
    for (const check of ['node --test test/', 'node --test test']) {
      const [f] = only(lint(gate(check, '/# pass [1-9]/', ['  INPUTS: src/**, test/**']), { files }), 'undeclared-script');
      expect(f?.message, check).toBe('CHECK runs the files in test/, which no DEPENDS glob covers: INPUTS makes the evidence stale when they change, but an edit runs without a new approval');
      expect(f?.suggestion).toBe('DEPENDS: test/**');
      const [g] = only(lint(gate(check, '/# pass [1-9]/', ['  INPUTS: src/**']), { files }), 'undeclared-script');
      expect(g?.message).toBe('CHECK runs the files in test/, which no DEPENDS glob covers: a change to them would not invalidate the approval or the evidence');
      expect(only(lint(gate(check, '/# pass [1-9]/', ['  DEPENDS: test/**']), { files }), 'undeclared-script'), check).toEqual([]);
    }
    const [one] = only(lint(gate('node scripts/x.mjs', '/v \\d+/', ['  INPUTS: scripts/*']), { files: ['scripts/x.mjs'] }), 'undeclared-script');
    expect(one?.message).toBe('CHECK runs scripts/x.mjs, which no DEPENDS glob covers: INPUTS makes the evidence stale when it changes, but an edit runs without a new approval');
  });
});

describe('machine-specific-path', () => {
  const fires = (check: string) => only(lint(gate(check, '/v \\d+/')), 'machine-specific-path');

  it('fires on home directories, drives, ~ and fixed scratch paths', () => {
    for (const check of ['cat /home/alice/x', 'node /Users/bob/check.js', 'ls /root/x', 'C:\\\\tools\\\\x.exe', 'cat ~/notes', 'npm test > /tmp/out.log', 'node t.js --out=/tmp/x', 'PATH=/opt/tool/bin:$PATH make', 'cat /var/folders/ab/x']) {
      expect(fires(check), check).toHaveLength(1);
    }
    const f = fires('cp /home/alice/a /tmp/b');
    expect(f[0]?.message).toMatch(/\/home\/alice\/a \(home directory\), \/tmp\/b \(scratch path\)/);
    expect(f[0]?.suggestion).toMatch(/mktemp -d/);
    expect(f[0]?.message).toMatch(/the gate can only pass on this machine$/);
    // /tmp exists everywhere: its risk is named instead (round-31b F10).
    expect(fires('npm test > /tmp/out.log')[0]?.message).toMatch(/a fixed scratch path can hold an earlier run's file, and two runs at once share it$/);
  });

  it('stays quiet on standard system paths, relative paths, URLs and routes', () => {
    for (const check of ['/usr/bin/env node x.js', '/bin/sh -c true', 'npm test 2>/dev/null', 'node scripts/x.js ./out', 'curl -fsS http://localhost:3000/health', 'grep -q /api/v1 out.txt', 'cat "$HOME/x"', 'node -e "1/2"']) {
      expect(fires(check), check).toEqual([]);
    }
  });
});

describe('activity-title', () => {
  const fires = (title: string) => only(lint(gate('npm test', '/\\d+ passing/', [], title)), 'activity-title');

  it('fires on titles that start with an activity', () => {
    for (const t of ['Implement CSV import', 'add tests for the parser', 'Write the importer', 'Fix login', 'update deps', 'Create schema', 'Refactor the store', 'Run the migration', 'make it faster', 'Build the CLI', 'Investigate flakiness', 'try caching', 'Work on import', 'Start the service', 'Finish docs', 'do the thing', 'Set up CI', 'Clean up logs', 'move files', 'Rename module', 'Remove dead code', 'Improve speed', '**Implement** X', 'Implementing CSV import']) {
      expect(fires(t), t).toHaveLength(1);
    }
    expect(fires('Implement CSV import')[0]).toMatchObject({ line: 1, suggestion: 'phrase the outcome: "CSV import …" followed by what is true when it is done ("X works", "X is …")' });
  });

  it('stays quiet on outcomes, including ones that start with a noun that looks like a verb', () => {
    for (const t of ['CSV import keeps every row', 'the parser rejects bad input', 'build passes on Node 20', 'run output is stable', 'Update check reports the version', 'Fixtures round-trip']) {
      expect(fires(t), t).toEqual([]);
    }
  });
});

describe('mostly-manual', () => {
  const manual = (n: number) => Array.from({ length: n }, (_, i) => `- [ ] M${i}: wording ${i} approved by the owner`).join('\n') + '\n';

  it('fires once, at line 1, when more than half of the gates (and at least 2) are manual', () => {
    const f = only(lint(GOOD + manual(2), { dependsMatched: GOOD_MATCHED }), 'mostly-manual');
    expect(f).toEqual([expect.objectContaining({ file: 'GATES.md', line: 1, gate: null, qualified: 'GATES' })]);
    expect(f[0]?.message).toMatch(/2 of 3 gates are manual/);
  });

  it('stays quiet at half, and on a single manual gate', () => {
    expect(only(lint(GOOD + manual(1), { dependsMatched: GOOD_MATCHED }), 'mostly-manual')).toEqual([]);
    expect(only(lint(manual(1)), 'mostly-manual')).toEqual([]);
    expect(only(lint(GOOD + GOOD.replace('G1', 'G2') + manual(2), { dependsMatched: GOOD_MATCHED }), 'mostly-manual')).toEqual([]);
  });
});

describe('findings', () => {
  it('come in line order, then rule order, with every field', () => {
    const f = lint(gate('echo ok', 'ok', [], 'Write the thing'));
    expect(f.map((x) => [x.line, x.rule])).toEqual([
      [1, 'activity-title'],
      [2, 'cannot-fail'],
      [2, 'self-satisfying'],
      [3, 'weak-expect'],
    ]);
    for (const x of f) expect(Object.keys(x)).toEqual(['file', 'line', 'gate', 'qualified', 'rule', 'message', 'suggestion']);
  });

  it('quote repository text sanitized and capped', () => {
    // RLM and ALM: bidi marks the parser allows in text (embeddings, overrides and isolates are parse errors), which output must still strip.
    const f = lint(gate('npm test', 'ok', [], 'Fix \u001b]0;pwned\u0007 \u200fevil' + 'x'.repeat(500)));
    expect(rules(f)).toEqual(['activity-title', 'undeclared-inputs', 'weak-expect']);
    for (const x of f) {
      expect(x.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200f]/);
      expect(x.message.length).toBeLessThan(400);
    }
  });

  it('survive a catastrophic regex EXPECT without hanging', () => {
    const started = Date.now();
    // A lookahead keeps V8's linear engine out: this pattern backtracks exponentially.
    lint(gate(`npm test; echo ${'a'.repeat(40)}b`, '/^(?=a)(a+)+$/'));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
