// EXPECT: a JavaScript regular expression written /source/flags, or else a substring. Pure.

export type Expect =
  | { kind: 'substring'; text: string }
  | { kind: 'regex'; source: string; flags: string };

export const MAX_REGEX_SOURCE = 1000;

// Flags are only flag letters: '/usr/bin/node' is a substring, not /usr/bin/ with flags "node".
const REGEX_FORM = /^\/(.+)\/([dgimsuvy]*)$/s;

export type ExpectParse =
  | { ok: true; expect: Expect; warning: string | null }
  | { ok: false; reason: string };

export function parseExpect(raw: string): ExpectParse {
  // REGEX_FORM starts with a slash: most EXPECTs are substrings, told apart without a match.
  const m = raw.charCodeAt(0) === 47 ? REGEX_FORM.exec(raw) : null;
  if (!m) return { ok: true, expect: { kind: 'substring', text: raw }, warning: null };
  const source = m[1]!;
  const flags = m[2]!;
  if (source.length > MAX_REGEX_SOURCE) {
    return { ok: false, reason: `EXPECT regex source is ${source.length} characters (at most ${MAX_REGEX_SOURCE})` };
  }
  try {
    new RegExp(source, flags);
  } catch (e) {
    return { ok: false, reason: `invalid EXPECT regex: ${(e as Error).message}` };
  }
  const warning = hasUnescapedSlash(source)
    ? `EXPECT regex /${source}/ has an unescaped '/' inside it; write \\/ (or use a substring EXPECT if a literal path was meant)`
    : null;
  return { ok: true, expect: { kind: 'regex', source, flags }, warning };
}

/** An unescaped '/' outside a character class: legal in RegExp(), but a regex literal would end there. */
function hasUnescapedSlash(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === '/') {
      return true;
    }
  }
  return false;
}

/** The EXPECT as written in the ledger, for display and for the oracle. */
export function expectText(expect: Expect): string {
  return expect.kind === 'regex' ? `/${expect.source}/${expect.flags}` : expect.text;
}
