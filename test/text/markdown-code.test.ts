// markdownCode against a real CommonMark reader (micromark): the code span shows the text
// exactly, whatever backticks and spaces it holds, and nothing after it is taken into it.
import fc from 'fast-check';
import { micromark } from 'micromark';
import { describe, expect, it } from 'vitest';
import { markdownCode, markdownText } from '../../lib/text/markdown-code.js';

/** The text of the first code span micromark finds in a paragraph, and what follows it. */
function read(markdown: string): { code: string | null; after: string } {
  const html = micromark(markdown);
  const m = /<code>([\s\S]*?)<\/code>([\s\S]*)<\/p>/.exec(html);
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return m ? { code: unescape(m[1]!), after: unescape(m[2]!) } : { code: null, after: html };
}

const unescapeHtml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

describe('markdownCode', () => {
  it('a plain word keeps single backticks', () => {
    expect(markdownCode('gate-check --root pkg')).toBe('`gate-check --root pkg`');
  });

  it('a directory named with backticks stays inside its span', () => {
    const text = "gate-check --root 'a`b``c'";
    expect(markdownCode(text)).toBe("```gate-check --root 'a`b``c'```");
    expect(read(`Next: run ${markdownCode(text)}: then`)).toEqual({ code: text, after: ': then' });
  });

  it('text that starts or ends with a backtick or a space is padded so the reader keeps it', () => {
    for (const text of ['`x', 'x`', ' x ', '`', ' `` ']) expect(read(`${markdownCode(text)} tail`)).toEqual({ code: text, after: ' tail' });
  });

  it('any one line of text reads back exactly, and the span ends where the text does', () => {
    const chars = fc.constantFrom('`', ' ', 'a', "'", '\\', '*', '_', '<', '&', '$', 'é');
    const text = fc.array(chars, { minLength: 1, maxLength: 24 }).map((a) => a.join('')).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(text, (s) => {
        expect(read(`x ${markdownCode(s)} end`)).toEqual({ code: s, after: ' end' });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('markdownText', () => {
  const line = (alphabet: string[]) => fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 24 }).map((a) => a.join(''));

  it('a name with backticks, < and backslashes reads back as written, outside any code span or tag', () => {
    fc.assert(
      fc.property(line(['`', '<', '>', '\\', 'a', ' ', '/', ':']), (u) => {
        expect(unescapeHtml(micromark(`in ${markdownText(u)} end`))).toBe(`<p>in ${u} end</p>`);
      }),
      { numRuns: 2000 },
    );
  });

  it('whatever a name holds, the command after it is one whole code span', () => {
    const chars = ['`', '<', '>', '\\', '*', '_', '[', ']', '(', ')', '!', 'a', ' ', '&'];
    fc.assert(
      fc.property(line(chars), line(['`', ' ', 'a', "'", '<']), (u, c) => {
        fc.pre(c.trim() !== '');
        const html = micromark(`Open: ${markdownText(u)}. Next: run ${markdownCode(c)} now`);
        const codes = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => unescapeHtml(m[1]!));
        expect(codes).toEqual([c]);
      }),
      { numRuns: 2000 },
    );
  });
});
