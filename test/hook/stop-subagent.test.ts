// Claude Code's current Stop contract and sub-agents, through the real CLI: a stop while
// background_tasks or session_crons are pending is let through (the session wakes again) and
// not counted; SubagentStop of a sub-agent bound to a scope (`gate-check hook bind --session S
// --scope ID`) blocks until that scope's gates are met, in every host that has a sub-agent
// stop; an unbound sub-agent's stop is left to the main agent's.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { sha256Hex } from '../../lib/oracle/oracle.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, writeFiles, type CliResult } from '../helpers/cli.js';
import { answerOf, blockOf, claudePayload, codexPayload, copilotPascalPayload, copilotPayload, cursorPayload, noteOf, type Host } from './host-fixtures.js';

const MET = '- [x] M: wording approved\n  EVIDENCE: approved by Ada on 2026-11-02\n';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    stop: (host: Host, payload: Record<string, unknown>): CliResult => runCli(['hook', 'stop', '--host', host], { cwd: s.repo, env: s.env, input: JSON.stringify(payload) }),
    run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env }),
  };
}

/** The sandbox's repository committed to git, with a linked worktree beside it: returns the worktree. */
function withWorktree(s: { repo: string; home: string }): string {
  const git = (args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: s.repo, stdio: 'ignore' });
  git(['init', '-q']);
  git(['add', '-A']);
  git(['commit', '-qm', 'gates']);
  const wt = join(s.home, '..', 'wt');
  git(['worktree', 'add', '-q', wt]);
  return wt;
}

describe('Claude Code: background work that will wake the session', () => {
  // Found by an attack: pending work the session made itself (a background `tail -f
  // /dev/null`) let every stop through, uncounted. It is let through, counted, three times.
  it('pending background_tasks or session_crons let the stop through with a note of what is open, counted: three times, then the hook holds again', () => {
    const s = repo({ 'GATES.md': '- [ ] A: open\n' });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ backgroundTasks: [{ id: 'bash_1', command: 'npm test' }] }, /^gate-check: not holding this stop while 1 background task is pending \(the session wakes again when it finishes, and the hook looks again then\); 1 gate still open: GATES:A \(unchecked\)\.$/],
      [{ sessionCrons: [{ id: 'c1' }, { id: 'c2' }] }, /^gate-check: not holding this stop while 2 scheduled session prompts are pending \(the session wakes again when they finish/],
      [{ backgroundTasks: [{}], sessionCrons: [{}] }, /while 1 background task and 1 scheduled session prompt are pending/],
    ];
    for (const [extra, note] of cases) expect(noteOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, extra))))).toMatch(note);
    // The fourth to sixth stops without progress are held although work is still pending, the seventh is released.
    for (let i = 4; i <= 6; i++) {
      expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { backgroundTasks: [{ id: 'tail' }], active: true }))))).toMatch(/^gate-check: 1 gate is not met: GATES:A.*Background work is pending, but the last 3 stops were let through for it without progress on the gates/s);
    }
    expect(noteOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { backgroundTasks: [{ id: 'tail' }], active: true }))))).toMatch(/^gate-check: released: 1 gate still open: GATES:A \(unchecked\)\./);
  });

  it('with nothing open, pending work changes nothing: a silent allow', () => {
    const s = repo({ 'GATES.md': MET });
    expect(s.stop('claude', claudePayload(s.repo, { backgroundTasks: [{ id: 'x' }] })).stdout).toBe('');
  });

  it('empty or null lists are no pending work; anything but a list is refused', () => {
    const s = repo({ 'GATES.md': '- [ ] A: open\n' });
    expect(blockOf(answerOf('claude', s.stop('claude', { ...claudePayload(s.repo), background_tasks: null, session_crons: [] })))).toMatch(/GATES:A/);
    const noLists = claudePayload(s.repo);
    delete noLists.background_tasks;
    delete noLists.session_crons;
    expect(blockOf(answerOf('claude', s.stop('claude', noLists)))).toMatch(/GATES:A/); // before 2.1.145
    for (const bad of [{ background_tasks: 1 }, { session_crons: { id: 'c' } }]) {
      expect(blockOf(answerOf('claude', s.stop('claude', { ...claudePayload(s.repo), ...bad })))).toMatch(/not a Claude Code stop event: its (background_tasks|session_crons) is not a list/);
    }
  });
});

