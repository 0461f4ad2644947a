// Generated ledger-like documents for the differential test against a real renderer: gates
// and attributes mixed with every construct on which a renderer and a line parser could
// disagree (fences, lists, quotes, raw HTML, comments, link definitions, underline rows,
// NBSP, tabs, CRLF, look-alike attribute names).
import fc from 'fast-check';
import { parseLedger } from '../../lib/ledger/parse.js';
import { render } from './render.js';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'node', 'test', 'run', 'ok', 'passes', 'scripts/x.mjs', 'a.b', 'x-y', '42');
/** Text a renderer shows exactly as written (after collapsing blanks). */
export const neutralText = fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
const id = fc.constantFrom('G1', 'G2', 'G3', 'A', 'B7', 'x.1');
const key = fc.constantFrom('CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS', 'TIMEOUT', 'EVIDENCE');
const indent = fc.constantFrom('  ', '  ', '  ', '\t', ' ', '   ', '    ', '      ', ' \t');
const hostileValue = fc.constantFrom(
  'a <!-- b',
  'a <!-- b -->',
  '-->',
  'x <span title="',
  '">y</span>',
  '[t](/u "title',
  '![alt',
  '<b>x</b>',
  '<b>',
  '<span>x</span>',
  'a `b',
  '`',
  'a\u200bb',
  'a\u00a0b',
  'x | y',
  '*x*',
  '&amp;',
  '\\<div>',
);

function valueFor(k: string) {
  if (k === 'TIMEOUT') return fc.constantFrom('30', '5');
  if (k === 'CWD' || k === 'DEPENDS' || k === 'INPUTS') return fc.constantFrom('scripts/x.mjs', 'a.b', 'src/{a,b}.js', 'x-y');
  return fc.oneof({ weight: 12, arbitrary: neutralText }, { weight: 1, arbitrary: hostileValue });
}

const gateLine = fc
  .tuple(fc.constantFrom(' ', 'x', 'X'), id, fc.oneof({ weight: 12, arbitrary: neutralText }, { weight: 1, arbitrary: hostileValue }))
  .map(([box, i, t]) => `- [${box}] ${i}: ${t}`);
const attributeLine = fc.tuple(indent, key).chain(([ind, k]) => valueFor(k).map((v) => `${ind}${k}: ${v}`));
const nearMiss = fc.tuple(indent, fc.constantFrom('CHEK', 'DEPEND', 'EXPECTS', '\u0421HECK', 'CHE\u200bCK', 'EXPECT\uff1a', 'CHECK :', 'Check')).map(([ind, k]) => `${ind}${k}${k.endsWith('\uff1a') ? '' : ':'} v`);
const structural = fc.constantFrom(
  '',
  '',
  '',
  'text',
  'lazy line',
  '  note under a gate',
  '# Heading',
  '```',
  '```js',
  '~~~',
  '````',
  '  ```',
  '   ```',
  '    ```',
  '      ```',
  '\t```',
  '```\u00a0',
  '``` \t',
  '- ```',
  '> ```',
  '1. ```',
  '- note',
  '* note',
  '+ note',
  '1. note',
  '  - sub note',
  '    - deeper',
  '- - [ ] N1: x',
  '* - [ ] N2: x',
  '- > - [ ] N3: y',
  '  - [ ] N4: z',
  '> - [ ] N5: q',
  '1. [ ] N6: q',
  '-',
  '- [\t] T1: x',
  '- [ ]\u00a0T2: x',
  '-  [ ] T3: x',
  '\t- [ ] T4: x',
  '  [ ] T5: x',
  '> quote',
  '>',
  '> <!--',
  '<!--',
  '  <!--',
  '      <!--',
  '-->',
  '  -->',
  '<!-- x -->',
  '<!-- x --> <!--',
  '<!-->',
  '--!>',
  '<div>',
  '</div>',
  '<div title="',
  '">',
  '<details>',
  '</details>',
  '<span title="',
  '<p hidden>',
  '<b>',
  '<br>',
  'text <b>bold</b>',
  '<code>x</code> y',
  '[x]: /u "t',
  '"',
  '  [x]: /u',
  '[a](/u \'t',
  '![alt',
  '---',
  '===',
  '  ---',
  '  ===',
  '  -',
  '***',
  '| a | b |',
  '|---|---|',
  '  -|-',
  'ABANDON: G1 reason',
  '  > quote in a gate',
  '  1. sub item',
  '  * sub item',
  '    indented code',
  '  # heading in a gate',
  '\\<!-- escaped',
  '&lt;!-- entity',
  '<!-- a -->',
  '  <!-- a -->',
  '~~~~',
  'text\\',
  '[link](http://x)',
  '[ref]',
  '![img](x.png)',
  '`code`',
  '- [ ]',
  '> > deeper',
  '\u00a0\u00a0CHECK: hidden',
  '\u00a0\u00a0EXPECT: hidden',
  'CHEK: typo',
  '  <https://example.com>',
  '  www.example.com',
  '[^1]: footnote',
  '  [^1]',
);

