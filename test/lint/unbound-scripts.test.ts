// The scripts the approval screen names as bound by no DEPENDS (lint/unbound-scripts.ts):
// the same reading of the CHECK as undeclared-script, judged on the files the oracle binds.
import { describe, expect, it } from 'vitest';
import { unboundScripts } from '../../lib/lint/unbound-scripts.js';

const ROOT = '/repo';

describe('unboundScripts', () => {
  it('names each script the CHECK runs, inside a literal sh -c too, from the directory it runs in', () => {
    expect(unboundScripts("sh check.sh && node sub/t.js && sh -c 'cd sub && sh ../x.sh'", ROOT, ROOT, [], null)).toEqual(['check.sh', 'sub/t.js', 'x.sh']);
    expect(unboundScripts('./run.sh', ROOT, `${ROOT}/pkg`, [], null)).toEqual(['pkg/run.sh']);
  });

  it('a script DEPENDS matched, or one its globs will match once it is written, is bound', () => {
    expect(unboundScripts('sh check.sh; sh later.sh', ROOT, ROOT, ['check.sh'], ['check.sh', '*.sh'])).toEqual([]);
    expect(unboundScripts('sh check.sh; sh later.sh', ROOT, ROOT, ['check.sh'], ['check.sh'])).toEqual(['later.sh']);
    // The files the oracle binds decide, whatever a glob reading would say of them.
    expect(unboundScripts('sh check.sh', ROOT, ROOT, ['check.sh'], null)).toEqual([]);
  });

  it('a file the CHECK only syntax-checks is not run, and a CHECK that runs no file names none', () => {
    expect(unboundScripts('node --check x.js && echo ok', ROOT, ROOT, [], null)).toEqual([]);
  });

  it('outside the repository nothing is judged', () => {
    expect(unboundScripts('sh check.sh', ROOT, '/elsewhere', [], null)).toEqual([]);
    // A sibling whose name starts with the root's is outside it too.
    expect(unboundScripts('sh check.sh', ROOT, '/repository', [], null)).toEqual([]);
  });
});
