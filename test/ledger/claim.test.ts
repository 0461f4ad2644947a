// A gate's claim is its title and the prose of its list item, as the page shows them: a
// pass proves the claim as it read (round-8e R3: a title continued on the line under it was
// not part of what a run recorded, so rewriting it after the pass kept the gate met).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gateClaim } from '../../lib/ledger/claim.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import { lines, parseOk } from '../helpers/ledger.js';
import { render } from '../helpers/render.js';

const claimOf = (source: string, n = 0) => {
  const ledger = parseOk(source);
  return gateClaim(ledger.lines, ledger.gates[n]!);
};

describe('gateClaim', () => {
  it('is the title alone for a gate with attributes only (records made before it stay valid)', () => {
    expect(claimOf(lines('- [x] A: the build passes', '  CHECK: npm test', '  EXPECT: ok', '  EVIDENCE: 2026-01-01T00:00:00Z sha256=ab'))).toBe('the build passes');
  });

  it('takes the lines under the title, between and after the attributes, and a lazy line at column 0', () => {
    const source = lines('- [ ] A: the build', '  passes on   all platforms', '  CHECK: npm test', '  EXPECT: ok', '  except   Windows ', 'and macOS', '', '  second paragraph', '- [ ] B: other', '  more of B', '# heading');
    expect(claimOf(source)).toBe('the build\npasses on all platforms\nexcept Windows\nand macOS\nsecond paragraph');
    expect(claimOf(source, 1)).toBe('other\nmore of B');
  });

  it('stops at a new block at column 0: a list item, a heading, a quote, a fence, a comment, or text after a blank line', () => {
    for (const next of ['- item', '* item', '1. item', '# heading', '> quote', '```', '---', '<!-- note -->']) {
      expect(claimOf(lines('- [ ] A: t', '  CHECK: x', '  EXPECT: ok', next, ...(next === '```' ? ['```'] : [])))).toBe('t');
    }
    expect(claimOf(lines('- [ ] A: t', '  CHECK: x', '  EXPECT: ok', '', 'a paragraph of the page'))).toBe('t');
  });

  it('takes a column-0 line that cannot end the paragraph, and the notes after it (round-9 attack: the page shows them in the gate)', () => {
    for (const lead of ['#1234', '< 1% flaky;', '<b>x</b>', '| also:', '```sec```', '2.', 'ABANDON: A gone;']) {
      const claim = claimOf(lines('- [ ] A: t', '  CHECK: x', '  EXPECT: ok', `${lead} the audit passed`, '  update: caveat withdrawn'));
      expect(claim).toBe(`t\n${lead} the audit passed\nupdate: caveat withdrawn`);
    }
    // Round 10: no underline at column 0 under an item, no break of mixed characters, and a
    // line of a no-break space is not blank (a vertical tab, once here too, is refused in any
    // ledger since round 39t).
    for (const lead of ['===', '-_-', '*-*', '\u00a0']) {
      const claim = claimOf(lines('- [ ] A: t', '  CHECK: x', '  EXPECT: ok', lead, 'the audit passed', '  update: caveat withdrawn'));
      expect(claim, JSON.stringify(lead)).toContain('the audit passed\nupdate: caveat withdrawn');
    }
  });

  it('does not change when the run writes its EVIDENCE line or ticks the box, nor with trailing blanks', () => {
    const before = lines('- [ ] A: t', '  CHECK: x', '  EXPECT: ok', '  a note');
    const after = lines('- [x] A: t', '  CHECK: x', '  EXPECT: ok', '  EVIDENCE: 2026-01-01T00:00:00Z sha256=ab', '  a note   ');
    expect(claimOf(after)).toBe(claimOf(before));
  });

  // The renderer is the oracle: every word the page shows in the gate's task item, apart
  // from its attribute lines, is in the claim.
  it('holds every word the page shows in the task item (micromark + GFM)', () => {
    let n = 0;
    const word = fc.constant(null).map(() => `w${n++}`);
    const prose = fc.tuple(fc.constantFrom('  ', '   ', '\t', '', '    '), fc.array(word, { minLength: 1, maxLength: 3 })).map(([indent, ws]) => `${indent}${ws.join(' ')}`);
    // Column-0 lines of every kind that may or may not continue the paragraph on the page.
    const lead = fc.constantFrom('', '#', '# ', '<', '< ', '<b>', '|', '```x``` ', '2. ', '1. ', '* ', '- ', '> ', '+ ', '***', '___ ', '<!-- ', '<div> ', '<span>');
    const column0 = fc.tuple(lead, fc.array(word, { minLength: 1, maxLength: 2 })).map(([l, ws]) => `${l}${ws.join(' ')}`);
    // Lines with no word that may end the paragraph or continue it (round-10 attack: ===, -_-, a no-break space).
    const bare = fc.constantFrom('===', '-_-', '*-*', '---', '***', '\u00a0', '\v', '\f', ' \u00a0 ', '- ', '=');
    const piece = fc.oneof(prose, column0, bare, fc.constant(''), fc.constant('  DEPENDS: a.sh'), fc.constant('  TIMEOUT: 5'));
    let judged = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 4 }), fc.array(piece, { maxLength: 6 }), (head, tail) => {
        const source = lines('- [ ] A: title', ...head, '  CHECK: run-it', '  EXPECT: fine', ...tail);
        const parsed = parseLedger(source);
        if (!parsed.ok) return; // refused ledgers have no claim to prove
        const claim = gateClaim(parsed.ledger.lines, parsed.ledger.gates[0]!);
        const task = render(source).tasks[0];
        if (task === undefined) return;
        const shown = task.lines.filter((l) => !/^(?:CHECK|EXPECT|DEPENDS|TIMEOUT):/.test(l)).join(' ').match(/\bw\d+\b/g) ?? [];
        const inClaim = new Set(claim.match(/\bw\d+\b/g) ?? []);
        for (const w of shown) expect(inClaim).toContain(w);
        judged++;
      }),
      { numRuns: 1000 },
    );
    expect(judged).toBeGreaterThan(100);
  });
});
