// Repository text quoted inside a finding: sanitized and short, so that messages are safe to
// print and to put in JSON as they are.
import { sanitizeLine } from '../text/sanitize.js';

export function quoted(text: string, max = 60): string {
  return `"${sanitizeLine(text, max)}"`;
}

export function plain(text: string, max = 80): string {
  return sanitizeLine(text, max);
}

/** "a, b, c (+2 more)". */
export function listed(items: readonly string[], cap = 3, max = 80): string {
  const shown = items.slice(0, cap).map((s) => sanitizeLine(s, max));
  return items.length > cap ? `${shown.join(', ')} (+${items.length - cap} more)` : shown.join(', ');
}
