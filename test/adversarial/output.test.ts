// Nothing gate-check prints can act on its reader: a suggested command pasted into a shell
// runs nothing but gate-check; no ledger text, file name, check output or audit-log entry
// becomes a GitHub Actions workflow command (stdout and stderr parsed back as the runner
// parses them); the job summary renders titles as text; JUnit and annotations carry hostile
// values exactly, as data. Through the real CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { Ajv } from 'ajv';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { appendFileSync, chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubStepSummary } from '../../lib/report/github.js';
import { invocationWords } from '../../lib/program/invocation.js';
import { sanitizeLine } from '../../lib/text/sanitize.js';
import { shellCommand } from '../../lib/text/shell-quote.js';
import { escapeLegacyCommands } from '../../lib/text/workflow-commands.js';
import { runnerCommands, type RunnerCommand } from '../helpers/actions-runner.js';
import { BIN, runCli, sandbox, tempDir, writeFiles, type CliResult } from '../helpers/cli.js';
import { assertReportSchema } from '../helpers/schema.js';

const lintSchema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../references/lint.schema.json'), 'utf8'));
const validateLint = new Ajv({ allErrors: true, strict: true }).compile(lintSchema);

/** Every file a pasted `touch PWNED…` would have made under these directories. */
function pwned(...dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('PWNED')) found.push(join(d, e.name));
      if (e.isDirectory() && !e.isSymbolicLink()) walk(join(d, e.name));
    }
  };
  dirs.forEach(walk);
  return found;
}

