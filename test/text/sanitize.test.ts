import fc from 'fast-check';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { sanitizeBlock, sanitizeLine, terminalSafeJson } from '../../lib/text/sanitize.js';

describe('sanitizeLine', () => {
  it('removes ANSI CSI and OSC sequences', () => {
    expect(sanitizeLine('a\u001b[31mred\u001b[0m b')).toBe('ared b');
    expect(sanitizeLine('x\u001b]0;title\u0007y')).toBe('xy');
    expect(sanitizeLine('x\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\y')).toBe('xlinky');
  });

  it('removes DCS strings and lone escapes', () => {
    expect(sanitizeLine('a\u001bPq#0;2;0;0;0\u001b\\b')).toBe('ab');
    expect(sanitizeLine('a\u001bb')).toBe('ab');
  });

  it('removes C1 controls even when they are the only escapes (strip-ansi skips those strings)', () => {
    expect(sanitizeLine('a\u009d0;t\u009cb')).not.toMatch(/[\u0080-\u009f]/);
    expect(sanitizeLine('a\u0085b\u0090c')).toBe('abc');
  });

  it('removes C0 controls, DEL and bidi/format controls', () => {
    const nasty = 'a\u0000\u0007\u0008\u000b\u000c\u000d\u007f\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069b';
    expect(sanitizeLine(nasty)).toBe('ab');
  });

  it('shows invisible characters as <U+XXXX>: zero-width spaces and joiners, BOM, soft hyphen, Hangul fillers, tag characters (round-15b F3)', () => {
    expect(sanitizeLine('sec\u200Burity\u00AD audit\uFEFF')).toBe('sec<U+200B>urity<U+00AD> audit<U+FEFF>');
    expect(sanitizeLine('done\u{E0041}\u{E0042}')).toBe('done<U+E0041><U+E0042>');
    expect(sanitizeLine('a\u3164b\u2060c')).toBe('a<U+3164>b<U+2060>c');
    // Variation selectors carry a bit each, the blank braille pattern looks like a space (round-16 R1).
    expect(sanitizeLine('\u26A0\uFE0F warn\uFE0E\u2800')).toBe('\u26A0<U+FE0F> warn<U+FE0E><U+2800>');
  });

  it('turns tabs and newlines into spaces', () => {
    expect(sanitizeLine('a\tb\nc')).toBe('a b c');
  });

  it('caps by code points without splitting surrogate pairs', () => {
    expect(sanitizeLine('x'.repeat(500), 10)).toBe('x'.repeat(9) + '…');
    const s = sanitizeLine('😀'.repeat(50), 5);
    expect(Array.from(s)).toHaveLength(5);
    expect(s.endsWith('…')).toBe(true);
    expect(s).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('bounds work on huge input', () => {
    expect(sanitizeLine('\u001b[31m'.repeat(1_000_000), 20).length).toBeLessThanOrEqual(20);
  });
});

describe('sanitizeBlock', () => {
  it('keeps first and last lines around an omission marker', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const out = sanitizeBlock(text, 4);
    expect(out).toEqual(['line 0', 'line 1', '[… 96 lines omitted …]', 'line 98', 'line 99']);
  });

  it('also keeps the telling lines between them, in order, at most maxTelling, sanitized (round-31b F3)', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    lines[40] = 'not ok 3 - adds \u001b[31mnumbers\u001b[0m';
    lines[41] = '  expected: 3';
    for (let i = 60; i < 80; i++) lines[i] = `not ok ${i}`;
    const out = sanitizeBlock(lines.join('\n'), 4, 200, /^\s*(?:not ok|expected)/, 5);
    expect(out).toEqual(['line 0', 'line 1', '[… 38 lines omitted …]', 'not ok 3 - adds numbers', '  expected: 3', '[… 18 lines omitted …]', 'not ok 60', 'not ok 61', 'not ok 62', '[… 35 lines omitted …]', 'line 98', 'line 99']);
    expect(sanitizeBlock('a\nb\nc', 4, 200, /b/)).toEqual(['a', 'b', 'c']);
  });
});

describe('terminalSafeJson', () => {
  it('escapes C1 and bidi characters but keeps the data exact', () => {
    const value = { t: 'a\u202eb\u009bc\u001bd' };
    const text = terminalSafeJson(value);
    expect(text).not.toMatch(/[\u001b\u009b\u202e]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('sanitizeLine on text that is already clean', () => {
  it('printable ASCII is what the full cleaning leaves of it: unchanged within the cap, cut with an ellipsis past it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x7e]{0,80}$/), fc.integer({ min: 1, max: 100 }), (text, max) => {
        expect(stripAnsi(text).replace(/[\t\n]/g, ' ')).toBe(text);
        expect(sanitizeLine(text, max)).toBe(text.length <= max ? text : `${text.slice(0, max - 1)}\u2026`);
      }),
      { numRuns: 500 },
    );
  });

  it('a control character, an escape or a tab anywhere takes the full way', () => {
    expect(sanitizeLine('ok\u001b[2Jok')).toBe('okok');
    expect(sanitizeLine('a\tb')).toBe('a b');
    expect(sanitizeLine('a\u0007b')).toBe('ab');
  });
});
