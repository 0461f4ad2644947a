// `gate-check hook stop --host claude|codex|copilot|gemini|cursor` through the real CLI, fed
// each host's documented stop payload (host-fixtures.ts) and read back the way that host reads
// its answer: the block format (Claude Code, Codex, Copilot: decision "block"; Gemini: "deny";
// Cursor: followup_message), the allow format, notes, and always exit 0, never exit 2. A
// payload that does not match the host blocks (fails closed) with a message that says so.
import { closeSync, ftruncateSync, linkSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HOOK_DEADLINE_MS } from '../../lib/hook/deadline.js';
import { BIN, runCli, sandbox, writeFiles, type CliResult } from '../helpers/cli.js';
import { defOf } from '../helpers/ledger.js';
import {
  HOSTS,
  answerOf,
  blockOf,
  claudePayload,
  codexPayload,
  copilotPascalPayload,
  copilotPayload,
  cursorPayload,
  geminiPayload,
  noteOf,
  payloadFor,
  type Host,
} from './host-fixtures.js';

const OPEN = '- [ ] A: the importer handles empty files\n  CHECK: echo ok\n  EXPECT: ok\n';
const MET = '- [x] M: wording approved\n  EVIDENCE: approved by Ada on 2026-11-02\n';
const ABANDONED = MET + '- [ ] B: the Windows build\n\nABANDON: B no Windows machine in this project\n';

const TITLE: Record<Host, string> = { claude: 'Claude Code', codex: 'Codex', copilot: 'GitHub Copilot', gemini: 'Gemini CLI', cursor: 'Cursor' };

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    stop: (host: Host, input: string, env: NodeJS.ProcessEnv = {}): CliResult => runCli(['hook', 'stop', '--host', host], { cwd: s.repo, env: { ...s.env, ...env }, input }),
  };
}

