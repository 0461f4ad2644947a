// What the reviewer reads is what gate-check sees (issue 9 §1). Each reproduced disagreement
// between a renderer (GFM with raw HTML, then a browser's HTML parser) and the parser goes
// through the real CLI: it must exit 2 naming the line, never report the gates it could not
// see as met. Then a differential property test against micromark + parse5 over generated
// ledgers; `npm run fuzz:parser -- --runs N` runs it longer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLedger } from '../../lib/ledger/parse.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';
import { disagreement, disguisedAttributeLedger, hidingValueLedger, ledgerDocument, pageAttributeNames } from '../helpers/ledger-docs.js';
import { render, struckText } from '../helpers/render.js';

function status(ledger: string, args: string[] = ['--status']) {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': ledger, 't.txt': 'x' });
  return runCli(args, { cwd: s.repo, env: s.env, timeoutMs: 15_000 });
}

const MET = '- [x] G1: done\n  EVIDENCE: exit=0\n';

interface Case {
  name: string;
  ledger: string;
  /** What the page shows: the top-level task items a reader sees, outside any collapsed element. */
  page: string[];
  line: number;
  error: RegExp;
}

const cases: Case[] = [
  {
    name: 'a fence opened inside a list item (renderers end it with the item: G2 shows open)',
    ledger: `${MET}  \`\`\`\n- [ ] G2: open\n\`\`\`\n`,
    page: ['G1', 'G2'],
    line: 3,
    error: /indented code fence/,
  },
  {
    name: 'a fence four columns in under a gate line (a fence inside the item, not indented code)',
    ledger: `${MET}    \`\`\`\n- [ ] G2: open\n\`\`\`\n`,
    page: ['G1', 'G2'],
    line: 3,
    error: /indented code fence/,
  },
  {
    name: 'a whole runnable gate inside <div title="…"> spanning lines',
    ledger: `${MET}\n<div title="\n\n- [ ] G2: hidden\n  CHECK: node t.txt\n  EXPECT: x\n\n">\n`,
    page: ['G1'],
    line: 4,
    error: /raw HTML <div>/,
  },
  {
    name: 'a whole runnable gate after "<!-- x --> <!--" on one line',
    ledger: `${MET}\n<!-- x --> <!--\n\n- [ ] G2: hidden\n  CHECK: node t.txt\n  EXPECT: x\n\n-->\n`,
    page: ['G1'],
    line: 4,
    error: /HTML comment after the end of an HTML comment/,
  },
  {
    name: "a visible gate's CHECK/EXPECT hidden by an inline <!-- … -->",
    ledger: '- [x] G1: looks manual <!--\n  CHECK: node t.txt\n  EXPECT: x\n  -->\n  EVIDENCE: exit=0\n',
    page: ['G1'],
    line: 1,
    error: /HTML comment at column 24/,
  },
  {
    name: "a visible gate's CHECK/EXPECT hidden by a link reference definition's title",
    ledger: '- [x] G1: looks manual\n\n  [x]: /u "\n  CHECK: node t.txt\n  EXPECT: x\n  "\n  EVIDENCE: exit=0\n',
    page: ['G1'],
    line: 3,
    error: /link reference definition/,
  },
  {
    name: "a visible gate's CHECK/EXPECT hidden by <span title=\"",
    ledger: '- [x] G1: looks manual <span title="\n  CHECK: node t.txt\n  EXPECT: x\n  ">.</span>\n  EVIDENCE: exit=0\n',
    page: ['G1'],
    line: 1,
    error: /raw HTML <span that may continue/,
  },
  {
    name: 'a closing fence followed by NBSP (CommonMark does not close there: the gate is example code)',
    ledger: '```\nexample\n```\u00a0\n- [ ] G1: live\n  CHECK: node t.txt\n  EXPECT: x\n```\n```\u00a0\n',
    page: [],
    line: 8,
    error: /unclosed code fence/,
  },
  {
    name: 'task items nested on one line: - - [ ]',
    ledger: `${MET}- - [ ] G2: nested\n`,
    page: ['G1'],
    line: 3,
    error: /nested task item/,
  },
  {
    name: 'task items nested on one line: * - [ ]',
    ledger: `${MET}* - [ ] G2: nested\n`,
    page: ['G1'],
    line: 3,
    error: /nested task item/,
  },
  {
    name: 'task items nested on one line: - > - [ ]',
    ledger: `${MET}- > - [ ] G2: quoted\n`,
    page: ['G1'],
    line: 3,
    error: /task item inside a block quote/,
  },
  {
    name: 'a runnable gate collapsed inside <details>',
    ledger: `${MET}\n<details>\n\n- [ ] G2: collapsed\n  CHECK: node t.txt\n  EXPECT: x\n\n</details>\n`,
    page: ['G1'],
    line: 4,
    error: /raw HTML <details>/,
  },
  {
    name: 'a setext underline under the gate (the gate renders as a heading, not a task)',
    ledger: '- [x] G1: done\n  CHECK: node t.txt\n  EXPECT: x\n  ---\n  EVIDENCE: exit=0\n',
    page: [],
    line: 4,
    error: /row of "-" or "="/,
  },
  {
    name: 'a setext underline after a lazy continuation line',
    ledger: '- [x] G1: done\nlazy text\n  ===\n',
    page: [],
    line: 3,
    error: /row of "-" or "="/,
  },
  {
    name: 'a table delimiter row under the gate',
    ledger: '- [x] G1: a | b\n  --|--\n  EVIDENCE: exit=0\n',
    page: [],
    line: 2,
    error: /row of "-" or "="/,
  },
  {
    name: 'an HTML comment in a list item cut off by the item’s end (the browser keeps hiding)',
    ledger: `${MET}  <!--\n- [ ] G2: hidden by the browser\n  -->\n`,
    page: ['G1'],
    line: 4,
    error: /indented less than the HTML comment/,
  },
  {
    name: 'an HTML comment that a browser ends at --!>',
    ledger: `${MET}<!--\n--!>\n- [ ] G2: shown as text\n-->\n`,
    page: ['G1'],
    line: 4,
    error: /"--!>"/,
  },
  {
    name: 'an attribute indented by one space after a blank line (outside the item on the page)',
    ledger: '- [x] G1: done\n\n CHECK: node t.txt\n  EXPECT: x\n  EVIDENCE: exit=0\n',
    page: ['G1'],
    line: 3,
    error: /indent CHECK by at least two spaces/,
  },
  {
    name: 'F2: an inline link in a CHECK hides "|| echo …" in its destination (the page shows CHECK: node --test "")',
    ledger: '# Gates\n\n- [ ] G1: the unit tests pass\n  CHECK: node --test "[](<" || echo "# fail 0 >)"\n  EXPECT: # fail 0\n  EVIDENCE: pending\n',
    page: ['G1'],
    line: 4,
    error: /CHECK contains an inline link or image \("\]\("\) at column 24: on the rendered page only its text is shown/,
  },
  {
    name: 'F2: a link title and an image description hide commands',
    ledger: `- [ ] G2: t2\n  CHECK: echo '[ok](x "';echo HIDDEN2;echo '")'\n  EXPECT: ok\n- [ ] G3: t3\n  CHECK: echo '![ok](<';echo HIDDEN3;echo '>)'\n  EXPECT: ok\n`,
    page: ['G2', 'G3'],
    line: 2,
    error: /GATES\.md:5: CHECK contains an image/,
  },
  {
    name: 'F3: CHECK\\: and &#67;HECK: render as attributes; ticked with evidence-looking lines they were ALL MET',
    ledger: '# Gates\n\n- [x] G1: the unit tests pass\n  CHECK\\: node --test\n  EXPECT\\: # fail 0\n  EVIDENCE: exit=0; def=3f9a1c0e2b7d; match=9f86d081884c; receipt=5749749392c8\n- [x] G2: the build succeeds\n  &#67;HECK: npm run build\n  &#69;XPECT: /built in \\d+ ms/\n  EVIDENCE: exit=0; def=0c1d2e3f4a5b; match=1a2b3c4d5e6f; receipt=6f5e4d3c2b1a\n',
    page: ['G1', 'G2'],
    line: 4,
    error: /this line renders as "CHECK:" but is written with a backslash escape[^]*GATES\.md:8: this line renders as "CHECK:" but is written with a character reference/,
  },
  {
    name: 'F3: **CHECK:**, `EXPECT:` and <b>CHECK:</b> render as attributes',
    ledger: '- [x] G1: the unit tests pass\n  **CHECK:** node --test\n  `EXPECT:` # fail 0\n  EVIDENCE: ran it\n- [x] G2: t\n  <b>CHECK:</b> x\n  C<b></b>HECK: y\n  EVIDENCE: ran it\n',
    page: ['G1', 'G2'],
    line: 2,
    error: /written with emphasis or code[^]*GATES\.md:6: this line renders as "CHECK:" but is written with inline HTML/,
  },
  {
    name: 'F3: RLO-reversed CHECK and EXPECT lines (a browser shows them the right way round)',
    ledger: `- [x] G1: the unit tests pass\n  \u202e0 liaf # :TCEPXE\u202c\n  \u202etset-- edon :KCEHC\u202c\n  EVIDENCE: ran it\n`,
    page: ['G1'],
    line: 2,
    error: /bidi control U\+202E RIGHT-TO-LEFT OVERRIDE at column 3/,
  },
  {
    name: 'F4: 25 nested <sub> shrink "|| echo "# fail 0"" in a CHECK to an invisible speck',
    ledger: `# Gates\n\n- [ ] G1: the unit tests pass\n  CHECK: node --test ${'<sub>'.repeat(25)}|| echo "# fail 0"${'</sub>'.repeat(25)}\n  EXPECT: # fail 0\n  EVIDENCE: pending\n`,
    page: ['G1'],
    line: 4,
    error: /CHECK contains raw HTML \(tag <sub>\) at column 22/,
  },
  // Round-39t T1: cmark-gfm (GitHub) reads \v and \f as blanks where micromark and CommonMark
  // 0.31 do not, so the render helper shows the whole gate; GitHub showed `CHECK: sh api.sh`
  // (the rest sat in table cells past the header's count) and hid the CWD line in a title.
  {
    name: 'T1: a note row `|-\\v|` is a table divider on GitHub, which hides the end of the CHECK',
    ledger: '- [ ] G1: the api works\n  EXPECT: ok\n  | reviewed by |\n  |-\v|\n  CHECK: sh api.sh | sh tools/evil/api.sh\n',
    page: ['G1'],
    line: 4,
    error: /U\+000B \(a control character\) at column 5: GitHub reads it as a blank where gate-check does not/,
  },
  {
    name: 'T1: `<span\\ftitle="` opens a tag on GitHub, whose title hides a CWD line',
    ledger: '- [ ] G1: the api works\n  CHECK: sh api.sh\n  EXPECT: ok\n  see the notes <span\ftitle="\n  CWD: tools/evil\n  ">\n',
    page: ['G1'],
    line: 4,
    error: /U\+000C \(a control character\) at column 22: [^]*refused anywhere in a ledger/,
  },
  {
    name: 'YAML front matter (GitHub renders it as a table)',
    ledger: '---\n- [x] G1: done\n  EVIDENCE: exit=0\n---\n',
    page: ['G1'],
    line: 1,
    error: /must not start with "---"/,
  },
];

