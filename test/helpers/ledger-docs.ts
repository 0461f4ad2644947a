// Generated ledger-like documents for the differential test against a real renderer: gates
// and attributes mixed with every construct on which a renderer and a line parser could
// disagree (fences, lists, quotes, raw HTML, comments, link definitions, underline rows,
// NBSP, tabs, CRLF, look-alike attribute names).
import fc from 'fast-check';
import { attributeSkeleton, isColonLike } from '../../lib/ledger/attribute-names.js';
import { parseLedger } from '../../lib/ledger/parse.js';
import { ATTRIBUTE_KEYS } from '../../lib/ledger/types.js';
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
  'tests pass CHECK: node --test',
  'ok EXPECT: # fail 0',
);
/** Values whose rendered text hides part of the source (attack finding F2, F4), and look-alikes that do not. */
const valueMarkup = fc.constantFrom(
  'node --test "[](<" || echo "# fail 0 >)"',
  `echo '[ok](x "';echo HIDDEN;echo '")'`,
  `echo '![ok](<';echo HIDDEN;echo '>)'`,
  '[ok](x)',
  'a [ok](x "t") b',
  '![alt](x.png)',
  '![alt](<x y>)',
  '[ok](<a b>) c',
  'curl <https://example.com/x>',
  '<user@example.com>',
  'a <sub>b</sub> c',
  'x <sub><sub><sub>|| echo ok</sub></sub></sub>',
  '<small>tiny</small>',
  'a<b>c</b>',
  'a <br> b',
  'x &amp;&amp; y',
  '&#35; fail 0',
  'echo &#x6F;k',
  'echo &lt;b&gt;',
  // Not markup: shown as written.
  'cmd > out 2>&1',
  'sort < in.txt',
  "cat <<'EOF' | x",
  'test "a<b" = x',
  'a&b; c',
  '[ -f a ] && [ -f b ]',
  'echo "[x] (y)"',
  '<a:b> c',
);

function valueFor(k: string) {
  if (k === 'TIMEOUT') return fc.constantFrom('30', '5');
  if (k === 'CWD' || k === 'DEPENDS' || k === 'INPUTS') {
    return fc.oneof({ weight: 12, arbitrary: fc.constantFrom('scripts/x.mjs', 'a.b', 'src/{a,b}.js', 'x-y') }, { weight: 1, arbitrary: fc.constantFrom('[a](b)', '![a](b)', 'a<sub>b</sub>', '<x@y.z>', 'a&#47;b', 'a<b c') });
  }
  return fc.oneof({ weight: 12, arbitrary: neutralText }, { weight: 1, arbitrary: hostileValue }, { weight: 1, arbitrary: valueMarkup });
}

const gateLine = fc
  .tuple(fc.constantFrom(' ', 'x', 'X'), id, fc.oneof({ weight: 12, arbitrary: neutralText }, { weight: 1, arbitrary: hostileValue }))
  .map(([box, i, t]) => `- [${box}] ${i}: ${t}`);
const attributeLine = fc.tuple(indent, key).chain(([ind, k]) => valueFor(k).map((v) => `${ind}${k}: ${v}`));
const nearMiss = fc
  .tuple(
    indent,
    fc.constantFrom(
      'CHEK:', 'DEPEND:', 'EXPECTS:', '\u0421HECK:', 'CHE\u200bCK:', 'EXPECT\uff1a', 'CHECK :', 'Check:',
      // Written otherwise, rendered as an attribute (attack finding F3).
      'CHECK\\:', 'EXPECT\\:', '&#67;HECK:', 'CHECK&#58;', 'CHECK&colon;', '&Cscr;HECK:', '**CHECK:**', '*CHECK*:', '_EXPECT:_', '`CHECK:`',
      '<b>CHECK:</b>', 'C<b></b>HECK:', '<kbd>EXPECT</kbd>:', '<CHECK:node>', '[CHECK:](u)', '> CHECK:', '- EXPECT:', '# CHECK:', '1. CHECK:',
      '\u202e:KCEHC\u202c', '\u2067CHECK:\u2069',
    ),
  )
  .map(([ind, k]) => `${ind}${k} v`);
