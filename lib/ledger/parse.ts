// The strict ledger parser (DESIGN §3). Pure: text in, gates or every error out.
// Fields are plain strings; nothing here goes through YAML or any other value parser.
import type { Diagnostic } from '../errors.js';
import { codePointLabel, findUnsafeChar } from '../text/sanitize.js';
import { parseExpect } from './expect.js';
import { splitLines } from './lines.js';
import { normalizeGlob, normalizeRelativePath, splitPathList } from './paths.js';
import { ATTRIBUTE_KEYS, GATE_ID_PATTERN, type AttributeKey, type Gate, type ParseResult } from './types.js';

const GATE_LINE = /^- \[([ xX])\] (.*)$/s;
// Anything a Markdown renderer would show as a task item, however it is indented or quoted.
const TASK_ITEM = /^((?:[ \t]{0,3}>[ \t]?)*)([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ xX]\](?:[ \t]|$)/;
const INDENTED_KEY = /^([ \t]+)([A-Za-z][A-Za-z_-]*):(.*)$/s;
const COLUMN0_KEY = /^([A-Za-z][A-Za-z_-]*):(.*)$/s;
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/s;
const COMMENT_OPEN = /^ {0,3}<!--/;
const ATTRIBUTE_SET: ReadonlySet<string> = new Set(ATTRIBUTE_KEYS);
const TIMEOUT_VALUE = /^[1-9][0-9]{0,5}$/;
/** The same bound as --timeout. */
export const MAX_TIMEOUT_SECONDS = 86_400;

interface Fence {
  char: string;
  length: number;
  line: number;
}

interface GateBuilder {
  gate: Gate;
  /** Raw attribute values (trimmed) by key; validated when the file has been read. */
  raw: Partial<Record<AttributeKey, string>>;
  /** A gate line with errors: its attributes are swallowed so errors do not cascade. */
  broken: boolean;
}

