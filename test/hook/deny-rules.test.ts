// The permissions.deny rules the Claude Code installer writes, checked against Claude Code's
// documented matching (test/helpers/permission-rules.ts, itself checked first against the
// examples of the documentation): they must match the spellings of an approval and the file
// edits they are for, and must not match harmless commands and files. What they cannot
// catch is listed too, so that SECURITY.md's account of it stays true.
import { describe, expect, it } from 'vitest';
import { BASH_DENY_RULES, denyRulesFor, EDIT_DENY_RULES, STATIC_DENY_RULES, storeDenyRules } from '../../lib/hook/hosts/claude-rules.js';
import { denied, normalizePart, ruleMatches, splitCompound, type RuleContext } from '../helpers/permission-rules.js';

const CTX: RuleContext = { home: '/Users/alice', projectRoot: '/Users/alice/project', cwd: '/Users/alice/project' };
const bash = (command: string) => ({ tool: 'Bash' as const, command });
const edit = (path: string) => ({ tool: 'Edit' as const, path });
const read = (path: string) => ({ tool: 'Read' as const, path });

describe('the matcher follows the documented examples', () => {
  const allow = (rule: string, command: string) => ruleMatches(rule, bash(command), CTX, 'allow');
  const deny = (rule: string, command: string) => ruleMatches(rule, bash(command), CTX, 'deny');

  it('Bash: exact commands, and * anywhere (spaces included)', () => {
    expect(allow('Bash(npm run build)', 'npm run build')).toBe(true);
    expect(allow('Bash(npm run build)', 'npm run build --watch')).toBe(false);
    expect(allow('Bash(npm run test *)', 'npm run test unit')).toBe(true);
    expect(allow('Bash(npm *)', 'npm install')).toBe(true);
    expect(allow('Bash(* install)', 'npm install')).toBe(true);
    expect(allow('Bash(* install)', 'npm install x')).toBe(false);
    for (const c of ['git checkout main', 'git log --oneline main', 'git push origin main', 'git merge main']) expect(allow('Bash(git * main)', c), c).toBe(true);
    expect(allow('Bash(git *)', 'git log --oneline --all')).toBe(true);
    expect(allow('Bash', 'anything at all')).toBe(true);
    expect(allow('Bash(*)', 'anything at all')).toBe(true);
  });

  it('Bash: a trailing " *" is a word boundary, "*" alone is not; ":*" is the same as " *" only at the end', () => {
    expect(allow('Bash(ls *)', 'ls -la')).toBe(true);
    expect(allow('Bash(ls *)', 'lsof')).toBe(false);
    expect(allow('Bash(ls*)', 'ls -la')).toBe(true);
    expect(allow('Bash(ls*)', 'lsof')).toBe(true);
    expect(allow('Bash(ls:*)', 'ls -la')).toBe(true);
    expect(allow('Bash(ls:*)', 'lsof')).toBe(false);
    expect(allow('Bash(git:* push)', 'git push')).toBe(false);
  });

  it('Bash: compound commands are split, and an allow rule must match every part', () => {
    expect(splitCompound('a && b || c; d | e |& f & g\nh')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(splitCompound(`echo "a && b" 'c; d'`)).toEqual([`echo "a && b" 'c; d'`]);
    expect(allow('Bash(safe-cmd *)', 'safe-cmd && other-cmd')).toBe(false);
    expect(deny('Bash(git push *)', 'git status && git push origin main')).toBe(true);
  });

  it('Bash: process wrappers are stripped (timeout, time, nice, nohup, stdbuf; bare xargs), runners are not', () => {
    expect(allow('Bash(npm test *)', 'timeout 30 npm test')).toBe(true);
    expect(allow('Bash(npm test *)', 'nice -n 10 nohup time npm test x')).toBe(true);
    expect(allow('Bash(grep *)', 'xargs grep pattern')).toBe(true);
    expect(allow('Bash(grep *)', 'xargs -n1 grep pattern')).toBe(false);
    expect(allow('Bash(devbox run *)', 'devbox run rm -rf .')).toBe(true);
    expect(allow('Bash(npm test *)', 'npx npm test')).toBe(false);
    expect(normalizePart('FOO=1 BAR="a b" timeout -s KILL 5 stdbuf -oL gate-check --approve', true)).toBe('gate-check --approve');
  });

  it('Read and Edit: the four anchors of the documentation', () => {
    expect(ruleMatches('Read(//Users/alice/secrets/**)', read('/Users/alice/secrets/k/id'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Read(~/Documents/*.pdf)', read('/Users/alice/Documents/a.pdf'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Read(~/Documents/*.pdf)', read('/Users/alice/Documents/sub/a.pdf'), CTX, 'deny')).toBe(false);
    expect(ruleMatches('Edit(/src/**/*.ts)', edit('/Users/alice/project/src/a/b.ts'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Edit(/src/**/*.ts)', edit('/Users/alice/project/src/b.ts'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Read(*.env)', read('/Users/alice/project/x.env'), CTX, 'deny')).toBe(true);
    // Edit(/docs/**): edits in <project>/docs/, NOT /docs/ and NOT <project>/.claude/docs/.
    expect(ruleMatches('Edit(/docs/**)', edit('/Users/alice/project/docs/a.md'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Edit(/docs/**)', edit('/docs/a.md'), CTX, 'deny')).toBe(false);
    expect(ruleMatches('Edit(/docs/**)', edit('/Users/alice/project/.claude/docs/a.md'), CTX, 'deny')).toBe(false);
    expect(ruleMatches('Read(~/.zshrc)', read('/Users/alice/.zshrc'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Edit(//tmp/scratch.txt)', edit('/tmp/scratch.txt'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Read(src/**)', read('/Users/alice/project/src/x/y'), CTX, 'deny')).toBe(true);
    expect(ruleMatches('Read(//**/.env)', read('/c/any/where/.env'), CTX, 'deny')).toBe(true);
    // An Edit rule is not a Read rule, nor a Bash rule.
    expect(ruleMatches('Edit(~/.zshrc)', read('/Users/alice/.zshrc'), CTX, 'deny')).toBe(false);
    expect(ruleMatches('Edit(~/.zshrc)', bash('echo x > ~/.zshrc'), CTX, 'deny')).toBe(false);
  });
});

const APPROVALS = [
  'gate-check --approve',
  'gate-check --approve G1@0123abcd',
  'gate-check --root . --approve',
  'gate-check GATES.md --approve=G1',
  'npx gate-check --approve',
  'npx --yes gate-check --approve',
  'npx gate-check@0.1.0 --approve',
  'node ./node_modules/.bin/gate-check --approve',
  'node /opt/gate-check/bin/gate-check.js --approve',
  './node_modules/.bin/gate-check --approve',
  'pnpm dlx gate-check --approve',
  'pnpm exec gate-check --approve',
  'npm exec gate-check -- --approve',
  'yarn gate-check --approve',
  'bunx gate-check --approve',
  'direnv exec . gate-check --approve',
  'mise exec -- gate-check --approve',
  'FOO=1 gate-check --approve',
  'timeout 60 gate-check --approve',
  'nohup nice -n 5 gate-check --approve',
  'npx gate-check --status && npx gate-check --approve',
  'cd pkg; node ../node_modules/.bin/gate-check --approve',
  'true | gate-check --approve',
  'gate-check --status\ngate-check --approve',
];

const HARMLESS = [
  'gate-check --status',
  'npx gate-check --status --strict',
  'gate-check lint',
  'gate-check approvals list',
  'gate-check hook doctor',
  'gate-check --json',
  'grep -rn -- --approve references/',
  'echo approve',
  'npm test',
  'git status && git diff',
  'cat SECURITY.md',
];

/** Spellings the rules cannot see: the approval refusal (lib/approval/approver.ts) is what stops them. */
const UNCOVERED = [
  'gate-check --appr""ove',
  'G=gate-check; $G --approve',
  'sh -c "$(echo Z2F0ZS1jaGVjayAtLWFwcHJvdmUK | base64 -d)"',
  './approve-all.sh',
  'node -e "require(\'child_process\').spawnSync(\'gate-check\', [\'--\' + \'approve\'])"',
];

describe('the rules the installer writes', () => {
  it('are the Bash rules of earlier versions (kept as defence in depth) and Edit rules', () => {
    expect(BASH_DENY_RULES).toEqual(['Bash(gate-check --approve*)', 'Bash(gate-check * --approve*)', 'Bash(npx gate-check *--approve*)', 'Bash(node *gate-check.js *--approve*)', 'Bash(*gate-check*--approve*)']);
    expect(STATIC_DENY_RULES).toEqual([...BASH_DENY_RULES, ...EDIT_DENY_RULES]);
    // Write(...) rules are not consulted by Claude Code; Edit rules cover Write, MultiEdit and NotebookEdit.
    expect(STATIC_DENY_RULES.some((r) => r.startsWith('Write('))).toBe(false);
  });

  it.each(APPROVALS)('deny the approval %j', (command) => {
    expect(denied(STATIC_DENY_RULES, bash(command), CTX)).toBe(true);
  });

  it.each(HARMLESS)('let %j through', (command) => {
    expect(denied(STATIC_DENY_RULES, bash(command), CTX)).toBe(false);
  });

  it.each(UNCOVERED)('cannot see %j (said so in SECURITY.md)', (command) => {
    expect(denied(STATIC_DENY_RULES, bash(command), CTX)).toBe(false);
  });

  it('the catch-all carries every runner; without it, the runner spellings pass', () => {
    const without = STATIC_DENY_RULES.filter((r) => r !== 'Bash(*gate-check*--approve*)');
    const through = APPROVALS.filter((c) => !denied(without, bash(c), CTX));
    expect(through).toEqual(expect.arrayContaining(['node ./node_modules/.bin/gate-check --approve', 'pnpm dlx gate-check --approve', 'npx --yes gate-check --approve']));
  });

  it('deny edits of the private store and of every Claude Code settings file, by any file tool', () => {
    for (const path of [
      '/Users/alice/.gate-check/approved/3f2a.json',
      '/Users/alice/.gate-check/hooks/ledgers-0123456789abcdef.json',
      '/Users/alice/.gate-check/receipts/x',
      '/Users/alice/project/.claude/settings.json',
      '/Users/alice/project/.claude/settings.local.json',
      '/Users/alice/.claude/settings.json',
      '/Users/alice/other/deep/.claude/settings.local.json',
    ]) {
      expect(denied(STATIC_DENY_RULES, edit(path), CTX), path).toBe(true);
    }
  });

  it('let edits of the ledgers, the scope ledgers and other files through', () => {
    for (const path of [
      '/Users/alice/project/GATES.md',
      '/Users/alice/project/.gate-check/backend/GATES.md',
      '/Users/alice/.gate-check-notes.txt',
      '/Users/alice/project/.claude/commands/x.md',
      '/Users/alice/project/src/settings.json',
      '/Users/alice/project/.claude/settings.json.gate-check.bak',
    ]) {
      expect(denied(STATIC_DENY_RULES, edit(path), CTX), path).toBe(false);
    }
  });

  it('a private store moved by GATE_CHECK_HOME or GATE_CHECK_APPROVAL_DIR gets a rule of its own', () => {
    expect(storeDenyRules({ HOME: '/Users/alice' })).toEqual([]);
    const env = { HOME: '/Users/alice', GATE_CHECK_HOME: '/srv/gc', GATE_CHECK_APPROVAL_DIR: '/srv/approvals' };
    expect(storeDenyRules(env)).toEqual(['Edit(//srv/gc/**)', 'Edit(//srv/approvals/**)']);
    expect(denied(denyRulesFor(env), edit('/srv/gc/receipts/r.json'), CTX)).toBe(true);
    expect(denied(denyRulesFor(env), edit('/srv/approvals/a.json'), CTX)).toBe(true);
    expect(denied(denyRulesFor(env), edit('/srv/other/a.json'), CTX)).toBe(false);
    // Approvals under the store need no second rule.
    expect(storeDenyRules({ HOME: '/Users/alice', GATE_CHECK_APPROVAL_DIR: '/Users/alice/.gate-check/approved' })).toEqual([]);
  });

  it('do not stop the shell: a Bash command that writes the store is not an Edit', () => {
    expect(denied(STATIC_DENY_RULES, bash('echo {} > ~/.gate-check/approved/x.json'), CTX)).toBe(false);
  });
});
