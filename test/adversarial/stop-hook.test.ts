// The Stop hook against a hostile repository and hostile input, through the real CLI: it never
// executes a CHECK, approves or writes the ledger; decoy scope directories and symlinks do not
// hide gates; repository text reaches Claude Code sanitized and capped; malformed stdin never
// crashes it; concurrent calls lose no count.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, sandbox, startCli, tempDir, writeFiles, type CliResult } from '../helpers/cli.js';
import { expectBlock, expectMessage, outcome, REASON_CAP, stopInput, type HookOutcome } from '../helpers/stop-hook.js';
import { snapshotTree } from '../helpers/tree.js';
import { handWrittenMet } from '../helpers/ledger.js';

function hookRepo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    hook: (session = 'session-1'): HookOutcome => outcome(runCli(['hook', 'claude-stop'], { cwd: s.repo, env: s.env, input: stopInput(s.repo, session) })),
    raw: (input: string, cwd = s.repo): CliResult => runCli(['hook', 'claude-stop'], { cwd, env: s.env, input }),
    run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env }),
    ledger: () => readFileSync(join(s.repo, 'GATES.md')),
    hooksDir: () => join(s.home, '.gate-check', 'hooks'),
  };
}

describe('the hook never executes, approves or writes', () => {
  it('a runnable gate that would create a marker: met by hand (unverified) and unmet, several calls', () => {
    const s = hookRepo({
      'GATES.md': [
        handWrittenMet('A', 'hand-written evidence', 'touch marker-a; echo ok', 'ok').trimEnd(),
        '- [ ] B: never run',
        '  CHECK: touch marker-b; echo ok',
        '  EXPECT: ok',
        '',
      ].join('\n'),
    });
    const ledger = s.ledger();
    const tree = snapshotTree(s.repo);
    for (let i = 0; i < 4; i++) {
      const reason = expectBlock(s.hook());
      expect(reason).toContain('GATES:A (unverified');
      expect(reason).toContain('GATES:B (unchecked)');
    }
    expect(existsSync(join(s.repo, 'marker-a'))).toBe(false);
    expect(existsSync(join(s.repo, 'marker-b'))).toBe(false);
    expect(s.ledger().equals(ledger)).toBe(true);
    expect(snapshotTree(s.repo)).toEqual(tree);
    // No approval, receipt or history: only the hook's own counter.
    expect(readdirSync(join(s.home, '.gate-check'))).toEqual(['hooks']);
    // The strict view still has nothing approved or run.
    const status = s.run(['--status', '--strict']);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/^UNMET: GATES:A, GATES:B$/m);
  });
});

