// Approval binding through the real CLI and real files (DESIGN §2.3, §2.4, §4): an approval
// covers exactly one oracle. Changing any bound field after approval makes the next plain
// run show APPROVAL REQUIRED, name what changed, run nothing, and exit 1.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, joinedRows, runCli, sandbox, tempDir, writeFiles, type CliResult } from '../helpers/cli.js';
import { normalizePath } from '../../lib/oracle/oracle.js';

const RECORD_NAME = /^[0-9a-f]{16}-[0-9a-f]{64}\.json$/;

interface Sandbox {
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

interface GateSpec {
  id?: string;
  check?: string;
  expect?: string;
  cwd?: string;
  depends?: string;
}

interface JsonGate {
  id: string;
  state: string;
  result: { status: string; changed: string[] | null; signature: string } | null;
}

/** CHECK text that leaves a marker at an absolute path (so the marker does not depend on CWD). */
function markCheck(repo: string, marker = 'ran-marker'): string {
  return `touch '${join(repo, marker)}' && echo ok`;
}

function gateText(s: Sandbox, g: GateSpec): string {
  const lines = [`- [ ] ${g.id ?? 'G1'}: the gate`, `  CHECK: ${g.check ?? markCheck(s.repo)}`, `  EXPECT: ${g.expect ?? 'ok'}`];
  if (g.cwd !== undefined) lines.push(`  CWD: ${g.cwd}`);
  if (g.depends !== undefined) lines.push(`  DEPENDS: ${g.depends}`);
  return lines.join('\n') + '\n';
}

function writeLedger(s: Sandbox, gates: GateSpec[], file = 'GATES.md'): void {
  writeFiles(s.repo, { [file]: '# Gates\n\n' + gates.map((g) => gateText(s, g)).join('\n') });
}

function run(s: Sandbox, args: string[], env: NodeJS.ProcessEnv = s.env): CliResult {
  return runCli(args, { cwd: s.repo, env, timeoutMs: 20_000 });
}

function marker(s: Sandbox, name = 'ran-marker'): string {
  return join(s.repo, name);
}

function approvalDir(s: Sandbox): string {
  return join(s.home, '.gate-check', 'approved');
}

function records(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => RECORD_NAME.test(n)) : [];
}

function jsonGates(r: CliResult): JsonGate[] {
  return (JSON.parse(r.stdout) as { gates: JsonGate[] }).gates;
}

/** Approves and runs the ledger once (marker proves it ran), then resets the marker and the checkbox. */
function approveThenReset(s: Sandbox, gates: GateSpec[], args: string[] = [], env: NodeJS.ProcessEnv = s.env): void {
  writeLedger(s, gates);
  const r = run(s, ['--approve', ...args], env);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/PASS GATES:G1/);
  expect(existsSync(marker(s))).toBe(true);
  unlinkSync(marker(s));
  expect(records(approvalDir(s))).toHaveLength(1);
  writeLedger(s, gates);
}

/** The next plain run must ask for approval, name exactly `phrase` as the change, and run nothing. */
function expectApprovalRequired(s: Sandbox, args: string[], env: NodeJS.ProcessEnv, phrase: string, qualified = 'GATES:G1'): void {
  const ledgerBefore = readFileSync(join(s.repo, args.find((a) => a.endsWith('.md')) ?? 'GATES.md'), 'utf8');
  const r = run(s, args, env);
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(new RegExp(`^APPROVAL REQUIRED ${qualified}@[0-9a-f]{32} `, 'm'));
  expect(joinedRows(r.stdout)).toContain(`  approved before for another oracle: ${phrase}\n`);
  expect(r.stdout).not.toMatch(/^PASS /m);
  expect(existsSync(marker(s))).toBe(false);
  // Nothing was written back either.
  expect(readFileSync(join(s.repo, args.find((a) => a.endsWith('.md')) ?? 'GATES.md'), 'utf8')).toBe(ledgerBefore);

  const j = run(s, ['--json', ...args], env);
  expect(j.code).toBe(1);
  const g = jsonGates(j)[0]!;
  expect(g.result?.status).toBe('approval-required');
  expect(g.result?.changed).toEqual([phrase]);
  expect(existsSync(marker(s))).toBe(false);
}

