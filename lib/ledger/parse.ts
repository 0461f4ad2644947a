// The strict ledger parser (DESIGN §3). Pure: text in, gates or every error out.
// Fields are plain strings; nothing here goes through YAML or any other value parser.
//
// A reviewer reads the ledger rendered (GitHub: cmark-gfm with raw HTML, then a browser). The
// parser is not a Markdown renderer: it reads a strict subset and refuses, with the line,
// whatever a renderer could show differently (test/adversarial/renderer.test.ts checks it
// against micromark and parse5). Every scan here is linear in the line or bounded.
import type { Diagnostic } from '../errors.js';
import { codePointName, findInvisibleChar, findUnsafeChar, sanitizeLine } from '../text/sanitize.js';
import { inlineAttribute, isColonLike, nearMissAttribute, type InlineAttribute, type NearMiss } from './attribute-names.js';
import { closesFence, containers, fenceAt, isUnderlineRow, leading, taskBoxAt, type FenceRun } from './block-syntax.js';
import { parseExpect } from './expect.js';
import { braceExpansionCount, MAX_PATTERNS_PER_ATTRIBUTE } from './globs.js';
import { findHiddenText, TEX_HIDING } from './hidden-text.js';
import { MATH_READINGS, NO_MATH, texCommentInMath, type MathHiding, type MathState } from './tex-math.js';
import { findValueMarkup, renderedStart } from './inline-markup.js';
import { lazyField } from '../lazy-field.js';
import { lazyRegExp } from '../text/lazy-regexp.js';
import { splitLines } from './lines.js';
import { strikeAcrossAttributes, type ParagraphLine } from './strikethrough.js';
import { expansionBudget, normalizeGlob, normalizeRelativePath, splitPathList, type ExpansionBudget } from './paths.js';
import { ATTRIBUTE_KEYS, GATE_ID_PATTERN, type AttributeKey, type Gate, type Ledger, type ParseResult } from './types.js';

const GATE_LINE = /^- \[([ xX])\] (.*)$/s;
/**
 * What tex-math.ts looks for inside a pair of dollar signs: "%", a backslash, TeX syntax,
 * amscd's "@", "~" (drawn as a blank) and anything outside ASCII. A prime breaks a formula
 * only after a '^' or '_', so it needs no place here.
 */
const MATH_HIDING_CHARS = /[%\\{}#&^_@~\u0080-\uffff]/;
// The plain lines (parserSettings.plainLines): a gate line and an attribute line, two spaces
// in, with none of the characters that can start markup (findHiddenText's \ < ! [ ]; an
// attribute's value may hold backslashes, as regex EXPECTs do: an escape only makes the
// character after it literal, and the ones that could start markup are refused anyway).
// Whatever the state outside a fence or a comment, the full reading of such a line takes
// the same branch and reports nothing but what that branch reports; it only costs more.
const PLAIN_GATE = /^- \[[ xX]\] [^\\<!\[\]]*$/;
const PLAIN_ATTRIBUTE = /^  (?:CHECK|EXPECT|CWD|DEPENDS|INPUTS|TIMEOUT|EVIDENCE):[^<!\[\]]*$/;
// The plain attribute lines right under a plain gate line, in the order of ATTRIBUTE_KEYS
// (each may be absent): one native match reads the block that most gates are. Used only in
// a file without NUL or bidi controls; a value holds none of the characters PLAIN_ATTRIBUTE
// refuses, nor a CR (lines with one take the line-by-line reading, which reports it).
const PLAIN_VALUE = String.raw`([^<!\[\]\n\r]*)\r?\n`;
const PLAIN_BLOCK = new RegExp(ATTRIBUTE_KEYS.map((k) => `(?:  ${k}:${PLAIN_VALUE})?`).join(''), 'y');
const ATTRIBUTE_SET: ReadonlySet<string> = new Set(ATTRIBUTE_KEYS);
const TIMEOUT_VALUE = /^[1-9][0-9]{0,5}$/;
/** The same bound as --timeout. */
export const MAX_TIMEOUT_SECONDS = 86_400;
/** Errors (and, separately, warnings) collected from one ledger; the rest are counted. */
export const MAX_DIAGNOSTICS = 1000;
/** The list item of a gate line ("- [ ] ") starts its content at this column. */
const GATE_CONTENT_COLUMN = 2;

interface Fence extends FenceRun {
  line: number;
}

interface Comment {
  line: number;
  /** Columns of the opening line: a line indented less ends the list item holding it. */
  indent: number;
  cut: boolean;
}

interface GateBuilder {
  gate: Gate;
  /** Raw attribute values (trimmed) by key; validated when the file has been read. */
  raw: Partial<Record<AttributeKey, string>>;
  /** A gate line with errors: its attributes are swallowed so errors do not cascade. */
  broken: boolean;
  /** Attributes a near-miss line was probably meant to be (no second error for their absence). */
  misspelt: AttributeKey[] | null;
  /** 0-based column of each raw value in its line, for messages. */
  valueColumn: Partial<Record<AttributeKey, number>>;
}

/** Only spaces and tabs: String#trim would also drop NBSP and U+FEFF, which must be seen and refused. */
function trimBlanks(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && (text[a] === ' ' || text[a] === '\t')) a++;
  while (b > a && (text[b - 1] === ' ' || text[b - 1] === '\t')) b--;
  return text.slice(a, b);
}

/**
 * Test seam: plainLines off reads every line the full way (test/ledger/parse.property.test.ts
 * compares the two readings). Nothing else sets it.
 */
export const parserSettings: { plainLines: boolean } = { plainLines: true };

// A ledger's lines as the writer needs them (lines.ts), split only when read: a status reads
// every line once from the source in place, which allocates a fraction of it.
const withLines = lazyField<Ledger, 'lines', string>('lines', splitLines);

export interface ParseOptions {
  /**
   * Called every CHECKPOINT_LINES lines and CHECKPOINT_GATES gates; what it throws ends the
   * parse (the Stop hook's deadline: a ledger at the size limit is parsed within it).
   */
  checkpoint?: () => void;
}

