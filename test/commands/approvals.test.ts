// gate-check approvals list|revoke|prune through the real CLI, real files and a private HOME:
// list reports the approval state of the oracle a run would compute without creating the
// store; revoke and prune remove records only through the store, never touch a ledger, never
// run a command; an unsafe store stops every subcommand with exit 2 before anything changes.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, writeFiles, type CliResult } from '../helpers/cli.js';

const RECORD_NAME = /^[0-9a-f]{16}-[0-9a-f]{64}\.json$/;

interface Sandbox {
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

interface GateSpec {
  id: string;
  check?: string;
  expect?: string;
  depends?: string;
  manual?: boolean;
}

interface ListGate {
  file: string;
  line: number;
  qualified: string;
  state: string;
  signature: string | null;
  approvedAt: string | null;
  changed: string[] | null;
  reason: string | null;
}

/** CHECK text that leaves a marker named after the gate at an absolute path. */
function markCheck(s: Sandbox, id: string): string {
  return `touch '${join(s.repo, `ran-${id}`)}' && echo ok`;
}

function ledgerText(s: Sandbox, gates: GateSpec[]): string {
  const blocks = gates.map((g) => {
    if (g.manual) return `- [ ] ${g.id}: a person decides\n`;
    const lines = [`- [ ] ${g.id}: gate ${g.id}`, `  CHECK: ${g.check ?? markCheck(s, g.id)}`, `  EXPECT: ${g.expect ?? 'ok'}`];
    if (g.depends !== undefined) lines.push(`  DEPENDS: ${g.depends}`);
    return lines.join('\n') + '\n';
  });
  return '# Gates\n\n' + blocks.join('\n');
}

function writeLedger(s: Sandbox, gates: GateSpec[], file = 'GATES.md', repo = s.repo): void {
  writeFiles(repo, { [file]: ledgerText(s, gates) });
}

function run(s: Sandbox, args: string[], cwd = s.repo, env: NodeJS.ProcessEnv = s.env): CliResult {
  return runCli(args, { cwd, env, timeoutMs: 20_000 });
}

function approvalDir(s: Sandbox): string {
  return join(s.home, '.gate-check', 'approved');
}

function records(s: Sandbox, dir = approvalDir(s)): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => RECORD_NAME.test(n)).sort() : [];
}

/** Every entry of the store (records, locks, anything) with its contents: "nothing was touched". */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const n of readdirSync(dir).sort()) out[n] = readFileSync(join(dir, n), 'utf8');
  return out;
}

function recordsOf(s: Sandbox, gate: string, dir = approvalDir(s)): { name: string; ledger: string; gate: string; check: string; timeoutMs: number }[] {
  return records(s, dir)
    .flatMap((name) => {
      const r = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { oracle?: { ledger: string; gate: string; check: string; timeoutMs: number } };
      return r.oracle ? [{ name, ledger: r.oracle.ledger, gate: r.oracle.gate, check: r.oracle.check, timeoutMs: r.oracle.timeoutMs }] : [];
    })
    .filter((r) => r.gate === gate);
}

function ran(s: Sandbox, id: string): boolean {
  return existsSync(join(s.repo, `ran-${id}`));
}

function clearMarkers(s: Sandbox): void {
  for (const n of readdirSync(s.repo)) if (n.startsWith('ran-')) unlinkSync(join(s.repo, n));
}

/** Writes the ledger, approves and runs every gate, then resets the checkboxes and the markers. */
function approveAll(s: Sandbox, gates: GateSpec[], file = 'GATES.md', args: string[] = []): void {
  writeLedger(s, gates, file);
  const r = run(s, ['--approve', ...args, ...(file === 'GATES.md' ? [] : [file])]);
  expect(r.stderr).toBe('');
  expect(r.stdout).not.toMatch(/APPROVAL REQUIRED/);
  for (const g of gates) if (!g.manual) expect(ran(s, g.id)).toBe(true);
  clearMarkers(s);
  writeLedger(s, gates, file);
}

