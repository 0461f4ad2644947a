// gate-check hook claude-stop through the real CLI (a subprocess per call, stdin = the Claude
// Code Stop-hook JSON), in sandbox repositories with a private HOME: when it blocks, when it
// allows, when it releases, what counts as progress, and where its state lives.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationWords } from '../../lib/program/invocation.js';
import { shellCommand } from '../../lib/text/shell-quote.js';
import { BIN, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { expectBlock, expectMessage, outcome, stopInput, type HookOutcome } from '../helpers/stop-hook.js';
import { snapshotTree } from '../helpers/tree.js';
import { handWrittenMet } from '../helpers/ledger.js';

function hookRepo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  let calls = 0;
  const hook = (opts: { session?: string; cwd?: string } = {}): HookOutcome =>
    outcome(
      runCli(['hook', 'claude-stop'], {
        cwd: s.repo,
        env: s.env,
        input: stopInput(opts.cwd ?? s.repo, opts.session ?? 'session-1', calls++ > 0),
      }),
    );
  return {
    ...s,
    hook,
    run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env }),
    ledger: () => readFileSync(join(s.repo, 'GATES.md'), 'utf8'),
    setLedger: (text: string) => writeFileSync(join(s.repo, 'GATES.md'), text),
    hooksDir: () => join(s.home, '.gate-check', 'hooks'),
  };
}

/** The counters (one per repository and session), without the ledger memory and the session baselines. */
function counterFiles(hooksDir: string): string[] {
  return readdirSync(hooksDir).filter((f) => /^[0-9a-f]{16}-[0-9a-f]{16}\.json$/.test(f));
}

/** The only state file of the sandbox (there is one repository and one session in it). */
function stateOf(hooksDir: string): { fingerprint: string; blocks: number } {
  const files = counterFiles(hooksDir);
  expect(files).toHaveLength(1);
  const doc = JSON.parse(readFileSync(join(hooksDir, files[0]!), 'utf8')) as { fingerprint: string; blocks: number };
  expect(Object.keys(doc).sort()).toEqual(['blocks', 'fingerprint']);
  return doc;
}

const GREET = [
  '- [ ] A: the greeting script greets',
  '  CHECK: node scripts/greet.mjs',
  '  EXPECT: hello',
  '  DEPENDS: scripts/greet.mjs',
  '',
].join('\n');
const GREET_JS = "console.log('hello');\n";

/** A ledger whose only gate passed through a real `gate-check --approve` run: verified evidence. */
function passed(extra: Record<string, string> = {}) {
  const s = hookRepo({ 'GATES.md': GREET, 'scripts/greet.mjs': GREET_JS, ...extra });
  const r = s.run(['--approve']);
  expect(r.code).toBe(0);
  expect(s.ledger()).toMatch(/^- \[x\] A: /m);
  expect(s.ledger()).toMatch(/EVIDENCE: exit=0; def=[0-9a-f]{12}; .*receipt=[0-9a-f]{12}/);
  expect(s.run(['--status', '--strict']).code).toBe(0);
  return s;
}

