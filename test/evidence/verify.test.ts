// Evidence you can trust, through the real CLI: verified / unverified / mismatched / stale,
// --status --strict, stale gates in plain runs, --reverify --only-stale, receipts store.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, startCli, writeFiles } from '../helpers/cli.js';
import { assertReportSchema } from '../helpers/schema.js';
import { handWrittenMet } from '../helpers/ledger.js';
import { isRoot, tinyTmpfs } from '../helpers/limits.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return {
    ...s,
    run: (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: s.repo, env: { ...s.env, ...env } }),
    ledger: () => readFileSync(join(s.repo, 'GATES.md'), 'utf8'),
    setLedger: (text: string) => writeFileSync(join(s.repo, 'GATES.md'), text),
  };
}

const GATES = [
  '- [ ] A: the verifier accepts the fixture',
  '  CHECK: echo run >> a.count; node scripts/verify.mjs',
  '  EXPECT: verified',
  '  DEPENDS: scripts/verify.mjs',
  '- [ ] B: the other check passes',
  '  CHECK: echo run >> b.count; echo other-ok',
  '  EXPECT: other-ok',
  '',
].join('\n');
const VERIFY = "console.log('verified');\n";

function passed() {
  const s = repo({ 'GATES.md': GATES, 'scripts/verify.mjs': VERIFY });
  expect(s.run(['--approve']).code).toBe(0);
  return s;
}

