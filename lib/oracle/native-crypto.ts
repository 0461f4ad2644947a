// node:crypto, loaded on first use. A static import would load it (about 20 internal modules,
// 3.5 ms) on every start, including the --status and Stop hook paths that hash only a few
// small texts (oracle/sha256.ts) and draw no random numbers (lib/builtin-module.ts).
import type * as Crypto from 'node:crypto';
import { builtinModule } from '../builtin-module.js';

let loaded: typeof Crypto | undefined;

export function nativeCrypto(): typeof Crypto {
  return (loaded ??= builtinModule<typeof Crypto>('node:crypto'));
}