describe('an approved, unchanged gate', () => {
  it('runs without prompting on the next plain run: PASS, exit 0, [x] and digest evidence', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    const r = run(s, []);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS GATES:G1 /m);
    expect(r.stdout).not.toMatch(/APPROVAL REQUIRED/);
    expect(existsSync(marker(s))).toBe(true);
    const ledger = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
    expect(ledger).toMatch(/^- \[x\] G1: the gate$/m);
    expect(ledger).toMatch(/^ {2}EVIDENCE: exit=0; def=[0-9a-f]{12}; match=[0-9a-f]{12}; receipt=[0-9a-f]{12}$/m);
    // The output itself never lands in the ledger.
    expect(records(approvalDir(s))).toHaveLength(1);
  });

  it('is the same oracle whether the ledger is discovered or named explicitly', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    const r = run(s, ['GATES.md']);
    expect(r.code).toBe(0);
    expect(existsSync(marker(s))).toBe(true);
  });

  it('a never-approved gate prints its full oracle, runs nothing and exits 1', () => {
    const s = sandbox();
    writeLedger(s, [{}]);
    const r = run(s, []);
    expect(r.code).toBe(1);
    // Rows joined again: a line longer than the screen (PATH) goes on in rows marked "  ~ ".
    const out = joinedRows(r.stdout);
    expect(out).toMatch(/^APPROVAL REQUIRED GATES:G1@[0-9a-f]{32} {2}\(GATES\.md:3\)$/m);
    expect(out).toContain(`  CHECK   ${markCheck(s.repo)}\n`);
    expect(out).toContain('  EXPECT  ok\n');
    expect(out).toContain(`  CWD     ${s.repo}\n`);
    expect(out).toContain('  SHELL   /bin/sh\n');
    expect(out).toContain(`  PATH    ${normalizePath(s.env.PATH) ?? "(unset)"}\n`); // bound without later duplicates
    expect(out).toContain('  never approved before\n');
    expect(existsSync(marker(s))).toBe(false);
    expect(records(approvalDir(s))).toHaveLength(0);
    const j = jsonGates(run(s, ['--json']))[0]!;
    expect(j.result?.status).toBe('approval-required');
    expect(j.result?.changed).toBeNull();
  });

  it('--status neither runs, approves nor creates the store', () => {
    const s = sandbox();
    writeLedger(s, [{}]);
    const r = run(s, ['--status']);
    expect(r.code).toBe(1);
    expect(existsSync(marker(s))).toBe(false);
    expect(existsSync(join(s.home, '.gate-check'))).toBe(false);
  });
});