const count = (s: { repo: string }, f: string) => {
  try {
    return readFileSync(join(s.repo, f), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

describe('verification states', () => {
  it('a real pass is verified: --status --strict exits 0', () => {
    const s = passed();
    expect(s.ledger()).toMatch(/EVIDENCE: exit=0; def=[0-9a-f]{12}; deps=[0-9a-f]{12}; match=[0-9a-f]{12}; receipt=[0-9a-f]{12}\n/);
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ALL MET (2 met)\n');
    const j = JSON.parse(s.run(['--status', '--json']).stdout);
    assertReportSchema(j);
    expect(j.gates.map((g: { verification: string }) => g.verification)).toEqual(['verified', 'verified']);
    expect(j.summary).toMatchObject({ met: 2, verified: 2 });
  });

  it('hand-written evidence naming the definition is unverified: flagged by --status, unmet under --strict', () => {
    const s = repo({ 'GATES.md': handWrittenMet('A', 't', 'echo ok', 'ok') });
    const plain = s.run(['--status']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^GATES:A {2}met, unverified {2}t: no run of this gate in this checkout on this machine/m);
    expect(plain.stdout).toMatch(/^ALL MET \(1 met\)$/m);
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^UNMET: GATES:A$/m);
  });

  it('an evidence line edited after a real pass is mismatched', () => {
    const s = passed();
    s.setLedger(s.ledger().replace(/match=([0-9a-f])/, (_m, c: string) => `match=${c === '0' ? '1' : '0'}`));
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:A {2}met, mismatched .*the evidence line differs from the one the latest passing run here wrote$/m);
  });

  it('text added to the evidence line after a pass makes the gate claimed, not met, in plain --status too (round-9 attack)', () => {
    const s = passed();
    const proved = s.ledger();
    for (const edit of ['; security-audit=passed (signed off by the security team)', ' (full regression suite)', '; receipt=0123456789ab']) {
      s.setLedger(proved.replace(/(EVIDENCE: exit=0; def=[0-9a-f]{12}; deps=[0-9a-f]{12}; match=[0-9a-f]{12}; receipt=[0-9a-f]{12})/, `$1${edit}`));
      const plain = s.run(['--status']);
      expect(plain.code).toBe(1);
      expect(plain.stdout).toContain(
        edit.includes('receipt=')
          ? 'GATES:A  claimed (ticked, but its evidence was not written by a passing run of this gate (no def= of its definition))'
          : 'GATES:A  claimed (ticked, but its evidence line is not exactly what a passing run writes (text added to it or changed): the page shows that text as part of the gate)  the verifier accepts the fixture\n',
      );
      expect(s.run(['--status', '--strict']).code).toBe(1);
    }
    // A plain run proves it again and writes the line as a run writes it.
    expect(s.run([]).code).toBe(0);
    expect(s.ledger()).toBe(proved);
  });

  it('evidence copied from another gate is not met, and not verified even between identical definitions', () => {
    const s = passed();
    const lines = s.ledger().split('\n');
    const evA = lines.findIndex((l) => l.includes('EVIDENCE:'));
    const evB = lines.findIndex((l, i) => i > evA && l.includes('EVIDENCE:'));
    lines[evB] = lines[evA]!;
    s.setLedger(lines.join('\n'));
    const r = s.run(['--status', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.gates[1]).toMatchObject({ state: 'claimed', stateReason: expect.stringMatching(/another definition/) });
    expect(r.code).toBe(1);
    // Two gates with the same definition: the copy names the right def=, but not this gate's receipt.
    const twin = repo({ 'GATES.md': GATES.replace('echo run >> b.count; echo other-ok', 'echo run >> a.count; node scripts/verify.mjs').replace('EXPECT: other-ok', 'EXPECT: verified\n  DEPENDS: scripts/verify.mjs'), 'scripts/verify.mjs': VERIFY });
    expect(twin.run(['--approve']).code).toBe(0);
    const tl = twin.ledger().split('\n');
    const a = tl.findIndex((l) => l.includes('EVIDENCE:'));
    const b = tl.findIndex((l, i) => i > a && l.includes('EVIDENCE:'));
    expect(tl[a]).not.toBe(tl[b]); // the receipt id names the gate
    tl[b] = tl[a]!;
    twin.setLedger(tl.join('\n'));
    const t = JSON.parse(twin.run(['--status', '--strict', '--json']).stdout);
    expect(t.gates[1]).toMatchObject({ state: 'met', verification: 'mismatched' });
    expect(t.exitCode).toBe(1);
  });

  it('a CHECK or EXPECT edited after the evidence was written is unmet in plain --status, on any machine', () => {
    const s = passed();
    const evidence = s.ledger();
    for (const edited of [evidence.replace('node scripts/verify.mjs', 'node scripts/verify.mjs || true'), evidence.replace('EXPECT: other-ok', 'EXPECT: other'), evidence.replace('  DEPENDS: scripts/verify.mjs\n', '')]) {
      s.setLedger(edited);
      const r = s.run(['--status']);
      expect(r.code, edited).toBe(1);
      expect(r.stdout).toMatch(/claimed \(ticked, but its evidence is for another definition/);
      // Another machine (an empty private store) sees the same.
      expect(s.run(['--status'], { HOME: s.repo + '/../elsewhere' }).code).toBe(1);
    }
  });

  it('a DEPENDS file edited after a pass makes the gate stale, naming the file', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/verify.mjs'), VERIFY + '// edited\n');
    const r = s.run(['--status']);
    expect(r.code).toBe(0); // without --strict, receipts are not consulted for the exit code
    expect(r.stdout).toMatch(/^GATES:A {2}met, stale .*: DEPENDS changed: scripts\/verify\.mjs$/m);
    expect(s.run(['--status', '--strict']).code).toBe(1);
  });

  it('a CWD link pointed at another folder after a pass makes the gate stale: --strict, a plain run and --only-stale do not count the old pass (round-8c attack)', () => {
    const s = repo({
      'GATES.md': '- [ ] U: the unit suite passes\n  CHECK: sh run.sh\n  EXPECT: checks passed\n  CWD: tests\n  DEPENDS: spec/unit/run.sh, broken/run.sh\n',
      'spec/unit/run.sh': 'echo checks passed\n',
      'broken/run.sh': 'echo FAIL; exit 1\n',
    });
    symlinkSync('spec/unit', join(s.repo, 'tests'));
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.run(['--status', '--strict']).code).toBe(0);
    rmSync(join(s.repo, 'tests'));
    symlinkSync('broken', join(s.repo, 'tests'));
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('GATES:U  met, stale  the unit suite passes: CWD tests leads to broken now; the passing run ran in spec/unit\n');
    // A plain run does not stand on the old pass: the moved CWD is another oracle, to approve.
    const plain = s.run([]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).not.toContain('ALL MET');
    expect(s.run(['--reverify', '--only-stale']).stdout).not.toContain('nothing to re-run');
    // A CWD gone is stale too.
    rmSync(join(s.repo, 'tests'));
    expect(s.run(['--status', '--strict']).stdout).toContain(': CWD tests: it does not exist now (the passing run ran in spec/unit)\n');
    // Back where it ran: the pass holds again.
    symlinkSync('spec/unit', join(s.repo, 'tests'));
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it('a gate without CWD that passed under --cwd proved it there: stale where it runs at the root, and after its --cwd link is pointed elsewhere (round-8d attack)', () => {
    const s = repo({
      'GATES.md': '- [ ] U: the unit suite passes\n  CHECK: sh run.sh\n  EXPECT: checks passed\n  DEPENDS: spec/unit/run.sh, broken/run.sh\n',
      'spec/unit/run.sh': 'echo checks passed\n',
      'broken/run.sh': 'echo FAIL; exit 1\n',
    });
    symlinkSync('spec/unit', join(s.repo, 'tests'));
    expect(s.run(['--approve', '--cwd', 'tests']).code).toBe(0);
    // At the root (the Stop hook's view, --status), the pass was made elsewhere.
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain(': the passing run ran in spec/unit (--cwd); the gate runs at the repository root\n');
    // Under the same --cwd it holds: a run there does not run it again.
    const again = s.run(['--cwd', 'tests']);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('PASS');
    // --status reads it where its own --cwd says, as a run would (round-8e attack).
    expect(s.run(['--status', '--strict', '--cwd', 'tests']).code).toBe(0);
    expect(s.run(['--status', '--strict', '--cwd', 'spec']).stdout).toContain(': the passing run ran in spec/unit (--cwd); the gate runs in spec (--cwd)\n');
    // The --cwd link pointed at a failing folder: the old pass holds nowhere.
    rmSync(join(s.repo, 'tests'));
    symlinkSync('broken', join(s.repo, 'tests'));
    expect(s.run(['--status', '--strict', '--cwd', 'tests']).code).toBe(1);
    const moved = s.run(['--cwd', 'tests']);
    expect(moved.code).toBe(1);
    expect(moved.stdout).not.toContain('ALL MET');
  });

  it('a pass under a --cwd outside the repository holds for that folder only (round-9 attack: two outside folders compared equal)', () => {
    const s = repo({ 'GATES.md': '- [ ] A: the check passes where it runs\n  CHECK: cat verdict.txt\n  EXPECT: GOOD\n' });
    const outA = mkdtempSync(join(tmpdir(), 'gc-outA-'));
    const outB = mkdtempSync(join(tmpdir(), 'gc-outB-'));
    writeFileSync(join(outA, 'verdict.txt'), 'GOOD\n');
    writeFileSync(join(outB, 'verdict.txt'), 'BAD\n');
    expect(s.run(['--approve', '--cwd', outA]).code).toBe(0);
    expect(s.run(['--status', '--strict', '--cwd', outA]).code).toBe(0);
    const other = s.run(['--status', '--strict', '--cwd', outB]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain(`: the passing run ran in ${realpathSync(outA)} (--cwd); the gate runs in ${realpathSync(outB)} (--cwd)\n`);
    // A plain run there does not stand on the pass made in outA.
    expect(s.run(['--cwd', outB]).stdout).not.toContain('ALL MET');
  });

  it('a gate retitled after its pass is stale under --strict: the pass proved the claim as it read; a plain run proves the new one (round-8c attack)', () => {
    const s = passed();
    s.setLedger(s.ledger().replace('A: the verifier accepts the fixture', 'A: the full security audit passes (all 212 CVE checks)'));
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('GATES:A  met, stale  the full security audit passes (all 212 CVE checks): the title or the text in its item changed since the passing run: the pass proved the claim as it read then; run it again\n');
    // No new approval is needed (the title is not part of what runs): a plain run runs it again.
    const before = s.ledger();
    expect(s.run([]).code).toBe(0);
    expect(count(s, 'a.count')).toBe(2);
    expect(s.ledger()).toBe(before);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it('a claim continued under the title, or in a note in the gate item, is part of what the pass proved (round-8e R3)', () => {
    const s = repo({ 'GATES.md': GATES.replace('A: the verifier accepts the fixture\n', 'A: the verifier accepts the fixture\n  on Linux only\n'), 'scripts/verify.mjs': VERIFY });
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.run(['--status', '--strict']).code).toBe(0);
    for (const edit of [
      (t: string) => t.replace('  on Linux only\n', '  on every platform, with all 212 CVE checks\n'),
      (t: string) => t.replace('  EXPECT: verified\n', '  EXPECT: verified\n  (signed off by the security team)\n'),
      // At column 0 right after the item: the page continues the gate's paragraph with it.
      (t: string) => t.replace(/\n(- \[[ x]\] B:)/, '\nand on Windows\n$1'),
      // Text at column 0 that only looks like a block (round-9 attack), and the note after it.
      (t: string) => t.replace(/\n(- \[[ x]\] B:)/, '\n#1234 the full security audit passed\n  update: caveat withdrawn\n$1'),
    ]) {
      const proved = s.ledger();
      s.setLedger(edit(proved));
      const strict = s.run(['--status', '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toContain('the title or the text in its item changed since the passing run');
      // A plain run proves the claim as it reads now, with no new approval.
      expect(s.run([]).code).toBe(0);
      expect(s.run(['--status', '--strict']).code).toBe(0);
      s.setLedger(proved);
      expect(s.run([]).code).toBe(0);
    }
    // Blanks and spacing are not the claim: no run asked for.
    s.setLedger(s.ledger().replace('  on Linux only\n', '    on   Linux only  \n'));
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it("the reader's PATH, shell and --timeout do not change whether evidence verifies", () => {
    const s = passed();
    for (const [args, env] of [
      [['--status', '--strict'], { PATH: `/opt/extra:${process.env.PATH}` }],
      [['--status', '--strict'], { PATH: '' }],
      [['--status', '--strict', '--timeout', '60'], {}],
      [['--status', '--strict', '--shell', '/bin/bash'], {}],
    ] as const) {
      const r = s.run([...args], env);
      expect(r.stdout, args.join(' ')).toBe('ALL MET (2 met)\n');
      expect(r.code).toBe(0);
    }
  });

  it('the newest result decides: a failure after a pass outlives a restored ledger line', () => {
    // B has no DEPENDS: the code it checks (other.txt) is invisible to the oracle.
    const s = repo({ 'GATES.md': GATES.replace('echo other-ok', 'cat other.txt'), 'scripts/verify.mjs': VERIFY, 'other.txt': 'other-ok\n' });
    expect(s.run(['--approve']).code).toBe(0);
    const passedLedger = s.ledger();
    writeFileSync(join(s.repo, 'other.txt'), 'broken\n');
    expect(s.run(['--reverify']).code).toBe(1); // fails, demotes B
    s.setLedger(passedLedger); // git checkout GATES.md
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:B {2}met, stale .*the latest run of this gate here failed/m);
    // A plain run re-runs it (approved, same oracle): still broken, so it fails and demotes again.
    expect(s.run([]).code).toBe(1);
    writeFileSync(join(s.repo, 'other.txt'), 'other-ok\n');
    expect(s.run([]).code).toBe(0);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  // Round-35 F1: a TIMEOUT (or CWD, or spacing) edited for the failing re-run gave it another
  // definition; with the old ledger checked out, the older pass counted as verified again.
  it('a later failure under another definition of the same gate outlives a restored ledger line', () => {
    const s = repo({ 'GATES.md': GATES.replace('echo other-ok', 'cat other.txt'), 'scripts/verify.mjs': VERIFY, 'other.txt': 'other-ok\n' });
    expect(s.run(['--approve']).code).toBe(0);
    const passedLedger = s.ledger();
    writeFileSync(join(s.repo, 'other.txt'), 'broken\n');
    s.setLedger(passedLedger.replace('cat other.txt\n', 'cat other.txt\n  TIMEOUT: 60\n'));
    expect(s.run(['--approve']).code).toBe(1); // approved, run, failed
    s.setLedger(passedLedger); // git checkout GATES.md
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:B {2}met, stale .*a later run of this gate here failed \(started [^)]*, under another definition\): run it again/m);
    writeFileSync(join(s.repo, 'other.txt'), 'other-ok\n');
    expect(s.run([]).code).toBe(0);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  // Round-35 F1's remainder: the failing re-run made under a renamed gate id, or with the
  // ledger moved to another file, then the old ledger checked out.
  describe('a later failure of the same check under another gate id or ledger file', () => {
    const broken = () => {
      const s = repo({ 'GATES.md': GATES.replace('echo other-ok', 'cat other.txt'), 'scripts/verify.mjs': VERIFY, 'other.txt': 'other-ok\n' });
      expect(s.run(['--approve']).code).toBe(0);
      const passedLedger = s.ledger();
      writeFileSync(join(s.repo, 'other.txt'), 'broken\n');
      return { s, passedLedger };
    };

    it('a renamed id: the restored pass is stale, the hook blocks, and a re-run settles it', () => {
      const { s, passedLedger } = broken();
      s.setLedger(passedLedger.replace('- [x] B: the other', '- [x] B2: the other'));
      expect(s.run(['--approve']).code).toBe(1); // B2 approved, run, failed
      s.setLedger(passedLedger);
      const r = s.run(['--status', '--strict']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^GATES:B {2}met, stale .*a later run of the same check here failed \(as B2 in GATES\.md, started [^)]*\): run it again/m);
      expect(s.run(['--status', '--strict']).stdout).not.toMatch(/^GATES:A .*stale/m);
      const hook = runCli(['hook', 'claude-stop'], { cwd: s.repo, env: s.env, input: JSON.stringify({ session_id: 's', cwd: s.repo, hook_event_name: 'Stop', stop_hook_active: false }) });
      expect(hook.code).toBe(0);
      expect(JSON.parse(hook.stdout)).toMatchObject({ decision: 'block' });
      writeFileSync(join(s.repo, 'other.txt'), 'other-ok\n');
      expect(s.run([]).code).toBe(0);
      expect(s.run(['--status', '--strict']).code).toBe(0);
    });

    it('a moved ledger: the restored pass is stale', () => {
      const { s, passedLedger } = broken();
      rmSync(join(s.repo, 'GATES.md'));
      mkdirSync(join(s.repo, 'gates'));
      writeFileSync(join(s.repo, 'gates', 'main.md'), passedLedger);
      expect(s.run(['--approve']).code).toBe(1);
      rmSync(join(s.repo, 'gates'), { recursive: true });
      s.setLedger(passedLedger);
      const r = s.run(['--status', '--strict']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^GATES:B {2}met, stale .*a later run of the same check here failed \(as B in gates\/main\.md, started /m);
      expect(r.stdout).not.toMatch(/^GATES:A/m); // only B's check failed there
    });

    it('a pass of the same check after that failure settles it, under whichever id', () => {
      const { s, passedLedger } = broken();
      const renamed = passedLedger.replace('- [x] B: the other', '- [x] B2: the other');
      s.setLedger(renamed);
      expect(s.run(['--approve']).code).toBe(1);
      writeFileSync(join(s.repo, 'other.txt'), 'other-ok\n');
      expect(s.run([]).code).toBe(0); // B2 passes again
      s.setLedger(passedLedger);
      expect(s.run(['--status', '--strict']).code).toBe(0);
    });

    // Round-38c F1: the pass with its fixtures trimmed (INPUTS: no approval needed) settled the
    // failure, and the old pass was verified again once the fixtures were put back.
    it('a later pass with other INPUTS contents settles nothing', () => {
      const ledger = ['- [ ] G: every case passes', '  CHECK: if grep -q bad code.txt && grep -q hard cases.txt; then echo failing; exit 1; fi; echo all pass', '  EXPECT: all pass', '  INPUTS: cases.txt', ''].join('\n');
      const s = repo({ 'GATES.md': ledger, 'code.txt': 'good\n', 'cases.txt': 'easy\nhard\n' });
      expect(s.run(['--approve']).code).toBe(0);
      const passedLedger = s.ledger();
      writeFileSync(join(s.repo, 'code.txt'), 'bad\n');
      rmSync(join(s.repo, 'GATES.md'));
      mkdirSync(join(s.repo, 'gates'));
      writeFileSync(join(s.repo, 'gates', 'main.md'), passedLedger);
      expect(s.run(['--approve']).code).toBe(1); // the same check, moved: fails
      writeFileSync(join(s.repo, 'cases.txt'), 'easy\n'); // trimmed
      expect(s.run([]).code).toBe(0); // passes with the trimmed cases, no approval asked
      writeFileSync(join(s.repo, 'cases.txt'), 'easy\nhard\n');
      rmSync(join(s.repo, 'gates'), { recursive: true });
      s.setLedger(passedLedger);
      const r = s.run(['--status', '--strict']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^GATES:G {2}met, stale .*a later run of the same check here failed \(as G in gates\/main\.md, started /m);
      expect(s.run([]).code).toBe(1); // a plain run runs it: still failing
    });

    // Round-38c F2: the slow pass started first and ended last; the failure of the same check
    // in another ledger file started later and ended first. The pass ticked the gate, exit 0.
    it('a slow pass does not tick the gate over a newer failure of the same check in another ledger file', async () => {
      const gate = ['- [ ] G: the work exists', '  CHECK: test -f work && { if [ -f slow ]; then sleep 3; fi; echo ok; }', '  EXPECT: ok', ''].join('\n');
      const s = repo({ 'GATES.md': gate, 'gates/other.md': gate, work: '' });
      expect(s.run(['--approve', 'GATES.md']).code).toBe(0);
      expect(s.run(['--approve', 'gates/other.md']).code).toBe(0);
      writeFileSync(join(s.repo, 'slow'), '');
      const older = startCli(['--reverify', 'GATES.md'], { cwd: s.repo, env: s.env });
      await new Promise((r) => setTimeout(r, 800)); // it has seen the work, and sleeps
      rmSync(join(s.repo, 'work'));
      rmSync(join(s.repo, 'slow'));
      expect(s.run(['--reverify', 'gates/other.md']).code).toBe(1); // the newer run fails, and ends first
      const done = await older.done;
      expect(done.stdout).toMatch(/^STALE GATES:G: a newer run of the same check failed while it ran \(as G in gates\/other\.md, started [^)]+\): that failure stands/m);
      expect(done.code).toBe(1);
      expect(s.run(['--status', '--strict', 'GATES.md']).code).toBe(1);
    });

    it('a check-results file that is not what gate-check writes is an unsafe store (exit 2)', () => {
      const s = passed();
      const receipts = join(s.home, '.gate-check', 'receipts');
      const file = readdirSync(receipts).find((f) => f.endsWith('.checks.json'))!;
      expect(file).toBeDefined();
      for (const bad of ['{"schema":"gate-check/check-results@1","root":"/elsewhere","results":[]}', '{"__proto__":{},"schema":"gate-check/check-results@1","results":[]}', 'not json']) {
        writeFileSync(join(receipts, file), bad, { mode: 0o600 });
        const r = s.run(['--status', '--strict']);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/invalid check results file/);
        expect(r.stderr).toMatch(/hint: remove the whole folder by hand \(rm -r .*receipts\): every gate is then unverified here/);
      }
    });
  });

  // Found by an attack: a failing re-run whose DEPENDS changed while it ran was thrown away as
  // stale with no record, so restoring the file brought the older pass back as verified.
  it('a failure discarded as stale still outlives the pass before it once DEPENDS is restored', () => {
    const ledger = ['- [ ] G: file a exists', '  CHECK: if test -f a; then echo present; else echo v2 > dep.txt; exit 1; fi', '  EXPECT: present', '  DEPENDS: dep.txt', ''].join('\n');
    const s = repo({ 'GATES.md': ledger, 'dep.txt': 'v1\n', a: '' });
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.run(['--status', '--strict']).code).toBe(0);
    rmSync(join(s.repo, 'a')); // the work regresses; the failing check also perturbs its DEPENDS file
    const re = s.run(['--reverify']);
    expect(re.code).toBe(1);
    expect(re.stdout).toMatch(/^STALE GATES:G: its oracle changed while it ran/m);
    writeFileSync(join(s.repo, 'dep.txt'), 'v1\n'); // and the file is put back
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:G {2}met, stale .*the latest run of this gate here failed/m);
    expect(s.run([]).code).toBe(1); // a plain run runs it again: it still fails
  });

  // Found by an attack: the run that finished last decided, so a slow pass started before
  // the work regressed overwrote the failure of a newer re-run.
  it('the run that started last decides, not the one that finished last', async () => {
    const ledger = ['- [ ] G: the work exists', '  CHECK: test -f work && { if [ -f slow ]; then sleep 3; fi; echo ok; }', '  EXPECT: ok', ''].join('\n');
    const s = repo({ 'GATES.md': ledger, work: '' });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'slow'), '');
    const older = startCli(['--reverify'], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 800)); // it has seen the work, and sleeps
    rmSync(join(s.repo, 'work'));
    rmSync(join(s.repo, 'slow'));
    expect(s.run(['--reverify']).code).toBe(1); // the newer run fails, and finishes first
    // The older one passes later, and says so truthfully: the newer failure stands, the
    // gate stays unticked, and its exit is not 0 (round-15b F1: it said ALL MET, exit 0).
    const done = await older.done;
    expect(done.stdout).toMatch(/^STALE GATES:G: a newer run of this gate failed while it ran \(started [^)]+\): that failure stands/m);
    expect(done.code).toBe(1);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/^- \[ \] G:/m);
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:G {2}unchecked/m);
    expect(s.run([]).code).toBe(1);
  });

  // Found by an attack (round-19 F6): the pass was ticked under a claim written while it ran.
  // Round-39a F2: the newer failure ran under an edited TIMEOUT (another definition), and the
  // old ledger was checked out before the slow pass ended: it ticked the gate, ALL MET, exit 0.
  it('a slow pass does not tick the gate over a newer failure of it under another definition', async () => {
    const ledger = ['- [ ] G: the work exists', '  CHECK: test -f work && { if [ -f slow ]; then sleep 3; fi; echo ok; }', '  EXPECT: ok', ''].join('\n');
    const s = repo({ 'GATES.md': ledger, work: '' });
    expect(s.run(['--approve']).code).toBe(0);
    const passedLedger = s.ledger();
    writeFileSync(join(s.repo, 'slow'), '');
    const older = startCli(['--reverify'], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 800)); // it has seen the work, and sleeps
    rmSync(join(s.repo, 'work'));
    rmSync(join(s.repo, 'slow'));
    s.setLedger(passedLedger.replace('  EXPECT: ok\n', '  EXPECT: ok\n  TIMEOUT: 60\n'));
    expect(s.run(['--approve']).code).toBe(1); // the newer run, under another definition, fails
    s.setLedger(passedLedger); // git checkout GATES.md
    const done = await older.done;
    expect(done.stdout).toMatch(/^STALE GATES:G: a newer run of this gate failed while it ran \(started [^)]+\): that failure stands/m);
    expect(done.code).toBe(1);
    expect(s.run(['--status', '--strict']).code).toBe(1);
  });

  // Round-39a F1: records were dropped in the order they were written. The slow pass (written
  // after the newer failure) stayed, nine runs with trimmed INPUTS pushed the failure out, and
  // with the fixture and the old ledger line put back every surface said ALL MET.
  it('no run of a gate pushes out a failure while an older pass of it stays', async () => {
    const ledger = ['- [ ] G: the work exists', '  CHECK: test -f work && { if [ -f slow ]; then sleep 3; fi; echo ok; }', '  EXPECT: ok', '  INPUTS: fixture.txt', ''].join('\n');
    const s = repo({ 'GATES.md': ledger, work: '', 'fixture.txt': 'full\n' });
    expect(s.run(['--approve']).code).toBe(0);
    const passedLedger = s.ledger();
    writeFileSync(join(s.repo, 'slow'), '');
    const older = startCli(['--reverify'], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 800));
    rmSync(join(s.repo, 'slow'));
    rmSync(join(s.repo, 'work'));
    s.setLedger(passedLedger.replace('  EXPECT: ok\n', '  EXPECT: ok\n  TIMEOUT: 60\n'));
    expect(s.run(['--approve']).code).toBe(1);
    s.setLedger(passedLedger);
    expect((await older.done).code).toBe(1);
    writeFileSync(join(s.repo, 'work'), ''); // the trimmed runs pass
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(s.repo, 'fixture.txt'), `skip ${i}\n`);
      expect(s.run(['--reverify']).code, `trimmed run ${i}`).toBe(0);
    }
    rmSync(join(s.repo, 'work'));
    writeFileSync(join(s.repo, 'fixture.txt'), 'full\n');
    s.setLedger(passedLedger);
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/ALL MET/);
    expect(s.run([]).code).toBe(1); // a plain run runs it again: it fails
  });

  // Round-39b F5: while the slow pass ran, the failure it raced was pushed out of the gate's
  // ten records by ten runs with other INPUTS contents; the slow pass then ticked the gate, exit 0.
  it('a slow pass outrun by ten newer runs of its gate is stale: a failure it raced may be gone', async () => {
    const script = [
      "if ls fixtures | grep -q '^skip'; then echo ok; exit 0; fi",
      'grep -q good src.txt || { echo broken; exit 1; }',
      'if [ -f slow ]; then touch started; i=0; while [ ! -f go ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; fi',
      'echo ok',
      '',
    ].join('\n');
    const ledger = ['- [ ] G: the thing works', '  CHECK: sh test.sh', '  EXPECT: ok', '  DEPENDS: test.sh', '  INPUTS: fixtures/*', ''].join('\n');
    const s = repo({ 'GATES.md': ledger, 'test.sh': script, 'src.txt': 'good\n', 'fixtures/f0': 'f0\n' });
    expect(s.run(['--approve']).code).toBe(0);
    const passedLedger = s.ledger();
    writeFileSync(join(s.repo, 'slow'), '');
    const older = startCli(['--reverify'], { cwd: s.repo, env: s.env });
    for (let i = 0; i < 400 && !existsSync(join(s.repo, 'started')); i++) await new Promise((r) => setTimeout(r, 50));
    rmSync(join(s.repo, 'slow'));
    writeFileSync(join(s.repo, 'src.txt'), 'bad\n');
    s.setLedger(passedLedger.replace('  EXPECT: ok\n', '  EXPECT: ok\n  TIMEOUT: 60\n'));
    expect(s.run(['--approve']).code).toBe(1); // the newer run fails
    s.setLedger(passedLedger);
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(s.repo, 'fixtures', `skip${i}`), '');
      expect(s.run([]).code, `run ${i}`).toBe(0);
      rmSync(join(s.repo, 'fixtures', `skip${i}`));
    }
    writeFileSync(join(s.repo, 'go'), '');
    const done = await older.done;
    expect(done.stdout).toMatch(/^STALE GATES:G: 10 newer runs of this gate started while it ran, and only the 10 newest are kept: its result would not be, and may hide a newer failure/m);
    expect(done.code).toBe(1);
    expect(s.run(['--status', '--strict']).code).toBe(1);
  }, 60_000);

  // Round-39c lead: a failure that could not be recorded removed the ledger's records; a slow
  // pass of another run, started before it, was then written over nothing and counted.
  it('a slow pass is stale when a failure that could not be recorded set the records aside while it ran', async () => {
    const ledger = ['- [ ] G: the work exists', '  CHECK: test -f work && { if [ -f slow ]; then touch started; i=0; while [ ! -f go ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; fi; echo ok; }', '  EXPECT: ok', ''].join('\n');
    const s = repo({ 'GATES.md': ledger, work: '' });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'slow'), '');
    const older = startCli(['--reverify'], { cwd: s.repo, env: s.env });
    for (let i = 0; i < 400 && !existsSync(join(s.repo, 'started')); i++) await new Promise((r) => setTimeout(r, 50));
    rmSync(join(s.repo, 'slow'));
    rmSync(join(s.repo, 'work'));
    const receipts = join(s.home, '.gate-check', 'receipts');
    const records = readdirSync(receipts).find((f) => f.endsWith('.records.json'))!;
    writeFileSync(join(receipts, `${records}.lock`), JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n', { mode: 0o600 });
    const lost = s.run(['--reverify'], { GATE_CHECK_LOCK_TIMEOUT_MS: '300' });
    expect(lost.code).toBe(2);
    expect(lost.stderr).toMatch(/the failure of GATES:G could not be recorded/);
    expect(readdirSync(receipts)).toContain(`${records}.forgotten`);
    rmSync(join(receipts, `${records}.lock`));
    writeFileSync(join(s.repo, 'go'), '');
    const done = await older.done;
    expect(done.stdout).toMatch(/^STALE GATES:G: run records were set aside while it ran, as a failure in this repository could not be recorded/m);
    expect(done.code).toBe(1);
    expect(s.run(['--status', '--strict']).code).toBe(1);
  }, 60_000);

  // Round-39d F2: the lost failure set aside its own ledger's records only; the same check's
  // pass in another ledger stayed verified, and `--status --strict gates/main.md` exited 0.
  it('a failure that could not be recorded leaves no earlier pass of the repository verified, in any ledger', () => {
    const gate = (id: string) => [`- [ ] ${id}: the work exists`, '  CHECK: test -f work && echo ok', '  EXPECT: ok', ''].join('\n');
    const s = repo({ 'GATES.md': gate('A1'), 'gates/main.md': gate('B1'), work: '' });
    expect(s.run(['--approve', 'GATES.md']).code).toBe(0);
    expect(s.run(['--approve', 'gates/main.md']).code).toBe(0);
    expect(s.run(['--status', '--strict', 'gates/main.md']).code).toBe(0);
    rmSync(join(s.repo, 'work'));
    const receipts = join(s.home, '.gate-check', 'receipts');
    const records = readdirSync(receipts).filter((f) => f.endsWith('.records.json'));
    const lock = join(receipts, `${records.find((f) => readFileSync(join(receipts, f), 'utf8').includes('"gate":"A1"'))}.lock`);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n', { mode: 0o600 });
    const lost = s.run(['--reverify', 'GATES.md'], { GATE_CHECK_LOCK_TIMEOUT_MS: '300' });
    expect(lost.code).toBe(2);
    expect(lost.stderr).toMatch(/the failure of GATES:A1 could not be recorded: .*the run records of GATES\.md and the repository's check results were set aside/);
    rmSync(lock);
    const other = s.run(['--status', '--strict', 'gates/main.md']);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/^main:B1 {2}met, stale .*a failure in this repository could not be recorded after this pass/m);
    expect(s.run(['gates/main.md']).code).toBe(1); // a plain run runs it again: it fails
  });

  it('a slow pass in another ledger is stale when a failure elsewhere in the repository could not be recorded while it ran', async () => {
    const gate = (id: string) => [`- [ ] ${id}: the work exists`, '  CHECK: test -f work && { if [ -f slow ]; then touch started; i=0; while [ ! -f go ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; fi; echo ok; }', '  EXPECT: ok', ''].join('\n');
    const s = repo({ 'GATES.md': gate('A1'), 'gates/main.md': gate('B1'), work: '' });
    expect(s.run(['--approve', 'GATES.md']).code).toBe(0);
    expect(s.run(['--approve', 'gates/main.md']).code).toBe(0);
    writeFileSync(join(s.repo, 'slow'), '');
    const older = startCli(['--reverify', 'gates/main.md'], { cwd: s.repo, env: s.env });
    for (let i = 0; i < 400 && !existsSync(join(s.repo, 'started')); i++) await new Promise((r) => setTimeout(r, 50));
    rmSync(join(s.repo, 'slow'));
    rmSync(join(s.repo, 'work'));
    const receipts = join(s.home, '.gate-check', 'receipts');
    const lock = join(receipts, `${readdirSync(receipts).find((f) => f.endsWith('.records.json') && readFileSync(join(receipts, f), 'utf8').includes('"gate":"A1"'))}.lock`);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, token: 'held-by-the-test' }) + '\n', { mode: 0o600 });
    expect(s.run(['--reverify', 'GATES.md'], { GATE_CHECK_LOCK_TIMEOUT_MS: '300' }).code).toBe(2);
    rmSync(lock);
    writeFileSync(join(s.repo, 'go'), '');
    const done = await older.done;
    expect(done.stdout).toMatch(/^STALE main:B1: run records were set aside while it ran, as a failure in this repository could not be recorded/m);
    expect(done.code).toBe(1);
  }, 60_000);

  it('a pass is not written under a title changed while it ran', async () => {
    const ledger = ['- [ ] G: unit tests pass', '  CHECK: sleep 2; echo ok', '  EXPECT: ok', ''].join('\n');
    const s = repo({ 'GATES.md': ledger });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'GATES.md'), ledger);
    const run = startCli(['--reverify'], { cwd: s.repo, env: s.env });
    await new Promise((r) => setTimeout(r, 800));
    writeFileSync(join(s.repo, 'GATES.md'), ledger.replace('unit tests pass', 'unit tests pass, security audit done'));
    const done = await run.done;
    expect(done.stdout).toMatch(/^STALE GATES:G: the title or the text in its item changed while it ran/m);
    expect(done.code).toBe(1);
    expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/^- \[ \] G: unit tests pass, security audit done$/m);
    // Unchanged, the same run ticks it.
    expect(s.run(['--reverify']).code).toBe(0);
  });

  it('a DEPENDS file whose name holds an escape is named with it shown, never as the file whose name it imitates (round-15b F4)', () => {
    const s = repo({ 'GATES.md': '- [ ] G: t\n  CHECK: sh scripts/a.sh\n  EXPECT: ok\n  DEPENDS: scripts/*\n', 'scripts/a.sh': 'echo ok\n' });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'scripts', 'a.sh\u001b[K'), 'echo ok\n');
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('DEPENDS changed: scripts/a.sh<U+001B>[K (added)');
    expect(JSON.parse(s.run(['--status', '--json']).stdout).gates[0].verificationReason).toBe('DEPENDS changed: scripts/a.sh<U+001B>[K (added)');
  });

  it('a claimed gate is unmet under --strict and reported as claimed', () => {
    const s = repo({ 'GATES.md': '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  EVIDENCE: pending\n' });
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:A {2}claimed/m);
  });

  it('a manual gate is human evidence', () => {
    const s = repo({ 'GATES.md': '- [x] M: reviewed\n  EVIDENCE: reviewed by Ada on 2026-11-02\n' });
    expect(s.run(['--status', '--strict']).code).toBe(0);
    expect(JSON.parse(s.run(['--status', '--json']).stdout).gates[0].verification).toBe('manual');
  });
});

