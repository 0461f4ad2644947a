// A field computed on first read. The digests that only a JSON report or a merge shows (a
// gate's definition, a ledger's revision) are then not computed for a text status of gates
// that are not met, which hashes nothing and so never loads node:crypto (oracle/sha256.ts);
// a parsed ledger's lines (only the writer needs them) are not split for a status.
// Reads, spreads and JSON.stringify see an ordinary value; after the first read (or a write)
// it is a plain data property. The getter and setter are shared by every object of a field
// (its input is kept in a WeakMap), so that an object holds no closures of its own; an
// accessor still makes V8 store the object less compactly, so it is for fields that are
// often never read. Pure.

export function lazyField<T extends object, K extends keyof T & string, A>(key: K, compute: (input: A) => T[K]): (target: T, input: A) => T {
  const inputs = new WeakMap<T, A>();
  const settle = (target: T, value: T[K]) => {
    inputs.delete(target);
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return value;
  };
  const descriptor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: T) {
      return settle(this, compute(inputs.get(this) as A));
    },
    set(this: T, value: T[K]) {
      settle(this, value);
    },
  };
  return (target, input) => {
    inputs.set(target, input);
    Object.defineProperty(target, key, descriptor);
    return target;
  };
}
