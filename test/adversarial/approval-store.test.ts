// The approval store under attack (DESIGN §2.5, §2.6), through the real CLI. Each case starts
// from a gate that IS approved (a valid record exists), so if the refusal were removed the
// CHECK would run and leave its marker: every refusal must exit 2 and leave no marker.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, recordFileName } from '../../lib/approval/store.js';
import { BIN, runCli, sandbox, tempDir, writeFiles, type CliResult } from '../helpers/cli.js';

const RECORD_NAME = /^[0-9a-f]{16}-[0-9a-f]{64}\.json$/;

interface Setup {
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** A private directory outside the repository and outside HOME. */
  outside: string;
  run(args: string[], env?: NodeJS.ProcessEnv): CliResult;
  marker(name?: string): string;
  /** Rewrites the ledger with every gate unchecked (so a plain run attempts them again). */
  resetLedger(): void;
}

function ledgerText(repo: string, ids: string[]): string {
  return '# Gates\n\n' + ids.map((id) => `- [ ] ${id}: gate ${id}\n  CHECK: touch '${join(repo, `ran-${id}`)}' && echo ok\n  EXPECT: ok\n`).join('\n');
}

function setup(ids: string[] = ['G1']): Setup {
  const s = sandbox();
  const outside = tempDir('gc-outside-');
  chmodSync(outside, 0o700);
  const resetLedger = () => writeFiles(s.repo, { 'GATES.md': ledgerText(s.repo, ids) });
  resetLedger();
  return {
    ...s,
    outside,
    run: (args, env = s.env) => runCli(args, { cwd: s.repo, env, timeoutMs: 20_000 }),
    marker: (name = 'G1') => join(s.repo, `ran-${name}`),
    resetLedger,
  };
}

function defaultDir(s: Setup): string {
  return join(s.home, '.gate-check', 'approved');
}

function records(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => RECORD_NAME.test(n)) : [];
}

/** Approves every gate (it runs once), then clears markers and checkboxes. Returns the record path of G1. */
function approveAll(s: Setup, env: NodeJS.ProcessEnv = s.env, dir = defaultDir(s)): string {
  const r = s.run(['--approve'], env);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(existsSync(s.marker())).toBe(true);
  for (const n of readdirSync(s.repo)) if (n.startsWith('ran-')) unlinkSync(join(s.repo, n));
  s.resetLedger();
  const names = records(dir);
  expect(names.length).toBeGreaterThan(0);
  // Sanity: as it stands, the approval is honoured.
  const ok = s.run([], env);
  expect(ok.code).toBe(0);
  expect(existsSync(s.marker())).toBe(true);
  unlinkSync(s.marker());
  s.resetLedger();
  return join(dir, names[0]!);
}