describe('each host gets its own answer format, always with exit 0', () => {
  const SILENT_ALLOW: Record<Host, string> = { claude: '', codex: '{}\n', copilot: '{"decision":"allow"}\n', gemini: '{}\n', cursor: '{}\n' };
  const BLOCK_KEY: Record<Host, [string, string]> = {
    claude: ['decision', 'block'],
    codex: ['decision', 'block'],
    copilot: ['decision', 'block'],
    gemini: ['decision', 'deny'],
    cursor: ['followup_message', ''],
  };

  for (const host of HOSTS) {
    it(`${host}: an unmet gate blocks in ${TITLE[host]}'s format (never exit 2)`, () => {
      const s = repo({ 'GATES.md': OPEN });
      const r = s.stop(host, payloadFor(host, s.repo));
      expect(r.code).toBe(0);
      const reason = blockOf(answerOf(host, r));
      expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\. Next: run `[^`]*bin\/gate-check\.js'?`: it re-runs every approved gate/);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      const [key, value] = BLOCK_KEY[host];
      if (host === 'cursor') expect(doc).toEqual({ followup_message: reason });
      else expect(doc).toEqual({ [key]: value, reason });
      expect(r.stderr).toBe('');
    });

    it(`${host}: every gate met allows in ${TITLE[host]}'s format, silently`, () => {
      const s = repo({ 'GATES.md': MET });
      const r = s.stop(host, payloadFor(host, s.repo));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(SILENT_ALLOW[host]);
      expect(r.stderr).toBe('');
      expect(answerOf(host, r)).toEqual({ kind: 'allow', note: null });
    });

    it(`${host}: an allow with a note (a hand-off) is ${host === 'copilot' || host === 'cursor' ? 'an allow on stdout and the note on stderr' : 'a systemMessage'}`, () => {
      const s = repo({ 'GATES.md': ABANDONED });
      const r = s.stop(host, payloadFor(host, s.repo));
      const note = noteOf(answerOf(host, r));
      expect(note).toMatch(/^gate-check: HANDOFF REQUIRED for GATES:B: a person must take these over\.$/);
      expect(note).not.toContain('no Windows machine');
      if (host === 'copilot' || host === 'cursor') expect(r.stdout).toBe(SILENT_ALLOW[host]);
    });

    it(`${host}: released after six blocks without progress, below every host's cap of 8, saying "released: N gates still open"`, () => {
      const s = repo({ 'GATES.md': OPEN + '- [ ] C: second\n' });
      for (let i = 1; i <= 6; i++) blockOf(answerOf(host, s.stop(host, payloadFor(host, s.repo, { active: i > 1 }))));
      const r = s.stop(host, payloadFor(host, s.repo, { active: true }));
      const note = noteOf(answerOf(host, r));
      expect(note).toMatch(/^gate-check: released: 2 gates still open: GATES:A \(unchecked\); GATES:C \(unchecked\)\. The hook let the agent stop after 6 stops without progress; a person needs to look at this\.$/);
    });
  }

  it('the hook answers within its own deadline, well inside the shortest host timeout (Copilot: 30 s, and a timeout fails open)', () => {
    expect(HOOK_DEADLINE_MS).toBeLessThanOrEqual(30_000 / 2);
    // 18 GiB (hard links of one sparse file) to hash: far more than the deadline allows.
    const s = repo({});
    onTestFinished(() => rmSync(dirname(s.repo), { recursive: true, force: true }));
    mkdirSync(join(s.repo, 'big'));
    const fd = openSync(join(s.repo, 'big', 'f000.bin'), 'w');
    ftruncateSync(fd, 60 * 2 ** 20);
    closeSync(fd);
    for (let i = 1; i < 300; i++) linkSync(join(s.repo, 'big', 'f000.bin'), join(s.repo, 'big', `f${String(i).padStart(3, '0')}.bin`));
    const body = '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  DEPENDS: big/*\n';
    writeFileSync(join(s.repo, 'GATES.md'), `${body}  EVIDENCE: exit=0; def=${defOf(body, 'A')}; match=${'0'.repeat(12)}; receipt=${'0'.repeat(12)}\n`);
    const t0 = Date.now();
    const p = spawnSync(process.execPath, [BIN, 'hook', 'stop', '--host', 'copilot'], { cwd: s.repo, env: s.env, input: payloadFor('copilot', s.repo), encoding: 'utf8', timeout: 40_000 });
    const ms = Date.now() - t0;
    const reason = blockOf(answerOf('copilot', { code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr }));
    expect(reason).toMatch(/^gate-check: verification was incomplete: the Stop hook's 10 s limit ran out/);
    expect(ms).toBeLessThan(HOOK_DEADLINE_MS + 1_000);
  }, 60_000);
});