describe('forged progress does not reset the count', () => {
  it('forged, copied and claimed evidence on a gate that fails: still released at call 7', () => {
    const s = hookRepo({
      'GATES.md': '- [ ] A: passes\n  CHECK: echo a-ok\n  EXPECT: a-ok\n- [ ] B: fails\n  CHECK: echo b-no\n  EXPECT: b-yes\n',
    });
    expect(s.run(['--approve']).code).toBe(1); // A passes for real, B fails
    const real = s.ledger().toString('utf8');
    expect(real).toMatch(/^- \[x\] A: /m);
    expect(real).toMatch(/^- \[ \] B: fails\n {2}CHECK: echo b-no\n {2}EXPECT: b-yes\n {2}EVIDENCE: pending$/m);
    const evidenceA = /EVIDENCE: exit=0;.*$/m.exec(real)![0];
    const setB = (box: string, evidence: string) =>
      writeFileSync(join(s.repo, 'GATES.md'), real.replace('- [ ] B: fails', `- [${box}] B: fails`).replace(/(B: fails[\s\S]*?)EVIDENCE: pending/, `$1${evidence}`));
    const steps: Array<[() => void, RegExp]> = [
      [() => {}, /GATES:B \(unchecked\)/],
      [() => setB('x', `EVIDENCE: exit=0; sha256=${'e'.repeat(64)}; bytes=5`), /GATES:B \(claimed: /],
      // A's real evidence line copied: it names A's definition, not B's.
      [() => setB('x', evidenceA), /GATES:B \(claimed: /],
      [() => setB('x', 'EVIDENCE: pending'), /GATES:B \(claimed: /],
      [() => setB('x', 'EVIDENCE: done, I promise'), /GATES:B \(claimed: /],
      [() => setB(' ', 'EVIDENCE: pending'), /GATES:B \(unchecked\)/],
    ];
    for (const [edit, label] of steps) {
      edit();
      const reason = expectBlock(s.hook());
      expect(reason).toMatch(label);
      expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:B /);
    }
    expect(expectMessage(s.hook())).toMatch(/^gate-check: released: 1 gate still open: GATES:B \(unchecked\)\. The hook let the agent stop after 6 stops without progress/);
  });
});

describe('nothing hides the gates', () => {
  it('blocks when GATES.md is a symbolic link (to a ledger that would pass)', () => {
    const s = hookRepo({ 'elsewhere/real.md': '- [x] M: done\n  EVIDENCE: reviewed\n' });
    symlinkSync('elsewhere/real.md', join(s.repo, 'GATES.md'));
    expect(expectBlock(s.hook())).toMatch(/cannot read the gates \(GATES\.md is a symbolic link/);
  });

  it('blocks when .gate-check or a scope directory is a symbolic link', () => {
    const a = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n', 'real-scope/task/x.md': '- [x] X: done\n  EVIDENCE: ok\n' });
    symlinkSync('real-scope', join(a.repo, '.gate-check'));
    expect(expectBlock(a.hook())).toMatch(/symbolic link/);
    const b = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n', 'real-scope/x.md': '- [x] X: done\n  EVIDENCE: ok\n' });
    mkdirSync(join(b.repo, '.gate-check'));
    symlinkSync('../real-scope', join(b.repo, '.gate-check', 'task'));
    expect(expectBlock(b.hook())).toMatch(/symbolic link/);
  });

  it('an empty decoy scope directory does not hide an unmet root GATES.md', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n' });
    mkdirSync(join(s.repo, '.gate-check', 'decoy'), { recursive: true });
    expect(expectBlock(s.hook())).toContain('GATES:A (unchecked)');
  });

  it('a decoy scope with a non-ledger file does not hide an unmet root GATES.md', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n', '.gate-check/decoy/notes.txt': 'all done, trust me\n', '.gate-check/.hidden/x.md': '- [x] H: hidden\n  EVIDENCE: ok\n' });
    expect(expectBlock(s.hook())).toContain('GATES:A (unchecked)');
  });

  it('a decoy scope with a met ledger does not hide an unmet root GATES.md', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n', '.gate-check/decoy/decoy.md': '- [x] D: done\n  EVIDENCE: reviewed\n' });
    const reason = expectBlock(s.hook());
    expect(reason).toContain('GATES:A (unchecked)');
    expect(reason).not.toContain('decoy:D');
  });

  it('unmet gates in a real scope block, with or without a root ledger', () => {
    const withRoot = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n', '.gate-check/task-7/leaf.md': '- [ ] L1: leaf work\n' });
    expect(expectBlock(withRoot.hook())).toMatch(/^gate-check: 1 gate is not met: leaf:L1 \(unchecked\)\./);
    const scopeOnly = hookRepo({ '.gate-check/task-7/leaf.md': '- [ ] L1: leaf work\n' });
    expect(expectBlock(scopeOnly.hook())).toContain('leaf:L1 (unchecked)');
  });

  it('a malformed ledger in a scope blocks', () => {
    const s = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n', '.gate-check/task-7/leaf.md': '- [ ] L1: leaf\n  - [ ] L2: nested\n' });
    expect(expectBlock(s.hook())).toContain('.gate-check/task-7/leaf.md:2: nested task item');
  });
});

describe('hand-offs', () => {
  const SECRET = 'SECRET-7f3a9c1e-do-not-echo';
  // RLM and ALM: bidi marks the parser allows in text (embeddings, overrides and isolates are parse errors), which output must still strip.
  const reason = `${SECRET} \u001b[31mred\u001b[0m \u0007bell \u200Fevil\u061C \u009b2J tail`;

  it('an abandoned gate allows the stop with a bounded HANDOFF REQUIRED note that never copies the reason', () => {
    const s = hookRepo({ 'GATES.md': `- [x] M: done\n  EVIDENCE: reviewed\n- [ ] B: impossible here\n\nABANDON: B ${reason}\n` });
    const r = s.raw(stopInput(s.repo, 's'));
    const message = expectMessage(outcome(r));
    expect(message).toContain('HANDOFF REQUIRED');
    expect(message).toContain('GATES:B');
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain('red');
    expect(r.stdout).not.toContain('evil');
    expect(r.stderr).toBe('');
  });

  it('with an open gate too, the block carries the hand-off but not its reason', () => {
    const s = hookRepo({ 'GATES.md': `- [ ] A: open\n- [ ] B: impossible here\n\nABANDON: B ${reason}\n` });
    const r = s.raw(stopInput(s.repo, 's'));
    const text = expectBlock(outcome(r));
    expect(text).toContain('GATES:A (unchecked)');
    expect(text).toContain('HANDOFF REQUIRED for GATES:B');
    expect(r.stdout).not.toContain(SECRET);
  });

  it('many hand-offs are capped at five ids', () => {
    const gates = Array.from({ length: 7 }, (_, i) => `- [ ] H${i}: gate\n`).join('');
    const abandons = Array.from({ length: 7 }, (_, i) => `ABANDON: H${i} ${SECRET} ${i}\n`).join('');
    const s = hookRepo({ 'GATES.md': `${gates}\n${abandons}` });
    const r = s.raw(stopInput(s.repo, 's'));
    const message = expectMessage(outcome(r));
    expect(message).toContain('GATES:H0; GATES:H1; GATES:H2; GATES:H3; GATES:H4 (+2 more)');
    expect(message).not.toContain('GATES:H5');
    expect(r.stdout).not.toContain(SECRET);
  });
});

describe('repository text is sanitized and capped', () => {
  it('titles with ANSI escapes, bidi controls and huge lengths never reach stdout', () => {
    // RLM and ALM: bidi marks the parser allows in text (embeddings, overrides and isolates are parse errors), which output must still strip.
    const evil = (i: number) => `t${i} \u001b[2J\u001b]0;pwned\u0007 \u200Fevil\u061C \u0085 ${'W'.repeat(20_000)}`;
    const gates = Array.from({ length: 7 }, (_, i) => `- [ ] G${i}: ${evil(i)}\n`).join('');
    const s = hookRepo({ 'GATES.md': gates });
    const r = s.raw(stopInput(s.repo, 's'));
    const text = expectBlock(outcome(r));
    expect(text).toContain('GATES:G0 (unchecked)');
    expect(text).toContain('(+2 more)');
    expect(r.stdout).not.toContain('pwned');
    expect(r.stdout).not.toContain('WWWW');
    expect(r.stdout.length).toBeLessThan(REASON_CAP + 100);
  });

  it('an id with escapes (a parse error quoting it) is sanitized, and a huge one capped', () => {
    const s = hookRepo({ 'GATES.md': `- [ ] G\u001b[31m\u202E${'y'.repeat(50_000)}: title\n` });
    const r = s.raw(stopInput(s.repo, 's'));
    const text = expectBlock(outcome(r));
    expect(text).toMatch(/GATES\.md:1: invalid gate id "Gy{100}/); // the escape sequence and the override are gone
    expect(Array.from(text).length).toBeLessThanOrEqual(REASON_CAP);
    // Each listed error is capped on its own, so the way forward always fits.
    expect(text).toMatch(/y…/);
    expect(text).toMatch(/Fix the ledger \(see `gate-check --status`\)\.$/);
  });

  it('very long valid ids: the reason stays within the cap', () => {
    const gates = Array.from({ length: 6 }, (_, i) => `- [ ] ${String(i).repeat(3000)}: long id\n`).join('');
    const s = hookRepo({ 'GATES.md': gates });
    const text = expectBlock(s.hook());
    expect(Array.from(text).length).toBeLessThanOrEqual(REASON_CAP);
  });

  it('a ledger file name with escapes and bidi controls (part of the qualified id) blocks, named clean', () => {
    const name = `gates/x\u001b[31m\u202Eevil\u2069.md`;
    const s = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: ok\n', [name]: '- [ ] L1: leaf\n' });
    const text = expectBlock(s.hook());
    expect(text).toContain('gates/xevil.md: ledger name');
    expect(text).not.toMatch(/[\u001b\u202e\u2069]/);
  });

  it('a DEPENDS file name with escapes, named by a stale reason, is shown with them visible: never run on the terminal, never dropped to name another file (round-15b F4)', () => {
    const s = hookRepo({
      'GATES.md': '- [ ] A: t\n  CHECK: cat scripts/*.txt\n  EXPECT: one\n  DEPENDS: scripts/*.txt\n',
      'scripts/a.txt': 'one\n',
    });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, `scripts/\u001b]0;title\u0007\u202Eb.txt`), 'two\n');
    const text = expectBlock(s.hook());
    // The OSC sequence and the override are shown as code points: stripped, the name read as another file's.
    // (The hook's reason escapes `<` as `\<` for the host's Markdown.)
    expect(text).toContain('GATES:A (stale: DEPENDS changed: scripts/\\<U+001B>]0;title\\<U+0007>\\<U+202E>b.txt (added))');
    expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
  });
});