/** A refused run: exit 2, a message on stderr matching `why`, nothing ran, nothing written to the ledger. */
function expectRefused(s: Setup, why: RegExp, env: NodeJS.ProcessEnv = s.env, args: string[] = []): CliResult {
  const before = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
  const r = s.run(args, env);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(why);
  expect(r.stdout).not.toMatch(/^PASS /m);
  expect(existsSync(s.marker())).toBe(false);
  expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(before);
  return r;
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('the store directory is created private', () => {
  it('~/.gate-check and ~/.gate-check/approved are created 0700, records 0600', () => {
    const s = setup();
    expect(existsSync(join(s.home, '.gate-check'))).toBe(false);
    const record = approveAll(s);
    expect(mode(join(s.home, '.gate-check'))).toBe(0o700);
    expect(mode(defaultDir(s))).toBe(0o700);
    expect(mode(record)).toBe(0o600);
    expect(statSync(record).nlink).toBe(1);
    expect(readdirSync(defaultDir(s)).filter((n) => !RECORD_NAME.test(n))).toEqual([]);
  });

  it('even under umask 000', () => {
    const s = setup();
    const r = spawnSync('/bin/sh', ['-c', 'umask 000 && exec "$0" "$1" --approve', process.execPath, BIN], { cwd: s.repo, env: s.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(mode(join(s.home, '.gate-check'))).toBe(0o700);
    expect(mode(defaultDir(s))).toBe(0o700);
    const [name] = records(defaultDir(s));
    expect(mode(join(defaultDir(s), name!))).toBe(0o600);
  });

  it('GATE_CHECK_APPROVAL_DIR is created 0700 when missing (its parent must exist)', () => {
    const s = setup();
    const dir = join(s.outside, 'approvals');
    const env = { ...s.env, GATE_CHECK_APPROVAL_DIR: dir };
    const record = approveAll(s, env, dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(record)).toBe(0o600);
    // GATE_CHECK_APPROVAL_DIR moves approvals only; receipts and the audit log stay in the
    // store base (~/.gate-check, or $GATE_CHECK_HOME), which holds no approval.
    expect(existsSync(join(s.home, '.gate-check', 'approved'))).toBe(false);

    const missingParent = { ...s.env, GATE_CHECK_APPROVAL_DIR: join(s.outside, 'no', 'such', 'dir') };
    expectRefused(s, /cannot create \(ENOENT\)/, missingParent);
  });
});

describe('an unsafe approval directory is refused with exit 2', () => {
  it('GATE_CHECK_APPROVAL_DIR is a symlink to a real store holding the approval', () => {
    const s = setup();
    const real = join(s.outside, 'real');
    approveAll(s, { ...s.env, GATE_CHECK_APPROVAL_DIR: real }, real);
    const link = join(s.outside, 'link');
    symlinkSync(real, link);
    expectRefused(s, /is a symbolic link/, { ...s.env, GATE_CHECK_APPROVAL_DIR: link });
    expectRefused(s, /is a symbolic link/, { ...s.env, GATE_CHECK_APPROVAL_DIR: link }, ['--approve']);
  });

  it('~/.gate-check/approved is a symlink', () => {
    const s = setup();
    approveAll(s);
    const moved = join(s.outside, 'approved');
    renameSync(defaultDir(s), moved);
    symlinkSync(moved, defaultDir(s));
    expectRefused(s, /approved: is a symbolic link/);
    expectRefused(s, /approved: is a symbolic link/, s.env, ['--approve']);
  });

  it('~/.gate-check itself is a symlink', () => {
    const s = setup();
    approveAll(s);
    const moved = join(s.outside, 'gc-home');
    renameSync(join(s.home, '.gate-check'), moved);
    symlinkSync(moved, join(s.home, '.gate-check'));
    expectRefused(s, /\.gate-check: is a symbolic link/);
    expectRefused(s, /\.gate-check: is a symbolic link/, s.env, ['--approve']);
  });

  it('~/.gate-check/approved is a regular file', () => {
    const s = setup();
    mkdirSync(join(s.home, '.gate-check'), { mode: 0o700 });
    writeFileSync(join(s.home, '.gate-check', 'approved'), '');
    expectRefused(s, /is not a directory/, s.env, ['--approve']);
  });

  for (const bits of [0o770, 0o777, 0o755, 0o750, 0o705, 0o701, 0o710]) {
    const octal = bits.toString(8).padStart(4, '0');
    it(`the approval directory with mode ${octal}`, () => {
      const s = setup();
      approveAll(s);
      chmodSync(defaultDir(s), bits);
      expectRefused(s, new RegExp(`approved: has permissions ${octal}: group or other may access it`));
      expectRefused(s, /group or other may access it/, s.env, ['--approve']);
    });

    it(`~/.gate-check with mode ${octal}`, () => {
      const s = setup();
      approveAll(s);
      chmodSync(join(s.home, '.gate-check'), bits);
      expectRefused(s, new RegExp(`\\.gate-check: has permissions ${octal}`));
    });

    it(`GATE_CHECK_APPROVAL_DIR with mode ${octal}`, () => {
      const s = setup();
      const dir = join(s.outside, 'approvals');
      const env = { ...s.env, GATE_CHECK_APPROVAL_DIR: dir };
      approveAll(s, env, dir);
      chmodSync(dir, bits);
      expectRefused(s, new RegExp(`has permissions ${octal}`), env);
    });
  }

  it('GATE_CHECK_APPROVAL_DIR inside the repository, even with valid private records', () => {
    const s = setup();
    const src = join(s.outside, 'approvals');
    approveAll(s, { ...s.env, GATE_CHECK_APPROVAL_DIR: src }, src);
    const inRepo = join(s.repo, '.approvals');
    mkdirSync(inRepo, { mode: 0o700 });
    for (const n of records(src)) {
      copyFileSync(join(src, n), join(inRepo, n));
      chmodSync(join(inRepo, n), 0o600);
    }
    expectRefused(s, /\.approvals: is inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: inRepo });
    expectRefused(s, /is inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: inRepo }, ['--approve']);
    // A relative value is resolved against the working directory: still the repository.
    expectRefused(s, /is inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: '.approvals' });
    // A deeper directory, and the repository root itself.
    mkdirSync(join(s.repo, 'a', 'b'), { recursive: true, mode: 0o700 });
    expectRefused(s, /is inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: join(s.repo, 'a', 'b') });
    expectRefused(s, /is inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: s.repo });
  });

  it('GATE_CHECK_APPROVAL_DIR through a symlinked parent that canonically resolves inside the repository', () => {
    const s = setup();
    const src = join(s.outside, 'approvals');
    approveAll(s, { ...s.env, GATE_CHECK_APPROVAL_DIR: src }, src);
    const inRepo = join(s.repo, 'store');
    mkdirSync(inRepo, { mode: 0o700 });
    for (const n of records(src)) {
      copyFileSync(join(src, n), join(inRepo, n));
      chmodSync(join(inRepo, n), 0o600);
    }
    // <outside>/repo-link -> <repo>; the approval dir <outside>/repo-link/store is a real 0700
    // directory and lexically outside the repository, but canonically inside it.
    symlinkSync(s.repo, join(s.outside, 'repo-link'));
    const viaLink = join(s.outside, 'repo-link', 'store');
    expectRefused(s, /resolves to .*\/repo\/store, inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: viaLink });
  });

  it('HOME inside the repository puts the default store inside it: refused', () => {
    const s = setup();
    const home = join(s.repo, 'home');
    mkdirSync(home, { mode: 0o700 });
    expectRefused(s, /is inside the repository/, { ...s.env, HOME: home }, ['--approve']);
    expect(existsSync(join(home, '.gate-check'))).toBe(false);
  });

  // A child whose name begins with two dots is still inside (isInside once got this wrong).
  it('GATE_CHECK_APPROVAL_DIR=<repo>/..approvals (a name starting with two dots) is inside the repository', () => {
    const s = setup();
    expectRefused(s, /inside the repository/, { ...s.env, GATE_CHECK_APPROVAL_DIR: join(s.repo, '..approvals') }, ['--approve']);
  });
});

