// gate-check hook install / uninstall through the real CLI, in sandbox directories with a
// private HOME, for every host: where it writes, exactly what, what it preserves, that
// uninstall gives the file back byte for byte (or removes the file install created), what it
// refuses (without changing a byte), and that no host is made to run the hook twice.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STOP_HOOK_MARKER, stopShellCommand } from '../../lib/hook/hook-entry.js';
import { claudeConfigChangeEntry, claudeStopEntry } from '../../lib/hook/hosts/claude.js';
import { STATIC_DENY_RULES } from '../../lib/hook/hosts/claude-rules.js';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { snapshotTree } from '../helpers/tree.js';

const RT = { node: process.execPath, bin: realpathSync(BIN) };
/** The Stop entry in the repository's .claude files (shell form: Copilot CLI runs them too), and in ~/.claude/settings.json (exec form). */
const ENTRY = claudeStopEntry(RT, 'shell');
const GLOBAL_ENTRY = claudeStopEntry(RT, 'exec');
const DENY_RULES = STATIC_DENY_RULES;
const LOCAL = '.claude/settings.local.json';
const SHARED = '.claude/settings.json';
const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const BAK = '.gate-check.bak';

const shell = (host: string) => stopShellCommand(RT.node, RT.bin, host);
const display = shell('claude');

/** What a first install writes into a new file, per host and target. */
function expectedNew(host: string, file: string): unknown {
  switch (host) {
    case 'claude':
    case 'claude-global':
      return { hooks: { Stop: [{ hooks: [host === 'claude' ? ENTRY : GLOBAL_ENTRY] }], ConfigChange: [{ hooks: [claudeConfigChangeEntry(RT, file)] }] }, permissions: { deny: DENY_RULES } };
    case 'codex':
      return { hooks: { Stop: [{ hooks: [{ type: 'command', command: shell('codex'), timeout: 30 }] }] } };
    case 'copilot-local':
      return { hooks: { agentStop: [{ type: 'command', exec: RT.node, args: [RT.bin, 'hook', 'stop', '--host', 'copilot'], timeoutSec: 25 }] } };
    case 'copilot':
      return { version: 1, hooks: { agentStop: [{ type: 'command', exec: RT.node, args: [RT.bin, 'hook', 'stop', '--host', 'copilot'], timeoutSec: 25 }] } };
    case 'gemini':
      return { hooks: { AfterAgent: [{ hooks: [{ type: 'command', name: 'gate-check-stop', command: shell('gemini'), timeout: 30000 }] }] } };
    case 'cursor':
      return { version: 1, hooks: { stop: [{ command: shell('cursor'), timeout: 30, loop_limit: 8 }] } };
  }
  throw new Error(host);
}

/** Every host and target: the CLI arguments, the file (relative to the repository, or `~/` for HOME), the expectation. */
const TARGETS: Array<{ name: string; args: string[]; rel: string; expect: string }> = [
  { name: 'claude local', args: [], rel: LOCAL, expect: 'claude' },
  { name: 'claude shared', args: ['--shared'], rel: SHARED, expect: 'claude' },
  { name: 'claude global', args: ['--global'], rel: '~/.claude/settings.json', expect: 'claude-global' },
  { name: 'codex', args: ['--host', 'codex'], rel: '.codex/hooks.json', expect: 'codex' },
  { name: 'codex global', args: ['--host', 'codex', '--global'], rel: '~/.codex/hooks.json', expect: 'codex' },
  { name: 'copilot local', args: ['--host', 'copilot'], rel: '.github/copilot/settings.local.json', expect: 'copilot-local' },
  { name: 'copilot shared', args: ['--host', 'copilot', '--shared'], rel: '.github/hooks/gate-check.json', expect: 'copilot' },
  { name: 'copilot global', args: ['--host', 'copilot', '--global'], rel: '~/.copilot/hooks/gate-check.json', expect: 'copilot' },
  { name: 'gemini', args: ['--host', 'gemini'], rel: '.gemini/settings.json', expect: 'gemini' },
  { name: 'gemini global', args: ['--host', 'gemini', '--global'], rel: '~/.gemini/settings.json', expect: 'gemini' },
  { name: 'cursor', args: ['--host', 'cursor'], rel: '.cursor/hooks.json', expect: 'cursor' },
  { name: 'cursor global', args: ['--host', 'cursor', '--global'], rel: '~/.cursor/hooks.json', expect: 'cursor' },
];

