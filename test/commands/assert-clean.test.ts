// --assert-clean: a check that changes the repository fails with the paths it changed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, sandbox, tempDir, writeFiles } from '../helpers/cli.js';

function gitRepo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, { ...files, '.gitignore': 'build/\n' });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: s.repo, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return { ...s, run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env }) };
}

describe('--assert-clean', () => {
  // Round-39v V4: git's listings stop at a submodule and at a repository inside the tree (one
  // folder, `fx/`), so a check that rewrote its golden file there passed --assert-clean.
  it('fails a check that rewrites a file in a submodule, or in a repository inside the tree (untracked or ignored)', () => {
    for (const mode of ['submodule', 'untracked', 'ignored'] as const) {
      const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo 41 > fx/golden.txt; echo ok\n  EXPECT: ok\n', ...(mode === 'ignored' ? { '.gitignore': 'build/\nfx/\n' } : {}) });
      const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });
      const fx = mode === 'submodule' ? join(s.home, '..', 'fx-origin') : join(s.repo, 'fx');
      mkdirSync(fx);
      writeFileSync(join(fx, 'golden.txt'), '42\n');
      git(fx, 'init', '-q');
      git(fx, 'add', '-A');
      git(fx, 'commit', '-qm', 'fixtures');
      if (mode === 'submodule') {
        git(s.repo, 'submodule', 'add', '-q', fx, 'fx');
        git(s.repo, 'commit', '-qm', 'fixtures');
      }
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, mode).toBe(1);
      expect(r.stdout, mode).toMatch(/^FAIL GATES:A .*the check changed files in the repository \(--assert-clean\): fx\/golden\.txt/m);
    }
  });

  it('a work tree inside that git cannot read, and more than 64 of them, cannot be watched: the check fails, saying so', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
    // A submodule entry whose .git names no git directory.
    mkdirSync(join(s.repo, 'sub'));
    writeFileSync(join(s.repo, 'sub', '.git'), 'gitdir: /nonexistent\n');
    git(s.repo, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`);
    const broken = s.run(['--approve', '--assert-clean']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/--assert-clean\): sub \(a work tree inside the repository that git cannot read: cannot be watched\)/);
    git(s.repo, 'update-index', '--force-remove', 'sub');
    rmSync(join(s.repo, 'sub'), { recursive: true });
    for (let i = 0; i < 65; i++) git(s.repo, 'init', '-q', `n${i}`);
    const many = s.run(['--reverify', '--assert-clean']);
    expect(many.code).toBe(1);
    expect(many.stdout).toMatch(/\(more than 64 work trees inside the repository: cannot be watched\)/);
  });

  it('fails a check that modifies a tracked file, naming it', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo changed > fixture.txt; echo ok\n  EXPECT: ok\n', 'fixture.txt': 'original\n' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*the check changed files in the repository \(--assert-clean\): fixture\.txt$/m);
  });

  it('fails a check that creates an untracked or an ignored file', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: mkdir -p build; touch build/out.o new.txt; echo ok\n  EXPECT: ok\n' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/--assert-clean\): build\/out\.o \(ignored\), new\.txt/);
  });

  // Round-38b F6: a build gate that rewrites its ignored output, failed once by --assert-clean,
  // was labelled flaky, and its failed attempt did not say why.
  it('history keeps a pass that changed files apart: not flaky, and said so on the attempt', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] B: the build writes its output\n  CHECK: mkdir -p build; echo x > build/out.o; echo built\n  EXPECT: built\n' });
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.run(['--reverify', '--assert-clean']).code).toBe(1);
    expect(s.run(['--reverify']).code).toBe(0);
    const h = s.run(['history']);
    expect(h.stdout).not.toMatch(/flaky/);
    expect(h.stdout).toMatch(/^ {2}\S+ {2}fail .*failure [0-9a-f]{12} {2}the check passed and changed files \(--assert-clean\)$/m);
    const j = JSON.parse(s.run(['history', '--json']).stdout);
    expect(j.gates[0].flaky).toBe(false);
    expect(j.gates[0].attempts.map((a: { cause?: string }) => a.cause ?? null)).toEqual([null, 'changed-files', null]);
    // A check that fails on its own as well is an ordinary failure.
    const t = gitRepo({ 'GATES.md': '- [ ] B: t\n  CHECK: if [ -f bad ]; then touch x.o; exit 1; fi; echo ok\n  EXPECT: ok\n' });
    expect(t.run(['--approve']).code).toBe(0);
    writeFileSync(join(t.repo, 'bad'), '');
    expect(t.run(['--reverify', '--assert-clean']).code).toBe(1);
    expect(JSON.parse(t.run(['history', '--json']).stdout).gates[0].attempts.at(-1).cause).toBeUndefined();
  });

  // Round-38d F1: a check that commits, amends, moves a ref, sets core.fsmonitor or writes a
  // hook passed --assert-clean: the working tree was all it compared.
  it('fails a check that changes the repository itself: a commit, a ref, its config, a hook, its attributes', () => {
    const git = 'git -c user.email=t@t -c user.name=t';
    for (const [check, changed] of [
      [`${git} commit -q --allow-empty -m x`, /\.git\/refs\/heads\/\w+/],
      [`${git} commit -q --amend -m y`, /\.git\/refs\/heads\/\w+/],
      [`${git} tag t1`, /\.git\/refs\/tags\/t1/],
      [`${git} replace -f HEAD HEAD`, /\.git\/refs\/replace\//],
      ['git config core.fsmonitor "touch pwned"', /\.git\/config/],
      ['printf "#!/bin/sh\\n" > .git/hooks/pre-commit', /\.git\/hooks\/pre-commit/],
      ['echo "* filter=x" > .git/info/attributes', /\.git\/info\/attributes/],
      // Round-39b F3: a rebase left in progress, whose to-do list `git rebase --continue` runs.
      ['mkdir -p .git/rebase-merge && echo "exec touch pwned" > .git/rebase-merge/git-rebase-todo', /\.git\/rebase-merge/],
      ['mkdir -p .git/sequencer && echo "pick 0000000 x" > .git/sequencer/todo', /\.git\/sequencer/],
      // Round-39b F4: a file marked so that git status no longer shows its edits.
      ['git update-index --skip-worktree .gitignore', /\.gitignore/],
      ['git update-index --assume-unchanged .gitignore', /\.gitignore/],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n` });
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, check).toBe(1);
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*the check changed files in the repository \\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  // Round-39a lead: past the 256th entry of .git/hooks, a rewritten hook went unseen.
  it('a hooks folder too large to watch one by one fails every check; under the cap, a hook that sorts last is seen', () => {
    const many = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    for (let i = 0; i < 4097; i++) writeFileSync(join(many.repo, '.git', 'hooks', `a${String(i).padStart(5, '0')}`), '');
    const r = many.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): \.git\/hooks \(more than 4096 entries: cannot be watched\)/m);
    const some = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: printf "#!/bin/sh\\n" >> .git/hooks/zz-last; echo ok\n  EXPECT: ok\n' });
    for (let i = 0; i < 300; i++) writeFileSync(join(some.repo, '.git', 'hooks', `a${String(i).padStart(5, '0')}`), '');
    writeFileSync(join(some.repo, '.git', 'hooks', 'zz-last'), '');
    const s = some.run(['--approve', '--assert-clean']);
    expect(s.code).toBe(1);
    expect(s.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*\.git\/hooks\/zz-last/m);
  });

  // Round-39c leads: what a later git command takes from the git directory, planted by a
  // check in a place that was not watched.
  it('fails a check that plants a merge state, edits a recorded rerere resolution in place, or rewrites what a linked hook runs', () => {
    const outside = tempDir('gc-hook-target-');
    writeFileSync(join(outside, 'hook.sh'), '#!/bin/sh\n');
    for (const [check, changed, setup] of [
      ['echo "squash" > .git/SQUASH_MSG', /\.git\/SQUASH_MSG/, () => {}],
      ['echo 0000000000000000000000000000000000000000 > .git/MERGE_AUTOSTASH', /\.git\/MERGE_AUTOSTASH/, () => {}],
      // In place: the folder's own stat data does not change.
      ['(echo "evil" >> .git/rr-cache/0123abcd/postimage)', /\.git\/rr-cache\/0123abcd\/postimage/, (repo: string) => writeFiles(join(repo, '.git', 'rr-cache', '0123abcd'), { preimage: 'a\n', postimage: 'b\n' })],
      [`(echo "touch pwned" >> ${JSON.stringify(join(outside, 'hook.sh'))})`, /\.git\/hooks\/pre-commit/, (repo: string) => symlinkSync(join(outside, 'hook.sh'), join(repo, '.git', 'hooks', 'pre-commit'))],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n` });
      setup(s.repo);
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, check).toBe(1);
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  // Round-39c lead: configuration git reads from files other than .git/config: one that an
  // include names (there or not yet), and your own, even before it exists.
  it('fails a check that changes configuration git reads here: an included file, one an include names that did not exist, your ~/.gitconfig', () => {
    for (const [check, changed, include] of [
      ['(printf "[core]\\n\\tfsmonitor = touch pwned\\n" >> .git/extra.cfg)', /git configuration \S*\/\.git\/extra\.cfg/, 'extra.cfg'],
      ['(printf "[core]\\n\\tfsmonitor = touch pwned\\n" > .git/later.cfg)', /git configuration \S*\/\.git\/later\.cfg/, 'later.cfg'],
      ['git config --global alias.st "!touch pwned"', /git configuration \S*\/\.gitconfig/, null],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n` });
      if (include === 'extra.cfg') writeFileSync(join(s.repo, '.git', 'extra.cfg'), '[user]\n\tname = t\n');
      if (include !== null) execFileSync('git', ['config', 'include.path', include], { cwd: s.repo });
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, check).toBe(1);
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  // Round-39b leads: worktree or submodule git directories past the 128th, or behind a link,
  // were not watched; now every check fails, naming them.
  it('fails every check where worktree or submodule git directories cannot all be watched: more than 128, or a symbolic link', () => {
    const elsewhere = tempDir('gc-admin-');
    for (const [setup, named] of [
      [(git: string) => { for (let i = 0; i <= 128; i++) mkdirSync(join(git, 'worktrees', `w${i}`), { recursive: true }); }, /\.git\/worktrees \(more than 128 git directories: cannot be watched\)/],
      [(git: string) => { for (let i = 0; i <= 128; i++) writeFiles(join(git, 'modules', `m${i}`), { HEAD: 'ref: refs/heads/main\n', config: '' }); }, /\.git\/modules \(more than 128 git directories: cannot be watched\)/],
      [(git: string) => { mkdirSync(join(git, 'worktrees')); symlinkSync(elsewhere, join(git, 'worktrees', 'wt')); }, /\.git\/worktrees\/wt \(a symbolic link: cannot be watched\)/],
      [(git: string) => { mkdirSync(join(git, 'modules')); symlinkSync(elsewhere, join(git, 'modules', 'lib')); }, /\.git\/modules\/lib \(a symbolic link: cannot be watched\)/],
      [(git: string) => mkdirSync(join(git, 'modules', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'), { recursive: true }), /\.git\/modules\/a\/b\/c\/d\/e\/f\/g\/h\/i \(more than 8 folders deep: cannot be watched\)/],
    ] as const) {
      const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
      setup(join(s.repo, '.git'));
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, named.source).toBe(1);
      expect(r.stdout, named.source).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${named.source}`, 'm'));
    }
  });

  // Round-39a lead: another worktree's HEAD and config.worktree live in .git/worktrees/<name>.
  it("fails a check that changes another worktree's git directory: its HEAD, its config", () => {
    for (const [check, changed] of [
      ['git -C ../wt checkout -q --detach', /\.git\/worktrees\/wt\/HEAD/],
      ['echo "[core]" > .git/worktrees/wt/config.worktree', /\.git\/worktrees\/wt\/config\.worktree/],
      // Round-39b F4: content staged there, which a plain `git commit` there commits.
      ['echo x > ../wt/new.txt && git -C ../wt add new.txt', /\.git\/worktrees\/wt\/index/],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n` });
      execFileSync('git', ['worktree', 'add', '-q', '-b', 'side', join(s.repo, '..', 'wt')], { cwd: s.repo, stdio: 'ignore' });
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, check).toBe(1);
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  // Round-39c F2: the check pointed the index's cache tree for src/ at a tree of its own, then
  // put the entry back: git status and git diff --cached showed nothing, and the person's next
  // commit of an unrelated file committed the hidden src/app.js.
  it("fails a check that rewrites the index's cache tree with every entry put back", () => {
    const poison = [
      "const fs = require('fs'), crypto = require('crypto');",
      'const [idx, evil, good] = process.argv.slice(2);',
      'const b = fs.readFileSync(idx);',
      "Buffer.from(good, 'hex').copy(b, b.indexOf(Buffer.from(evil, 'hex')));",
      "crypto.createHash('sha1').update(b.subarray(0, b.length - 20)).digest().copy(b, b.length - 20);",
      'fs.writeFileSync(idx, b);',
      '',
    ].join('\n');
    const check = [
      'good=$(git rev-parse :src/app.js)',
      'evil=$(echo evil | git hash-object -w --stdin)',
      'git update-index --cacheinfo 100644,$evil,src/app.js',
      'git write-tree > /dev/null',
      `${JSON.stringify(process.execPath)} poison.js .git/index $evil $good`,
      'echo ok',
      '',
    ].join('\n');
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: sh check.sh\n  EXPECT: ok\n', 'check.sh': check, 'poison.js': poison, 'src/app.js': 'safe\n' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): \.git\/index \(cache tree, entry flags\)/m);
    // It was the attack: the entry is as before, and the next commit would take the planted tree.
    expect(execFileSync('git', ['diff', '--cached', '--stat'], { cwd: s.repo, encoding: 'utf8' })).toBe('');
  });

  // Round-39f F3: the intent-to-add mark set on a tracked entry, its object kept: ls-files
  // --stage -v showed the same line, and the person's next commit of another file in that
  // folder deleted it.
  it('fails a check that marks a tracked file intent-to-add, naming it', () => {
    const mark = [
      "const fs = require('fs'), crypto = require('crypto');",
      "const [file, target] = process.argv.slice(2), b = fs.readFileSync(file), parts = [Buffer.from(b.subarray(0, 12))];",
      'parts[0].writeUInt32BE(3, 4);',
      'let at = 12;',
      'for (let i = 0; i < b.readUInt32BE(8); i++) {',
      '  const flags = b.readUInt16BE(at + 60), nul = b.indexOf(0, at + 62), name = b.subarray(at + 62, nul);',
      '  const hit = name.toString() === target, head = Buffer.from(b.subarray(at, at + 62));',
      '  if (hit) head.writeUInt16BE(flags | 0x4000, 60);',
      '  const ext = hit ? Buffer.from([0x20, 0]) : Buffer.alloc(0), size = (62 + ext.length + name.length + 8) & ~7;',
      '  parts.push(head, ext, name, Buffer.alloc(size - 62 - ext.length - name.length));',
      '  at += (62 + name.length + 8) & ~7;',
      '}',
      'const body = Buffer.concat([...parts, b.subarray(at, b.length - 20)]);',
      "fs.writeFileSync(file, Buffer.concat([body, crypto.createHash('sha1').update(body).digest()]));",
      '',
    ].join('\n');
    const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${JSON.stringify(process.execPath)} mark.js .git/index test/security.js && echo ok\n  EXPECT: ok\n`, 'mark.js': mark, 'test/security.js': 's\n' });
    const before = execFileSync('git', ['ls-files', '--stage', '-v'], { cwd: s.repo, encoding: 'utf8' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*test\/security\.js \(index entry marked intent-to-add\)/m);
    // It was the attack: the same entries for ls-files, the mark for git status.
    expect(execFileSync('git', ['ls-files', '--stage', '-v'], { cwd: s.repo, encoding: 'utf8' })).toBe(before);
    expect(execFileSync('git', ['status', '--short', 'test'], { cwd: s.repo, encoding: 'utf8' })).toBe(' A test/security.js\n');
  });

  // The index is read as git reads it, by git's own rewrite of a copy: an index of version 4
  // (feature.manyFiles) that a check's git status rewrites is the same index.
  it("reads a version 4 index as git does: git status in a check changes nothing, a cache tree of the check's making is seen", () => {
    const refresh = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch -d 2001-01-01 src/app.js; git status --short >/dev/null; touch -d 2001-01-01 src/app.js; echo ok\n  EXPECT: ok\n', 'src/app.js': 'x\n' });
    execFileSync('git', ['update-index', '--index-version', '4'], { cwd: refresh.repo });
    execFileSync('touch', ['-d', '2001-01-01', join(refresh.repo, 'src/app.js')]);
    const r = refresh.run(['--approve', '--assert-clean']);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): src\/app\.js$/m);
    const quiet = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git status --short >/dev/null; echo ok\n  EXPECT: ok\n', 'src/app.js': 'x\n' });
    execFileSync('git', ['update-index', '--index-version', '4'], { cwd: quiet.repo });
    execFileSync('touch', ['-d', '2001-01-01', join(quiet.repo, 'src/app.js')]);
    const q = quiet.run(['--approve', '--assert-clean']);
    expect(q.code, q.stdout + q.stderr).toBe(0);
    expect(execFileSync('git', ['ls-files', '--debug', 'src/app.js'], { cwd: quiet.repo, encoding: 'utf8' })).toMatch(/mtime: 978307200:0/);
    expect(readFileSync(join(quiet.repo, '.git', 'index')).readUInt32BE(4)).toBe(4);
    const planted = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: sh plant.sh && echo ok\n  EXPECT: ok\n', 'plant.sh': 'good=$(git rev-parse :src/app.js)\nevil=$(echo evil | git hash-object -w --stdin)\ngit update-index --cacheinfo 100644,$evil,src/app.js\ngit write-tree >/dev/null\ngit update-index --cacheinfo 100644,$good,src/app.js\n', 'src/app.js': 'x\n' });
    execFileSync('git', ['update-index', '--index-version', '4'], { cwd: planted.repo });
    expect(planted.run(['--approve', '--assert-clean']).stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): \.git\/index \(cache tree, entry flags\)$/m);
  });

  // Round-39g F1: the check copied a file's own stat data into its index entry while the
  // person's edit of it was unstaged: git then took the edit for committed (git status, git
  // commit -a and git add all left it out), with ls-files showing the same entries.
  it("fails a check that copies a file's stat data into its index entry over an unstaged edit; passes git's own refresh", () => {
    const forge = [
      "const fs = require('fs'), crypto = require('crypto');",
      "const [file, target] = process.argv.slice(2), b = fs.readFileSync(file), st = fs.statSync(target, { bigint: true });",
      'let at = 12;',
      'for (let i = 0; i < b.readUInt32BE(8); i++) {',
      '  const nul = b.indexOf(0, at + 62);',
      '  if (b.toString("utf8", at + 62, nul) === target) {',
      '    const w = (o, v) => b.writeUInt32BE(Number(BigInt(v) & 0xffffffffn), at + o);',
      '    w(0, st.ctimeNs / 1000000000n); w(4, st.ctimeNs % 1000000000n); w(8, st.mtimeNs / 1000000000n); w(12, st.mtimeNs % 1000000000n);',
      '    w(16, st.dev); w(20, st.ino); w(28, st.uid); w(32, st.gid); w(36, st.size);',
      '  }',
      '  at += (62 + (nul - at - 62) + 8) & ~7;',
      '}',
      "crypto.createHash('sha1').update(b.subarray(0, b.length - 20)).digest().copy(b, b.length - 20);",
      "fs.writeFileSync(file + '.new', b); fs.renameSync(file + '.new', file);",
      '',
    ].join('\n');
    const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${JSON.stringify(process.execPath)} forge.js .git/index src/app.js && echo ok\n  EXPECT: ok\n`, 'forge.js': forge, 'src/app.js': 'eval(x)\n' });
    writeFileSync(join(s.repo, 'src/app.js'), 'JSON.parse(x)\n'); // the person's fix, not staged yet
    execFileSync('touch', ['-d', '2001-01-01', join(s.repo, 'src/app.js')]); // not racily clean
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): src\/app\.js \(index entry stat data\)$/m);
    // It was the attack: git status no longer shows the edit.
    expect(execFileSync('git', ['status', '--short', 'src'], { cwd: s.repo, encoding: 'utf8' })).toBe('');
    // The control: git's own refresh of a file touched but not changed is no change.
    const touched = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git status --short >/dev/null; echo ok\n  EXPECT: ok\n', 'src/app.js': 'x\n' });
    execFileSync('touch', ['-d', '2001-01-01', join(touched.repo, 'src/app.js')]);
    const t = touched.run(['--approve', '--assert-clean']);
    // git status did refresh it.
    expect(execFileSync('git', ['ls-files', '--debug', 'src/app.js'], { cwd: touched.repo, encoding: 'utf8' })).toMatch(/mtime: 978307200:0/);
    expect(t.code, t.stdout + t.stderr).toBe(0);
  });

  // Round-39g F3: an untracked cache planted where there was none (git uses one it finds)
  // hid the person's new file from git status.
  it('fails a check that plants an untracked cache in the index', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git update-index --untracked-cache >/dev/null 2>&1; git -c core.untrackedCache=true status --short >/dev/null; echo ok\n  EXPECT: ok\n' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): \.git\/index \(cache tree, entry flags\)$/m);
  });

  // A tracked file whose name is no UTF-8 was looked at by a decoded name that does not
  // exist: its changes went unseen.
  it('fails a check that changes a tracked file whose name is no UTF-8', () => {
    const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: for f in caf*.txt; do echo changed > "$f"; done; echo ok\n  EXPECT: ok\n` });
    writeFileSync(Buffer.concat([Buffer.from(`${s.repo}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'original\n');
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A'], { cwd: s.repo });
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'latin-1 name'], { cwd: s.repo });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): caf.*\.txt \(name bytes 636166e92e747874\)$/m);
    // Two untracked names that decode alike: each is its own entry.
    const two = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: (echo changed > "$(printf 'caf\\350.txt')"); echo ok\n  EXPECT: ok\n` });
    for (const byte of [0xe8, 0xe9]) writeFileSync(Buffer.concat([Buffer.from(`${two.repo}/caf`), Buffer.from([byte]), Buffer.from('.txt')]), 'untracked\n');
    const t = two.run(['--approve', '--assert-clean']);
    expect(t.code).toBe(1);
    expect(t.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): caf.*\.txt \(name bytes 636166e82e747874\)$/m);
  });

  // Round-39h F1: with the ledger in a folder, only that folder was listed.
  it('watches the whole working tree when the ledger is in a folder of it', () => {
    const s = gitRepo({ 'web/GATES.md': '- [ ] A: t\n  CHECK: echo evil > ../src/app.js; echo ok\n  EXPECT: ok\n', 'src/app.js': 'safe\n' });
    const r = runCli(['--approve', '--assert-clean'], { cwd: join(s.repo, 'web'), env: s.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): src\/app\.js$/m);
  });

  // Round-39i F1: a `.git` planted in the ledger's folder (a gitfile naming the repository's
  // own git directory), or a blank line in .git/HEAD that made gate-check's own test of the
  // top level fail, shrank the snapshot to that folder. A ledger in a nested repository still
  // has its own files watched.
  it('watches every work tree around the root: the outermost, whatever is planted in the folder, and a nested one', () => {
    for (const plant of [
      (repo: string) => writeFileSync(join(repo, 'web', '.git'), `gitdir: ${join(repo, '.git')}\n`),
      (repo: string) => writeFileSync(join(repo, '.git', 'HEAD'), `${readFileSync(join(repo, '.git', 'HEAD'), 'utf8')}\n`),
    ]) {
      const s = gitRepo({ 'web/GATES.md': '- [ ] A: t\n  CHECK: echo evil > ../src/app.js; echo ok\n  EXPECT: ok\n', 'src/app.js': 'safe\n' });
      plant(s.repo);
      const r = runCli(['--approve', '--assert-clean'], { cwd: join(s.repo, 'web'), env: s.env });
      expect(r.stdout, r.stderr).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*src\/app\.js/m);
    }
    const nested = gitRepo({ 'src/app.js': 'safe\n' });
    const web = join(nested.repo, 'web');
    writeFiles(web, { 'GATES.md': '- [ ] A: t\n  CHECK: echo evil > page.html; echo ok\n  EXPECT: ok\n', 'page.html': 'p\n' });
    execFileSync('git', ['init', '-q'], { cwd: web });
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A'], { cwd: web });
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'web'], { cwd: web });
    const r = runCli(['--approve', '--assert-clean'], { cwd: web, env: nested.env });
    expect(r.stdout, r.stderr).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*web\/page\.html/m);
  });

  it('fails every check when more than 8 work trees are around the root', () => {
    const s = gitRepo({});
    let dir = s.repo;
    for (let i = 0; i < 8; i++) {
      dir = join(dir, `n${i}`);
      mkdirSync(dir);
      execFileSync('git', ['init', '-q'], { cwd: dir });
    }
    writeFiles(dir, { 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const r = runCli(['--approve', '--assert-clean'], { cwd: dir, env: s.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*\(more than 8 work trees around the root: cannot be watched\)/m);
  });

  // Round-39i F3: gate-check's own rewrite of the index ran the repository's
  // post-index-change hook, and the clean filter of a racily clean entry.
  it("runs no hook and no filter of the repository's while it looks", () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n', 'a.txt': 'data\n' });
    const marker = join(s.home, 'ran');
    writeFiles(join(s.repo, '.git', 'hooks'), { 'post-index-change': `#!/bin/sh\necho hook >> '${marker}'\n` });
    execFileSync('chmod', ['+x', join(s.repo, '.git', 'hooks', 'post-index-change')]);
    execFileSync('git', ['config', 'filter.pwn.clean', `sh -c 'echo filter >> "${marker}"; cat'`], { cwd: s.repo });
    writeFiles(s.repo, { '.gitattributes': 'a.txt filter=pwn\n' });
    // Racily clean: the file and its entry dated after the index.
    execFileSync('touch', ['-d', '2031-01-01', join(s.repo, 'a.txt')]);
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', 'add', 'a.txt', '.gitattributes'], { cwd: s.repo });
    execFileSync('rm', ['-f', marker]);
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.stdout + r.stderr).toMatch(/^PASS GATES:A/m);
    expect(existsSync(marker)).toBe(false);
  });

  // Round-39j F1: a submodule added in a linked worktree keeps its git directory in that
  // worktree's own (.git/worktrees/<name>/modules/<sub>).
  it("watches the git directory of a submodule of a linked worktree", () => {
    const origin = tempDir('gc-sub-origin-');
    const g = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });
    g(origin, 'init', '-q');
    g(origin, 'commit', '-q', '--allow-empty', '-m', 'lib');
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git -C lib config core.fsmonitor "touch pwned" >/dev/null 2>&1; echo ok\n  EXPECT: ok\n' });
    const wt = join(s.repo, '..', 'wt');
    g(s.repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    g(wt, 'submodule', 'add', '-q', origin, 'lib');
    g(wt, 'commit', '-qm', 'lib');
    expect(existsSync(join(s.repo, '.git', 'worktrees', 'wt', 'modules', 'lib', 'config'))).toBe(true);
    const r = runCli(['--approve', '--assert-clean'], { cwd: wt, env: s.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*\.git\/modules\/lib\/config/m);
  });

  // Round-39j F4: a linked worktree inside the main one (where Claude Code makes them): its
  // index was compared by stat data from the main one's view, so git status failed the check.
  it('passes a check that runs git status in a linked worktree inside the main one', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git status --short >/dev/null; echo ok\n  EXPECT: ok\n', 'src/app.js': 'x\n' });
    const wt = join(s.repo, '.claude', 'worktrees', 'feat');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'feat', wt], { cwd: s.repo, stdio: 'ignore' });
    execFileSync('touch', ['-d', '2001-01-01', join(wt, 'src', 'app.js')]); // git status refreshes its entry
    const r = runCli(['--approve', '--assert-clean'], { cwd: wt, env: s.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  // Round-39j F2, F3: gate-check's own git fetched a partial clone's missing tree (running
  // remote.origin.uploadpack), and was found through a relative PATH entry at the top.
  it("runs no program of the repository's: no lazy fetch, no git found through a relative or inner PATH entry", () => {
    // A gate that never passes, so that every run runs it (and takes its snapshots).
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: never\n', 'src/app.js': 'x\n', 'docs/a.md': 'd\n' });
    const marker = join(s.home, 'ran');
    const g = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: s.repo, stdio: 'ignore' });
    g('clone', '-q', '--bare', '.', join(s.home, 'origin'));
    g('config', 'index.sparse', 'true');
    g('sparse-checkout', 'set', '--cone', 'src');
    const tree = execFileSync('git', ['rev-parse', 'HEAD:docs'], { cwd: s.repo, encoding: 'utf8' }).trim();
    g('config', 'core.repositoryformatversion', '1');
    g('config', 'extensions.partialClone', 'origin');
    g('config', 'remote.origin.url', join(s.home, 'origin'));
    g('config', 'remote.origin.promisor', 'true');
    g('config', 'remote.origin.uploadpack', `echo uploadpack >> '${marker}'; git-upload-pack`);
    execFileSync('rm', ['-f', join(s.repo, '.git', 'objects', tree.slice(0, 2), tree.slice(2))]);
    // And a git of the repository's, on a relative PATH entry.
    writeFiles(join(s.repo, 'tools'), { git: `#!/bin/sh\necho tools-git >> '${marker}'\nexec /usr/bin/env -i PATH=/usr/bin:/bin git "$@"\n` });
    execFileSync('chmod', ['+x', join(s.repo, 'tools', 'git')]);
    // Round-39k F2: the same folder reached through a link, or written with a double slash.
    symlinkSync(s.repo, join(s.home, 'link'));
    // Round-39l F3: a `git` outside that is a link to the repository's.
    mkdirSync(join(s.home, 'bin'));
    symlinkSync(join(s.repo, 'tools', 'git'), join(s.home, 'bin', 'git'));
    for (const entry of [`/${join(s.repo, 'tools')}`, join(s.home, 'link', 'tools'), 'tools', join(s.repo, 'tools'), join(s.home, 'bin')]) {
      const one = runCli(['--approve', '--assert-clean'], { cwd: s.repo, env: { ...s.env, PATH: `${entry}:${process.env.PATH}` } });
      expect(one.stdout + one.stderr, entry).toMatch(/^(PASS|FAIL) GATES:A/m);
      expect(existsSync(marker), entry).toBe(false);
    }
    // Round-39m F3: run in a linked worktree, a PATH folder in the main one.
    const wt = join(s.repo, '..', 'wt');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'wt', wt], { cwd: s.repo, stdio: 'ignore' });
    rmSync(marker, { force: true }); // the checkout above fetched the missing tree itself
    const inWorktree = runCli(['--approve', '--assert-clean'], { cwd: wt, env: { ...s.env, PATH: `${join(s.repo, 'tools')}:${process.env.PATH}` } });
    expect(inWorktree.stdout + inWorktree.stderr).toMatch(/^(PASS|FAIL) GATES:A/m);
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') + inWorktree.stdout + inWorktree.stderr : '').toBe(false);
    const r = runCli(['--approve', '--assert-clean'], { cwd: s.repo, env: { ...s.env, PATH: `tools:${join(s.repo, 'tools')}:${process.env.PATH}` } });
    expect(r.stdout + r.stderr).toMatch(/^(PASS|FAIL) GATES:A/m);
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe(false);
  });

  // Round-39n N3: a git in another checkout of the same repository: a sibling linked worktree,
  // and the main checkout (or the git directory) of a repository made with --separate-git-dir.
  it('runs no git from another checkout of the repository or from its git directory', () => {
    const ledger = '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: never\n';
    const s = gitRepo({ 'GATES.md': ledger, 'src/app.js': 'x\n' });
    const marker = join(s.home, 'ran');
    const plant = (dir: string) => {
      writeFiles(dir, { git: `#!/bin/sh\necho planted >> '${marker}'\nexec /usr/bin/env -i PATH=/usr/bin:/bin git "$@"\n` });
      execFileSync('chmod', ['+x', join(dir, 'git')]);
      return dir;
    };
    const g = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
    const w1 = join(s.repo, '..', 'w1');
    const w2 = join(s.repo, '..', 'w2');
    g(s.repo, 'worktree', 'add', '-q', '-b', 'w1', w1);
    g(s.repo, 'worktree', 'add', '-q', '-b', 'w2', w2);
    // A worktree whose .git file is gone: git still lists it, and its files are still there.
    const w3 = join(s.repo, '..', 'w3');
    g(s.repo, 'worktree', 'add', '-q', '-b', 'w3', w3);
    rmSync(join(w3, '.git'));
    const sep = tempDir('gc-separate-');
    const main = join(sep, 'main');
    mkdirSync(main);
    g(main, 'init', '-q', `--separate-git-dir=${join(sep, 'repo.git')}`);
    writeFiles(main, { 'GATES.md': ledger });
    g(main, 'add', '-A');
    g(main, 'commit', '-qm', 'init');
    const w = join(sep, 'w');
    g(main, 'worktree', 'add', '-q', '-b', 'w', w);
    for (const [cwd, folder] of [
      [w1, plant(join(w2, 'tools'))],
      [w1, plant(join(w3, 'tools'))],
      [w, plant(join(main, 'tools'))],
      [w, plant(join(sep, 'repo.git', 'tools'))],
      [main, plant(join(w, 'tools'))],
    ] as const) {
      const r = runCli(['--approve', '--assert-clean'], { cwd, env: { ...s.env, PATH: `${folder}:${process.env.PATH}` } });
      expect(r.stdout + r.stderr, folder).toMatch(/^(PASS|FAIL) GATES:A/m);
      expect(existsSync(marker), `${folder}: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`).toBe(false);
    }
  });

  // Round-39o O4, O5, O6: the checkouts of every repository around the root (one made in the
  // folder holding the checkout took the real one's place), a submodule's worktrees, and `.git`
  // files whose bytes are not UTF-8 (decoded, they named a decoy instead of git's path).
  it('runs no git from a checkout of a repository around the root, of a submodule, or named in bytes that are not UTF-8', () => {
    const ledger = '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: never\n';
    const g = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });
    const home = tempDir('gc-home-');
    const marker = join(home, 'ran');
    const plant = (dir: string) => {
      writeFiles(dir, { git: `#!/bin/sh\necho planted >> '${marker}'\nexec /usr/bin/env -i PATH=/usr/bin:/bin git "$@"\n` });
      execFileSync('chmod', ['+x', join(dir, 'git')]);
      return dir;
    };
    const repoIn = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFiles(dir, { 'GATES.md': ledger, '.gitignore': 'tools/\n' });
      g(dir, 'init', '-q');
      g(dir, 'add', '-A');
      g(dir, 'commit', '-qm', 'init');
      return dir;
    };
    const odd = (folder: string) => Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([0xff])]);
    /** A repository with a submodule `sub`, which has a linked worktree at t/subwt. */
    const submoduleWorktree = () => {
      const t = tempDir('gc-subwt-');
      const origin = repoIn(join(t, 'origin'));
      const repo = repoIn(join(t, 'repo'));
      g(repo, 'submodule', 'add', '-q', origin, 'sub');
      g(repo, 'commit', '-qm', 'sub');
      g(join(repo, 'sub'), 'worktree', 'add', '-q', '-b', 'x', join(t, 'subwt'));
      return { t, repo };
    };
    const cases: Array<[string, () => { cwd: string; folder: string; refused?: RegExp }]> = [
      ['O5: a repository made in the folder holding the checkout', () => {
        const t = tempDir('gc-outer-');
        const repo = repoIn(join(t, 'p', 'repo'));
        g(repo, 'worktree', 'add', '-q', '-b', 'w2', join(t, 'w2'));
        g(join(t, 'p'), 'init', '-q');
        return { cwd: repo, folder: plant(join(t, 'w2', 'tools')) };
      }],
      ['O6: a linked worktree of a submodule', () => {
        const { t, repo } = submoduleWorktree();
        return { cwd: repo, folder: plant(join(t, 'subwt', 'tools')) };
      }],
      ['O6: a linked worktree of a submodule, its .git file gone', () => {
        const { t, repo } = submoduleWorktree();
        rmSync(join(t, 'subwt', '.git'));
        return { cwd: repo, folder: plant(join(t, 'subwt', 'tools')) };
      }],
      ['O6: a linked worktree of a submodule, its record in the git folder naming another place', () => {
        const { t, repo } = submoduleWorktree();
        writeFileSync(join(repo, '.git', 'modules', 'sub', 'worktrees', 'subwt', 'gitdir'), `${join(t, 'elsewhere', '.git')}\n`);
        return { cwd: repo, folder: plant(join(t, 'subwt', 'tools')) };
      }],
      ['O4: a sibling worktree whose .git names its git folder in bytes that are not UTF-8', () => {
        const t = tempDir('gc-utf-');
        const repo = repoIn(join(t, 'repo'));
        g(repo, 'worktree', 'add', '-q', '-b', 'w1', join(t, 'w1'));
        g(repo, 'worktree', 'add', '-q', '-b', 'w2', join(t, 'w2'));
        symlinkSync(join(repo, '.git', 'worktrees', 'w2'), odd(t));
        mkdirSync(join(t, '\ufffd'));
        writeFileSync(join(t, 'w2', '.git'), Buffer.concat([Buffer.from('gitdir: '), odd(t), Buffer.from('\n')]));
        writeFileSync(join(repo, '.git', 'worktrees', 'w2', 'gitdir'), Buffer.concat([odd(t), Buffer.from('/.git\n')]));
        return { cwd: join(t, 'w1'), folder: plant(join(t, 'w2', 'tools')) };
      }],
      ['O4: the checkout\'s own commondir in bytes that are not UTF-8', () => {
        const t = tempDir('gc-utf-');
        const repo = repoIn(join(t, 'repo'));
        g(repo, 'worktree', 'add', '-q', '-b', 'w1', join(t, 'w1'));
        symlinkSync(join(repo, '.git'), odd(t));
        mkdirSync(join(t, '\ufffd'));
        writeFileSync(join(repo, '.git', 'worktrees', 'w1', 'commondir'), Buffer.concat([odd(t), Buffer.from('\n')]));
        return { cwd: join(t, 'w1'), folder: plant(join(repo, 'tools')), refused: /cannot tell which folders hold the repository's files: .*is not UTF-8 text/ };
      }],
    ];
    for (const [name, setup] of cases) {
      const { cwd, folder, refused } = setup();
      execFileSync('git', ['status', '--short'], { cwd }); // git works there
      rmSync(marker, { force: true });
      const r = runCli(['--approve', '--assert-clean'], { cwd, env: { ...process.env, HOME: home, PATH: `${folder}:${process.env.PATH}` } });
      if (refused) {
        expect(r.code, name).toBe(2);
        expect(r.stderr, name).toMatch(refused);
      } else {
        expect(r.stdout + r.stderr, name).toMatch(/^FAIL GATES:A/m);
      }
      expect(existsSync(marker), `${name}: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}${r.stdout}${r.stderr}`).toBe(false);
    }
  });

  // Round-39p P2: a PATH entry whose bytes are not UTF-8 reaches Node decoded, its odd bytes as
  // U+FFFD: the folder that text names is on no PATH, and its git is not run.
  it('runs no git from the folder a PATH entry that is not UTF-8 decodes to', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: never\n' });
    const t = tempDir('gc-path-');
    const marker = join(s.home, 'ran');
    writeFiles(join(t, '\ufffd', 'bin'), { git: `#!/bin/sh\necho planted >> '${marker}'\nexec /usr/bin/env -i PATH=/usr/bin:/bin git "$@"\n` });
    execFileSync('chmod', ['+x', join(t, '\ufffd', 'bin', 'git')]);
    const r = spawnSync('sh', ['-c', `PATH="$(printf '%s/\\377/bin' "$T")":"$PATH" exec "$NODE" "$BIN" --approve --assert-clean`], { cwd: s.repo, env: { ...s.env, T: t, NODE: process.execPath, BIN }, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toMatch(/^FAIL GATES:A/m);
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe(false);
  });

  // Which folders hold the repository's files must be known before any git runs: a `.git`
  // around the root that names no repository, or submodule git folders past what is looked
  // into (4,096 folders, 32 deep), is exit 2 before anything runs.
  it('runs nothing when it cannot tell which folders hold the repository: a .git around the root naming none, too many or too deep submodule folders', () => {
    for (const [name, setup, cwdOf] of [
      ['a .git naming no repository', (repo: string) => writeFiles(join(repo, 'pkg'), { '.git': 'not a gitfile\n', 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' }), (repo: string) => join(repo, 'pkg')],
      ['submodule folders 33 deep', (repo: string) => mkdirSync(join(repo, '.git', 'modules', ...Array.from({ length: 33 }, (_, i) => `d${i}`)), { recursive: true }), (repo: string) => repo],
      ['4,097 submodule folders', (repo: string) => { for (let i = 0; i < 4097; i++) mkdirSync(join(repo, '.git', 'modules', `m${i}`), { recursive: true }); }, (repo: string) => repo],
      ['a worktree folder named in bytes that are not UTF-8', (repo: string) => mkdirSync(Buffer.concat([Buffer.from(`${repo}/.git/worktrees/`), Buffer.from([0xff])]), { recursive: true }), (repo: string) => repo],
    ] as const) {
      const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
      setup(s.repo);
      const cwd = cwdOf(s.repo);
      const r = runCli(['--approve', '--assert-clean'], { cwd, env: s.env });
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr, name).toMatch(/cannot tell which folders hold the repository's files/);
      expect(existsSync(join(cwd, 'ran')), name).toBe(false);
    }
  });

  // Round-39h F3, F4, F6, F7: your global excludes file, a hooks folder core.hooksPath names
  // outside the repository, the configuration file GIT_CONFIG_GLOBAL names, a file named like
  // one of gate-check's labels, and the ledger itself.
  it("fails a check that changes your excludes file, a hooks folder outside, the file GIT_CONFIG_GLOBAL names, a file named like a label, or the ledger", () => {
    const hooks = tempDir('gc-hooks-');
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\n');
    for (const [check, changed, setup] of [
      ['(mkdir -p "$HOME/.config/git"; echo "*.test.js" >> "$HOME/.config/git/ignore")', /core\.excludesfile \S*\/\.config\/git\/ignore/, () => ({})],
      [`(echo "touch pwned" >> ${JSON.stringify(join(hooks, 'pre-commit'))})`, /core\.hookspath \S*\/pre-commit/, (repo: string) => (execFileSync('git', ['config', 'core.hooksPath', hooks], { cwd: repo }), {})],
      ['(printf "[core]\\n\\tfsmonitor = touch pwned\\n" >> "$HOME/dotfiles/gitconfig")', /git configuration \S*\/dotfiles\/gitconfig/, (_repo: string, home: string) => (writeFiles(join(home, 'dotfiles'), { gitconfig: '[user]\n\tname = t\n' }), { GIT_CONFIG_GLOBAL: join(home, 'dotfiles', 'gitconfig') })],
      ['touch "src/app.js (index entry stat data)"', /src\/app\.js \(index entry stat data\)/, () => ({})],
      // A new file whose path is one of gate-check's own labels.
      ['(mkdir -p "core.excludesfile $HOME/.config/git" && touch "core.excludesfile $HOME/.config/git/ignore")', /core\.excludesfile \S*\/\.config\/git\/ignore/, () => ({})],
      [`sed -i "/^- \\[ \\] B/d" GATES.md`, /GATES\.md/, () => ({})],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n- [ ] B: an open gate\n`, 'src/app.js': 'x\n' });
      const env = { ...s.env, ...setup(s.repo, s.home) };
      const r = runCli(['--approve', '--assert-clean'], { cwd: s.repo, env });
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  // Round-39g F2: from a linked worktree, the main worktree's index was not watched.
  it("fails a check run in a linked worktree that stages content into the main worktree's index", () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git -C ../repo update-index --cacheinfo 100644,$(echo evil | git hash-object -w --stdin),src/app.js && echo ok\n  EXPECT: ok\n', 'src/app.js': 'safe\n' });
    const wt = join(s.repo, '..', 'wt');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'side', wt], { cwd: s.repo, stdio: 'ignore' });
    const r = runCli(['--approve', '--assert-clean'], { cwd: wt, env: s.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*\.git \(common\)\/index/m);
  });

  // Round-39e: a second copy of an entry appended to the index was folded into the first by
  // path; git status then showed `A  src/app.js`, and the next commit was malformed.
  it('fails a check that appends a second entry of a path to the index', () => {
    const dup = [
      "const fs = require('fs'), crypto = require('crypto');",
      "const b = fs.readFileSync('.git/index');",
      'const n = b.readUInt32BE(8);',
      'let at = 12, last = 12;',
      'for (let i = 0; i < n; i++) { last = at; const len = b.readUInt16BE(at + 60) & 0xfff; at = at + ((62 + len + 8) & ~7); }',
      'const body = Buffer.concat([b.subarray(0, at), b.subarray(last, at), b.subarray(at, b.length - 20)]);',
      'body.writeUInt32BE(n + 1, 8);',
      "fs.writeFileSync('.git/index', Buffer.concat([body, crypto.createHash('sha1').update(body).digest()]));",
      '',
    ].join('\n');
    const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${JSON.stringify(process.execPath)} dup.js && echo ok\n  EXPECT: ok\n`, 'dup.js': dup, 'zz.txt': 'z\n' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): .*zz\.txt \(index entry 2\)/m);
  });

  it('passes a check that looks at the repository with git status and git diff, whatever they refresh', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: touch -c src/app.js; git status --short >/dev/null; git diff --exit-code >/dev/null && echo ok\n  EXPECT: ok\n', 'src/app.js': 'x\n' });
    expect(execFileSync('git', ['write-tree'], { cwd: s.repo, encoding: 'utf8' })).toMatch(/^[0-9a-f]{40}/);
    const r = s.run(['--approve', '--assert-clean']);
    // touch -c changes the file's stat data: that is a change (a rewrite counts), named as the file only.
    expect(r.stdout).toMatch(/^FAIL GATES:A .*\(--assert-clean\): src\/app\.js$/m);
    const quiet = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: git status --short >/dev/null; git diff --exit-code >/dev/null && echo ok\n  EXPECT: ok\n', 'src/app.js': 'x\n' });
    expect(quiet.run(['--approve', '--assert-clean']).code).toBe(0);
  });

  // Round-39i F2: a submodule whose git directory is inside it (`git submodule add` of an
  // existing clone leaves lib/.git a folder): its config and its branch.
  it('watches a submodule whose git directory is inside it', () => {
    const origin = tempDir('gc-sub-origin-');
    const g = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });
    g(origin, 'init', '-q');
    g(origin, 'commit', '-q', '--allow-empty', '-m', 'lib');
    for (const [check, changed] of [
      ['git -C lib config core.fsmonitor "touch pwned"', /lib\/\.git\/config/],
      ['git -C lib -c user.email=t@t -c user.name=t commit -q --allow-empty -m evil', /lib\/\.git\/refs\/heads\//],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n` });
      g(s.repo, 'clone', '-q', origin, 'lib');
      g(s.repo, 'submodule', 'add', '-q', origin, 'lib');
      g(s.repo, 'commit', '-qm', 'lib');
      expect(lstatSync(join(s.repo, 'lib', '.git')).isDirectory()).toBe(true);
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, check).toBe(1);
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  // Round-38e F4: a submodule's config and hooks live in the top repository's .git/modules.
  it("fails a check that changes a submodule's git directory: its config, its hooks", () => {
    const origin = tempDir('gc-sub-origin-');
    const g = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });
    g(origin, 'init', '-q');
    g(origin, 'commit', '-q', '--allow-empty', '-m', 'lib');
    for (const [check, changed, worktree] of [
      ['git -C lib config core.fsmonitor "touch pwned"', /\.git\/modules\/lib\/config/, false],
      ['printf "#!/bin/sh\\n" > .git/modules/lib/hooks/pre-commit', /\.git\/modules\/lib\/hooks\/pre-commit/, false],
      // Round-39c lead: the submodule's own linked worktree, its git directory under the submodule's.
      ['git -C ../lib-wt checkout -q --detach', /\.git\/modules\/lib\/worktrees\/lib-wt\/HEAD/, true],
      // Round-39g F4: the submodule's branch moved (its HEAD still names it): the commit the
      // top repository's next `git commit -a` records.
      ['git -C lib -c user.email=t@t -c user.name=t commit -q --allow-empty -m evil', /\.git\/modules\/lib\/refs\/heads\//, false],
      // Round-39h F2: the submodule's `.git` file, which says where its git directory is
      // (pointed at a copy elsewhere, with a commit and a config of the check's making).
      ['(cat lib/.git > lib/.git.new && mv lib/.git.new lib/.git)', /lib\/\.git \(where the submodule's git directory is\)/, false],
    ] as const) {
      const s = gitRepo({ 'GATES.md': `- [ ] A: t\n  CHECK: ${check} >/dev/null 2>&1; echo ok\n  EXPECT: ok\n` });
      g(s.repo, 'submodule', 'add', '-q', origin, 'lib');
      g(s.repo, 'commit', '-qm', 'lib');
      if (worktree) g(join(s.repo, 'lib'), 'worktree', 'add', '-q', '-b', 'side', join(s.repo, '..', 'lib-wt'));
      const r = s.run(['--approve', '--assert-clean']);
      expect(r.code, check).toBe(1);
      expect(r.stdout, check).toMatch(new RegExp(`^FAIL GATES:A .*\\(--assert-clean\\): .*${changed.source}`, 'm'));
    }
  });

  it('passes a check that changes nothing, and ignores gate-check\'s own ledger writes', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: cat fixture.txt\n  EXPECT: original\n- [ ] B: t\n  CHECK: sleep 1.2; echo ok\n  EXPECT: ok\n', 'fixture.txt': 'original\n' });
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/- \[x\] A[^]*- \[x\] B/);
  });

  it('repository git config cannot make git run a command (core.fsmonitor is off)', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const marker = join(s.home, 'fsmonitor-ran');
    writeFiles(s.home, { 'monitor.sh': `#!/bin/sh\ntouch '${marker}'\n` });
    execFileSync('chmod', ['+x', join(s.home, 'monitor.sh')]);
    execFileSync('git', ['config', 'core.fsmonitor', join(s.home, 'monitor.sh')], { cwd: s.repo });
    execFileSync('git', ['status', '--porcelain'], { cwd: s.repo }); // the control: plain git runs it
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);
    expect(s.run(['--approve', '--assert-clean']).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('repository git config cannot make it run a filter: a clean filter chosen by .gitattributes for a file whose stat data changed (integrity attack F3)', () => {
    const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n', 'a.txt': 'data\n' });
    const marker = join(s.home, 'filter-ran');
    execFileSync('git', ['config', 'filter.pwn.clean', `sh -c 'echo ran >> "${marker}"; cat'`], { cwd: s.repo });
    writeFiles(s.repo, { '.gitattributes': 'a.txt filter=pwn\n' });
    execFileSync('touch', ['-d', '2001-01-01', join(s.repo, 'a.txt')]);
    execFileSync('git', ['status', '--porcelain'], { cwd: s.repo }); // the control: plain git status runs it
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);
    execFileSync('touch', [join(s.repo, 'a.txt')]);
    const r = s.run(['--approve', '--assert-clean']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('fails a check that stages a file, or rewrites a tracked file with the same bytes (a write is a change)', () => {
    const staged = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo more >> f.txt; git add f.txt; git checkout -- . 2>/dev/null; echo ok\n  EXPECT: ok\n', 'f.txt': 'x\n' });
    // Staging also invalidates the index's cache tree for the file's folder.
    expect(staged.run(['--approve', '--assert-clean']).stdout).toMatch(/--assert-clean\): \.git\/index \(cache tree, entry flags\), f\.txt$/m);
    const same = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: cp f.txt /tmp/gc-same-$$; cp /tmp/gc-same-$$ f.txt; rm /tmp/gc-same-$$; echo ok\n  EXPECT: ok\n', 'f.txt': 'x\n' });
    expect(same.run(['--approve', '--assert-clean']).stdout).toMatch(/--assert-clean\): f\.txt$/m);
  });

  it('GIT_DIR and GIT_WORK_TREE naming a decoy, or core.worktree in .git/config pointing elsewhere, do not hide a change (round-2 attack)', () => {
    const decoy = tempDir('gc-decoy-');
    execFileSync('git', ['init', '-q'], { cwd: decoy });
    for (const [name, env, setup] of [
      ['GIT_DIR', { GIT_DIR: join(decoy, '.git'), GIT_WORK_TREE: decoy }, () => {}],
      ['core.worktree', {}, (repo: string) => execFileSync('git', ['config', 'core.worktree', decoy], { cwd: repo })],
    ] as const) {
      const s = gitRepo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo changed > fixture.txt; touch new.txt; echo ok\n  EXPECT: ok\n', 'fixture.txt': 'original\n' });
      setup(s.repo);
      const r = runCli(['--approve', '--assert-clean'], { cwd: s.repo, env: { ...s.env, ...env } });
      expect(r.stdout, name).toMatch(/--assert-clean\): fixture\.txt, new\.txt$/m);
    }
  });

  it('without git at --root, exits 2 before running', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n  CHECK: touch ran; echo ok\n  EXPECT: ok\n' });
    const r = runCli(['--approve', '--assert-clean'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--assert-clean/);
  });
});
