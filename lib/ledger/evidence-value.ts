// The key=value form of a machine-written EVIDENCE value (`exit=0; def=…; receipt=…`). Pure.

/** key=value pairs of an evidence value, or null when it is not of that form (free text, a duplicate key). */
export function parseEvidence(value: string): Map<string, string> | null {
  const out = new Map<string, string>();
  for (const part of value.split(';')) {
    const p = part.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    if (eq <= 0) return null;
    const key = p.slice(0, eq);
    if (out.has(key)) return null;
    out.set(key, p.slice(eq + 1));
  }
  return out.size > 0 ? out : null;
}
