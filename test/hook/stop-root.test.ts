// Where the Stop hook looks when the host does not name the project (no CLAUDE_PROJECT_DIR),
// and what it remembers about a repository's ledgers across sessions. The session's
// directory is the agent's: nothing planted there may move the hook off the repository's
// gates, and a ledger with open gates that disappears blocks until it is back or a person
// runs `gate-check hook forget`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { renderHtml } from '../helpers/render.js';
import { expectBlock, outcome, stopInput, type HookOutcome } from '../helpers/stop-hook.js';

const OPEN = '- [ ] A: open work\n';
const MET = '- [x] M: done\n  EVIDENCE: reviewed by Ada\n';
const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

/** A git directory as git itself accepts one: HEAD naming a ref, objects/ and refs/. */
function plantGitDir(dir: string): void {
  mkdirSync(join(dir, '.git', 'objects'), { recursive: true });
  mkdirSync(join(dir, '.git', 'refs'), { recursive: true });
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
}

function hookRepo(files: Record<string, string>, { git = false } = {}) {
  const s = sandbox();
  writeFiles(s.repo, files);
  if (git) plantGitDir(s.repo);
  const hook = (cwd = s.repo, session = 'session-1'): HookOutcome => outcome(runCli(['hook', 'claude-stop'], { cwd: s.repo, env: s.env, input: stopInput(cwd, session) }));
  return { ...s, hook, hooksDir: join(s.home, '.gate-check', 'hooks') };
}

