// Node's compile cache (module.enableCompileCache, Node >= 22.1: V8 keeps the compiled code
// of each module on disk, so the next start skips compiling it; measured 3 to 5 ms per call
// on Node 22 and 24) for runs, which write anyway. Never for --status and the other
// read-only commands, which write nothing (SECURITY.md), and not for the Stop hook, whose
// repository is known only from its payload, after its code is loaded.
// The cache is a folder of the private store, used only when the store already exists as a
// private directory (a real directory of this user, mode 0700) and lies outside the
// repository, lexically and canonically (code compiled from a folder the repository controls
// would be code nobody approved); it is never created for the cache alone. Any failure
// leaves the cache off.
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { storeLocations } from '../store/locations.js';
import { isInside } from './discover.js';

type EnableCompileCache = (dir: string) => unknown;

function isPrivateDirectory(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined || st.isSymbolicLink() || !st.isDirectory()) return false;
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  return (uid === null || st.uid === uid) && (st.mode & 0o077) === 0;
}

/** Turns the compile cache on for the modules loaded from now on, where it can be had safely. */
export function useCompileCache(env: NodeJS.ProcessEnv, repoRoot: string): void {
  const enable = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    const base = storeLocations(env).base;
    if (!isPrivateDirectory(base) || isInside(repoRoot, base) || isInside(repoRoot, realpathSync(base))) return;
    const dir = join(base, 'compile-cache');
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      /* it exists (checked next), or cannot be made */
    }
    if (!isPrivateDirectory(dir)) return;
    enable(dir);
  } catch {
    /* no cache */
  }
}