describe('an unsafe or invalid record file is refused with exit 2', () => {
  it('a record replaced by a symlink to a valid record elsewhere', () => {
    const s = setup();
    const record = approveAll(s);
    const elsewhere = join(s.outside, 'record.json');
    renameSync(record, elsewhere);
    symlinkSync(elsewhere, record);
    expect(mode(elsewhere)).toBe(0o600);
    expectRefused(s, /record is a symbolic link \(refused\)/);
  });

  it('a record with a second hard link', () => {
    const s = setup();
    const record = approveAll(s);
    linkSync(record, join(s.outside, 'alias.json'));
    expectRefused(s, /record has 2 hard links/);
  });

  it('a record larger than the 16 MiB limit (valid JSON padded with whitespace)', () => {
    const s = setup();
    const record = approveAll(s);
    const size = statSync(record).size;
    appendFileSync(record, ' '.repeat(MAX_RECORD_BYTES + 1 - size));
    expect(statSync(record).size).toBe(MAX_RECORD_BYTES + 1);
    expect(mode(record)).toBe(0o600);
    expectRefused(s, new RegExp(`record is ${MAX_RECORD_BYTES + 1} bytes \\(at most ${MAX_RECORD_BYTES}\\)`));
  });

  it('a record of exactly 16 MiB is still read (the bound is inclusive)', () => {
    const s = setup();
    const record = approveAll(s);
    appendFileSync(record, ' '.repeat(MAX_RECORD_BYTES - statSync(record).size));
    expect(statSync(record).size).toBe(MAX_RECORD_BYTES);
    const r = s.run([]);
    expect(r.code).toBe(0);
    expect(existsSync(s.marker())).toBe(true);
  });

  it('a record with a "__proto__" key', () => {
    const s = setup();
    const record = approveAll(s);
    const text = readFileSync(record, 'utf8').replace(/^\{/, '{\n  "__proto__": {"signature": "x"},');
    writeFileSync(record, text);
    expect(mode(record)).toBe(0o600);
    expectRefused(s, /invalid approval record: not an approval record \(unexpected or missing fields\)/);
  });

  it('a record with an extra key', () => {
    const s = setup();
    const record = approveAll(s);
    const data = JSON.parse(readFileSync(record, 'utf8')) as Record<string, unknown>;
    writeFileSync(record, JSON.stringify({ ...data, approvedBy: 'someone' }));
    expectRefused(s, /invalid approval record: not an approval record/);
  });

  it('a record whose oracle was edited (signature no longer matches)', () => {
    const s = setup();
    const record = approveAll(s);
    const data = JSON.parse(readFileSync(record, 'utf8')) as { oracle: Record<string, unknown> };
    writeFileSync(record, JSON.stringify({ ...data, oracle: { ...data.oracle, check: 'echo ok' } }));
    expectRefused(s, /invalid approval record: signature does not match the oracle it records/);
  });

  it('a record that is not JSON, or empty', () => {
    const s = setup();
    const record = approveAll(s);
    writeFileSync(record, '');
    expectRefused(s, /invalid approval record: not valid JSON/);
    writeFileSync(record, '{"schema": ');
    expectRefused(s, /invalid approval record: not valid JSON/);
  });

  for (const bits of [0o644, 0o640, 0o604, 0o660, 0o602, 0o606]) {
    const octal = bits.toString(8).padStart(4, '0');
    it(`a record with mode ${octal}`, () => {
      const s = setup();
      const record = approveAll(s);
      chmodSync(record, bits);
      expectRefused(s, /record is readable or writable by group or other \(refused\)/);
    });
  }

  it('a directory in place of a record', () => {
    const s = setup();
    const record = approveAll(s);
    unlinkSync(record);
    mkdirSync(record, { mode: 0o700 });
    expectRefused(s, /record is a directory \(refused\)/);
  });
});

describe('a valid record under the wrong name is not an approval', () => {
  it("a valid record of G1 copied under the file name of G2's oracle", () => {
    const s = setup(['G1', 'G2']);
    const shown = s.run(['--json']);
    const gates = (JSON.parse(shown.stdout) as { gates: { id: string; result: { signature: string } | null }[] }).gates;
    const sig1 = gates.find((g) => g.id === 'G1')?.result?.signature;
    const sig2 = gates.find((g) => g.id === 'G2')?.result?.signature;
    expect(sig1).toMatch(/^[0-9a-f]{64}$/);
    expect(sig2).toMatch(/^[0-9a-f]{64}$/);

    const r = s.run(['--approve', `GATES:G1@${sig1!.slice(0, 32)}`]);
    expect(r.code).toBe(1);
    expect(existsSync(s.marker('G1'))).toBe(true);
    expect(existsSync(s.marker('G2'))).toBe(false);
    const ledger = join(s.repo, 'GATES.md');
    const name1 = recordFileName(ledger, 'G1', sig1!);
    const name2 = recordFileName(ledger, 'G2', sig2!);
    expect(records(defaultDir(s))).toEqual([name1]);

    copyFileSync(join(defaultDir(s), name1), join(defaultDir(s), name2));
    chmodSync(join(defaultDir(s), name2), 0o600);
    unlinkSync(s.marker('G1'));
    s.resetLedger();

    const after = s.run([]);
    // Not an approval (lib/approval/store.ts find): the gate asks for one, as if there were none.
    expect(after.code, after.stdout + after.stderr).toBe(1);
    expect(after.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2@/m);
    expect(after.stdout).not.toMatch(/^PASS GATES:G2/m);
    expect(existsSync(s.marker('G2'))).toBe(false);
  });

  it("the old oracle's record renamed to the new oracle's file name after the CHECK changed", () => {
    const s = setup();
    const record = approveAll(s);
    // New CHECK: same marker, so running it would be visible.
    writeFiles(s.repo, { 'GATES.md': readFileSync(join(s.repo, 'GATES.md'), 'utf8').replace('&& echo ok', '&& echo ok && echo changed') });
    const j = s.run(['--json']);
    const sig = (JSON.parse(j.stdout) as { gates: { result: { signature: string } | null }[] }).gates[0]?.result?.signature;
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    const target = join(defaultDir(s), recordFileName(join(s.repo, 'GATES.md'), 'G1', sig!));
    expect(target).not.toBe(record);
    renameSync(record, target);

    const r = s.run([]);
    expect([1, 2]).toContain(r.code);
    if (r.code === 1) expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@/m);
    expect(r.stdout).not.toMatch(/^PASS /m);
    expect(existsSync(s.marker())).toBe(false);
  });

  it('a record of another ledger copied under this ledger\'s name', () => {
    const s = setup();
    // Approve an identical gate in another ledger file of the same repository.
    writeFiles(s.repo, { 'OTHER.md': ledgerText(s.repo, ['G1']) });
    const a = s.run(['--approve', 'OTHER.md']);
    expect(a.code).toBe(0);
    unlinkSync(s.marker());
    const [otherName] = records(defaultDir(s));
    const j = s.run(['--json', 'GATES.md']);
    const sig = (JSON.parse(j.stdout) as { gates: { result: { signature: string } | null }[] }).gates[0]?.result?.signature;
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    copyFileSync(join(defaultDir(s), otherName!), join(defaultDir(s), recordFileName(join(s.repo, 'GATES.md'), 'G1', sig!)));
    chmodSync(join(defaultDir(s), recordFileName(join(s.repo, 'GATES.md'), 'G1', sig!)), 0o600);

    const r = s.run(['GATES.md']);
    expect([1, 2]).toContain(r.code);
    expect(r.stdout).not.toMatch(/^PASS /m);
    expect(existsSync(s.marker())).toBe(false);
  });
});

