// What a gate claims, as the page shows it: its title and the prose in its list item.
//
// A renderer shows the lines under a gate line as part of the gate (one paragraph with its
// title and attributes, or more paragraphs of its item), so "the build\n  passes on Linux"
// reads as one claim. A pass proves the claim as it read when it ran: the record keeps a
// digest of this text, and a rewrite of any of it after the pass calls for a new run.
import type { SourceLine } from './lines.js';
import type { Gate } from './types.js';

/**
 * A column-0 line that certainly ends the item's paragraph: a new list item with content, an
 * ATX heading, a block quote, a code fence, a thematic break, or an HTML block
 * of a kind that can interrupt a paragraph (CommonMark 4.6, kinds 1 to 6). Anything else
 * (`#1234 …`, `<b>…`, `| …`, ```` ```x``` ````, `2. …`, `===`, `-_-`, ABANDON: lines) may continue the
 * paragraph on the page, and is taken as part of the claim.
 */
const ENDS_PARAGRAPH = new RegExp(
  [
    '[-*+][ \\t]+\\S',
    '1[.)][ \\t]+\\S',
    '#{1,6}(?:[ \\t]|$)',
    '>',
    '`{3,}[^`]*$',
    '~{3,}',
    // A thematic break: three or more of one of - * _ (a setext underline at column 0 does
    // not underline an item's paragraph: `===` there is lazy text).
    '(?:-[ \\t]*){3,}$',
    '(?:\\*[ \\t]*){3,}$',
    '(?:_[ \\t]*){3,}$',
    '<(?:script|pre|style|textarea)(?:[ \\t>]|$)',
    '<!--',
    '<\\?',
    '<![A-Za-z]',
    '<!\\[CDATA\\[',
    '</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \\t>]|/>|$)',
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '^(?:')
    .concat(')'),
  'i',
);

const BLANK = /^[ \t]*$/;

/**
 * The gate's title, then (when there are any) the prose lines of its item, each trimmed,
 * with whitespace runs made one space (a renderer shows them so), blank lines dropped.
 * Attribute lines (EVIDENCE among them) are not prose. Counts more lines than a renderer
 * might rather than fewer: an extra line costs a re-run, a missed one a pass for a claim
 * never run.
 */
export function gateClaim(lines: readonly SourceLine[], gate: Gate): string {
  const attributes = new Set<number>();
  for (const line of Object.values(gate.attributeLines)) if (line !== undefined) attributes.add(line - 1);
  if (gate.evidenceIndex !== null) attributes.add(gate.evidenceIndex);
  const prose: string[] = [];
  let previousBlank = false;
  for (let i = gate.lineIndex + 1; i < lines.length; i++) {
    const text = lines[i]!.text;
    // Blank as CommonMark says: nothing but spaces and tabs (a no-break space or a vertical
    // tab is text on the page).
    if (BLANK.test(text)) {
      previousBlank = true;
      continue;
    }
    const trimmed = text.trim();
    const indented = text.charCodeAt(0) === 32 || text.charCodeAt(0) === 9;
    // At column 0, only text that lazily continues the paragraph above stays in the item.
    // (The next gate line, the usual end, is told without the pattern.)
    if (!indented && (previousBlank || text.startsWith('- [') || ENDS_PARAGRAPH.test(text))) break;
    previousBlank = false;
    if (attributes.has(i)) continue;
    prose.push(trimmed.replace(/\s+/g, ' '));
  }
  return prose.length === 0 ? gate.title : `${gate.title}\n${prose.join('\n')}`;
}
