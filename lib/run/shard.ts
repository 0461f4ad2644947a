// --shard I/N: a gate belongs to shard (h mod N) + 1, where h comes from the SHA-256 of its
// qualified id. Depends on nothing but the id, so adding a gate moves no other gate. Pure.
import { nativeCrypto } from '../oracle/native-crypto.js';

export function shardOf(qualifiedId: string, count: number): number {
  const h = nativeCrypto().createHash('sha256').update(qualifiedId, 'utf8').digest();
  return (h.readUInt32BE(0) % count) + 1;
}
