// gate-check hook doctor through the real CLI, on fixture settings of every state: installed
// and fine, not installed, turned off, installed twice (in one host, and across hosts that
// share .claude/settings.json), a timeout not longer than the hook's deadline, an entry that
// cannot run, a file it cannot read. Exit 0 only when nothing is wrong; it never writes.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopShellCommand } from '../../lib/hook/hook-entry.js';
import { claudeStopEntry } from '../../lib/hook/hosts/claude.js';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { snapshotTree } from '../helpers/tree.js';

const RT = { node: process.execPath, bin: realpathSync(BIN) };
/** The Stop entry install writes into the repository's .claude files (shell form). */
const STOP = claudeStopEntry(RT, 'shell');
const EXEC_STOP = claudeStopEntry(RT, 'exec');
const claudeFile = (entries: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ ...extra, hooks: { Stop: [{ hooks: entries }] } });
const copilotFile = (entries: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ version: 1, ...extra, hooks: { agentStop: entries } });
const copilotEntry = (over: Record<string, unknown> = {}) => ({ type: 'command', exec: RT.node, args: [RT.bin, 'hook', 'stop', '--host', 'copilot'], timeoutSec: 25, ...over });

interface Report {
  ok: boolean;
  problems: string[];
  hosts: Array<{ host: string; installed: boolean; enabled: boolean; disabledBy: string | null; problems: string[]; warnings: string[]; entries: Array<Record<string, unknown>> }>;
}

function fixture(repoFiles: Record<string, string> = {}, homeFiles: Record<string, string> = {}) {
  const s = sandbox();
  writeFiles(s.repo, repoFiles);
  writeFiles(s.home, homeFiles);
  const run = (args: string[] = [], env: NodeJS.ProcessEnv = s.env) => runCli(['hook', 'doctor', ...args], { cwd: s.repo, env });
  const json = (env?: NodeJS.ProcessEnv) => {
    const r = run(['--json'], env);
    return { code: r.code, report: JSON.parse(r.stdout) as Report };
  };
  return { ...s, run, json, host: (report: Report, id: string) => report.hosts.find((h) => h.host === id) };
}

