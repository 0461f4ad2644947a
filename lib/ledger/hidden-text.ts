// Markdown that a renderer shows as nothing, or whose extent the parser cannot see from one
// line: raw HTML (tags, comments, processing instructions, declarations, CDATA), link
// reference definitions, link titles and image descriptions that continue on the next
// line. Any of them can hide a CHECK or an EXPECT that the parser would read, or open
// something in the browser (a comment, an attribute value, a <details>) that hides the
// gates after it. The parser refuses them instead of modelling a browser. Pure, linear.

export interface Hidden {
  /** 0-based index in the line. */
  index: number;
  what: string;
  /** Only a problem when the paragraph goes on: the construct is left open at the line's end. */
  open?: boolean;
}

// CommonMark HTML block kinds 1 and 6: the tag name alone starts a block (no complete tag needed).
const BLOCK_TAGS = new Set(
  (
    'script pre style textarea address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav ' +
    'noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'
  ).split(' '),
);

// Inline elements without attributes that only style their text, which stays visible: <b>x</b>
// in a title is allowed. (Not ruby/rp, details, template, textarea, … which hide or swallow text.)
const PHRASING = new Set('b i em strong code kbd samp var sub sup s del ins u mark small q cite dfn abbr tt br wbr'.split(' '));

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isTagChar = (c: string | undefined) => isLetter(c) || (c !== undefined && ((c >= '0' && c <= '9') || c === '-'));
const isAttrStart = (c: string | undefined) => isLetter(c) || c === '_' || c === ':';
const isAttrChar = (c: string | undefined) => isAttrStart(c) || (c !== undefined && ((c >= '0' && c <= '9') || c === '.' || c === '-'));

type TagScan = 'tag' | 'open' | 'none';

// Scanning from each '<', '![' and '](' could revisit the same text many times on a hostile
// line ("](" ten thousand times): the work on one line is capped at a multiple of its length,
// and a line that exhausts it is refused.
let budget = 0;
const EXHAUSTED = new Error('hidden-text scan budget');

function spend(steps: number): void {
  budget -= steps;
  if (budget < 0) throw EXHAUSTED;
}

/**
 * The first hiding construct in the line, or null. `content` is where the line's content
 * starts after container markers (a link reference definition can only start there), or -1.
 * `continues`: the next line is not blank, so inline markup left open here could run on
 * into it (a blank line ends a paragraph, and with it every inline construct).
 */
/**
 * TeX commands that hide, overlap, move or restyle text where GitHub renders `$…$` or `$$…$$`
 * as math (`$\rlap{\phantom{;curl …|sh}}$` draws nothing), or show other text than the
 * source (`\text{…}`, `\mbox{…}`, `\verb!…!`, `{\rm …}`). No CHECK, EXPECT or title needs one: refused on any line outside a
 * code fence, whether or not its dollar signs would pair on the page (a `$$` block spans lines).
 */
export const TEX_HIDING =
  /\\(?:[hv]?phantom|[lrc]lap|math[lrc]lap|smash|color|textcolor|colorbox|fcolorbox|bbox|[hv]space|[hv]skip|kern|mkern|mskip|mspace|raisebox|raise|lower|move(?:left|right)|style|class|cssId|href|unicode|require|mathchoice|tiny|scriptsize|scriptscriptstyle|text[a-z]*|math[a-z]+|sym[a-z]+|ce|pu|ref|eqref|char|def|let|newcommand|begin|end|renewcommand|newenvironment|DeclareMathOperator|operatorname|boxed|cancel|enclose|toggle|tag|label|[hv]box|vtop|mbox|makebox|framebox|fbox|verb|mmlToken|Space|rm|bf|tt|sf|it|cal|frak|Tiny|small|normalsize|large|Large|LARGE|huge|Huge|footnotesize|displaystyle|textstyle|scriptstyle|neg(?:thin|med|thick)space|(?:thin|med|thick|en)space|q?quad|(?:math)?strut|over(?:set|brace)|under(?:set|brace)|stackrel|overline|underline)(?![A-Za-z])/;