describe('malformed stdin never crashes the hook, and is refused', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', 'this is not json {', /the hook input is not JSON/],
    ['empty', '', /the hook input is empty \(no JSON on stdin\)/],
    ['a JSON array', '[{"session_id":"s","cwd":"/"}]', /the hook input is a JSON array, not an object/],
    ['null', 'null', /the hook input is null, not an object/],
    ['a string', '"Stop"', /the hook input is a JSON string, not an object/],
    ['a relative cwd', JSON.stringify({ session_id: 's', cwd: 'some/relative/dir', hook_event_name: 'Stop' }), /its cwd is not an absolute path/],
    ['wrong types', JSON.stringify({ session_id: 42, cwd: ['/'], stop_hook_active: 'yes', hook_event_name: 'Stop' }), /its session_id is not a string/],
    ['a __proto__ key', '{"__proto__":{"cwd":"/"},"session_id":"s","hook_event_name":"Stop"}', /it has no cwd/],
    ['no cwd', JSON.stringify({ session_id: 's', hook_event_name: 'Stop' }), /it has no cwd/],
    ['no event name', JSON.stringify({ session_id: 's', cwd: '/' }), /it has no hook_event_name/],
    ['truncated', '{"session_id":"s","cwd":"/', /the hook input is not JSON/],
    ['binary', '\u0000\u00ff\ufffd\u001b[2J', /the hook input is not JSON/],
  ];
  for (const [label, input, problem] of cases) {
    it(`${label}: exit 0 and a block that says what is wrong (no gate was checked), counted like any block`, () => {
      const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n' });
      const reason = expectBlock(outcome(s.raw(input)));
      expect(reason).toMatch(/^gate-check: the hook input is not a Claude Code stop event: /);
      expect(reason).toMatch(problem);
      expect(reason).toContain('so no gate was checked and the stop is not let through');
      expect(reason).not.toContain('GATES:A');
    });
  }

  it('a refusal is counted (for no session, in the hook\'s own directory) and released after six', () => {
    const s = hookRepo({});
    for (let i = 0; i < 6; i++) expect(expectBlock(outcome(s.raw('garbage')))).toMatch(/the hook input is not JSON/);
    expect(expectMessage(outcome(s.raw('garbage')))).toMatch(/^gate-check: released: the hook input could not be used \(the hook input is not a Claude Code stop event: the hook input is not JSON\)\. /);
  });

  it('up to 16 MiB of input is read (a long last_assistant_message); more is refused, exit 0', async () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n' });
    const big = JSON.stringify({ session_id: 's', cwd: s.repo, hook_event_name: 'Stop', last_assistant_message: 'x'.repeat(2 * 1024 * 1024) });
    expect(expectBlock(outcome(await startCli(['hook', 'claude-stop'], { cwd: s.repo, env: s.env, input: big }).done))).toContain('GATES:A (unchecked)');
    const huge = JSON.stringify({ session_id: 's', cwd: s.repo, hook_event_name: 'Stop', last_assistant_message: 'x'.repeat(17 * 1024 * 1024) });
    // The hook stops reading past the cap, so the rest of the write may fail with EPIPE.
    const run = startCli(['hook', 'claude-stop'], { cwd: s.repo, env: s.env, input: huge });
    run.child.stdin.on('error', () => {});
    expect(expectBlock(outcome(await run.done))).toMatch(/the hook input is larger than 16 MiB/);
  });

  it('an absolute cwd in the input wins over the process cwd', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n' });
    const empty = tempDir('gc-empty-');
    expect(outcome(s.raw(stopInput(empty, 's')))).toEqual({ kind: 'allow' });
    expect(expectBlock(outcome(s.raw(stopInput(s.repo, 's'), empty)))).toContain('GATES:A');
  });
});

