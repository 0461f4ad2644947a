// Names that are not UTF-8 (round 39r). Node hands gate-check the current folder, arguments
// and real paths as text, a byte that is not UTF-8 decoded to U+FFFD, and that text then names
// whatever folder is spelled U+FFFD in UTF-8 (EF BF BD): a decoy the agent can make. Where
// such a name decides which repository, ledger or CWD is meant, gate-check refuses it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from '../helpers/cli.js';
import { answerOf, blockOf, codexPayload } from '../hook/host-fixtures.js';

const FF = Buffer.from([0xff]);
const FFFD = '\ufffd';
const bytes = (folder: string, name: Buffer) => Buffer.concat([Buffer.from(`${folder}/`), name]);

function gitInit(dir: string): void {
  execFileSync('git', ['init', '-q', dir]);
}

describe('names that are not UTF-8', () => {
  // R5: the repository under a folder named 0xFF, a decoy under the folder spelled U+FFFD with
  // its gate ticked by hand: --status --strict and a plain run in the real checkout said
  // ALL MET (exit 0) while its gate was open, and the hook let the stop through.
  it('a repository under a folder whose name is not UTF-8 is refused, not read through its decoy', () => {
    const s = sandbox();
    const base = join(s.repo, '..');
    const realParent = bytes(base, FF);
    mkdirSync(realParent);
    renameSync(s.repo, bytes(base, Buffer.concat([FF, Buffer.from('/repo')])));
    const real = join(base, 'here'); // a link into it: chdir through it, and getcwd names the bytes
    symlinkSync(bytes(base, Buffer.concat([FF, Buffer.from('/repo')])), real);
    gitInit(real);
    writeFileSync(join(real, 'GATES.md'), '- [ ] G1: the api works\n  CHECK: sh api.sh\n  EXPECT: ok\n');
    writeFileSync(join(real, 'api.sh'), 'echo broken\n');
    const decoy = join(base, FFFD, 'repo');
    mkdirSync(decoy, { recursive: true });
    gitInit(decoy);
    writeFileSync(join(decoy, 'GATES.md'), '- [x] G1: the api works\n  EVIDENCE: checked by hand\n');

    for (const args of [['--status', '--strict'], [], ['--status'], ['lint']]) {
      const r = runCli(args, { cwd: real, env: s.env });
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toMatch(/a name on this path is not UTF-8 text/);
      expect(r.stdout).not.toMatch(/ALL MET/);
    }
    // The host sends the folder as JSON text, its byte decoded the same way.
    const hook = runCli(['hook', 'stop', '--host', 'codex'], { cwd: real, env: s.env, input: JSON.stringify(codexPayload(join(base, FFFD, 'repo'))) });
    expect(blockOf(answerOf('codex', hook))).toMatch(/a name on this path is not UTF-8 text/);
    // The decoy is as ambiguous while its twin is there; a folder really spelled U+FFFD, with
    // nothing that decodes alike beside it, is its own name.
    expect(runCli(['--status'], { cwd: decoy, env: s.env }).code).toBe(2);
    renameSync(realParent, join(base, 'moved'));
    const r = runCli(['--status'], { cwd: decoy, env: s.env });
    expect(r.code, r.stderr).toBe(0);
  });

  // R2, R6: a gate's CWD link into a folder named 0xFF passed; pointed at the folder spelled
  // U+FFFD (whose script prints "broken"), both decoded alike, and the evidence stayed verified.
  it('a CWD whose real path is not UTF-8 is not runnable, and a pass never follows a link re-pointed to one', () => {
    const s = sandbox();
    gitInit(s.repo);
    const good = bytes(s.repo, FF);
    mkdirSync(good);
    writeFileSync(bytes(s.repo, Buffer.concat([FF, Buffer.from('/test.sh')])), 'echo ok > ran.txt; echo ok\n');
    mkdirSync(join(s.repo, FFFD));
    writeFileSync(join(s.repo, FFFD, 'test.sh'), 'echo ok\n');
    symlinkSync(good, join(s.repo, 'sub'));
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: the tests pass\n  CHECK: sh test.sh\n  EXPECT: ok\n  CWD: sub\n  EVIDENCE: pending\n');

    const approve = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(approve.code).toBe(1);
    expect(approve.stdout).toMatch(/CWD of GATES:G1 \(GATES\.md:4\) leads to a folder whose path is not UTF-8 text/);
    expect(existsSync(bytes(s.repo, Buffer.concat([FF, Buffer.from('/ran.txt')])))).toBe(false);
    const status = runCli(['--status'], { cwd: s.repo, env: s.env });
    expect(status.stdout).toMatch(/not runnable: CWD of GATES:G1 .* not UTF-8 text/);

    // The other way round: a pass in the folder spelled U+FFFD, then the link pointed at 0xFF.
    execFileSync('ln', ['-sfn', FFFD, 'sub'], { cwd: s.repo });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).stdout).toMatch(/ALL MET/);
    symlinkSync(good, join(s.repo, 'sub2'));
    renameSync(join(s.repo, 'sub2'), join(s.repo, 'sub'));
    const strict = runCli(['--status', '--strict'], { cwd: s.repo, env: s.env });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/met, stale .*CWD sub: it leads to a folder whose path is not UTF-8 text now/);
  });

  // Found after round 39r: a DEPENDS glob matched a script named 0xFF as text spelled U+FFFD
  // and hashed its twin, so the script the CHECK runs was bound by nothing: edited after the
  // approval, its gate stayed verified.
  it('a DEPENDS or INPUTS match whose name is not UTF-8 is refused, never hashed as its twin', () => {
    for (const what of ['DEPENDS', 'INPUTS']) {
      const s = sandbox();
      gitInit(s.repo);
      mkdirSync(join(s.repo, 'scripts'));
      writeFileSync(bytes(join(s.repo, 'scripts'), Buffer.from([0xff, 0x2e, 0x73, 0x68])), 'echo ok > ran.txt; echo ok\n');
      writeFileSync(join(s.repo, 'scripts', `${FFFD}.sh`), 'echo twin\n');
      writeFileSync(join(s.repo, 'GATES.md'), `- [ ] G1: t\n  CHECK: for f in scripts/*.sh; do sh "$f"; done\n  EXPECT: ok\n  ${what}: scripts/*.sh\n`);
      const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
      expect(r.code, what).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`not runnable: ${what} of GATES:G1: pattern scripts/\\*\\.sh matches scripts/<U\\+FFFD>\\.sh, a path with a name that is not UTF-8 text`));
      expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
    }
  });

  // Round-39s S2: a folder named 0xFF under `DEPENDS: lib/**` was passed over (fast-glob skips
  // what it cannot open by the decoded name): the approval bound lib/a.sh alone, and the
  // script in that folder, edited after it, ran under the old approval.
  it('a folder whose name is not UTF-8 under a DEPENDS or INPUTS walk is refused, never passed over', () => {
    for (const what of ['DEPENDS', 'INPUTS']) {
      const s = sandbox();
      gitInit(s.repo);
      mkdirSync(join(s.repo, 'lib'));
      writeFileSync(join(s.repo, 'lib', 'a.sh'), 'echo ok\n');
      mkdirSync(bytes(join(s.repo, 'lib'), FF));
      writeFileSync(bytes(join(s.repo, 'lib'), Buffer.concat([FF, Buffer.from('/b.sh')])), 'echo ok > ran.txt\n');
      writeFileSync(join(s.repo, 'GATES.md'), `- [ ] G1: t\n  CHECK: for f in lib/*/b.sh; do sh "$f"; done; echo ok\n  EXPECT: ok\n  ${what}: lib/**\n`);
      const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
      expect(r.code, what).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`not runnable: ${what} of GATES:G1: pattern lib/\\*\\* walks lib, which holds a name that is not UTF-8 text`));
      expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
      // --status names the same reason (not "matches only ledgers").
      expect(runCli(['--status'], { cwd: s.repo, env: s.env }).stdout).toMatch(/not runnable: \S+ of GATES:G1: pattern lib\/\*\* walks lib, which holds a name that is not UTF-8 text/);
    }
  });

  // Round-39s S3: `PATH=tools:$PATH`, tools/runtests a link to a file named 0xFF beside its twin
  // spelled U+FFFD: the approval bound the twin, and the real target, edited, stayed verified.
  it('an executable in a PATH folder of the repository that leads to a path that is not UTF-8 is refused', () => {
    const s = sandbox();
    gitInit(s.repo);
    mkdirSync(join(s.repo, 'tools'));
    writeFileSync(bytes(s.repo, FF), '#!/bin/sh\necho ok > ran.txt; echo ok\n', { mode: 0o755 });
    writeFileSync(join(s.repo, FFFD), '#!/bin/sh\necho ok\n', { mode: 0o755 });
    symlinkSync(Buffer.concat([Buffer.from('../'), FF]), join(s.repo, 'tools', 'runtests'));
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: the tests pass\n  CHECK: PATH=tools:$PATH runtests\n  EXPECT: ok\n');
    const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tools\/runtests resolves to a path that is not UTF-8 text/);
    expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
    // The PATH folder itself a link to a folder named 0xFF (its twin holds another runtests).
    const t = sandbox();
    gitInit(t.repo);
    mkdirSync(bytes(t.repo, FF));
    writeFileSync(bytes(t.repo, Buffer.concat([FF, Buffer.from('/runtests')])), '#!/bin/sh\necho ok > ran.txt; echo ok\n', { mode: 0o755 });
    mkdirSync(join(t.repo, FFFD));
    writeFileSync(join(t.repo, FFFD, 'runtests'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
    symlinkSync(FF, join(t.repo, 'tools'));
    writeFileSync(join(t.repo, 'GATES.md'), '- [ ] G1: the tests pass\n  CHECK: PATH=tools:$PATH runtests\n  EXPECT: ok\n');
    const u = runCli(['--approve'], { cwd: t.repo, env: t.env });
    expect(u.code, u.stdout).toBe(2);
    expect(u.stderr).toMatch(/resolves to a path that is not UTF-8 text/);
    expect(existsSync(join(t.repo, 'ran.txt'))).toBe(false);
  });

  // Round-39s S6: GATE_CHECK_HOME (or HOME) through a folder named 0xFF made the private store
  // in its twin spelled U+FFFD.
  it('a private store whose path holds a name that is not UTF-8 is refused', () => {
    const s = sandbox();
    gitInit(s.repo);
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: t\n  CHECK: echo ok\n  EXPECT: ok\n');
    const base = join(s.home, '..');
    mkdirSync(bytes(base, FF));
    mkdirSync(join(base, FFFD));
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GATE_CHECK_HOME: join(base, FFFD, 'store') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a name on this path is not UTF-8 text/);
    expect(existsSync(join(base, FFFD, 'store'))).toBe(false);
  });
});