describe('a payload that does not match the host is refused: a block that says so, even when every gate is met', () => {
  const PAYLOADS: Record<string, (cwd: string) => Record<string, unknown>> = {
    claude: (cwd) => claudePayload(cwd),
    codex: (cwd) => codexPayload(cwd),
    copilot: (cwd) => copilotPayload(cwd),
    'copilot (PascalCase Stop)': (cwd) => copilotPascalPayload(cwd),
    gemini: (cwd) => geminiPayload(cwd),
    cursor: (cwd) => cursorPayload([cwd]),
  };
  // Claude Code's snake_case Stop payload is shared by design: Copilot CLI and VS Code run hooks
  // from .claude/settings.json and send it, and Codex's is a superset; the answers agree.
  const ACCEPTS: Record<Host, string[]> = {
    claude: ['claude', 'codex', 'copilot (PascalCase Stop)'],
    codex: ['codex'],
    copilot: ['copilot', 'copilot (PascalCase Stop)', 'claude', 'codex'],
    gemini: ['gemini'],
    cursor: ['cursor'],
  };
  const LOOKS: Record<string, string | null> = {
    claude: 'Claude Code',
    codex: 'Codex',
    copilot: 'GitHub Copilot CLI',
    'copilot (PascalCase Stop)': 'GitHub Copilot CLI (its Claude-compatible Stop payload)',
    gemini: 'Gemini CLI',
    cursor: 'Cursor',
  };

  for (const host of HOSTS) {
    for (const [from, make] of Object.entries(PAYLOADS)) {
      const accepted = ACCEPTS[host].includes(from);
      it(`--host ${host} ${accepted ? 'accepts' : 'refuses'} ${from}'s payload`, () => {
        const s = repo({ 'GATES.md': MET });
        const a = answerOf(host, s.stop(host, JSON.stringify(make(s.repo))));
        if (accepted) {
          expect(a).toEqual({ kind: 'allow', note: null });
          return;
        }
        const reason = blockOf(a);
        const title = TITLE[host];
        expect(reason).toContain(`gate-check: the hook input is not a ${title} stop event`);
        if (!LOOKS[from]!.startsWith(title)) expect(reason).toContain(`(it looks like ${LOOKS[from]}'s)`);
        expect(reason).toContain(`This hook is installed as \`gate-check hook stop --host ${host}\` (${title}), so no gate was checked and the stop is not let through.`);
      });
    }
  }

  for (const host of HOSTS) {
    it(`--host ${host}: no input, not JSON, not an object, a field of the wrong type: refused in ${TITLE[host]}'s format`, () => {
      const s = repo({ 'GATES.md': MET });
      const wrongType: Record<Host, Record<string, unknown>> = {
        claude: { ...claudePayload(s.repo), background_tasks: 'none' },
        codex: { ...codexPayload(s.repo), turn_id: 7 },
        copilot: { ...copilotPayload(s.repo), sessionId: '' },
        gemini: { ...geminiPayload(s.repo), stop_hook_active: 'yes' },
        cursor: { ...cursorPayload([s.repo]), loop_count: -1 },
      };
      const problems: Array<[string, RegExp]> = [
        ['', /the hook input is empty/],
        ['{"session_id":', /the hook input is not JSON/],
        ['[1]', /the hook input is a JSON array, not an object/],
        [JSON.stringify(wrongType[host]), /background_tasks is not a list|turn_id is not a string|sessionId is empty|stop_hook_active is not true or false|loop_count is not a count/],
        [JSON.stringify({ ...JSON.parse(payloadFor(host, s.repo)), cwd: 'relative/dir', workspace_roots: ['relative/dir'] }), /is not an absolute path/],
      ];
      for (const [input, problem] of problems) {
        const reason = blockOf(answerOf(host, s.stop(host, input)));
        expect(reason).toMatch(problem);
        expect(reason).toContain('no gate was checked');
      }
    });
  }

  it("another event of the same host (the hook installed under the wrong event) is refused", () => {
    const s = repo({ 'GATES.md': MET });
    const other: Array<[Host, Record<string, unknown>, RegExp]> = [
      ['claude', { ...claudePayload(s.repo), hook_event_name: 'PreToolUse' }, /its hook_event_name is not Stop or SubagentStop/],
      ['codex', { ...codexPayload(s.repo), hook_event_name: 'UserPromptSubmit' }, /its hook_event_name is not Stop or SubagentStop/],
      ['copilot', { ...copilotPascalPayload(s.repo), hook_event_name: 'PreToolUse' }, /its hook_event_name is not Stop or SubagentStop/],
      ['gemini', { ...geminiPayload(s.repo), hook_event_name: 'BeforeAgent' }, /its hook_event_name is not AfterAgent/],
      ['cursor', { ...cursorPayload([s.repo]), hook_event_name: 'afterAgentResponse' }, /its hook_event_name is not stop or subagentStop/],
    ];
    for (const [host, payload, problem] of other) {
      const reason = blockOf(answerOf(host, s.stop(host, JSON.stringify(payload))));
      expect(reason).toContain(`the hook input is not a ${TITLE[host]} stop event`);
      expect(reason).toMatch(problem);
    }
  });

  it('a hook command without --host, or with one it does not know, blocks in the shape Claude Code, Codex, Copilot and Gemini read', () => {
    const s = repo({ 'GATES.md': MET });
    for (const [args, problem] of [
      [[], /no --host \(one of claude, codex, copilot, gemini, cursor\)/],
      [['--host', 'windsurf'], /unknown --host windsurf/],
      [['--host', 'claude', '--host', 'codex'], /--host given twice/],
      [['--host'], /--host needs a value/],
      [['--hots', 'claude'], /unexpected argument --hots/],
    ] as Array<[string[], RegExp]>) {
      const r = runCli(['hook', 'stop', ...args], { cwd: s.repo, env: s.env, input: payloadFor('claude', s.repo) });
      expect(blockOf(answerOf('claude', r))).toMatch(problem);
      expect(r.stderr).toMatch(/the Stop hook is misconfigured/);
    }
    const alias = runCli(['hook', 'claude-stop', '--host', 'codex'], { cwd: s.repo, env: s.env, input: payloadFor('claude', s.repo) });
    expect(blockOf(answerOf('claude', alias))).toMatch(/hook claude-stop takes no --host/);
    // `--tag` marks an installed entry (the exec form has no shell comment) and changes nothing.
    expect(runCli(['hook', 'stop', '--host', 'codex', '--tag', 'gate-check'], { cwd: s.repo, env: s.env, input: payloadFor('codex', s.repo) }).stdout).toBe('{}\n');
  });
});

