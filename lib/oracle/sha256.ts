// SHA-256 as hex, by node:crypto loaded on first use (oracle/native-crypto.ts): the start-up
// paths hash nothing until something needs a digest (a met gate's oracle, a JSON report).
import { nativeCrypto } from './native-crypto.js';

export type HashPart = string | Uint8Array;

/** SHA-256 of the parts in order (strings as UTF-8), as 64 lower-case hex digits. */
export function sha256HexOfParts(parts: readonly HashPart[]): string {
  const crypto = nativeCrypto();
  // One-shot crypto.hash (Node 20.12+) where available: no Hash object per call.
  if (parts.length === 1 && typeof crypto.hash === 'function') return crypto.hash('sha256', parts[0]!, 'hex');
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** SHA-256 of a string's UTF-8 bytes, as 64 lower-case hex digits. */
export function sha256Hex(text: string): string {
  return sha256HexOfParts([text]);
}
