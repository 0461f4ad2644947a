// The Claude Code ConfigChange hook that `hook install --host claude` writes, run as Claude
// Code runs it (the installed command and args, the documented payload on stdin): a change
// that removes gate-check's Stop hook, its ConfigChange hook or a deny rule, or turns every
// hook off, is blocked for the running session; any other change passes; it never writes.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATIC_DENY_RULES } from '../../lib/hook/hosts/claude-rules.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { snapshotTree } from '../helpers/tree.js';

const LOCAL = '.claude/settings.local.json';

function installed() {
  const s = sandbox();
  expect(runCli(['hook', 'install'], { cwd: s.repo, env: s.env }).code).toBe(0);
  const file = join(s.repo, LOCAL);
  const settings = () => JSON.parse(readFileSync(file, 'utf8'));
  const entry = settings().hooks.ConfigChange[0].hooks[0] as { command: string; args: string[] };
  /** Runs the installed hook with the documented payload (code.claude.com/docs/en/hooks#configchange-input). */
  const fire = (change: { source?: string; file_path?: string } = {}, input?: string, env: NodeJS.ProcessEnv = {}) => {
    const payload = {
      session_id: 'abc123',
      transcript_path: '/Users/x/.claude/projects/p/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: s.repo,
      permission_mode: 'default',
      hook_event_name: 'ConfigChange',
      source: 'local_settings',
      file_path: file,
      ...change,
    };
    const r = spawnSync(entry.command, entry.args, { cwd: s.repo, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo, ...env }, input: input ?? JSON.stringify(payload), encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(0);
    return { stdout: r.stdout, stderr: r.stderr, answer: r.stdout === '' ? null : (JSON.parse(r.stdout) as { decision: string; reason: string }) };
  };
  const edit = (f: (x: Record<string, any>) => void) => {
    const x = settings();
    f(x);
    writeFileSync(file, JSON.stringify(x, null, 2) + '\n');
  };
  return { ...s, file, settings, fire, edit, entry };
}

describe('hook config-change', () => {
  it('lets a change through that keeps everything of gate-check, and writes nothing', () => {
    const s = installed();
    s.edit((x) => (x.model = 'opus'));
    const before = [snapshotTree(s.repo), snapshotTree(s.home)];
    const r = s.fire();
    expect(r.answer).toBeNull();
    expect(r.stderr).toBe('');
    expect([snapshotTree(s.repo), snapshotTree(s.home)]).toEqual(before);
  });

  it('the user file (exec-form Stop entry) is checked the same way', () => {
    const s = sandbox();
    expect(runCli(['hook', 'install', '--global'], { cwd: s.repo, env: s.env }).code).toBe(0);
    const file = join(s.home, '.claude/settings.json');
    const entry = JSON.parse(readFileSync(file, 'utf8')).hooks.ConfigChange[0].hooks[0] as { command: string; args: string[] };
    expect(entry.args).toEqual([expect.stringMatching(/gate-check\.js$/), 'hook', 'config-change', '--settings', file]);
    const fire = () => {
      const payload = { session_id: 'abc123', transcript_path: '/t.jsonl', cwd: s.repo, hook_event_name: 'ConfigChange', source: 'user_settings', file_path: file };
      const r = spawnSync(entry.command, entry.args, { cwd: s.repo, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: JSON.stringify(payload), encoding: 'utf8', timeout: 20_000 });
      expect(r.status).toBe(0);
      return r.stdout;
    };
    expect(fire()).toBe('');
    const x = JSON.parse(readFileSync(file, 'utf8'));
    x.hooks.Stop[0].hooks[0].args = [];
    writeFileSync(file, JSON.stringify(x));
    expect(JSON.parse(fire())).toMatchObject({ decision: 'block', reason: expect.stringMatching(/would remove the gate-check Stop hook\./) });
  });

  it('blocks a change that removes the Stop hook, the ConfigChange hook, or a deny rule', () => {
    const cases: Array<[string, (x: Record<string, any>) => void, RegExp]> = [
      ['Stop removed', (x) => delete x.hooks.Stop, /would remove the gate-check Stop hook\./],
      ['ConfigChange removed', (x) => delete x.hooks.ConfigChange, /would remove the gate-check ConfigChange hook/],
      ['Stop neutered (its executable changed, its arguments kept)', (x) => (x.hooks.Stop[0].hooks[0].command = '/bin/true'), /the gate-check Stop hook/],
      ['Stop timeout cut', (x) => (x.hooks.Stop[0].hooks[0].timeout = 1), /the gate-check Stop hook/],
      ['a deny rule removed', (x) => (x.permissions.deny = x.permissions.deny.filter((r: string) => r !== STATIC_DENY_RULES[4])), /1 permissions\.deny rule of gate-check \(Bash\(\*gate-check\*--approve\*\)\)/],
      ['an Edit rule removed', (x) => (x.permissions.deny = x.permissions.deny.filter((r: string) => !r.startsWith('Edit('))), /3 permissions\.deny rules of gate-check/],
      ['every hook turned off', (x) => (x.disableAllHooks = true), /every hook \("disableAllHooks": true in .*settings\.local\.json\)/],
      ['everything of gate-check removed', (x) => (delete x.hooks, delete x.permissions), /Stop hook; the gate-check ConfigChange hook; 8 permissions\.deny rules/],
    ];
    for (const [name, f, reason] of cases) {
      const s = installed();
      s.edit(f);
      const r = s.fire();
      expect(r.answer?.decision, name).toBe('block');
      expect(r.answer!.reason, name).toMatch(reason);
      expect(r.answer!.reason).toMatch(/It is not applied to this session/);
      expect(r.answer!.reason).toContain(`(changed: ${s.file})`);
    }
  });

  it('blocks when the file is gone, malformed or a link', () => {
    const gone = installed();
    rmSync(gone.file);
    expect(gone.fire().answer?.reason).toMatch(/settings\.local\.json itself \(it is gone\)/);
    const bad = installed();
    writeFileSync(bad.file, '{"hooks": ');
    expect(bad.fire().answer?.reason).toMatch(/a readable .*settings\.local\.json \(not valid settings: is not valid JSON/);
    const link = installed();
    const copy = join(link.repo, 'copy.json');
    writeFileSync(copy, readFileSync(link.file));
    rmSync(link.file);
    symlinkSync(copy, link.file);
    expect(link.fire().answer?.reason).toMatch(/symbolic link/);
  });

  it('blocks "disableAllHooks": true in another file of the chain, unless a file of higher precedence sets it false', () => {
    const s = installed();
    writeFiles(s.home, { '.claude/settings.json': '{"disableAllHooks": true}\n' });
    const user = s.fire({ source: 'user_settings', file_path: join(s.home, '.claude/settings.json') });
    expect(user.answer?.reason).toMatch(/every hook \("disableAllHooks": true in .*home\/\.claude\/settings\.json\)/);
    writeFiles(s.repo, { '.claude/settings.json': '{"disableAllHooks": false}\n' });
    expect(s.fire({ source: 'project_settings', file_path: join(s.repo, '.claude/settings.json') }).answer).toBeNull();
  });

  it('does not look at policy_settings changes (Claude Code ignores a block of those)', () => {
    const s = installed();
    s.edit((x) => delete x.hooks.Stop);
    expect(s.fire({ source: 'policy_settings' }).answer).toBeNull();
  });

  it('input it cannot use still checks the settings file', () => {
    const ok = installed();
    for (const input of ['', 'not json', '[]', '{"source": 7}']) expect(ok.fire({}, input).answer).toBeNull();
    const broken = installed();
    broken.edit((x) => delete x.hooks.Stop);
    expect(broken.fire({}, 'not json').answer?.decision).toBe('block');
  });

  it('blocks when misconfigured, and sanitizes what it echoes', () => {
    const s = installed();
    for (const args of [[], ['--settings'], ['--settings', 'relative.json'], ['--settings', s.file, 'extra']]) {
      const r = runCli(['hook', 'config-change', ...args], { cwd: s.repo, env: s.env, input: '{}' });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).reason).toMatch(/misconfigured/);
    }
    s.edit((x) => delete x.hooks.Stop);
    const evil = s.fire({ file_path: '/x/\u001b[2Jevil\u202e.json' });
    expect(evil.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(runCli(['hook', 'config-change', '--help'], { cwd: s.repo, env: s.env }).stdout).toMatch(/^Usage: gate-check hook config-change --settings FILE/);
  });
});