describe('suggested commands: pasting one runs gate-check and nothing else', () => {
  const NAMES = ['x;touch PWNED;y', '$(touch PWNED2)', '`touch PWNED3`', 'a b', 'a:b', '::stop-commands::tok', '##[error]x', '-x', 'é', "it's"];

  for (const name of NAMES) {
    it(`a ledger named gates/${name}.md is refused with exit 2 naming it, in every command that reads ledgers`, () => {
      const s = sandbox();
      writeFiles(s.repo, { 'GATES.md': '- [ ] A: a works\n  CHECK: echo ok\n  EXPECT: ok\n', [`gates/${name}.md`]: '- [ ] G1: g works\n  CHECK: echo ok\n  EXPECT: ok\n' });
      for (const args of [['--status'], [], ['--approve'], ['lint'], ['approvals', 'list']]) {
        const r = runCli(args, { cwd: s.repo, env: s.env });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toContain(`gates/${sanitizeLine(name)}.md: ledger name`);
        expect(r.stdout).not.toMatch(/approve exactly those/);
      }
      expect(pwned(s.repo, s.home)).toEqual([]);
      expect(existsSync(join(s.repo, 'GATES.md')) && readFileSync(join(s.repo, 'GATES.md'), 'utf8')).toMatch(/^- \[ \] A:/);
    });
  }

  it('a root and a ledger path full of shell syntax: the suggestion, pasted into sh, approves and runs exactly that gate', () => {
    const s = sandbox();
    const base = tempDir('gc-paste-');
    const root = join(base, "re po;touch PWNED4;$(touch PWNED5)'q`touch PWNED6`");
    const sub = 'sub dir$(touch PWNED7)&&x';
    mkdirSync(join(root, sub), { recursive: true });
    writeFileSync(join(root, sub, 'GATES.md'), '- [ ] A: a works\n  CHECK: echo ok-a\n  EXPECT: ok-a\n');
    const file = join(root, sub, 'GATES.md');
    const first = runCli(['--root', root, '--timeout', '60', file], { cwd: base, env: s.env });
    expect(first.code).toBe(1);
    const rows = first.stdout.split('\n');
    const command = rows[rows.findIndex((l) => l.endsWith('approve exactly those:')) + 1]!.slice(2);
    // It starts gate-check as this run was started (lib/program/invocation.ts): here, node and the bin.
    const start = shellCommand(invocationWords(s.env, BIN, process.execPath, s.repo))!;
    expect(command.startsWith(`${start} `)).toBe(true);
    expect(command.slice(start.length)).toMatch(/^ --approve GATES:A@[0-9a-f]{32} --root '.*' --timeout 60 -- '.*'$/);
    // dash (/bin/sh) hands exactly these words to the command…
    const argv = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${command.slice(start.length + 1)}`], { encoding: 'utf8' }).stdout.split('\0').slice(0, -1);
    expect(argv).toEqual(['--approve', expect.stringMatching(/^GATES:A@[0-9a-f]{32}$/), '--root', root, '--timeout', '60', '--', file]);
    // …and pasted into bash, with the same PATH (part of the oracle), it runs.
    const pasted = spawnSync('/usr/bin/bash', ['-c', command], { cwd: base, env: s.env, encoding: 'utf8' });
    expect(pasted.status, pasted.stderr).toBe(0);
    expect(pasted.stdout).toMatch(/^PASS GATES:A/m);
    expect(readFileSync(file, 'utf8')).toMatch(/^- \[x\] A:/);
    expect(pwned(base)).toEqual([]);
  });

  it('a word that cannot be shown as typed (a newline in the root) gets no command, only the pins', () => {
    const s = sandbox();
    const root = join(tempDir('gc-paste-'), 'two\nlines');
    writeFiles(root, { 'GATES.md': '- [ ] A: a works\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const r = runCli(['--root', root], { cwd: s.repo, env: s.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^APPROVAL REQUIRED: GATES:A@[0-9a-f]{32}$/m);
    const start = shellCommand(invocationWords(s.env, BIN, process.execPath, s.repo))!;
    expect(r.stdout).toContain(`\n  review each command above, then approve exactly those with ${start} --approve ID@HEX,... (a path or id above cannot be shown exactly as typed: write the command yourself)\n`);
  });
});

// ---------------------------------------------------------------------------------------

const HOSTILE_TITLE = '::error::title-forged ##[error]legacy-forged ##[stop-commands]tok1 ##[set-output name=pwn]1 \u00a0::warning::nbsp';
const MARKDOWN_TITLE = 'see [link](https://evil.example) ![img](https://evil.example/i.png) **bold** _em_ `code` <b>x</b> &amp; @someone #1 :smile: www.evil.example http://evil.example a|b \\| ~~s~~';
const HOSTILE_OUTPUT = "printf '::error::out-forged\\n##[error]out-legacy\\n##[stop-commands]tok2\\nx\\r::warning::cr-forged\\n  ::error::indented\\n'; exit 1";

function hostileRepo() {
  const s = sandbox();
  const summary = join(s.home, 'summary.md');
  writeFiles(s.repo, {
    'GATES.md': [
      `- [ ] T1: ${HOSTILE_TITLE}`,
      `  CHECK: ${HOSTILE_OUTPUT}`,
      '  EXPECT: ok',
      `- [ ] T2: ${MARKDOWN_TITLE}`,
      "  CHECK: echo '##[error]in-check-text ::error::x'",
      '  EXPECT: ##[add-mask]secret',
      '- [ ] T3: dependent ##vso[task.setvariable variable=x]y',
      '  CHECK: cat data/*',
      '  EXPECT: one',
      '  DEPENDS: data/*',
      '- [ ] M1: manual ::error::m ##[error]m',
      '',
    ].join('\n'),
    'data/a.txt': 'one\n',
  });
  const env = { ...s.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
  return { ...s, summary, env, run: (args: string[], cwd = s.repo) => runCli(args, { cwd, env }) };
}

const OWN_TITLES = new Set(['GATES:T1', 'GATES:T2', 'GATES:T3', 'GATES:M1', 'gate-check']);

/** The commands the runner would take from a result's stdout and stderr: only gate-check's own annotations. */
function ownCommandsOnly(r: CliResult, what: string): RunnerCommand[] {
  const all = [...runnerCommands(r.stdout), ...runnerCommands(r.stderr)];
  for (const c of all) {
    expect(['error', 'warning'], `${what}: ${c.line}`).toContain(c.command);
    expect(c.form, `${what}: ${c.line}`).toBe('modern');
    expect(OWN_TITLES.has(c.properties.title ?? ''), `${what}: ${c.line}`).toBe(true);
    if (c.properties.file !== undefined) expect(c.properties.file, `${what}: ${c.line}`).toBe('GATES.md');
  }
  return all;
}

describe('on GitHub Actions no untrusted text becomes a workflow command, in any output mode', () => {
  it('status, runs, JSON, lint, approvals, history, merge and errors: only gate-check\'s own annotations, none silenced', () => {
    const s = hostileRepo();
    const plain = s.run([]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('##\\u005b'); // the CHECK text was shown, its legacy command escaped
    ownCommandsOnly(plain, 'plain run');

    const approve = s.run(['--approve']);
    expect(approve.code).toBe(1);
    expect(approve.stdout).toMatch(/^ {2}\| ::error::out-forged$/m);
    const annotated = ownCommandsOnly(approve, '--approve');
    // Not silenced: one error per gate that is not met, the open manual gate included (round-39w W3).
    expect(annotated.filter((c) => c.command === 'error').map((c) => c.properties.title).sort()).toEqual(['GATES:M1', 'GATES:T1', 'GATES:T2']);
    expect(annotated.find((c) => c.properties.title === 'GATES:T1')!.data).toContain(escapeLegacyCommands(sanitizeLine(HOSTILE_TITLE, 200)));

    // A DEPENDS file whose name is a command makes T3 stale: its name is in the reason.
    writeFileSync(join(s.repo, 'data', '##[stop-commands]tok3.txt'), 'one\n');
    writeFileSync(join(s.repo, 'data', '::error::dep.txt'), 'one\n');
    for (const args of [['--status'], ['--status', '--json'], ['--status', '--strict'], ['--approve', '--json'], ['--reverify', '--approve', '--junit', 'j.xml'], ['lint'], ['lint', '--json'], ['approvals', 'list'], ['approvals', 'list', '--json']]) {
      const r = s.run(args);
      expect([0, 1], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
      const own = ownCommandsOnly(r, args.join(' '));
      if (args[0] === '--status' && args.length === 1) {
        expect(r.stdout).toMatch(/DEPENDS changed: data\/##\\u005bstop-commands\]tok3\.txt/);
        expect(own.filter((c) => c.command === 'error').length).toBeGreaterThanOrEqual(2);
      }
    }

    // The audit log is read as hostile: a forged entry cannot start a line with a command.
    const historyDir = join(s.home, '.gate-check', 'history');
    const log = join(historyDir, readdirSync(historyDir)[0]!);
    const forged = { time: '::error::forged-time', file: 'GATES.md', gate: '::stop-commands::tok9', oracle: '##[error]o', status: 'fail', exit: 1, durationMs: 1, outputSha256: null, fingerprint: null };
    appendFileSync(log, JSON.stringify(forged) + '\n' + JSON.stringify({ ...forged, gate: '\u00a0::error title=GATES:T1::forged' }) + '\n');
    for (const args of [['history'], ['history', '--json']]) {
      const r = s.run(args);
      expect(r.code).toBe(0);
      expect(ownCommandsOnly(r, args.join(' '))).toEqual([]);
    }
    expect(s.run(['history']).stdout).toMatch(/^\\::stop-commands::tok9 /m);

    // Errors on stderr: a path the user named, holding commands.
    const missing = s.run(['--status', '##[stop-commands]zz/GATES.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('##\\u005bstop-commands]zz');
    expect(ownCommandsOnly(missing, 'error')).toEqual([]);
  });

  it('merge of hostile shard reports: only its own annotations', () => {
    const s = hostileRepo();
    const reports = [1, 2].map((i) => {
      // Each shard on its own checkout (a run writes evidence into its ledger).
      const checkout = join(s.home, `shard-${i}`);
      cpSync(s.repo, checkout, { recursive: true });
      const r = s.run(['--reverify', '--approve', '--shard', `${i}/2`, '--json'], checkout);
      ownCommandsOnly(r, `shard ${i}`);
      const f = join(s.home, `report-${i}.json`);
      writeFileSync(f, r.stdout);
      return f;
    });
    for (const args of [[], ['--json']]) {
      const r = s.run(['merge', '--shards', '2', ...reports, ...args]);
      expect(r.code).toBe(1);
      const own = ownCommandsOnly(r, `merge ${args.join(' ')}`);
      expect(own.filter((c) => c.command === 'error').map((c) => c.properties.title).sort()).toEqual(['GATES:M1', 'GATES:T1', 'GATES:T2']);
    }
  });

  it('outside CI the output is not escaped (what you see in a terminal is the text)', () => {
    const s = hostileRepo();
    const r = runCli([], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: '' } });
    expect(r.stdout).toContain("echo '##[error]in-check-text ::error::x'");
  });
});

describe('the job summary renders titles as text', () => {
  it('every ASCII punctuation character of a cell is escaped: the rendered cell is the sanitized title', () => {
    const s = hostileRepo();
    s.run(['--status']);
    const md = readFileSync(s.summary, 'utf8');
    const row = md.split('\n').find((l) => l.startsWith('| GATES\\:T2 |'))!;
    const cells = row.slice(2, -2).split(/ (?<!\\)\| /);
    expect(cells).toHaveLength(3);
    // Unescaping CommonMark backslash escapes gives the title back; nothing is left unescaped.
    expect(cells[1]!.replace(/\\([!-/:-@[-`{-~])/g, '$1')).toBe(sanitizeLine(MARKDOWN_TITLE, 300));
    expect(cells[1]!.replace(/\\[!-/:-@[-`{-~]/g, '')).not.toMatch(/[!-/:-@[-`{-~]/);
  });

  it('rendered by a CommonMark/GFM implementation (micromark, when installed): no link, image, emphasis, code or HTML from a title', async () => {
    let render: ((md: string) => string) | null = null;
    try {
      // Named through variables: the modules are optional here, and the typecheck must not need them.
      const [core, ext] = ['micromark', 'micromark-extension-gfm'];
      const { micromark } = (await import(core)) as { micromark: (md: string, o: object) => string };
      const { gfm, gfmHtml } = (await import(ext)) as { gfm: () => object; gfmHtml: () => object };
      render = (md) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    } catch {
      return; // micromark is a development dependency of the parser tests; without it, the check above stands
    }
    const s = hostileRepo();
    s.run(['--status']);
    const html = render(readFileSync(s.summary, 'utf8'));
    expect(html).toMatch(/<table>/);
    expect(html).not.toMatch(/<(a|img|strong|em|code|del|b)[\s>]/);
    expect(html).toContain('see [link](https://evil.example) ![img](https://evil.example/i.png) **bold** _em_ `code` &lt;b&gt;x&lt;/b&gt;');
  });

  it('stays under its cap in bytes, also for multi-byte titles', () => {
    const gates = Array.from({ length: 5000 }, (_, i) => ({ file: 'GATES.md', line: i + 1, id: `G${i}`, qualified: `GATES:G${i}`, title: '日'.repeat(300), kind: 'manual' as const, definition: null, state: 'unmet' as const, stateReason: null, checked: false, verification: null, verificationReason: null, result: null }));
    const md = githubStepSummary({ schema: 'gate-check/report@1', mode: 'status', exitCode: 1, root: '/r', files: [], ledgers: [], shard: null, scope: null, waves: [], scopes: [], summary: { total: 0, met: 0, unmet: 0, claimed: 0, abandoned: 0, verified: 0, unverified: 0, mismatched: 0, stale: 0, manual: 0 }, warnings: [], errors: [], gates }, false);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(256 * 1024);
    expect(md).toMatch(/more gates not shown/);
  });
});