const structural = fc.constantFrom(
  '',
  '',
  '',
  'text',
  'lazy line',
  '  note under a gate',
  '  ran it with CHECK: npm test',
  'and **EXPECT:** ok',
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
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/**
 * Text as a person reads it, minus what only styles it: emphasis, strikethrough and code
 * delimiters, backslashes (escapes) and blanks (a code span drops one at each end) are
 * dropped on both sides. What is left of a value must be on the page; a link's destination
 * or title, an image's description, a tag or the name of a character reference is not.
 */
const seen = (s: string) => s.replace(/[*_~`\\\s]/g, '');

/** The attribute a line of the page starts with, as a reader takes it (look-alikes, any case), or null. */
function shownAttribute(line: string): string | null {
  const chars = Array.from(line.slice(0, 200));
  let i = 0;
  let name = '';
  while (i < chars.length && chars[i] !== ' ' && !isColonLike(chars[i])) name += chars[i++];
  while (chars[i] === ' ') i++;
  if (name === '' || !isColonLike(chars[i])) return null;
  const skeleton = attributeSkeleton(name);
  return ATTRIBUTE_KEYS.find((k) => attributeSkeleton(k) === skeleton) ?? null;
}

// On the page: blanks, and the punctuation before a name that reads as a separator.
const PAGE_BLANK = /\s/;
const PAGE_NOT_BEFORE_NAME = /[\p{L}\p{N}_"'\u2018\u2019\u201c\u201d]/u;
const PAGE_NAME = /[\p{L}\p{N}\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * How many attribute names followed by a colon a reader sees in the text of the page: a word
 * in upper case (any script) whose UTS #39 skeleton is an attribute's, without its invisible
 * characters, before any character that reads as a colon, after the start or anything but a
 * letter, a digit or a quote.
 */
export function pageAttributeNames(text: string): number {
  const chars = Array.from(text);
  let count = 0;
  for (let c = 0; c < chars.length; c++) {
    if (!isColonLike(chars[c])) continue;
    let end = c;
    while (end > 0 && PAGE_BLANK.test(chars[end - 1]!)) end--;
    let begin = end;
    while (begin > 0 && (PAGE_NAME.test(chars[begin - 1]!) || /\p{L}/u.test(chars[begin - 1]!.normalize('NFKD'))) && !isColonLike(chars[begin - 1])) begin--;
    if (begin === end || (begin > 0 && PAGE_NOT_BEFORE_NAME.test(chars[begin - 1]!))) continue;
    const word = chars.slice(begin, end).join('');
    if (word !== word.toUpperCase()) continue;
    const skeleton = attributeSkeleton(word);
    if (ATTRIBUTE_KEYS.some((k) => attributeSkeleton(k) === skeleton)) count++;
  }
  return count;
}

/**
 * The differential property: when gate-check accepts a document, the rendered page shows
 * exactly its gates, in order, as top-level task items outside any collapsed element, with
 * the same box state; the text a person sees in each task item (no href, title or alt)
 * holds every attribute gate-check read with its value, in order; and no line of the item
 * reads as an attribute that gate-check did not read. Returns null when it holds, else what differs.
 */
export function disagreement(source: string): string | null {
  const parsed = parseLedger(source);
  if (!parsed.ok) return null; // refusing is always allowed
  const view = render(source);
  const bidi = BIDI.exec(view.text);
  if (bidi) return `the page holds the bidi control U+${bidi[0].codePointAt(0)!.toString(16).toUpperCase()}, which reorders what a person reads`;
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
    const page = seen(t.text);
    let from = 0;
    const read = new Map<string, number>();
    for (const [k, line] of Object.entries(g.attributeLines).sort((a, b) => a[1] - b[1])) {
      read.set(k, (read.get(k) ?? 0) + 1);
      const written = parsed.ledger.lines[line - 1]!.text;
      const value = written.slice(written.indexOf(':') + 1).trim();
      if (k === 'CHECK' && value !== g.check) return `gate ${g.id}: CHECK read as ${JSON.stringify(g.check)}, written ${JSON.stringify(value)}`;
      // EVIDENCE is the person's own record (a link to a review is fine there): only its name must show.
      const shown = k === 'EVIDENCE' ? 'EVIDENCE:' : seen(`${k}: ${value}`);
      const at = page.indexOf(shown, from);
      if (at === -1) return `gate ${g.id}: ${k} (line ${line}) ${JSON.stringify(shown)} is not what a person sees in its task item ${JSON.stringify(page.slice(0, 120))}`;
      from = at + shown.length;
    }
    // GitHub runs a gate's lines together: an attribute name anywhere in the item reads as one.
    const named = pageAttributeNames(t.text.replace(/[*_~`\\]/g, ''));
    const total = Object.keys(g.attributeLines).length;
    if (named > total) return `gate ${g.id}: the page names ${named} attributes in ${JSON.stringify(t.text.slice(0, 80))}, gate-check read ${total}`;
    for (const l of t.lines) {
      const k = shownAttribute(l);
      if (k === null) continue;
      const left = read.get(k) ?? 0;
      if (left === 0) return `gate ${g.id}: the page shows ${JSON.stringify(l.slice(0, 40))}, an attribute ${k} that gate-check did not read`;
      read.set(k, left - 1);
    }
  }
  return null;
}