describe('a record whose DEPENDS were edited, keeping its signature, is not an approval', () => {
  it('a changed digest in the recorded DEPENDS list: exit 2, nothing runs', () => {
    const s = sandbox();
    const marker = join(s.repo, 'ran-G1');
    writeFiles(s.repo, { 'GATES.md': `- [ ] G1: t\n  CHECK: touch '${marker}' && echo ok\n  EXPECT: ok\n  DEPENDS: dep.txt\n`, 'dep.txt': 'approved\n' });
    expect(runCli(['--approve'], { cwd: s.repo, env: s.env }).code).toBe(0);
    unlinkSync(marker);
    writeFiles(s.repo, { 'GATES.md': `- [ ] G1: t\n  CHECK: touch '${marker}' && echo ok\n  EXPECT: ok\n  DEPENDS: dep.txt\n` });
    const dir = join(s.home, '.gate-check', 'approved');
    const [name] = records(dir);
    const record = JSON.parse(readFileSync(join(dir, name!), 'utf8')) as { oracle: { depends: [string, string][] } };
    record.oracle.depends = [['dep.txt', 'f'.repeat(64)]];
    writeFileSync(join(dir, name!), JSON.stringify(record));
    const r = runCli([], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid approval record: signature does not match the oracle it records/);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('nothing is approved that could not be read back', () => {
  it('a DEPENDS matching so many files that the record would pass the read limit: exit 2 at approval, no record, nothing runs', () => {
    const s = sandbox();
    // Long paths (about 4 KB each) make the record large with a few thousand files.
    const segment = (c: string) => c.repeat(250);
    const deep = ['d', ...'abcdefghijklmno'.split('').map(segment)].join('/');
    mkdirSync(join(s.repo, deep), { recursive: true });
    const perEntry = deep.length + 250 + 100;
    const files = Math.ceil(MAX_RECORD_BYTES / perEntry) + 50;
    for (let i = 0; i < files; i++) writeFileSync(join(s.repo, deep, `${String(i).padStart(5, '0')}${'f'.repeat(245)}`), String(i));
    const marker = join(s.repo, 'ran-G1');
    writeFiles(s.repo, { 'GATES.md': `- [ ] G1: t\n  CHECK: touch '${marker}' && echo ok\n  EXPECT: ok\n  DEPENDS: d/**\n` });
    const r = runCli(['--approve'], { cwd: s.repo, env: s.env, timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`cannot approve G1: its approval record would be \\d+ bytes \\(DEPENDS matches ${files} files\\), over the ${MAX_RECORD_BYTES} bytes a record may have; it was not approved`));
    expect(existsSync(marker)).toBe(false);
    expect(records(join(s.home, '.gate-check', 'approved'))).toEqual([]);
  }, 60_000);
});
