// What a PATH executable of the repository names at its start for the kernel: the `#!`
// interpreter, the paths in its `#!` argument, an ELF loader (round-27 01-07). Each is code
// that runs with the executable and that its bytes do not hold: bound, or refused.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, joinedRows, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';
import { elfWithLoader } from '../helpers/elf.js';
import { RACY_MARGIN_MS } from '../../lib/fsx/stat-cache.js';
import { ptyDriver, startInPty, waitUntil } from '../helpers/process.js';

const LEDGER = '- [ ] G1: the tests pass\n  CHECK: runtests\n  EXPECT: tests passed\n';

/** A repository whose tools/runtests (on PATH) starts with `start(repo)`, and `files` beside it. */
function repo(start: (repo: string) => string | Buffer, files: Record<string, string> = {}) {
  const s = sandbox();
  mkdirSync(join(s.repo, 'tools'));
  mkdirSync(join(s.repo, 'lib'));
  writeFiles(s.repo, { 'GATES.md': LEDGER, ...files });
  writeFileSync(join(s.repo, 'tools/runtests'), start(s.repo), { mode: 0o755 });
  for (const f of Object.keys(files)) chmodSync(join(s.repo, f), 0o755);
  const env = { ...s.env, PATH: `${join(s.repo, 'tools')}:${process.env.PATH}` };
  const cli = (args: string[]) => runCli(args, { cwd: s.repo, env });
  return { ...s, env, cli };
}

/** Approved, met (status only: nothing runs), then `edit`: the evidence must no longer count. */
function staleAfter(r: ReturnType<typeof repo>, edit: () => void, what: string) {
  expect(r.cli(['--approve']).code, what).toBe(0);
  expect(r.cli(['--status', '--strict']).code, what).toBe(0);
  edit();
  expect(r.cli(['--status', '--strict']).code, what).toBe(1);
  expect(r.cli([]).stdout, what).not.toMatch(/^PASS/m);
}

const INTERP = '#!/bin/sh\necho tests passed\n';

/** Approved, then `edit`: a run asks for a new approval of tools/runtests and runs nothing (for files that cannot run here). */
function boundAfter(r: ReturnType<typeof repo>, edit: () => void, what: string) {
  expect(r.cli(['--approve']).code, what).not.toBe(2);
  edit();
  const again = r.cli([]);
  expect(again.code, what).toBe(1);
  expect(joinedRows(again.stdout), what).toMatch(/approved before for another oracle: PATH executable inside the repository: tools\/runtests changed/);
}

describe("a PATH executable's start: what the kernel runs with it is bound or refused", () => {
  it('a relative path anywhere in the #! line is refused, exit 2 (env ./lib/interp, sh lib/a.sh)', () => {
    for (const line of ['#!/usr/bin/env ./lib/interp\n', '#!/bin/sh lib/a.sh\n', '#!/usr/bin/env -S sh lib/c.sh\n', '#!/bin/sh --rcfile=lib/a.sh\n']) {
      const r = repo(() => line, { 'lib/interp': INTERP, 'lib/a.sh': 'echo tests passed\n', 'lib/c.sh': 'echo tests passed\n' });
      const refused = r.cli(['--approve']);
      expect(refused.code, line).toBe(2);
      expect(refused.stderr, line).toMatch(/tools\/runtests names (its #! interpreter|a file in its #! line) by a relative path/);
    }
  });

  it('an absolute path into the repository in the #! argument is bound (sh /repo/lib/b.sh, env -S sh /repo/lib/c.sh)', () => {
    for (const [line, file] of [['#!/bin/sh REPO/lib/b.sh\n', 'lib/b.sh'], ['#!/usr/bin/env -S sh REPO/lib/c.sh\n', 'lib/c.sh']] as const) {
      const r = repo((dir) => line.replace('REPO', dir), { [file]: 'echo tests passed\n' });
      staleAfter(r, () => writeFileSync(join(r.repo, file), 'touch edited-ran; echo tests passed\n'), line);
      expect(existsSync(join(r.repo, 'edited-ran'))).toBe(false);
    }
  });

  it('a CR ends no name: the file the kernel runs (lib/interp<CR>) is the one bound, not lib/interp', () => {
    const r = repo((dir) => `#!${dir}/lib/interp\r\n`, { 'lib/interp\r': INTERP, 'lib/interp': INTERP });
    staleAfter(r, () => writeFileSync(join(r.repo, 'lib/interp\r'), '#!/bin/sh\ntouch edited-ran; echo tests passed\n'), 'CR');
  });

  it('a NUL ends the name: the interpreter before it is bound by its bytes', () => {
    const r = repo((dir) => `#!${dir}/lib/interp\0x\n`, { 'lib/interp': INTERP });
    staleAfter(r, () => writeFileSync(join(r.repo, 'lib/interp'), '#!/bin/sh\ntouch edited-ran; echo tests passed\n'), 'NUL');
  });

  it('an interpreter named in the repository but missing is bound as missing: making it is a change', () => {
    const r = repo((dir) => `#!${dir}/lib/interp\n`);
    boundAfter(r, () => writeFileSync(join(r.repo, 'lib/interp'), INTERP, { mode: 0o755 }), 'missing');
  });

  it('an interpreter linked from the repository to outside is bound by where the link leads: retargeted, it is a change', () => {
    const r = repo((dir) => `#!${dir}/lib/link\necho tests passed\n`);
    symlinkSync('/bin/sh', join(r.repo, 'lib/link'));
    staleAfter(r, () => (unlinkSync(join(r.repo, 'lib/link')), symlinkSync('/bin/bash', join(r.repo, 'lib/link'))), 'retarget');
  });

  it('an ELF loader (PT_INTERP) in the repository is bound; a relative one is refused; one past 64 KiB is refused', () => {
    const abs = repo((dir) => elfWithLoader(`${dir}/lib/ld.so`), { 'lib/ld.so': 'loader v1\n' });
    boundAfter(abs, () => writeFileSync(join(abs.repo, 'lib/ld.so'), 'loader v2\n'), 'ELF loader');

    const rel = repo(() => elfWithLoader('lib/ld.so'));
    const refused = rel.cli(['--approve']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/names its loader \(ELF PT_INTERP\) by a relative path/);

    const far = elfWithLoader('/lib64/ld-linux-x86-64.so.2');
    far.writeBigUInt64LE(70000n, 64 + 8); // the loader's name at offset 70000
    const unread = repo(() => Buffer.concat([far, Buffer.alloc(80000)]));
    const r = unread.cli(['--approve']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/whose loader \(PT_INTERP\) cannot be read from its first 64 KiB/);
  });

  it('a chain of interpreters is bound as deep as the kernel follows it (5 rewrites), and a deeper one is refused', () => {
    // tools/runtests, then lib/i1 … lib/i<n>: each a #! line naming the next; the last starts with `last`.
    const chain = (n: number, last: string) => {
      const r = repo((dir) => `#!${dir}/lib/i1\n`);
      for (let i = 1; i <= n; i++) writeFileSync(join(r.repo, `lib/i${i}`), i === n ? last : `#!${r.repo}/lib/i${i + 1}\n`, { mode: 0o755 });
      return r;
    };
    const five = chain(5, 'an ELF file, say\n');
    boundAfter(five, () => writeFileSync(join(five.repo, 'lib/i5'), 'another ELF file\n'), 'depth 5');
    const six = chain(5, INTERP);
    const refused = six.cli(['--approve']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/starts a chain of #! interpreters deeper than the kernel follows \(5\)/);
  });
});

describe('PATH and HOME', () => {
  it('a ~/ entry with a relative HOME is refused, exit 2 (it would move with the check)', () => {
    const r = repo(() => INTERP);
    const res = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, HOME: '../home', PATH: `~/bin:${process.env.PATH}` } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/PATH entry ~\/bin starts at HOME, which is not an absolute path/);
  });
});

describe('a command found outside through a link into the repository, however the CHECK spells it', () => {
  it('\\mycli, my""cli, .mycli, my:cli, -zcli, 123, mycl[i]: not runnable unless DEPENDS binds the file', () => {
    for (const [check, name] of [['\\mycli', 'mycli'], ['my""cli', 'mycli'], ['.mycli', '.mycli'], ['my:cli', 'my:cli'], ['-zcli', '-zcli'], ['123', '123'], ['mycl[i]', 'mycli']] as const) {
      const out = tempDir();
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the cli works\n  CHECK: ${check} --selftest\n  EXPECT: selftest ok\n`, 'cli/tool': '#!/bin/sh\necho selftest ok\n' });
      chmodSync(join(s.repo, 'cli/tool'), 0o755);
      symlinkSync(join(s.repo, 'cli/tool'), join(out, name));
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${out}:${process.env.PATH}` } });
      expect(r.stdout, check).toMatch(/a link into the repository \(cli\/tool\): that file is not bound into an approval unless DEPENDS lists it/);
      expect(r.stdout, check).not.toMatch(/^PASS/m);
    }
  });
});