const CHECKPOINT_LINES = 4096;
const CHECKPOINT_GATES = 256;

export function parseLedger(source: string, options: ParseOptions = {}): ParseResult {
  const checkpoint = options.checkpoint;
  const expansions = expansionBudget();
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  // Past MAX_DIAGNOSTICS, diagnostics are only counted: a hostile file can make one per line.
  const dropped = { errors: 0, warnings: 0, errorLine: 0, warningLine: 0 };
  const err = (line: number, message: string) => {
    if (errors.length < MAX_DIAGNOSTICS) errors.push({ line, message });
    else {
      dropped.errors++;
      dropped.errorLine = Math.max(dropped.errorLine, line);
    }
  };
  const warn = (line: number, message: string) => {
    if (warnings.length < MAX_DIAGNOSTICS) warnings.push({ line, message });
    else {
      dropped.warnings++;
      dropped.warningLine = Math.max(dropped.warningLine, line);
    }
  };

  const builders: GateBuilder[] = [];
  // Where each builder's gate line starts in the source (for what spans a gate's lines).
  const gateStarts: number[] = [];
  const firstLineOfId = new Map<string, number>();
  const abandons = new Map<string, { reason: string; line: number }>();
  const owns: string[] = [];
  let current: GateBuilder | null = null;
  // The gate whose body a column-0 line ended last: named when an attribute turns up after it.
  const last: { ended: { id: string; at: number } | null } = { ended: null };
  let fence: Fence | null = null;
  let comment: Comment | null = null;
  // Whether the last line at column 0 opened a list item or a block quote: an indented line
  // after it may belong to that container.
  let inContainer = false;
  // Filled for each line, not allocated: a ledger can have hundreds of thousands of lines.
  const leadOf = { columns: 0, index: 0 };
  const boxOf = { content: 0, quote: false, markers: 0 };
  // Whether the line before is paragraph text that started on a list item's line: an
  // underline row after it (even after lazy lines at column 0) makes that item a heading.
  let itemParagraph = false;

  const endBody = (at: number) => {
    if (current && !current.broken) last.ended = { id: current.gate.id, at };
    current = null;
  };

  // One scan of the whole text decides whether lines need the NUL / bare-CR checks.
  const mayHaveNul = source.includes('\u0000');
  const mayHaveBareCr = /\r(?!\n)/.test(source);
  const mayHaveBidi = BIDI_CONTROL.test(source);
  const mayHavePageBlank = PAGE_BLANK_CONTROL.test(source);
  // A TeX command that hides text on GitHub is found by the full reading (findHiddenText),
  // which the plain lines skip (an attribute's value may hold backslashes): none are plain then.
  // A '%', a TeX command or TeX syntax inside $…$ can hide text on the page (tex-math.ts): a
  // source with a dollar sign and any of them is read the full way too.
  const mathComments = source.includes('$') && MATH_HIDING_CHARS.test(source);
  // Each reading of where a pair opens and closes (MATH_READINGS: GitHub's rules are known
  // from reports only) follows the paragraph; a line is refused if any of them hides something.
  const noMath: readonly MathState[] = MATH_READINGS.map(() => NO_MATH);
  let maths = noMath;
  // Lines where findHiddenText named a TeX command (the math check does not name it again).
  const texLines = new Set<number>();
  const plainLines = parserSettings.plainLines && !TEX_HIDING.test(source);
  // Attribute blocks are read whole (PLAIN_BLOCK) where no line needs the checks above.
  const blockable = !mayHaveNul && !mayHaveBidi && !mayHavePageBlank && plainLines && !mathComments;
  /** Follows the pairs of $ through a paragraph's lines; a '%', a TeX command or broken TeX syntax inside one is an error. */
  const checkMath = (text: string, lineNo: number, newItem: boolean): void => {
    if (newItem) maths = noMath; // a new list item is a new paragraph
    let h: MathHiding | null = null;
    const next: MathState[] = [];
    for (let k = 0; k < MATH_READINGS.length; k++) {
      const found = texCommentInMath(text, lineNo, maths[k]!, MATH_READINGS[k]);
      h ??= found.hidden;
      next.push(found.state);
    }
    maths = next;
    // A command the list above names was reported on its own line already: once is enough.
    if (h === null || texLines.has(h.line)) return;
    err(
      h.line,
      h.what === '"%"'
        ? `"%" inside $…$ at column ${h.column + 1}: GitHub renders the dollar pair as math, where "%" starts a TeX comment that hides the rest of the line; put the command in a script, or keep the $ signs from pairing (references/gates.md)`
        : h.why !== undefined
          ? `${h.what.startsWith('\\') ? 'TeX command ' : ''}${sanitizeLine(h.what, 40)} inside $…$ at column ${h.column + 1}: GitHub renders the dollar pair as math, where ${h.why}${h.shows === 'error' ? ', so the page shows an error box in place of the whole formula' : ''}; put the command in a script, or keep the $ signs from pairing (references/gates.md)`
          : `TeX command ${sanitizeLine(h.what, 40)} inside $…$ at column ${h.column + 1}: GitHub renders the dollar pair as math, where a TeX command can hide, move or replace text; put the command in a script, or keep the $ signs from pairing (references/gates.md)`,
    );
    if (current) current.broken = true;
  };
  // Where the next line starts: the lines are cut from the source as splitLines cuts them
  // (a CR before the LF is not part of the text; the last line may have no LF).
  let nextStart = 0;
  for (let i = 0; nextStart < source.length; i++) {
    if (checkpoint !== undefined && (i & (CHECKPOINT_LINES - 1)) === 0) checkpoint();
    const lineNo = i + 1;
    const start = nextStart;
    const nl = source.indexOf('\n', start);
    nextStart = nl === -1 ? source.length : nl + 1;
    let text = nl === -1 ? source.slice(start) : source.slice(start, nl > start && source.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    if (i === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (mayHaveNul && text.includes('\u0000')) err(lineNo, 'NUL byte in the ledger');
    if (mayHaveBareCr && text.includes('\r')) err(lineNo, 'bare carriage return (CR without LF): renderers break the line here, the parser would not');
    if (mayHaveBidi) {
      const bidi = BIDI_CONTROL.exec(text);
      if (bidi) err(lineNo, `bidi control ${codePointName(bidi[0])} at column ${bidi.index + 1}: a browser reorders the text around it, so the page shows it in another order than gate-check reads it (refused anywhere in a ledger)`);
    }
    if (mayHavePageBlank) {
      const blank = PAGE_BLANK_CONTROL.exec(text);
      if (blank) err(lineNo, `${codePointName(blank[0])} at column ${blank.index + 1}: GitHub reads it as a blank where gate-check does not (in a table's divider row, inside an HTML tag), so the page could hide part of a gate that gate-check reads (refused anywhere in a ledger)`);
    }
    if (i === 0 && isFrontMatterFence(text)) {
      err(lineNo, 'a ledger must not start with "---": GitHub renders YAML front matter as a table, and a gate inside it would not show as a task');
    }

    if (fence) {
      if (closesFence(text, fence)) fence = null;
      continue;
    }
    // The common lines of a ledger, read by one native test each instead of the scanners
    // below (a 5,000-gate status spent most of its parse there).
    if (comment === null && plainLines) {
      if (text.length === 0) {
        itemParagraph = false;
        maths = noMath;
        continue;
      }
      const cur = current as GateBuilder | null;
      if (cur !== null && !cur.broken && text.charCodeAt(0) === 32 && PLAIN_ATTRIBUTE.test(text)) {
        if (mathComments) {
          checkMath(text, lineNo, false);
          if (cur.broken) continue; // as the full reading does: a broken gate records no more
        }
        const keyEnd = text.indexOf(':');
        addAttribute(cur, plainKey(text, keyEnd), text, keyEnd, 2, i, err);
        continue;
      }
      if (text.charCodeAt(0) === 45 && PLAIN_GATE.test(text)) {
        if (mathComments) checkMath(text, lineNo, true);
        // As the full reading of a gate line sets them: a list item whose paragraph has begun.
        inContainer = true;
        itemParagraph = true;
        current = startGate(text.charCodeAt(3) !== 32, text.slice(6), i, err, firstLineOfId);
        builders.push(current);
        gateStarts.push(start);
        last.ended = null;
        if (!current.broken && blockable && source.charCodeAt(nextStart) === 32) {
          // As many plain attribute lines, read line by line, would be recorded.
          PLAIN_BLOCK.lastIndex = nextStart;
          const block = PLAIN_BLOCK.exec(source);
          if (block !== null && block[0].length > 0) {
            for (let k = 0; k < ATTRIBUTE_KEYS.length; k++) {
              const value = block[k + 1];
              if (value === undefined) continue;
              i++;
              recordAttribute(current, ATTRIBUTE_KEYS[k]!, value, ATTRIBUTE_KEYS[k]!.length + 3, TWO_SPACES, i, err);
            }
            nextStart += block[0].length;
          }
        }
        continue;
      }
    }
    const lead = leading(text, leadOf);
    const blank = lead.index === text.length;
    if (comment) {
      if (readCommentLine(text, lead, blank, lineNo, comment, err, warn)) comment = null;
      continue;
    }
    if (blank) {
      itemParagraph = false;
      maths = noMath; // a blank line ends the paragraph, and every math pair in it
      continue;
    }
    const column0 = lead.index === 0;
    const leadChar = text.charCodeAt(lead.index);
    // Container markers start with > - * + or a digit; other lines are their own content.
    const box = leadChar === 62 || leadChar === 45 || leadChar === 42 || leadChar === 43 || (leadChar >= 48 && leadChar <= 57) ? containers(text, boxOf) : plainBox(boxOf, lead.index);
    // Text at column 0 that lazily continues a list item's paragraph keeps the item open: an
    // indented fence after it is inside the item for a renderer.
    const lazy = column0 && itemParagraph && box.markers === 0 && !box.quote && leadChar !== 35 && leadChar !== 96 && leadChar !== 126;
    if (column0 || (!inContainer && lead.columns <= 3)) inContainer = box.quote || box.markers > 0 || lazy;
    const afterItemParagraph = itemParagraph;
    itemParagraph = box.markers > 0 ? box.content < text.length : itemParagraph && !box.quote && !text.startsWith('#', lead.index);

    // Code fences: only where a fence is a top-level block (at column 0, or indented up to
    // three columns outside any list item or quote). An indented fence after a list item
    // may sit inside it, and a renderer ends such a fence where the item ends.
    // Four columns in at the top level, it is indented code (or paragraph text): no fence.
    const fenceOpen = leadChar === 96 || leadChar === 126 ? fenceAt(text, lead.index) : null;
    if (fenceOpen && (inContainer || lead.columns <= 3)) {
      if (column0 || !inContainer) {
        endBody(lineNo);
        fence = { ...fenceOpen, line: lineNo };
      } else {
        err(lineNo, `indented code fence (${fenceOpen.char.repeat(3)}) under a list item: renderers read it as inside the item and end it where the item ends; start fences at column 0`);
      }
      continue;
    }
    if (box.content > lead.index && fenceAt(text, box.content)) {
      err(lineNo, 'code fence inside a list item or block quote: renderers end it where the container ends; start fences at column 0');
      continue;
    }

    // HTML comments: a block that starts the line. Inside a gate's list item (content at
    // column 2) it may be indented up to 5 columns; elsewhere up to 3.
    if (text.startsWith('<!--', lead.index) && (lead.columns <= 3 || (current !== null && lead.columns <= GATE_CONTENT_COLUMN + 3))) {
      if (lead.columns < GATE_CONTENT_COLUMN) endBody(lineNo);
      const opened: Comment = { line: lineNo, indent: lead.columns, cut: false };
      const rest = text.slice(lead.index + 4);
      if (looksLikeGateOrHandoff(rest.trimStart())) warn(lineNo, 'ignored: inside an HTML comment, which renders invisibly');
      comment = readCommentLine(text, lead, false, lineNo, opened, err, warn, lead.index + 2) ? null : opened;
      continue;
    }

    let hidden = findHiddenText(text, box.content);
    if (hidden?.open) {
      if (nextStart >= source.length || isBlankLine(lineAt(source, nextStart))) hidden = null;
    }
    if (hidden) {
      err(lineNo, `${hidden.what} at column ${hidden.index + 1}: renderers hide text there that the parser would read; remove it (or move it into a code fence)`);
      if (current) current.broken = true;
      if (hidden.what.startsWith('TeX command')) texLines.add(lineNo);
    }
    // Only a list item that can interrupt a paragraph starts a new one (CommonMark: a bullet or
    // "1." / "1)" with content); `2) …` or a lone `*` continues it, dollar pairs and all (round-40a F1).
    if (mathComments) checkMath(text, lineNo, box.markers > 0 && interruptsParagraph(text, lead.index));

    // GATE_LINE, read without a match object: "- [", a box of ' ', 'x' or 'X', "] ", the rest.
    if (leadChar === 45 && isGateLine(text)) {
      current = startGate(text.charCodeAt(3) !== 32, text.slice(6), i, err, firstLineOfId);
      if (hidden) current.broken = true;
      builders.push(current);
      gateStarts.push(start);
      last.ended = null;
      continue;
    }

    if (text.charCodeAt(box.content) === 91 && taskBoxAt(text, box.content)) {
      if (box.quote) {
        err(lineNo, 'task item inside a block quote: gates are written at column 0 as "- [ ] ID: title"');
      } else if (!column0 || box.markers > 1) {
        err(lineNo, 'nested task item: gates start at column 0; an indented "- [ ]" (or "- - [ ]" on one line) is not a gate, and its attributes must not attach to the gate above');
      } else {
        err(lineNo, 'malformed gate line: write "- [ ] ID: title" or "- [x] ID: title" (a dash, one space, the box, one space)');
      }
      // Swallow what follows so its attributes attach to nothing.
      current = brokenGate(i);
      continue;
    }

    if (column0) {
      // Directly under a gate line, a renderer continues the gate's paragraph with this line:
      // a look-alike of an attribute here reads as part of the gate.
      // So does a line after lazy text that continued the gate's paragraph.
      const body = current as GateBuilder | null;
      const continues = body ? !body.broken : afterItemParagraph && last.ended !== null;
      const keyEnd = nameColon(text, 0);
      const name = keyEnd === -1 ? null : text.slice(0, keyEnd);
      if (continues && !(name !== null && ATTRIBUTE_SET.has(name))) {
        const miss = nearMissOf(text, false);
        if (miss) {
          err(lineNo, miss.message);
          if (body) (body.misspelt ??= []).push(miss.attribute);
        } else {
          inlineAttributeError(text, lineNo, err);
        }
      }
      endBody(lineNo);
      // `ABANDON G1 reason` without the colon would be prose, and the gate silently stay open.
      if (name === null && /^(?:ABANDON|OWNS)[ \t]/.test(text)) {
        err(lineNo, `${text.startsWith('OWNS') ? 'OWNS' : 'ABANDON'} needs a colon: write ${text.startsWith('OWNS') ? 'OWNS: PATTERN' : 'ABANDON: ID reason'}`);
        continue;
      }
      if (name === null) continue;
      const upper = name.toUpperCase();
      if (name === 'ABANDON') {
        parseAbandon(text.slice(keyEnd + 1), lineNo, abandons, err);
      } else if (name === 'OWNS') {
        if (builders.length > 0) err(lineNo, 'OWNS must come before the first gate');
        else for (const p of splitPathList(text.slice(keyEnd + 1))) {
          const n = normalizeGlob(p, expansions);
          if (n.ok) owns.push(n.value);
          else err(lineNo, `OWNS: ${n.reason}`);
        }
      } else if (ATTRIBUTE_SET.has(name)) {
        err(lineNo, `unindented ${name}: attributes are indented under their gate`);
      } else if (upper === 'ABANDON' || upper === 'OWNS') {
        err(lineNo, `write ${upper} in upper case`);
      }
      continue;
    }

    // Indented, non-blank. Under a gate line, a row of dashes or equals signs turns the
    // gate's paragraph into a heading or a table: the page would show no task there.
    if ((current || afterItemParagraph) && (leadChar === 45 || leadChar === 61 || leadChar === 124 || leadChar === 58) && isUnderlineRow(text, lead.index)) {
      err(lineNo, 'a row of "-" or "=" under a gate line: renderers read it as a heading underline, an empty list item or a table row, and the gate would not render as a task');
      continue;
    }
    // INDENTED_KEY (blanks, a name, a colon), read without a match object.
    const keyEnd = nameColon(text, lead.index);
    const key = keyEnd !== -1;
    const name = key ? text.slice(lead.index, keyEnd) : undefined;
    const upper = name?.toUpperCase();
    if (!key || !ATTRIBUTE_SET.has(upper!)) {
      // Outside a gate too: an attribute there is an error ("not under a gate"), and so is
      // a line the page shows as one (it may sit in a gate's list item after lazy text).
      const cur = current as GateBuilder | null;
      if (!cur?.broken) {
        const miss = nearMissOf(text.slice(lead.index), true);
        if (miss) {
          err(lineNo, miss.message);
          if (cur) (cur.misspelt ??= []).push(miss.attribute);
          continue;
        }
        if (inlineAttributeError(text, lineNo, err)) continue;
      }
      if (upper === 'ABANDON' || upper === 'OWNS') {
        err(lineNo, `${upper} must start at column 0`);
      } else if (key && cur && !cur.broken && /^[A-Z][A-Z_]+$/.test(name!)) {
        warn(lineNo, `unknown attribute ${name} ignored (attributes: ${ATTRIBUTE_KEYS.join(', ')})`);
      }
      continue;
    }
    // A mis-cased attribute is an error, and still counts as written so that no second
    // error (a "partial" CHECK/EXPECT pair) cascades from it.
    if (name !== upper) err(lineNo, `attribute names are upper case: write ${upper}`);
    // One column in, after a blank line the line is outside the gate's list item (its
    // content starts at column 2): the page would show the attribute apart from the gate.
    if (lead.columns < GATE_CONTENT_COLUMN) err(lineNo, `indent ${upper} by at least two spaces (or a tab): indented by one, renderers may show it outside the gate`);
    const attr = upper as AttributeKey;
    const cur = current as GateBuilder | null;
    if (!cur) {
      const where = last.ended ? ` (gate ${last.ended.id} ended at line ${last.ended.at})` : ' (no gate above it)';
      err(lineNo, `${attr} is not under a gate${where}`);
      continue;
    }
    if (cur.broken) continue;
    addAttribute(cur, attr, text, keyEnd, lead.index, i, err);
  }

  if (fence) err(fence.line, `unclosed code fence (${fence.char.repeat(fence.length)} opened here)`);
  if (comment) err(comment.line, 'unclosed HTML comment (<!-- opened here): everything after it would render invisibly');

  const gates: Gate[] = [];
  const mayStrike = source.includes('~');
  for (let n = 0; n < builders.length; n++) {
    if (checkpoint !== undefined && n % CHECKPOINT_GATES === 0) checkpoint();
    const b = builders[n]!;
    if (b.broken) continue;
    finishGate(b, err, warn, expansions);
    if (mayStrike) {
      const across = strikeAcrossAttributes(gateParagraph(source, gateStarts[n]!, b.gate));
      if (across) {
        err(across.line, `strikethrough "${across.tildes}" at column ${across.column + (across.line === b.gate.line ? 6 : 0)} is closed at line ${across.to}: GitHub shows a gate's lines as one paragraph, so the page shows the lines between struck out, ${across.attribute} (line ${across.attributeLine}) among them, while gate-check uses it; close it on its own line, or escape it (\\~)`);
      }
    }
    gates.push(b.gate);
  }
  for (const [id, a] of abandons) {
    const gate = gates.find((g) => g.id === id);
    if (!gate) {
      if (!firstLineOfId.has(id)) err(a.line, `ABANDON names unknown gate ${id}`);
      continue;
    }
    gate.abandon = a;
    if (gate.checked) warn(a.line, `${id} is checked and abandoned; it counts as abandoned`);
  }
  if (builders.length === 0 && errors.length === 0) err(1, 'no gates: a ledger needs at least one "- [ ] ID: title" line');

  const byLine = (a: Diagnostic, b: Diagnostic) => (a.line ?? 0) - (b.line ?? 0);
  warnings.sort(byLine);
  if (dropped.warnings > 0) warnings.push({ line: dropped.warningLine, message: `… and ${dropped.warnings} more warnings` });
  if (errors.length > 0) {
    errors.sort(byLine);
    if (dropped.errors > 0) errors.push({ line: dropped.errorLine, message: `… and ${dropped.errors} more errors` });
    return { ok: false, errors, warnings };
  }
  return { ok: true, ledger: withLines({ gates, owns, warnings } as Omit<Ledger, 'lines'> as Ledger, source) };
}

// Explicit embeddings, overrides and isolates: U+202A–U+202E, U+2066–U+2069.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
// Vertical tab and form feed: blanks to cmark-gfm (GitHub's renderer) in a table's divider row
// and between a tag's name and its attributes, but not to CommonMark 0.31, micromark or
// gate-check: `|-\v|` made a table that hid a CHECK's end, `<span\ftitle="` an attribute that
// hid a CWD line (round-39t T1).
const PAGE_BLANK_CONTROL = /[\v\f]/;

/**
 * A body line that reads like an attribute and is not exactly one: as written (a Cyrillic
 * С, CHEK:), or as the page shows it (CHECK\:, &#67;HECK:, **CHECK:**, `CHECK:`, <b>CHECK:</b>,
 * and, `inItem`, "> CHECK:" or "- CHECK:" nested in the gate's list item).
 */
function nearMissOf(text: string, inItem: boolean): NearMiss | null {
  const [plain, invisible] = withoutInvisibleIndent(text);
  const miss = nearMissAttribute(plain, invisible);
  if (miss) return miss;
  const shown = renderedStart(plain, inItem, isColonLike);
  return shown.markup.length === 0 ? null : nearMissAttribute(shown.text, invisible, shown.markup);
}

/** An attribute name inside a title or a note (the page runs a gate's lines together): an error; true if there was one. */
function inlineAttributeError(text: string, lineNo: number, err: (line: number, message: string) => void, offset = 0): boolean {
  const inline = inlineAttribute(text);
  if (!inline) return false;
  err(lineNo, `"${inline.name}:"${writtenAs(inline)} at column ${offset + inline.index + 1} inside a title or a note: the page shows a gate's lines as one paragraph, so it reads as an attribute that gate-check does not read; put each attribute on its own line, or reword`);
  return true;
}

/** How an attribute name the page shows inside text is written, when it is not plainly "NAME:". */
function writtenAs(inline: InlineAttribute): string {
  return inline.written === '' ? '' : ` (as the page shows it; written ${inline.written})`;
}

/** The line without leading NBSP, other Unicode spaces and invisible characters, which a reader takes for indentation. */
function withoutInvisibleIndent(text: string): [string, boolean] {
  let i = 0;
  let invisible = false;
  while (i < text.length) {
    const c = text.codePointAt(i)!;
    if (c === 32 || c === 9) i++;
    else if (c > 0x7f && invisibleIndent().test(String.fromCodePoint(c))) {
      invisible = true;
      i += c > 0xffff ? 2 : 1;
    } else break;
  }
  return [text.slice(i), invisible];
}

// With the blank-looking symbols that are neither (U+2800 BRAILLE PATTERN BLANK).
const invisibleIndent = lazyRegExp(() => /[\p{Zs}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u);

/** Whether the list marker at `at` starts an item that can interrupt a paragraph: a bullet, or an ordered "1." or "1)", followed by a blank and content. */
function interruptsParagraph(text: string, at: number): boolean {
  const c = text[at];
  let after: number;
  if (c === '-' || c === '*' || c === '+') after = at + 1;
  else if (c === '1' && (text[at + 1] === '.' || text[at + 1] === ')')) after = at + 2;
  else return false;
  if (text[after] !== ' ' && text[after] !== '\t') return false;
  return text.slice(after).trim() !== '';
}

function plainBox(box: { content: number; quote: boolean; markers: number }, content: number) {
  box.content = content;
  box.quote = false;
  box.markers = 0;
  return box;
}

/** Records attribute `attr` of line `index` (its name ends at `keyEnd`, indented `indent` characters), or reports a duplicate. */
function addAttribute(cur: GateBuilder, attr: AttributeKey, text: string, keyEnd: number, indent: number, index: number, err: (line: number, message: string) => void): void {
  recordAttribute(cur, attr, text.slice(keyEnd + 1), keyEnd + 1, indent === 2 && text.startsWith(TWO_SPACES) ? TWO_SPACES : text.slice(0, indent), index, err);
}

/** Records attribute `attr` of line `index`, its value (after the colon) starting at column `valueStart`, or reports a duplicate. */
function recordAttribute(cur: GateBuilder, attr: AttributeKey, value: string, valueStart: number, indent: string, index: number, err: (line: number, message: string) => void): void {
  const lineNo = index + 1;
  const first = cur.gate.attributeLines[attr];
  if (first !== undefined) {
    err(lineNo, `duplicate ${attr} for ${cur.gate.id} (first at line ${first})`);
    return;
  }
  cur.gate.attributeLines[attr] = lineNo;
  cur.gate.lastAttributeIndex = index;
  cur.gate.attributeIndent = indent;
  // GitHub draws `:name:` as an emoji: a value that starts with `name:` right after the
  // attribute's colon shows `CHECK:cool:;curl …` as `CHECK😎;curl …`, the label's colon gone,
  // and the line reads as prose (round-41b F3).
  if (value.length > 0 && value.charCodeAt(0) !== 32) {
    const emoji = EMOJI_AFTER_LABEL.exec(value);
    if (emoji) err(lineNo, `${attr}: is followed by "${sanitizeLine(emoji[0], 40)}" with no blank: GitHub can draw ":${sanitizeLine(emoji[1]!, 40)}:" as an emoji, taking the colon after ${attr} with it, so the page would not show the attribute; put a blank after "${attr}:"`);
  }
  cur.raw[attr] = trimBlanks(value);
  cur.valueColumn[attr] = valueStart + leadingWhitespace(value);
  if (attr === 'EVIDENCE') cur.gate.evidenceIndex = index;
}

const TWO_SPACES = '  ';

/** The attribute name of a plain attribute line (its colon at `keyEnd`), as the shared constant rather than a copy. */
function plainKey(text: string, keyEnd: number): AttributeKey {
  // Indexed, not for-of: an array iterator per line is garbage the interpreter makes.
  for (let i = 0; i < ATTRIBUTE_KEYS.length; i++) {
    const k = ATTRIBUTE_KEYS[i]!;
    if (k.length === keyEnd - 2 && text.startsWith(k, 2)) return k;
  }
  throw new Error(`not a plain attribute line: ${text.slice(0, 40)}`);
}

/** Whether the line is the gate line GATE_LINE matches: "- [", ' ', 'x' or 'X', "] ", then anything. */
function isGateLine(text: string): boolean {
  if (text.length < 6 || text.charCodeAt(1) !== 32 || text.charCodeAt(2) !== 91 || text.charCodeAt(4) !== 93 || text.charCodeAt(5) !== 32) return false;
  const box = text.charCodeAt(3);
  return text.charCodeAt(0) === 45 && (box === 32 || box === 120 || box === 88);
}

/** The index of the colon after a name ([A-Za-z][A-Za-z_-]*) starting at `from`, or -1. */
function nameColon(text: string, from: number): number {
  const first = text.charCodeAt(from);
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122))) return -1;
  let i = from + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45)) break;
  }
  return text.charCodeAt(i) === 58 ? i : -1;
}

