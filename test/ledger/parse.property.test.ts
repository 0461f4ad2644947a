// Properties of the parser over generated input (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineAttribute, inlineAttributeAsRendered } from '../../lib/ledger/attribute-names.js';
import { parseLedger, parserSettings } from '../../lib/ledger/parse.js';
import { splitLines } from '../../lib/ledger/lines.js';

const idArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,10}$/);
// No '<': a value like "<A>" is raw HTML, which renders as nothing and is refused. No '&'
// before a letter or '#': "&gt;" and "&#1;" are character references, refused in values.
const valueArb = fc.stringMatching(/^[A-Za-z0-9 .,#:;'"=()|&>$_-]{1,40}$/).filter((s) => s.trim() !== '' && !s.trim().startsWith('/') && !/&[A-Za-z#]/.test(s));

const specArb = fc.uniqueArray(idArb, { minLength: 1, maxLength: 8 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc.record({
        id: fc.constant(id),
        checked: fc.boolean(),
        title: valueArb,
        pair: fc.option(fc.tuple(valueArb, valueArb), { nil: null }),
        eol: fc.constantFrom('\n', '\r\n'),
      }).map(withoutMathSyntax),
    ),
  ),
);

/**
 * A gate whose lines hold a '$' gets no TeX syntax ('#', '&', '_', "'"): a pair of dollar
 * signs across its lines is math on GitHub's page, where those can break the formula, and the
 * parser refuses them (tex-math.ts, checked against MathJax in test/ledger/tex-math.test.ts).
 */
function withoutMathSyntax<T extends { title: string; pair: [string, string] | null }>(spec: T): T {
  const values = [spec.title, ...(spec.pair ?? [])];
  if (!values.some((v) => v.includes('$'))) return spec;
  const plain = (v: string) => v.replace(/[#&_']/g, 'S');
  return { ...spec, title: plain(spec.title), pair: spec.pair && [plain(spec.pair[0]), plain(spec.pair[1])] };
}

describe('parser properties', () => {
  it('never throws, and every diagnostic has a line inside the file', () => {
    const lineArb = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('- [ ] G1: t', '- [x] G2: t', '  CHECK: x', '  EXPECT: y', '```', '~~~', '<!--', '-->', 'ABANDON: G1 r', 'OWNS: a', '  - [ ] N: n', '\r', ''),
    );
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (ls, eol) => {
        const src = ls.join(eol);
        const r = parseLedger(src);
        const count = Math.max(1, splitLines(src).length);
        const diags = r.ok ? r.ledger.warnings : [...r.errors, ...r.warnings];
        for (const d of diags) {
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.line).toBeLessThanOrEqual(count);
        }
        if (!r.ok) expect(r.errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('finds exactly the gates that were written, with their exact fields', () => {
    fc.assert(
      fc.property(specArb, (specs) => {
        const src = specs
          .map((s) => {
            const body = s.pair ? [`  CHECK: ${s.pair[0]}`, `  EXPECT: ${s.pair[1]}`] : [];
            return [`- [${s.checked ? 'x' : ' '}] ${s.id}: ${s.title}`, ...body].map((l) => l + s.eol).join('');
          })
          .join('');
        const r = parseLedger(src);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.ledger.gates.map((g) => [g.id, g.checked, g.title, g.kind, g.check, g.expectRaw])).toEqual(
          specs.map((s) => [s.id, s.checked, s.title.trim(), s.pair ? 'runnable' : 'manual', s.pair?.[0].trim() ?? null, s.pair?.[1].trim() ?? null]),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('an indented task item anywhere in a gate body is always an error', () => {
    fc.assert(
      fc.property(specArb, fc.nat(), fc.constantFrom('  ', '    ', '\t', ' '), fc.constantFrom('-', '*', '+', '1.'), (specs, at, indent, marker) => {
        const ls: string[] = [];
        for (const s of specs) {
          ls.push(`- [ ] ${s.id}: ${s.title}`);
          if (s.pair) ls.push(`  CHECK: ${s.pair[0]}`, `  EXPECT: ${s.pair[1]}`);
        }
        const pos = 1 + (at % ls.length);
        ls.splice(pos, 0, `${indent}${marker} [ ] NESTED: sneaky`, '    CHECK: true', '    EXPECT: ok');
        const r = parseLedger(ls.join('\n') + '\n');
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.errors.some((e) => e.line === pos + 1 && /task item/.test(e.message))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the plain lines are read as the full reading reads them', () => {
  // Lines of every kind the parser tells apart, plain ones (parse.ts: PLAIN_GATE,
  // PLAIN_ATTRIBUTE) among look-alikes that are not: other indents, markup characters,
  // lower case, fences and comments that change how later lines are read.
  const key = fc.constantFrom('CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS', 'TIMEOUT', 'EVIDENCE', 'Check', 'CHEK', 'OWNS', 'ABANDON');
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', ' ', 'ok', ' echo ok', 'node t.js', '/o[k]/', '\\d', 'x\\', '\\:', '\\*a*', '<b>x</b>', '<b>', '<div>', '<?x', '<a href=x>', '<!-- c', '-->', '![a', '!x', 'a]b', 'a[b', '](x', '[a]: b', 'a  ', '\t', '#', '---', '===', 'G1 r', '30', 'x: y', '```', '\u00a0y', '`c`'),
  );
  const line = fc.oneof(
    fc.tuple(fc.constantFrom('- [ ] ', '- [x] ', '- [X] ', '- [y] ', '-  [ ] ', '* [ ] ', '  - [ ] ', '> - [ ] '), idArb, fc.constantFrom(': ', ':', ' '), text).map((p) => p.join('')),
    fc.tuple(fc.constantFrom('  ', ' ', '   ', '    ', '\t', '  \t', ''), key, fc.constantFrom(':', ': ', ' :'), text).map((p) => p.join('')),
    text,
    fc.constantFrom('', '', '```', '~~~', '  ```', '   ```', '    ```', '    ~~~', '\t```', '<!--', '  <!--', '-->', '<!-- a -->', '# H', 'ABANDON: G1 gone', 'OWNS: src/**', '> q', '1. item', '  ---', '[x]: y', '\ufeff- [ ] B: bom'),
    // A gate line that is refused (its attributes are swallowed), then attributes, one twice.
    fc.constantFrom('- [ ] bad id: t', '- [ ] : t', '- [ ] G1 t', '- [ ] G1:', '  CHECK: a', '  CHECK: b', '  EXPECT: c'),
  );
  const expectSameReading = (src: string) => {
    const fast = parseLedger(src);
    parserSettings.plainLines = false;
    try {
      expect(fast).toEqual(parseLedger(src));
    } finally {
      parserSettings.plainLines = true;
    }
  };
  it('the same result, diagnostics and all, with and without the plain lines', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.constantFrom('\n', '\r\n'), (ls, eol) => {
        const src = ls.join(eol) + (ls.length % 2 ? eol : '');
        expectSameReading(src);
      }),
      { numRuns: 3000 },
    );
  });

  it('the same result over gate blocks whose values hold markup, with noise between them', () => {
    const value = fc.oneof(valueArb, text, fc.constantFrom('<b>', '<div>', '<?x', '<a href=x>', '\\<', 'a]b', '[x]', '!y', '&amp;', '<!-- c -->'));
    const block = fc.tuple(
      fc.constantFrom('- [ ] ', '- [x] '),
      idArb,
      value,
      fc.array(fc.tuple(key, value), { maxLength: 4 }),
      fc.array(line, { maxLength: 2 }),
    ).map(([box, id, title, attrs, noise]) => [`${box}${id}: ${title}`, ...attrs.map(([k, v]) => `  ${k}: ${v}`), ...noise]);
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 8 }), (blocks) => {
        const src = blocks.flat().join('\n') + '\n';
        expectSameReading(src);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('attribute blocks read whole (PLAIN_BLOCK) are read as line by line', () => {
  it('gates whose attributes come in the order of ATTRIBUTE_KEYS, some missing, some values refused, repeats and noise after', () => {
    const value = fc.oneof(
      valueArb,
      fc.constantFrom('', ' ok ', '/o[k]/', '\\d', 'x\\', '\\', '\\\\', '\\`a`', '\\&amp;', '<b>', 'a\u0000b', 'a\rb', 'x\u202ey', '\u00a0y', '~x~', 'G1 r', '30', '/check passed \\(\\d+\\)/', 'CHECK: x'),
    );
    const keys = ['CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS', 'TIMEOUT', 'EVIDENCE'];
    const block = fc
      .tuple(fc.constantFrom('- [ ] ', '- [x] '), idArb, valueArb, fc.subarray(keys), fc.array(value, { minLength: 7, maxLength: 7 }), fc.array(fc.constantFrom('', '  CHECK: again', '  note', '- [ ] N: next', '  EXPECT: y'), { maxLength: 2 }), fc.constantFrom('\n', '\r\n'))
      .map(([box, id, title, present, values, after, eol]) => [`${box}${id}: ${title}`, ...present.map((k) => `  ${k}:${values[keys.indexOf(k)]}`), ...after].join(eol) + eol);
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), fc.boolean(), (blocks, finalNewline) => {
        const src = blocks.join('');
        const fast = parseLedger(finalNewline ? src : src.replace(/\r?\n$/, ''));
        parserSettings.plainLines = false;
        try {
          expect(fast).toEqual(parseLedger(finalNewline ? src : src.replace(/\r?\n$/, '')));
        } finally {
          parserSettings.plainLines = true;
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('attribute names inside text: the shortcuts for plain text find what the full reading finds', () => {
  it('on printable ASCII with and without markup characters, colons, digits for letters', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS', '1NPUTS', 'TIME0UT', 'EV1DENCE', 'check', ':', ' :', ' ', '*', '_', '`', '\\', '\\:', '&#58;', '&amp;', '<b>', '</b>', '[', ']', '(', '"', '~'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        expect(inlineAttribute(text)).toEqual(inlineAttributeAsRendered(text));
      }),
      { numRuns: 5000 },
    );
  });
});