describe('nothing planted in the session directory moves the root', () => {
  const plants: Array<[string, (pkg: string) => void]> = [
    ['an empty pkg/.gate-check file', (pkg) => writeFileSync(join(pkg, '.gate-check'), '')],
    ['an empty pkg/.git file', (pkg) => writeFileSync(join(pkg, '.git'), '')],
    ['a garbage pkg/.git file', (pkg) => writeFileSync(join(pkg, '.git'), 'gitdir: /nonexistent/nowhere\n')],
    ['a pkg/.git directory that git would not accept (no objects/, refs/)', (pkg) => writeFiles(pkg, { '.git/HEAD': 'ref: refs/heads/main\n' })],
    ['a pkg/.git directory with a HEAD that names nothing', (pkg) => (plantGitDir(pkg), writeFileSync(join(pkg, '.git', 'HEAD'), 'hello\n'))],
    ['an empty pkg/gates file', (pkg) => writeFileSync(join(pkg, 'gates'), '')],
  ];
  for (const git of [false, true]) {
    for (const [label, plant] of plants) {
      it(`${label}${git ? ' inside a git repository' : ''}: the repository's open gate still blocks`, () => {
        const s = hookRepo({ 'GATES.md': OPEN, 'pkg/src.txt': 'x' }, { git });
        const pkg = join(s.repo, 'pkg');
        plant(pkg);
        expect(expectBlock(s.hook(pkg))).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\./);
      });
    }
  }

  it('a nested repository (a valid .git planted in a subdirectory) adds its gates but does not hide the outer ones', () => {
    for (const git of [false, true]) {
      const s = hookRepo({ 'GATES.md': OPEN, 'pkg/GATES.md': MET }, { git });
      const pkg = join(s.repo, 'pkg');
      plantGitDir(pkg);
      const reason = expectBlock(s.hook(pkg));
      expect(reason).toContain(`1 gate is not met: ${s.repo}/GATES:A (unchecked).`);
      // An open gate of the nested repository blocks too, under its own name.
      writeFileSync(join(pkg, 'GATES.md'), '- [ ] N: nested work\n');
      // (Another session: in this one, M was removed, which weakens it; see weakening.test.ts.)
      expect(expectBlock(s.hook(pkg, `other-${git}`))).toContain(`2 gates are not met: GATES:N (unchecked); ${s.repo}/GATES:A (unchecked).`);
    }
  });

  it('outside any repository, a ledger planted in the session directory does not hide the one above it', () => {
    const s = hookRepo({ 'GATES.md': OPEN, 'pkg/GATES.md': MET });
    expect(expectBlock(s.hook(join(s.repo, 'pkg')))).toContain(`1 gate is not met: ${s.repo}/GATES:A (unchecked).`);
  });

  it('a subdirectory with ledgers of its own holds the session too, next to the repository top level', () => {
    const s = hookRepo({ 'GATES.md': MET, 'pkg/GATES.md': '- [ ] P: package work\n  CHECK: node --test\n  EXPECT: /^# pass [1-9]/m\n' }, { git: true });
    expect(expectBlock(s.hook(join(s.repo, 'pkg')))).toContain('1 gate is not met: pkg/GATES:P (unchecked).');
    // From the top level, or a sibling folder, the package's ledger is not found by looking up;
    // once it held a session, the repository remembers it (round-21 F1: the stop was let through).
    for (const [cwd, session] of [[s.repo, 'session-1'], [join(s.repo, 'web'), 'session-1'], [s.repo, 'session-2']] as const) {
      mkdirSync(join(s.repo, 'web'), { recursive: true });
      const reason = expectBlock(s.hook(cwd, session));
      expect(reason).toContain('1 gate is not met: pkg/GATES:P (unchecked).');
      // A plain run at the top level would not find it: the next step names its root.
      expect(reason).toContain(`--root ${s.repo}/pkg`);
    }
    // Met (here made a person's gate, in a new session, whose baseline it does not weaken): let through from anywhere.
    writeFileSync(join(s.repo, 'pkg', 'GATES.md'), '- [x] P: package work\n  EVIDENCE: reviewed by Ada\n');
    expect(s.hook(s.repo, 'session-3')).toEqual({ kind: 'allow' });
    // A package never seen by a stop is not searched for from the top level (as for `gate-check` run there).
    const t = hookRepo({ 'GATES.md': MET, 'pkg/GATES.md': '- [ ] P: package work\n' }, { git: true });
    expect(t.hook()).toEqual({ kind: 'allow' });
  });

  it('the remembered roots: in the private store, only directories below the top level; an invalid list blocks', () => {
    const s = hookRepo({ 'pkg/GATES.md': '- [ ] P: package work\n  CHECK: node --test\n  EXPECT: /^# pass [1-9]/m\n' }, { git: true });
    expectBlock(s.hook(join(s.repo, 'pkg')));
    // The only root with ledgers, but not the top level: a plain run there would not find it.
    expect(expectBlock(s.hook())).toMatch(new RegExp(`Next: run \`[^\`]* --root ${s.repo}/pkg\`: it re-runs`));
    const [file] = readdirSync(s.hooksDir).filter((f) => f.startsWith('roots-'));
    expect(file).toMatch(/^roots-[0-9a-f]{16}\.json$/);
    expect(JSON.parse(readFileSync(join(s.hooksDir, file!), 'utf8'))).toEqual({ root: s.repo, roots: [`${s.repo}/pkg`] });
    // A `.git` made unreadable for a moment (HEAD garbled), or a valid one planted in a sibling
    // folder, does not hide the remembered roots (round-22 F1: the stop was let through).
    const head = readFileSync(join(s.repo, '.git', 'HEAD'), 'utf8');
    writeFileSync(join(s.repo, '.git', 'HEAD'), 'garbage\n');
    expect(expectBlock(s.hook())).toMatch(/^gate-check: 1 gate is not met: (pkg\/)?GATES:P \(unchecked\)\./);
    mkdirSync(join(s.repo, 'web'));
    plantGitDir(join(s.repo, 'web'));
    expect(expectBlock(s.hook(join(s.repo, 'web')))).toContain('GATES:P (unchecked)');
    writeFileSync(join(s.repo, '.git', 'HEAD'), head);
    rmSync(join(s.repo, 'web'), { recursive: true });
    // A ledger removed from a remembered root blocks from the top level too.
    rmSync(join(s.repo, 'pkg', 'GATES.md'));
    expect(expectBlock(s.hook())).toMatch(/GATES\.md.*(gone|missing|removed)/);
    const bad = [JSON.stringify({ root: s.repo, roots: ['/elsewhere'] }), JSON.stringify({ root: s.repo, roots: [`${s.repo}/../x`] }), JSON.stringify({ root: s.repo, roots: [s.repo] }), JSON.stringify({ root: s.repo, roots: [], x: 1 }), '[]'];
    for (const text of bad) {
      writeFileSync(join(s.hooksDir, file!), text, { mode: 0o600 });
      expect(expectBlock(s.hook()), text).toMatch(/^gate-check: cannot read the gates \(.*roots-[0-9a-f]{16}\.json: invalid memory of the repository's ledger roots\); fix this before stopping\.$/);
    }
  });

  it('with open gates in two roots, the next steps name each root (a plain run from the package sees only its ledger)', () => {
    const RUNNABLE = (id: string) => `- [ ] ${id}: work\n  CHECK: node --test\n  EXPECT: /^# pass [1-9]/m\n`;
    const s = hookRepo({ 'GATES.md': RUNNABLE('A'), 'pkg/GATES.md': RUNNABLE('P') }, { git: true });
    const reason = expectBlock(s.hook(join(s.repo, 'pkg')));
    expect(reason).toContain('2 gates are not met: pkg/GATES:P (unchecked); GATES:A (unchecked).');
    expect(reason).toMatch(new RegExp(`Next: run \`[^\`]* --root ${s.repo}/pkg\` and \`[^\`]* --root ${s.repo}\`: each re-runs`));
    expect(reason).toMatch(new RegExp(`run \`[^\`]* --approve --root ${s.repo}/pkg\` and \`[^\`]* --approve --root ${s.repo}\`\.`));
    // Only one of them open: that one is named all the same (the session sees both).
    writeFileSync(join(s.repo, 'GATES.md'), MET);
    expect(expectBlock(s.hook(join(s.repo, 'pkg'), 'session-2'))).toMatch(new RegExp(`Next: run \`[^\`]* --root ${s.repo}/pkg\`: it re-runs`));
    // An open manual gate: no run can meet it, so no "Next: run"; only a person can.
    const m = hookRepo({ 'GATES.md': OPEN }, { git: true });
    const manual = expectBlock(m.hook());
    expect(manual).toBe('gate-check: 1 gate is not met: GATES:A (unchecked). A manual gate (GATES:A) is met only by a person: ask your user to check that outcome, tick it and write the evidence (who checked what).');
    // One root only: the plain command, no --root.
    const t = hookRepo({ 'GATES.md': RUNNABLE('A') }, { git: true });
    expect(expectBlock(t.hook())).toMatch(/Next: run `[^`]*gate-check[^`]*`: it re-runs/);
    expect(expectBlock(t.hook())).not.toContain('--root');
  });

  // Found by round 41a (F2): the next step said a plain run for a scope's gate, which a run of
  // the root ledgers never runs: the agent looped until the hook released it.
  it('open gates in a scope: the next steps name the scope (and the root ledgers when theirs are open too)', () => {
    const RUNNABLE = (id: string) => `- [ ] ${id}: work\n  CHECK: echo ok\n  EXPECT: ok\n`;
    const s = hookRepo({ 'GATES.md': MET, '.gate-check/task-7/work.md': RUNNABLE('K1') }, { git: true });
    const reason = expectBlock(s.hook());
    expect(reason).toMatch(/Next: run `[^`]*gate-check[^`]* --scope task-7`: it re-runs/);
    expect(reason).toMatch(/run `[^`]* --approve --scope task-7`\./);
    writeFileSync(join(s.repo, 'GATES.md'), RUNNABLE('A'));
    expect(expectBlock(s.hook(s.repo, 'session-2'))).toMatch(/Next: run `[^`]*gate-check\.js` and `[^`]*gate-check\.js --scope task-7`: each re-runs/);
  });

  it('a package directory named with a backtick or a space: each suggested command reads back whole as Markdown (the host renders the reason)', () => {
    const RUNNABLE = (id: string) => `- [ ] ${id}: work\n  CHECK: node --test\n  EXPECT: /^# pass [1-9]/m\n`;
    const s = hookRepo({ 'GATES.md': RUNNABLE('A'), 'p`k g/GATES.md': RUNNABLE('P') }, { git: true });
    const reason = expectBlock(s.hook(join(s.repo, 'p`k g')));
    const codes = [...renderHtml(reason).matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]!.replace(/&amp;/g, '&').replace(/&#x27;|&apos;/g, "'"));
    expect(codes.filter((c) => c.includes('--root'))).toEqual([
      expect.stringMatching(new RegExp(` --root '${s.repo}/p\`k g'$`)),
      expect.stringMatching(new RegExp(` --root ${s.repo}$`)),
      expect.stringMatching(new RegExp(` --approve --root '${s.repo}/p\`k g'$`)),
      expect.stringMatching(new RegExp(` --approve --root ${s.repo}$`)),
    ]);
  });

  it('a linked worktree (.git file naming a gitdir with a commondir) is its own top level', () => {
    // sub/ has a ledger of its own: ids are shown relative to the top level, so they say which directory was taken for it.
    const s = hookRepo({ 'main/GATES.md': MET, 'wt/GATES.md': OPEN, 'wt/sub/GATES.md': MET });
    plantGitDir(join(s.repo, 'main'));
    writeFiles(join(s.repo, 'main', '.git', 'worktrees', 'wt'), { HEAD: 'ref: refs/heads/wt\n', commondir: '../..\n' });
    writeFileSync(join(s.repo, 'wt', '.git'), 'gitdir: ../main/.git/worktrees/wt\n');
    expect(expectBlock(s.hook(join(s.repo, 'wt', 'sub')))).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\./);
    // Without its commondir, the worktree's gitdir has no objects/ or refs/: not a top level,
    // and no repository to key the session's baseline by (round-39o O1): the stop is held.
    rmSync(join(s.repo, 'main', '.git', 'worktrees', 'wt', 'commondir'));
    expect(expectBlock(s.hook(join(s.repo, 'wt', 'sub')))).toContain(`${s.repo}/wt/.git: names no git repository that gate-check can read`);
    writeFileSync(join(s.repo, 'main', '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    // Another session: within one, the worktrees of a repository share a baseline, and gate A
    // (open in wt, missing in main) would be held there as removed (round-39a F3).
    expect(s.hook(join(s.repo, 'main'), 'session-2')).toEqual({ kind: 'allow' });
    expect(expectBlock(s.hook(join(s.repo, 'main')))).toMatch(/GATES:A \(weakened since the session began: removed/);
  });

  it.skipIf(!HAS_GIT)('agrees with git on a real repository: a session in a subdirectory is held to the top level', () => {
    const s = hookRepo({ 'GATES.md': OPEN, 'a/b/c.txt': 'x' });
    expect(spawnSync('git', ['init', '-q', '.'], { cwd: s.repo, env: s.env }).status).toBe(0);
    const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: join(s.repo, 'a', 'b'), env: s.env, encoding: 'utf8' }).stdout.trim();
    expect(top).toBe(s.repo);
    expect(expectBlock(s.hook(join(s.repo, 'a', 'b')))).toMatch(/^gate-check: 1 gate is not met: GATES:A /);
  });

  it('a directory that holds the private store (a repository inside HOME) is not taken for a repository', () => {
    const s = sandbox();
    const proj = join(s.home, 'proj');
    writeFiles(proj, { 'GATES.md': MET });
    // Something in the store already: HOME now has a .gate-check directory.
    // One session per ledger: within one, replacing a gate by another weakens it (weakening.test.ts).
    expect(runCli(['hook', 'claude-stop'], { cwd: proj, env: s.env, input: stopInput(proj, 'x1') }).code).toBe(0);
    writeFileSync(join(proj, 'GATES.md'), OPEN);
    expect(expectBlock(outcome(runCli(['hook', 'claude-stop'], { cwd: proj, env: s.env, input: stopInput(proj, 'x2') })))).toMatch(/^gate-check: 1 gate is not met: GATES:A /);
    writeFileSync(join(proj, 'GATES.md'), MET);
    expect(outcome(runCli(['hook', 'claude-stop'], { cwd: proj, env: s.env, input: stopInput(proj, 'x3') }))).toEqual({ kind: 'allow' });
  });

  // Round-13 L2: the physical path alone left the repository through a link the agent made.
  it('a link the agent made inside the repository to a folder outside does not take the session out of its gates', () => {
    for (const git of [false, true]) {
      const s = hookRepo({ 'GATES.md': OPEN, 'pkg/src.txt': 'x' }, { git });
      const outside = tempDir();
      symlinkSync(outside, join(s.repo, 'pkg', 'out'));
      expect(expectBlock(s.hook(join(s.repo, 'pkg', 'out')))).toMatch(/^gate-check: 1 gate is not met: GATES:A \(unchecked\)\./);
      expect(expectBlock(s.hook(join(s.repo, 'pkg', 'out', 'deeper')))).toContain('GATES:A (unchecked)');
      // The folder outside, named by its own path, is not the repository's.
      expect(outcome(runCli(['hook', 'claude-stop'], { cwd: outside, env: s.env, input: stopInput(outside, 'other') }))).toEqual({ kind: 'allow' });
    }
  });

  it('a cwd with a NUL byte is refused (a block that says so); one that does not exist is searched upwards', () => {
    const s = hookRepo({ 'GATES.md': OPEN });
    expect(expectBlock(s.hook('/nonexistent/\u0000x'))).toMatch(/^gate-check: the hook input is not a Claude Code stop event: its cwd holds a NUL byte\./);
    expect(expectBlock(s.hook(join(s.repo, 'no', 'such', 'dir')))).toContain('GATES:A (unchecked)');
  });
});

describe('a repository remembers that it had ledgers', () => {
  const GONE = /^gate-check: GATES\.md had open gates when the Stop hook last looked, and it is gone \(removed or moved\)\. Restore it \(for example `git checkout -- GATES\.md`\): removing or moving a ledger does not meet its gates\. If a person retired it on purpose, they run `gate-check hook forget` in (.*)\.$/;

  it('a ledger removed blocks in this and every later session until it is back', () => {
    const s = hookRepo({ 'GATES.md': OPEN });
    expectBlock(s.hook());
    rmSync(join(s.repo, 'GATES.md'));
    expect(GONE.exec(expectBlock(s.hook()))?.[1]).toBe(s.repo);
    expect(expectBlock(s.hook(s.repo, 'a-new-session'))).toMatch(GONE);
    writeFileSync(join(s.repo, 'GATES.md'), OPEN);
    expect(expectBlock(s.hook(s.repo, 'a-new-session'))).toMatch(/^gate-check: 1 gate is not met: GATES:A /);
  });

  it('a removed ledger in a directory named with a backtick and a space: the restore command is shell-quoted and reads back whole as Markdown', () => {
    const s = hookRepo({ 'GATES.md': MET, 'p`k g/GATES.md': OPEN }, { git: true });
    const pkg = join(s.repo, 'p`k g');
    expectBlock(s.hook(pkg));
    rmSync(join(pkg, 'GATES.md'));
    const reason = expectBlock(s.hook(pkg, 'later'));
    expect(reason).toContain("p\\`k g/GATES.md had open gates");
    expect(reason).toContain("Restore it (for example ``git checkout -- 'p`k g/GATES.md'``):");
    const codes = [...renderHtml(reason).matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]);
    expect(codes).toEqual(["git checkout -- 'p`k g/GATES.md'", 'gate-check hook forget']);
  });

  it('a ledger moved away before a new session\'s first stop blocks', () => {
    const s = hookRepo({ 'GATES.md': OPEN });
    expectBlock(s.hook(s.repo, 'yesterday'));
    mkdirSync(join(s.repo, 'docs'));
    renameSync(join(s.repo, 'GATES.md'), join(s.repo, 'docs', 'GATES.md'));
    expect(expectBlock(s.hook(s.repo, 'today'))).toMatch(GONE);
  });

  it('with another ledger left (all of it met), the missing one still blocks', () => {
    const s = hookRepo({ 'GATES.md': OPEN, 'gates/other.md': MET });
    expectBlock(s.hook());
    rmSync(join(s.repo, 'GATES.md'));
    expect(expectBlock(s.hook(s.repo, 'another'))).toMatch(GONE);
  });

  it('a ledger whose gates were all met when last seen may go, and one never seen is not missed', () => {
    const s = hookRepo({ 'GATES.md': MET, 'gates/b.md': OPEN });
    expectBlock(s.hook());
    rmSync(join(s.repo, 'GATES.md'));
    // A new session each time: within one, a gate removed is weakened (weakening.test.ts).
    expect(expectBlock(s.hook(s.repo, 'second'))).toMatch(/^gate-check: 1 gate is not met: b:A /);
    writeFileSync(join(s.repo, 'gates', 'b.md'), MET);
    expect(s.hook(s.repo, 'third')).toEqual({ kind: 'allow' });
    rmSync(join(s.repo, 'gates'), { recursive: true });
    expect(s.hook(s.repo, 'later')).toEqual({ kind: 'allow' });
  });

  it('a .gate-check folder whose scopes hold no ledger, in a repository that never had one, allows the stop (no false block)', () => {
    const s = hookRepo({ '.gate-check/empty/notes.txt': 'x', '.gate-check/also-empty/.keep': '' });
    expect(s.hook()).toEqual({ kind: 'allow' });
  });

  it('the memory lives in the private store (0600), one file per repository, holding only ledger paths', () => {
    const s = hookRepo({ 'GATES.md': OPEN, 'gates/x.md': MET });
    expectBlock(s.hook());
    const files = readdirSync(s.hooksDir).filter((f) => f.startsWith('ledgers-'));
    expect(files).toEqual([expect.stringMatching(/^ledgers-[0-9a-f]{16}\.json$/)]);
    expect(JSON.parse(readFileSync(join(s.hooksDir, files[0]!), 'utf8'))).toEqual({ root: s.repo, open: ['GATES.md'] });
  });

  it('an invalid memory file blocks (the store is not trusted blindly)', () => {
    const s = hookRepo({ 'GATES.md': OPEN });
    expectBlock(s.hook());
    const [file] = readdirSync(s.hooksDir).filter((f) => f.startsWith('ledgers-'));
    for (const text of ['{"root":"/elsewhere","open":[]}', '{"root":1}', 'nope', JSON.stringify({ root: s.repo, open: [''] }), JSON.stringify({ root: s.repo, open: ['a'], extra: 1 })]) {
      writeFileSync(join(s.hooksDir, file!), text, { mode: 0o600 });
      writeFileSync(join(s.repo, 'GATES.md'), MET);
      expect(expectBlock(s.hook())).toMatch(/^gate-check: the Stop hook could not check the gates \(.*invalid ledger memory\)/);
    }
  });
});

describe('gate-check hook forget', () => {
  function forgotten() {
    const s = hookRepo({ 'GATES.md': OPEN });
    expectBlock(s.hook());
    rmSync(join(s.repo, 'GATES.md'));
    return s;
  }

  it('refuses without a terminal (exit 2), naming what it remembers and the file; nothing changes', () => {
    const s = forgotten();
    const r = runCli(['hook', 'forget'], { cwd: s.repo, env: s.env, input: 'y\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hook forget asks a person to confirm on a terminal, and this is not one \(the Stop hook remembers GATES\.md in /);
    expect(r.stderr).toMatch(/hint: run it yourself in a terminal, or remove .*\/hooks\/ledgers-[0-9a-f]{16}\.json by hand/);
    expect(expectBlock(s.hook())).toMatch(/had open gates when the Stop hook last looked/);
  });

  it('with nothing remembered, says so (exit 0)', () => {
    const s = hookRepo({});
    const r = runCli(['hook', 'forget'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/remembers no ledgers of /);
  });

  it.skipIf(!HAS_SCRIPT)('on a terminal: "y" forgets (the stop is allowed), anything else keeps the memory', () => {
    const s = forgotten();
    const onTerminal = (answer: string) =>
      spawnSync('script', ['-qec', `'${process.execPath}' '${BIN}' hook forget`, '/dev/null'], { cwd: s.repo, env: cleanEnv({ HOME: s.home }), input: answer, encoding: 'utf8', timeout: 20_000 });
    const no = onTerminal('n\n');
    expect(no.stdout).toMatch(/had open gates: GATES\.md\./);
    expect(no.stdout).toMatch(/nothing changed/);
    expect(expectBlock(s.hook())).toMatch(/had open gates when the Stop hook last looked/);
    const yes = onTerminal('y\n');
    expect(yes.stdout).toMatch(/forgot the ledgers of /);
    // In this session the ledger's gate was removed: that a person approves apart (`hook accept`,
    // stop-weakening.test.ts). A new session starts from the tree without that ledger.
    expect(expectBlock(s.hook())).toMatch(/^gate-check: 1 gate is not met: GATES:A \(weakened since the session began: removed: a person must approve\)/);
    expect(s.hook(s.repo, 'next-session')).toEqual({ kind: 'allow' });
  });

  it.skipIf(!HAS_SCRIPT || !HAS_GIT)('a package removed with its folder: the block names the top level, where "y" forgets it', () => {
    const s = hookRepo({ 'pkg/GATES.md': OPEN }, { git: true });
    expectBlock(s.hook(join(s.repo, 'pkg')));
    rmSync(join(s.repo, 'pkg'), { recursive: true });
    const reason = expectBlock(s.hook());
    expect(reason).toMatch(/^gate-check: pkg\/GATES\.md had open gates when the Stop hook last looked, and it is gone/);
    expect(reason).toContain(`they run \`gate-check hook forget\` in ${s.repo}.`);
    const yes = spawnSync('script', ['-qec', `'${process.execPath}' '${BIN}' hook forget`, '/dev/null'], { cwd: s.repo, env: cleanEnv({ HOME: s.home }), input: 'y\n', encoding: 'utf8', timeout: 20_000 });
    expect(yes.stdout).toMatch(/had open gates: pkg\/GATES\.md\./);
    expect(yes.stdout).toMatch(/forgot the ledgers of /);
    expect(readdirSync(s.hooksDir).filter((f) => f.startsWith('roots-') || f.startsWith('ledgers-'))).toEqual([]);
    expect(s.hook(s.repo, 'next-session')).toEqual({ kind: 'allow' });
  });
});