// Found by an attack: a failure that could not be recorded left the older pass in force.
describe('a failure is never lost', () => {
  // gates/GATES.md is the only ledger: from the top the root is the top (the ledger is
  // gates/GATES.md), from gates/ it is gates/ (the ledger is GATES.md). One file, two views,
  // one records file.
  function twoViews() {
    const s = sandbox();
    const gates = join(s.repo, 'gates');
    const mode = join(s.repo, 'mode');
    writeFiles(s.repo, { 'gates/GATES.md': `- [ ] A: feature a\n  CHECK: grep -q good '${mode}' && echo works\n  EXPECT: works\n`, mode: 'good\n' });
    const top = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
    const inner = (args: string[]) => runCli(args, { cwd: gates, env: s.env });
    const ledger = () => readFileSync(join(gates, 'GATES.md'), 'utf8');
    return { s, mode, top, inner, ledger, setLedger: (t: string) => writeFileSync(join(gates, 'GATES.md'), t) };
  }

  it('one ledger file seen from two repository roots: a failure in one view is recorded, un-ticks the gate, and outlives a restored line in the other', () => {
    const v = twoViews();
    expect(v.top(['--approve']).code).toBe(0);
    const passedLedger = v.ledger();
    expect(v.top(['--status', '--strict']).code).toBe(0);
    writeFileSync(v.mode, 'bad\n'); // the work regresses
    const failed = v.inner(['--reverify', '--approve']); // another root: another oracle, approved
    expect(failed.stderr).toBe('');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^FAIL GATES:A /m);
    expect(v.ledger()).toMatch(/^- \[ \] A: feature a$/m);
    v.setLedger(passedLedger); // git checkout gates/GATES.md
    const strict = v.top(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^GATES:A {2}met, stale .*the latest run of this gate here failed/m);
    expect(v.top(['--reverify', '--only-stale']).code).toBe(1); // runs it: still failing
  });

  it("a pass made in the other view does not verify this view's evidence line: it is run again", () => {
    const v = twoViews();
    expect(v.top(['--approve']).code).toBe(0);
    const topLedger = v.ledger();
    expect(v.inner(['--reverify', '--approve']).code).toBe(0); // the newest pass of the proof, made under gates/
    v.setLedger(topLedger);
    const strict = v.top(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^GATES:A {2}met, mismatched .*recorded under another repository root/m);
    expect(v.top([]).code).toBe(0); // a plain run runs it again here
    expect(v.top(['--status', '--strict']).code).toBe(0);
  });

  it.skipIf(!isRoot)('a failure that cannot be recorded (the store on a full disk): exit 2 saying so, the records are removed and the gate un-ticked, so no earlier pass counts (run as root)', () => {
    const fs = tinyTmpfs(512 * 1024);
    if (!fs) return;
    try {
      const s = sandbox();
      const home = join(fs.dir, 'home');
      mkdirSync(home, { mode: 0o700 });
      const env = { ...s.env, HOME: home };
      // The work is done while `done` exists; without it, the check fails and fills the disk
      // (a runaway test writing a temporary file).
      writeFiles(s.repo, { 'GATES.md': `- [ ] A: feature a\n  CHECK: if [ -f done ]; then echo works; else head -c 1048576 /dev/zero > '${join(fs.dir, 'fill')}'; exit 1; fi\n  EXPECT: works\n`, done: '' });
      const run = (args: string[]) => runCli(args, { cwd: s.repo, env });
      expect(run(['--approve']).code).toBe(0);
      const passedLedger = readFileSync(join(s.repo, 'GATES.md'), 'utf8');
      const records = join(home, '.gate-check', 'receipts');
      expect(readdirSync(records).filter((f) => f.endsWith('.records.json'))).toHaveLength(1);
      rmSync(join(s.repo, 'done'));
      const r = run(['--reverify']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/the failure of GATES:A could not be recorded: .*ENOSPC.*; the run records of GATES\.md and the repository's check results were set aside, so that no earlier pass counts as verified .*; the failed gates were un-ticked in the ledger/);
      expect(readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/^- \[ \] A: feature a$/m);
      expect(readdirSync(records).filter((f) => f.endsWith('.records.json'))).toEqual([]);
      rmSync(join(fs.dir, 'fill'));
      writeFileSync(join(s.repo, 'GATES.md'), passedLedger); // the ticked line restored
      const strict = run(['--status', '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/^GATES:A {2}met, unverified /m);
      expect(existsSync(join(s.repo, 'done'))).toBe(false);
      const again = run([]); // a plain run runs it again: it fails (and fills the disk) again
      expect(again.code).toBe(2);
      expect(again.stdout).toMatch(/^FAIL GATES:A /m);
      expect(run(['--status', '--strict']).code).toBe(1);
      rmSync(join(fs.dir, 'fill'));
      writeFileSync(join(s.repo, 'done'), ''); // the work is done again: a run proves it
      expect(run([]).code).toBe(0);
      expect(run(['--status', '--strict']).code).toBe(0);
    } finally {
      fs.unmount();
    }
  });
});

// Found by a new user: `INPUTS: *.md` matched GATES.md, which every pass rewrites, so the gate
// was stale at once, the ledger changed on every run, and DEPENDS asked for approval again.
describe('DEPENDS and INPUTS leave the ledgers out', () => {
  const ledger = [
    '- [ ] D1: the README has a title',
    '  CHECK: grep -c "^# proj" README.md',
    '  EXPECT: 1',
    '  INPUTS: *.md',
    '- [ ] D2: the docs are spelled',
    '  CHECK: cat *.md gates/*.md | grep -c proj',
    '  EXPECT: /^[0-9]+$/m',
    '  DEPENDS: **/*.md',
    '',
  ].join('\n');

  it('a pass stays verified, a re-run leaves the ledger byte-identical, and no new approval is asked', () => {
    const s = repo({ 'GATES.md': ledger, 'README.md': '# proj\n', 'gates/more.md': '- [ ] M: manual\n', 'docs/guide.md': 'proj\n' });
    expect(s.run(['--approve']).code).toBe(1); // M is a manual gate, unticked
    const written = s.ledger();
    expect(written).toMatch(/- \[x\] D1:/);
    expect(written).toMatch(/- \[x\] D2:/);
    const strict = s.run(['--status', '--strict']);
    expect(strict.stdout).toBe('more:M  unchecked  manual\nUNMET: more:M\n'); // D1 and D2 verified
    const plain = s.run([]); // nothing to re-run: both verified
    expect(plain.stdout).toBe('UNMET: more:M\n');
    const again = s.run(['--reverify']);
    expect(again.stdout).not.toMatch(/APPROVAL REQUIRED/);
    expect(again.stdout).toMatch(/^PASS GATES:D1 [^]*^PASS GATES:D2 /m);
    expect(s.ledger()).toBe(written);
    expect(s.run(['--status', '--strict']).stdout).toBe('more:M  unchecked  manual\nUNMET: more:M\n');
    // The files they read still count: a changed README makes D1 stale, and the guide D2.
    writeFileSync(join(s.repo, 'README.md'), '# proj\nmore\n');
    writeFileSync(join(s.repo, 'docs/guide.md'), 'proj, changed\n');
    const after = s.run(['--status', '--strict']);
    expect(after.stdout).toMatch(/^GATES:D1 {2}met, stale .*INPUTS changed since the evidence was written: README\.md written since the last pass here$/m);
    expect(after.stdout).toMatch(/^GATES:D2 {2}met, stale .*DEPENDS changed: README\.md, docs\/guide\.md$/m);
  });

  it('a pattern that matches only ledgers makes its gate not runnable, and the other gates run', () => {
    const s = repo({ 'GATES.md': ['- [ ] A: t', '  CHECK: echo ok', '  EXPECT: ok', '  DEPENDS: GATES.md', '- [ ] B: t', '  CHECK: echo ok', '  EXPECT: ok', ''].join('\n') });
    const status = s.run(['--status']);
    expect(status.stdout).toMatch(/^GATES:A {2}unchecked \(not runnable: DEPENDS pattern GATES\.md matches only ledgers, which gate-check rewrites on every run and never hashes/m);
    const r = s.run(['--approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^PASS GATES:B /m);
    expect(r.stdout).toMatch(/^NOT RUN GATES:A .*: not runnable: DEPENDS of GATES:A: pattern GATES\.md matches only ledgers \(GATES\.md\)/m);
  });
});

describe('plain runs trust only evidence verified here', () => {
  it('hand-written, copied or mismatched evidence is run again when approved, and asks for approval otherwise', () => {
    const s = passed();
    const good = s.ledger();
    // Mismatched: the approved gate runs again (a second count), and passes.
    s.setLedger(good.replace(/match=([0-9a-f])/, (_m, c: string) => `match=${c === '0' ? '1' : '0'}`));
    const r = s.run([]);
    expect(r.stdout).toMatch(/^PASS GATES:A/m);
    expect(r.code).toBe(0);
    expect(count(s, 'a.count')).toBe(2);
    expect(s.ledger()).toBe(good); // the same result writes the same line
    // Hand-written evidence on an unapproved gate: approval required, exit 1, nothing runs.
    const h = repo({ 'GATES.md': handWrittenMet('A', 't', 'echo run >> h.count; echo ok', 'ok') });
    const hr = h.run([]);
    expect(hr.code).toBe(1);
    expect(hr.stdout).toMatch(/^APPROVAL REQUIRED GATES:A@/m);
    expect(hr.stdout).not.toMatch(/ALL MET/);
    expect(count(h, 'h.count')).toBe(0);
  });

  it('--reverify --only-stale also re-runs unverified and mismatched gates', () => {
    const s = passed();
    s.setLedger(s.ledger().replace(/(- \[x\] B:[^]*?EVIDENCE: [^\n]*?)match=([0-9a-f])/, (_m, head: string, c: string) => `${head}match=${c === '0' ? '1' : '0'}`));
    const r = s.run(['--reverify', '--only-stale']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS GATES:B/m);
    expect([count(s, 'a.count'), count(s, 'b.count')]).toEqual([1, 2]);
  });
});

describe('stale gates in runs', () => {
  it('a plain run never re-reports a stale gate as met: it needs approval and a run', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/verify.mjs'), VERIFY + '// edited\n');
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED GATES:A@/m);
    expect(r.stdout).toMatch(/approved before for another oracle: DEPENDS: scripts\/verify\.mjs changed/);
    expect(r.stdout).not.toMatch(/ALL MET/);
    expect(count(s, 'a.count')).toBe(1);
    expect(s.run(['--approve']).code).toBe(0);
    expect(count(s, 'a.count')).toBe(2);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it('--reverify --only-stale runs exactly the stale gates', () => {
    const s = passed();
    writeFileSync(join(s.repo, 'scripts/verify.mjs'), VERIFY + '// edited\n');
    const r = s.run(['--reverify', '--only-stale', '--approve']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS GATES:A/m);
    expect(r.stdout).not.toMatch(/GATES:B/);
    expect([count(s, 'a.count'), count(s, 'b.count')]).toEqual([2, 1]);
    const again = s.run(['--reverify', '--only-stale']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/no stale, mismatched or unverified evidence; nothing to re-run/);
  });
});

describe('receipt store refusals', () => {
  const receiptsDir = (home: string) => join(home, '.gate-check', 'receipts');

  it('a tampered receipts file stops --status with exit 2', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    const file = readdirSync(dir).find((f) => f.endsWith('.records.json'))!;
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, file), text.replace(/"bytes":9/, '"bytes":"9"'), { mode: 0o600 });
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid receipts file/);
  });

  it('a symlinked receipts directory stops --status with exit 2', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    renameSync(dir, `${dir}.real`);
    symlinkSync(`${dir}.real`, dir);
    const r = s.run(['--status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
  });

  it('a forged receipt (right shape, digest not covering its fields) does not verify, and a plain run runs the gate again', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    const file = readdirSync(dir).find((f) => f.endsWith('.records.json'))!;
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const forged = doc.records.findIndex((r: { gate: string }) => r.gate === 'A');
    // The record and the evidence line agree (match=bbb…), but the receipt id covers neither.
    doc.records[forged].match = 'b'.repeat(12);
    writeFileSync(join(dir, file), JSON.stringify(doc), { mode: 0o600 });
    s.setLedger(s.ledger().replace(/(A: the verifier[^]*?match=)[0-9a-f]{12}/, `$1${'b'.repeat(12)}`));
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:A {2}met, mismatched .*recorded under another repository root, or not by gate-check/m);
    expect(count(s, 'a.count')).toBe(1);
    expect(s.run([]).code).toBe(0);
    expect(count(s, 'a.count')).toBe(2);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it('a failure of the gate recorded with the same start as its pass makes the pass stale: which saw the newer work is unknown', () => {
    const s = passed();
    const dir = receiptsDir(s.home);
    const file = readdirSync(dir).find((f) => f.endsWith('.records.json'))!;
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const pass = doc.records.find((r: { gate: string }) => r.gate === 'B');
    // A run under another definition (say, with TIMEOUT added) that failed, started the same millisecond.
    doc.records.push({ ...pass, def: 'f'.repeat(64), status: 'fail', match: null, receipt: null });
    writeFileSync(join(dir, file), JSON.stringify(doc), { mode: 0o600 });
    const r = s.run(['--status', '--strict']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^GATES:B {2}met, stale .*a later run of this gate here failed \(started [^)]*, under another definition\)/m);
  });

  it('--status creates no receipts or history directory', () => {
    const s = repo({ 'GATES.md': '- [x] A: t\n  CHECK: echo ok\n  EXPECT: ok\n  EVIDENCE: exit=0\n' });
    mkdirSync(join(s.home, '.gate-check'), { mode: 0o700 });
    s.run(['--status', '--strict']);
    expect(readdirSync(join(s.home, '.gate-check'))).toEqual([]);
  });
});

describe('stale INPUTS name the files written since the last pass', () => {
  it('as the approval screen names text: a look-alike letter in a file name is <U+XXXX>', () => {
    const s = repo({ 'GATES.md': '- [ ] A: t\n  CHECK: cat src/*.txt\n  EXPECT: good\n  INPUTS: src/*.txt\n', 'src/t\u0435st.txt': 'good\n' });
    expect(s.run(['--approve']).code).toBe(0);
    writeFileSync(join(s.repo, 'src/t\u0435st.txt'), 'good, changed\n');
    const r = s.run(['--status', '--strict']);
    expect(r.stdout).toMatch(/^GATES:A {2}met, stale .*INPUTS changed since the evidence was written: src\/t<U\+0435>st\.txt written since the last pass here$/m);
    expect(r.stdout).not.toContain('\u0435');
  });
});
