// The refusals of the hook's person-facing subcommands (accept, bind, forget) on their own
// command line: each is exit 2 with the reason, and changes nothing.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from '../helpers/cli.js';

function repo() {
  const s = sandbox();
  mkdirSync(join(s.repo, '.gate-check', 'api'), { recursive: true });
  return { ...s, run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env }), store: join(s.home, '.gate-check') };
}

describe('hook accept, bind and forget refuse what they do not take', () => {
  for (const sub of ['accept', 'forget']) {
    it(`hook ${sub} with an argument it does not take`, () => {
      const s = repo();
      const r = s.run(['hook', sub, 'extra']);
      expect(r.code).toBe(2);
      // commander refuses it first (too many arguments); the command's own check stays as a second line.
      expect(r.stderr).toMatch(/too many arguments|unexpected argument extra/);
    });
  }

  it('hook bind with an argument it does not take', () => {
    const s = repo();
    const r = s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api', 'extra']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too many arguments|unexpected argument extra/);
    expect(existsSync(s.store)).toBe(false);
  });

  it('hook bind without a session, or with an empty one', () => {
    const s = repo();
    for (const args of [['--scope', 'api'], ['--session', '', '--scope', 'api']]) {
      const r = s.run(['hook', 'bind', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/hook bind needs --session ID/);
    }
    expect(existsSync(s.store)).toBe(false);
  });

  it('hook bind with a session id longer than a host sends', () => {
    const s = repo();
    const r = s.run(['hook', 'bind', '--session', 'a'.repeat(4097), '--scope', 'api']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--session is longer than 4096 characters/);
    expect(existsSync(s.store)).toBe(false);
    expect(s.run(['hook', 'bind', '--session', 'a'.repeat(4096), '--scope', 'api']).code).toBe(0);
  });

  it('hook bind --remove with no store: nothing to remove, and no store is made', () => {
    const s = repo();
    const r = s.run(['hook', 'bind', '--session', 'agent-1', '--remove']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/agent-1 is bound to no scope in .*; nothing changed/);
    expect(existsSync(s.store)).toBe(false);
  });

  it('hook install --global with a HOME that is a file', () => {
    const s = repo();
    const file = join(s.repo, 'not-a-home');
    writeFileSync(file, '');
    const r = runCli(['hook', 'install', '--global'], { cwd: s.repo, env: { ...s.env, HOME: file } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not-a-home: HOME is not a directory/);
  });
});
