// The CHECK rules added or changed for issue 10: inverted-exit, the quiet-tool recipe under
// self-satisfying, and the masked-exit advice that works under dash.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gate, lint, only } from './lint-helper.js';

const EXPECT = '/import verification passed \\(\\d+ rows\\)/';

describe('inverted-exit', () => {
  const fires = (check: string) => only(lint(gate(check, EXPECT)), 'inverted-exit');

  it("fires when the CHECK exits 0 exactly when a test runner or checker fails", () => {
    for (const check of ['! npm test', '! node --test', '! npx --no-install tsc --noEmit', '! make check', 'npm test && exit 1 || exit 0', '! cargo test', '! pytest -q', '! go test ./...']) {
      const f = fires(check);
      expect(f, check).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 2, gate: 'G1' });
    }
    expect(fires('! npm test')[0]?.message).toBe("CHECK exits 0 exactly when npm test fails ('!' in front of npm test inverts its status): the gate passes on a failure and fails on success");
    expect(fires('npm test && exit 1 || exit 0')[0]?.message).toMatch(/the commands after it turn its status around/);
  });

  it('stays quiet on negated predicates and scripts, and when the status is not inverted', () => {
    for (const check of ['! grep -q FAIL out.txt', 'npm test > out.txt; ! grep -q "not ok" out.txt', '! node scripts/reject-bad-rows.mjs', '! diff a b', 'npm test', 'npm test && exit 0', '! true']) {
      expect(fires(check), check).toEqual([]);
    }
  });

  it('applied, the suggestion (drop the !) is quiet for the rule', () => {
    expect(fires('! npm test')[0]?.suggestion).toMatch(/^drop the '!': a gate passes when its command succeeds/);
    expect(fires('npm test')).toEqual([]);
    expect(fires('npm test && exit 1 || exit 0')[0]?.suggestion).toBe("let the CHECK end with npm test's own status: drop what follows it");
  });

  it('leaves `|| true`, `; true` and `|| exit 0` to masked-exit, which says the status is thrown away', () => {
    for (const check of ['npm test || true', 'npm test; true', 'npm test || exit 0']) {
      const f = lint(gate(check, EXPECT));
      expect(only(f, 'inverted-exit'), check).toEqual([]);
      expect(only(f, 'masked-exit'), check).toHaveLength(1);
    }
  });
});

describe('tools that print nothing on success: `tool && echo MARKER` is the recipe', () => {
  const selfSatisfying = (check: string, e: string) => only(lint(gate(check, e)), 'self-satisfying');

  it('is accepted after tsc, eslint and the other quiet tools, when the echo runs only after success', () => {
    for (const check of ['npx --no-install tsc --noEmit && echo typecheck-ok', 'tsc -p . && eslint . && echo typecheck-ok', 'set -e; tsc --noEmit; echo typecheck-ok', 'shellcheck tools/*.sh && echo typecheck-ok', 'go vet ./... && echo typecheck-ok', 'cargo fmt --check && echo typecheck-ok']) {
      expect(selfSatisfying(check, 'typecheck-ok'), check).toEqual([]);
    }
  });

  it('is accepted after a negated search, which succeeds only when it matched (and printed) nothing', () => {
    for (const check of ["! grep -rn 'console.log' src && echo no-console", "! git grep -n -I -E ' +$' -- src && echo no-console", '! rg -n TODO lib && echo no-console']) {
      expect(selfSatisfying(check, 'no-console'), check).toEqual([]);
    }
    // Not negated, a search prints what it found: expect that instead.
    expect(selfSatisfying('grep -rn TODO src && echo no-console', 'no-console')).toHaveLength(1);
    expect(selfSatisfying("! grep -rn 'console.log' src; echo no-console", 'no-console')).toHaveLength(1);
  });

  it('is still reported when the marker prints on failure, or after a tool that has a summary to expect', () => {
    expect(selfSatisfying('tsc --noEmit; echo typecheck-ok', 'typecheck-ok')[0]?.message).toMatch(/prints it whatever tsc --noEmit does/);
    expect(selfSatisfying('tsc --noEmit || echo typecheck-ok', 'typecheck-ok')[0]?.message).toMatch(/exactly when tsc --noEmit fails/);
    expect(selfSatisfying('npm test && echo ALL-GREEN', 'ALL-GREEN')[0]?.message).toMatch(/it proves only that npm test exited 0/);
    expect(selfSatisfying('npm test && tsc --noEmit && echo ALL-GREEN', 'ALL-GREEN')).toHaveLength(1);
    expect(selfSatisfying('prettier --check . && echo fmt-ok', 'fmt-ok')).toHaveLength(1);
  });

  it("after '&&', the suggestion is one a quiet repository script can act on: make it print its own success line", () => {
    const [f] = selfSatisfying('node scripts/lint.mjs && echo lint clean', 'lint clean');
    expect(f?.suggestion).toBe(
      'EXPECT a line that node scripts/lint.mjs itself prints only on success (its summary, ideally with a count), and drop the echo; if it prints nothing, make it print one (a tool known to be quiet on success, such as eslint or tsc --noEmit, is accepted with && echo)',
    );
    expect(selfSatisfying('echo ok; node x.mjs', 'ok')[0]?.suggestion).toMatch(/^remove the echo and EXPECT text/);
  });
});

