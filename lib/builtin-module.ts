// A built-in module loaded when first needed, through process.getBuiltinModule (Node 20.16
// and later): not a static import, which loads it at every start (through an ESM wrapper
// that reads every export, so node:crypto also loaded webcrypto), not import(), which the
// fast builds (run by node:vm) cannot serve, and not createRequire, which loads node:module
// first (0.4 ms).

export function builtinModule<T>(id: string): T {
  const loaded = process.getBuiltinModule(id);
  if (loaded === undefined) throw new Error(`no built-in module ${id}`);
  return loaded as T;
}