describe('changing a bound field after approval requires a new approval', () => {
  it('CHECK', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    writeLedger(s, [{ check: `${markCheck(s.repo)} && true` }]);
    expectApprovalRequired(s, [], s.env, 'CHECK changed');
  });

  it('CHECK: a single trailing character', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    writeLedger(s, [{ check: `${markCheck(s.repo)};` }]);
    expectApprovalRequired(s, [], s.env, 'CHECK changed');
  });

  it('EXPECT', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    writeLedger(s, [{ expect: '/^ok$/m' }]);
    expectApprovalRequired(s, [], s.env, 'EXPECT changed');
  });

  it('CWD: attribute added', () => {
    const s = sandbox();
    mkdirSync(join(s.repo, 'sub'));
    approveThenReset(s, [{}]);
    writeLedger(s, [{ cwd: 'sub' }]);
    expectApprovalRequired(s, [], s.env, 'CWD changed');
  });

  it('CWD: attribute changed', () => {
    const s = sandbox();
    mkdirSync(join(s.repo, 'sub'));
    mkdirSync(join(s.repo, 'sub2'));
    approveThenReset(s, [{ cwd: 'sub' }]);
    writeLedger(s, [{ cwd: 'sub2' }]);
    expectApprovalRequired(s, [], s.env, 'CWD changed');
  });

  it('CWD: attribute removed', () => {
    const s = sandbox();
    mkdirSync(join(s.repo, 'sub'));
    approveThenReset(s, [{ cwd: 'sub' }]);
    writeLedger(s, [{}]);
    expectApprovalRequired(s, [], s.env, 'CWD changed');
  });

  it('shell: --shell /bin/bash instead of the default', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    expectApprovalRequired(s, ['--shell', '/bin/bash'], s.env, 'shell changed');
  });

  it('shell: GATE_CHECK_SHELL instead of the default', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    expectApprovalRequired(s, [], { ...s.env, GATE_CHECK_SHELL: '/bin/bash' }, 'shell changed');
  });

  it('shell: back to the default after approving under --shell /bin/bash', () => {
    const s = sandbox();
    approveThenReset(s, [{}], ['--shell', '/bin/bash']);
    expectApprovalRequired(s, [], s.env, 'shell changed');
  });

  it('timeout: --timeout 60 instead of the default', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    expectApprovalRequired(s, ['--timeout', '60'], s.env, 'timeout changed');
  });

  it('explains a change against the closest earlier approval, not the latest one', () => {
    const s = sandbox();
    approveThenReset(s, [{}]); // default timeout
    expect(run(s, ['--approve', '--timeout', '60']).code).toBe(0); // the latest approval: 60 s
    unlinkSync(marker(s));
    writeLedger(s, [{}]);
    const extra = tempDir('gc-bin-');
    // Default timeout, one PATH entry more: closest to the first approval, so only PATH changed.
    expectApprovalRequired(s, [], { ...s.env, PATH: `${extra}:${s.env.PATH ?? ''}` }, `PATH changed: added ${extra}`);
  });

  it('PATH: one extra entry in front', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    const extra = tempDir('gc-bin-');
    expectApprovalRequired(s, [], { ...s.env, PATH: `${extra}:${s.env.PATH ?? ''}` }, `PATH changed: added ${extra}`);
  });

  it('PATH: one extra entry at the end', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    expectApprovalRequired(s, [], { ...s.env, PATH: `${s.env.PATH ?? ''}:/nonexistent/bin` }, 'PATH changed: added /nonexistent/bin');
  });

  it('PATH: a duplicate entry changes nothing (first wins)', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    const first = (s.env.PATH ?? '').split(':')[0];
    const r = run(s, [], { ...s.env, PATH: `${s.env.PATH ?? ''}:${first}` });
    expect(r.stdout).toMatch(/^PASS GATES:G1/m);
    expect(r.code).toBe(0);
  });

  it('PATH: unset', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    const env = { ...s.env };
    delete env.PATH;
    expectApprovalRequired(s, [], env, 'PATH changed: it is unset now');
  });

  it('DEPENDS: a matched file changed content', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'scripts/v.mjs': 'export const v = 1;\n' });
    approveThenReset(s, [{ depends: 'scripts/v.mjs' }]);
    writeFiles(s.repo, { 'scripts/v.mjs': 'export const v = 2;\n' });
    expectApprovalRequired(s, [], s.env, 'DEPENDS: scripts/v.mjs changed');
  });

  it('DEPENDS: a new file matched by a glob', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'scripts/v.mjs': 'export const v = 1;\n' });
    approveThenReset(s, [{ depends: 'scripts/*.mjs' }]);
    writeFiles(s.repo, { 'scripts/w.mjs': 'export const w = 1;\n' });
    expectApprovalRequired(s, [], s.env, 'DEPENDS: scripts/w.mjs added');
  });

  it('DEPENDS: a matched file removed', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'scripts/v.mjs': '1\n', 'scripts/w.mjs': '2\n' });
    approveThenReset(s, [{ depends: 'scripts/*.mjs' }]);
    rmSync(join(s.repo, 'scripts/w.mjs'));
    expectApprovalRequired(s, [], s.env, 'DEPENDS: scripts/w.mjs removed');
  });

  it('DEPENDS: attribute added to an approved gate', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'scripts/v.mjs': '1\n' });
    approveThenReset(s, [{}]);
    writeLedger(s, [{ depends: 'scripts/v.mjs' }]);
    expectApprovalRequired(s, [], s.env, 'DEPENDS added');
  });

  // An approval binds the canonical ledger path: a copied ledger needs its own approval, and
  // the block explains that the earlier approval was for another location.
  for (const [target, git] of [['COPY.md', false], ['docs/GATES.md', true]] as const) {
    it(`ledger location: the approved ledger copied to ${target} and run explicitly`, () => {
      const s = sandbox();
      // In a git work tree, docs/ is part of the repository whose ledger was approved.
      if (git) expect(spawnSync('git', ['init', '-q'], { cwd: s.repo }).status).toBe(0);
      approveThenReset(s, [{}]);
      mkdirSync(join(s.repo, 'docs'), { recursive: true });
      copyFileSync(join(s.repo, 'GATES.md'), join(s.repo, target));
      const before = readFileSync(join(s.repo, target), 'utf8');
      const r = run(s, [target]);
      expect(r.code).toBe(1);
      const stem = target === 'COPY.md' ? 'COPY' : 'GATES';
      // docs/GATES.md is a ledger of its own root, docs/: it is named relative to that root.
      const shown = target === 'COPY.md' ? 'COPY.md' : 'GATES.md';
      expect(r.stdout).toMatch(new RegExp(`^APPROVAL REQUIRED ${stem}:G1@[0-9a-f]{32} {2}\\(${shown.replace('.', '\\.')}:3\\)$`, 'm'));
      expect(r.stdout).toMatch(/approved before for another oracle: ledger location changed/);
      expect(existsSync(marker(s))).toBe(false);
      expect(readFileSync(join(s.repo, target), 'utf8')).toBe(before);
      const j = run(s, ['--json', target]);
      expect(j.code).toBe(1);
      expect(jsonGates(j)[0]!.result?.status).toBe('approval-required');
      expect(existsSync(marker(s))).toBe(false);
      // The original is still approved.
      expect(run(s, ['GATES.md']).code).toBe(0);
      expect(existsSync(marker(s))).toBe(true);
    });
  }

  // Round-25a F6: another repository's approval of the same gate, CHECK and EXPECT is no
  // earlier approval of this one; the gate is shown as never approved (DEPENDS whole).
  it('ledger location: the same gate approved in another repository is not "approved before" here', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    // docs/ holds a ledger of its own root, outside any git work tree: another repository.
    mkdirSync(join(s.repo, 'docs'), { recursive: true });
    copyFileSync(join(s.repo, 'GATES.md'), join(s.repo, 'docs/GATES.md'));
    const r = run(s, ['docs/GATES.md']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@[0-9a-f]{32}/m);
    expect(r.stdout).toMatch(/never approved before/);
    expect(r.stdout).not.toMatch(/approved before for another oracle/);
    expect(existsSync(marker(s))).toBe(false);
  });
});

