// What the reviewer reads on the rendered page is what gate-check sees (issue 9; attack
// findings F2, F3, F4). Each rule is checked against micromark + GFM (the renderer of the
// differential test) as well: what is refused renders differently from its source, what
// is allowed renders as written.
import { describe, expect, it } from 'vitest';
import { isColonLike } from '../../lib/ledger/attribute-names.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import { lines, parseErrors, parseOk } from '../helpers/ledger.js';
import { render } from '../helpers/render.js';

const gate = (key: string, value: string) => {
  const body = key === 'CHECK' ? [`  CHECK: ${value}`, '  EXPECT: ok'] : key === 'EXPECT' ? ['  CHECK: echo ok', `  EXPECT: ${value}`] : ['  CHECK: echo ok', '  EXPECT: ok', `  ${key}: ${value}`];
  return lines('- [ ] G1: the check passes', ...body);
};
const lineOf = (key: string) => (key === 'CHECK' ? 2 : key === 'EXPECT' ? 3 : 4);

/** The task item's text as a person sees it (no href, title or alt), whitespace collapsed. */
const pageText = (source: string) => render(source).tasks[0]!.text;

describe('F2: inline links, images and autolinks in values are refused', () => {
  const cases: [string, string, RegExp][] = [
    ['CHECK', 'node --test "[](<" || echo "# fail 0 >)"', /inline link or image \("\]\("\) at column 24/],
    ['CHECK', `echo '[ok](x "';echo HIDDEN2;echo '")'`, /inline link or image/],
    ['CHECK', `echo '![ok](<';echo HIDDEN3;echo '>)'`, /image \("!\["\) at column 16/],
    ['EXPECT', '[# fail 0](x "y")', /inline link or image/],
    ['CWD', '[a](b)', /inline link or image/],
    ['DEPENDS', 'src/a.js, ![x](y.png)', /image/],
    ['INPUTS', '[d](data/x.csv)', /inline link or image/],
    ['CHECK', 'curl <https://example.com/x>', /autolink \("<…>"\) at column 15/],
    ['EXPECT', '<user@example.com>', /autolink/],
    ['CHECK', 'echo ok &amp;&amp; true', /character reference \("&amp;"\) at column 18/],
    ['EXPECT', '&#35; fail 0', /character reference/],
    ['CHECK', 'echo &#x6F;k', /character reference/],
  ];
  for (const [key, value, message] of cases) {
    it(`${key}: ${value}`, () => {
      const source = gate(key, value);
      // The page shows other text than the value gate-check would run.
      expect(pageText(source)).not.toContain(`${key}: ${value}`);
      const errors = parseErrors(source);
      expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^${lineOf(key)}: ${key} contains .*${message.source}.*what the reviewer reads must be what runs`)));
    });
  }

  it('escaped, or not a link: allowed, and shown as written apart from the escape', () => {
    for (const value of ['test "$x" = "[a]"', '[ -f a ] && [ -f b ]', 'echo "[x] (y)"', 'echo \\](x)', "grep -Pv '^(?![\\s\\S]*FAIL)' out", 'echo "![x]"', 'a & b', 'echo "&"', 'x=1&y=2', 'echo a&b;']) {
      const parsed = parseLedger(gate('CHECK', value));
      expect(parsed.ok, `${value}: ${parsed.ok ? '' : JSON.stringify(parsed.errors)}`).toBe(true);
      expect(pageText(gate('CHECK', value)).replace(/\\/g, '')).toContain(`CHECK: ${value.replace(/\\/g, '')}`);
    }
  });
});

describe('F4: inline HTML in values is refused; shell redirections are not HTML', () => {
  const tags = ['<sub>x</sub>', '<sub><sub>|| echo "# fail 0"</sub></sub>', '<sup>a</sup>', '<small>a</small>', '<b>a</b>', '<br>', '<b/>', '</b>', '<x-y>', '<a href="u">t</a>', "<i a='b'>", '<!-- c -->', '<!---->', '<?x?>', '<!X y>', '<![CDATA[ x ]]>'];
  for (const tag of tags) {
    it(`refused: ${tag}`, () => {
      const source = gate('CHECK', `node --test ${tag}`);
      expect(pageText(source)).not.toContain(`node --test ${tag}`);
      expect(parseErrors(source).join('\n')).toMatch(/^2: (CHECK contains raw HTML|.*HTML)/m);
    });
  }

  it('the 25 nested <sub> of the attack, in every value kind', () => {
    const o = '<sub>'.repeat(25);
    const c = '</sub>'.repeat(25);
    for (const key of ['CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS']) {
      expect(parseErrors(gate(key, `a${o}b${c}`)), key).toContainEqual(expect.stringMatching(new RegExp(`^${lineOf(key)}: ${key} contains raw HTML \\(tag <sub>\\)`)));
    }
  });

  it('allowed, and rendered as written: what CommonMark does not take for a tag or an autolink', () => {
    const checks = ['cmd > out', 'cmd 2>&1', 'sort < in', "cat <<'EOF'", 'cat <<-EOF', 'cat <<EOF | wc -l', 'test "a<b" = x', 'a<b && c', 'sort <in.txt >out.txt', 'cat <a:b>', 'x <- y', 'diff <(a) <(b)', 'echo "<>"', 'echo < >', 'echo <1>', 'echo \\<b>', 'echo <b | c', 'echo <a.b>', 'echo <-x>', 'grep -c "<=" f'];
    for (const check of checks) {
      const source = gate('CHECK', check);
      const parsed = parseLedger(source);
      expect(parsed.ok, `${check}: ${parsed.ok ? '' : JSON.stringify(parsed.errors)}`).toBe(true);
      expect(pageText(source).replace(/\\/g, ''), check).toContain(`CHECK: ${check.replace(/\\/g, '')}`);
    }
  });
});

describe('F3: lines that render as an attribute but are written otherwise are errors', () => {
  const fakes: [string, RegExp][] = [
    ['CHECK\\: node --test', /renders as "CHECK:" but is written with a backslash escape/],
    ['EXPECT\\: # fail 0', /renders as "EXPECT:" but is written with a backslash escape/],
    ['&#67;HECK: npm run build', /character reference/],
    ['&#x43;HECK: npm run build', /character reference/],
    ['CH&#69;CK: x', /character reference/],
    ['CHECK&#58; x', /character reference/],
    ['CHECK&#x3A; x', /character reference/],
    ['CHECK&colon; x', /character reference/],
    ['&Cscr;HECK: x', /looks like C.*character reference: did you mean CHECK/],
    ['**CHECK:** x', /emphasis or code/],
    ['*CHECK:* x', /emphasis or code/],
    ['_CHECK:_ x', /emphasis or code/],
    ['**CHECK**: x', /emphasis or code/],
    ['*C*HECK: x', /emphasis or code/],
    ['`CHECK:` x', /emphasis or code/],
    ['~~CHECK:~~ x', /emphasis or code/],
    ['<b>CHECK:</b> x', /inline HTML/],
    ['<code>CHECK:</code> x', /inline HTML/],
    ['<kbd>CHECK</kbd>: x', /inline HTML/],
    ['CHECK<b>:</b> x', /inline HTML/],
    ['<sub></sub>CHECK: x', /inline HTML/],
    ['C<b></b>HECK: x', /inline HTML/],
    ['<CHECK:node>', /autolink/],
    ['[CHECK:](u) x', /link or image/],
    ['> CHECK: x', /block quote/],
    ['- EXPECT: x', /list item/],
    ['1. CHECK: x', /list item/],
    ['# CHECK: x', /heading/],
    ['**CHEK:** x', /CHEK: \(as the page shows it, written with emphasis or code\) is not an attribute: did you mean CHECK/],
    ['**DEPEND:** src', /did you mean DEPENDS/],
  ];
  for (const [line, message] of fakes) {
    it(line, () => {
      const source = lines('- [x] G1: the unit tests pass', `  ${line}`, '  EVIDENCE: ran it');
      // The page shows an attribute-like line...
      const shown = render(source).tasks[0]!.text;
      expect(shown, 'rendered').toMatch(/(CHECK|EXPECT|CHEK|DEPEND|\u{1d49e}HECK)\s*:/u);
      // ...which gate-check must not read as a note.
      expect(parseErrors(source)).toContainEqual(expect.stringMatching(new RegExp(`^2: .*${message.source}`)));
    });
  }

  it('directly under the gate line at column 0 (a lazy continuation of the item) too', () => {
    expect(parseErrors(lines('- [x] G1: t', '**CHECK:** x', '  EVIDENCE: ran it'))).toContainEqual(expect.stringMatching(/^2: this line renders as "CHECK:"/));
  });

  it('the attack ledger: two manual-looking-runnable gates ticked with evidence-looking lines exit 2, not ALL MET', () => {
    const source = lines(
      '# Gates',
      '',
      '- [x] G1: the unit tests pass',
      '  CHECK\\: node --test',
      '  EXPECT\\: # fail 0',
      '  EVIDENCE: exit=0; def=3f9a1c0e2b7d; match=9f86d081884c; receipt=5749749392c8',
      '- [x] G2: the build succeeds',
      '  &#67;HECK: npm run build',
      '  &#69;XPECT: /built in \\d+ ms/',
      '  EVIDENCE: exit=0; def=0c1d2e3f4a5b; match=1a2b3c4d5e6f; receipt=6f5e4d3c2b1a',
    );
    expect(parseErrors(source).map((e) => e.split(':')[0])).toEqual(['4', '5', '8', '9']);
  });

  it('notes with markup that do not read as attributes stay notes', () => {
    const l = parseOk(lines('- [ ] G1: t', '  *Note:* run it twice', '  **Why**: flaky', '  `npm test` runs: all', '  - a list', '  > a quote: here', '  # a heading', '  \\*literal\\*', '  &amp; more', '  <b>bold</b> text', '  CHECK: echo ok', '  EXPECT: ok'));
    expect(l.gates[0]!.check).toBe('echo ok');
  });
});

describe('bidi controls are refused anywhere in a ledger, with the code point', () => {
  const controls: [string, string][] = [
    ['\u202a', 'U+202A LEFT-TO-RIGHT EMBEDDING'],
    ['\u202b', 'U+202B RIGHT-TO-LEFT EMBEDDING'],
    ['\u202c', 'U+202C POP DIRECTIONAL FORMATTING'],
    ['\u202d', 'U+202D LEFT-TO-RIGHT OVERRIDE'],
    ['\u202e', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['\u2066', 'U+2066 LEFT-TO-RIGHT ISOLATE'],
    ['\u2067', 'U+2067 RIGHT-TO-LEFT ISOLATE'],
    ['\u2068', 'U+2068 FIRST STRONG ISOLATE'],
    ['\u2069', 'U+2069 POP DIRECTIONAL ISOLATE'],
  ];
  it('in a gate title', () => {
    for (const [ch, name] of controls) expect(parseErrors(lines(`- [ ] G1: the tests ${ch}pass`)), name).toContainEqual(`1: bidi control ${name} at column 21: a browser reorders the text around it, so the page shows it in another order than gate-check reads it (refused anywhere in a ledger)`);
  });

  it('in notes, prose, headings, comments and fences', () => {
    for (const [ch, name] of controls) {
      const head = ['- [x] G1: t', '  EVIDENCE: ran it', ''];
      const places: [string[], number][] = [[[`# Ledger ${ch}x`], 4], [[`prose ${ch}x`], 4], [[`  note ${ch}x`], 4], [[`<!-- ${ch} -->`], 4], [['```', `${ch}example`, '```'], 5]];
      for (const [extra, lineNo] of places) {
        const errors = parseErrors(lines(...head, ...extra));
        expect(errors, `${name} in ${JSON.stringify(extra)}`).toContainEqual(expect.stringMatching(new RegExp(`^${lineNo}: bidi control ${name.replace(/\+/g, '\\+')} at column`)));
      }
    }
  });

  it('the RLO-reversed fake attributes of the attack', () => {
    const f = (s: string) => `\u202e${[...s].reverse().join('')}\u202c`;
    const errors = parseErrors(lines('- [x] G1: the unit tests pass', `  ${f('EXPECT: # fail 0')}`, `  ${f('CHECK: node --test')}`, '  EVIDENCE: ran it'));
    expect(errors).toEqual([expect.stringMatching(/^2: bidi control U\+202E RIGHT-TO-LEFT OVERRIDE at column 3/), expect.stringMatching(/^3: bidi control U\+202E/)]);
  });
});