const shellWord = fc.constantFrom('ok', 'node', '--test', '|| echo "# fail 0"', ';echo HIDDEN;', 'x.sh', 'a b', '"', "'", '#', '42');
const shellText = fc.array(shellWord, { minLength: 0, maxLength: 3 }).map((ws) => ws.join(' '));
/** An inline construct that shows other text than its source, with shell text in it. */
const hidingConstruct = fc.oneof(
  fc.tuple(shellText, shellText, fc.constantFrom('', ' "t"', " 't'", ' (t)')).map(([text, dest, title]) => `[${text}](<${dest}>${title})`),
  fc.tuple(shellText, fc.constantFrom('x', 'u/v', '#a')).map(([text, dest]) => `[${text}](${dest})`),
  fc.tuple(shellText, shellText).map(([alt, src]) => `![${alt}](<${src}>)`),
  fc.tuple(fc.constantFrom('https://x.y/', 'ab:', 'mailto:'), fc.constantFrom('a', 'p?q=1', 'z')).map(([scheme, rest]) => `<${scheme}${rest}>`),
  fc.constantFrom('<me@example.com>'),
  fc.tuple(fc.constantFrom('sub', 'sup', 'small', 'b', 'span', 'code', 'kbd'), fc.integer({ min: 1, max: 4 }), shellText).map(([tag, depth, text]) => `<${tag}>`.repeat(depth) + text + `</${tag}>`.repeat(depth)),
  fc.constantFrom('&amp;&amp;', '&#35;', '&#x7C;&#x7C;', '&lt;', '<!-- x -->', '<br>'),
);
/** A one-gate ledger with a hiding construct somewhere in one of its values (attack findings F2, F4). */
export const hidingValueLedger = fc
  .tuple(fc.constantFrom('CHECK', 'EXPECT', 'CWD', 'DEPENDS', 'INPUTS'), shellText, hidingConstruct, shellText)
  .map(([key, before, construct, after]) => {
    const value = `${before} ${construct} ${after}`.trim();
    const attrs = new Map([['CHECK', 'node --test'], ['EXPECT', 'ok']]);
    attrs.set(key, value);
    return ['- [ ] G1: the check passes', ...[...attrs].map(([k, v]) => `  ${k}: ${v}`)].join('\n') + '\n';
  });

/** Ways to write an attribute name (and its colon) that the page shows as the name: markup, references, invisible characters, look-alikes. */
const disguisedName = fc.constantFrom('CHECK', 'EXPECT', 'DEPENDS', 'INPUTS', 'EVIDENCE').chain((k) =>
  fc.constantFrom(
    `${k}:`,
    `${k}\\:`,
    `${k}&#58;`,
    `${k}&colon;`,
    `&#${k.charCodeAt(0)};${k.slice(1)}:`,
    `*${k[0]}*${k.slice(1)}:`,
    `**${k}**:`,
    `\`${k}\`:`,
    `<kbd>${k}</kbd>:`,
    `<b>${k[0]}</b>${k.slice(1)}:`,
    `${k[0]}&shy;${k.slice(1)}:`,
    `${k[0]}\u00ad${k.slice(1)}:`,
    `${k.slice(0, 2)}\u200b${k.slice(2)}:`,
    `${k.slice(0, 2)}&#8203;${k.slice(2)}:`,
    `${k}\uff1a`,
    `${k}\ufe55`,
    `${k}\ufe13`,
    `${k}\u2236`,
    `${k} :`,
    Array.from(k, (ch) => ({ C: '\u0421', E: '\u0415', H: '\u041d', K: '\u041a', P: '\u0420', T: '\u0422' })[ch] ?? ch).join('') + ':',
    Array.from(k, (ch) => String.fromCodePoint(ch.charCodeAt(0) - 65 + 0xff21)).join('') + ':',
    `${k.replace('I', '1')}:`,
    // Found by the second attack: small capitals, syllabics, circled letters, a braille colon.
    Array.from(k, (ch) => ({ C: '\u1d04', H: '\u029c', E: '\u1d07', K: '\u1d0b', P: '\u1d18', T: '\u1d1b', D: '\u1d05', N: '\u0274', S: '\ua731', U: '\u1d1c', I: '\u026a', V: '\u1d20' })[ch] ?? ch).join('') + ':',
    `${k.replace(/C/g, '\u1455')}:`,
    Array.from(k, (ch) => String.fromCodePoint(ch.charCodeAt(0) - 65 + 0x24b6)).join('') + ':',
    `${k}\u2806`,
  ),
);
const beforeName = fc.constantFrom('', ' ', '&nbsp;', '&#32;', '&emsp;', '\u00a0', '(', 'x ', '\u2800', '-', '/', '{');
/**
 * A gate whose title, a note line (at its start, or inside) or a value holds an attribute
 * name the page shows (attack finding A1 of the reviewer-fidelity attack): GitHub shows the
 * gate's lines as one paragraph, so a manual gate reads as a runnable one.
 */
export const disguisedAttributeLedger = fc
  .tuple(fc.constantFrom('title', 'note', 'value'), fc.boolean(), beforeName, disguisedName, neutralText)
  .map(([where, checked, before, name, rest]) => {
    const box = checked ? 'x' : ' ';
    if (where === 'title') return `- [${box}] G1: tests pass ${before}${name} ${rest}\n  EVIDENCE: exit=0\n`;
    if (where === 'note') return `- [${box}] G1: tests pass\n  ${before}${name} ${rest}\n  EVIDENCE: exit=0\n`;
    return `- [${box}] G1: tests pass\n  CHECK: node --test ${before}${name} ${rest}\n  EXPECT: ok\n`;
  });
