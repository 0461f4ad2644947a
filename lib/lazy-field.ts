// A field computed on first read. The digests that only a JSON report or a merge shows (a
// gate's definition, a ledger's revision) are then not computed for a text status of gates
// that are not met, which hashes nothing and so never loads node:crypto (oracle/sha256.ts);
// a parsed ledger's lines (only the writer needs them) are not split for a status.
// Reads, spreads and JSON.stringify see an ordinary value; after the first read (or a write)
// it is a plain data property. The getter and setter are shared by every object of a field,
// so that an object holds no closures of its own. The field must not exist yet: it is added
// where it belongs in the object's key order, since turning a data property into an
// accessor makes V8 keep the object as a dictionary (5,000 gate reports: 5 MB instead of 1,
// and a status 12 ms slower). Pure.

export function lazyField<T extends object, K extends keyof T & string, A>(key: K, compute: (input: A) => T[K]): (target: T, input: A) => T {
  // The input rides on the object under a symbol of the field's own, not enumerable: JSON,
  // spreads and key lists do not see it, and no WeakMap entry per object is left for the
  // garbage collector to trace.
  const input = Symbol(`lazy ${key}`);
  const settle = (target: T, value: T[K]) => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return value;
  };
  const descriptor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: T & { [input]: A }) {
      return settle(this, compute(this[input]));
    },
    set(this: T, value: T[K]) {
      settle(this, value);
    },
  };
  return (target, value) => {
    if (Object.hasOwn(target, key)) throw new Error(`lazyField: ${key} is already defined`);
    Object.defineProperty(target, key, descriptor);
    Object.defineProperty(target, input, { value });
    return target;
  };
}
