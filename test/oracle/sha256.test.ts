import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256HexOfParts, type HashPart } from '../../lib/oracle/sha256.js';

const reference = (parts: readonly HashPart[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

const part: fc.Arbitrary<HashPart> = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ maxLength: 2000 }), fc.uint8Array({ maxLength: 300 }));

describe('sha256', () => {
  it('the one-shot and the part-by-part digests are the reference digest, for strings and bytes', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
        expect(sha256HexOfParts(parts)).toBe(reference(parts));
        expect(sha256HexOfParts([parts[0]!])).toBe(reference([parts[0]!]));
      }),
      { numRuns: 300 },
    );
  });
});
