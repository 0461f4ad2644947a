// Canonical JSON: object keys sorted by code unit, no insignificant whitespace, strings and
// numbers as JSON.stringify writes them. Equal values always give equal bytes. Pure.
export type Canonical = string | number | boolean | null | Canonical[] | { [key: string]: Canonical };

/** A copy with every object's keys inserted in sorted order (JSON.stringify keeps insertion order). */
function sortedCopy(value: Canonical): Canonical {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonicalJson: non-finite number');
    return value;
  }
  if (Array.isArray(value)) return value.map(sortedCopy);
  const out: { [key: string]: Canonical } = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedCopy(value[k]!);
  return out;
}

export function canonicalJson(value: Canonical): string {
  return JSON.stringify(sortedCopy(value));
}
