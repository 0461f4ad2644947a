// Bounds on the globs a ledger may write (DEPENDS, INPUTS, OWNS), and the brace expansion
// and wildcard matching that stay within them. A glob is untrusted text: `{a,b,c,d}` ten
// times is a million patterns, `{1..999999}` as many, `+(a|aa)` an exponential regex. Pure.

/** Alternatives one pattern may expand to ({a,b}, {1..5}). */
export const MAX_BRACE_EXPANSION = 64;
/** Patterns one DEPENDS or INPUTS attribute may list, counted after brace expansion. */
export const MAX_PATTERNS_PER_ATTRIBUTE = 256;
/** Characters in one pattern (a path longer than this cannot exist on common file systems). */
export const MAX_PATTERN_LENGTH = 1024;
/** `*` wildcards in one path segment: each one multiplies what a backtracking matcher may try. */
export const MAX_STARS_PER_SEGMENT = 3;
/** Brace groups nested inside each other. */
const MAX_BRACE_DEPTH = 8;

const EXTGLOB = /[@!+*?]\(/;
const RANGE = /^(-?\d{1,9}|[A-Za-z])\.\.(-?\d{1,9}|[A-Za-z])(?:\.\.(-?\d{1,9}))?$/;
const SATURATE = 1e9;

/** Why a glob is refused, or null when it is within the bounds. */
export function globLimitProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern is ${pattern.length} characters (at most ${MAX_PATTERN_LENGTH})`;
  if (EXTGLOB.test(pattern)) return `extended glob syntax (@(…), +(…), *(…), ?(…), !(…)) is not supported: ${pattern}`;
  let stars = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '/') stars = 0;
    else if (c === '*') {
      while (pattern[i + 1] === '*') i++;
      if (++stars > MAX_STARS_PER_SEGMENT) return `more than ${MAX_STARS_PER_SEGMENT} '*' wildcards in one path segment: ${pattern}`;
    }
  }
  const count = braceExpansionCount(pattern);
  if (count === null) return `brace groups nested more than ${MAX_BRACE_DEPTH} deep: ${pattern}`;
  if (count > MAX_BRACE_EXPANSION) return `brace expansion gives ${count >= SATURATE ? 'over a billion' : count} patterns (at most ${MAX_BRACE_EXPANSION}): ${pattern}`;
  return null;
}

interface Frame {
  /** Sum of the finished alternatives of this group. */
  sum: number;
  /** Product of the finished items of the current alternative. */
  product: number;
  /** Start of the group's text, for ranges ({1..9}). */
  start: number;
  commas: number;
}

/**
 * How many patterns brace expansion makes of one glob, without expanding it (saturating at a
 * billion); null when groups nest too deep. A group without a comma or range is literal.
 */
export function braceExpansionCount(pattern: string): number | null {
  const stack: Frame[] = [{ sum: 0, product: 1, start: 0, commas: 0 }];
  const mul = (a: number, b: number) => Math.min(SATURATE, a * b);
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      if (stack.length > MAX_BRACE_DEPTH) return null;
      stack.push({ sum: 0, product: 1, start: i + 1, commas: 0 });
    } else if (c === ',' && stack.length > 1) {
      const top = stack[stack.length - 1]!;
      top.sum = Math.min(SATURATE, top.sum + top.product);
      top.product = 1;
      top.commas++;
    } else if (c === '}' && stack.length > 1) {
      const top = stack.pop()!;
      let n = Math.min(SATURATE, top.sum + top.product);
      if (top.commas === 0) n = rangeSize(pattern.slice(top.start, i)) ?? top.product;
      const parent = stack[stack.length - 1]!;
      parent.product = mul(parent.product, n);
    }
  }
  // Unclosed groups are literal text: their alternatives do not multiply.
  let total = stack[0]!.product;
  for (let k = 1; k < stack.length; k++) total = mul(total, stack[k]!.product);
  return total;
}

/** Size of a {a..b} or {a..b..step} range, or null when the text is not one. */
function rangeSize(body: string): number | null {
  const m = RANGE.exec(body);
  if (!m) return null;
  const numeric = /\d/.test(m[1]!) && /\d/.test(m[2]!);
  const a = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const b = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  if (!numeric && (/\d/.test(m[1]!) || /\d/.test(m[2]!))) return null;
  const step = Math.max(1, Math.abs(Number(m[3] ?? 1)));
  return Math.min(SATURATE, Math.floor(Math.abs(b - a) / step) + 1);
}

/**
 * Brace expansion of a glob that is within the bounds (at most MAX_BRACE_EXPANSION results;
 * throws past that, which the parser prevents). Ranges are expanded as well.
 */
export function expandBraces(pattern: string): string[] {
  const count = braceExpansionCount(pattern);
  if (count === null || count > MAX_BRACE_EXPANSION) throw new Error(`glob exceeds the brace expansion bound: ${pattern.slice(0, 100)}`);
  return expandFrom(pattern);
}

function expandFrom(pattern: string): string[] {
  // The first top-level group with a comma or a range; everything before it is literal.
  let depth = 0;
  let open = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      if (depth++ === 0) open = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      const body = pattern.slice(open + 1, i);
      const alternatives = splitTopLevel(body);
      const range = alternatives.length === 1 ? rangeValues(body) : null;
      if (alternatives.length === 1 && range === null) continue; // literal {x}
      const head = pattern.slice(0, open);
      const tails = expandFrom(pattern.slice(i + 1));
      const out: string[] = [];
      for (const alt of range ?? alternatives) for (const a of range ? [alt] : expandFrom(alt)) for (const t of tails) out.push(head + a + t);
      return out;
    }
  }
  return [pattern];
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(body.slice(from));
  return parts;
}

function rangeValues(body: string): string[] | null {
  const size = rangeSize(body);
  if (size === null) return null;
  const m = RANGE.exec(body)!;
  const numeric = /\d/.test(m[1]!);
  const a = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const b = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(m[3] ?? 1))) * (b >= a ? 1 : -1);
  const out: string[] = [];
  for (let v = a, n = 0; n < size; v += step, n++) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

/**
 * One path segment against a segment pattern of literals, `*`, `?`, `[…]` and `\x`, without
 * backtracking beyond the last `*` (time O(pattern × name)). `*` matches dot files too.
 */
export function segmentMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let starP = -1;
  let starN = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      while (pattern[p] === '*') p++;
      starP = p;
      starN = n;
      continue;
    }
    const step = p < pattern.length ? matchOne(pattern, p, name[n]!) : -1;
    if (step > 0) {
      p += step;
      n++;
      continue;
    }
    if (starP === -1) return false;
    p = starP;
    n = ++starN;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Length of the pattern element at p when it matches ch, else -1. */
function matchOne(pattern: string, p: number, ch: string): number {
  const c = pattern[p]!;
  if (c === '?') return 1;
  if (c === '\\' && p + 1 < pattern.length) return pattern[p + 1] === ch ? 2 : -1;
  if (c === '[') {
    const end = pattern.indexOf(']', p + 2);
    if (end !== -1) {
      let body = pattern.slice(p + 1, end);
      const negated = body[0] === '!' || body[0] === '^';
      if (negated) body = body.slice(1);
      let hit = false;
      for (let i = 0; i < body.length; i++) {
        if (body[i + 1] === '-' && i + 2 < body.length) {
          if (ch >= body[i]! && ch <= body[i + 2]!) hit = true;
          i += 2;
        } else if (body[i] === ch) hit = true;
      }
      return hit !== negated ? end - p + 1 : -1;
    }
  }
  return c === ch ? 1 : -1;
}

/**
 * A whole path against a brace-free glob: segments as above, `**` for any number of
 * directories. Dynamic programming over segments: O(segments² × segment work).
 */
export function pathMatches(glob: string, path: string): boolean {
  const g = glob.split('/');
  const s = path.split('/');
  // reach[j]: the first i glob segments can match the first j path segments.
  let reach = new Array<boolean>(s.length + 1).fill(false);
  reach[0] = true;
  for (const seg of g) {
    const next = new Array<boolean>(s.length + 1).fill(false);
    if (seg === '**') {
      let any = false;
      for (let j = 0; j <= s.length; j++) {
        any = any || reach[j]!;
        next[j] = any;
      }
    } else {
      for (let j = 0; j < s.length; j++) if (reach[j] && segmentMatches(seg, s[j]!)) next[j + 1] = true;
    }
    reach = next;
  }
  return reach[s.length]!;
}
