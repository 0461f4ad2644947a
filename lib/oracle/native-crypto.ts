// node:crypto, loaded on first use. A static import would load it (about 20 internal modules,
// 3.5 ms) on every start, including the --status and Stop hook paths that hash only a few
// small texts (oracle/sha256.ts) and draw no random numbers. createRequire also skips the ESM
// wrapper of the built-in, which reads every export (and so loads webcrypto too).
import type * as Crypto from 'node:crypto';
import { createRequire } from 'node:module';

let loaded: typeof Crypto | undefined;

export function nativeCrypto(): typeof Crypto {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto);
}