describe('block or allow', () => {
  it('blocks on an unmet gate, naming its qualified id and what to do next; exit 0', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: the importer handles empty files\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const reason = expectBlock(s.hook());
    expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\./);
    // The commands start gate-check as the host started the hook (here node and the bin), not a bare name that may not be on PATH.
    const start = shellCommand(invocationWords(s.env, BIN, process.execPath, s.repo))!;
    expect(reason).toContain(`run \`${start}\`: it re-runs every approved gate`);
    expect(reason).toContain(`run \`${start} --approve\``);
    expect(reason).toContain('stale INPUTS and unverified evidence need no new approval; a changed DEPENDS file, definition or executable in a PATH folder of the repository does');
    expect(reason).toContain('ABANDON: ID reason');
  });

  it('allows silently (no output) when every gate is met with verified evidence', () => {
    const s = passed();
    expect(s.hook()).toEqual({ kind: 'allow' });
    expect(s.hook({ session: 'another' })).toEqual({ kind: 'allow' });
  });

  it('a met manual gate (human evidence) allows the stop', () => {
    const s = hookRepo({ 'GATES.md': '- [x] M: wording approved\n  EVIDENCE: approved by Ada on 2026-11-02\n' });
    expect(s.hook()).toEqual({ kind: 'allow' });
  });

  it('a directory without any ledger allows silently and writes no state', () => {
    const s = hookRepo({ 'README.md': 'no gates here\n' });
    expect(s.hook()).toEqual({ kind: 'allow' });
    expect(() => lstatSync(join(s.home, '.gate-check'))).toThrow();
  });

  it('blocks on a ledger that does not parse, with the file and line of the error', () => {
    const s = hookRepo({ 'GATES.md': '# Gates\n- [ ] A: runnable half\n  CHECK: echo ok\n' });
    const reason = expectBlock(s.hook());
    expect(reason).toMatch(/does not parse/);
    expect(reason).toContain('GATES.md:2: A has CHECK but no EXPECT');
  });

  it('reports only the first three parse errors and how many more', () => {
    const lines = ['- [ ] A: t'];
    for (let i = 0; i < 5; i++) lines.push(`* [ ] X${i}: bad bullet`);
    const s = hookRepo({ 'GATES.md': lines.join('\n') + '\n' });
    const reason = expectBlock(s.hook());
    expect(reason).toContain('GATES.md:2: malformed gate line');
    expect(reason).toContain('GATES.md:4:');
    expect(reason).not.toContain('GATES.md:5:');
    expect(reason).toContain('(+2 more)');
  });
});

describe('every way a gate is not met in the strict view blocks', () => {
  it('hand-written evidence (unverified)', () => {
    const s = hookRepo({ 'GATES.md': handWrittenMet('A', 't', 'echo ok', 'ok') });
    expect(expectBlock(s.hook())).toMatch(/GATES:A \(unverified: no run of this gate in this checkout on this machine/);
  });

  it('an evidence line edited after a real pass (mismatched)', () => {
    const s = passed();
    s.setLedger(s.ledger().replace(/match=([0-9a-f])/, (_m, c: string) => `match=${c === '0' ? '1' : '0'}`));
    expect(expectBlock(s.hook())).toMatch(/GATES:A \(mismatched: the evidence line differs from the one the latest passing run here wrote\)/);
  });

  it('a DEPENDS file edited after a pass (stale), naming the file', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/greet.mjs'), GREET_JS + '// edited\n');
    expect(expectBlock(s.hook())).toMatch(/GATES:A \(stale: DEPENDS changed: scripts\/greet\.mjs\)/);
  });

  it('a box ticked without evidence (claimed)', () => {
    const s = hookRepo({ 'GATES.md': '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  EVIDENCE: pending\n' });
    expect(expectBlock(s.hook())).toMatch(/GATES:A \(claimed: ticked without evidence\)/);
  });

  it('more than five open gates: five are named, then how many more', () => {
    const gates = Array.from({ length: 8 }, (_, i) => `- [ ] G${i + 1}: gate ${i + 1}\n`).join('');
    const s = hookRepo({ 'GATES.md': gates });
    const reason = expectBlock(s.hook());
    expect(reason).toMatch(/^gate-check: 8 gates are not met: GATES:G1 \(unchecked\); GATES:G2 \(unchecked\); GATES:G3 \(unchecked\); GATES:G4 \(unchecked\); GATES:G5 \(unchecked\) \(\+3 more\)\. /);
    for (const id of ['G6', 'G7', 'G8']) expect(reason).not.toContain(`GATES:${id}`);
  });

  it('ledgers in gates/ are qualified by their file name', () => {
    const s = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n', 'gates/leaf-1.md': '- [ ] L1: leaf work\n' });
    const reason = expectBlock(s.hook());
    expect(reason).toContain('leaf-1:L1 (unchecked)');
    expect(reason).not.toContain('GATES:M');
  });
});

