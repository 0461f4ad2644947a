// Quantities a title states ("under 200 ms", "90% coverage", "at least 12 rows", "≤ 5 MB"):
// a number with a unit after it or a bound before it. Version numbers ("Node 20"), ids
// ("G1", "p95") and ordinals are not quantities. Pure; titles are read only up to
// TITLE_SCAN characters, so that a megabyte title costs nothing.

export const TITLE_SCAN = 200;

export interface Quantity {
  /** The phrase as written ("under 200 ms"). */
  phrase: string;
  /** The number, without thousands separators ("1000" for "1,000"). */
  number: string;
}

// Longest first within the alternation, so that "ms" is not read as "m" and "seconds" not as "s".
const UNIT =
  'milliseconds?|microseconds?|nanoseconds?|seconds?|minutes?|hours?|days?|percent|requests?|connections?|warnings?|records?|entries|retries|errors?|bytes?|files?|tests?|lines?|items?|users?|calls?|times|rows?|req/s|ops/s|msec|secs?|mins?|hrs?|kib|mib|gib|rps|qps|fps|ms|µs|us|ns|kb|mb|gb|%|s|m|h|x|×|b|k';
const BOUND = 'no more than|fewer than|less than|more than|at least|at most|up to|under|below|over|above|within|exceeds?|<=|>=|≤|≥|<|>';
const NUMBER = '\\d+(?:[.,]\\d+)*';

// A number not glued to a word or another number before it (p95, v1.2, G1 are not quantities).
const WITH_UNIT = new RegExp(`(?<![\\w.,])(${NUMBER})\\s?(?:${UNIT})(?![\\w/])`, 'giu');
const WITH_BOUND = new RegExp(`(?<![\\w])(?:${BOUND})\\s*(${NUMBER})(?![\\w.,])`, 'giu');

/** "1,000" → "1000", "1.5" stays: a comma followed by three digits separates thousands. */
export function normalizeNumber(text: string): string {
  return text.replace(/[,_](?=\d{3}(?!\d))/g, '');
}

export function titleQuantities(title: string): Quantity[] {
  const text = title.slice(0, TITLE_SCAN);
  // By the number's position: "under 200 ms" is found by both patterns and shown whole.
  const spans = new Map<number, { start: number; end: number; number: string }>();
  for (const re of [WITH_BOUND, WITH_UNIT]) {
    for (const m of text.matchAll(re)) {
      // The unit pattern starts with the number; the bound pattern ends with it.
      const at = re === WITH_UNIT ? m.index! : m.index! + m[0].length - m[1]!.length;
      const start = m.index!;
      const end = start + m[0].length;
      const known = spans.get(at);
      if (known) spans.set(at, { ...known, start: Math.min(known.start, start), end: Math.max(known.end, end) });
      else spans.set(at, { start, end, number: normalizeNumber(m[1]!) });
    }
  }
  return [...spans.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => ({ phrase: text.slice(s.start, s.end).trim(), number: s.number }));
}

/** Every number written in a text (a CHECK, an EXPECT), normalized; `\.` in a regex counts as '.'. */
export function numbersIn(text: string): Set<string> {
  const numbers = new Set<string>();
  for (const m of text.replace(/\\\./g, '.').matchAll(/\d+(?:[.,_]\d+)*/g)) {
    const n = normalizeNumber(m[0]).replace(/_/g, '');
    numbers.add(n);
    // "200.0" measures 200 too.
    if (/^\d+\.0+$/.test(n)) numbers.add(n.slice(0, n.indexOf('.')));
  }
  return numbers;
}