describe('SubagentStop: a sub-agent bound to a scope', () => {
  const files = {
    'GATES.md': '- [ ] R: root work\n',
    '.gate-check/api/GATES.md': '- [ ] X: the api scope\n',
    '.gate-check/web/GATES.md': '- [ ] W: the web scope\n',
  };

  it('an unbound sub-agent stop is let through (the main agent answers for every gate); the main stop still blocks', () => {
    const s = repo(files);
    expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo))))).toMatch(/^gate-check: 3 gates are not met/);
    // The private store now exists, in $HOME next to the repository: the directory above both
    // holds it, and is no repository to look for bindings in.
    expect(s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' })).stdout).toBe('');
  });

  it('`hook bind --session AGENT --scope api` holds that sub-agent until the api gates are met, whatever else is open', () => {
    const s = repo(files);
    const bound = s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']);
    expect(bound.code).toBe(0);
    expect(bound.stdout).toMatch(/^bound agent-1 to scope api in .*: its SubagentStop now waits for that scope's gates and dispatch waves \(in whichever worktree of this repository it works\)\n$/);
    const reason = blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' }))));
    expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:X \(unchecked\)\./);
    expect(reason).not.toMatch(/GATES:R|GATES:W/);
    // Another sub-agent of the same session is not bound.
    expect(s.stop('claude', claudePayload(s.repo, { agent: 'agent-2' })).stdout).toBe('');
    writeFileSync(join(s.repo, '.gate-check', 'api', 'GATES.md'), '- [x] X: the api scope\n  EVIDENCE: reviewed by Ada on 2026-11-02\n');
    expect(s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' })).stdout).toBe('');
    expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo))))).toMatch(/^gate-check: 2 gates are not met/);
  });

  // Round-38d F2: bound in the main checkout, a sub-agent working in a linked worktree of the
  // same repository was let through silently (the binding was keyed by the checkout's root).
  it('a binding holds in every worktree of the repository; a binding of an earlier version is still read', () => {
    const s = repo(files);
    const wt = withWorktree(s);
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    const inWorktree = runCli(['hook', 'stop', '--host', 'claude'], { cwd: wt, env: s.env, input: JSON.stringify(claudePayload(wt, { agent: 'agent-1' })) });
    expect(blockOf(answerOf('claude', inWorktree))).toMatch(/^gate-check: 1 gate is not met: GATES:X \(unchecked\)\./);
    // A file as an earlier version wrote it: by the checkout's root.
    const hooks = join(s.home, '.gate-check', 'hooks');
    for (const f of readdirSync(hooks).filter((n) => n.startsWith('bind-'))) rmSync(join(hooks, f));
    const legacy = `bind-${sha256Hex(realpathSync(s.repo)).slice(0, 16)}-${sha256Hex('agent-1').slice(0, 16)}.json`;
    writeFileSync(join(hooks, legacy), JSON.stringify({ root: realpathSync(s.repo), session: 'agent-1', scope: 'web' }), { mode: 0o600 });
    expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' }))))).toMatch(/^gate-check: 1 gate is not met: GATES:W/);
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--remove']).stdout).toMatch(/^removed the binding of agent-1 \(to scope web\)/);
    expect(readdirSync(hooks).filter((n) => n.startsWith('bind-'))).toEqual([]);
  });

  // Round-39t T2: Claude Code's worktree isolation stops a sub-agent with its cwd in the
  // worktree and CLAUDE_PROJECT_DIR at the main checkout; only the main checkout's copy of
  // the scope (met there) was read, and the stop was allowed while its own copy was open.
  // T3: with the worktree's `.git` moved away, no binding named it, and the stop went through.
  it("a bound sub-agent in a worktree is held by the worktree's copy of its scope, with the project directory elsewhere and with the worktree's .git moved away", () => {
    const s = repo({ ...files, '.gate-check/api/GATES.md': '- [x] X: the api scope\n  EVIDENCE: reviewed by Ada\n' });
    const wt = withWorktree(s);
    writeFileSync(join(wt, '.gate-check/api/GATES.md'), '- [ ] X: the api scope\n');
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    const stop = (env: Record<string, string>, host: Host = 'claude') =>
      runCli(['hook', 'stop', '--host', host], { cwd: wt, env: { ...s.env, ...env }, input: JSON.stringify(host === 'claude' ? claudePayload(wt, { agent: 'agent-1' }) : codexPayload(wt, { agent: 'agent-1' })) });
    const held = /^gate-check: 1 gate is not met: GATES:X \(unchecked\)\./;
    expect(blockOf(answerOf('claude', stop({ CLAUDE_PROJECT_DIR: s.repo })))).toMatch(held);
    expect(blockOf(answerOf('claude', stop({ CLAUDE_PROJECT_DIR: wt })))).toMatch(held);
    // The main checkout's own sub-agent is still decided by the main checkout's copy (met).
    expect(runCli(['hook', 'stop', '--host', 'claude'], { cwd: s.repo, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: JSON.stringify(claudePayload(s.repo, { agent: 'agent-1' })) }).stdout).toBe('');
    renameSync(join(wt, '.git'), join(s.home, '..', 'git-away'));
    expect(blockOf(answerOf('claude', stop({ CLAUDE_PROJECT_DIR: s.repo })))).toMatch(held);
    expect(blockOf(answerOf('codex', stop({}, 'codex')))).toMatch(held);
    // A folder that does not hold the bound scope keeps the rule of an unbound sub-agent.
    rmSync(join(wt, '.gate-check'), { recursive: true });
    expect(answerOf('codex', stop({}, 'codex'))).toEqual({ kind: 'allow', note: null });
  });

  it("a folder no binding names is read by the session's binding files, which must hold what their names say", () => {
    const s = repo(files);
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    // A copy of the repository that no binding names (as a checkout whose .git moved away is).
    const copy = join(s.home, '..', 'copy');
    writeFiles(copy, { '.gate-check/api/GATES.md': '- [ ] X: the api scope\n' });
    const stop = () => runCli(['hook', 'stop', '--host', 'codex'], { cwd: copy, env: s.env, input: JSON.stringify(codexPayload(copy, { agent: 'agent-1' })) });
    // Its copy, and the repository where the binding was made (both open).
    expect(blockOf(answerOf('codex', stop()))).toMatch(/^gate-check: 2 gates are not met: GATES:X \(unchecked\); \S+GATES:X \(unchecked\)\./);
    // Round-39v V3: a copy of the scope with the gate ticked, made outside the repository, was
    // read instead of the project directory's checkout, and the stop went through; it is read
    // as well, and the repository's open gate holds the stop.
    writeFiles(copy, { '.gate-check/api/GATES.md': '- [x] X: the api scope\n  EVIDENCE: checked by hand\n' });
    const withProject = runCli(['hook', 'stop', '--host', 'claude'], { cwd: copy, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: JSON.stringify(claudePayload(copy, { agent: 'agent-1' })) });
    expect(blockOf(answerOf('claude', withProject))).toMatch(/^gate-check: 1 gate is not met: \S*GATES:X \(unchecked\)\./);
    // Round-39w W4: with no project directory (Codex), the repository where the binding was
    // made is read with it.
    expect(blockOf(answerOf('codex', stop()))).toMatch(/^gate-check: 1 gate is not met: \S*GATES:X \(unchecked\)\./);
    writeFiles(copy, { '.gate-check/api/GATES.md': '- [ ] X: the api scope\n' });
    const hooks = join(s.home, '.gate-check', 'hooks');
    const [file] = readdirSync(hooks).filter((f) => f.startsWith('bind-'));
    const good = readFileSync(join(hooks, file!), 'utf8');
    // Named for this repository, naming another one; not JSON; a scope that is no scope.
    for (const text of [JSON.stringify({ repository: '/elsewhere', session: 'agent-1', scope: 'api' }), 'nope', good.replace('"api"', '"../web"')]) {
      writeFileSync(join(hooks, file!), text, { mode: 0o600 });
      expect(blockOf(answerOf('codex', stop()))).toMatch(/invalid scope binding/);
    }
    writeFileSync(join(hooks, file!), good, { mode: 0o600 });
    const session = sha256Hex('agent-1').slice(0, 16);
    for (let i = 0; i < 256; i++) writeFileSync(join(hooks, `bind-${i.toString(16).padStart(16, '0')}-${session}.json`), good, { mode: 0o600 });
    expect(blockOf(answerOf('codex', stop()))).toMatch(/holds 257 scope bindings of one session \(at most 256 are read\)/);
  });

  it("with the project directory's binding, only its scope is looked for in a folder no binding names", () => {
    // agent-1 is bound to api here, and to web in another repository; the copy holds a met web scope.
    const s = repo({ ...files, '.gate-check/web/GATES.md': '- [x] W: the web scope\n  EVIDENCE: checked by Ada\n' });
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    const other = join(s.home, '..', 'other');
    writeFiles(other, { '.gate-check/web/GATES.md': '- [ ] W: the web scope\n' });
    expect(runCli(['hook', 'bind', '--session', 'agent-1', '--scope', 'web'], { cwd: other, env: s.env }).code).toBe(0);
    const copy = join(s.home, '..', 'copy');
    writeFiles(copy, { '.gate-check/web/GATES.md': '- [x] W: the web scope\n  EVIDENCE: checked by hand\n' });
    const r = runCli(['hook', 'stop', '--host', 'claude'], { cwd: copy, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: JSON.stringify(claudePayload(copy, { agent: 'agent-1' })) });
    expect(blockOf(answerOf('claude', r))).toMatch(/^gate-check: 1 gate is not met: \S*GATES:X \(unchecked\)\./);
  });

  it('a sub-agent with a session of its own is bound by that session id', () => {
    const s = repo(files);
    expect(s.run(['hook', 'bind', '--session', 'child-session', '--scope', 'web']).code).toBe(0);
    expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { session: 'child-session', agent: 'whatever' }))))).toMatch(/^gate-check: 1 gate is not met: GATES:W/);
  });

  for (const [host, payload] of [
    ['codex', (cwd: string) => codexPayload(cwd, { agent: 'agent-1' })],
    ['copilot', (cwd: string) => copilotPayload(cwd, { agent: 'agent-1' })],
    ['copilot', (cwd: string) => copilotPascalPayload(cwd, { agent: 'agent-1' })],
    ['cursor', (cwd: string) => cursorPayload([cwd], { agent: 'agent-1' })],
  ] as Array<[Host, (cwd: string) => Record<string, unknown>]>) {
    it(`${host}: the same binding holds its sub-agent stop (${String(payload('/x').hook_event_name ?? 'subagentStop')}), in ${host}'s format`, () => {
      const s = repo(files);
      expect(answerOf(host, s.stop(host, payload(s.repo)))).toEqual({ kind: 'allow', note: null });
      expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
      expect(blockOf(answerOf(host, s.stop(host, payload(s.repo))))).toMatch(/^gate-check: 1 gate is not met: GATES:X/);
    });
  }

  it("a sub-agent's blocks are counted apart from its parent's, and released after six of its own", () => {
    const s = repo(files);
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    for (let i = 0; i < 6; i++) {
      blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' }))));
      blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo))));
    }
    expect(noteOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' }))))).toMatch(/^gate-check: released: 1 gate still open: GATES:X/);
    expect(noteOf(answerOf('claude', s.stop('claude', claudePayload(s.repo))))).toMatch(/^gate-check: released: 3 gates still open/);
  });

  it('a bound scope whose ledgers are gone blocks (nothing says its work is done); --remove unbinds', () => {
    const s = repo(files);
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    rmSync(join(s.repo, '.gate-check', 'api'), { recursive: true });
    expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' }))))).toMatch(
      /^gate-check: this sub-agent is bound to scope api, which has no ledger and no dispatch wave in .*: nothing says its work is done\./,
    );
    const removed = s.run(['hook', 'bind', '--session', 'agent-1', '--remove']);
    expect(removed.stdout).toMatch(/^removed the binding of agent-1 \(to scope api\)/);
    expect(s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' })).stdout).toBe('');
  });

  it('a binding file that cannot be trusted blocks the sub-agent stop', () => {
    const s = repo(files);
    expect(s.run(['hook', 'bind', '--session', 'agent-1', '--scope', 'api']).code).toBe(0);
    const hooks = join(s.home, '.gate-check', 'hooks');
    const [file] = readdirSync(hooks).filter((f) => f.startsWith('bind-'));
    for (const text of ['{"root":"/elsewhere","session":"agent-1","scope":"api"}', '{"repository":"/elsewhere","session":"agent-1","scope":"api"}', 'nope', JSON.stringify({ root: s.repo, session: 'agent-1', scope: '../web' })]) {
      writeFileSync(join(hooks, file!), text, { mode: 0o600 });
      expect(blockOf(answerOf('claude', s.stop('claude', claudePayload(s.repo, { agent: 'agent-1' }))))).toMatch(/invalid scope binding/);
    }
  });

  it('bind refuses a scope that does not exist, and needs --session and one of --scope or --remove (exit 2)', () => {
    const s = repo(files);
    const none = s.run(['hook', 'bind', '--session', 'a', '--scope', 'nope']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/there is no scope nope in .* \(no \.gate-check\/nope\/ and no dispatch wave\)/);
    expect(s.run(['hook', 'bind', '--scope', 'api']).code).toBe(2);
    expect(s.run(['hook', 'bind', '--session', 'a']).code).toBe(2);
    expect(s.run(['hook', 'bind', '--session', 'a', '--scope', 'api', '--remove']).code).toBe(2);
    expect(s.run(['hook', 'bind', '--session', 'a', '--scope', '../api']).code).toBe(2);
    expect(readdirSync(join(s.home)).includes('.gate-check') ? readdirSync(join(s.home, '.gate-check', 'hooks')).filter((f) => f.startsWith('bind-')) : []).toEqual([]);
  });
});