// Round-39v V8: `node --test; date` passed every failing run, and lint said nothing: only an
// ending that always exits 0 (`; echo`, `; true`) was seen.
describe('masked-exit: a test runner whose status the next command drops', () => {
  it("fires for `runner; anything`, and stays quiet for '&&', a runner last, and under set -e", () => {
    for (const check of ['node --test; date', "node --test; node -e 'console.log(1)'", 'npm test; sh -c "echo x"', 'pytest -q; python3 report.py']) {
      const f = only(lint(gate(check, EXPECT)), 'masked-exit');
      expect(f, check).toHaveLength(1);
      expect(f[0]!.message, check).toMatch(/^CHECK exits 0 even when \S+( \S+)? fails \('; \S+' after it drops its exit status/);
      expect(f[0]!.suggestion).toBe("join the commands with '&&', or run the test runner last");
    }
    for (const check of ['node --test && date', 'date; node --test', 'set -e; node --test; date', 'cd sub; npm test']) {
      expect(only(lint(gate(check, EXPECT)), 'masked-exit'), check).toEqual([]);
    }
  });
});

describe('masked-exit: the pipe advice works under any /bin/sh', () => {
  it('suggests bash -o pipefail -c with the CHECK quoted, not set -o pipefail', () => {
    const f = only(lint(gate('npm test | tail -n 5', EXPECT)), 'masked-exit');
    expect(f[0]?.suggestion).toBe("drop the pipe (gate-check matches EXPECT against the whole output); if the filter is needed, run the pipeline in bash with pipefail: CHECK: bash -o pipefail -c 'npm test | tail -n 5'");
    expect(f[0]?.suggestion).not.toMatch(/set -o pipefail/);
    const quoted = only(lint(gate("npm test -- --grep 'a b' | tail -n 5", EXPECT)), 'masked-exit');
    expect(quoted[0]?.suggestion).toMatch(/CHECK: bash -o pipefail -c 'npm test -- --grep '\\''a b'\\'' \| tail -n 5'$/);
  });

  it('applied, the suggestion is quiet for the rule', () => {
    expect(only(lint(gate("bash -o pipefail -c 'npm test | tail -n 5'", EXPECT)), 'masked-exit')).toEqual([]);
  });

  // The advice as lint prints it, run as gate-check would run it, under dash (Debian's and
  // Ubuntu's /bin/sh, which has no pipefail before POSIX.1-2024) and under /bin/sh.
  const DASH = ['/usr/bin/dash', '/bin/dash'].find((p) => existsSync(p));
  const advised = (check: string) => {
    const s = only(lint(gate(check, EXPECT)), 'masked-exit')[0]?.suggestion ?? '';
    const m = /CHECK: (.*)$/.exec(s);
    if (!m) throw new Error(`no CHECK in the suggestion: ${s}`);
    return m[1]!;
  };
  const fails = "node -e 'console.log(\"import verification passed (3 rows)\"); process.exit(3)' | cat";
  const passes = "node -e 'console.log(\"import verification passed (3 rows)\")' | cat";

  it.skipIf(!DASH)('the advised CHECK fails closed under dash -c, where set -o pipefail is refused', () => {
    const dash = (script: string) => spawnSync(DASH!, ['-c', script], { encoding: 'utf8' });
    // Without the advice the producer's failure is lost: that is what the rule reports.
    expect(dash(fails).status).toBe(0);
    const failing = dash(advised(fails));
    expect(failing.status).not.toBe(0);
    expect(failing.stdout).toBe('import verification passed (3 rows)\n');
    const passing = dash(advised(passes));
    expect(passing.status).toBe(0);
    expect(passing.stdout).toBe('import verification passed (3 rows)\n');
    // The advice it replaced: dash stops at it, and the CHECK fails on every run.
    const old = dash('set -o pipefail; echo after');
    expect(old.status).toBe(2);
    expect(old.stdout).toBe('');
    expect(old.stderr).toMatch(/Illegal option -o pipefail/);
  });

  it('the advised CHECK fails closed under /bin/sh, whichever shell that is', () => {
    const sh = (script: string) => spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    expect(sh(advised(fails)).status).not.toBe(0);
    expect(sh(advised(passes)).status).toBe(0);
  });
});

describe('masked-exit inside a package script (round-31b F1)', () => {
  const scripts: Record<string, Record<string, string>> = {
    '.': { 'test:outer': 'npm run test', 'test:deep': 'npm run test:outer', 'test:sound': 'npm run ok', test: 'node --test || true', 'test:ci': 'node --test | tee test.log', ok: 'node --test', quiet: 'node --test; echo done', bg: 'node --test &', say: 'echo done' },
    sub: { test: 'vitest run || exit 0' },
  };
  const packageScript = (dir: string, name: string) => scripts[dir]?.[name] ?? null;
  const masked = (check: string) => only(lint(gate(check, '/^# pass [1-9]\\d*$/m'), { packageScript }), 'masked-exit');

  it('fires when the script npm, yarn or pnpm runs throws its status away', () => {
    expect(masked('npm test')[0]?.message).toBe(`npm test (package.json's "test" script, "node --test || true") exits 0 even when its script fails ('|| true' turns a failure into success): only the EXPECT can still catch a failure`);
    expect(masked('npm run -s test:ci')[0]?.message).toMatch(/^npm run test:ci \(package\.json's "test:ci" script, "node --test \| tee test\.log"\) exits 0 even when its script fails \('\| tee'/);
    expect(masked('npm run -s test:ci')[0]?.suggestion).toMatch(/^in that script: drop the pipe .*write it as bash -o pipefail -c 'node --test \| tee test\.log'$/);
    for (const check of ['yarn test', 'pnpm test', 'npm run quiet', 'npm run bg', 'npm --prefix sub test', 'npm test && echo ok']) expect(masked(check), check).toHaveLength(1);
  });

  it('follows a script that runs another, and names the chain (round-32 F5)', () => {
    expect(masked('npm run test:outer')[0]?.message).toMatch(/^npm run test:outer runs npm run test \(package\.json's "test" script, "node --test \|\| true"\) exits 0/);
    expect(masked('npm run test:deep')[0]?.message).toMatch(/^npm run test:deep runs npm run test:outer runs npm run test /);
    expect(masked('npm run test:sound')).toEqual([]);
  });

  it("says nothing of a workspace's scripts, which are not read (round-32 F8)", () => {
    for (const check of ['npm test -w pkgs/b', 'npm -w pkgs/b test', 'npm test --workspace=pkgs/b', 'pnpm -r test', 'pnpm --filter b test']) expect(masked(check), check).toEqual([]);
  });

  it('stays quiet on a sound script, a missing one, and where scripts are not read', () => {
    // A script that runs nothing real cannot fail: nothing there is masked.
    for (const check of ['npm run ok', 'npm run missing', 'npm --prefix ../x test', 'npm run say']) expect(masked(check), check).toEqual([]);
    expect(only(lint(gate('npm test', '/^# pass [1-9]\\d*$/m')), 'masked-exit')).toEqual([]);
  });
});

