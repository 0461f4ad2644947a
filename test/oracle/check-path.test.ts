// The PATH a check's shell is given (lib/oracle/check-path.ts): entries that depend on the
// working directory are made absolute where the approval bound them.
import { describe, expect, it } from 'vitest';
import { checkEnvironment, pathForCheck } from '../../lib/oracle/check-path.js';

describe('pathForCheck', () => {
  it('anchors relative, empty and /proc/self/cwd entries at the folder, and ~/ at HOME', () => {
    expect(pathForCheck('tools::/usr/bin:/proc/self/cwd/bin:~/bin:~', '/repo', '/home/u')).toBe('/repo/tools:/repo:/usr/bin:/repo/bin:/home/u/bin:/home/u');
  });

  it('refuses a ~ entry with a HOME that is not absolute (round-27 10), and a folder whose path holds ":"', () => {
    expect(() => pathForCheck('~/bin:/usr/bin', '/repo', '../h')).toThrow(/HOME \("\.\.\/h"\) is not an absolute path/);
    expect(() => pathForCheck('tools', '/re:po', '/home/u')).toThrow(/whose path holds ":"/);
    expect(() => pathForCheck('~/bin', '/repo', '/ho:me')).toThrow(/whose path holds ":"/);
    // HOME through /proc/self/cwd is the folder, as such an entry is (round-28 06).
    expect(pathForCheck('~/bin', '/repo', '/proc/self/cwd')).toBe('/repo/bin');
    // No ~ entry: HOME is not read.
    expect(pathForCheck('/usr/bin', '/repo', '../h')).toBe('/usr/bin');
  });

  it('checkEnvironment gives the anchored PATH, and the same object when nothing moves', () => {
    const env = { PATH: '/usr/bin', X: '1' };
    expect(checkEnvironment(env, '/repo', () => '/home/u')).toBe(env);
    expect(checkEnvironment({ PATH: 'bin' }, '/repo', () => '/home/u').PATH).toBe('/repo/bin');
  });
});