describe('round 28: what the kernel reads, read as it reads it', () => {
  it('with no newline in the first 256 bytes, the #! argument ends before byte 255: the file the kernel runs is bound', () => {
    const r = repo((dir) => {
      const path = `${dir}/lib/a.sh`;
      return `#!/bin/sh${' '.repeat(256 - 9 - path.length)}${path}`;
    }, { 'lib/a.s': 'echo tests passed\n', 'lib/a.sh': 'echo tests passed\n' });
    staleAfter(r, () => writeFileSync(join(r.repo, 'lib/a.s'), 'touch edited-ran; echo tests passed\n'), 'truncated');
  });

  it('a path at the start that is not valid UTF-8, or a file name in a bound folder that is not, is refused (exit 2)', () => {
    const interp = repo((dir) => Buffer.concat([Buffer.from(`#!${dir}/lib/interp`), Buffer.from([0xe9]), Buffer.from('\n')]));
    const r1 = interp.cli(['--approve']);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/names a file at its start by a path that is not valid UTF-8/);

    const named = repo(() => INTERP);
    writeFileSync(Buffer.from(`${named.repo}/tools/run\xff`, 'latin1'), INTERP, { mode: 0o755 });
    const r2 = named.cli(['--approve']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/holds a file whose name is not valid UTF-8/);
  });

  it("an executable a bound folder reaches outside the repository is bound by what its own #! names inside it", () => {
    const out = tempDir();
    const r = repo(() => INTERP, { 'lib/interp': INTERP });
    writeFileSync(join(out, 'runtests'), `#!${r.repo}/lib/interp\n`, { mode: 0o755 });
    unlinkSync(join(r.repo, 'tools/runtests'));
    symlinkSync(join(out, 'runtests'), join(r.repo, 'tools/runtests'));
    staleAfter(r, () => writeFileSync(join(r.repo, 'lib/interp'), '#!/bin/sh\ntouch edited-ran; echo tests passed\n'), 'outside #!');
    // And through an outside interpreter that names one inside (a chain).
    const r2 = repo(() => `#!${join(out, 'middle')}\n`, { 'lib/interp': INTERP });
    writeFileSync(join(out, 'middle'), `#!${r2.repo}/lib/interp\n`, { mode: 0o755 });
    staleAfter(r2, () => writeFileSync(join(r2.repo, 'lib/interp'), '#!/bin/sh\ntouch edited-ran; echo tests passed\n'), 'outside chain');
  });
});

