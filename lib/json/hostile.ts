// Shape checks for JSON read from disk or stdin, which is parsed as hostile: a plain object
// (no prototype tricks) with exactly the expected own keys. JSON.parse makes "__proto__" an
// own key, so it is refused like any other unexpected key. Pure.

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Exactly these own keys, no more, no fewer. */
export function hasExactKeys(v: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(v);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(v, k));
}