// Round-39u U2: fast-glob's matcher writes `**` with a regular expression `.`, which does not
// match a line terminator: `DEPENDS: lib/**` passed over `lib/helper<LF>x.sh` (and a folder so
// named), the approval bound lib/a.sh alone, and an edit of that script ran under it.
describe('names with a line break', () => {
  const BREAKS: Array<[string, string]> = [
    ['LF', '\n'],
    ['CR', '\r'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
  ];

  it('a file or folder whose name holds a line break under a DEPENDS or INPUTS walk is refused, never passed over', () => {
    for (const [label, c] of BREAKS) {
      for (const [what, folder] of [['DEPENDS', false], ['INPUTS', true]] as const) {
        const s = sandbox();
        gitInit(s.repo);
        mkdirSync(join(s.repo, 'lib'));
        writeFileSync(join(s.repo, 'lib', 'a.sh'), 'echo ok\n');
        const name = folder ? join(s.repo, 'lib', `sub${c}dir`, 'b.sh') : join(s.repo, 'lib', `helper${c}x.sh`);
        if (folder) mkdirSync(join(name, '..'));
        writeFileSync(name, 'echo ok > ran.txt\n');
        writeFileSync(join(s.repo, 'GATES.md'), `- [ ] G1: t\n  CHECK: sh lib/a.sh\n  EXPECT: ok\n  ${what}: lib/**\n`);
        const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
        expect(r.code, `${label} ${what}`).toBe(1);
        expect(r.stdout).toMatch(new RegExp(`not runnable: ${what} of GATES:G1: pattern lib/\\*\\* walks lib, which holds a name with a line break \\((helper|sub)<U\\+[0-9A-F]{4}>(x\\.sh|dir)\\), which the pattern's \\*\\* does not match`));
        expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
      }
    }
  });

  it('such a name added after the approval makes the evidence stale, and nothing runs under the old approval', () => {
    const s = sandbox();
    gitInit(s.repo);
    mkdirSync(join(s.repo, 'lib'));
    writeFileSync(join(s.repo, 'lib', 'a.sh'), 'for f in lib/*; do [ "$f" = lib/a.sh ] || . "$f"; done; echo ok\n');
    writeFileSync(join(s.repo, 'GATES.md'), '- [ ] G1: t\n  CHECK: sh lib/a.sh\n  EXPECT: ok\n  DEPENDS: lib/**\n');
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env: s.env }).code).toBe(0);
    writeFileSync(join(s.repo, 'lib', 'helper\nx.sh'), 'echo unapproved > ran.txt\n');
    const status = runCli(['--status', '--strict'], { cwd: s.repo, env: s.env });
    expect(status.code).toBe(1);
    expect(status.stdout).not.toMatch(/ALL MET/);
    const again = runCli(['--reverify'], { cwd: s.repo, env: s.env });
    expect(again.code).toBe(1);
    expect(existsSync(join(s.repo, 'ran.txt'))).toBe(false);
  });
});