describe('the counter after an allowed stop', () => {
  it('an allowed stop resets the count of blocks; the next one, with nothing to change, writes nothing', () => {
    const s = hookRepo({ 'GATES.md': GREET, 'scripts/greet.mjs': GREET_JS });
    for (let i = 1; i <= 3; i++) expectBlock(s.hook());
    expect(stateOf(s.hooksDir()).blocks).toBe(3);
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.hook()).toEqual({ kind: 'allow' });
    const reset = stateOf(s.hooksDir());
    expect(reset.blocks).toBe(0);
    const file = join(s.hooksDir(), counterFiles(s.hooksDir())[0]!);
    const before = lstatSync(file);
    const listing = readdirSync(s.hooksDir()).sort();
    expect(s.hook()).toEqual({ kind: 'allow' });
    const after = lstatSync(file);
    expect([after.ino, after.mtimeMs, after.ctimeMs]).toEqual([before.ino, before.mtimeMs, before.ctimeMs]);
    expect(readdirSync(s.hooksDir()).sort()).toEqual(listing);
    expect(stateOf(s.hooksDir())).toEqual(reset);
    // A block after it counts from one again.
    s.setLedger(s.ledger() + '- [ ] B: the wording is approved\n');
    expectBlock(s.hook());
    expect(stateOf(s.hooksDir()).blocks).toBe(1);
  });
});