function listJson(s: Sandbox, args: string[] = []): { schema: string; gates: ListGate[] } {
  const r = run(s, ['approvals', 'list', '--json', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { schema: string; gates: ListGate[] };
}

describe('approvals list', () => {
  it('shows current, other (with what changed), none and unresolvable, one line per gate', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2', check: `${markCheck(s, 'G2')} && true` }, { id: 'G3' }, { id: 'G4', depends: 'missing/*.js' }, { id: 'M', manual: true }]);
    const before = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
    const r = run(s, ['approvals', 'list']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('GATES:G1 '))).toMatch(/^GATES:G1 +current +[0-9a-f]{12} +approved \d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(lines.find((l) => l.startsWith('GATES:G2 '))).toMatch(/^GATES:G2 +other +[0-9a-f]{12} +approved \S+ for another oracle: CHECK changed$/);
    expect(lines.find((l) => l.startsWith('GATES:G3 '))).toMatch(/^GATES:G3 +none +[0-9a-f]{12} +never approved$/);
    expect(lines.find((l) => l.startsWith('GATES:G4 '))).toMatch(/^GATES:G4 +unresolvable +- +DEPENDS of GATES:G4: pattern missing\/\*\.js matches no file$/);
    expect(r.stdout).not.toMatch(/GATES:M/); // manual gates have no oracle
    expect(r.stdout).toMatch(/^4 runnable gates: 1 current, 1 other, 1 none, 1 unresolvable$/m);
    // Nothing ran, nothing was written, the store did not change.
    for (const id of ['G1', 'G2', 'G3', 'G4']) expect(ran(s, id)).toBe(false);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(before);
    expect(records(s)).toHaveLength(2);
  });

  it('computes the oracle a run with the same options would: the signature a plain run shows, --timeout and a missing CWD', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);
    const plain = run(s, ['--status']); // never runs or approves
    expect(plain.code).toBe(1);
    const shown = run(s, []);
    const pin = /^APPROVAL REQUIRED GATES:G2@([0-9a-f]{12}) /m.exec(shown.stdout)?.[1];
    expect(pin).toBeDefined();
    clearMarkers(s);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);

    const gates = listJson(s).gates;
    expect(gates.find((g) => g.qualified === 'GATES:G2')!.signature!.startsWith(pin!)).toBe(true);
    expect(gates.find((g) => g.qualified === 'GATES:G1')!.state).toBe('current');

    const longer = listJson(s, ['--timeout', '60']).gates.find((g) => g.qualified === 'GATES:G1')!;
    expect(longer.state).toBe('other');
    expect(longer.changed).toEqual(['timeout changed']);

    const bash = listJson(s, ['--shell', '/bin/bash']).gates.find((g) => g.qualified === 'GATES:G1')!;
    expect(bash.changed).toEqual(['shell changed']);

    writeFiles(s.repo, { 'GATES.md': ledgerText(s, [{ id: 'G1' }]).replace('  EXPECT: ok', '  EXPECT: ok\n  CWD: nowhere') });
    const missing = listJson(s).gates[0]!;
    expect(missing.state).toBe('unresolvable');
    expect(missing.reason).toMatch(/^CWD of GATES:G1 does not exist: /);
    expect(ran(s, 'G1')).toBe(false);
  });

  it('--json: one document with the approvals@1 shape', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2', expect: '/ok/' }, { id: 'G3' }, { id: 'G4', depends: 'missing/*.js' }]);
    const doc = listJson(s);
    expect(doc.schema).toBe('gate-check/approvals@1');
    expect(doc.gates.map((g) => [g.qualified, g.state])).toEqual([
      ['GATES:G1', 'current'],
      ['GATES:G2', 'other'],
      ['GATES:G3', 'none'],
      ['GATES:G4', 'unresolvable'],
    ]);
    for (const g of doc.gates) {
      for (const key of ['file', 'line', 'qualified', 'state', 'signature', 'approvedAt', 'changed']) expect(Object.hasOwn(g, key)).toBe(true);
      expect(g.file).toBe('GATES.md');
      expect(typeof g.line).toBe('number');
    }
    const [g1, g2, g3, g4] = doc.gates as [ListGate, ListGate, ListGate, ListGate];
    expect(g1.line).toBe(3);
    expect(g1.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(records(s).some((n) => n.endsWith(`-${g1.signature!}.json`))).toBe(true);
    expect(Number.isNaN(Date.parse(g1.approvedAt!))).toBe(false);
    expect(g1.changed).toBeNull();
    expect(g2.changed).toEqual(['EXPECT changed']);
    expect(g2.approvedAt).not.toBeNull();
    expect(records(s).some((n) => n.endsWith(`-${g2.signature!}.json`))).toBe(false);
    expect(g3).toMatchObject({ state: 'none', approvedAt: null, changed: null });
    expect(g3.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(g4).toMatchObject({ state: 'unresolvable', signature: null, approvedAt: null, changed: null });
    expect(g4.reason).toMatch(/matches no file/);
  });

  it('does not create ~/.gate-check: without a store every gate is none', () => {
    const s = sandbox();
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);
    const r = run(s, ['approvals', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GATES:G1 +none /m);
    expect(r.stdout).toMatch(/^GATES:G2 +none /m);
    expect(listJson(s).gates.every((g) => g.state === 'none')).toBe(true);
    expect(existsSync(join(s.home, '.gate-check'))).toBe(false);
    // Nor the approvals directory under an existing base.
    mkdirSync(join(s.home, '.gate-check'), { mode: 0o700 });
    expect(run(s, ['approvals', 'list']).code).toBe(0);
    expect(existsSync(approvalDir(s))).toBe(false);
    for (const sub of [['revoke', 'G1'], ['revoke', '--all'], ['prune']]) {
      expect(run(s, ['approvals', ...sub]).code).toBe(0);
      expect(existsSync(approvalDir(s))).toBe(false);
    }
  });

  it('a ledger file name with escape and bidi characters is refused (exit 2), and named clean', () => {
    const s = sandbox();
    const evil = 'gates/e\u001b[31mvil\u202e.md';
    writeLedger(s, [{ id: 'G1' }], evil);
    const r = run(s, ['approvals', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gates\/evil\.md: ledger name "evil" cannot qualify gate ids/);
    expect(r.stdout + r.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});

describe('approvals revoke', () => {
  it('revoke G1: the next plain run requires approval for G1 and runs nothing of it, G2 stays approved', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    // A second, older approval of G1 for another CHECK: revoke removes every signature.
    approveAll(s, [{ id: 'G1', check: `${markCheck(s, 'G1')} && true` }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'G2' }]);
    expect(recordsOf(s, 'G1')).toHaveLength(2);
    const ledgerBefore = readFileSync(join(s.repo, 'GATES.md'), 'utf8');

    const r = run(s, ['approvals', 'revoke', 'G1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('revoked GATES:G1 (GATES.md): 2 approvals\n');
    expect(r.stdout).toMatch(/^REVOKED 2 approvals of 1 gate$/m);
    expect(recordsOf(s, 'G1')).toHaveLength(0);
    expect(recordsOf(s, 'G2')).toHaveLength(1);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(ledgerBefore);
    expect(ran(s, 'G1')).toBe(false);
    expect(ran(s, 'G2')).toBe(false);

    const next = run(s, []);
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@[0-9a-f]{12} /m);
    expect(next.stdout).toContain('  never approved before\n');
    expect(next.stdout).toMatch(/^PASS GATES:G2 /m);
    expect(next.stdout).not.toMatch(/APPROVAL REQUIRED GATES:G2/);
    expect(ran(s, 'G1')).toBe(false);
    expect(ran(s, 'G2')).toBe(true);
  });

  it('accepts qualified ids and ledger files; a plain id in two ledgers must be qualified', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    approveAll(s, [{ id: 'G1' }, { id: 'X1' }], 'gates/extra.md');
    expect(records(s)).toHaveLength(3);

    const ambiguous = run(s, ['approvals', 'revoke', 'G1']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/G1 names gates in several ledgers; qualify it \(GATES:G1, extra:G1\)/);
    expect(records(s)).toHaveLength(3);

    const q = run(s, ['approvals', 'revoke', 'extra:G1']);
    expect(q.code).toBe(0);
    expect(q.stdout).toContain('revoked extra:G1 (gates/extra.md): 1 approval\n');
    expect(recordsOf(s, 'G1')).toHaveLength(1);

    // A named ledger narrows the scope: G1 is then unique.
    const f = run(s, ['approvals', 'revoke', 'GATES.md', 'G1']);
    expect(f.code).toBe(0);
    expect(f.stdout).toContain('revoked GATES:G1 (GATES.md): 1 approval\n');
    expect(recordsOf(s, 'G1')).toHaveLength(0);
    expect(recordsOf(s, 'X1')).toHaveLength(1);
  });

  it('--all removes every approval of this repository and leaves other repositories alone', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    approveAll(s, [{ id: 'X1' }], 'gates/extra.md');
    // Another repository sharing the same store.
    const other = join(dirname(s.repo), 'other');
    mkdirSync(other);
    writeLedger(s, [{ id: 'O1', check: 'echo ok' }], 'GATES.md', other);
    expect(run(s, ['--approve'], other).code).toBe(0);
    expect(records(s)).toHaveLength(4);

    // With a ledger file, --all means every approval of that ledger only.
    const narrowed = run(s, ['approvals', 'revoke', '--all', 'gates/extra.md']);
    expect(narrowed.code).toBe(0);
    expect(narrowed.stdout).toContain('revoked extra:X1 (gates/extra.md): 1 approval\n');
    expect(records(s)).toHaveLength(3);

    const r = run(s, ['approvals', 'revoke', '--all']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('revoked GATES:G1 (GATES.md): 1 approval\n');
    expect(r.stdout).toContain('revoked GATES:G2 (GATES.md): 1 approval\n');
    expect(r.stdout).toMatch(/^REVOKED 2 approvals of 2 gates$/m);
    expect(records(s)).toHaveLength(1);
    expect(recordsOf(s, 'O1')).toHaveLength(1);
    expect(recordsOf(s, 'O1')[0]!.ledger).toBe(join(other, 'GATES.md'));

    const next = run(s, []);
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@/m);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2@/m);
    expect(ran(s, 'G1') || ran(s, 'G2')).toBe(false);
  });

  it('--all alone works even when a ledger of the repository no longer parses', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeFiles(s.repo, { 'GATES.md': '# Gates\n\n- [ ] G1: broken\n  CHECK: echo ok\n' });
    expect(run(s, ['approvals', 'list']).code).toBe(2);
    const r = run(s, ['approvals', 'revoke', '--all']);
    expect(r.code).toBe(0);
    expect(records(s)).toHaveLength(0);
  });

  it('an unknown id exits 2 and removes nothing, even beside known ids', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    const before = snapshot(approvalDir(s));
    for (const args of [['G9'], ['G1', 'G9'], ['GATES:G1', 'OTHER:G2'], ['nope:G1']]) {
      const r = run(s, ['approvals', 'revoke', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: no gate .* in GATES\.md; nothing was removed$/m);
      expect(r.stdout).toBe('');
      expect(snapshot(approvalDir(s))).toEqual(before);
    }
    // Neither ids nor --all, or both: usage errors.
    for (const args of [[], ['--all', 'G1']]) {
      const r = run(s, ['approvals', 'revoke', ...args]);
      expect(r.code).toBe(2);
      expect(snapshot(approvalDir(s))).toEqual(before);
    }
  });

  it('can revoke a gate that was renamed since it was approved (its records still name the ledger)', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'OLD' }]);
    writeLedger(s, [{ id: 'NEW' }]);
    const r = run(s, ['approvals', 'revoke', 'OLD']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('revoked GATES:OLD (GATES.md): 1 approval\n');
    expect(records(s)).toHaveLength(0);
  });

  it('a known gate without approvals is reported, not an error', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    writeLedger(s, [{ id: 'G1' }, { id: 'M', manual: true }]);
    const r = run(s, ['approvals', 'revoke', 'M']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no approvals of GATES:M (GATES.md)\n');
    expect(records(s)).toHaveLength(1);
  });

  it('--dry-run removes nothing (revoke ids, revoke --all, prune)', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', check: 'echo changed' }]); // G2 removed, G1 changed: both prunable
    const before = snapshot(approvalDir(s));
    const a = run(s, ['approvals', 'revoke', 'G1', '--dry-run']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('would revoke GATES:G1 (GATES.md): 1 approval\n');
    expect(a.stdout).toMatch(/^DRY RUN: would revoke 1 approval of 1 gate; nothing was removed$/m);
    const b = run(s, ['approvals', 'revoke', '--all', '--dry-run']);
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(/^DRY RUN: would revoke 2 approvals of 2 gates; nothing was removed$/m);
    const c = run(s, ['approvals', 'prune', '--dry-run']);
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/^would prune GATES:G1@[0-9a-f]{12} .*: CHECK changed$/m);
    expect(c.stdout).toMatch(/^would prune GATES:G2@[0-9a-f]{12} .*: gate no longer in the ledger$/m);
    expect(c.stdout).toMatch(/^DRY RUN: would prune 2 approvals, keep 0; nothing was removed$/m);
    expect(snapshot(approvalDir(s))).toEqual(before);
  });
});

describe('approvals prune', () => {
  it('removes approvals of a deleted ledger, a removed gate and a changed CHECK; keeps current and environment-only ones', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }, { id: 'G3' }]);
    // The same G1 approved under another timeout: an environment difference, never pruned.
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }, { id: 'G3' }], 'GATES.md', ['--timeout', '60']);
    approveAll(s, [{ id: 'X1' }], 'gates/old.md');
    approveAll(s, [{ id: 'B1' }], 'gates/broken.md');
    expect(records(s)).toHaveLength(8);

    rmSync(join(s.repo, 'gates/old.md'));
    writeLedger(s, [{ id: 'G1' }, { id: 'G3', check: `${markCheck(s, 'G3')} && true` }]);
    writeFiles(s.repo, { 'gates/broken.md': '# Gates\n\n- [ ] B1: half a gate\n  CHECK: echo ok\n' });
    // A record the store cannot read is listed by name and left alone.
    const junk = `${'0'.repeat(16)}-${'0'.repeat(64)}.json`;
    writeFileSync(join(approvalDir(s), junk), '{"not": "a record"}\n', { mode: 0o600 });
    const ledgerBefore = readFileSync(join(s.repo, 'GATES.md'), 'utf8');

    const r = run(s, ['approvals', 'prune']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pruned old:X1@[0-9a-f]{12} .*gates\/old\.md .*: ledger no longer exists$/m);
    expect(r.stdout.match(/^pruned GATES:G2@.*: gate no longer in the ledger$/gm)).toHaveLength(2);
    expect(r.stdout.match(/^pruned GATES:G3@.*: CHECK changed$/gm)).toHaveLength(2);
    expect(r.stdout).toMatch(/^kept 1 approval of .*gates\/broken\.md: ledger does not parse/m);
    expect(r.stdout).toContain(`left alone: 1 invalid record (${junk})`);
    expect(r.stdout).toMatch(/^PRUNED 5 approvals; kept 3$/m);

    expect(recordsOf(s, 'G1').map((g) => g.timeoutMs).sort((a, b) => a - b)).toEqual([60_000, 120_000]);
    expect(recordsOf(s, 'B1')).toHaveLength(1);
    expect(recordsOf(s, 'G2')).toHaveLength(0);
    expect(recordsOf(s, 'G3')).toHaveLength(0);
    expect(recordsOf(s, 'X1')).toHaveLength(0);
    expect(existsSync(join(approvalDir(s), junk))).toBe(true);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toBe(ledgerBefore);
    expect(ran(s, 'G1') || ran(s, 'G3')).toBe(false);

    // Still approved: the current G1 runs without asking. Pruning again changes nothing.
    rmSync(join(approvalDir(s), junk));
    const next = run(s, ['GATES.md']);
    expect(next.stdout).toMatch(/^PASS GATES:G1 /m);
    expect(next.stdout).toMatch(/^APPROVAL REQUIRED GATES:G3@/m);
    expect(ran(s, 'G1')).toBe(true);
    expect(ran(s, 'G3')).toBe(false);
    const again = run(s, ['approvals', 'prune']);
    expect(again.stdout).toMatch(/^PRUNED 0 approvals; kept 3$/m);
  });

  it('a changed EXPECT or a gate that became manual is pruned too', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', expect: '/ok/' }, { id: 'G2', manual: true }]);
    const r = run(s, ['approvals', 'prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pruned GATES:G1@.*: EXPECT changed$/m);
    expect(r.stdout).toMatch(/^pruned GATES:G2@.*: gate is no longer runnable$/m);
    expect(records(s)).toHaveLength(0);
  });

  it('a ledger that became a symbolic link is reported and its approvals kept', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }]);
    renameSync(join(s.repo, 'GATES.md'), join(s.repo, 'REAL.md'));
    symlinkSync(join(s.repo, 'REAL.md'), join(s.repo, 'GATES.md'));
    const r = run(s, ['approvals', 'prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kept 1 approval of .*GATES\.md: .*symbolic link/m);
    expect(records(s)).toHaveLength(1);
  });
});

describe('an unsafe store stops every subcommand with exit 2 and touches nothing', () => {
  const subcommands = [
    ['approvals', 'list'],
    ['approvals', 'list', '--json'],
    ['approvals', 'revoke', 'G1'],
    ['approvals', 'revoke', '--all'],
    ['approvals', 'revoke', '--all', '--dry-run'],
    ['approvals', 'prune'],
    ['approvals', 'prune', '--dry-run'],
  ];

  it('approvals directory with mode 0777', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', check: 'echo changed' }]); // prunable, were the store safe
    chmodSync(approvalDir(s), 0o777);
    const before = snapshot(approvalDir(s));
    try {
      for (const args of subcommands) {
        const r = run(s, args);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/approved: has permissions 0777: group or other may access it/);
        expect(snapshot(approvalDir(s))).toEqual(before);
        expect(statSync(approvalDir(s)).mode & 0o777).toBe(0o777);
      }
    } finally {
      chmodSync(approvalDir(s), 0o700);
    }
  });

  it('approvals directory that is a symbolic link', () => {
    const s = sandbox();
    approveAll(s, [{ id: 'G1' }, { id: 'G2' }]);
    writeLedger(s, [{ id: 'G1', check: 'echo changed' }]);
    const real = join(s.home, 'elsewhere');
    renameSync(approvalDir(s), real);
    symlinkSync(real, approvalDir(s));
    const before = snapshot(real);
    expect(Object.keys(before)).toHaveLength(2);
    for (const args of subcommands) {
      const r = run(s, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/approved: is a symbolic link \(refused/);
      expect(snapshot(real)).toEqual(before);
      expect(lstatSync(approvalDir(s)).isSymbolicLink()).toBe(true);
    }
  });

  it('a base directory ~/.gate-check with group permissions, even before approvals exist', () => {
    const s = sandbox();
    writeLedger(s, [{ id: 'G1' }]);
    mkdirSync(join(s.home, '.gate-check'));
    chmodSync(join(s.home, '.gate-check'), 0o770);
    for (const args of subcommands) {
      const r = run(s, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\.gate-check: has permissions 0770/);
      expect(existsSync(approvalDir(s))).toBe(false);
    }
  });
});

describe('approvals command line', () => {
  it('help exits 0 for the command and each subcommand', () => {
    const s = sandbox();
    for (const [args, usage] of [
      [['approvals', '--help'], 'Usage: gate-check approvals [options] [command]'],
      [['approvals', '-h'], 'Usage: gate-check approvals [options] [command]'],
      [['approvals', 'list', '--help'], 'Usage: gate-check approvals list [options] [file...]'],
      [['approvals', 'revoke', '-h'], 'Usage: gate-check approvals revoke [options] [target...]'],
      [['approvals', 'prune', '--help'], 'Usage: gate-check approvals prune [options]'],
      [['approvals', 'help', 'revoke'], 'Usage: gate-check approvals revoke [options] [target...]'],
    ] as [string[], string][]) {
      const r = run(s, args);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(usage);
    }
    expect(existsSync(join(s.home, '.gate-check'))).toBe(false);
  });

  it('misuse is exit 2: no subcommand, an unknown one, an unknown or repeated option, a bad --timeout', () => {
    const s = sandbox();
    writeLedger(s, [{ id: 'G1' }]);
    for (const args of [
      ['approvals'],
      ['approvals', 'frobnicate'],
      ['approvals', 'list', '--bogus'],
      ['approvals', 'list', '--json', '--json'],
      ['approvals', 'list', '--timeout', '0'],
      ['approvals', 'list', '--timeout', 'abc'],
      ['approvals', 'prune', 'extra'],
      ['approvals', 'list', '--scope', 'x', 'GATES.md'],
    ]) {
      const r = run(s, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^gate-check: /);
    }
  });
});