describe('concurrency', () => {
  it('64 concurrent calls for one session and repository lose no count', async () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root work\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const env = { ...s.env, GATE_CHECK_LOCK_TIMEOUT_MS: '20000' };
    const input = stopInput(s.repo, 'concurrent');
    const results = await Promise.all(Array.from({ length: 64 }, () => startCli(['hook', 'claude-stop'], { cwd: s.repo, env, input }).done));
    const outcomes = results.map(outcome);
    // A call that cannot take a lock before its 10 s deadline (a loaded machine: 64 Node
    // processes on two cores) blocks without counting; it never allows, and loses no count.
    const gaveUp = outcomes.filter((o) => o.kind === 'block' && /^gate-check: the Stop hook could not check the gates \(lock .* gave up after/.test(o.reason));
    expect(gaveUp.length).toBeLessThanOrEqual(16);
    const counted = 64 - gaveUp.length;
    // Serialized under the lock, the counted calls see 1..counted in some order: exactly six block.
    expect(outcomes.filter((o) => o.kind === 'block' && !gaveUp.includes(o)).map((o) => (o.kind === 'block' ? o.reason : ''))).toEqual(
      Array.from({ length: 6 }, () => expect.stringMatching(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)/)),
    );
    expect(outcomes.filter((o) => o.kind === 'message' && /^gate-check: released: 1 gate still open: .*after 6 stops without progress/.test(o.message))).toHaveLength(counted - 6);

    const dir = s.hooksDir();
    expect(readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]); // no lock left behind
    const files = readdirSync(dir).filter((f) => /^[0-9a-f]{16}-[0-9a-f]{16}\.json$/.test(f));
    expect(files).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as { fingerprint: string; blocks: number };
    expect(state.blocks).toBe(counted);

    // The count survived: the next call is past six, so it releases.
    expect(expectMessage(outcome(runCli(['hook', 'claude-stop'], { cwd: s.repo, env, input })))).toMatch(/released/);
    expect((JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as { blocks: number }).blocks).toBe(counted + 1);
  }, 60_000);
});