/** How many characters String#trimStart would remove, counted without making the trimmed string. */
function leadingWhitespace(text: string): number {
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return text.length - text.trimStart().length;
    if (c !== 32 && (c < 9 || c > 13)) break;
  }
  return i;
}

/** The text of the line that starts at `start`, cut as in the main loop. */
function lineAt(source: string, start: number): string {
  const nl = source.indexOf('\n', start);
  return nl === -1 ? source.slice(start) : source.slice(start, nl > start && source.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
}

function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text[i] !== ' ' && text[i] !== '\t') return false;
  return true;
}

function isFrontMatterFence(text: string): boolean {
  if (!text.startsWith('---')) return false;
  for (let i = 3; i < text.length; i++) if (text[i] !== '-' && text[i] !== ' ' && text[i] !== '\t') return false;
  return true;
}

/**
 * One line of an HTML comment (from `from` on the opening line). Returns true when the
 * comment ends on it. The browser must see the same comment: nothing but text may follow
 * the `-->`, `--!>` (which a browser also takes for an end) is refused, and a line indented
 * less than the opening ends the list item holding it, and with it the Markdown block, while
 * the browser would still hide what follows.
 */
function readCommentLine(
  text: string,
  lead: { columns: number; index: number },
  blank: boolean,
  lineNo: number,
  comment: Comment,
  err: (line: number, message: string) => void,
  warn: (line: number, message: string) => void,
  from = 0,
): boolean {
  if (from === 0 && looksLikeGateOrHandoff(text)) warn(lineNo, 'ignored: inside an HTML comment, which renders invisibly');
  if (!blank && !comment.cut && lead.columns < comment.indent) {
    comment.cut = true;
    err(lineNo, `this line, indented less than the HTML comment opened at line ${comment.line}, ends the list item that holds the comment: renderers end the comment's block here while the browser keeps hiding text; indent the comment's lines (or open it at column 0)`);
  }
  const close = text.indexOf('-->', from);
  const bang = text.indexOf('--!>', from);
  if (bang !== -1 && (close === -1 || bang < close)) err(lineNo, '"--!>" inside an HTML comment: a browser ends the comment there, CommonMark does not');
  if (close === -1) return false;
  const rest = text.slice(close + 3);
  const hidden = findHiddenText(rest, -1);
  if (hidden) err(lineNo, `${hidden.what} after the end of an HTML comment: renderers pass it to the browser, which may hide what follows`);
  return true;
}