const goodIndent = fc.constantFrom('  ', '  ', '  ', '\t', '    ');
const attr = (k: string) => fc.tuple(goodIndent, valueFor(k)).map(([ind, v]) => `${ind}${k}: ${v}`);
const extras = fc.subarray(['CWD', 'DEPENDS', 'INPUTS', 'TIMEOUT', 'EVIDENCE']).chain((ks) => (ks.length === 0 ? fc.constant([] as string[]) : fc.tuple(...ks.map(attr))));
/** A gate as people write it: the gate line, CHECK and EXPECT (or neither), perhaps more, perhaps a blank line. */
const gateBlock = fc
  .tuple(gateLine, fc.boolean(), attr('CHECK'), attr('EXPECT'), extras, fc.boolean())
  .map(([g, runnable, check, expect, more, blankAfter]) => [g, ...(runnable ? [check, expect, ...more] : more.filter((l) => l.includes('EVIDENCE'))), ...(blankAfter ? [''] : [])]);
const oddLine = fc.oneof({ weight: 2, arbitrary: attributeLine }, { weight: 1, arbitrary: nearMiss }, { weight: 6, arbitrary: structural }, { weight: 1, arbitrary: gateLine });

/** Any mix of lines: rarely a valid ledger, often a near miss of one. */
const wildDocument = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: gateLine }, { weight: 5, arbitrary: attributeLine }, { weight: 1, arbitrary: nearMiss }, { weight: 6, arbitrary: structural }), { minLength: 1, maxLength: 24 }),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([ls, eol]) => ls.join(eol) + eol);

/** Mostly well-formed gates, with a few odd lines inserted anywhere. */
const typicalDocument = fc
  .tuple(
    fc.array(gateBlock, { minLength: 1, maxLength: 5 }),
    fc.array(fc.tuple(fc.nat(), oddLine), { maxLength: 4 }),
    fc.constantFrom('\n', '\r\n'),
    fc.boolean(),
  )
  .map(([blocks, inserts, eol, final]) => {
    // Unique ids, so that a duplicate is not what makes most documents errors.
    const ls = blocks.map((b, n) => [b[0]!.replace(/^(- \[.\] )[^:]*:/, `$1G${n + 1}:`), ...b.slice(1)]).flat();
    for (const [at, line] of inserts) ls.splice(at % (ls.length + 1), 0, line);
    return ls.join(eol) + (final ? eol : '');
  });

export const ledgerDocument = fc.oneof({ weight: 3, arbitrary: typicalDocument }, { weight: 1, arbitrary: wildDocument });

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const NEUTRAL = /^[A-Za-z0-9 .:/{},-]*$/;

/**
 * The differential property: when gate-check accepts a document, the rendered page shows
 * exactly its gates, in order, as top-level task items outside any collapsed element, with
 * the same box state, and every attribute gate-check read is visible inside its task item.
 * Returns null when it holds, else what differs.
 */
export function disagreement(source: string): string | null {
  const parsed = parseLedger(source);
  if (!parsed.ok) return null; // refusing is always allowed
  const view = render(source);
  const gates = parsed.ledger.gates;
  if (view.tasks.length !== gates.length) {
    return `renderer shows ${view.tasks.length} task items (${view.tasks.map((t) => JSON.stringify(t.text.slice(0, 30))).join(', ')}), gate-check found ${gates.length} gates (${gates.map((g) => g.id).join(', ')})`;
  }
  for (let n = 0; n < gates.length; n++) {
    const g = gates[n]!;
    const t = view.tasks[n]!;
    if (!t.topLevel || t.collapsed) return `gate ${g.id} renders nested or collapsed`;
    if (t.checked !== g.checked) return `gate ${g.id}: box ${g.checked ? 'checked' : 'open'} for gate-check, ${t.checked ? 'checked' : 'open'} on the page`;
    const title = NEUTRAL.test(g.title) ? collapse(`${g.id}: ${g.title}`) : `${g.id}:`;
    if (!t.text.startsWith(title)) return `gate ${g.id}: task text ${JSON.stringify(t.text.slice(0, 60))} does not start with its id and title`;
    for (const [k, line] of Object.entries(g.attributeLines)) {
      const written = collapse(parsed.ledger.lines[line - 1]!.text);
      // Inline Markdown (emphasis, escapes, entities, code spans) changes how a value looks,
      // not whether it is there: the exact text is compared only for values without it.
      const shown = NEUTRAL.test(written) ? written : `${k}:`;
      if (!t.text.includes(shown)) return `gate ${g.id}: ${k} (line ${line}) ${JSON.stringify(shown)} is not visible in its task item ${JSON.stringify(t.text.slice(0, 80))}`;
    }
  }
  return null;
}