export function findHiddenText(text: string, content: number, continues = true): Hidden | null {
  // Most lines have nothing that could start markup: one native scan settles them.
  if (!INTERESTING.test(text)) return null;
  const tex = text.includes('\\') ? TEX_HIDING.exec(text) : null;
  if (tex) return { index: tex.index, what: `TeX command ${tex[0]} (GitHub renders $…$ and $$…$$ as math, where it hides, moves or replaces text)` };
  budget = 8 * text.length + 256;
  marked = 0;
  try {
    const found = scan(text, content);
    return found && (continues || !found.open) ? found : null;
  } catch (error) {
    if (error !== EXHAUSTED) throw error;
    return { index: marked, what: 'markup too intricate to tell whether it hides text' };
  }
}

const INTERESTING = /[\\<!\[\]]/;
const NEXT = /[\\<!\]]/g;
let marked = 0;

function mark(i: number): void {
  marked = i;
}

/** Phrasing elements opened and not yet closed on the line being scanned. */
const open = new Map<string, number>();

function scan(text: string, content: number): Hidden | null {
  open.clear();
  const found = scanMarkup(text, content);
  if (found) return found;
  // Most lines open none: no iterator for them.
  if (open.size > 0) for (const [name, n] of open) if (n > 0) return { index: Math.max(0, text.toLowerCase().indexOf(`<${name}`)), what: `raw HTML <${name}> not closed on its line (a browser carries it into what follows)` };
  return null;
}

function scanMarkup(text: string, content: number): Hidden | null {
  if (content >= 0 && text[content] === '[') {
    const def = referenceDefinitionStart(text, content);
    if (def) return { index: content, what: def, open: def.includes('continues') };
  }
  // From one character that can start something to the next, at native speed.
  for (let i = 0; i < text.length; i++) {
    NEXT.lastIndex = i;
    if (!NEXT.test(text)) return null;
    i = NEXT.lastIndex - 1;
    const c = text[i];
    if (c === '\\') {
      i++; // a backslash-escaped character is literal
    } else if (c === '<') {
      mark(i);
      const what = htmlAt(text, i, content);
      if (what) return { index: i, what: what.what, open: what.open };
    } else if (c === '!' && text[i + 1] === '[') {
      mark(i);
      if (closingBracket(text, i + 2) === -1) return { index: i, what: 'an image description that continues on the next line (rendered as hidden alt text)', open: true };
    } else if (c === ']' && text[i + 1] === '(') {
      mark(i);
      const what = linkTail(text, i + 2);
      if (what) return { index: i, what, open: true };
    }
  }
  return null;
}

function htmlAt(text: string, i: number, content: number): { what: string; open: boolean } | null {
  const what = htmlKind(text, i, content);
  if (what === null) return null;
  return { what, open: what.includes('may continue') };
}

function htmlKind(text: string, i: number, content: number): string | null {
  const next = text[i + 1];
  if (next === '!') {
    if (text.startsWith('<!--', i)) return 'an HTML comment';
    if (text.startsWith('<![CDATA[', i)) return 'an HTML CDATA section';
    if (isLetter(text[i + 2])) return 'an HTML declaration';
    return null;
  }
  if (next === '?') return 'an HTML processing instruction';
  const closing = next === '/';
  const nameStart = closing ? i + 2 : i + 1;
  if (!isLetter(text[nameStart])) return null;
  let j = nameStart;
  while (isTagChar(text[j])) j++;
  spend(j - nameStart);
  const name = text.slice(nameStart, j).toLowerCase();
  const after = text[j];
  if (BLOCK_TAGS.has(name) && (after === undefined || isBlank(after) || after === '>' || text.startsWith('/>', j))) {
    return `raw HTML <${closing ? '/' : ''}${name}>`;
  }
  if (PHRASING.has(name)) {
    // <b>, <br/>, </b>: nothing hidden, unless the tag is alone on its line, where it starts
    // an HTML block (CommonMark kind 7) that swallows the lines after it as raw HTML.
    const end = text[j] === '>' ? j + 1 : !closing && text.startsWith('/>', j) ? j + 2 : -1;
    if (end !== -1) {
      const alone = i === content && isBlankFrom(text, end);
      if (alone) return `raw HTML <${closing ? '/' : ''}${name}> alone on its line (it starts an HTML block)`;
      // A browser carries an unclosed <b> into the gates after it: each must close on its line.
      // (<b/> opens one too: the slash means nothing on a non-void element.)
      if (name !== 'br' && name !== 'wbr') open.set(name, Math.max(0, (open.get(name) ?? 0) + (closing ? -1 : 1)));
      return null;
    }
  }
  const scan = closing ? closingTag(text, j) : openTag(text, j);
  if (scan === 'none') return null;
  return scan === 'tag' ? `raw HTML <${closing ? '/' : ''}${name}…>` : `raw HTML <${name} that may continue on the next line`;
}