function looksLikeGateOrHandoff(text: string): boolean {
  return GATE_LINE.test(text) || taskBoxAt(text, containers(text).content) || text.startsWith('ABANDON:');
}

/** The lines of a gate's paragraph as a renderer joins them: its line, then every line up to a blank one or the next gate. */
function gateParagraph(source: string, start: number, gate: Gate): ParagraphLine[] {
  const byLine = new Map<number, string>();
  for (const [k, line] of Object.entries(gate.attributeLines)) byLine.set(line, k);
  const out: ParagraphLine[] = [];
  let at = start;
  for (let line = gate.line; at < source.length; line++) {
    const text = lineAt(source, at);
    if (line > gate.line && (isBlankLine(text) || isGateLine(text))) break;
    out.push({ line, text: line === gate.line ? text.slice(6) : text, attribute: byLine.get(line) ?? null });
    const nl = source.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return out;
}

function brokenGate(index: number): GateBuilder {
  return { gate: emptyGate('', '', index, false), raw: {}, broken: true, misspelt: null, valueColumn: {} };
}

function emptyGate(id: string, title: string, index: number, checked: boolean): Gate {
  return {
    id,
    title,
    line: index + 1,
    checked,
    kind: 'manual',
    check: null,
    expectRaw: null,
    expect: null,
    cwd: null,
    depends: null,
    inputs: null,
    timeoutSeconds: null,
    evidence: null,
    abandon: null,
    attributeLines: {},
    lineIndex: index,
    evidenceIndex: null,
    lastAttributeIndex: index,
    attributeIndent: '  ',
  };
}

function startGate(
  checked: boolean,
  rest: string,
  index: number,
  err: (line: number, message: string) => void,
  firstLineOfId: Map<string, number>,
): GateBuilder {
  const lineNo = index + 1;
  const colon = rest.indexOf(':');
  if (colon === -1) {
    err(lineNo, 'gate line needs an explicit id: "- [ ] ID: title"');
    return brokenGate(index);
  }
  const id = rest.slice(0, colon);
  const afterColon = rest.slice(colon + 1);
  const title = afterColon.trim();
  let ok = true;
  if (id === '') {
    err(lineNo, 'empty gate id: "- [ ] ID: title"');
    ok = false;
  } else if (!GATE_ID_PATTERN.test(id)) {
    err(lineNo, `invalid gate id "${id}": ids match [A-Za-z0-9][A-Za-z0-9._-]*`);
    ok = false;
  }
  if (title === '') {
    err(lineNo, `gate ${id || '(no id)'} has a blank title`);
    ok = false;
  }
  inlineAttributeError(afterColon, lineNo, err, 6 + colon + 1);
  if (ok) {
    const first = firstLineOfId.get(id);
    if (first !== undefined) {
      err(lineNo, `duplicate gate id ${id} (lines ${first} and ${lineNo})`);
      ok = false;
    } else {
      firstLineOfId.set(id, lineNo);
    }
  }
  if (!ok) return brokenGate(index);
  return { gate: emptyGate(id, title, index, checked), raw: {}, broken: false, misspelt: null, valueColumn: {} };
}

function parseAbandon(
  value: string,
  lineNo: number,
  abandons: Map<string, { reason: string; line: number }>,
  err: (line: number, message: string) => void,
): void {
  const m = /^[ \t]*(\S+)(?:[ \t]+(.*))?$/.exec(value);
  if (!m) {
    err(lineNo, 'ABANDON needs a gate id and a reason: "ABANDON: ID reason"');
    return;
  }
  const id = m[1]!;
  const reason = (m[2] ?? '').trim();
  if (!GATE_ID_PATTERN.test(id)) {
    err(lineNo, `ABANDON names an invalid gate id "${id}"`);
    return;
  }
  if (reason === '') {
    err(lineNo, `ABANDON ${id} needs a non-blank reason`);
    return;
  }
  const first = abandons.get(id);
  if (first) {
    err(lineNo, `duplicate ABANDON for ${id} (first at line ${first.line})`);
    return;
  }
  abandons.set(id, { reason, line: lineNo });
}

type Report = (line: number, message: string) => void;
type Valued = 'CHECK' | 'EXPECT' | 'CWD' | 'DEPENDS' | 'INPUTS' | 'TIMEOUT';

/** The line an attribute was written on (the gate line when absent), for messages. */
function lineOf(g: Gate, k: AttributeKey): number {
  return g.attributeLines[k] ?? g.line;
}

/** An attribute's value, if it may be shown for approval: undefined when absent, null when refused (reported). */
function usableValue(b: GateBuilder, k: Valued, err: Report): string | null | undefined {
  const v = b.raw[k];
  if (v === undefined) return undefined;
  // Most values: one native test stands for the four scans below, each of which returns
  // null on printable ASCII without ! & : < ] (the property test compares both readings).
  if (parserSettings.plainLines && PLAIN_ASCII_VALUE.test(v)) return v;
  const bad = findUnsafeChar(v);
  if (bad) {
    err(lineOf(b.gate, k), `${k} contains the control character ${codePointName(bad)}; what is shown for approval must be what runs`);
    return null;
  }
  const invisible = k === 'TIMEOUT' ? null : findInvisibleChar(v);
  if (invisible) {
    err(lineOf(b.gate, k), `${k} contains ${codePointName(invisible)}, which a reader sees as nothing or as a plain space; what is shown for approval must be what runs`);
    return null;
  }
  const named = k === 'TIMEOUT' ? null : inlineAttribute(v);
  if (named) {
    err(lineOf(b.gate, k), `${k} contains "${named.name}:"${writtenAs(named)} at column ${(b.valueColumn[k] ?? 0) + named.index + 1}: the page shows a gate's lines as one paragraph, so it reads as another attribute; quote it ("${named.name}:") or reword`);
    return null;
  }
  const markup = k === 'TIMEOUT' ? null : findValueMarkup(v);
  if (markup) {
    err(lineOf(b.gate, k), `${k} contains ${markup.what} at column ${(b.valueColumn[k] ?? 0) + markup.index + 1}: on the rendered page ${markup.shows}; what the reviewer reads must be what runs (write it without that markup, or move it into a script the CHECK runs)`);
    return null;
  }
  return v;
}

// Printable ASCII but for ! & : < ]: no control or invisible character, no attribute name
// (which needs a colon or a character reference), no markup that shows other text.
/** A value that starts with an emoji shortcode's name and closing colon (`cool:`), the attribute's colon opening it. */
const EMOJI_AFTER_LABEL = /^([a-z0-9_+-]+):/i;
const PLAIN_ASCII_VALUE = /^[\x20\x22-\x25\x27-\x39\x3b\x3d-\x5c\x5e-\x7e]*$/;

/** The patterns of a DEPENDS or INPUTS value, normalized and without repeats; each refused one reported. */
function globList(g: Gate, k: 'DEPENDS' | 'INPUTS', value: string, manual: boolean, err: Report, warn: Report, expansions: ExpansionBudget): string[] {
  const globs: string[] = [];
  const seen = new Set<string>();
  let expanded = 0;
  for (const p of splitPathList(value)) {
    const n = normalizeGlob(p, expansions);
    if (!n.ok) {
      err(lineOf(g, k), `${k}: ${n.reason}`);
      continue;
    }
    expanded += braceExpansionCount(n.value) ?? 1;
    if (expanded > MAX_PATTERNS_PER_ATTRIBUTE) {
      err(lineOf(g, k), `${k} lists more than ${MAX_PATTERNS_PER_ATTRIBUTE} patterns (counted after brace expansion): use a directory glob such as src/**/*.js`);
      break;
    }
    if (!seen.has(n.value)) {
      seen.add(n.value);
      globs.push(n.value);
    }
  }
  if (manual) warn(lineOf(g, k), `${k} on manual gate ${g.id} has no effect`);
  return globs;
}

// Module-level helpers, not closures: 5,000 gates made three closures each.
function finishGate(b: GateBuilder, err: Report, warn: Report, expansions: ExpansionBudget): void {
  const g = b.gate;
  const hasCheck = b.raw.CHECK !== undefined;
  const hasExpect = b.raw.EXPECT !== undefined;
  const manual = !hasCheck && !hasExpect;
  const check = usableValue(b, 'CHECK', err);
  const expect = usableValue(b, 'EXPECT', err);
  if (check === '') err(lineOf(g, 'CHECK'), `blank CHECK for ${g.id}`);
  if (expect === '') err(lineOf(g, 'EXPECT'), `blank EXPECT for ${g.id}`);
  if (hasCheck !== hasExpect && !b.misspelt?.includes(hasCheck ? 'EXPECT' : 'CHECK')) {
    err(g.line, `${g.id} has ${hasCheck ? 'CHECK but no EXPECT' : 'EXPECT but no CHECK'}: a runnable gate needs both, a manual gate neither`);
  }
  if (check && expect) {
    g.kind = 'runnable';
    g.check = check;
    g.expectRaw = expect;
    const parsed = parseExpect(expect);
    if (parsed.ok) {
      g.expect = parsed.expect;
      if (parsed.warning) warn(lineOf(g, 'EXPECT'), parsed.warning);
    } else {
      err(lineOf(g, 'EXPECT'), parsed.reason);
    }
  }
  const cwd = usableValue(b, 'CWD', err);
  const depends = usableValue(b, 'DEPENDS', err);

  if (typeof cwd === 'string') {
    const n = normalizeRelativePath(cwd, true);
    if (!n.ok) err(lineOf(g, 'CWD'), `CWD: ${n.reason}`);
    else g.cwd = n.value;
    if (manual) warn(lineOf(g, 'CWD'), `CWD on manual gate ${g.id} has no effect`);
  }
  if (typeof depends === 'string') g.depends = globList(g, 'DEPENDS', depends, manual, err, warn, expansions);
  const inputs = usableValue(b, 'INPUTS', err);
  if (typeof inputs === 'string') g.inputs = globList(g, 'INPUTS', inputs, manual, err, warn, expansions);
  const timeout = usableValue(b, 'TIMEOUT', err);
  if (typeof timeout === 'string') {
    const seconds = TIMEOUT_VALUE.test(timeout) ? Number(timeout) : NaN;
    if (!(seconds >= 1 && seconds <= MAX_TIMEOUT_SECONDS)) err(lineOf(g, 'TIMEOUT'), `TIMEOUT must be a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}: ${timeout}`);
    else g.timeoutSeconds = seconds;
    if (manual) warn(lineOf(g, 'TIMEOUT'), `TIMEOUT on manual gate ${g.id} has no effect`);
  }
  if (b.raw.EVIDENCE !== undefined) {
    const named = inlineAttribute(b.raw.EVIDENCE);
    if (named) err(lineOf(g, 'EVIDENCE'), `EVIDENCE contains "${named.name}:"${writtenAs(named)} at column ${(b.valueColumn.EVIDENCE ?? 0) + named.index + 1}: the page shows a gate's lines as one paragraph, so it reads as another attribute; reword`);
    g.evidence = b.raw.EVIDENCE;
  }
}
