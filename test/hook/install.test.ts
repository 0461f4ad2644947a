// gate-check hook install / uninstall through the real CLI, in sandbox directories with a
// private HOME: where it writes, what it preserves, what it refuses (without changing a byte).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DENY_RULES, stopHookCommand, STOP_HOOK_MARKER } from '../../lib/hook/settings-merge.js';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { snapshotTree } from '../helpers/tree.js';

const COMMAND = stopHookCommand(process.execPath, realpathSync(BIN));
const ENTRY = { type: 'command', command: COMMAND, timeout: 30 };
const LOCAL = '.claude/settings.local.json';
const SHARED = '.claude/settings.json';
const HAS_GIT = spawnSync('git', ['--version']).status === 0;

/** Settings with something of everything that must survive: other events, other Stop groups, other keys. */
const UNRELATED = {
  $schema: 'https://json.schemastore.org/claude-code-settings.json',
  model: 'opus',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre', timeout: 5 }] }],
    Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'echo mine' }] }],
    Notification: [],
  },
  env: { FOO: 'bar', '10': 'x' },
  permissions: { allow: ['Read(*)'], deny: ['Bash(rm -rf *)'], defaultMode: 'default' },
  zzz: [1, 2.5, null, true, { nested: ['a'] }],
};

function repo(files: Record<string, string> = {}) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    run: (args: string[], env: NodeJS.ProcessEnv = s.env) => runCli(['hook', ...args], { cwd: s.repo, env }),
    read: (rel: string) => readFileSync(join(s.repo, rel), 'utf8'),
    json: (rel: string) => JSON.parse(readFileSync(join(s.repo, rel), 'utf8')),
    snapshot: () => [snapshotTree(s.repo), snapshotTree(s.home)],
  };
}

function oursIn(settings: { hooks?: { Stop?: Array<{ hooks: Array<{ command?: string }> }> } }) {
  return (settings.hooks?.Stop ?? []).flatMap((g) => g.hooks.filter((h) => typeof h.command === 'string' && h.command.endsWith(STOP_HOOK_MARKER)));
}