describe('renderer disagreements are refused with exit 2 and the line', () => {
  for (const c of cases) {
    it(c.name, () => {
      // The reproduction: what the page shows.
      const view = render(c.ledger);
      expect(view.tasks.filter((t) => t.topLevel && !t.collapsed).map((t) => t.text.split(':')[0])).toEqual(c.page);
      const r = status(c.ledger);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`GATES\\.md:${c.line}: `));
      expect(r.stderr).toMatch(c.error);
      expect(r.stdout).not.toMatch(/ALL MET/);
    });
  }

  it('before: the fence-in-item ledger was ALL MET with G2 open on the page; now --status --strict, lint and --status --json refuse it too', () => {
    const ledger = cases[0]!.ledger;
    for (const args of [['--status', '--strict'], ['lint'], ['--status', '--json']]) {
      const r = status(ledger, args);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it('what is not raw HTML stays allowed: escaped \\<div>, entities, autolinks, block comments, fences at column 0', () => {
    const ledger = [
      '<!-- a note -->',
      '',
      '- [ ] G1: the \\<div> element is escaped, &lt;b&gt; too, <https://example.com> is a link',
      '  CHECK: grep -c "a < b" t.txt',
      '  EXPECT: 1',
      '  <!--',
      '  a comment inside the gate',
      '  -->',
      '',
      '```',
      '- [ ] EX: an example, not a gate',
      '```',
      '',
    ].join('\n');
    const parsed = parseLedger(ledger);
    expect(parsed.ok, parsed.ok ? '' : JSON.stringify(parsed.errors)).toBe(true);
    expect(disagreement(ledger)).toBeNull();
    expect(status(ledger).code).toBe(1);
  });
});

describe('differential property: gate-check and a GFM renderer agree on every gate', () => {
  const runs = Number(process.env.GATE_CHECK_FUZZ_RUNS ?? 1000);
  it(`${runs} generated ledgers: every task item on the page is a gate (or the ledger is refused), every gate and attribute is visible`, () => {
    let accepted = 0;
    let gates = 0;
    fc.assert(
      fc.property(ledgerDocument, (doc) => {
        const parsed = parseLedger(doc);
        if (parsed.ok) {
          accepted++;
          gates += parsed.ledger.gates.length;
        }
        const d = disagreement(doc);
        if (d) throw new Error(`${d}\nledger: ${JSON.stringify(doc)}`);
      }),
      { numRuns: runs },
    );
    if (process.env.GATE_CHECK_FUZZ_RUNS) console.log(`fuzz:parser runs=${runs} accepted=${accepted} gates=${gates} refused=${runs - accepted}`);
    // The generator must produce accepted ledgers, or the property proves nothing.
    expect(accepted).toBeGreaterThan(runs / 10);
  }, 600_000);
});

describe('differential property: links, images, autolinks, HTML and references in values', () => {
  it('every generated value that hides text on the page is refused (or the page shows it all)', () => {
    fc.assert(
      fc.property(hidingValueLedger, (doc) => {
        const d = disagreement(doc);
        if (d) throw new Error(`${d}\nledger: ${JSON.stringify(doc)}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('differential property: attribute names that the page shows inside titles, notes and values', () => {
  it('every gate whose page text reads as one more attribute than gate-check read is refused', () => {
    let refused = 0;
    fc.assert(
      fc.property(disguisedAttributeLedger, (doc) => {
        if (!parseLedger(doc).ok) refused++;
        const d = disagreement(doc);
        if (d) throw new Error(`${d}\nledger: ${JSON.stringify(doc)}`);
      }),
      { numRuns: 600 },
    );
    // Most generated names read as attributes: the property must see refusals, or it proves nothing.
    expect(refused).toBeGreaterThan(300);
  });

  it('before: a manual gate whose title shows "CHECK: … EXPECT: …" (written CHECK&#58;) was ALL MET under --status --strict; now it is refused with its column', () => {
    const ledger = '- [x] G1: the suite passes CHECK&#58; node --test EXPECT&#58; /^# pass [1-9]/m\n  EVIDENCE: exit=0\n';
    expect(pageAttributeNames(render(ledger).tasks[0]!.text)).toBe(3);
    const r = status(ledger, ['--status', '--strict']);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md:1: "CHECK:" \(as the page shows it; written with a character reference\) at column 28 inside a title/);
    expect(r.stdout).not.toMatch(/ALL MET/);
  });
});

describe('differential property: strikethrough that runs from one line of a gate into another (reviewer-fidelity attack A2)', () => {
  const tildes = fc.constantFrom('~', '~~', '~~~', '\\~', ' ~', '~ ', 'a~', '~a', '(~', '~)');
  const text = fc.array(fc.oneof(fc.constantFrom('ran', 'in', 'x', 'old', '/tmp', 'ok', '#'), tildes), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' ').replace(/ {2,}/g, ' ').trim() || 'x');
  const doc = fc
    .tuple(text, fc.array(fc.tuple(fc.constantFrom('CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'note'), text), { minLength: 1, maxLength: 5 }))
    .map(([title, lines]) => {
      const seen = new Set<string>();
      const body = lines.filter(([k]) => k === 'note' || (!seen.has(k) && seen.add(k))).map(([k, v]) => (k === 'note' ? `  about it: ${v}` : `  ${k}: ${v}`));
      return `- [ ] G1: ${title}\n${body.join('\n')}\n`;
    });
  it('when gate-check accepts a gate, no attribute it read is shown struck out', () => {
    let refused = 0;
    fc.assert(
      fc.property(doc, (ledger) => {
        const parsed = parseLedger(ledger);
        if (!parsed.ok) {
          refused++;
          return;
        }
        const struck = struckText(ledger).join(' | ');
        for (const k of Object.keys(parsed.ledger.gates[0]!.attributeLines)) {
          if (new RegExp(`(^|\\s)${k}:`).test(struck)) throw new Error(`${k} is struck out on the page (${JSON.stringify(struck)}) and gate-check accepted ${JSON.stringify(ledger)}`);
        }
      }),
      { numRuns: 1500 },
    );
    expect(refused).toBeGreaterThan(20);
  });

  it('before: a live CWD under a "~~" opened on the note above it was accepted; now the line of the opening tildes is named', () => {
    const ledger = '- [ ] G1: the test suite passes\n  CHECK: node --test\n  EXPECT: ok\n  legacy (removed, ignore): ~~ran in\n  CWD: fixtures/fake~~\n';
    expect(struckText(ledger)).toEqual(['ran in CWD: fixtures/fake']);
    const r = status(ledger);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GATES\.md:4: strikethrough "~~" at column 29 is closed at line 5: .*CWD \(line 5\) among them/);
  });
});