describe('release after six blocks without progress', () => {
  const TWO = '- [ ] A: first\n  CHECK: echo a-ok\n  EXPECT: a-ok\n- [ ] B: second\n';

  it('calls 1..6 block, call 7 allows with a release note; the count is per session and per repository', () => {
    const s = hookRepo({ 'GATES.md': TWO });
    for (let i = 1; i <= 6; i++) {
      expectBlock(s.hook());
      expect(stateOf(s.hooksDir()).blocks).toBe(i);
    }
    const released = expectMessage(s.hook());
    expect(released).toBe(
      'gate-check: released: 2 gates still open: GATES:A (unchecked); GATES:B (unchecked). The hook let the agent stop after 6 stops without progress; a person needs to look at this.',
    );
    expect(stateOf(s.hooksDir()).blocks).toBe(7);
    // Still released while nothing changes.
    expect(expectMessage(s.hook())).toMatch(/released/);

    // A new session in the same repository starts from zero.
    expectBlock(s.hook({ session: 'session-2' }));

    // The same session id in another repository (same HOME) starts from zero too.
    const other = tempDir('gc-other-');
    writeFiles(other, { 'GATES.md': TWO });
    expectBlock(s.hook({ cwd: other }));
    // … and does not disturb the released count of the first repository.
    expect(expectMessage(s.hook())).toMatch(/released/);
    expect(counterFiles(s.hooksDir())).toHaveLength(3);
  });

  it('cosmetic edits between the calls are not progress: still released at call 7', () => {
    const ledger = [
      '# Gates: import',
      '',
      '- [ ] A: the importer handles empty files',
      '  CHECK: echo a-ok',
      '  EXPECT: a-ok',
      '  EVIDENCE: pending',
      '',
      '- [ ] B: the exporter writes headers',
      '  CHECK: echo b-ok',
      '  EXPECT: b-ok',
      '',
      '- [x] M: wording approved',
      '  EVIDENCE: approved by Ada',
      '',
    ].join('\n');
    const s = hookRepo({ 'GATES.md': ledger });
    const edits: Array<(t: string) => string> = [
      (t) => t.replace('# Gates: import\n', '# Gates: import\n\n\n'), // blank lines
      (t) => t.replace('A: the importer handles empty files', 'A: the importer copes with empty input files'), // title reworded
      (t) => {
        // gates reordered: B first, then A, then M
        const a = t.slice(t.indexOf('- [ ] A:'), t.indexOf('- [ ] B:'));
        const b = t.slice(t.indexOf('- [ ] B:'), t.indexOf('- [x] M:'));
        return t.replace(a + b, b + a);
      },
      (t) => t.replace('  EVIDENCE: pending', `  EVIDENCE: exit=0; sha256=${'c'.repeat(64)}; bytes=5`), // an unmet gate's evidence rewritten
      (t) => t.replace('- [ ] B:', '- [x] B:'), // ticked without evidence: claimed, still open
    ];
    for (let i = 1; i <= 6; i++) {
      const reason = expectBlock(s.hook());
      expect(stateOf(s.hooksDir()).blocks).toBe(i);
      if (i === 6) expect(reason).toContain('GATES:B (claimed: ticked without evidence)');
      const edit = edits[i - 1];
      if (edit) {
        const before = s.ledger();
        s.setLedger(edit(before));
        expect(s.ledger()).not.toBe(before);
      }
    }
    expect(expectMessage(s.hook())).toMatch(/^gate-check: released: 2 gates still open: .* after 6 stops without progress/);
  });

  it('a gate that becomes met through a real run is progress: the count starts again', () => {
    const s = hookRepo({ 'GATES.md': GREET + '- [ ] B: the wording is approved\n', 'scripts/greet.mjs': GREET_JS });
    for (let i = 1; i <= 5; i++) expect(expectBlock(s.hook())).toContain('GATES:A (unchecked); GATES:B (unchecked)');
    s.run(['--approve']); // runs A (B is manual: nothing to run)
    expect(s.ledger()).toMatch(/^- \[x\] A: /m);
    for (let i = 1; i <= 6; i++) {
      const reason = expectBlock(s.hook());
      expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:B \(unchecked\)\./);
      expect(stateOf(s.hooksDir()).blocks).toBe(i);
    }
    expect(expectMessage(s.hook())).toMatch(/released/);
  });

  it('a gate abandoned during the session is weakened, not progress: the count goes on, and the release says so', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: first\n- [ ] B: second\n' });
    for (let i = 1; i <= 3; i++) expectBlock(s.hook());
    s.setLedger(s.ledger() + '\nABANDON: B the decision owner is unavailable\n');
    for (let i = 4; i <= 6; i++) {
      const reason = expectBlock(s.hook());
      expect(reason).toMatch(/^gate-check: 2 gates are not met: GATES:A \(unchecked\); GATES:B \(weakened since the session began: newly abandoned: a person must approve\)\./);
      expect(reason).not.toContain('HANDOFF REQUIRED');
      expect(stateOf(s.hooksDir()).blocks).toBe(i);
    }
    const released = expectMessage(s.hook());
    expect(released).toMatch(/^gate-check: released: 2 gates still open: GATES:A \(unchecked\); GATES:B \(weakened since the session began: newly abandoned/);
  });

  it('a gate abandoned before the session began is a hand-off: in the block, and in the release', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: first\n- [ ] B: second\n\nABANDON: B the decision owner is unavailable\n' });
    for (let i = 1; i <= 6; i++) {
      const reason = expectBlock(s.hook());
      expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\./);
      expect(reason).toContain('HANDOFF REQUIRED for GATES:B');
    }
    const released = expectMessage(s.hook());
    expect(released).toMatch(/^gate-check: released: 1 gate still open: GATES:A \(unchecked\); HANDOFF REQUIRED for GATES:B/);
  });

  it('a gate that appears is progress; when nothing is open any more the stop is allowed and the count cleared', () => {
    const s = hookRepo({ 'GATES.md': '- [x] M: done\n  EVIDENCE: reviewed\n- [ ] A: first\n' });
    for (let i = 1; i <= 6; i++) expectBlock(s.hook());
    s.setLedger(s.ledger() + '- [ ] C: third\n');
    expect(expectBlock(s.hook())).toContain('GATES:A (unchecked); GATES:C (unchecked)');
    expect(stateOf(s.hooksDir()).blocks).toBe(1);
    // Both manual gates met by a person's evidence: nothing is open.
    s.setLedger('- [x] M: done\n  EVIDENCE: reviewed\n- [x] A: first\n  EVIDENCE: seen by Ada\n- [x] C: third\n  EVIDENCE: seen by Ada\n');
    expect(s.hook()).toEqual({ kind: 'allow' });
    expect(stateOf(s.hooksDir()).blocks).toBe(0);
  });
});