describe('hook doctor', () => {
  it('nothing installed anywhere: exit 1, and it says so', () => {
    const f = fixture();
    const r = f.run();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/no agent host found here/);
    expect(r.stdout).toMatch(/no gate-check Stop hook is installed for any agent host here/);
    expect(f.json().report).toMatchObject({ ok: false, hosts: [] });
  });

  it('installed by hook install: exit 0, with the entry, its timeout and that it can run', () => {
    const f = fixture();
    expect(runCli(['hook', 'install'], { cwd: f.repo, env: f.env }).code).toBe(0);
    const r = f.run();
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^Claude Code: installed$/m);
    expect(r.stdout).toContain(`${join(f.repo, '.claude/settings.local.json')} hooks.Stop[0].hooks[0]: shell ${stopShellCommand(RT.node, RT.bin, 'claude')}; timeout 30 s`);
    expect(r.stdout).toMatch(/^ok$/m);
    const { code, report } = f.json();
    expect(code).toBe(0);
    expect(f.host(report, 'claude')).toMatchObject({ installed: true, enabled: true, problems: [] });
    expect(f.host(report, 'claude')!.entries[0]).toMatchObject({ form: 'shell', ours: true, runnable: 'yes', timeoutSeconds: 30, timeoutExplicit: true });
    const global = fixture();
    expect(runCli(['hook', 'install', '--global'], { cwd: global.repo, env: global.env }).code).toBe(0);
    const g = global.json();
    expect(g.code).toBe(0);
    expect(global.host(g.report, 'claude')!.entries[0]).toMatchObject({ form: 'exec', ours: true, runnable: 'yes', scope: 'home' });
    expect(global.host(g.report, 'claude')!.warnings.join('\n')).toMatch(/needs Claude Code 2\.1\.139/);
  });

  it('every host installed by hook install is found, and fine', () => {
    const f = fixture();
    for (const host of ['claude', 'codex', 'gemini', 'cursor']) expect(runCli(['hook', 'install', '--host', host], { cwd: f.repo, env: f.env }).code).toBe(0);
    const { code, report } = f.json();
    expect(code, JSON.stringify(report.problems)).toBe(0);
    expect(report.hosts.map((h) => [h.host, h.installed])).toEqual([
      ['claude', true],
      ['codex', true],
      ['gemini', true],
      ['cursor', true],
    ]);
    const gemini = f.host(report, 'gemini')!.entries[0]!;
    expect(gemini).toMatchObject({ form: 'shell', timeoutSeconds: 30, runnable: 'yes' });
    // Cursor may load the Claude Code file too; that entry's answers are lost on it: a note, not a problem.
    expect(f.host(report, 'cursor')!.warnings.join('\n')).toMatch(/Cursor may also load .*settings\.local\.json/);
  });

  it('a host used here without the hook is listed as not installed', () => {
    const f = fixture({ '.claude/settings.local.json': claudeFile([STOP]), '.codex/config.toml': 'model = "o3"\n' });
    const { code, report } = f.json();
    expect(code).toBe(0);
    expect(f.host(report, 'codex')).toMatchObject({ installed: false, problems: [] });
    expect(f.run().stdout).toMatch(/^Codex CLI: not installed$/m);
  });

  it('turned off: disableAllHooks (Claude Code, by precedence), features.hooks (Codex), hooksConfig (Gemini), a Copilot hooks file', () => {
    const claude = fixture({ '.claude/settings.local.json': claudeFile([STOP]) }, { '.claude/settings.json': '{"disableAllHooks": true}' });
    const c = claude.json();
    expect(c.code).toBe(1);
    expect(claude.host(c.report, 'claude')).toMatchObject({ installed: true, enabled: false });
    expect(c.report.problems.join('\n')).toMatch(/installed, but no Claude Code hook runs: "disableAllHooks": true in .*home\/\.claude\/settings\.json/);
    const overridden = fixture({ '.claude/settings.local.json': claudeFile([STOP], { disableAllHooks: false }) }, { '.claude/settings.json': '{"disableAllHooks": true}' });
    expect(overridden.json().code).toBe(0);

    const codex = fixture({ '.codex/hooks.json': claudeFile([{ type: 'command', command: stopShellCommand(RT.node, RT.bin, 'codex'), timeout: 30 }]) }, { '.codex/config.toml': '[features]\nhooks = false # off\n' });
    expect(codex.json().report.problems.join('\n')).toMatch(/no Codex CLI hook runs: \[features\] hooks = false/);

    const geminiEntry = { type: 'command', name: 'gate-check-stop', command: stopShellCommand(RT.node, RT.bin, 'gemini'), timeout: 30000 };
    const geminiSettings = (extra: Record<string, unknown>) => JSON.stringify({ ...extra, hooks: { AfterAgent: [{ hooks: [geminiEntry] }] } });
    const g1 = fixture({ '.gemini/settings.json': geminiSettings({ hooksConfig: { disabled: ['gate-check-stop'] } }) });
    expect(g1.json().report.problems.join('\n')).toMatch(/hooksConfig\.disabled lists "gate-check-stop"/);
    const g2 = fixture({ '.gemini/settings.json': geminiSettings({}) }, { '.gemini/settings.json': '{"hooksConfig": {"enabled": false}}' });
    expect(g2.json().code).toBe(1);
    const g3 = fixture({ '.gemini/settings.json': geminiSettings({ hooksConfig: { enabled: true } }) }, { '.gemini/settings.json': '{"hooksConfig": {"enabled": false}}' });
    expect(g3.json().code).toBe(0);

    const copilot = fixture({ '.github/hooks/gate-check.json': copilotFile([copilotEntry()], { disableAllHooks: true }) });
    expect(copilot.json().report.problems.join('\n')).toMatch(/does not run: "disableAllHooks": true in this file/);
    const copilotRepo = fixture({ '.github/hooks/gate-check.json': copilotFile([copilotEntry()]), '.github/copilot/settings.local.json': '{"disableAllHooks": true}' });
    expect(copilotRepo.json().report.problems.join('\n')).toMatch(/no GitHub Copilot CLI hook runs/);
  });

  it('installed twice in one host: exit 1', () => {
    const f = fixture({ '.claude/settings.local.json': claudeFile([STOP]), '.claude/settings.json': claudeFile([{ type: 'command', command: 'npx gate-check hook stop --host claude' }]) });
    const { code, report } = f.json();
    expect(code).toBe(1);
    expect(report.problems.join('\n')).toMatch(/Claude Code: runs the gate-check Stop hook 2 times at every stop/);
    const twiceInOne = fixture({ '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { stop: [{ command: stopShellCommand(RT.node, RT.bin, 'cursor'), timeout: 30 }, { command: stopShellCommand(RT.node, RT.bin, 'cursor') }] } }) });
    expect(twiceInOne.json().report.problems.join('\n')).toMatch(/Cursor: runs the gate-check Stop hook 2 times/);
  });

  it('installed twice across hosts that share .claude/settings.json: Copilot CLI runs both', () => {
    const f = fixture({ '.claude/settings.json': claudeFile([STOP]), '.github/hooks/gate-check.json': copilotFile([copilotEntry()]) });
    const { code, report } = f.json();
    expect(code).toBe(1);
    expect(f.host(report, 'claude')!.problems).toEqual([]);
    const copilot = f.host(report, 'copilot')!;
    expect(copilot.entries.map((e) => e.borrowed)).toEqual([null, 'Claude Code']);
    expect(report.problems.join('\n')).toMatch(/GitHub Copilot CLI: runs the gate-check Stop hook 2 times at every stop/);
    // The Claude Code entry alone serves Copilot CLI too, once.
    const one = fixture({ '.claude/settings.json': claudeFile([STOP]) }, { '.copilot/config.json': '{}' });
    const r = one.json();
    expect(r.code).toBe(0);
    expect(one.host(r.report, 'copilot')).toMatchObject({ installed: true });
  });

  it('an exec-form entry (command + args) in a Claude Code file that Copilot CLI reads: a problem for Copilot, fine for Claude Code', () => {
    const f = fixture({ '.claude/settings.json': claudeFile([EXEC_STOP]) }, { '.copilot/config.json': '{}' });
    const { code, report } = f.json();
    expect(code).toBe(1);
    expect(f.host(report, 'claude')!.problems).toEqual([]);
    expect(f.host(report, 'copilot')!.problems.join('\n')).toMatch(/may not run under GitHub Copilot CLI: it documents "args" only next to "exec"/);
    // A reinstall rewrites it in the shell form both run, and then all is fine.
    expect(runCli(['hook', 'install', '--shared'], { cwd: f.repo, env: f.env }).stdout).toMatch(/replaced a changed entry of ours in hooks\.Stop/);
    expect(f.json().code).toBe(0);
    // Copilot does not read the user's Claude Code file: the exec form is fine there.
    const home = fixture({}, { '.claude/settings.json': claudeFile([EXEC_STOP]), '.copilot/config.json': '{}' });
    expect(home.json().code).toBe(0);
  });

  it('a timeout not longer than the hook deadline: exit 1, in each host\'s unit', () => {
    const claude = fixture({ '.claude/settings.local.json': claudeFile([{ ...STOP, timeout: 10 }]) });
    expect(claude.json().report.problems.join('\n')).toMatch(/its timeout \(10 s\) is not longer than the hook's own 10 s deadline/);
    const gemini = fixture({ '.gemini/settings.json': JSON.stringify({ hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: stopShellCommand(RT.node, RT.bin, 'gemini'), timeout: 5000 }] }] } }) });
    expect(gemini.json().report.problems.join('\n')).toMatch(/its timeout \(5 s\)/);
    const copilot = fixture({ '.github/hooks/g.json': copilotFile([copilotEntry({ timeoutSec: 8 })]) });
    expect(copilot.json().report.problems.join('\n')).toMatch(/its timeout \(8 s\)/);
    // Host defaults: Claude Code 600 s, Copilot 30 s: fine.
    const defaults = fixture({ '.claude/settings.local.json': claudeFile([{ type: 'command', command: EXEC_STOP.command, args: EXEC_STOP.args }]) });
    const d = defaults.json();
    expect(d.code).toBe(0);
    expect(defaults.host(d.report, 'claude')!.entries[0]).toMatchObject({ timeoutSeconds: 600, timeoutExplicit: false });
    const cp = fixture({ '.github/hooks/g.json': copilotFile([copilotEntry({ timeoutSec: undefined })]) });
    expect(cp.host(cp.json().report, 'copilot')!.entries[0]).toMatchObject({ timeoutSeconds: 30, timeoutExplicit: false });
  });

  it('an entry that cannot run: a missing node or CLI, in exec and in shell form', () => {
    const node = fixture({ '.claude/settings.local.json': claudeFile([{ ...EXEC_STOP, command: '/nonexistent/node' }]) });
    const n = node.json();
    expect(n.code).toBe(1);
    expect(n.report.problems.join('\n')).toMatch(/cannot run: the executable \/nonexistent\/node does not exist/);
    expect(node.run().stdout).toMatch(/CANNOT RUN/);
    const bin = fixture({ '.github/hooks/gate-check.json': copilotFile([copilotEntry({ args: ['/gone/gate-check.js', 'hook', 'stop', '--host', 'copilot'] })]) });
    expect(bin.json().report.problems.join('\n')).toMatch(/cannot run: the gate-check CLI \/gone\/gate-check\.js does not exist/);
    const codex = fixture({ '.codex/hooks.json': claudeFile([{ type: 'command', command: stopShellCommand('/gone/node', RT.bin, 'codex') }]) });
    expect(codex.json().report.problems.join('\n')).toMatch(/cannot run: the executable \/gone\/node does not exist/);
    const notExec = fixture({ '.claude/settings.local.json': claudeFile([{ ...EXEC_STOP, command: RT.bin.replace(/gate-check\.js$/, '../package.json') }]) });
    expect(notExec.json().report.problems.join('\n')).toMatch(/is not executable/);
  });

  it('an entry written by hand is installed, its paths unchecked (a note)', () => {
    const f = fixture({ '.claude/settings.local.json': claudeFile([{ type: 'command', command: 'npx gate-check hook stop --host claude', timeout: 30 }]) });
    const { code, report } = f.json();
    expect(code).toBe(0);
    expect(f.host(report, 'claude')!.entries[0]).toMatchObject({ ours: false, runnable: 'unchecked' });
    expect(f.host(report, 'claude')!.warnings.join('\n')).toMatch(/not written by gate-check hook install/);
  });

  // Found by an attack: doctor said "ok" for Stop entries whose answer never reaches the host.
  it('an entry that cannot hold a stop is a problem: its answer discarded or replaced, async, or not a command', () => {
    const cmd = stopShellCommand(RT.node, RT.bin, 'claude');
    const bare = cmd.replace(/ # gate-check:stop-hook$/, '');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...STOP, command: `${bare} >/dev/null # gate-check:stop-hook` }, /holds ">"/],
      [{ ...STOP, command: `true || ${cmd}` }, /holds "\|"|holds "true"/],
      [{ ...STOP, command: `exit 0; ${cmd}` }, /holds ";"|holds "exit"/],
      [{ ...STOP, async: true }, /runs asynchronously/],
      [{ ...STOP, type: 'prompt' }, /its type is "prompt"/],
    ];
    for (const [entry, why] of cases) {
      const f = fixture({ '.claude/settings.json': claudeFile([entry]) });
      const { code, report } = f.json();
      expect(code, JSON.stringify(entry)).toBe(1);
      expect(f.host(report, 'claude')!.problems.join('\n')).toMatch(new RegExp(`cannot hold a stop: .*(${why.source})`));
    }
    const fine = fixture({ '.claude/settings.json': claudeFile([STOP]) });
    expect(fine.host(fine.json().report, 'claude')!.problems).toEqual([]);
  });

  it('a settings file it cannot read is a problem: malformed, a link, hard-linked', () => {
    const bad = fixture({ '.claude/settings.local.json': claudeFile([STOP]), '.claude/settings.json': '{"hooks": ' });
    const b = bad.json();
    expect(b.code).toBe(1);
    expect(b.report.problems.join('\n')).toMatch(/cannot read .*\.claude\/settings\.json: not valid settings: is not valid JSON/);
    // A broken Claude Code file is reported under Claude Code only, though Copilot CLI reads it too.
    expect(bad.host(b.report, 'copilot')).toBeUndefined();
  });

  it('the missing companions of a Claude Code install are notes', () => {
    const f = fixture({ '.claude/settings.local.json': claudeFile([STOP]) });
    const { code, report } = f.json();
    expect(code).toBe(0);
    expect(f.host(report, 'claude')!.warnings.join('\n')).toMatch(/no gate-check ConfigChange hook/);
    expect(f.host(report, 'claude')!.warnings.join('\n')).toMatch(/8 of gate-check's permissions\.deny rules are missing/);
  });

  it('reads only: no byte of the repository or the home directory changes', () => {
    const f = fixture({ '.claude/settings.json': claudeFile([STOP]), '.github/hooks/gate-check.json': copilotFile([copilotEntry()]), '.codex/hooks.json': '{' }, { '.gemini/settings.json': '{}' });
    const before = [snapshotTree(f.repo), snapshotTree(f.home)];
    f.run();
    f.run(['--json']);
    expect([snapshotTree(f.repo), snapshotTree(f.home)]).toEqual(before);
  });

  it('--json is one JSON document with every string sanitized; usage errors exit 2', () => {
    const f = fixture({ '.claude/settings.local.json': claudeFile([{ type: 'command', command: 'npx gate-check hook stop \u001b[2J\u202e' }]) });
    const r = f.run(['--json']);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stdout).not.toMatch(/[\u001b\u202e]|\\u001b|\\u202e/);
    expect(f.run(['extra']).code).toBe(2);
    expect(f.run(['--root', 'missing']).code).toBe(2);
    expect(f.run(['--json', '--json']).code).toBe(2);
    expect(f.run(['--help']).stdout).toMatch(/Reads only/);
  });
});