/** Settings with something of everything that must survive, in each host's own shape. */
function unrelated(expect: string): Record<string, unknown> {
  const base = { $schema: 'https://example.com/schema.json', model: 'opus', env: { FOO: 'bar', '10': 'x' }, zzz: [1, 2.5, null, true, { nested: ['a'] }] };
  switch (expect) {
    case 'claude':
    case 'claude-global':
      return {
        ...base,
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre', timeout: 5 }] }],
          Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'echo mine' }] }],
          Notification: [],
        },
        permissions: { allow: ['Read(*)'], deny: ['Bash(rm -rf *)'], defaultMode: 'default' },
      };
    case 'codex':
      return { description: 'team hooks', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine', timeout: 5 }] }], PreToolUse: [] } };
    case 'copilot':
      return { version: 1, hooks: { agentStop: [{ type: 'command', bash: 'echo mine' }], preToolUse: [{ type: 'command', bash: 'echo pre' }] } };
    case 'copilot-local':
      return { ...base, hooks: { agentStop: [{ type: 'command', bash: 'echo mine' }] } };
    case 'gemini':
      return { ...base, hooksConfig: { enabled: true }, hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'echo mine' }] }], BeforeTool: [] } };
    case 'cursor':
      return { version: 1, hooks: { stop: [{ command: './mine.sh' }], afterFileEdit: [{ command: './fmt.sh' }] } };
  }
  throw new Error(expect);
}

function repo(files: Record<string, string> = {}) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const path = (rel: string) => (rel.startsWith('~/') ? join(s.home, rel.slice(2)) : join(s.repo, rel));
  return {
    ...s,
    path,
    run: (args: string[], env: NodeJS.ProcessEnv = s.env) => runCli(['hook', ...args], { cwd: s.repo, env }),
    read: (rel: string) => readFileSync(path(rel), 'utf8'),
    json: (rel: string) => JSON.parse(readFileSync(path(rel), 'utf8')),
    write: (rel: string, text: string) => {
      mkdirSync(join(path(rel), '..'), { recursive: true });
      writeFileSync(path(rel), text);
    },
    snapshot: () => [snapshotTree(s.repo), snapshotTree(s.home)],
  };
}

function oursIn(settings: { hooks?: { Stop?: Array<{ hooks: Array<{ command?: string; args?: string[] }> }> } }) {
  return (settings.hooks?.Stop ?? []).flatMap((g) => g.hooks.filter((h) => (h.args ?? [])[1] === 'hook' || (typeof h.command === 'string' && h.command.endsWith(STOP_HOOK_MARKER))));
}