describe('JUnit and annotations carry hostile values exactly, as data', () => {
  it('a hostile ledger path and title: the XML parses back to the sanitized values; the annotation properties to the path', () => {
    const s = sandbox();
    const dir = `d"<&>'x,y:z%25 ]]>`;
    // <b> closed on its line: an unclosed one is a parse error (a browser carries it into the gates after it).
    const title = `]]> <b>&"' \u001b[31mred\u001b[0m \u0008\ufffe ::error::t</b>`;
    writeFiles(s.repo, { [`${dir}/GATES.md`]: `- [ ] A: ${title}\n  CHECK: echo nope\n  EXPECT: yes\n` });
    const file = `${dir}/GATES.md`;
    const env = { ...s.env, GITHUB_ACTIONS: 'true' };
    const r = runCli(['--approve', '--root', '.', '--junit', 'j.xml', file], { cwd: s.repo, env });
    expect(r.code).toBe(1);
    const xml = readFileSync(join(s.repo, 'j.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(xml);
    const suite = doc.testsuites.testsuite[0];
    const clean = (t: string) => sanitizeLine(t, 1000).replace(/\ufffe/g, '');
    expect(suite.name).toBe(clean(file));
    expect(suite.testcase[0]).toMatchObject({ classname: 'GATES', name: clean(`A: ${title}`), file: clean(file), line: '1' });
    expect(suite.testcase[0].failure.message).toMatch(/^EXPECT not found in the output/);
    const [annotation] = runnerCommands(r.stdout);
    expect(annotation).toMatchObject({ command: 'error', properties: { file: sanitizeLine(file, 300), line: '1', title: 'GATES:A' } });
    expect(annotation!.data).toBe(`GATES:A: ${sanitizeLine(title, 200)}: EXPECT not found in the output (5 bytes): EXPECT: yes`);
    expect(runnerCommands(r.stdout)).toHaveLength(1);
  });
});

describe('qualified ids keep the report and lint schemas true', () => {
  it('a ":" in a ledger file name is refused (exit 2); the error documents match their schemas', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] A: t\n', 'gates/a:b.md': '- [ ] B: t\n' });
    const status = runCli(['--status', '--json'], { cwd: s.repo, env: s.env });
    expect(status.code).toBe(2);
    const doc = JSON.parse(status.stdout);
    assertReportSchema(doc);
    expect(doc.errors[0]).toMatchObject({ file: 'gates/a:b.md' });
    const lint = runCli(['lint', '--json'], { cwd: s.repo, env: s.env });
    expect(lint.code).toBe(2);
    expect(validateLint(JSON.parse(lint.stdout)), JSON.stringify(validateLint.errors)).toBe(true);
  });

  it('every qualified id of a valid multi-ledger workspace matches both schemas', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] A: t\n  CHECK: echo ok\n  EXPECT: ok\n',
      'gates/v1.2-x_y.md': '- [ ] B.1: the gate works\n  CHECK: exit 0\n  EXPECT: ok\n- [ ] M: manual\n',
    });
    const status = runCli(['--status', '--json'], { cwd: s.repo, env: s.env });
    const doc = JSON.parse(status.stdout);
    assertReportSchema(doc);
    expect(doc.gates.map((g: { qualified: string }) => g.qualified)).toEqual(['GATES:A', 'v1.2-x_y:B.1', 'v1.2-x_y:M']);
    const lint = JSON.parse(runCli(['lint', '--json'], { cwd: s.repo, env: s.env }).stdout);
    expect(validateLint(lint), JSON.stringify(validateLint.errors)).toBe(true);
    expect(lint.findings.length).toBeGreaterThan(0);
  });
});

