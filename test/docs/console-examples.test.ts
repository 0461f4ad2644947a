// The console examples of README.md and references/approval.md run as written (see
// helpers/console-doc.ts for what is put in the page's place). Each block's set-up, which
// the page describes in words, is built here from the bundled example.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { consoleBlocks, docRepo, runSteps, steps, type DocRepo } from '../helpers/console-doc.js';
import { handWrittenMet } from '../helpers/ledger.js';

const PROJECT = resolve(import.meta.dirname, '../..');
const EXAMPLE_LEDGER = readFileSync(resolve(PROJECT, 'examples/GATES.md'), 'utf8');
const EXAMPLE_SCRIPT = readFileSync(resolve(PROJECT, 'examples/scripts/greet.mjs'), 'utf8');

function expectAsShown(r: DocRepo, block: string): void {
  for (const step of runSteps(r, block)) {
    if (process.env.SHOW_DOC_OUTPUT) console.log(`$ ${step.command}\n${step.actual.join('\n')}`);
    if (step.expected.length === 0) expect(step.status, `${step.command}\n${step.actual.join('\n')}`).toBe(0);
    else expect(step.actual, step.command).toEqual(step.expected);
  }
}

describe('README.md', () => {
  const blocks = consoleBlocks('README.md');

  it('has the two console blocks this test runs', () => {
    expect(blocks).toHaveLength(2);
  });

  it('set-up: the status of the bundled example, from a checkout', () => {
    const [step, ...rest] = steps(blocks[0]!);
    expect(rest).toEqual([]);
    expect(step!.command).toBe('./bin/gate-check.js --status --root examples');
    const r = spawnSync('/bin/sh', ['-c', `${step!.command.replace('./bin/gate-check.js', `"${process.execPath}" "${BIN}"`)} 2>&1`], { cwd: PROJECT, encoding: 'utf8' });
    expect(r.stdout.split('\n').filter((l) => l !== '')).toEqual(step!.expected);
  });

  it('"Evidence you can verify": the example after its gates passed, its script was edited and a G4 was ticked by hand', () => {
    const r = docRepo();
    r.write({ 'GATES.md': EXAMPLE_LEDGER, 'scripts/greet.mjs': EXAMPLE_SCRIPT });
    expect(r.sh('gate-check --approve').status).toBe(0 + 1); // G3 is a person's
    const ledger = readFileSync(resolve(r.repo, 'GATES.md'), 'utf8').replace('- [ ] G3: the greeting wording is approved by the product owner\n  EVIDENCE: pending', '- [x] G3: the greeting wording is approved by the product owner\n  EVIDENCE: approved by Dana in review 12');
    r.write({
      'GATES.md': `${ledger}\n${handWrittenMet('G4', 'import handles empty files', 'node scripts/greet.mjs --name ""', 'Hello')}`,
      'scripts/greet.mjs': `${EXAMPLE_SCRIPT}// edited\n`,
    });
    expectAsShown(r, blocks[1]!);
  });
});

describe('references/approval.md', () => {
  const blocks = consoleBlocks('references/approval.md');

  it('has the two console blocks this test runs', () => {
    expect(blocks).toHaveLength(2);
  });

  it('"The workflow": the example with its first gate only', () => {
    const r = docRepo();
    r.write({ 'GATES.md': EXAMPLE_LEDGER.slice(0, EXAMPLE_LEDGER.indexOf('- [ ] G2')), 'scripts/greet.mjs': EXAMPLE_SCRIPT });
    expectAsShown(r, blocks[0]!);
  });

  it('"approvals list": one gate approved, one approved for another CHECK, one never, one that cannot be resolved', () => {
    const r = docRepo();
    const g1 = EXAMPLE_LEDGER.slice(EXAMPLE_LEDGER.indexOf('- [ ] G1'), EXAMPLE_LEDGER.indexOf('- [ ] G3'));
    r.write({ 'GATES.md': `# Gates\n\n${g1}`, 'scripts/greet.mjs': EXAMPLE_SCRIPT });
    expect(r.sh('gate-check --approve').status).toBe(0);
    const edited = readFileSync(resolve(r.repo, 'GATES.md'), 'utf8').replace('CHECK: node scripts/greet.mjs --version', 'CHECK: node scripts/greet.mjs --version --quiet');
    r.write({
      'GATES.md':
        `${edited}\n- [ ] G3: the greeting script greets a second name\n  CHECK: node scripts/greet.mjs --name Bo\n  EXPECT: Hello, Bo!\n` +
        `\n- [ ] G4: every fixture greets\n  CHECK: node scripts/greet.mjs --name Ada\n  EXPECT: Hello\n  DEPENDS: fixtures/*.json\n`,
    });
    expectAsShown(r, blocks[1]!);
  });
});

describe('references/diff.md', () => {
  const blocks = consoleBlocks('references/diff.md');

  it('the opening example: a gate removed, one handed off, a CHECK changed and one moved, against origin/main', () => {
    expect(blocks).toHaveLength(1);
    const r = docRepo();
    const manual = (id: string, title: string) => `- [ ] ${id}: ${title}\n`;
    r.write({
      'GATES.md':
        '# Gates\n' +
        '- [ ] G1: tests pass\n  CHECK: npm test\n  EXPECT: ok\n' +
        '- [ ] G2: build works\n  CHECK: npm run build\n  EXPECT: built\n' +
        manual('M1', 'legal reviewed the wording') +
        '- [ ] G7: docs build\n  CHECK: npm run docs\n  EXPECT: docs built\n' +
        manual('G3', 'the changelog names the change') +
        manual('G4', 'support was told') +
        manual('G5', 'the release notes are written'),
    });
    const git = (args: string) => expect(r.sh(`git ${args}`).status, args).toBe(0);
    git('init -q -b main');
    git('add -A');
    git('-c user.name=me -c user.email=me@example.com commit -qm base');
    git('update-ref refs/remotes/origin/main HEAD');
    r.write({
      'GATES.md':
        '# Gates\n' +
        '- [ ] G1: tests pass\n  CHECK: npm test -- --bail\n  EXPECT: ok\n' +
        manual('M1', 'legal reviewed the wording') +
        manual('G3', 'the changelog names the change') +
        manual('G4', 'support was told') +
        manual('G5', 'the release notes are written') +
        '\nABANDON: M1 legal is on holiday\n',
      'gates/docs.md': '# Docs\n\nThe documentation site.\n- [ ] G7: docs build\n  CHECK: npm run docs\n  EXPECT: docs built\n',
    });
    expectAsShown(r, blocks[0]!);
  });
});

