import { describe, expect, it } from 'vitest';
import { asInvoked, hookInvocationWords, invocationWords } from '../../lib/program/invocation.js';

describe('how gate-check was started, for the commands it suggests', () => {
  const PATH = '/home/me/bin:/usr/local/bin:/usr/bin:/bin';
  it('npx --no-install gate-check under npm exec, whatever the path', () => {
    expect(invocationWords({ PATH, npm_command: 'exec' }, '/p/node_modules/.bin/gate-check', '/usr/bin/node', '/p')).toEqual(['npx', '--no-install', 'gate-check']);
    expect(invocationWords({ PATH, npm_command: 'exec' }, '/p/node_modules/gate-check/bin/gate-check.js', '/usr/bin/node', '/p/src/deep')).toEqual(['npx', '--no-install', 'gate-check']);
  });
  // Round-38c F3: npm_command is inherited by whatever an npx-started host starts; there, the
  // npx command would run a node_modules/.bin/gate-check planted in the repository.
  it('not for npm_command=exec inherited by a copy npx does not find from here', () => {
    const node = (script: string) => ['node', script];
    for (const [script, cwd] of [
      ['/src/gate-check/bin/gate-check.js', '/p'],
      ['/other/node_modules/.bin/gate-check', '/p'],
      ['/p/node_modules/.bin/gate-check', '/elsewhere'],
      ['/p/node_modules/.bin/gate-check', '/pp'],
      ['/p/node_modules/x/node_modules/.bin/gate-check', '/p/node_modules/x'],
      ['/p/node_modules/.bin/other-tool', '/p'],
    ] as const) expect(invocationWords({ PATH, npm_command: 'exec' }, script, '/usr/bin/node', cwd), `${script} from ${cwd}`).toEqual(node(script));
  });
  it('gate-check when that name, found on PATH, is how it started', () => {
    expect(invocationWords({ PATH }, '/usr/local/bin/gate-check', '/usr/bin/node', '/p')).toEqual(['gate-check']);
  });
  it('node and the path otherwise: a path not on PATH, another name, npm run (npm_command=run-script)', () => {
    expect(invocationWords({ PATH }, '/p/node_modules/.bin/gate-check', '/usr/bin/node', '/p')).toEqual(['node', '/p/node_modules/.bin/gate-check']);
    expect(invocationWords({ PATH }, '/src/gate-check/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['node', '/src/gate-check/bin/gate-check.js']);
    expect(invocationWords({ PATH, npm_command: 'run-script' }, '/src/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['node', '/src/bin/gate-check.js']);
  });
  it('the node binary by its path when the node on PATH may be another one', () => {
    expect(invocationWords({ PATH }, '/src/bin/gate-check.js', '/opt/node22/bin/node', '/p')).toEqual(['/opt/node22/bin/node', '/src/bin/gate-check.js']);
    expect(invocationWords({ PATH: '/opt/n/bin:/usr/bin' }, '/src/bin/gate-check.js', '/opt/n/bin/nodejs', '/p')).toEqual(['/opt/n/bin/nodejs', '/src/bin/gate-check.js']);
  });
  it('relative PATH entries do not count, and without a script path: gate-check', () => {
    expect(invocationWords({ PATH: 'bin:/usr/bin' }, '/r/bin/gate-check', '/usr/bin/node', '/p')).toEqual(['node', '/r/bin/gate-check']);
    expect(invocationWords({ PATH }, undefined, '/usr/bin/node', '/p')).toEqual(['gate-check']);
  });

  // Round-31b F5: the host starts the hook by node and the path; the approvals were made through npx.
  it('the Stop hook names npx --no-install gate-check for a project\'s installed package, the usual words otherwise', () => {
    expect(hookInvocationWords({ PATH }, '/p/node_modules/gate-check/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['npx', '--no-install', 'gate-check']);
    expect(hookInvocationWords({ PATH }, '/p/node_modules/.bin/gate-check', '/usr/bin/node', '/p/')).toEqual(['npx', '--no-install', 'gate-check']);
    expect(hookInvocationWords({ PATH }, '/src/gate-check/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['node', '/src/gate-check/bin/gate-check.js']);
    // Installed elsewhere (round-34 F5): npx in the repository would run what its node_modules/.bin holds.
    expect(hookInvocationWords({ PATH }, '/tools/node_modules/gate-check/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['node', '/tools/node_modules/gate-check/bin/gate-check.js']);
    expect(hookInvocationWords({ PATH }, '/q/node_modules/gate-check/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['node', '/q/node_modules/gate-check/bin/gate-check.js']);
    expect(hookInvocationWords({ PATH }, '/p/node_modules/other/node_modules/gate-check/bin/gate-check.js', '/usr/bin/node', '/p')).toEqual(['node', '/p/node_modules/other/node_modules/gate-check/bin/gate-check.js']);
  });
});

describe('hints name gate-check as it was started (round-38b F8)', () => {
  it("rewrites each quoted 'gate-check …' command, and nothing else", () => {
    const hint = "run 'gate-check init' to create one; see 'gate-check --help' or 'gate-check'; gate-check alone stays";
    expect(asInvoked(hint, ['npx', '--no-install', 'gate-check'])).toBe("run 'npx --no-install gate-check init' to create one; see 'npx --no-install gate-check --help' or 'npx --no-install gate-check'; gate-check alone stays");
    expect(asInvoked(hint, ['gate-check'])).toBe(hint);
    expect(asInvoked("'gate-checker x'", ['node', '/p/bin/gate-check.js'])).toBe("'gate-checker x'");
    // Words that need quotes of their own would break the hint's: left as written.
    expect(asInvoked(hint, ['node', '/my dir/bin/gate-check.js'])).toBe(hint);
  });
});