// Round-39v V5: a failing check wrote a green table and an unclosed `<!--` to the job summary,
// and gate-check's own "gates not met" table then sat inside the comment. Checks never get
// the workflow's file commands (summary, outputs, the next steps' environment and PATH).
const PUT_BACK = 'gate-check: the job summary was changed while the checks ran; it was put back as it was before they started, then gate-check wrote its table';

describe("a check cannot write the workflow's files", () => {
  it('GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and GITHUB_STATE are unset in the check; the summary is gate-check\'s alone', () => {
    const s = sandbox();
    const dir = tempDir();
    const files = Object.fromEntries(['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'].map((k) => [k, join(dir, k)]));
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the check sees no workflow file\n  CHECK: sh probe.sh\n  EXPECT: none none none none none\n',
      'probe.sh': 'for f in "$GITHUB_STEP_SUMMARY" "$GITHUB_OUTPUT" "$GITHUB_ENV" "$GITHUB_PATH" "$GITHUB_STATE"; do [ -n "$f" ] && printf "| fake | all gates met |\\n<!--\\n" >> "$f"; done\necho "${GITHUB_STEP_SUMMARY:-none} ${GITHUB_OUTPUT:-none} ${GITHUB_ENV:-none} ${GITHUB_PATH:-none} ${GITHUB_STATE:-none}"\n',
    });
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: 'true', ...files } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const [k, f] of Object.entries(files)) if (k !== 'GITHUB_STEP_SUMMARY') expect(existsSync(f), k).toBe(false);
    const summary = readFileSync(files.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).not.toMatch(/fake|<!--/);
    expect(summary).toMatch(/^### gate-check: all gates met/m);
  });

  // Round-39w W1: the check read the summary's path from gate-check's own environment in
  // /proc (its initial environment, which no unsetting changes) and wrote there anyway.
  it('what a check wrote to the job summary through /proc is removed before gate-check appends; what was there before stays', () => {
    const s = sandbox();
    const summary = join(tempDir(), 'summary.md');
    writeFileSync(summary, 'an earlier step wrote this\n');
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the check fails\n  CHECK: sh forge.sh; exit 1\n  EXPECT: never\n',
      'forge.sh':
        "p=$$\nwhile [ \"$p\" -gt 1 ]; do\n  f=$(tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | sed -n 's/^GITHUB_STEP_SUMMARY=//p')\n  if [ -n \"$f\" ]; then printf '| GATES:G1 | all gates met | passed |\\n<!--\\n' >> \"$f\"; echo forged; break; fi\n  p=$(awk '{print $4}' /proc/$p/stat)\ndone\n",
    });
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(PUT_BACK);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('an earlier step wrote this\n### gate-check: gates not met')).toBe(true);
    expect(text).not.toMatch(/<!--|all gates met \|/);
  });

  // Round-39x X2: after forging, the check took the file's write permission away (gate-check
  // could not append: exit 2, and the page showed the forged table), or put a link to a forged
  // file or a FIFO in its place.
  for (const [how, after] of [
    ['its mode taken away', 'chmod 0444 "$f"'],
    ['a link to a forged file in its place', 'printf "| GATES:G1 | all gates met | passed |\\n" > "$f.fake"; rm -f "$f"; ln -s "$f.fake" "$f"'],
    ['a FIFO in its place', 'rm -f "$f"; mkfifo "$f"'],
  ] as const) {
    it(`the job summary with ${how} while the checks ran is put back, with gate-check's table after it`, () => {
      const s = sandbox();
      const summary = join(tempDir(), 'summary.md');
      writeFileSync(summary, 'an earlier step wrote this\n');
      writeFiles(s.repo, {
        'GATES.md': '- [ ] G1: the check fails\n  CHECK: sh forge.sh; exit 1\n  EXPECT: never\n',
        'forge.sh': `p=$$\nwhile [ "$p" -gt 1 ]; do\n  f=$(tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | sed -n 's/^GITHUB_STEP_SUMMARY=//p')\n  if [ -n "$f" ]; then printf '| GATES:G1 | all gates met | passed |\\n<!--\\n' >> "$f"; ${after}; echo forged; break; fi\n  p=$(awk '{print $4}' /proc/$p/stat)\ndone\n`,
      });
      const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(PUT_BACK);
      const st = lstatSync(summary);
      expect(st.isFile()).toBe(true);
      // Put in place anew (0644), or rewritten through the descriptor held open (its mode as the check left it).
      if (how !== 'its mode taken away') expect(st.mode & 0o777).toBe(0o644);
      const text = readFileSync(summary, 'utf8');
      expect(text.startsWith('an earlier step wrote this\n### gate-check: gates not met')).toBe(true);
      expect(text).not.toMatch(/<!--|all gates met \|/);
    });
  }

  // Round-39y Y3: after forging, the check took the write permission of the summary's folder
  // away: gate-check could not make the file it renames into place (exit 2), and the page
  // showed the forged table. The file is held open from before the checks. (Run as a user
  // whose permissions the kernel checks: root's are not.)
  // Round-39z Z2: or renamed a forged file over it first.
  for (const [how, after] of [
    ["its folder's and its own write permission taken away", 'chmod 0444 "$f"; chmod 0555 "$(dirname "$f")"'],
    ['a forged file renamed over it, then that file\'s and the folder\'s write permission taken away', 'printf "| GATES:G1 | all gates met | passed |\\n" > "$f.new"; mv "$f.new" "$f"; chmod 0444 "$f"; chmod 0555 "$(dirname "$f")"'],
  ] as const) it(`the job summary with ${how} is put back as it was, with the table after it`, () => {
    const s = sandbox();
    const dir = tempDir();
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'an earlier step wrote this\n');
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the check fails\n  CHECK: sh forge.sh; exit 1\n  EXPECT: never\n',
      'forge.sh': `p=$$\nwhile [ "$p" -gt 1 ]; do\n  f=$(tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | sed -n 's/^GITHUB_STEP_SUMMARY=//p')\n  if [ -n "$f" ]; then printf '| GATES:G1 | all gates met | passed |\\n<!--\\n' >> "$f"; ${after}; echo forged; break; fi\n  p=$(awk '{print $4}' /proc/$p/stat)\ndone\n`,
    });
    const asUser = process.getuid?.() === 0 ? { uid: 54321, gid: 54321 } : {};
    if (asUser.uid !== undefined) for (const d of [s.repo, s.home, dir, join(s.repo, '..')]) execFileSync('chown', ['-R', '54321:54321', d]);
    try {
      const r = spawnSync(process.execPath, [BIN, '--approve'], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }, encoding: 'utf8', timeout: 60_000, ...asUser });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^  \| forged$/m);
      expect(r.stderr).toContain(PUT_BACK);
      const text = readFileSync(summary, 'utf8');
      expect(text.startsWith('an earlier step wrote this\n### gate-check: gates not met')).toBe(true);
      expect(text).not.toMatch(/<!--|all gates met \|/);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  // Left in round 39z's note: a run that stopped with exit 2 after its checks (here the check
  // also replaced the receipts folder, so the receipt could not be written) left the table the
  // check forged standing on the CI page. It is put back, with a section that gives no verdict.
  it('a run that stops with an error after its checks puts the job summary back, with no verdict', () => {
    const s = sandbox();
    const summary = join(tempDir(), 'summary.md');
    writeFileSync(summary, 'an earlier step wrote this\n');
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the check passes\n  CHECK: sh forge.sh; echo ok\n  EXPECT: ok\n',
      'forge.sh': `p=$$\nwhile [ "$p" -gt 1 ]; do\n  f=$(tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | sed -n 's/^GITHUB_STEP_SUMMARY=//p')\n  if [ -n "$f" ]; then printf '| GATES:G1 | all gates met | passed |\\n<!--\\n' >> "$f"; break; fi\n  p=$(awk '{print $4}' /proc/$p/stat)\ndone\nmv "$HOME/.gate-check/receipts" "$HOME/receipts.old"; mkdir -m 700 "$HOME/.gate-check/receipts"\n`,
    });
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/receipts\S*: was replaced while in use/);
    expect(r.stderr).toContain(PUT_BACK.replace(/table$/, 'error'));
    const text = readFileSync(summary, 'utf8');
    expect(text).toMatch(/^an earlier step wrote this\n### gate-check: error, no verdict \(approve\)\n\ngate-check stopped with exit 2: \S*receipts\S* was replaced while in use/);
    expect(text).not.toMatch(/<!--|all gates met/);
  });

  it('a job summary nobody touched gets the table after what was there, and no note', () => {
    const s = sandbox();
    const summary = join(tempDir(), 'summary.md');
    writeFileSync(summary, 'an earlier step wrote this\n');
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: passes\n  CHECK: echo ok\n  EXPECT: ok\n' });
    const r = runCli(['--approve'], { cwd: s.repo, env: { ...s.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('job summary');
    expect(readFileSync(summary, 'utf8')).toMatch(/^an earlier step wrote this\n### gate-check: all gates met/);
  });
});