export function parseLedger(source: string): ParseResult {
  const lines = splitLines(source);
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const err = (line: number, message: string) => errors.push({ line, message });
  const warn = (line: number, message: string) => warnings.push({ line, message });

  const builders: GateBuilder[] = [];
  const firstLineOfId = new Map<string, number>();
  const abandons = new Map<string, { reason: string; line: number }>();
  const owns: string[] = [];
  let current: GateBuilder | null = null;
  // The gate whose body a column-0 line ended last: named when an attribute turns up after it.
  const last: { ended: { id: string; at: number } | null } = { ended: null };
  let fence: Fence | null = null;
  let commentFrom = 0;

  const endBody = (at: number) => {
    if (current && !current.broken) last.ended = { id: current.gate.id, at };
    current = null;
  };

  // One scan of the whole text decides whether lines need the NUL / bare-CR checks.
  const mayHaveNul = source.includes('\u0000');
  const mayHaveBareCr = /\r(?!\n)/.test(source);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let text = lines[i]!.text;
    if (i === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (mayHaveNul && text.includes('\u0000')) err(lineNo, 'NUL byte in the ledger');
    if (mayHaveBareCr && text.includes('\r')) err(lineNo, 'bare carriage return (CR without LF): renderers break the line here, the parser would not');

    if (fence) {
      const close = FENCE_OPEN.exec(text);
      if (close && close[2]![0] === fence.char && close[2]!.length >= fence.length && close[3]!.trim() === '') fence = null;
      continue;
    }
    if (commentFrom) {
      if (text.includes('-->')) commentFrom = 0;
      if (looksLikeGateOrHandoff(text)) warn(lineNo, 'ignored: inside an HTML comment, which renders invisibly');
      continue;
    }
    const blank = text.trim() === '';
    if (blank) continue;
    const column0 = text[0] !== ' ' && text[0] !== '\t';

    const lead = text.trimStart()[0];
    const fenceOpen = lead === '`' || lead === '~' ? FENCE_OPEN.exec(text) : null;
    if (fenceOpen && !(fenceOpen[2]![0] === '`' && fenceOpen[3]!.includes('`'))) {
      if (column0) endBody(lineNo);
      fence = { char: fenceOpen[2]![0]!, length: fenceOpen[2]!.length, line: lineNo };
      continue;
    }
    if (lead === '<' && COMMENT_OPEN.test(text)) {
      if (column0) endBody(lineNo);
      const rest = text.slice(text.indexOf('<!--') + 4);
      if (!text.includes('-->')) commentFrom = lineNo;
      if (looksLikeGateOrHandoff(rest.trimStart())) warn(lineNo, 'ignored: inside an HTML comment, which renders invisibly');
      continue;
    }

    const gateMatch = text.startsWith('- [') ? GATE_LINE.exec(text) : null;
    if (gateMatch) {
      current = startGate(gateMatch[1]!, gateMatch[2]!, i, err, firstLineOfId);
      builders.push(current);
      last.ended = null;
      continue;
    }

    const task = text.includes('[') ? TASK_ITEM.exec(text) : null;
    if (task) {
      if (task[1]) {
        err(lineNo, 'task item inside a block quote: gates are written at column 0 as "- [ ] ID: title"');
      } else if (task[2]) {
        err(lineNo, 'nested task item: gates start at column 0; an indented "- [ ]" is not a gate, and its attributes must not attach to the gate above');
      } else {
        err(lineNo, 'malformed gate line: write "- [ ] ID: title" or "- [x] ID: title" (a dash, one space, the box, one space)');
      }
      // Swallow what follows so its attributes attach to nothing.
      current = brokenGate(i);
      continue;
    }

    if (column0) {
      endBody(lineNo);
      const key = COLUMN0_KEY.exec(text);
      if (!key) continue;
      const name = key[1]!;
      const upper = name.toUpperCase();
      if (name === 'ABANDON') {
        parseAbandon(key[2]!, lineNo, abandons, err);
      } else if (name === 'OWNS') {
        if (builders.length > 0) err(lineNo, 'OWNS must come before the first gate');
        else for (const p of splitPathList(key[2]!)) {
          const n = normalizeGlob(p);
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

    // Indented, non-blank.
    const key = INDENTED_KEY.exec(text);
    if (!key) continue;
    const name = key[2]!;
    const upper = name.toUpperCase();
    if (upper === 'ABANDON' || upper === 'OWNS') {
      err(lineNo, `${upper} must start at column 0`);
      continue;
    }
    if (!ATTRIBUTE_SET.has(upper)) {
      if (current && !current.broken && /^[A-Z][A-Z_]+$/.test(name)) {
        warn(lineNo, `unknown attribute ${name} ignored (attributes: ${ATTRIBUTE_KEYS.join(', ')})`);
      }
      continue;
    }
    // A mis-cased attribute is an error, and still counts as written so that no second
    // error (a "partial" CHECK/EXPECT pair) cascades from it.
    if (name !== upper) err(lineNo, `attribute names are upper case: write ${upper}`);
    const attr = upper as AttributeKey;
    const cur = current as GateBuilder | null;
    if (!cur) {
      const where = last.ended ? ` (gate ${last.ended.id} ended at line ${last.ended.at})` : ' (no gate above it)';
      err(lineNo, `${attr} is not under a gate${where}`);
      continue;
    }
    if (cur.broken) continue;
    const first = cur.gate.attributeLines[attr];
    if (first !== undefined) {
      err(lineNo, `duplicate ${attr} for ${cur.gate.id} (first at line ${first})`);
      continue;
    }
    cur.gate.attributeLines[attr] = lineNo;
    cur.gate.lastAttributeIndex = i;
    cur.gate.attributeIndent = key[1]!;
    cur.raw[attr] = key[3]!.trim();
    if (attr === 'EVIDENCE') cur.gate.evidenceIndex = i;
  }

  if (fence) err(fence.line, `unclosed code fence (${fence.char.repeat(fence.length)} opened here)`);
  if (commentFrom) err(commentFrom, 'unclosed HTML comment (<!-- opened here): everything after it would render invisibly');

  const gates: Gate[] = [];
  for (const b of builders) {
    if (b.broken) continue;
    finishGate(b, err, warn);
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
  if (errors.length > 0) return { ok: false, errors: errors.sort(byLine), warnings };
  return { ok: true, ledger: { lines, gates, owns, warnings } };
}

function looksLikeGateOrHandoff(text: string): boolean {
  return GATE_LINE.test(text) || TASK_ITEM.test(text) || /^ABANDON:/.test(text);
}

function brokenGate(index: number): GateBuilder {
  return { gate: emptyGate('', '', index, false), raw: {}, broken: true };
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
  box: string,
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
  const title = rest.slice(colon + 1).trim();
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
  return { gate: emptyGate(id, title, index, box !== ' '), raw: {}, broken: false };
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

function finishGate(
  b: GateBuilder,
  err: (line: number, message: string) => void,
  warn: (line: number, message: string) => void,
): void {
  const g = b.gate;
  const at = (k: AttributeKey) => g.attributeLines[k] ?? g.line;
  // undefined: absent; null: present but rejected (an error was reported).
  const usable = (k: 'CHECK' | 'EXPECT' | 'CWD' | 'DEPENDS' | 'INPUTS' | 'TIMEOUT'): string | null | undefined => {
    const v = b.raw[k];
    if (v === undefined) return undefined;
    const bad = findUnsafeChar(v);
    if (!bad) return v;
    err(at(k), `${k} contains the control character ${codePointLabel(bad)}; what is shown for approval must be what runs`);
    return null;
  };

  const hasCheck = b.raw.CHECK !== undefined;
  const hasExpect = b.raw.EXPECT !== undefined;
  const check = usable('CHECK');
  const expect = usable('EXPECT');
  if (check === '') err(at('CHECK'), `blank CHECK for ${g.id}`);
  if (expect === '') err(at('EXPECT'), `blank EXPECT for ${g.id}`);
  if (hasCheck !== hasExpect) {
    err(g.line, `${g.id} has ${hasCheck ? 'CHECK but no EXPECT' : 'EXPECT but no CHECK'}: a runnable gate needs both, a manual gate neither`);
  }
  if (check && expect) {
    g.kind = 'runnable';
    g.check = check;
    g.expectRaw = expect;
    const parsed = parseExpect(expect);
    if (parsed.ok) {
      g.expect = parsed.expect;
      if (parsed.warning) warn(at('EXPECT'), parsed.warning);
    } else {
      err(at('EXPECT'), parsed.reason);
    }
  }
  const cwd = usable('CWD');
  const depends = usable('DEPENDS');

  if (typeof cwd === 'string') {
    const n = normalizeRelativePath(cwd, true);
    if (!n.ok) err(at('CWD'), `CWD: ${n.reason}`);
    else g.cwd = n.value;
    if (!hasCheck && !hasExpect) warn(at('CWD'), `CWD on manual gate ${g.id} has no effect`);
  }
  const globList = (k: 'DEPENDS' | 'INPUTS', value: string): string[] => {
    const globs: string[] = [];
    for (const p of splitPathList(value)) {
      const n = normalizeGlob(p);
      if (!n.ok) err(at(k), `${k}: ${n.reason}`);
      else if (!globs.includes(n.value)) globs.push(n.value);
    }
    if (!hasCheck && !hasExpect) warn(at(k), `${k} on manual gate ${g.id} has no effect`);
    return globs;
  };
  if (typeof depends === 'string') g.depends = globList('DEPENDS', depends);
  const inputs = usable('INPUTS');
  if (typeof inputs === 'string') g.inputs = globList('INPUTS', inputs);
  const timeout = usable('TIMEOUT');
  if (typeof timeout === 'string') {
    const seconds = TIMEOUT_VALUE.test(timeout) ? Number(timeout) : NaN;
    if (!(seconds >= 1 && seconds <= MAX_TIMEOUT_SECONDS)) err(at('TIMEOUT'), `TIMEOUT must be a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}: ${timeout}`);
    else g.timeoutSeconds = seconds;
    if (!hasCheck && !hasExpect) warn(at('TIMEOUT'), `TIMEOUT on manual gate ${g.id} has no effect`);
  }
  if (b.raw.EVIDENCE !== undefined) g.evidence = b.raw.EVIDENCE;
}