describe('where the state lives', () => {
  it('only under $HOME/.gate-check/hooks (0700 directories, 0600 file); nothing in the repository changes', () => {
    const s = hookRepo({
      'GATES.md': `- [ ] A: first\n  CHECK: echo ok\n  EXPECT: ok\n` + handWrittenMet('B', 'second', 'echo ok', 'ok'),
    });
    const before = snapshotTree(s.repo);
    for (let i = 0; i < 3; i++) expectBlock(s.hook());
    expect(snapshotTree(s.repo)).toEqual(before);
    const base = join(s.home, '.gate-check');
    expect(readdirSync(s.home)).toEqual(['.gate-check']);
    expect(readdirSync(base)).toEqual(['hooks']);
    expect(lstatSync(base).mode & 0o777).toBe(0o700);
    expect(lstatSync(s.hooksDir()).mode & 0o777).toBe(0o700);
    // The counter, the session's baseline and the ledger memory; the locks are gone.
    const files = readdirSync(s.hooksDir()).sort();
    expect(files).toHaveLength(3);
    expect(files).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^baseline-[0-9a-f]{16}-[0-9a-f]{16}\.json$/),
        expect.stringMatching(/^[0-9a-f]{16}-[0-9a-f]{16}\.json$/),
        expect.stringMatching(/^ledgers-[0-9a-f]{16}\.json$/),
      ]),
    );
    for (const f of files) {
      const st = lstatSync(join(s.hooksDir(), f));
      expect(st.isFile()).toBe(true);
      expect(st.mode & 0o777).toBe(0o600);
    }
    expect(stateOf(s.hooksDir())).toEqual({ fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), blocks: 3 });
  });

  it('GATE_CHECK_HOME moves the store, and the counter with it', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: first\n' });
    const store = join(tempDir('gc-store-'), 'store');
    const r = runCli(['hook', 'claude-stop'], { cwd: s.repo, env: { ...s.env, GATE_CHECK_HOME: store }, input: stopInput(s.repo, 'x') });
    expectBlock(outcome(r));
    expect(stateOf(join(store, 'hooks')).blocks).toBe(1);
    expect(() => lstatSync(join(s.home, '.gate-check'))).toThrow();
  });
});