describe('an unexpected error inside the hook blocks, never allows', () => {
  const IS_ROOT = process.getuid?.() === 0;
  const COULD_NOT = /^gate-check: the Stop hook could not check the gates \((.*)\)\. Fix this before stopping; `gate-check --status --strict` shows the gates\.$/;

  it.skipIf(!IS_ROOT)('no HOME and a user without a passwd entry: the store cannot be located (a SystemError, not a gate-check error)', () => {
    // A met manual gate: everything else would allow the stop.
    const s = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n' });
    for (const dir of [dirname(s.repo), s.repo]) chmodSync(dir, 0o755);
    chmodSync(join(s.repo, 'GATES.md'), 0o644);
    const env = cleanEnv();
    delete env.HOME;
    const r = spawnSync(process.execPath, [BIN, 'hook', 'claude-stop'], { cwd: s.repo, env, uid: 54321, gid: 54321, input: stopInput(s.repo, 's'), encoding: 'utf8', timeout: 20_000 });
    const reason = expectBlock(outcome({ code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }));
    expect(COULD_NOT.exec(reason)?.[1]).toMatch(/uv_os_homedir returned ENOENT/);
  });

  it.skipIf(IS_ROOT)('a scope directory the hook may not list (EACCES from readdir, not a gate-check error)', () => {
    const s = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n', '.gate-check/t1/leaf.md': '- [ ] L: leaf\n' });
    chmodSync(join(s.repo, '.gate-check'), 0o000);
    try {
      expect(COULD_NOT.exec(expectBlock(s.hook()))?.[1]).toMatch(/EACCES/);
    } finally {
      chmodSync(join(s.repo, '.gate-check'), 0o755);
    }
  });
});