describe('F3 after lazy text: the page keeps the line in the gate item, the parser had ended the body', () => {
  const inItem = (source: string, line: string) => expect(render(source).tasks[0]!.lines).toContain(line);
  it('at column 0, after a lazy continuation line', () => {
    const source = lines('- [x] G1: t', 'lazy text\\', '**CHECK:** v', '  EVIDENCE: ran it');
    inItem(source, 'CHECK: v');
    expect(parseErrors(source)).toContainEqual(expect.stringMatching(/^3: this line renders as "CHECK:"/));
  });
  it('indented, after a lazy continuation line (and after a blank line, where it continues the item)', () => {
    const one = lines('- [x] G1: t', 'lazy text', '  *CHECK*: v');
    inItem(one, 'CHECK: v');
    expect(parseErrors(one)).toContainEqual(expect.stringMatching(/^3: this line renders as "CHECK:"/));
    const two = lines('- [x] G1: t', 'lazy text', '', '  `EXPECT:` v');
    inItem(two, 'EXPECT: v');
    expect(parseErrors(two)).toContainEqual(expect.stringMatching(/^4: this line renders as "EXPECT:"/));
  });
});

describe('a fence after lazy text is inside the gate item for a renderer', () => {
  it('(found by the differential test) is refused as an indented fence under a list item', () => {
    const source = lines('- [ ] G1: alpha', 'ABANDON: G1 reason', '   ```', '  CHECK: hidden in code', '   ```');
    expect(render(source).tasks[0]!.lines).toContain('CHECK: hidden in code');
    expect(parseErrors(source)).toContainEqual(expect.stringMatching(/^3: indented code fence/));
  });
});