describe('host details from the documented payloads', () => {
  it('Cursor on Windows starts the payload with a UTF-8 byte order mark: it is read', () => {
    const s = repo({ 'GATES.md': OPEN });
    expect(blockOf(answerOf('cursor', s.stop('cursor', '\uFEFF' + payloadFor('cursor', s.repo))))).toMatch(/^gate-check: 1 gate is not met: GATES:A/);
  });

  it('Cursor: a loop the user aborted or that ended in an error is let through (a follow-up would restart it against the user or loop on the error)', () => {
    const s = repo({ 'GATES.md': OPEN });
    for (const status of ['aborted', 'error']) expect(s.stop('cursor', JSON.stringify(cursorPayload([s.repo], { status }))).stdout).toBe('{}\n');
    expect(blockOf(answerOf('cursor', s.stop('cursor', JSON.stringify(cursorPayload([s.repo], { status: 'completed' })))))).toMatch(/GATES:A/);
    // Any other status is checked like "completed" (found by an attack: they all let the stop through).
    for (const status of ['', 'Completed', 'stopped', 'ABORTED']) {
      expect(blockOf(answerOf('cursor', s.stop('cursor', JSON.stringify(cursorPayload([s.repo], { status })))))).toMatch(/GATES:A/);
    }
  });

  it('Cursor: every workspace root is held, not just the first', () => {
    const s = repo({ 'GATES.md': MET });
    const other = repo({ 'GATES.md': OPEN });
    expect(blockOf(answerOf('cursor', s.stop('cursor', JSON.stringify(cursorPayload([s.repo, other.repo])))))).toMatch(/1 gate is not met: .*GATES:A \(unchecked\)/);
  });

  it('Gemini: $GEMINI_PROJECT_DIR names the project, as $CLAUDE_PROJECT_DIR does for Claude Code', () => {
    const s = repo({ 'GATES.md': OPEN, 'sub/x.txt': '' });
    const elsewhere = repo({});
    const input = JSON.stringify(geminiPayload(elsewhere.repo));
    expect(answerOf('gemini', s.stop('gemini', input))).toEqual({ kind: 'allow', note: null });
    expect(blockOf(answerOf('gemini', s.stop('gemini', input, { GEMINI_PROJECT_DIR: s.repo })))).toMatch(/GATES:A/);
  });

  it('a prototype key in the payload is data, never a prototype', () => {
    const s = repo({ 'GATES.md': OPEN });
    const input = payloadFor('codex', s.repo).replace(/^\{/, '{"__proto__":{"turn_id":"x"},');
    expect(blockOf(answerOf('codex', s.stop('codex', input)))).toMatch(/GATES:A/);
    const noTurn = JSON.stringify({ ...codexPayload(s.repo), turn_id: undefined }).replace(/^\{/, '{"__proto__":{"turn_id":"x"},');
    expect(blockOf(answerOf('codex', s.stop('codex', noTurn)))).toMatch(/not a Codex stop event \(it looks like Claude Code.s\): it has no turn_id/);
  });
});