describe('hook install', () => {
  it('creates .claude/settings.local.json with the Stop hook and the deny rules, and warns to keep it untracked', () => {
    const s = repo();
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^installed the gate-check Stop hook in ${s.repo}/\\.claude/settings\\.local\\.json$`, 'm'));
    expect(r.stdout).toContain(`hook command: ${COMMAND}`);
    expect(r.stdout).not.toMatch(/previous file saved/);
    expect(r.stderr).toMatch(/warning: \.claude\/settings\.local\.json must stay untracked: do not commit it/);
    expect(s.read(LOCAL)).toBe(JSON.stringify({ hooks: { Stop: [{ hooks: [ENTRY] }] }, permissions: { deny: DENY_RULES } }, null, 2) + '\n');
    expect(lstatSync(join(s.repo, '.claude')).mode & 0o777).toBe(0o755 & ~process.umask());
    expect(lstatSync(join(s.repo, LOCAL)).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(existsSync(join(s.repo, SHARED))).toBe(false);
    expect(existsSync(join(s.repo, `${LOCAL}.gate-check.bak`))).toBe(false);
    expect(existsSync(join(s.repo, `${LOCAL}.gate-check.lock`))).toBe(false);
  });

  it('the installed command runs this CLI (the marker is a shell comment)', () => {
    const s = repo();
    s.run(['install']);
    const r = spawnSync('/bin/sh', ['-c', `${s.json(LOCAL).hooks.Stop[0].hooks[0].command.replace(' hook claude-stop ', ' --version ')}`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  it('--shared writes .claude/settings.json, the default writes settings.local.json', () => {
    const s = repo();
    const r = s.run(['install', '--shared']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${s.repo}/.claude/settings.json`);
    expect(r.stderr).toMatch(/settings\.json is usually committed/);
    expect(r.stderr).not.toMatch(/must stay untracked/);
    expect(oursIn(s.json(SHARED))).toEqual([ENTRY]);
    expect(existsSync(join(s.repo, LOCAL))).toBe(false);
    expect(s.run(['install']).code).toBe(0);
    expect(oursIn(s.json(LOCAL))).toEqual([ENTRY]);
  });

  it('--global writes $HOME/.claude/settings.json and nothing in the repository', () => {
    const s = repo();
    const before = snapshotTree(s.repo);
    const r = s.run(['install', '--global']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${s.home}/.claude/settings.json`);
    expect(r.stderr).not.toMatch(/untracked/);
    expect(oursIn(JSON.parse(readFileSync(join(s.home, '.claude/settings.json'), 'utf8')))).toEqual([ENTRY]);
    expect(snapshotTree(s.repo)).toEqual(before);
    expect(s.run(['uninstall', '--global']).code).toBe(0);
    expect(readFileSync(join(s.home, '.claude/settings.json'), 'utf8')).toBe('{}\n');
  });

  it('--root chooses the repository', () => {
    const s = repo();
    mkdirSync(join(s.repo, 'sub'));
    const r = runCli(['hook', 'install', '--root', 'sub'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(0);
    expect(oursIn(s.json(`sub/${LOCAL}`))).toEqual([ENTRY]);
    expect(existsSync(join(s.repo, '.claude'))).toBe(false);
  });

  it('preserves unrelated settings, their order and the indentation, and uninstall restores the bytes', () => {
    for (const indent of [2, 4, '\t']) {
      const original = JSON.stringify(UNRELATED, null, indent) + '\n';
      const s = repo({ [LOCAL]: original });
      const r = s.run(['install']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^installed the gate-check Stop hook/);
      const after = s.json(LOCAL);
      expect(Object.keys(after)).toEqual(Object.keys(UNRELATED));
      expect(Object.keys(after.hooks)).toEqual(['PreToolUse', 'Stop', 'Notification']);
      expect(after.hooks.Stop).toEqual([...UNRELATED.hooks.Stop, { hooks: [ENTRY] }]);
      expect(after.permissions).toEqual({ ...UNRELATED.permissions, deny: ['Bash(rm -rf *)', ...DENY_RULES] });
      expect({ ...after, hooks: { ...after.hooks, Stop: UNRELATED.hooks.Stop }, permissions: UNRELATED.permissions }).toEqual(UNRELATED);
      expect(s.read(LOCAL)).toBe(JSON.stringify(after, null, indent) + '\n');
      expect(s.read(`${LOCAL}.gate-check.bak`)).toBe(original);

      const u = s.run(['uninstall']);
      expect(u.code).toBe(0);
      expect(u.stdout).toMatch(/^uninstalled the gate-check Stop hook from .*\(removed 1 hook entry and 5 permissions\.deny rules\)$/m);
      expect(s.read(LOCAL)).toBe(original);
    }
  });

  it('keeps a file without a final newline without one, and a compact file compact', () => {
    for (const original of [JSON.stringify(UNRELATED, null, 2), JSON.stringify(UNRELATED)]) {
      const s = repo({ [LOCAL]: original });
      expect(s.run(['install']).code).toBe(0);
      expect(s.read(LOCAL)).toBe(original === JSON.stringify(UNRELATED) ? JSON.stringify(s.json(LOCAL)) : JSON.stringify(s.json(LOCAL), null, 2));
      expect(s.run(['install', '--uninstall']).code).toBe(0);
      expect(s.read(LOCAL)).toBe(original);
    }
  });

  it('is idempotent: a second install changes no byte and writes no backup or lock', () => {
    const s = repo({ [LOCAL]: JSON.stringify(UNRELATED, null, 2) + '\n' });
    expect(s.run(['install']).code).toBe(0);
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^the gate-check Stop hook is already installed in .*settings\.local\.json; nothing changed$/m);
    expect(s.snapshot()).toEqual(before);
  });

  it('keeps the mode of an existing file, for the file and its backup', () => {
    const s = repo({ [LOCAL]: '{}\n' });
    chmodSync(join(s.repo, LOCAL), 0o600);
    expect(s.run(['install']).code).toBe(0);
    expect(lstatSync(join(s.repo, LOCAL)).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(s.repo, `${LOCAL}.gate-check.bak`)).mode & 0o777).toBe(0o600);
  });

  it('writes the backup with the original bytes before each change', () => {
    const original = '{\n  "model": "x"\n}\n';
    const s = repo({ [LOCAL]: original });
    const r = s.run(['install']);
    expect(r.stdout).toContain(`previous file saved as ${s.repo}/${LOCAL}.gate-check.bak`);
    expect(s.read(`${LOCAL}.gate-check.bak`)).toBe(original);
    const installed = s.read(LOCAL);
    s.run(['uninstall']);
    expect(s.read(`${LOCAL}.gate-check.bak`)).toBe(installed);
    expect(s.read(LOCAL)).toBe(original);
  });

  it('repairs a changed entry in place and removes repeated ones, then is stable', () => {
    const stale = { type: 'command', command: `'/old/node' '/old/bin/gate-check.js' hook claude-stop ${STOP_HOOK_MARKER}`, timeout: 10 };
    const s = repo({
      [LOCAL]:
        JSON.stringify(
          {
            hooks: {
              Stop: [
                { hooks: [{ type: 'command', command: 'echo first' }, stale] },
                { hooks: [ENTRY] },
                { matcher: '', hooks: [{ type: 'command', command: 'echo last' }, { ...ENTRY, timeout: 99 }] },
              ],
            },
            permissions: { deny: [DENY_RULES[0], DENY_RULES[0]] },
          },
          null,
          2,
        ) + '\n',
    });
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^repaired the gate-check Stop hook in .* \(kept one entry of ours, removed 2 more; added 4 missing permissions\.deny rules\)$/m);
    const after = s.json(LOCAL);
    expect(after.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'echo first' }, ENTRY] },
      { matcher: '', hooks: [{ type: 'command', command: 'echo last' }] },
    ]);
    // An existing duplicate deny rule of the user's is left alone; each missing one is added once.
    expect(after.permissions.deny).toEqual([DENY_RULES[0], DENY_RULES[0], ...DENY_RULES.slice(1)]);
    expect(s.run(['install']).stdout).toMatch(/already installed/);
  });

  it('repairs an edited command that kept the marker', () => {
    const s = repo();
    s.run(['install']);
    const edited = s.read(LOCAL).replace(COMMAND.replace(/"/g, '\\"'), `echo hi ${STOP_HOOK_MARKER}`);
    expect(edited).not.toBe(s.read(LOCAL));
    writeFileSync(join(s.repo, LOCAL), edited);
    const r = s.run(['install']);
    expect(r.stdout).toMatch(/^repaired .*\(replaced a changed entry of ours\)$/m);
    expect(s.json(LOCAL).hooks.Stop).toEqual([{ hooks: [ENTRY] }]);
  });

  it('re-adds a deny rule the user removed', () => {
    const s = repo();
    s.run(['install']);
    const settings = s.json(LOCAL);
    settings.permissions.deny = settings.permissions.deny.filter((d: string) => d !== DENY_RULES[4]);
    writeFileSync(join(s.repo, LOCAL), JSON.stringify(settings, null, 2) + '\n');
    expect(s.run(['install']).stdout).toMatch(/added 1 missing permissions\.deny rule\)/);
    expect(s.json(LOCAL).permissions.deny).toEqual(DENY_RULES);
  });

  it('sanitizes the paths it prints', () => {
    const s = repo();
    const evil = join(s.repo, 'evil\u001b[2J\u202edir');
    mkdirSync(evil);
    const r = s.run(['install', '--root', evil]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});

describe('hook uninstall', () => {
  it('says so and changes nothing, creating nothing, when nothing is installed', () => {
    for (const files of [{}, { [LOCAL]: JSON.stringify(UNRELATED, null, 2) + '\n' }, { [LOCAL]: '{}' }]) {
      const s = repo(files);
      const before = s.snapshot();
      for (const args of [['uninstall'], ['install', '--uninstall'], ['uninstall', '--shared'], ['uninstall', '--global']]) {
        const r = s.run(args);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^the gate-check Stop hook is not installed in .*; nothing changed$/m);
      }
      expect(s.snapshot()).toEqual(before);
    }
  });

  it('removes only what install added, also when other content was added in between', () => {
    const s = repo({ [LOCAL]: JSON.stringify(UNRELATED, null, 2) + '\n' });
    s.run(['install']);
    const settings = s.json(LOCAL);
    settings.hooks.Stop.push({ hooks: [{ type: 'command', command: 'echo later' }] });
    settings.permissions.deny.push('Bash(curl *)');
    writeFileSync(join(s.repo, LOCAL), JSON.stringify(settings, null, 2) + '\n');
    expect(s.run(['uninstall']).code).toBe(0);
    expect(s.json(LOCAL)).toEqual({
      ...UNRELATED,
      hooks: { ...UNRELATED.hooks, Stop: [...UNRELATED.hooks.Stop, { hooks: [{ type: 'command', command: 'echo later' }] }] },
      permissions: { ...UNRELATED.permissions, deny: ['Bash(rm -rf *)', 'Bash(curl *)'] },
    });
  });
});

describe('refusals (exit 2, no byte changed)', () => {
  const malformed: Array<[string, string, RegExp]> = [
    ['invalid JSON', '{"hooks": {,}}\n', /not valid JSON/],
    ['an empty file', '', /is empty/],
    ['a top level array', '[]\n', /top level is not a JSON object/],
    ['hooks as an array', '{"hooks": []}\n', /"hooks" is not an object/],
    ['hooks.Stop as an object', '{"hooks": {"Stop": {}}}\n', /"hooks\.Stop" is not an array/],
    ['a Stop group that is a string', '{"hooks": {"Stop": ["x"]}}\n', /hooks\.Stop\[0\] is not an object/],
    ['a Stop group without a hooks array', '{"hooks": {"Stop": [{"hooks": "echo"}]}}\n', /hooks\.Stop\[0\]\.hooks is not an array/],
    ['a hook that is not an object', '{"hooks": {"Stop": [{"hooks": [null]}]}}\n', /hooks\.Stop\[0\]\.hooks\[0\] is not an object/],
    ['permissions as an array', '{"permissions": []}\n', /"permissions" is not an object/],
    ['permissions.deny with a number', '{"permissions": {"deny": ["a", 1]}}\n', /permissions\.deny\[1\] is not a string/],
    ['permissions.deny as a string', '{"permissions": {"deny": "Bash(x)"}}\n', /"permissions\.deny" is not an array/],
    ['a __proto__ key', '{"hooks": {"Stop": [{"hooks": [{"__proto__": {"command": "x"}}]}]}}\n', /__proto__/],
    ['a duplicated key', '{"hooks": {}, "hooks": {"Stop": []}}\n', /"hooks" twice/],
  ];
  it.each(malformed)('refuses %s, for install and uninstall', (_name, content, message) => {
    const s = repo({ [LOCAL]: content });
    const before = s.snapshot();
    for (const args of [['install'], ['uninstall']]) {
      const r = s.run(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain(`${s.repo}/${LOCAL}`);
      expect(r.stderr).toMatch(/hint: fix the file by hand/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a symlinked settings file, leaving link and target unchanged', () => {
    const s = repo({ 'elsewhere.json': '{}\n' });
    mkdirSync(join(s.repo, '.claude'));
    symlinkSync('../elsewhere.json', join(s.repo, LOCAL));
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a dangling symlink instead of creating its target', () => {
    const s = repo();
    mkdirSync(join(s.repo, '.claude'));
    symlinkSync(join(s.home, 'created.json'), join(s.repo, LOCAL));
    const before = s.snapshot();
    expect(s.run(['install']).code).toBe(2);
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a symlinked .claude directory', () => {
    const s = repo({ 'real/settings.local.json': '{}\n' });
    symlinkSync('real', join(s.repo, '.claude'));
    const before = s.snapshot();
    for (const args of [['install'], ['uninstall'], ['install', '--shared']]) {
      const r = s.run(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\.claude: is a symbolic link/);
    }
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a symlinked ~/.claude for --global', () => {
    const s = repo();
    mkdirSync(join(s.home, 'dotfiles'));
    symlinkSync('dotfiles', join(s.home, '.claude'));
    const before = s.snapshot();
    expect(s.run(['install', '--global']).code).toBe(2);
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a hard-linked settings file, leaving both names unchanged', () => {
    const s = repo({ 'other.json': '{"model": "x"}\n' });
    mkdirSync(join(s.repo, '.claude'));
    linkSync(join(s.repo, 'other.json'), join(s.repo, LOCAL));
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 hard links/);
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a FIFO without blocking, and a directory', () => {
    const s = repo();
    mkdirSync(join(s.repo, '.claude'));
    expect(spawnSync('mkfifo', [join(s.repo, LOCAL)]).status).toBe(0);
    mkdirSync(join(s.repo, SHARED));
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a FIFO/);
    const d = s.run(['install', '--shared']);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/a directory/);
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a .claude that is a file', () => {
    const s = repo({ '.claude': '{}' });
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.claude: is not a directory/);
    expect(s.snapshot()).toEqual(before);
  });

  it('refuses a settings file over 1 MiB', () => {
    const s = repo({ [LOCAL]: JSON.stringify({ big: 'x'.repeat(1024 * 1024) }) });
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at most 1048576/);
    expect(s.snapshot()).toEqual(before);
  });

  it('waits for a held lock, never steals it, and changes nothing', () => {
    const s = repo({ [LOCAL]: '{}\n' });
    writeFileSync(join(s.repo, `${LOCAL}.gate-check.lock`), JSON.stringify({ pid: 2 ** 22 + 12345, token: 'x' }));
    const before = s.snapshot();
    const r = s.run(['install'], { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '200' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lock .*settings\.local\.json\.gate-check\.lock is held/);
    expect(s.snapshot()).toEqual(before);
  });

  it('usage errors: --shared with --global, --root with --global, unknown options and arguments', () => {
    const s = repo();
    const before = s.snapshot();
    for (const args of [
      ['install', '--shared', '--global'],
      ['uninstall', '--global', '--shared'],
      ['install', '--global', '--root', '.'],
      ['install', '--local'],
      ['install', 'extra'],
      ['install', '--shared', '--shared'],
    ]) {
      const r = s.run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: /);
    }
    expect(s.run(['install', '--shared', '--global']).stderr).toMatch(/--shared and --global cannot be combined/);
    expect(s.run(['install', '--global'], { ...s.env, HOME: '' }).code).toBe(2);
    expect(s.snapshot()).toEqual(before);
  });

  it('prints help with exit 0', () => {
    const r = repo().run(['install', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--shared/);
    expect(r.stdout).toMatch(/--global/);
  });
});

describe.skipIf(!HAS_GIT)('git', () => {
  const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) => expect(spawnSync('git', args, { cwd, env }).status).toBe(0);

  it('warns loudly when settings.local.json is tracked', () => {
    const s = repo({ [LOCAL]: '{}\n' });
    git(s.repo, s.env, 'init', '-q', '.');
    git(s.repo, s.env, 'add', '-f', LOCAL);
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/WARNING: \.claude\/settings\.local\.json IS TRACKED BY GIT/);
    expect(r.stderr).toMatch(/git rm --cached \.claude\/settings\.local\.json/);
  });

  it('only reminds when it is untracked, and skips the check without git', () => {
    const s = repo();
    git(s.repo, s.env, 'init', '-q', '.');
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/must stay untracked/);
    expect(r.stderr).not.toMatch(/TRACKED BY GIT/);
    git(s.repo, s.env, 'add', '-f', LOCAL);
    const noGit = s.run(['install'], { ...s.env, PATH: '' });
    expect(noGit.code).toBe(0);
    expect(noGit.stderr).toMatch(/must stay untracked/);
    expect(noGit.stderr).not.toMatch(/TRACKED BY GIT/);
  });
});

describe('"disableAllHooks": true turns every hook off', () => {
  const NO_HOOK = /^ {2}but no hook can run: "disableAllHooks": true in (.*) turns every Claude Code hook off, this one included\.$/m;

  it('an install that changes nothing says that no hook can run, and what to change', () => {
    const s = repo();
    expect(s.run(['install']).code).toBe(0);
    const settings = s.json(LOCAL) as Record<string, unknown>;
    writeFileSync(join(s.repo, LOCAL), JSON.stringify({ ...settings, disableAllHooks: true }, null, 2) + '\n');
    const before = s.snapshot();
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/already installed in .*settings\.local\.json; nothing changed$/m);
    expect(NO_HOOK.exec(r.stdout)?.[1]).toBe(join(s.repo, LOCAL));
    expect(r.stdout).toContain(`To let the Stop hook run, remove "disableAllHooks" from ${join(s.repo, LOCAL)} (or set it to false).`);
    expect(s.snapshot()).toEqual(before); // it says so; it does not change the user's setting
  });

  it('a fresh install into a file that has it says the same', () => {
    const s = repo({ [SHARED]: '{"disableAllHooks": true}\n' });
    const r = s.run(['install', '--shared']);
    expect(r.stdout).toMatch(/^installed the gate-check Stop hook in /m);
    expect(NO_HOOK.exec(r.stdout)?.[1]).toBe(join(s.repo, SHARED));
  });

  it('is found in the other files Claude Code reads, by their precedence: local over project over user', () => {
    const user = repo();
    writeFiles(user.home, { '.claude/settings.json': '{"disableAllHooks": true}\n' });
    expect(NO_HOOK.exec(user.run(['install']).stdout)?.[1]).toBe(join(user.home, '.claude/settings.json'));
    // A project file that sets it to false wins over the user's true.
    const overridden = repo({ [SHARED]: '{"disableAllHooks": false}\n' });
    writeFiles(overridden.home, { '.claude/settings.json': '{"disableAllHooks": true}\n' });
    expect(overridden.run(['install']).stdout).not.toMatch(NO_HOOK);
    // A local true wins over a project false.
    const local = repo({ [SHARED]: '{"disableAllHooks": false}\n', [LOCAL]: '{"disableAllHooks": true}\n' });
    expect(NO_HOOK.exec(local.run(['install']).stdout)?.[1]).toBe(join(local.repo, LOCAL));
    // --global looks at the user file only.
    const global = repo({ [LOCAL]: '{"disableAllHooks": true}\n' });
    expect(global.run(['install', '--global']).stdout).not.toMatch(NO_HOOK);
  });

  it('false, absent or not a boolean says nothing', () => {
    for (const value of ['false', '"true"', '1', 'null']) {
      const s = repo({ [LOCAL]: `{"disableAllHooks": ${value}}\n` });
      expect(s.run(['install']).stdout).not.toMatch(/no hook can run/);
    }
  });
});
