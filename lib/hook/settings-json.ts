// The text of a Claude Code settings file, read as hostile and written back in its own style.
// Parsing: strict UTF-8, JSON.parse, then one linear scan that refuses a "__proto__" key or a
// duplicated key anywhere (JSON.parse would keep only the last one, and a rewrite would drop
// the others silently) and nesting deeper than MAX_DEPTH. Writing: the file's own indentation
// (tabs or N spaces, or compact), line ending, byte order mark, and leading and trailing
// whitespace, so that a file written by JSON.stringify(x, null, indent) round-trips byte for
// byte. Pure.

export const MAX_SETTINGS_BYTES = 1024 * 1024;
export const MAX_DEPTH = 256;

export interface TextStyle {
  bom: boolean;
  /** JSON.stringify's third argument: '\t', a number of spaces, or '' for compact. */
  indent: string | number;
  eol: '\n' | '\r\n';
  leading: string;
  trailing: string;
}

/** The style of a file created from nothing: two spaces, LF, a final newline. */
export const NEW_FILE_STYLE: TextStyle = { bom: false, indent: 2, eol: '\n', leading: '', trailing: '\n' };

export type SettingsTextParse = { ok: true; value: unknown; style: TextStyle } | { ok: false; reason: string };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Checks keys of a text JSON.parse accepted: null when fine, else the reason. Linear, no recursion. */
export function scanKeys(text: string): string | null {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c === '{' ? new Set() : null);
      if (stack.length > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels`;
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack.length > 0 && stack[stack.length - 1] !== null;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const keys = stack[stack.length - 1];
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (key === '__proto__') return 'has a "__proto__" key (refused)';
        if (keys) {
          if (keys.has(key)) return `has the key ${JSON.stringify(key).slice(0, 80)} twice in one object (refused: a rewrite would drop one)`;
          keys.add(key);
        }
        expectKey = false;
      }
      i = j;
    }
  }
  return null;
}

function detectIndent(body: string, value: unknown): string | number {
  const lines = body.split('\n');
  if (lines.length === 1) {
    // One line: compact, unless it is an empty object or array (no style to learn from).
    const empty = typeof value === 'object' && value !== null && Object.keys(value).length === 0;
    return empty ? 2 : '';
  }
  for (const line of lines.slice(1)) {
    const m = /^([ \t]+)\S/.exec(line);
    if (!m) continue;
    const ws = m[1]!;
    if (ws.startsWith('\t')) return '\t';
    const spaces = /^ +/.exec(ws)![0].length;
    return Math.min(spaces, 10);
  }
  return 2;
}

/** JSON.parse's message with a line and column, and without the excerpt of the file V8 may quote (it may hold secrets). */
function describeJsonError(e: unknown, text: string): string {
  const message = e instanceof Error ? e.message : String(e);
  const at = / in JSON at position (\d+)/.exec(message);
  if (at) {
    const before = text.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return `${message.slice(0, at.index)} at line ${line}, column ${column}`;
  }
  return message.replace(/, ".*" is not valid JSON$/s, '');
}

/** Decodes and parses settings bytes; never throws. */
export function parseSettingsText(bytes: Uint8Array): SettingsTextParse {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, reason: 'is not valid UTF-8' };
  }
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  if (text.trim() === '') return { ok: false, reason: 'is empty, which is not valid JSON (write {} into it, or remove it)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `is not valid JSON (${describeJsonError(e, text)})` };
  }
  const bad = scanKeys(text);
  if (bad !== null) return { ok: false, reason: bad };
  const leading = /^[ \t\r\n]*/.exec(text)![0];
  const trailing = /[ \t\r\n]*$/.exec(text)![0];
  const body = text.slice(leading.length, text.length - trailing.length);
  const style: TextStyle = {
    bom,
    indent: detectIndent(body, value),
    eol: body.includes('\r\n') ? '\r\n' : '\n',
    leading,
    trailing,
  };
  return { ok: true, value, style };
}

/** Serializes settings in a file's style. JSON strings hold no raw newline, so every '\n' is layout. */
export function serializeSettings(value: unknown, style: TextStyle): string {
  let text = JSON.stringify(value, null, style.indent);
  if (style.eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  return (style.bom ? '\uFEFF' : '') + style.leading + text + style.trailing;
}