describe('round 29: the kernel, read to the byte; caches keyed by what a path leads to', () => {
  it('a blank at byte 255 ends the interpreter name: that interpreter is bound', () => {
    const r = repo((dir) => {
      const path = `${dir}/lib/interp`;
      return `#!${'/'.repeat(253 - path.length)}${path} xyz\necho never\n`;
    }, { 'lib/interp': INTERP });
    staleAfter(r, () => writeFileSync(join(r.repo, 'lib/interp'), '#!/bin/sh\ntouch edited-ran; echo tests passed\n'), 'byte 255');
  });

  it('the #! argument is one string for the kernel: "lib/a.sh x" is bound, not the decoy lib/a.sh', () => {
    const r = repo((dir) => `#!/bin/sh ${dir}/lib/a.sh x\n`, { 'lib/a.sh x': 'echo tests passed\n', 'lib/a.sh': 'echo decoy\n' });
    staleAfter(r, () => writeFileSync(join(r.repo, 'lib/a.sh x'), 'touch edited-ran; echo tests passed\n'), 'whole argument');
  });

  it("an outside interpreter retargeted into the repository by an earlier gate's check is judged again before the next gate", () => {
    const out = tempDir();
    writeFileSync(join(out, 'real'), '#!/bin/sh\necho tests passed\n', { mode: 0o755 });
    symlinkSync(join(out, 'real'), join(out, 'interp'));
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': `- [ ] A: relinks\n  CHECK: ln -sf ${s.repo}/lib/interp2 ${out}/interp && echo a-ok\n  EXPECT: a-ok\n\n- [ ] B: the tests pass\n  CHECK: runtests\n  EXPECT: tests passed\n`,
      'tools/runtests': `#!${out}/interp\n`,
      'lib/interp2': '#!/bin/sh\ntouch unbound-ran; echo tests passed\n',
    });
    for (const f of ['tools/runtests', 'lib/interp2']) chmodSync(join(s.repo, f), 0o755);
    const env = { ...s.env, PATH: `${join(s.repo, 'tools')}:${process.env.PATH}` };
    // Both approved with the link leading outside; A runs first and relinks before B starts.
    const approve = runCli(['--approve'], { cwd: s.repo, env });
    expect(approve.stdout).not.toMatch(/^PASS\s+GATES:B/m);
    unlinkSync(join(out, 'interp'));
    symlinkSync(join(out, 'real'), join(out, 'interp'));
    const run = runCli([], { cwd: s.repo, env });
    expect(run.stdout).not.toMatch(/^PASS\s+GATES:B/m);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
  });

  it('an executable the CHECK names by an absolute path outside that leads into the repository is not runnable unless DEPENDS binds it', () => {
    const out = tempDir();
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the cli works\n  CHECK: ${out}/mycli --selftest\n  EXPECT: selftest ok\n`, 'cli/mycli': '#!/bin/sh\necho selftest ok\n' });
    chmodSync(join(s.repo, 'cli/mycli'), 0o755);
    symlinkSync(join(s.repo, 'cli/mycli'), join(out, 'mycli'));
    const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(r.stdout).toMatch(/the CHECK's "[^"]*\/mycli" leads into the repository \(cli\/mycli\): that file is not bound/);
    expect(r.stdout).not.toMatch(/^PASS/m);
    // The repository through a linked folder (a symlinked home) is the same file by a name the
    // reader does not know for it (round-30 01): not runnable either, until DEPENDS binds it.
    const alias = join(tempDir(), 'alias');
    symlinkSync(s.repo, alias);
    writeFileSync(join(s.repo, 'GATES.md'), `- [ ] G1: the cli works\n  CHECK: ${alias}/cli/mycli --selftest\n  EXPECT: selftest ok\n`);
    const viaAlias = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(viaAlias.stdout).toMatch(/the CHECK's "[^"]*\/alias\/cli\/mycli" leads into the repository \(cli\/mycli\)/);
    expect(viaAlias.stdout).not.toMatch(/^PASS/m);
    writeFileSync(join(s.repo, 'GATES.md'), `- [ ] G1: the cli works\n  CHECK: ${alias}/cli/mycli --selftest\n  EXPECT: selftest ok\n  DEPENDS: cli/mycli\n`);
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).stdout).toMatch(/^PASS/m);
  });
});

describe('round 30: outside names for repository code, however spelled; outside folders judged again after each check', () => {
  /** A repository with an executable cli/mycli; `ledger(out)` is its GATES.md, for an outside folder `out`. */
  function cliRepo(ledger: (out: string) => string) {
    const out = tempDir();
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': ledger(out), 'cli/mycli': '#!/bin/sh\necho selftest ok\n' });
    chmodSync(join(s.repo, 'cli/mycli'), 0o755);
    return { ...s, out, approve: () => runCli(['--approve'], { cwd: s.repo, env: s.env }) };
  }

  it('absolute words that lead nowhere in the repository raise nothing (/dev/stderr, /proc/self/status, /dev/null, /usr/bin/env, a missing path)', () => {
    const r = cliRepo(() => '- [ ] G1: the cli works\n  CHECK: /usr/bin/env echo selftest ok | tee /dev/stderr; cat /proc/self/status > /dev/null; ls /nonexistent/x 2>/dev/null; true\n  EXPECT: selftest ok\n');
    const a = r.approve();
    expect(a.stderr).toBe('');
    expect(a.stdout).toMatch(/^PASS GATES:G1/m);
  });

  it('an absolute path through an outside folder linked into the repository is not runnable (exit 1), nothing runs', () => {
    const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: ${out}/d/mycli --selftest\n  EXPECT: selftest ok\n`);
    symlinkSync(join(r.repo, 'cli'), join(r.out, 'd'));
    const a = r.approve();
    expect(a.code).toBe(1);
    expect(a.stdout).toMatch(/the CHECK's "[^"]*\/d\/mycli" leads into the repository \(cli\/mycli\)/);
    expect(a.stdout).not.toMatch(/^PASS/m);
  });

  it.each([
    ['a ? pattern', (out: string) => `${out}/mycl?`],
    ['a * pattern', (out: string) => `${out}/myc*`],
    ['a [] pattern in a folder name', (out: string) => `${out}/[b]in/mycli`],
    ['a brace group', (out: string) => `${out}/bin/my{cli,x}`],
    ['a quoted brace group', (out: string) => `"${out}"/bin/my{cli,}`],
  ])('an absolute CHECK word with %s that matches an outside link into the repository is not runnable', (_what, word) => {
    const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: ${word(out)} --selftest\n  EXPECT: selftest ok\n`);
    symlinkSync(join(r.repo, 'cli/mycli'), join(r.out, 'mycli'));
    mkdirSync(join(r.out, 'bin'));
    symlinkSync(join(r.repo, 'cli/mycli'), join(r.out, 'bin/mycli'));
    const a = r.approve();
    expect(a.stdout).toMatch(/leads into the repository \(cli\/mycli\): that file is not bound/);
    expect(a.stdout).not.toMatch(/^PASS/m);
  });

  it.each([
    ['nested brace groups', (out: string) => `bash -c '${out}/{{d,e},f}/mycli'`],
    ['nested brace groups, the other way', (out: string) => `bash -c '${out}/{d,{e,f}}/mycli'`],
  ])('an absolute CHECK word with %s through a folder linked into the repository is not runnable (round-31 02)', (_what, check) => {
    const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: ${check(out)} --selftest\n  EXPECT: selftest ok\n`);
    symlinkSync(join(r.repo, 'cli'), join(r.out, 'd'));
    const a = r.approve();
    expect(a.stdout).toMatch(/leads into the repository \(cli\/mycli\)/);
    expect(a.stdout).not.toMatch(/^PASS/m);
  });

  it.each([
    ['PATH=/out/d:$PATH mycli', (out: string) => `PATH=${out}/d:$PATH mycli`, /leads into the repository's folder cli/],
    ['export PATH=/out/d:$PATH; mycli', (out: string) => `export PATH=${out}/d:$PATH; mycli`, /leads into the repository's folder cli/],
    ['env PATH=/out/d:/usr/bin:/bin mycli', (out: string) => `env PATH=${out}/d:/usr/bin:/bin mycli`, /leads into the repository's folder cli/],
    ['PATH=/out/bin2:$PATH mylink', (out: string) => `PATH=${out}/bin2:$PATH mylink`, /"mylink" is found in PATH at [^,]*bin2\/mylink, a link into the repository \(cli\/mycli\)/],
  ])('a PATH the CHECK sets to an outside folder that leads into the repository: %s is not runnable (round-31 01)', (_what, check, reason) => {
    const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: ${check(out)} --selftest\n  EXPECT: selftest ok\n`);
    symlinkSync(join(r.repo, 'cli'), join(r.out, 'd'));
    mkdirSync(join(r.out, 'bin2'));
    symlinkSync(join(r.repo, 'cli/mycli'), join(r.out, 'bin2/mylink'));
    const a = r.approve();
    expect(a.stdout).toMatch(reason);
    expect(a.stdout).not.toMatch(/^PASS/m);
  });

  it('a PATH the CHECK sets through $HOME, ${HOME} or ~ to a folder that leads into the repository is not runnable (round-32 F1)', () => {
    for (const spelled of ['$HOME/d', '${HOME}/d', '"$HOME"/d', '~/d']) {
      const r = cliRepo(() => `- [ ] G1: the cli works\n  CHECK: PATH=${spelled}:$PATH mycli --selftest\n  EXPECT: selftest ok\n`);
      symlinkSync(join(r.repo, 'cli'), join(r.out, 'd'));
      const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, HOME: r.out } });
      expect(a.stdout, spelled).toMatch(/leads into the repository's folder cli/);
      expect(a.stdout, spelled).not.toMatch(/^PASS/m);
    }
  });

  it.each([
    ['an equivalence class', (out: string) => `${out}/[[=d=]]/mycli`],
    ['a collating symbol', (out: string) => `${out}/[[.d.]]/mycli`],
    ['a character class', (out: string) => `${out}/[[:alpha:]]/mycli`],
    ['a quoted brace inside a group', (out: string) => `${out}/{d,"}"}/mycli`],
    ['an escaped brace inside a group', (out: string) => `${out}/{d,\\}}/mycli`],
  ])('an absolute CHECK word with %s through a folder linked into the repository is not runnable (round-32 F2)', (_what, word) => {
    const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: bash -c '${word(out).replaceAll("'", "'\\''")}' --selftest\n  EXPECT: selftest ok\n`);
    symlinkSync(join(r.repo, 'cli'), join(r.out, 'd'));
    const a = r.approve();
    expect(a.stdout).toMatch(/leads into the repository \(cli\/mycli\)/);
    expect(a.stdout).not.toMatch(/^PASS/m);
  });

  it("an outside command's #! line that loads a repository file by a file: URL, or through quotes env -S takes out, is not runnable; a ${…} there is refused (round-32 F3, F4)", () => {
    for (const option of ['--import=file://REPO/lib/x.mjs', '--import=file:REPO/lib/x.mjs', '--import=FILE://localhostREPO/lib/x.mjs', '--require=REPO/"lib"/x.mjs']) {
      const r = cliRepo(() => '- [ ] G1: the tool works\n  CHECK: mytool\n  EXPECT: tool ok\n');
      writeFiles(r.repo, { 'lib/x.mjs': 'console.log("tool ok")\n' });
      mkdirSync(join(r.out, 'bin'));
      writeFileSync(join(r.out, 'bin/mytool'), `#!/usr/bin/env -S node ${option.replace('REPO', r.repo)}\n`, { mode: 0o755 });
      const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
      expect(a.stdout, option).toMatch(/an outside file whose #! line or ELF loader names lib\/x\.mjs/);
      expect(a.stdout, option).not.toMatch(/^PASS/m);
    }
    const r = cliRepo(() => '- [ ] G1: the tool works\n  CHECK: mytool\n  EXPECT: tool ok\n');
    mkdirSync(join(r.out, 'bin'));
    writeFileSync(join(r.out, 'bin/mytool'), `#!/usr/bin/env -S node --require=${r.repo}/\${NOPE}lib/x.js\n`, { mode: 0o755 });
    const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/has a \$\{…\} in its #! line, which env -S expands/);
  });

  it('a CHECK that names more outside folders than are searched is refused (exit 2), not half read', () => {
    const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: ls ${Array.from({ length: 65 }, (_, i) => `${out}/f${i}`).join(' ')} && mycli --selftest\n  EXPECT: selftest ok\n`);
    for (let i = 0; i < 65; i++) mkdirSync(join(r.out, `f${i}`));
    const a = r.approve();
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/the CHECK names more than 64 folders outside the repository/);
  });

  it("an outside command whose #! line puts a repository folder on env -S's PATH is refused (exit 2)", () => {
    const r = cliRepo(() => '- [ ] G1: the tool works\n  CHECK: mytool\n  EXPECT: tool ok\n');
    mkdirSync(join(r.out, 'bin'));
    mkdirSync(join(r.repo, 'bin'));
    writeFileSync(join(r.out, 'bin/mytool'), `#!/usr/bin/env -S PATH=${r.repo}/bin:/usr/bin:/bin node\nconsole.log('tool ok')\n`, { mode: 0o755 });
    const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/names a folder of the repository in its #! line/);
  });

  it('ordinary outside tools whose #! line sets variables or quotes an outside path raise nothing (round-32 F8)', () => {
    for (const line of ['#!/usr/bin/env -S LANG=C.UTF-8 TZ=Europe/Berlin node', '#!/usr/bin/env -S PATH=/usr/bin:/bin node', '#!/usr/bin/env -S node --require="OUT/pre.js"']) {
      const r = cliRepo(() => '- [ ] G1: the tool works\n  CHECK: mytool\n  EXPECT: tool ok\n');
      mkdirSync(join(r.out, 'bin'));
      writeFileSync(join(r.out, 'pre.js'), '');
      writeFileSync(join(r.out, 'bin/mytool'), `${line.replace('OUT', r.out)}\nconsole.log('tool ok')\n`, { mode: 0o755 });
      const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
      expect(a.stderr, line).toBe('');
      expect(a.stdout, line).toMatch(/^PASS GATES:G1/m);
    }
  });

  it("an outside command whose #! line has an option with a module specifier (node:fs/promises) is no refusal (round-31 03)", () => {
    const r = cliRepo(() => '- [ ] G1: the tool works\n  CHECK: mytool\n  EXPECT: tool ok\n');
    mkdirSync(join(r.out, 'bin'));
    writeFileSync(join(r.out, 'bin/mytool'), "#!/usr/bin/env -S node --require=node:fs/promises\nconsole.log('tool ok')\n", { mode: 0o755 });
    const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
    expect(a.stderr).toBe('');
    expect(a.stdout).toMatch(/^PASS GATES:G1/m);
  });

  it('a bare command word with a brace group is read as the names it may expand to', () => {
    const r = cliRepo(() => '- [ ] G1: the cli works\n  CHECK: my{cli,} --selftest\n  EXPECT: selftest ok\n');
    mkdirSync(join(r.out, 'bin'));
    symlinkSync(join(r.repo, 'cli/mycli'), join(r.out, 'bin/mycli'));
    const a = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
    expect(a.stdout).toMatch(/a link into the repository \(cli\/mycli\)/);
    expect(a.stdout).not.toMatch(/^PASS/m);
  });

  it('an outside regular file, found by PATH or named by its path, whose #! line names repository code is not runnable until DEPENDS binds that code', () => {
    for (const how of ['bare', 'absolute'] as const) {
      const r = cliRepo((out) => `- [ ] G1: the cli works\n  CHECK: ${how === 'bare' ? 'mycli' : `${out}/bin/mycli`} --selftest\n  EXPECT: selftest ok\n`);
      writeFiles(r.repo, { 'lib/interp': '#!/bin/sh\necho selftest ok\n' });
      chmodSync(join(r.repo, 'lib/interp'), 0o755);
      mkdirSync(join(r.out, 'bin'));
      writeFileSync(join(r.out, 'bin/mycli'), `#!${r.repo}/lib/interp\n`, { mode: 0o755 });
      const env = { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` };
      const a = runCli(['--approve'], { cwd: r.repo, env });
      expect(a.code, how).toBe(1);
      expect(a.stdout, how).toMatch(/an outside file whose #! line or ELF loader names lib\/interp/);
      expect(a.stdout, how).not.toMatch(/^PASS/m);
      writeFileSync(join(r.repo, 'GATES.md'), `${readFileSync(join(r.repo, 'GATES.md'), 'utf8')}  DEPENDS: lib/interp\n`);
      expect(runCli(['--approve'], { cwd: r.repo, env }).stdout, how).toMatch(/^PASS/m);
    }
    // One that names a repository file not made yet: making it later would run it.
    const r = cliRepo(() => '- [ ] G1: the cli works\n  CHECK: mycli --selftest\n  EXPECT: selftest ok\n');
    mkdirSync(join(r.out, 'bin'));
    writeFileSync(join(r.out, 'bin/mycli'), `#!${r.repo}/lib/later\n`, { mode: 0o755 });
    const later = runCli(['--approve'], { cwd: r.repo, env: { ...r.env, PATH: `${join(r.out, 'bin')}:${process.env.PATH}` } });
    expect(later.stdout).toMatch(/an outside file whose #! line or ELF loader names lib\/later/);
  });

  it('a PATH folder that reaches the repository through a linked home (~/<repo>/tools) is bound whole, as the repository\'s own: it runs, and an edit there is a change', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER, 'tools/runtests': INTERP });
    chmodSync(join(s.repo, 'tools/runtests'), 0o755);
    const home = join(tempDir(), 'home');
    symlinkSync(dirname(s.repo), home);
    const env = { ...s.env, HOME: home, PATH: `~/${basename(s.repo)}/tools:${process.env.PATH}` };
    // The private store stays where the sandbox keeps it.
    const cli = (args: string[]) => runCli(args, { cwd: s.repo, env });
    const a = cli(['--approve']);
    expect(a.stdout).toMatch(/^PASS GATES:G1/m);
    expect(cli(['--status', '--strict']).code).toBe(0);
    writeFileSync(join(s.repo, 'tools/runtests'), '#!/bin/sh\necho tests passed; touch ran\n');
    expect(cli(['--status', '--strict']).code).toBe(1);
    expect(cli([]).stdout).not.toMatch(/^PASS/m);
    expect(existsSync(join(s.repo, 'ran'))).toBe(false);
  });

  it('an outside PATH folder that one gate links into the repository is judged again before the next gate runs', () => {
    for (const start of ['missing', 'outside'] as const) {
      const s = sandbox();
      const out = tempDir();
      const elsewhere = tempDir();
      if (start === 'outside') symlinkSync(elsewhere, join(out, 'bin'));
      writeFiles(s.repo, {
        'GATES.md': [
          `- [ ] A: the link is made\n  CHECK: ln -sfn ${s.repo}/tools ${out}/bin && echo linked\n  EXPECT: linked\n`,
          '- [ ] B: the tests pass\n  CHECK: runtests\n  EXPECT: tests passed\n',
          '',
        ].join('\n'),
        'tools/runtests': '#!/bin/sh\necho tests passed\n',
      });
      chmodSync(join(s.repo, 'tools/runtests'), 0o755);
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${out}/bin:${process.env.PATH}` } });
      // A's own CHECK now names a path that leads into the repository: its result is not written.
      expect(r.stdout, start).toMatch(/^STALE GATES:A: its oracle changed while it ran \(GATES:A: the CHECK's "[^"]*\/bin" leads into the repository's folder tools, .*write the repository's own path\)/m);
      // B would run tools/runtests through a folder that now leads into the repository, bound
      // whole since: not what was approved, so not run; never an unbound PASS.
      expect(r.stdout, start).toMatch(/^APPROVAL REQUIRED GATES:B .*changed since approval, not run: PATH now has entries inside the repository/m);
      expect(r.stdout, start).not.toMatch(/^PASS GATES:B/m);
      expect(r.code, start).toBe(1);
    }
  });
});

describe('refusals through /proc, where each process reads its own', () => {
  it('an interpreter named through /proc/self, and an absolute CHECK path to a link through it, are refused (exit 2)', () => {
    const r = repo(() => '#!/proc/self/cwd/lib/interp\n', { 'lib/interp': INTERP });
    const viaProc = r.cli(['--approve']);
    expect(viaProc.code).toBe(2);
    expect(viaProc.stderr).toMatch(/names its #! interpreter through \/proc or \/dev\/fd/);

    const out = tempDir();
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the cli works\n  CHECK: ${out}/mycli --selftest\n  EXPECT: selftest ok\n`, 'cli/mycli': '#!/bin/sh\necho selftest ok\n' });
    chmodSync(join(s.repo, 'cli/mycli'), 0o755);
    symlinkSync('/proc/self/cwd/cli/mycli', join(out, 'mycli'));
    const word = runCli(['--approve'], { cwd: s.repo, env: s.env });
    expect(word.code).toBe(2);
    expect(word.stderr).toMatch(/leads through \/proc or \/dev\/fd/);
  });

  // Round-33 F2: /dev/fd/.. is /proc/self for the kernel; read as text it was /dev, and
  // /dev/fd/../cwd/cli/mycli ran the repository's cli/mycli unbound while ALL MET held.
  it("a path through a process's folder in /proc, however spelled (/dev/fd/../cwd, a link to /dev/fd, a CHECK-set PATH), is refused (exit 2), nothing runs", () => {
    const out = tempDir();
    symlinkSync('/dev/fd', join(out, 'fdl'));
    symlinkSync('/proc/self/cwd', join(out, 'here'));
    const s = sandbox();
    for (const check of [
      '/dev/fd/../cwd/cli/mycli',
      '/dev//fd/./../../self/cwd/cli/mycli',
      `/dev/fd/../root${s.repo}/cli/mycli`,
      `${out}/fdl/../cwd/cli/mycli`,
      "bash -c '/dev/fd/../cwd/cli/mycli'",
      'PATH=/dev/fd/../cwd/cli:$PATH mycli',
      'PATH=/proc/self/cwd/cli:$PATH mycli',
      'PATH=/proc/thread-self/cwd/cli:$PATH mycli',
      `PATH=${out}/here/cli:$PATH mycli`,
    ]) {
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the cli works\n  CHECK: ${check}\n  EXPECT: selftest ok\n`, 'cli/mycli': '#!/bin/sh\necho ran >> ran.log; echo selftest ok\n' });
      chmodSync(join(s.repo, 'cli/mycli'), 0o755);
      const r = runCli(['--approve'], { cwd: s.repo, env: s.env });
      expect(r.code, check).toBe(2);
      expect(r.stderr, check).toMatch(/leads through \/proc or \/dev\/fd/);
      expect(existsSync(join(s.repo, 'ran.log')), check).toBe(false);
    }
  });

  // Round-33 F1: a PATH the CHECK sets into the repository through $HOME, quoted or braced,
  // was taken for the user's folder outside: the screen showed no row at all.
  it('a PATH the CHECK sets to a repository folder through $HOME, ${HOME}, "$HOME" or $HOME//./ stops the screen\'s reading', () => {
    const s = sandbox();
    const home = dirname(s.repo);
    const rel = basename(s.repo);
    for (const spelled of [`$HOME/${rel}/cli`, `\${HOME}/${rel}/cli`, `"$HOME"/${rel}/cli`, `$HOME//${rel}/./cli/`, `~/${rel}/cli`]) {
      writeFiles(s.repo, { 'GATES.md': `- [ ] G1: the cli works\n  CHECK: PATH=${spelled}:$PATH mycli\n  EXPECT: selftest ok\n`, 'cli/mycli': '#!/bin/sh\necho selftest ok\n' });
      const r = runCli([], { cwd: s.repo, env: { ...s.env, HOME: home } });
      expect(joinedRows(r.stdout), spelled).toMatch(/^ {2}UNBOUND not read past PATH set in the CHECK/m);
    }
    // The user's own folder outside stays outside: no stop.
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the cli works\n  CHECK: PATH="$HOME"/.cargo/bin:$PATH echo selftest ok\n  EXPECT: selftest ok\n' });
    expect(joinedRows(runCli([], { cwd: s.repo, env: { ...s.env, HOME: home } }).stdout)).not.toMatch(/UNBOUND/);
  });
});

