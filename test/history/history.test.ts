// The audit log and `gate-check history`, with real runs.
import { appendFileSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureFingerprint, labelHistory, parseEvent, type AttemptEvent } from '../../lib/history/event.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return { ...s, run: (args: string[]) => runCli(args, { cwd: s.repo, env: s.env }) };
}

const historyDir = (home: string) => join(home, '.gate-check', 'history');

describe('failure fingerprints', () => {
  it('ignore timestamps, durations, hex ids, temp paths and long numbers', () => {
    const a = failureFingerprint('2026-11-30T03:00:01.123Z test failed after 123 ms in /tmp/abc123/x (id deadbeefcafe, seed 9912345)', 'exit 1');
    const b = failureFingerprint('2025-01-02T10:11:12Z test failed after 9 ms in /tmp/zzz/x (id 0123456789ab, seed 4455667)', 'exit 1');
    expect(a).toBe(b);
    expect(failureFingerprint('assertion failed: 2 != 3', 'exit 1')).not.toBe(failureFingerprint('file not found', 'exit 1'));
  });

  // Found by a new-user trial: "stuck" never fired for node --test, whose TAP names the unit first.
  it('ignore durations named before their number, as node --test prints them', () => {
    const tap = (a: string, b: string) => `not ok 1 - adds\n  ---\n  duration_ms: ${a}\n  failureType: 'testCodeFailure'\n  ...\n# fail 1\n# duration_ms ${b}\n`;
    expect(failureFingerprint(tap('0.523417', '45.12'), 'exit 1')).toBe(failureFingerprint(tap('1.9', '51'), 'exit 1'));
    expect(failureFingerprint(tap('0.5', '45'), 'exit 1')).not.toBe(failureFingerprint(tap('0.5', '45').replace('# fail 1', '# fail 2'), 'exit 1'));
  });
});

describe('labels', () => {
  const ev = (status: 'pass' | 'fail', oracle = 'o1', fingerprint: string | null = status === 'fail' ? 'f1' : null): AttemptEvent => ({
    time: new Date().toISOString(),
    file: 'GATES.md',
    gate: 'GATES:A',
    oracle,
    status,
    exit: status === 'pass' ? 0 : 1,
    durationMs: 1,
    outputSha256: null,
    fingerprint,
  });
  it('flaky: passed and failed under the same oracle; not across oracles', () => {
    expect(labelHistory('GATES:A', [ev('pass'), ev('fail')]).flaky).toBe(true);
    expect(labelHistory('GATES:A', [ev('pass', 'o1'), ev('fail', 'o2')]).flaky).toBe(false);
  });
  it('not flaky: a failure after the INPUTS changed and a pass after they changed again (a regression and its fix)', () => {
    const at = (status: 'pass' | 'fail', inputs: string | null): AttemptEvent => ({ ...ev(status), inputs });
    expect(labelHistory('GATES:A', [at('pass', 'aaaaaaaaaaaa'), at('fail', 'bbbbbbbbbbbb'), at('pass', 'cccccccccccc')]).flaky).toBe(false);
    expect(labelHistory('GATES:A', [at('pass', 'aaaaaaaaaaaa'), at('fail', 'aaaaaaaaaaaa')]).flaky).toBe(true);
    expect(labelHistory('GATES:A', [at('pass', null), at('fail', null)]).flaky).toBe(true);
    // Events written before INPUTS were recorded still group by the oracle among themselves.
    expect(labelHistory('GATES:A', [ev('pass'), ev('fail')]).flaky).toBe(true);
  });
  it('an event reads with or without its INPUTS digest, never with a malformed one', () => {
    const line = (extra: Record<string, unknown>) => JSON.stringify({ ...ev('fail'), ...extra });
    expect(parseEvent(line({}))).not.toBeNull();
    expect(parseEvent(line({ inputs: null }))).not.toBeNull();
    expect(parseEvent(line({ inputs: 'abcdef012345' }))?.inputs).toBe('abcdef012345');
    for (const bad of ['ABCDEF012345', 'abc', 1, {}, '::error::x']) expect(parseEvent(line({ inputs: bad })), String(bad)).toBeNull();
  });
  it("a failure that is --assert-clean's reads with its cause, on a failure only, and is not flakiness", () => {
    const line = (extra: Record<string, unknown>, status = 'fail') => JSON.stringify({ ...ev(status as 'fail'), ...extra });
    expect(parseEvent(line({ cause: 'changed-files' }))?.cause).toBe('changed-files');
    expect(parseEvent(line({ cause: 'changed-files', inputs: null }))?.cause).toBe('changed-files');
    for (const bad of ['other', null, 1]) expect(parseEvent(line({ cause: bad })), String(bad)).toBeNull();
    expect(parseEvent(line({ cause: 'changed-files' }, 'pass'))).toBeNull();
    expect(labelHistory('GATES:A', [ev('pass'), { ...ev('fail'), cause: 'changed-files' }, ev('pass')]).flaky).toBe(false);
    // Its own verdict was a pass: a check that fails every other run under --assert-clean is flaky (round-38c F7).
    const own = { ...ev('fail', 'o1', 'other'), cause: 'changed-files' as const };
    expect(labelHistory('GATES:A', [ev('fail'), own, ev('fail'), own]).flaky).toBe(true);
    expect(labelHistory('GATES:A', [own, own]).flaky).toBe(false);
  });
  it('stuck: the same failure three times in a row at the end', () => {
    expect(labelHistory('GATES:A', [ev('fail'), ev('fail'), ev('fail')]).stuck).toBe(true);
    expect(labelHistory('GATES:A', [ev('fail'), ev('fail')]).stuck).toBe(false);
    expect(labelHistory('GATES:A', [ev('fail'), ev('fail', 'o1', 'f2'), ev('fail')]).stuck).toBe(false);
    expect(labelHistory('GATES:A', [ev('fail'), ev('fail'), ev('fail'), ev('pass')]).stuck).toBe(false);
  });
});