function isBlankFrom(text: string, j: number): boolean {
  for (; j < text.length; j++) if (!isBlank(text[j])) return false;
  return true;
}

function skipBlanks(text: string, j: number): number {
  const from = j;
  while (isBlank(text[j])) j++;
  spend(j - from + 1);
  return j;
}

function closingTag(text: string, j: number): TagScan {
  j = skipBlanks(text, j);
  if (j === text.length) return 'open';
  return text[j] === '>' ? 'tag' : 'none';
}

/** An open tag's attributes from just after its name (CommonMark §6.6); 'open' when the line ends inside it. */
function openTag(text: string, j: number): TagScan {
  for (;;) {
    const before = j;
    j = skipBlanks(text, j);
    if (j === text.length) return 'open';
    if (text[j] === '>' || text.startsWith('/>', j)) return 'tag';
    if (j === before || !isAttrStart(text[j])) return 'none';
    const nameFrom = j;
    while (isAttrChar(text[j])) j++;
    spend(j - nameFrom);
    const afterName = j;
    j = skipBlanks(text, j);
    if (j === text.length) return 'open';
    if (text[j] !== '=') {
      j = afterName;
      continue;
    }
    j = skipBlanks(text, j + 1);
    if (j === text.length) return 'open';
    const q = text[j];
    if (q === '"' || q === "'") {
      const end = text.indexOf(q, j + 1);
      spend((end === -1 ? text.length : end) - j);
      if (end === -1) return 'open';
      j = end + 1;
    } else {
      const start = j;
      while (j < text.length && !isBlank(text[j]) && !'"\'=<>`'.includes(text[j]!)) j++;
      spend(j - start);
      if (j === start) return 'none';
    }
  }
}

/** Index of the `]` closing a bracket opened just before `from`, on this line, or -1. */
function closingBracket(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    spend(1);
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

/** After `](`: a link destination and title; refused when the title could continue on the next line. */
function linkTail(text: string, j: number): string | null {
  const spanning = 'a link whose destination or title continues on the next line (a title renders as a hidden tooltip)';
  j = skipBlanks(text, j);
  if (j === text.length) return spanning;
  if (text[j] === '<') {
    const end = text.indexOf('>', j + 1);
    spend((end === -1 ? text.length : end) - j);
    if (end === -1) return null;
    j = end + 1;
  } else {
    let depth = 0;
    while (j < text.length && !isBlank(text[j])) {
      spend(1);
      const c = text[j];
      if (c === '\\') j++;
      else if (c === '(') depth++;
      else if (c === ')' && depth-- === 0) return null;
      j++;
    }
  }
  j = skipBlanks(text, j);
  if (j === text.length) return spanning;
  const q = text[j];
  if (q !== '"' && q !== "'" && q !== '(') return null;
  const close = q === '(' ? ')' : q;
  for (let k = j + 1; k < text.length; k++) {
    spend(1);
    if (text[k] === '\\') k++;
    else if (text[k] === close) return null;
  }
  return spanning;
}

/** `[label]:` (a link reference definition renders as nothing), or a `[` whose label runs past the line. */
function referenceDefinitionStart(text: string, at: number): string | null {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') return null;
    else if (c === ']') return text[i + 1] === ':' ? 'a link reference definition (renders as nothing; its title can span lines)' : null;
  }
  return 'a "[" whose label continues on the next line (it may be a link reference definition, which renders as nothing)';
}