/** Makes `<repo>/.x/s1/s2/<name>` (an executable script) whose real path is longer than PATH_MAX: the kernel follows it, realpath(3) cannot. */
function unresolvable(repoDir: string, name: string): string {
  const long = 'd'.repeat(200);
  const p1 = Array(10).fill(long).join('/');
  const p2 = Array(12).fill(long).join('/');
  // Made by relative paths, as a shell does: the whole path is too long for one system call.
  const made = spawnSync('/bin/sh', ['-c', 'mkdir -p ".x/$1/$2" && ln -s "$1" .x/s1 && ln -s "$2" ".x/$1/s2" && printf "#!/bin/sh\\necho tests passed\\n" > ".x/s1/s2/$3" && chmod +x ".x/s1/s2/$3"', 'sh', p1, p2, name], { cwd: repoDir });
  expect(made.status).toBe(0);
  return `.x/s1/s2/${name}`;
}

describe('refusals where a path cannot be read to its end', () => {
  it('an interpreter the kernel reaches but realpath cannot resolve (ENAMETOOLONG) is refused, exit 2', () => {
    const r = repo((dir) => `#!${dir}/lib/interp\n`);
    symlinkSync(`../${unresolvable(r.repo, 'interp')}`, join(r.repo, 'lib/interp'));
    const approve = r.cli(['--approve']);
    expect(approve.code).toBe(2);
    expect(approve.stderr).toMatch(/names its #! interpreter at a path that cannot be resolved/);
    expect(approve.stdout).not.toMatch(/^PASS/m);
  });

  it('a file in a bound PATH folder that cannot be examined (a path past PATH_MAX) is refused, exit 2', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': LEDGER });
    // A folder whose own path fits a system call, and a file in it whose path does not.
    // tools/<deep> is 3,990 bytes long, whatever the temporary folder's path.
    const room = 3990 - `${s.repo}/tools/`.length;
    const deep = [...Array(Math.floor(room / 201)).fill('e'.repeat(200)), 'e'.repeat(room % 201 || 1)].join('/');
    const made = spawnSync('/bin/sh', ['-c', 'mkdir -p "tools/$1" && cd "tools/$1" && printf "#!/bin/sh\\necho tests passed\\n" > runtests && chmod +x runtests && : > "$2"', 'sh', deep, 'f'.repeat(250)], { cwd: s.repo });
    expect(made.status).toBe(0);
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${join(s.repo, 'tools', deep)}:${process.env.PATH}` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PATH file tools\/e+.* cannot be read: ENAMETOOLONG/);
    expect(r.stdout).not.toMatch(/^PASS/m);
  });
});

describe('judgements outside the repository kept from one check to the next (lib/fsx/path-witness.ts)', () => {
  // Kept only while nothing they read changed, and only once what they read is older than the
  // racy margin: the outside folders are made first, in a folder other test files do not
  // write to (/var/tmp: the system's temporary folder changes all the time), and left to
  // settle. Gate A relinks through variables, so that only gate B's own judgement reads
  // (and notes) what A changes: each case needs one note of its own.
  type Case = { check: string; path: string; from: string; to: string; vars?: Record<string, string>; relink?: string };
  const exe = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { mode: 0o755 });
  };
  const link = (target: string, path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  };
  // The first 256 bytes (what a #! reading depends on) are the same in the clean and the
  // repository's script: only the notes of paths, not those of bytes, can see the relink.
  const PAD = `#${'x'.repeat(300)}\n`;
  const PASSES = `#!/bin/sh\n${PAD}echo tests passed\n`;
  const cases: Record<string, (repo: string, out: string) => Case> = {
    // A folder the CHECK puts on PATH through a variable, missing, then linked into the repository.
    'a CHECK-set PATH folder': (repo, out) => {
      exe(`${out}/b/bin/runtests`, PASSES);
      mkdirSync(`${out}/a`);
      return { check: 'PATH=$OUT_A/linked:$PATH runtests', path: `${out}/b/bin`, from: `${repo}/tools`, to: `${out}/a/linked`, vars: { OUT_A: `${out}/a` } };
    },
    // A PATH folder after the one the command is found in, where the command finds its helper.
    'a PATH folder after the command': (repo, out) => {
      exe(`${out}/b/bin/runtests`, '#!/bin/sh\nhelper\n');
      // Gate A's CHECK is one word found before the folder too (each word a CHECK holds is
      // looked for in PATH): only the judgement of PATH's folders notes it.
      exe(`${out}/b/bin/relink`, '#!/bin/sh\nln -sfn "$RELINK_FROM" "$RELINK_TO" && echo a-ok\n');
      exe(`${out}/c/bin/helper`, PASSES);
      mkdirSync(`${out}/a/empty`, { recursive: true });
      link(`${out}/a/empty`, `${out}/a/linked`);
      return { check: 'runtests', path: `${out}/b/bin:${out}/a/linked:${out}/c/bin`, from: `${repo}/tools`, to: `${out}/a/linked`, relink: 'relink' };
    },
    // A folder link on the way from the command PATH finds to the file it runs.
    'a link hop of a command found in PATH': (repo, out) => {
      exe(`${out}/e/real/runtests`, PASSES);
      link(`${out}/e/real`, `${out}/d/sub`);
      link(`${out}/d/sub/runtests`, `${out}/b/bin/runtests`);
      return { check: 'runtests', path: `${out}/b/bin`, from: `${repo}/lib`, to: `${out}/d/sub` };
    },
    'an absolute command path': (repo, out) => {
      exe(`${out}/b/bin/runtests`, PASSES);
      return { check: `${out}/b/bin/runtests`, path: '', from: `${repo}/lib/runtests`, to: `${out}/b/bin/runtests` };
    },
    // The shell runs the first match, in the repository once A has made it; nothing matched before.
    'an absolute command path with a pattern that matches nothing yet': (repo, out) => {
      mkdirSync(`${out}/b`);
      return { check: `${out}/b/*/runtests`, path: '', from: `${repo}/lib`, to: `${out}/b/x` };
    },
    // A PATH entry that goes up (..) from a link: where it leads is read on disk, not as text.
    'a PATH entry that goes up from a link': (repo, out) => {
      mkdirSync(`${out}/e/x`, { recursive: true });
      mkdirSync(`${out}/e/bin`);
      mkdirSync(`${out}/f/x`, { recursive: true });
      link(`${repo}/lib/runtests`, `${out}/f/bin/runtests`);
      link(`${out}/e/x`, `${out}/a/l`);
      exe(`${out}/c/bin/runtests`, PASSES);
      return { check: 'runtests', path: `${out}/a/l/../bin:${out}/c/bin`, from: `${out}/f/x`, to: `${out}/a/l` };
    },
    // The same hop, in an outside folder the CHECK names for PATH.
    'a link hop in a folder the CHECK names': (repo, out) => {
      exe(`${out}/e/real/runtests`, PASSES);
      link(`${out}/e/real`, `${out}/d/sub`);
      link(`${out}/d/sub/runtests`, `${out}/b/nb/runtests`);
      return { check: `PATH=${out}/b/nb:$PATH runtests`, path: '', from: `${repo}/lib`, to: `${out}/d/sub` };
    },
    // A folder link on the way to the command an outside #!/usr/bin/env -S PATH=… line runs.
    'a link hop of a command a #!/usr/bin/env -S PATH= line runs': (repo, out) => {
      exe(`${out}/e/real/mytool`, PASSES);
      link(`${out}/e/real`, `${out}/d/sub`);
      link(`${out}/d/sub/mytool`, `${out}/x/mytool`);
      exe(`${repo}/lib/mytool`, `#!/bin/sh\n${PAD}touch unbound-ran; echo tests passed\n`);
      exe(`${out}/b/bin/mycli`, `#!/usr/bin/env -S PATH=${out}/x:/usr/bin:/bin mytool\n`);
      return { check: 'mycli', path: `${out}/b/bin`, from: `${repo}/lib`, to: `${out}/d/sub` };
    },
    'the #! interpreter of a repository PATH executable': (repo, out) => {
      exe(`${out}/a/real/interp`, PASSES);
      link(`${out}/a/real/interp`, `${out}/a/interp`);
      exe(`${repo}/own/runtests`, `#!${out}/a/interp\n`);
      return { check: 'runtests', path: `${repo}/own`, from: `${repo}/lib/runtests`, to: `${out}/a/interp` };
    },
  };

  it('an earlier gate that relinks what a later gate was judged by, into the repository, is seen before the later gate runs', async () => {
    const settledBase = existsSync('/var/tmp') ? '/var/tmp' : undefined;
    const made = Object.entries(cases).map(([name, make]) => {
      const s = sandbox();
      const out = tempDir('gc-witness-', settledBase);
      const evil = `#!/bin/sh\n${PAD}touch unbound-ran; echo tests passed\n`;
      exe(`${s.repo}/tools/runtests`, evil);
      exe(`${s.repo}/tools/helper`, evil);
      exe(`${s.repo}/lib/runtests`, evil);
      const c = make(s.repo, out);
      writeFiles(s.repo, {
        'GATES.md': `- [ ] A: relinks\n  CHECK: ${c.relink ?? 'ln -sfn "$RELINK_FROM" "$RELINK_TO" && echo a-ok'}\n  EXPECT: a-ok\n\n- [ ] B: the tests pass\n  CHECK: ${c.check}\n  EXPECT: tests passed\n`,
      });
      const env = { ...s.env, ...c.vars, RELINK_FROM: c.from, RELINK_TO: c.to, PATH: c.path === '' ? process.env.PATH : `${c.path}:${process.env.PATH}` };
      return { name, s, env };
    });
    await new Promise((done) => setTimeout(done, RACY_MARGIN_MS + 300));
    for (const { name, s, env } of made) {
      // A runs first and relinks before B starts; B was judged (and approved) with the link leading outside.
      const r = runCli(['--approve'], { cwd: s.repo, env });
      expect(r.stdout, name).toMatch(/^(?:PASS|STALE)\s+GATES:A/m); // STALE when the run PATH A ran with changed
      expect(r.stdout, name).toMatch(/^\S.*GATES:B/m);
      expect(r.stdout, name).not.toMatch(/^PASS\s+GATES:B/m);
      expect(existsSync(join(s.repo, 'unbound-ran')), name).toBe(false);
      expect(r.code, name).toBe(1);
    }
  });
});

describe('round 36: what the kept judgements and the shell lookup missed', () => {
  const settledBase = existsSync('/var/tmp') ? '/var/tmp' : undefined;
  const EVIL = '#!/bin/sh\ntouch unbound-ran; echo tests passed\n';
  const settle = () => new Promise((done) => setTimeout(done, RACY_MARGIN_MS + 300));

  // F1: the look right before the first check used the judgement made when the run began,
  // however long a person read the prompt in between.
  it.skipIf(ptyDriver() === null)('a command relinked into the repository while the approval prompt waits is seen before the check starts', async () => {
    const s = sandbox();
    const out = tempDir('gc-witness-', settledBase);
    writeFileSync(join(out, 'mycli'), '#!/bin/sh\necho tests passed\n', { mode: 0o755 });
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the tests pass\n  CHECK: mycli\n  EXPECT: tests passed\n', 'evil/mycli': EVIL });
    chmodSync(join(s.repo, 'evil/mycli'), 0o755);
    await settle();
    const t = startInPty([process.execPath, BIN, '--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${out}:${process.env.PATH}` } });
    await t.waitForOutput(/approve\? \[y\/N\/a\] /, 60_000);
    unlinkSync(join(out, 'mycli'));
    symlinkSync(join(s.repo, 'evil/mycli'), join(out, 'mycli'));
    t.type('y\r');
    const r = await t.done;
    expect(r.output).not.toMatch(/^PASS\s+GATES:G1/m);
    expect(r.output).toMatch(/GATES:G1/);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
  });

  // F2: a write through a shared memory mapping whose page is already dirty changes the bytes
  // and no time. The mapper dirties the page before the run, and rewrites the #! line through
  // it when gate A asks (a file outside every noted folder).
  const python = spawnSync('python3', ['-c', 'import mmap'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!python)('an outside command whose #! line an earlier gate rewrites through a dirty shared mapping (no time changes) is judged again', async () => {
    const s = sandbox();
    const out = tempDir('gc-witness-', settledBase);
    const signals = tempDir();
    const clean = '#!/bin/sh\necho tests passed\n';
    const dirty = `#!${s.repo}/evil/sh\n`;
    const size = Math.max(clean.length, dirty.length) + 8;
    writeFileSync(join(out, 'mycli'), clean.padEnd(size, '#'), { mode: 0o755 });
    // Through variables: A's CHECK names no path, so only B's judgement reads (and notes) mycli.
    writeFiles(s.repo, { 'evil/sh': EVIL, 'GATES.md': '- [ ] A: asks for the rewrite\n  CHECK: touch "$GO"; while [ ! -e "$DONE" ]; do sleep 0.05; done; echo a-ok\n  EXPECT: a-ok\n\n- [ ] B: the tests pass\n  CHECK: mycli\n  EXPECT: tests passed\n' });
    chmodSync(join(s.repo, 'evil/sh'), 0o755);
    const mapper = [
      'import mmap, os, sys, time',
      'path, go, done, text = sys.argv[1:5]',
      'fd = os.open(path, os.O_RDWR)',
      'm = mmap.mmap(fd, 0)',
      'm[0:1] = m[0:1]',  // dirties the page (this write changes the times)
      'open(go + ".ready", "w").close()',
      'end = time.time() + 60',
      'while not os.path.exists(go) and time.time() < end: time.sleep(0.02)',
      'data = text.encode().ljust(len(m), b"#")',
      'm[0:len(data)] = data',  // the page is dirty already: no time changes
      'm.close(); os.close(fd)',
      'open(done, "w").close()',
    ].join('\n');
    const child = spawn('python3', ['-c', mapper, join(out, 'mycli'), join(signals, 'go'), join(signals, 'done'), dirty], { stdio: 'ignore' });
    try {
      await waitUntil(() => existsSync(join(signals, 'go.ready')), 'the mapper');
      await settle();
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GO: join(signals, 'go'), DONE: join(signals, 'done'), PATH: `${out}:${process.env.PATH}` } });
      expect(existsSync(join(signals, 'done'))).toBe(true);
      expect(r.stdout).not.toMatch(/^PASS\s+GATES:B/m);
      expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
    } finally {
      child.kill();
    }
  });

  // F3: the shell every CHECK runs through was judged at start-up only.
  it('a shell an earlier gate relinks into the repository is judged again before the next check; one whose #! names a repository file is refused', () => {
    const s = sandbox();
    const out = tempDir('gc-shell-');
    mkdirSync(join(out, 'sh'));
    symlinkSync('/bin/sh', join(out, 'sh', 'mysh'));
    writeFiles(s.repo, {
      'evil/sh': '#!/bin/sh\ntouch unbound-ran; exec /bin/sh "$@"\n',
      'GATES.md': `- [ ] A: relinks the shell\n  CHECK: ln -sfn "$RELINK_FROM" "$RELINK_TO" && echo a-ok\n  EXPECT: a-ok\n\n- [ ] B: says hello\n  CHECK: echo hello\n  EXPECT: hello\n`,
    });
    chmodSync(join(s.repo, 'evil/sh'), 0o755);
    const env = { ...s.env, GATE_CHECK_SHELL: join(out, 'sh', 'mysh'), RELINK_FROM: join(s.repo, 'evil/sh'), RELINK_TO: join(out, 'sh', 'mysh') };
    const r = runCli(['--approve'], { cwd: s.repo, env });
    expect(r.stdout).not.toMatch(/^PASS\s+GATES:B/m);
    expect(joinedRows(r.stdout)).toMatch(/GATES:B.*changed since approval, not run: the shell .*mysh lies inside the repository/);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
    // An outside shell whose #! line names a repository file: refused at start-up (exit 2).
    writeFileSync(join(out, 'sh', 'hb'), `#!${s.repo}/evil/sh\n`, { mode: 0o755 });
    const hb = runCli(['--approve'], { cwd: s.repo, env: { ...env, GATE_CHECK_SHELL: join(out, 'sh', 'hb') } });
    expect(hb.code).toBe(2);
    expect(hb.stderr).toMatch(/the shell .*hb names .*evil\/sh in the repository at its start/);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
  });

  it('a settled outside shell whose #! line an earlier gate rewrites to a repository file runs nothing more; one started through #!/usr/bin/env is refused', async () => {
    const s = sandbox();
    const out = tempDir('gc-witness-', settledBase);
    const shell = join(out, 'wrapsh');
    writeFileSync(shell, '#!/bin/sh\nexec /bin/sh "$@"\n', { mode: 0o755 });
    writeFileSync(join(out, 'evil-start'), `#!${s.repo}/evil/sh\nexec /bin/sh "$@"\n`);
    writeFiles(s.repo, {
      'evil/sh': '#!/bin/sh\ntouch unbound-ran; exec /bin/sh "$@"\n',
      'GATES.md': '- [ ] A: rewrites the shell\n  CHECK: cat "$EVIL_START" > "$SHELL_FILE" && echo a-ok\n  EXPECT: a-ok\n\n- [ ] B: says hello\n  CHECK: echo hello\n  EXPECT: hello\n',
    });
    chmodSync(join(s.repo, 'evil/sh'), 0o755);
    await settle();
    const env = { ...s.env, GATE_CHECK_SHELL: shell, EVIL_START: join(out, 'evil-start'), SHELL_FILE: shell };
    const r = runCli(['--approve'], { cwd: s.repo, env });
    expect(r.stdout).toMatch(/^PASS\s+GATES:A/m);
    expect(joinedRows(r.stdout)).toMatch(/GATES:B.*not run: the shell .*wrapsh names .*evil\/sh in the repository at its start/);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
    writeFileSync(shell, '#!/usr/bin/env sh\n');
    const bare = runCli(['--reverify'], { cwd: s.repo, env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/the shell .*wrapsh starts sh by a name PATH finds/);
  });

  // F4: dash goes on to the next match in PATH when one cannot be started.
  it('a later PATH match that leads into the repository is judged, not only the first: dash runs it when the first cannot start', () => {
    const s = sandbox();
    const out = tempDir('gc-later-');
    mkdirSync(join(out, 'a'));
    mkdirSync(join(out, 'b'));
    writeFileSync(join(out, 'a', 'mycli'), '#!/nonexistent/interp\n', { mode: 0o755 });
    writeFiles(s.repo, { 'evil/mycli': EVIL, 'GATES.md': '- [ ] G1: the tests pass\n  CHECK: mycli\n  EXPECT: tests passed\n' });
    chmodSync(join(s.repo, 'evil/mycli'), 0o755);
    symlinkSync(join(s.repo, 'evil/mycli'), join(out, 'b', 'mycli'));
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${out}/a:${out}/b:${process.env.PATH}` } });
    expect(r.stdout).not.toMatch(/^PASS\s+GATES:G1/m);
    expect(joinedRows(r.stdout)).toMatch(/not runnable: GATES:G1: the CHECK's "mycli" is found in PATH at .*\/b\/mycli, a link into the repository/);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
  });

  // F6: the command `#!/usr/bin/env NAME` runs is found through PATH (or a PATH= in that line).
  it('a command an outside #!/usr/bin/env line runs by a bare name, found as a link into the repository, is judged like a CHECK word', () => {
    for (const line of ['/usr/bin/env mytool', '/usr/bin/env -S PATH=OUT/x:/usr/bin:/bin mytool --flag']) {
      const s = sandbox();
      const out = tempDir('gc-envname-');
      for (const d of ['bin', 'x']) mkdirSync(join(out, d));
      writeFileSync(join(out, 'bin', 'mycli'), `#!${line.replace('OUT', out)}\n`, { mode: 0o755 });
      writeFiles(s.repo, { 'evil/mytool': EVIL, 'GATES.md': '- [ ] G1: the tests pass\n  CHECK: mycli\n  EXPECT: tests passed\n' });
      chmodSync(join(s.repo, 'evil/mytool'), 0o755);
      symlinkSync(join(s.repo, 'evil/mytool'), join(out, line.includes('PATH=') ? 'x' : 'bin', 'mytool'));
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${out}/bin:${process.env.PATH}` } });
      expect(r.stdout, line).not.toMatch(/^PASS\s+GATES:G1/m);
      expect(joinedRows(r.stdout), line).toMatch(/not runnable: GATES:G1: the CHECK's "mytool" is found in PATH at .*\/mytool, a link into the repository/);
      expect(existsSync(join(s.repo, 'unbound-ran')), line).toBe(false);
    }
  });

  // F5: dash reads `dir%func` as a folder whose files it sources.
  it('a PATH entry dir%func (dash sources files from dir) is refused, exit 2', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'tools/mycli': EVIL, 'GATES.md': '- [ ] G1: the tests pass\n  CHECK: mycli\n  EXPECT: tests passed\n' });
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${s.repo}/tools%func:${process.env.PATH}` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PATH entry .*tools%func has %func after its folder, which dash reads as a folder whose files it sources/);
    // In an outside command's #!/usr/bin/env -S PATH=… line too (round-37 F6).
    const out = tempDir('gc-envfunc-');
    mkdirSync(join(out, 'bin'));
    writeFileSync(join(out, 'bin', 'mycli'), `#!/usr/bin/env -S PATH=${s.repo}/tools%func:/usr/bin:/bin mytool\n`, { mode: 0o755 });
    const shebang = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, PATH: `${out}/bin:${process.env.PATH}` } });
    expect(shebang.code).toBe(2);
    expect(shebang.stderr).toMatch(/puts .*tools%func.* on PATH in its #! line, which dash reads as a folder whose files it sources/);
    expect(existsSync(join(s.repo, 'unbound-ran'))).toBe(false);
  });
});