describe('audit log through real runs', () => {
  it('records one event per attempt, never the command, output or environment', () => {
    const s = repo({ 'GATES.md': "- [ ] A: t\n  CHECK: printf '%s\\n' SEKRIT-OUT\n  EXPECT: SEKRIT-OUT\n" });
    s.run(['--approve']);
    s.run(['--reverify']);
    const dir = historyDir(s.home);
    const [file] = readdirSync(dir);
    const text = readFileSync(join(dir, file!), 'utf8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(text).not.toMatch(/SEKRIT|printf|PATH|HOME/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ gate: 'GATES:A', status: 'pass', exit: 0, file: 'GATES.md' });
  });

  it('history labels a flaky gate (alternating pass/fail) and a stuck one', () => {
    const s = repo({
      'GATES.md':
        '- [ ] F: flips\n  CHECK: if [ -f on ]; then rm on; echo good; else touch on; echo bad; exit 1; fi\n  EXPECT: good\n' +
        '- [ ] S: always fails the same way\n  CHECK: echo "assertion failed at $(date +%s%N) after 12 ms"; exit 1\n  EXPECT: never\n',
    });
    s.run(['--approve']);
    for (let i = 0; i < 3; i++) s.run(['--reverify']);
    const r = s.run(['history']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GATES:F {2}flaky \(passed and failed under the same oracle and INPUTS\)/m);
    expect(r.stdout).toMatch(/^GATES:S {2}stuck \(the same failure 4 times in a row\)/m);
    const one = s.run(['history', 'F', '--json']);
    const doc = JSON.parse(one.stdout);
    expect(doc.gates).toHaveLength(1);
    expect(doc.gates[0]).toMatchObject({ gate: 'GATES:F', flaky: true, stuck: false });
  });

  it('a regression in the INPUTS and its fix is not flaky', () => {
    const s = repo({ 'GATES.md': '- [ ] R: adds\n  CHECK: grep -q good src/add.txt && echo adds-ok\n  EXPECT: adds-ok\n  INPUTS: src/*.txt\n', 'src/add.txt': 'good\n' });
    expect(s.run(['--approve']).code).toBe(0);
    writeFiles(s.repo, { 'src/add.txt': 'bad\n' });
    expect(s.run([]).code).toBe(1);
    writeFiles(s.repo, { 'src/add.txt': 'good again\n' });
    expect(s.run([]).code).toBe(0);
    const doc = JSON.parse(s.run(['history', 'R', '--json']).stdout);
    expect(doc.gates[0]).toMatchObject({ gate: 'GATES:R', flaky: false });
    expect(doc.gates[0].attempts.map((a: { status: string }) => a.status)).toEqual(['pass', 'fail', 'pass']);
    expect(new Set(doc.gates[0].attempts.map((a: { inputs: string }) => a.inputs)).size).toBe(3);
  });

  it('marks gates that are no longer in their ledger, and ledgers that are gone; a plain gate gets no label', () => {
    const s = repo({
      'GATES.md': '- [ ] A: stays\n  CHECK: echo ok\n  EXPECT: ok\n- [ ] B: will be removed\n  CHECK: echo ok\n  EXPECT: ok\n',
      'gates/web.md': '- [ ] W: its ledger will go\n  CHECK: echo ok\n  EXPECT: ok\n',
    });
    expect(s.run(['--approve']).code).toBe(0);
    writeFiles(s.repo, { 'GATES.md': readFileSync(join(s.repo, 'GATES.md'), 'utf8').replace(/- \[x\] B:[^]*$/, '') });
    rmSync(join(s.repo, 'gates', 'web.md'));
    const r = s.run(['history']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GATES:A {2}\(1 attempt\)$/m);
    expect(r.stdout).toMatch(/^GATES:B {2}no longer in its ledger \(removed or renamed\) {2}\(1 attempt\)$/m);
    expect(r.stdout).toMatch(/^web:W {2}its ledger is gone {2}\(1 attempt\)$/m);
    expect(r.stdout).not.toMatch(/no pattern/);
    const doc = JSON.parse(s.run(['history', '--json']).stdout);
    expect(Object.fromEntries(doc.gates.map((g: { gate: string; presence: string }) => [g.gate, g.presence]))).toEqual({ 'GATES:A': 'present', 'GATES:B': 'removed', 'web:W': 'ledger-gone' });
  });

  it('a log entry naming a ledger outside the repository is never opened: its presence is unknown, unlabelled', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    expect(s.run(['--approve']).code).toBe(0);
    const dir = historyDir(s.home);
    const [file] = readdirSync(dir);
    const line = JSON.parse(readFileSync(join(dir, file!), 'utf8').trim());
    writeFiles(dirname(s.repo), { 'outside.md': '- [ ] Z: t\n' });
    const forged = [
      { ...line, file: '../outside.md', gate: 'outside:Q' },
      { ...line, file: join(dirname(s.repo), 'outside.md'), gate: 'outside:Q2' },
      { ...line, file: 'GATES.md', gate: 'other:A' },
    ];
    appendFileSync(join(dir, file!), forged.map((l) => JSON.stringify(l) + '\n').join(''));
    const doc = JSON.parse(s.run(['history', '--json']).stdout);
    expect(Object.fromEntries(doc.gates.map((g: { gate: string; presence: string }) => [g.gate, g.presence]))).toEqual({ 'GATES:A': 'present', 'outside:Q': 'unknown', 'outside:Q2': 'unknown', 'other:A': 'unknown' });
  });

  it('history with no log says so and creates nothing', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n' });
    const r = s.run(['history']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no attempts recorded/);
    expect(readdirSync(s.home)).toEqual([]);
  });

  it('an audit log that is a symlink is refused (exit 2), and the result is not silently kept unlogged', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    s.run(['--approve']);
    const dir = historyDir(s.home);
    const [file] = readdirSync(dir);
    const elsewhere = join(s.home, 'elsewhere.jsonl');
    renameSync(join(dir, file!), elsewhere);
    symlinkSync(elsewhere, join(dir, file!));
    const r = s.run(['--reverify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/audit log is a symbolic link/);
  });

  it('an audit log with a second hard link is refused (exit 2)', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    s.run(['--approve']);
    const dir = historyDir(s.home);
    const [file] = readdirSync(dir);
    linkSync(join(dir, file!), join(s.home, 'alias.jsonl'));
    const r = s.run(['--reverify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/audit log has 2 hard links/);
  });

  it('a history directory open to others is refused (exit 2)', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n' });
    mkdirSync(join(s.home, '.gate-check'), { mode: 0o700 });
    mkdirSync(join(s.home, '.gate-check', 'history'), { mode: 0o755 });
    const r = s.run(['--approve']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/history: has permissions/);
  });
});