describe('where the hook looks, and blocks that must not hold forever', () => {
  it('finds the ledger from a subdirectory the session cd-ed into', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n', 'sub/deeper/file.txt': 'x' });
    expect(expectBlock(s.hook({ cwd: join(s.repo, 'sub', 'deeper') }))).toMatch(/GATES:A \(unchecked\)/);
  });

  it('uses $CLAUDE_PROJECT_DIR when Claude Code sets it', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n' });
    const elsewhere = tempDir();
    const r = runCli(['hook', 'claude-stop'], { cwd: elsewhere, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: stopInput(elsewhere, 's') });
    expect(expectBlock(outcome(r))).toMatch(/GATES:A/);
  });

  it('$CLAUDE_PROJECT_DIR or $GEMINI_PROJECT_DIR in a subdirectory of the repository (a package of a monorepo): the repository\'s ledger holds the session too, as --status --strict there says (integrity attack F6)', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n', '.git/HEAD': 'ref: refs/heads/main\n', '.git/objects/x': '', '.git/refs/x': '', 'packages/app/index.js': 'x' });
    const app = join(s.repo, 'packages', 'app');
    expect(runCli(['--status', '--strict'], { cwd: app, env: s.env }).code).toBe(1);
    const claude = runCli(['hook', 'claude-stop'], { cwd: app, env: { ...s.env, CLAUDE_PROJECT_DIR: app }, input: stopInput(app, 'pkg') });
    expect(expectBlock(outcome(claude))).toMatch(/GATES:A \(unchecked\)/);
    const gemini = runCli(['hook', 'stop', '--host', 'gemini'], { cwd: app, env: { ...s.env, GEMINI_PROJECT_DIR: app }, input: JSON.stringify({ hook_event_name: 'AfterAgent', session_id: 'pkg', cwd: app, stop_hook_active: false }) });
    expect(JSON.parse(gemini.stdout)).toMatchObject({ decision: 'deny' });
  });

  // Round-23 F1: between two stops the agent renamed the repository, linked it back under its
  // old name, and made its open gate a met manual one; the project directory, resolved, led to
  // a path with no baseline, and the stop was let through.
  it('$CLAUDE_PROJECT_DIR through a link to the renamed repository: the baseline under the name as written still holds', () => {
    const s = hookRepo({ 'pkg/GATES.md': '- [ ] P1: open work\n  CHECK: node --test\n  EXPECT: /^# pass [1-9]/m\n', '.git/HEAD': 'ref: refs/heads/main\n', '.git/objects/x': '', '.git/refs/x': '' });
    const pkg = join(s.repo, 'pkg');
    const stop = () => outcome(runCli(['hook', 'claude-stop'], { cwd: s.home, env: { ...s.env, CLAUDE_PROJECT_DIR: pkg }, input: stopInput(pkg, 'moved') }));
    expect(expectBlock(stop())).toMatch(/GATES:P1 \(unchecked\)/);
    renameSync(s.repo, `${s.repo}-moved`);
    symlinkSync(`${s.repo}-moved`, s.repo);
    writeFileSync(join(pkg, 'GATES.md'), '- [x] P1: open work\n  EVIDENCE: reviewed by Ada\n');
    expect(expectBlock(stop())).toMatch(/GATES:P1 \(weakened since the session began/);
  });

  // Round 24 F4, F6: a project directory that is a link (no trailing slash) fell back to the
  // cwd the agent chose; and with a project directory set, the cwd was not looked at.
  it('$CLAUDE_PROJECT_DIR that is a link to the repository holds; the cwd is searched too', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n' });
    const link = join(tempDir(), 'proj');
    symlinkSync(s.repo, link);
    const elsewhere = tempDir();
    const viaLink = runCli(['hook', 'claude-stop'], { cwd: elsewhere, env: { ...s.env, CLAUDE_PROJECT_DIR: link }, input: stopInput(elsewhere, 'link') });
    expect(expectBlock(outcome(viaLink))).toMatch(/GATES:A \(unchecked\)/);
    const cwdToo = runCli(['hook', 'claude-stop'], { cwd: elsewhere, env: { ...s.env, CLAUDE_PROJECT_DIR: elsewhere }, input: stopInput(s.repo, 'cwd') });
    expect(expectBlock(outcome(cwdToo))).toMatch(/GATES:A \(unchecked\)/);
  });

  // Round 25 F3: the link and its target were two roots: the one gate was listed twice, with a --root step each.
  it('a project directory that is a link lists each gate once', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n  CHECK: echo hi\n  EXPECT: hi\n' });
    const link = join(tempDir(), 'proj');
    symlinkSync(s.repo, link);
    const reason = expectBlock(outcome(runCli(['hook', 'claude-stop'], { cwd: s.repo, env: { ...s.env, CLAUDE_PROJECT_DIR: link }, input: stopInput(s.repo, 'once') })));
    expect(reason).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\. Next: run `[^`]*`: it re-runs/);
    expect(reason.match(/--root/g) ?? []).toHaveLength(0);
  });

  // Round 25 F1: the project directory moved away, and the next stop's cwd elsewhere: the
  // project directory was dropped as "not a directory", with the memory that held it.
  it('a project directory that is gone is still searched as written: its memory holds the stop, whatever the cwd', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n' });
    const elsewhere = tempDir();
    const stop = () => outcome(runCli(['hook', 'claude-stop'], { cwd: elsewhere, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: stopInput(elsewhere, 'gone') }));
    expect(expectBlock(stop())).toMatch(/GATES:A \(unchecked\)/);
    renameSync(s.repo, `${s.repo}-moved`);
    expect(expectBlock(stop())).toMatch(/GATES\.md had open gates when the Stop hook last looked, and it is gone/);
  });

  // Round 25 F2: a project the agent made unreadable (chmod 000, as its owner) before the first
  // stop read as a folder without ledgers, and the stop was let through.
  it('a project directory its owner made unreadable blocks: it cannot be read, not "no ledgers"', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n' });
    const asRoot = process.getuid?.() === 0;
    const user = 54321;
    if (asRoot) spawnSync('chown', ['-R', `${user}:${user}`, join(s.repo, '..')]);
    chmodSync(s.repo, 0o000);
    try {
      for (const [host, env, input] of [
        ['claude', { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, stopInput(s.repo, 'eacces')],
        ['codex', s.env, JSON.stringify({ hook_event_name: 'Stop', session_id: 'eacces-codex', turn_id: 't', cwd: s.repo, stop_hook_active: false })],
      ] as const) {
        const r = spawnSync(process.execPath, [BIN, 'hook', 'stop', '--host', host], { cwd: tempDir(), env, input, encoding: 'utf8', timeout: 20_000, ...(asRoot ? { uid: user, gid: user } : {}) });
        if (asRoot) spawnSync('chown', ['-R', `${user}:${user}`, join(s.repo, '..')]); // what the hook's tempDir cwd does not need
        expect(r.status, host).toBe(0);
        expect(JSON.parse(r.stdout), host).toMatchObject({ decision: 'block', reason: expect.stringMatching(/cannot read the gates \(.*EACCES|permission denied/i) });
      }
    } finally {
      chmodSync(s.repo, 0o755);
    }
  });

  it('a nested repository is its own top level, but does not hide the ledger around it (see stop-root.test.ts)', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n', 'inner/.git/HEAD': 'ref: refs/heads/main\n', 'inner/.git/objects/x': '', 'inner/.git/refs/x': '' });
    expect(expectBlock(s.hook({ cwd: join(s.repo, 'inner') }))).toContain(`${s.repo}/GATES:A (unchecked)`);
  });

  it('a parse-error block is counted and released after 6 stops without progress', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: t\nCHECK: oops\n' });
    for (let i = 0; i < 6; i++) expect(expectBlock(s.hook())).toMatch(/does not parse/);
    expect(expectMessage(s.hook())).toMatch(/^gate-check: released: the ledger does not parse: GATES\.md:2: .*The hook let the agent stop after 6 stops without progress/);
  });

  it('a ledger removed blocks (counted), in this session and in a fresh one; one never there allows', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: open\n' });
    expectBlock(s.hook());
    rmSync(join(s.repo, 'GATES.md'));
    expect(expectBlock(s.hook())).toMatch(/GATES\.md had open gates when the Stop hook last looked, and it is gone/);
    expect(stateOf(s.hooksDir()).blocks).toBe(1);
    expect(expectBlock(s.hook({ session: 'fresh-session' }))).toMatch(/GATES\.md had open gates/);
    const never = hookRepo({ 'README.md': 'x\n' });
    expect(never.hook().kind).toBe('allow');
  });

  it('a root ledger and a scope ledger with the same name are told apart', () => {
    const s = hookRepo({ 'GATES.md': '- [ ] A: root\n', '.gate-check/t1/GATES.md': '- [ ] A: scoped\n' });
    const reason = expectBlock(s.hook());
    expect(reason).toContain('GATES.md:A (unchecked)');
    expect(reason).toContain('.gate-check/t1/GATES.md:A (unchecked)');
  });
});

describe('an answer that cannot reach the host', () => {
  // Exit 0 with nothing on stdout is "allow": a block that could not be written must not become one.
  const blocking = () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: open\n  CHECK: echo ok\n  EXPECT: ok\n' });
    return { s, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: stopInput(s.repo, 'lost') };
  };

  it('stdout on a full disk (/dev/full): exit 2, the reason on stderr', () => {
    const { s, env, input } = blocking();
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'hook', 'claude-stop'], { cwd: s.repo, env, input, stdio: ['pipe', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: the hook could not write its answer on stdout \(stdout closed: ENOSPC\); exit 2/m);
    } finally {
      closeSync(full);
    }
  });

  it('a host that closed its end of stdout (EPIPE): exit 2', async () => {
    const { s, env, input } = blocking();
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-stop'], { cwd: s.repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toMatch(/could not write its answer on stdout \(stdout closed: EPIPE\)/);
  });

  it('an allowed stop writes nothing, so it stays exit 0 on the same stdout', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: greets\n  CHECK: echo hello\n  EXPECT: hello\n' });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'hook', 'claude-stop'], { cwd: s.repo, env: { ...s.env, CLAUDE_PROJECT_DIR: s.repo }, input: stopInput(s.repo, 'ok'), stdio: ['pipe', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
    } finally {
      closeSync(full);
    }
  });
});