describe('--approve ID@PREFIX pins the oracle that was displayed', () => {
  function twoGates(s: Sandbox): { g1: string; g2: string } {
    writeLedger(s, [{ id: 'G1', check: markCheck(s.repo, 'm1') }, { id: 'G2', check: markCheck(s.repo, 'm2') }]);
    const r = run(s, []);
    expect(r.code).toBe(1);
    const g1 = /^APPROVAL REQUIRED GATES:G1@([0-9a-f]{32}) /m.exec(r.stdout)?.[1];
    const g2 = /^APPROVAL REQUIRED GATES:G2@([0-9a-f]{32}) /m.exec(r.stdout)?.[1];
    expect(g1).toBeDefined();
    expect(g2).toBeDefined();
    expect(r.stdout).toContain(`APPROVAL REQUIRED: GATES:G1@${g1!}, GATES:G2@${g2!}`);
    return { g1: g1!, g2: g2! };
  }

  const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);

  it('a wrong prefix exits 2, approves nothing and runs nothing', () => {
    const s = sandbox();
    const { g1 } = twoGates(s);
    for (const pin of [`GATES:G1@${flip(g1)}`, `G1@${flip(g1)}`]) {
      const r = run(s, ['--approve', pin]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/the oracle here is @[0-9a-f]{32}, not the one displayed: the gate changed since, or this command runs with another PATH, environment, --shell, --cwd or --timeout than the one that displayed it; nothing was approved or run/);
      expect(existsSync(marker(s, 'm1'))).toBe(false);
      expect(existsSync(marker(s, 'm2'))).toBe(false);
      expect(records(approvalDir(s))).toHaveLength(0);
    }
  });

  it('the prefix of another gate is a wrong prefix', () => {
    const s = sandbox();
    const { g2 } = twoGates(s);
    const r = run(s, ['--approve', `GATES:G1@${g2}`]);
    expect(r.code).toBe(2);
    expect(existsSync(marker(s, 'm1'))).toBe(false);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
    expect(records(approvalDir(s))).toHaveLength(0);
  });

  it('a prefix displayed before the CHECK changed is refused with exit 2', () => {
    const s = sandbox();
    const { g1 } = twoGates(s);
    writeLedger(s, [{ id: 'G1', check: `${markCheck(s.repo, 'm1')} && echo sneaky` }, { id: 'G2', check: markCheck(s.repo, 'm2') }]);
    const r = run(s, ['--approve', `GATES:G1@${g1}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the oracle here is @[0-9a-f]{32}, not the one displayed: the gate changed since/);
    expect(existsSync(marker(s, 'm1'))).toBe(false);
    expect(records(approvalDir(s))).toHaveLength(0);
  });

  it('the right prefix approves and runs only that gate; the other still needs approval', () => {
    const s = sandbox();
    const { g1, g2 } = twoGates(s);
    const r = run(s, ['--approve', `GATES:G1@${g1}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^PASS GATES:G1 /m);
    expect(r.stdout).toMatch(new RegExp(`^APPROVAL REQUIRED GATES:G2@${g2} `, 'm'));
    expect(existsSync(marker(s, 'm1'))).toBe(true);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
    expect(records(approvalDir(s))).toHaveLength(1);

    const again = run(s, []);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(new RegExp(`^APPROVAL REQUIRED GATES:G2@${g2} `, 'm'));
    expect(again.stdout).not.toMatch(/APPROVAL REQUIRED GATES:G1/);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
  });

  it('8 hex digits and an unqualified id are enough; upper-case hex is accepted', () => {
    const s = sandbox();
    const { g1 } = twoGates(s);
    const r = run(s, ['--approve', `G1@${g1.toUpperCase()}`]);
    expect(r.code).toBe(1);
    expect(existsSync(marker(s, 'm1'))).toBe(true);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
  });

  it('several pins, comma-separated, approve both', () => {
    const s = sandbox();
    const { g1, g2 } = twoGates(s);
    const r = run(s, ['--approve', `GATES:G1@${g1},GATES:G2@${g2}`]);
    expect(r.code).toBe(0);
    expect(existsSync(marker(s, 'm1'))).toBe(true);
    expect(existsSync(marker(s, 'm2'))).toBe(true);
    expect(records(approvalDir(s))).toHaveLength(2);
  });

  // Found by an attack: the ledger's author makes two commands whose signatures share 12 hex
  // digits (a birthday search: under a minute on two cores), shows one and swaps in the other.
  it('a prefix shorter than 32 hex digits is a usage error (exit 2), nothing runs', () => {
    const s = sandbox();
    const { g1 } = twoGates(s);
    for (const pin of [`G1@${g1.slice(0, 31)}`, `GATES:G1@${g1.slice(0, 12)}`, `GATES:G1@${g1.slice(0, 1)}`, 'G1@', `G1@${g1.slice(0, 31)}z`]) {
      const r = run(s, ['--approve', pin]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/a pin is ID@HEX with 32 to 64 hex digits of the signature shown by a plain run \(fewer could be matched by a second, colliding command\)/);
      expect(existsSync(marker(s, 'm1'))).toBe(false);
      expect(records(approvalDir(s))).toHaveLength(0);
    }
  });

  it('a pin naming no gate exits 2 and runs nothing', () => {
    const s = sandbox();
    const { g1 } = twoGates(s);
    const r = run(s, ['--approve', `G9@${g1}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no runnable gate G9/);
    expect(existsSync(marker(s, 'm1'))).toBe(false);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
  });
});

describe('a CHECK cannot approve checks', () => {
  it('a nested gate-check --approve inside a CHECK refuses (exit 2) and approves or runs nothing', () => {
    const s = sandbox();
    const inner = `'${process.execPath}' '${BIN}' --approve 2>'${join(s.repo, 'inner.err')}' >/dev/null; echo inner=$?`;
    writeLedger(s, [{ id: 'G1', check: inner, expect: 'inner=2' }, { id: 'G2', check: markCheck(s.repo, 'm2') }]);
    const shown = run(s, []);
    const g1 = /^APPROVAL REQUIRED GATES:G1@([0-9a-f]{32}) /m.exec(shown.stdout)?.[1];
    expect(g1).toBeDefined();

    // Only G1 is approved; its CHECK tries to approve (and so run) everything else.
    const r = run(s, ['--approve', `GATES:G1@${g1!}`]);
    expect(r.stdout).toMatch(/^PASS GATES:G1 /m);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:G2@/m);
    expect(r.code).toBe(1);
    const err = readFileSync(join(s.repo, 'inner.err'), 'utf8');
    expect(err).toMatch(/--approve refused inside a running check \(GATE_CHECK_ACTIVE_CHECK=GATES:G1\)/);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
    expect(records(approvalDir(s))).toHaveLength(1);
    expect(run(s, []).stdout).toMatch(/^APPROVAL REQUIRED GATES:G2@/m);
    expect(existsSync(marker(s, 'm2'))).toBe(false);
  });

  it('GATE_CHECK_ACTIVE_CHECK in the environment refuses --approve, also with a pin', () => {
    const s = sandbox();
    writeLedger(s, [{}]);
    const env = { ...s.env, GATE_CHECK_ACTIVE_CHECK: 'GATES:G0' };
    for (const args of [['--approve'], ['--approve', 'G1@0123456789abcdef0123456789abcdef']]) {
      const r = run(s, args, env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--approve refused inside a running check/);
      expect(existsSync(marker(s))).toBe(false);
      expect(records(approvalDir(s))).toHaveLength(0);
    }
  });
});

describe('record files', () => {
  it('one record per approved oracle, named <gate key>-<signature>.json; a re-approval after a change adds one', () => {
    const s = sandbox();
    approveThenReset(s, [{}]);
    const [first] = records(approvalDir(s));
    writeLedger(s, [{ expect: '/ok/' }]);
    const r = run(s, ['--approve']);
    expect(r.code).toBe(0);
    const after = records(approvalDir(s));
    expect(after).toHaveLength(2);
    expect(after).toContain(first);
    const [a, b] = after.map((n) => n.slice(0, 16));
    expect(a).toBe(b); // same ledger and gate: same key
    const j = JSON.parse(readFileSync(join(approvalDir(s), first!), 'utf8')) as { signature: string };
    expect(first).toBe(`${first!.slice(0, 16)}-${j.signature}.json`);
  });
});
