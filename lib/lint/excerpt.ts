// Repository text quoted inside a finding: sanitized and short, so that messages are safe to
// print and to put in JSON as they are, and non-ASCII shown as <U+XXXX>, as on the approval
// screen (a finding must not name `curl` where the CHECK runs a Cyrillic `сurl`).
import { sanitizeLine, visibleNonAscii } from '../text/sanitize.js';

function excerpt(text: string, max: number): string {
  return sanitizeLine(visibleNonAscii(text).text, max);
}

export function quoted(text: string, max = 60): string {
  return `"${excerpt(text, max)}"`;
}

export function plain(text: string, max = 80): string {
  return excerpt(text, max);
}

/** "a, b, c (+2 more)". */
export function listed(items: readonly string[], cap = 3, max = 80): string {
  const shown = items.slice(0, cap).map((s) => excerpt(s, max));
  return items.length > cap ? `${shown.join(', ')} (+${items.length - cap} more)` : shown.join(', ');
}