describe('every host: install into a new file, uninstall removes it', () => {
  it.each(TARGETS)('$name', ({ args, rel, expect: kind }) => {
    const s = repo();
    const before = s.snapshot();
    const r = s.run(['install', ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`installed the gate-check Stop hook in ${s.path(rel)}\n`);
    expect(r.stdout).not.toMatch(/previous file saved/);
    expect(s.read(rel)).toBe(JSON.stringify(expectedNew(kind, s.path(rel)), null, 2) + '\n');
    expect(existsSync(s.path(rel) + BAK)).toBe(false);
    expect(existsSync(s.path(rel) + '.gate-check.lock')).toBe(false);

    const again = s.run(['install', ...args]);
    expect(again.stdout).toMatch(/already installed .*; nothing changed$/m);

    const u = s.run(['uninstall', ...args]);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toMatch(/: removed the file, which install had created$/m);
    expect(existsSync(s.path(rel))).toBe(false);
    expect(existsSync(s.path(rel) + BAK)).toBe(false);
    // Only the directories install created remain.
    const [repoAfter, homeAfter] = s.snapshot();
    for (const [k, v] of Object.entries(repoAfter!)) if (!(k in before[0]!)) expect(v, k).toMatch(/^dir /);
    for (const [k, v] of Object.entries(homeAfter!)) if (!(k in before[1]!)) expect(v, k).toMatch(/^dir /);
  });
});

describe('every host: install over a file with other hooks keeps them, uninstall restores the bytes', () => {
  it.each(TARGETS)('$name', ({ args, rel, expect: kind }) => {
    const original = unrelated(kind);
    for (const indent of [2, '\t']) {
      const text = JSON.stringify(original, null, indent) + '\n';
      const s = repo();
      s.write(rel, text);
      const r = s.run(['install', ...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`previous file saved as ${s.path(rel)}${BAK}`);
      expect(s.read(rel + BAK)).toBe(text);
      const after = s.json(rel);
      const fresh = expectedNew(kind, s.path(rel)) as { hooks: Record<string, unknown[]>; permissions?: { deny: string[] } };
      // Exactly the expected entries appended to each list, everything else as it was.
      const merged = structuredClone(original) as { hooks: Record<string, unknown[]>; permissions?: { deny: string[] } };
      for (const [event, list] of Object.entries(fresh.hooks)) merged.hooks[event] = [...(merged.hooks[event] ?? []), ...list];
      if (fresh.permissions) merged.permissions!.deny = [...merged.permissions!.deny, ...fresh.permissions.deny];
      expect(after).toEqual(merged);
      expect(Object.keys(after)).toEqual(Object.keys(original));
      expect(s.read(rel)).toBe(JSON.stringify(after, null, indent) + '\n');

      const u = s.run(['uninstall', ...args]);
      expect(u.code, u.stderr).toBe(0);
      expect(u.stdout).toMatch(/restored the file as it was before install \(from .*\.gate-check\.bak, now removed\)$/m);
      expect(s.read(rel)).toBe(text);
      expect(existsSync(s.path(rel) + BAK)).toBe(false);
    }
  });
});

describe('every host: refusals (exit 2, no byte changed)', () => {
  it.each(TARGETS)('$name: malformed, symlinked and hard-linked files', ({ args, rel }) => {
    for (const content of ['{"hooks": {,}}\n', '[]\n', '{"hooks": []}\n', '', '{"a": 1, "a": 2}\n']) {
      const s = repo();
      s.write(rel, content);
      const before = s.snapshot();
      for (const cmd of ['install', 'uninstall']) {
        const r = s.run([cmd, ...args]);
        expect(r.code, `${cmd} ${content}`).toBe(2);
        expect(r.stderr).toContain(s.path(rel));
        expect(r.stderr).toMatch(/hint: fix the file by hand/);
      }
      expect(s.snapshot()).toEqual(before);
    }
    const link = repo();
    link.write('elsewhere.json', '{}\n');
    link.write(rel, '{}\n');
    const target = link.path('elsewhere.json');
    spawnSync('rm', [link.path(rel)]);
    symlinkSync(target, link.path(rel));
    const lb = link.snapshot();
    const lr = link.run(['install', ...args]);
    expect(lr.code).toBe(2);
    expect(lr.stderr).toMatch(/symbolic link/);
    expect(link.snapshot()).toEqual(lb);

    const hard = repo();
    hard.write('other.json', '{"model": "x"}\n');
    hard.write(rel, '{}\n');
    spawnSync('rm', [hard.path(rel)]);
    linkSync(hard.path('other.json'), hard.path(rel));
    const hb = hard.snapshot();
    const hr = hard.run(['install', ...args]);
    expect(hr.code).toBe(2);
    expect(hr.stderr).toMatch(/2 hard links/);
    expect(hard.snapshot()).toEqual(hb);
  });

  it('a symlinked directory on the way to any host file', () => {
    for (const [args, dir] of [
      [['--host', 'copilot', '--shared'], '.github'],
      [['--host', 'copilot', '--shared'], '.github/hooks'],
      [['--host', 'codex'], '.codex'],
      [['--host', 'cursor', '--global'], '~/.cursor'],
    ] as Array<[string[], string]>) {
      const s = repo({ 'real/keep': 'x' });
      const p = s.path(dir);
      mkdirSync(join(p, '..'), { recursive: true });
      symlinkSync(s.path('real'), p);
      const before = s.snapshot();
      const r = s.run(['install', ...args]);
      expect(r.code, dir).toBe(2);
      expect(r.stderr).toMatch(/is a symbolic link/);
      expect(s.snapshot()).toEqual(before);
    }
  });

  it('a hooks file (Copilot, Cursor) whose version is not 1', () => {
    for (const [args, rel] of [
      [['--host', 'copilot', '--shared'], '.github/hooks/gate-check.json'],
      [['--host', 'cursor'], '.cursor/hooks.json'],
    ] as Array<[string[], string]>) {
      const s = repo();
      s.write(rel, '{"version": 2, "hooks": {}}\n');
      const before = s.snapshot();
      const r = s.run(['install', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/"version" is not 1/);
      expect(s.snapshot()).toEqual(before);
    }
  });
});

describe('a hooks file (Copilot, Cursor) that says no version', () => {
  it('is taken as it is: the entry is added beside what is there, nothing else changes', () => {
    for (const [args, rel, mine] of [
      [['--host', 'copilot', '--shared'], '.github/hooks/gate-check.json', { agentStop: [{ type: 'command', bash: 'echo mine' }] }],
      [['--host', 'cursor'], '.cursor/hooks.json', { stop: [{ command: './mine.sh' }] }],
    ] as Array<[string[], string, Record<string, unknown[]>]>) {
      const s = repo();
      s.write(rel, JSON.stringify({ hooks: mine }) + '\n');
      const r = s.run(['install', ...args]);
      expect(r.code, r.stderr).toBe(0);
      const written = JSON.parse(s.read(rel)) as { version?: unknown; hooks: Record<string, unknown[]> };
      expect(Object.hasOwn(written, 'version')).toBe(false);
      const [slot, entries] = Object.entries(mine)[0]!;
      expect(written.hooks[slot]!.slice(0, entries.length)).toEqual(entries);
      expect(written.hooks[slot]).toHaveLength(entries.length + 1);
    }
  });
});

describe('a host must not run the hook twice', () => {
  const cases: Array<{ name: string; first: string[]; second: string[]; message: RegExp }> = [
    { name: 'Claude Code local, then shared', first: [], second: ['--shared'], message: /Claude Code run the gate-check Stop hook twice/ },
    { name: 'Claude Code shared, then local', first: ['--shared'], second: [], message: /Claude Code reads its hooks from .*settings\.json as well/ },
    { name: 'Claude Code global, then local', first: ['--global'], second: [], message: /Claude Code run the gate-check Stop hook twice/ },
    { name: 'Claude Code local, then global (from the repository)', first: [], second: ['--global'], message: /Claude Code run the gate-check Stop hook twice/ },
    { name: 'Claude Code, then Copilot CLI (which reads .claude/settings*.json)', first: [], second: ['--host', 'copilot', '--shared'], message: /GitHub Copilot CLI run the gate-check Stop hook twice/ },
    { name: 'Copilot CLI, then Claude Code', first: ['--host', 'copilot', '--shared'], second: ['--shared'], message: /GitHub Copilot CLI reads both .*settings\.json and .*gate-check\.json/ },
    { name: 'Copilot CLI local, then shared', first: ['--host', 'copilot'], second: ['--host', 'copilot', '--shared'], message: /GitHub Copilot CLI run the gate-check Stop hook twice/ },
    { name: 'Copilot CLI global, then shared', first: ['--host', 'copilot', '--global'], second: ['--host', 'copilot', '--shared'], message: /twice/ },
    { name: 'Codex project, then user', first: ['--host', 'codex'], second: ['--host', 'codex', '--global'], message: /Codex CLI run the gate-check Stop hook twice/ },
    { name: 'Gemini CLI user, then project', first: ['--host', 'gemini', '--global'], second: ['--host', 'gemini'], message: /Gemini CLI run/ },
    { name: 'Cursor project, then user', first: ['--host', 'cursor'], second: ['--host', 'cursor', '--global'], message: /Cursor run/ },
  ];
  it.each(cases)('$name', ({ first, second, message }) => {
    const s = repo();
    expect(s.run(['install', ...first]).code).toBe(0);
    const before = s.snapshot();
    const r = s.run(['install', ...second]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^hint: keep one/m);
    expect(s.snapshot()).toEqual(before);
  });

  it('finds an entry written by hand too', () => {
    const s = repo({ [SHARED]: JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx gate-check hook stop --host claude' }] }] } }) });
    const r = s.run(['install']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/twice/);
  });

  it('hosts that do not share a file can each have one, and a repair is not a second install', () => {
    const s = repo();
    expect(s.run(['install']).code).toBe(0);
    for (const host of ['codex', 'gemini', 'cursor']) expect(s.run(['install', '--host', host]).code, host).toBe(0);
    expect(s.run(['install']).stdout).toMatch(/already installed/);
  });
});

describe('hook install (Claude Code)', () => {
  it('creates .claude/settings.local.json, says what it wrote, and warns to keep it untracked', () => {
    const s = repo();
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^installed the gate-check Stop hook in ${s.repo}/\\.claude/settings\\.local\\.json$`, 'm'));
    expect(r.stdout).toContain(`hook command: ${display}`);
    expect(r.stdout).toMatch(/Stop hook timeout 30 s/);
    expect(r.stdout).toMatch(/permissions\.deny: added 8 rules/);
    expect(r.stdout).toMatch(/ConfigChange: a settings change that removes this Stop hook or the deny rules is refused/);
    expect(r.stderr).toMatch(/warning: \.claude\/settings\.local\.json must stay untracked: do not commit it/);
    expect(r.stderr).toMatch(/needs Claude Code 2\.1\.139 or later/);
    expect(lstatSync(join(s.repo, '.claude')).mode & 0o777).toBe(0o755 & ~process.umask());
    expect(lstatSync(join(s.repo, LOCAL)).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(existsSync(join(s.repo, SHARED))).toBe(false);
  });

  it('the exec-form entries (ConfigChange; Stop in ~/.claude/settings.json) run this CLI without a shell', () => {
    const s = repo();
    s.run(['install']);
    const local = s.json(LOCAL);
    const g = repo();
    g.run(['install', '--global']);
    const global = g.json('~/.claude/settings.json');
    for (const entry of [local.hooks.ConfigChange[0].hooks[0], global.hooks.Stop[0].hooks[0], global.hooks.ConfigChange[0].hooks[0]]) {
      const r = spawnSync(entry.command, [entry.args[0], '--version'], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/\d+\.\d+\.\d+/);
    }
    expect(local.hooks.ConfigChange[0].hooks[0].args).toEqual([RT.bin, 'hook', 'config-change', '--settings', join(s.repo, LOCAL)]);
  });

  it.each([
    ['claude', LOCAL, (x: any) => x.hooks.Stop[0].hooks[0].command],
    ['codex', '.codex/hooks.json', (x: any) => x.hooks.Stop[0].hooks[0].command],
    ['gemini', '.gemini/settings.json', (x: any) => x.hooks.AfterAgent[0].hooks[0].command],
    ['cursor', '.cursor/hooks.json', (x: any) => x.hooks.stop[0].command],
  ] as Array<[string, string, (x: any) => string]>)('the shell-form entry of %s runs this CLI through sh; the marker is a comment', (host, rel, pick) => {
    const s = repo();
    expect(s.run(['install', '--host', host]).code).toBe(0);
    const command = pick(s.json(rel));
    expect(command).toBe(shell(host));
    const r = spawnSync('/bin/sh', ['-c', command.replace(` hook stop --host ${host} `, ' --version ')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  it('--shared writes .claude/settings.json, --global $HOME/.claude/settings.json and nothing in the repository', () => {
    const s = repo();
    const r = s.run(['install', '--shared']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/settings\.json is usually committed/);
    expect(r.stderr).not.toMatch(/must stay untracked/);
    expect(oursIn(s.json(SHARED))).toEqual([ENTRY]);
    const g = repo();
    const before = snapshotTree(g.repo);
    expect(g.run(['install', '--global']).code).toBe(0);
    expect(oursIn(g.json('~/.claude/settings.json'))).toEqual([GLOBAL_ENTRY]);
    expect(snapshotTree(g.repo)).toEqual(before);
  });

  it('--root chooses the repository', () => {
    const s = repo();
    mkdirSync(join(s.repo, 'sub'));
    const r = runCli(['hook', 'install', '--root', 'sub'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(0);
    expect(oursIn(s.json(`sub/${LOCAL}`))).toEqual([ENTRY]);
    expect(existsSync(join(s.repo, '.claude'))).toBe(false);
  });

  it('keeps a file without a final newline without one, and a compact file compact', () => {
    const original = unrelated('claude');
    for (const text of [JSON.stringify(original, null, 2), JSON.stringify(original)]) {
      const s = repo({ [LOCAL]: text });
      expect(s.run(['install']).code).toBe(0);
      expect(s.read(LOCAL)).toBe(text === JSON.stringify(original) ? JSON.stringify(s.json(LOCAL)) : JSON.stringify(s.json(LOCAL), null, 2));
      expect(s.run(['install', '--uninstall']).code).toBe(0);
      expect(s.read(LOCAL)).toBe(text);
    }
  });

  it('gives back, byte for byte, what a rewrite would normalize: number spellings, escapes, empty containers, a rule of ours the user wrote', () => {
    const text = `{\n  "n": 1.0,\n  "s": "\\u00e9",\n  "hooks": {},\n  "permissions": {\n    "deny": ["${DENY_RULES[0]}"]\n  }\n}\n`;
    const s = repo({ [LOCAL]: text });
    expect(s.run(['install']).code).toBe(0);
    expect(s.read(LOCAL)).not.toBe(text);
    expect(s.run(['uninstall']).code).toBe(0);
    expect(s.read(LOCAL)).toBe(text);
    expect(existsSync(s.path(LOCAL + BAK))).toBe(false);
  });

  it('is idempotent: a second install changes no byte and writes no backup or lock', () => {
    const s = repo({ [LOCAL]: JSON.stringify(unrelated('claude'), null, 2) + '\n' });
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
    expect(lstatSync(join(s.repo, `${LOCAL}${BAK}`)).mode & 0o777).toBe(0o600);
  });

  it('repairs a changed or repeated entry in place, keeps the first backup, and uninstall still restores the original', () => {
    const original = '{\n  "model": "x"\n}\n';
    const s = repo({ [LOCAL]: original });
    expect(s.run(['install']).code).toBe(0);
    const settings = s.json(LOCAL);
    const stale = { type: 'command', command: `'/old/node' '/old/bin/gate-check.js' hook claude-stop ${STOP_HOOK_MARKER}`, timeout: 10 };
    settings.hooks.Stop = [{ hooks: [{ type: 'command', command: 'echo first' }, stale] }, { hooks: [ENTRY] }, { matcher: '', hooks: [{ ...ENTRY, timeout: 99 }] }];
    settings.permissions.deny = [DENY_RULES[0], DENY_RULES[0]];
    writeFileSync(join(s.repo, LOCAL), JSON.stringify(settings, null, 2) + '\n');
    const r = s.run(['install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^repaired the gate-check Stop hook in .* \(kept one entry of ours in hooks\.Stop, removed 2 more; added 7 missing permissions\.deny rules\)$/m);
    expect(r.stdout).not.toMatch(/previous file saved/);
    const after = s.json(LOCAL);
    expect(after.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'echo first' }, ENTRY] }]);
    // An existing duplicate deny rule is left alone; each missing one is added once.
    expect(after.permissions.deny).toEqual([DENY_RULES[0], DENY_RULES[0], ...DENY_RULES.slice(1)]);
    expect(s.read(LOCAL + BAK)).toBe(original);
    expect(s.run(['install']).stdout).toMatch(/already installed/);
    // The hand-added "echo first" hook is not gate-check's: uninstall keeps it, so the backup cannot come back.
    const u = s.run(['uninstall']);
    expect(u.stdout).toMatch(/the file changed since install, so only gate-check's entries were removed; the backup .* was removed/);
    expect(s.json(LOCAL)).toEqual({ model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo first' }] }] } });
    expect(existsSync(s.path(LOCAL + BAK))).toBe(false);
  });

  it('repairs the entry of earlier versions (hook claude-stop) to the current one', () => {
    const legacy = { type: 'command', command: `'${RT.node}' '${RT.bin}' hook claude-stop ${STOP_HOOK_MARKER}`, timeout: 30 };
    const s = repo({ [LOCAL]: JSON.stringify({ hooks: { Stop: [{ hooks: [legacy] }] }, permissions: { deny: DENY_RULES.slice(0, 5) } }, null, 2) + '\n' });
    const r = s.run(['install']);
    expect(r.stdout).toMatch(/replaced a changed entry of ours in hooks\.Stop; added the entry in hooks\.ConfigChange; added 3 missing/);
    expect(s.json(LOCAL).hooks.Stop).toEqual([{ hooks: [ENTRY] }]);
    // An install of an earlier version left no backup: uninstall removes what is ours, and then the emptied file.
    expect(s.run(['uninstall']).stdout).toMatch(/removed the file, which install had created/);
  });

  it('re-adds a deny rule the user removed', () => {
    const s = repo();
    s.run(['install']);
    const settings = s.json(LOCAL);
    settings.permissions.deny = settings.permissions.deny.filter((d: string) => d !== DENY_RULES[4]);
    writeFileSync(join(s.repo, LOCAL), JSON.stringify(settings, null, 2) + '\n');
    expect(s.run(['install']).stdout).toMatch(/added 1 missing permissions\.deny rule\)/);
    expect(s.json(LOCAL).permissions.deny).toEqual([...DENY_RULES.filter((_, i) => i !== 4), DENY_RULES[4]]);
  });

  it('writes a rule for a private store moved by GATE_CHECK_HOME or GATE_CHECK_APPROVAL_DIR', () => {
    const s = repo();
    const env = { ...s.env, GATE_CHECK_HOME: join(s.home, 'store'), GATE_CHECK_APPROVAL_DIR: '/srv/approvals' };
    expect(s.run(['install'], env).code).toBe(0);
    expect(s.json(LOCAL).permissions.deny).toEqual([...DENY_RULES, `Edit(/${join(s.home, 'store')}/**)`, 'Edit(//srv/approvals/**)']);
    expect(s.run(['uninstall'], env).code).toBe(0);
    expect(existsSync(s.path(LOCAL))).toBe(false);
  });

  it('refuses to write a hook command for a CLI whose path holds a control character; a quote is quoted', () => {
    for (const [name, ok] of [['gc\tcopy', false], ['gc\u001bcopy', false], ["gc'copy", true]] as Array<[string, boolean]>) {
      const s = repo();
      // A copy of the CLI (bin/ and dist/) in a directory whose name holds the character.
      const copy = join(s.home, name);
      for (const part of ['bin', 'dist', 'package.json']) cpSync(join(dirname(BIN), '..', part), join(copy, part), { recursive: true });
      const before = s.snapshot();
      for (const host of ['claude', 'codex']) {
        const r = spawnSync(process.execPath, [join(copy, 'bin/gate-check.js'), 'hook', 'install', '--host', host], { cwd: s.repo, env: s.env, encoding: 'utf8' });
        if (ok) {
          expect(r.status, r.stderr).toBe(0);
          continue;
        }
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/the path of gate-check contains a control character; refusing to write it into a hook command/);
        expect(r.stderr).not.toMatch(/[\t\u001b]/);
      }
      if (!ok) {
        // A snapshot of HOME includes the copy; nothing else may have changed.
        expect(s.snapshot()).toEqual(before);
        continue;
      }
      // The quote survives the shell: the entry runs the copied CLI.
      const command: string = s.json(LOCAL).hooks.Stop[0].hooks[0].command;
      const v = spawnSync('/bin/sh', ['-c', command.replace(' hook stop --host claude ', ' --version ')], { encoding: 'utf8' });
      expect(v.status, v.stderr).toBe(0);
    }
  });

  it('sanitizes the paths it prints', () => {
    const s = repo();
    const evil = join(s.repo, 'evil\u001b[2J\u202edir');
    mkdirSync(evil);
    const r = s.run(['install', '--root', evil]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/[\u001b\u202e]/);
  });

  it('--host chooses the host; an unknown one is a usage error', () => {
    const s = repo();
    const r = s.run(['install', '--host', 'vim']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown host vim \(one of claude, codex, copilot, gemini, cursor\)/);
    expect(s.run(['install', '--host', 'codex', '--shared']).code).toBe(0);
    expect(existsSync(s.path('.codex/hooks.json'))).toBe(true);
  });

  it('CODEX_HOME and COPILOT_HOME move the user files', () => {
    const s = repo();
    mkdirSync(join(s.home, 'cx'));
    mkdirSync(join(s.home, 'cp'));
    const env = { ...s.env, CODEX_HOME: join(s.home, 'cx'), COPILOT_HOME: join(s.home, 'cp') };
    expect(s.run(['install', '--host', 'codex', '--global'], env).code).toBe(0);
    expect(s.run(['install', '--host', 'copilot', '--global'], env).code).toBe(0);
    expect(existsSync(join(s.home, 'cx/hooks.json'))).toBe(true);
    expect(existsSync(join(s.home, 'cp/hooks/gate-check.json'))).toBe(true);
    expect(existsSync(join(s.home, '.codex'))).toBe(false);
  });
});

describe('hook uninstall', () => {
  it('says so and changes nothing, creating nothing, when nothing is installed', () => {
    for (const files of [{}, { [LOCAL]: JSON.stringify(unrelated('claude'), null, 2) + '\n' }, { [LOCAL]: '{}' }]) {
      const s = repo(files);
      const before = s.snapshot();
      for (const args of [['uninstall'], ['install', '--uninstall'], ['uninstall', '--shared'], ['uninstall', '--global'], ['uninstall', '--host', 'copilot', '--shared']]) {
        const r = s.run(args);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^the gate-check Stop hook is not installed in .*; nothing changed$/m);
      }
      expect(s.snapshot()).toEqual(before);
    }
  });

  it('removes only what install added when other content was added in between, and the backup', () => {
    const original = unrelated('claude');
    const s = repo({ [LOCAL]: JSON.stringify(original, null, 2) + '\n' });
    s.run(['install']);
    const settings = s.json(LOCAL);
    settings.hooks.Stop.push({ hooks: [{ type: 'command', command: 'echo later' }] });
    settings.permissions.deny.push('Bash(curl *)');
    writeFileSync(join(s.repo, LOCAL), JSON.stringify(settings, null, 2) + '\n');
    const u = s.run(['uninstall']);
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/removed 2 hook entries and 8 permissions\.deny rules/);
    expect(u.stdout).toMatch(/a Claude Code session already running keeps the hook until it restarts/);
    expect(s.json(LOCAL)).toEqual({
      ...original,
      hooks: { ...(original.hooks as object), Stop: [...(original.hooks as { Stop: unknown[] }).Stop, { hooks: [{ type: 'command', command: 'echo later' }] }] },
      permissions: { ...(original.permissions as object), deny: ['Bash(rm -rf *)', 'Bash(curl *)'] },
    });
    expect(existsSync(s.path(LOCAL + BAK))).toBe(false);
  });

  it('a file install created but the user added to is kept, without gate-check', () => {
    const s = repo();
    s.run(['install']);
    const settings = s.json(LOCAL);
    settings.model = 'sonnet';
    writeFileSync(join(s.repo, LOCAL), JSON.stringify(settings, null, 2) + '\n');
    expect(s.run(['uninstall']).stdout).toMatch(/removed 2 hook entries and 8 permissions\.deny rules/);
    expect(s.read(LOCAL)).toBe('{\n  "model": "sonnet"\n}\n');
  });

  it('an install over a leftover backup without a file removes the backup, so uninstall cannot restore it', () => {
    const s = repo({ [`${LOCAL}${BAK}`]: '{"model": "stale"}\n' });
    expect(s.run(['install']).code).toBe(0);
    expect(existsSync(s.path(LOCAL + BAK))).toBe(false);
    expect(s.run(['uninstall']).stdout).toMatch(/removed the file, which install had created/);
    expect(existsSync(s.path(LOCAL))).toBe(false);
  });

  it('refuses a backup that is a link, hard-linked or malformed, changing nothing', () => {
    for (const spoil of ['link', 'hard', 'malformed'] as const) {
      const s = repo({ [LOCAL]: '{"model": "x"}\n', 'elsewhere.json': '{}\n' });
      expect(s.run(['install']).code).toBe(0);
      const bak = s.path(LOCAL + BAK);
      spawnSync('rm', [bak]);
      if (spoil === 'link') symlinkSync(s.path('elsewhere.json'), bak);
      else if (spoil === 'hard') linkSync(s.path('elsewhere.json'), bak);
      else writeFileSync(bak, '{"model": ');
      const before = s.snapshot();
      const r = s.run(['uninstall']);
      expect(r.code, spoil).toBe(2);
      expect(r.stderr).toContain(bak);
      expect(s.snapshot()).toEqual(before);
    }
  });
});

describe('refusals (exit 2, no byte changed)', () => {
  const malformed: Array<[string, string, RegExp]> = [
    ['invalid JSON', '{"hooks": {,}}\n', /not valid JSON/],
    ['an empty file', '', /is empty/],
    ['a top level array', '[]\n', /top level is not a JSON object/],
    ['hooks as an array', '{"hooks": []}\n', /"hooks" is not an object/],
    ['hooks.Stop as an object', '{"hooks": {"Stop": {}}}\n', /"hooks\.Stop" is not an array/],
    ['hooks.ConfigChange as an object', '{"hooks": {"ConfigChange": {}}}\n', /"hooks\.ConfigChange" is not an array/],
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
      ['install', '--host'],
      ['install', '--host', 'claude', '--host', 'codex'],
    ]) {
      const r = s.run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: /);
    }
    expect(s.run(['install', '--shared', '--global']).stderr).toMatch(/--shared and --global cannot be combined/);
    for (const home of ['', 'relative/home']) {
      const r = s.run(['install', '--global'], { ...s.env, HOME: home });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--global needs HOME set to an absolute path/);
    }
    const missing = s.run(['install', '--global'], { ...s.env, HOME: join(s.home, 'gone') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/HOME does not exist/);
    expect(s.snapshot()).toEqual(before);
  });

  it('prints help with exit 0', () => {
    const r = repo().run(['install', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--shared/);
    expect(r.stdout).toMatch(/--global/);
    expect(r.stdout).toMatch(/--host <host>/);
  });
});

describe.skipIf(!HAS_GIT)('git', () => {
  const git = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) => expect(spawnSync('git', args, { cwd, env }).status).toBe(0);

  it('warns loudly when a local file is tracked', () => {
    for (const [args, rel] of [
      [[], LOCAL],
      [['--host', 'copilot'], '.github/copilot/settings.local.json'],
    ] as Array<[string[], string]>) {
      const s = repo({ [rel]: '{}\n' });
      git(s.repo, s.env, 'init', '-q', '.');
      git(s.repo, s.env, 'add', '-f', rel);
      const r = s.run(['install', ...args]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`WARNING: ${rel} IS TRACKED BY GIT`);
      expect(r.stderr).toContain(`git rm --cached ${rel}`);
    }
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

describe('a setting that turns every hook off is reported', () => {
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
    const overridden = repo({ [SHARED]: '{"disableAllHooks": false}\n' });
    writeFiles(overridden.home, { '.claude/settings.json': '{"disableAllHooks": true}\n' });
    expect(overridden.run(['install']).stdout).not.toMatch(NO_HOOK);
    const local = repo({ [SHARED]: '{"disableAllHooks": false}\n', [LOCAL]: '{"disableAllHooks": true}\n' });
    expect(NO_HOOK.exec(local.run(['install']).stdout)?.[1]).toBe(join(local.repo, LOCAL));
    const global = repo({ [LOCAL]: '{"disableAllHooks": true}\n' });
    expect(global.run(['install', '--global']).stdout).not.toMatch(NO_HOOK);
  });

  it('false, absent or not a boolean says nothing', () => {
    for (const value of ['false', '"true"', '1', 'null']) {
      const s = repo({ [LOCAL]: `{"disableAllHooks": ${value}}\n` });
      expect(s.run(['install']).stdout).not.toMatch(/no hook can run/);
    }
  });

  it('the other hosts: Codex features.hooks, Copilot disableAllHooks, Gemini hooksConfig', () => {
    const codex = repo({ '.codex/config.toml': '[features]\nhooks = false\n' });
    expect(codex.run(['install', '--host', 'codex']).stdout).toMatch(/but no hook can run: \[features\] hooks = false in .*config\.toml turns every Codex CLI hook off/);
    const copilot = repo({ '.github/copilot/settings.json': '{"disableAllHooks": true}\n' });
    expect(copilot.run(['install', '--host', 'copilot', '--shared']).stdout).toMatch(/turns every GitHub Copilot CLI hook off/);
    const gemini = repo({ '.gemini/settings.json': '{"hooksConfig": {"enabled": false}}\n' });
    expect(gemini.run(['install', '--host', 'gemini']).stdout).toMatch(/"hooksConfig": \{"enabled": false\} in .* turns every Gemini CLI hook off/);
  });
});