describe('attribute names inside a title or a note (the page shows a gate as one paragraph)', () => {
  it('a manual gate whose title carries CHECK and EXPECT looks exactly like a runnable one on the page', () => {
    const fake = lines('- [x] G1: the unit tests pass CHECK: node --test EXPECT: # fail 0', '  EVIDENCE: ran it');
    const real = lines('- [x] G1: the unit tests pass', '  CHECK: node --test', '  EXPECT: # fail 0', '  EVIDENCE: ran it');
    expect(render(fake).tasks[0]!.text).toBe(render(real).tasks[0]!.text);
    expect(parseErrors(fake)[0]).toMatch(/^1: "CHECK:" at column 31 inside a title or a note: the page shows a gate's lines as one paragraph/);
  });
  it('in a note line, and in a lazy line under the gate', () => {
    expect(parseErrors(lines('- [x] G1: t', '  ran it with CHECK: npm test', '  EVIDENCE: ran it'))[0]).toMatch(/^2: "CHECK:" at column 15/);
    expect(parseErrors(lines('- [x] G1: t', 'and then **EXPECT:** ok', '  EVIDENCE: ran it'))[0]).toMatch(/^2: "EXPECT:" at column 12/);
    // (found by the differential test) after lazy text, where the page keeps the note in the item
    const lazy = lines('- [ ] G1: alpha', '<code>x</code> y', '  ran it with CHECK: npm test');
    expect(render(lazy).tasks[0]!.text).toContain('CHECK: npm test');
    expect(parseErrors(lazy)[0]).toMatch(/^3: "CHECK:" at column 15/);
  });
  it('written so that only the page shows the name (attack A1): references, escapes, emphasis, HTML, invisible characters, look-alikes, any colon', () => {
    const forms: [string, RegExp][] = [
      ['CHECK&#58;', /written with a character reference/],
      ['CHECK&colon;', /written with a character reference/],
      ['&#67;HECK:', /written with a character reference/],
      ['CHECK\\:', /written with a backslash escape/],
      ['*C*HECK:', /written with emphasis or code/],
      ['<kbd>CHECK</kbd>:', /written with inline HTML/],
      ['C&shy;HECK:', /written "C<U\+00AD>HECK" \(look-alike or invisible characters\), with a character reference/],
      ['C\u00adHECK:', /written "C<U\+00AD>HECK" \(look-alike or invisible characters\)\)/],
      ['CHE\u200bCK:', /written "CHE<U\+200B>CK"/],
      ['\u0421\u041d\u0415\u0421\u041a:', /written "<U\+0421><U\+041D><U\+0415><U\+0421><U\+041A>"/],
      ['CHECK\uff1a', /written U\+FF1A for ':'/],
      ['CHECK\ufe55', /written U\+FE55 for ':'/],
      ['CHECK\ufe13', /written U\+FE13 for ':'/],
      ['1NPUTS:', /^1: "INPUTS:" \(as the page shows it; written "1NPUTS" \(look-alike or invisible characters\)\)/],
    ];
    for (const [name, how] of forms) {
      const source = lines(`- [x] G1: tests pass ${name} npm test`, '  EVIDENCE: ran it');
      const errors = parseErrors(source);
      expect(errors[0], name).toMatch(/^1: "(CHECK|INPUTS):" \(as the page shows it; written /);
      expect(errors[0], name).toMatch(how);
      expect(errors[0], name).toMatch(new RegExp(`at column ${22 + name.search(/[A-Z1&\u0421]/)} inside a title or a note`));
      expect(parseErrors(lines('- [x] G1: tests pass', `  run with ${name} npm test`, '  EVIDENCE: ran it'))[0], name).toMatch(/^2: "(CHECK|INPUTS):" \(as the page shows it/);
      expect(parseErrors(lines('- [ ] G1: tests pass', '  CHECK: node --test', `  EXPECT: ok ${name} x`))[0], name).toMatch(/^3: EXPECT contains ("(CHECK|INPUTS):" \(as the page shows it|U\+00AD|U\+200B)/);
    }
  });
  it('at the start of a note after a blank the page shows (&nbsp;, &#32;, &emsp;), or with a colon look-alike', () => {
    for (const note of ['&nbsp;CHECK: npm test', '&#32;CHECK: npm test', '&emsp;CHECK: npm test', 'CHECK\ufe55 npm test', 'CHECK\ufe13 npm test']) {
      const source = lines('- [x] G1: tests pass', `  ${note}`, '  EVIDENCE: ran it');
      expect(render(source).tasks[0]!.text, note).toMatch(/CHECK.? npm test/);
      expect(parseErrors(source)[0], note).toMatch(/^2: /);
    }
  });
  it('found by the second attack: small capitals, syllabics, circled letters, a braille blank before or a braille colon after, punctuation glued before; a quote still makes it text', () => {
    for (const name of ['\u1d04\u029c\u1d07\u1d04\u1d0b:', '\u1455HE\u1455K:', '\u24b8\u24bd\u24ba\u24b8\u24c0:', 'CHECK\u2806', '\u2800CHECK:', '-CHECK:', '{CHECK:', '/CHECK:']) {
      expect(parseErrors(lines(`- [x] G1: tests pass ${name} npm test`, '  EVIDENCE: ran it'))[0], `title ${name}`).toMatch(/^1: "CHECK:"/);
      expect(parseErrors(lines('- [x] G1: tests pass', `  ${name} npm test`, '  EVIDENCE: ran it'))[0], `note ${name}`).toMatch(/^2: /);
    }
    expect(parseOk(lines('- [ ] G1: grep for the "CHECK: line', '  CHECK: grep -c "EXPECT:" GATES.md', '  EXPECT: 1')).gates[0]!.kind).toBe('runnable');
  });

  it('every character that reads as a colon is one UTF-16 unit (inlineAttribute looks at one unit at a time)', () => {
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (isColonLike(ch)) expect(ch.length, `U+${cp.toString(16)}`).toBe(1);
    }
  });
  it('prose that merely names an attribute stays a note', () => {
    expect(parseOk(lines('- [ ] G1: the CHECK line runs the suite', '  see DEPENDS below, and CHECKS: none', '  CHECK: npm test', '  EXPECT: ok')).gates[0]!.kind).toBe('runnable');
  });
});

describe('attribute names inside a value', () => {
  it('read as another attribute on the page: refused unless quoted', () => {
    expect(parseErrors(gate('EXPECT', 'tests pass CHECK: node --test'))).toContainEqual(expect.stringMatching(/^3: EXPECT contains "CHECK:" at column 22: the page shows a gate's lines as one paragraph/));
    expect(parseErrors(gate('CHECK', 'true; echo ok EXPECT: ok'))).toContainEqual(expect.stringMatching(/^2: CHECK contains "EXPECT:" at column 24/));
    expect(parseOk(gate('CHECK', 'grep -c "EXPECT:" GATES.md')).gates[0]!.check).toBe('grep -c "EXPECT:" GATES.md');
  });
});

describe('attribute names inside EVIDENCE', () => {
  it('a ticked manual gate whose evidence shows "CHECK: … EXPECT: …" is refused', () => {
    expect(parseErrors(lines('- [x] G1: t', '  EVIDENCE: ran it CHECK: npm test EXPECT: ok'))[0]).toMatch(/^2: EVIDENCE contains "CHECK:" at column 20/);
  });
});
