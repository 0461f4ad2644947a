// Where --junit and GitHub's step summary may go, through the real CLI: never over or onto
// a ledger (seen by identity: another spelling, a hard link, a ledger of another scope or
// named explicitly), never into the private store, never to anything but a regular file; and
// a failed write is exit 2 naming the file.
import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFileName } from '../../lib/history/log.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { runCliWithFileLimit } from '../helpers/limits.js';
import { sleep } from '../helpers/process.js';

const LEDGER = '- [ ] A: a works\n  CHECK: echo ok\n  EXPECT: ok\n';

function repo(files: Record<string, string> = { 'GATES.md': LEDGER }) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: s.repo, env: { ...s.env, ...env } });
  return { ...s, files, run, gh: (summary: string) => ({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }) };
}

function unchanged(s: { repo: string; files: Record<string, string> }) {
  for (const [name, text] of Object.entries(s.files)) expect(readFileSync(join(s.repo, name), 'utf8')).toBe(text);
}

describe('a report never replaces or extends a ledger', () => {
  it('--status --junit GATES.md, and the same ledger spelled another way', () => {
    const s = repo({ 'GATES.md': LEDGER, 'gates/more.md': '- [ ] M: manual\n' });
    for (const target of ['GATES.md', './gates/../GATES.md', join(s.repo, 'gates', 'more.md')]) {
      const r = s.run(['--status', '--junit', target]);
      expect(r.code, target).toBe(2);
      expect(r.stderr).toMatch(/: is the ledger \/.*\.md \(refused: a report never replaces or extends a ledger\)/);
    }
    unchanged(s);
    expect(readdirSync(s.repo).sort()).toEqual(['GATES.md', 'gates']);
  });

  it('GITHUB_STEP_SUMMARY=GATES.md, and the same file through a linked directory', () => {
    const s = repo();
    symlinkSync(s.repo, join(s.home, 'repo-link'));
    for (const summary of [join(s.repo, 'GATES.md'), join(s.home, 'repo-link', 'GATES.md')]) {
      const r = s.run(['--status'], s.gh(summary));
      expect(r.code, summary).toBe(2);
      expect(r.stderr).toContain(`${summary}: is the ledger ${join(s.repo, 'GATES.md')} (refused`);
    }
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(LEDGER);
  });

  // A run holds the job summary open from before its checks (summary-before.ts) and writes
  // through that descriptor, which is checked too; a ledger with a second link is refused first.
  it('a run whose GITHUB_STEP_SUMMARY is a hard link to the ledger: refused, the ledger untouched', () => {
    const s = repo();
    const summary = join(s.home, 'summary.md');
    linkSync(join(s.repo, 'GATES.md'), summary);
    const r = s.run(['--approve'], s.gh(summary));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md: ledger has 2 hard links \(refused|is the ledger .*GATES\.md \(refused/);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(LEDGER);
  });

  it('a ledger the run did not select: another scope, or the root ledger under --scope', () => {
    const s = repo({ 'GATES.md': LEDGER, '.gate-check/a/one.md': '- [ ] M: manual\n', '.gate-check/b/two.md': '- [ ] N: manual\n' });
    expect(s.run(['--status', '--scope', 'a', '--junit', '.gate-check/b/two.md']).code).toBe(2);
    expect(s.run(['--status', '--scope', 'a'], s.gh(join(s.repo, 'GATES.md'))).code).toBe(2);
    unchanged(s);
  });

  it('a ledger named explicitly, outside the places discovery looks', () => {
    const s = repo({ 'docs/plan.md': LEDGER });
    const r = s.run(['--status', 'docs/plan.md', '--junit', 'docs/plan.md']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/docs\/plan\.md: is the ledger/);
    unchanged(s);
  });

  it('a report next to the ledger is written as before', () => {
    const s = repo();
    expect(s.run(['--status', '--junit', 'junit.xml'], s.gh(join(s.repo, 'summary.md'))).code).toBe(1);
    expect(readFileSync(join(s.repo, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/);
    expect(readFileSync(join(s.repo, 'summary.md'), 'utf8')).toMatch(/GATES\\?:A/);
  });
});

describe("a report never goes into gate-check's private store", () => {
  it('--junit into the approvals directory, and the step summary onto the audit log', () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    const approvals = join(s.home, '.gate-check', 'approved');
    const before = readdirSync(approvals).sort();
    const r = s.run(['--status', '--junit', join(approvals, 'x.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(approvals, 'x.json')}: lies in gate-check's private store (refused: a report is never written there)`);
    expect(readdirSync(approvals).sort()).toEqual(before);
    const log = join(s.home, '.gate-check', 'history', historyFileName(s.repo));
    const text = readFileSync(log, 'utf8');
    const viaLink = join(s.home, 'store-link');
    execFileSync('ln', ['-s', join(s.home, '.gate-check'), viaLink]);
    for (const summary of [log, join(viaLink, 'history', historyFileName(s.repo))]) {
      const g = s.run(['--status'], s.gh(summary));
      expect(g.code, summary).toBe(2);
      expect(g.stderr).toMatch(/lies in gate-check's private store/);
    }
    expect(readFileSync(log, 'utf8')).toBe(text);
  });

  it('GATE_CHECK_APPROVAL_DIR elsewhere is protected too', () => {
    const s = repo();
    const dir = join(s.home, 'my-approvals');
    mkdirSync(dir, { mode: 0o700 });
    const r = s.run(['--status', '--junit', join(dir, 'r.xml')], { GATE_CHECK_APPROVAL_DIR: dir });
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the step summary must be a regular file', () => {
  for (const device of ['/dev/null', '/dev/full']) {
    it(`a device (${device}): exit 2`, () => {
      const s = repo();
      const r = s.run(['--status'], s.gh(device));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${device}: is a device (refused: only a regular file is appended to)`);
    });
  }

  it('a FIFO, with or without a reader: exit 2 at once, the reader gets nothing', async () => {
    const s = repo();
    const fifo = join(s.home, 'summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const t0 = Date.now();
    const lone = s.run(['--status'], s.gh(fifo));
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/summary\.fifo: is a FIFO or socket \(refused/);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    await sleep(100);
    try {
      const read = s.run(['--status'], s.gh(fifo));
      expect(read.code).toBe(2);
      expect(read.stderr).toMatch(/summary\.fifo: is a FIFO \(refused/);
    } finally {
      reader.kill();
    }
    expect(got).toBe('');
    expect(Date.now() - t0).toBeLessThan(15_000);
  });
});

describe('a report that cannot be written completely is exit 2, naming the file', () => {
  it('--junit under a file size limit (EFBIG): no partial or temporary file', () => {
    const s = repo();
    const r = runCliWithFileLimit(0, ['--status', '--junit', 'out.xml'], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(s.repo, 'out.xml')}: write failed (EFBIG: file size limit exceeded)`);
    expect(readdirSync(s.repo)).toEqual(['GATES.md']);
  });

  it('the step summary under a file size limit (EFBIG): exit 2', () => {
    const s = repo();
    const summary = join(s.home, 'summary.md');
    writeFileSync(summary, '');
    const r = runCliWithFileLimit(0, ['--status'], { cwd: s.repo, env: { ...s.env, ...s.gh(summary) } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${summary}: cannot append`);
  });
});
