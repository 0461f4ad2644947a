import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shardOf } from '../../lib/run/shard.js';

describe('shardOf', () => {
  it('puts every gate in exactly one of N shards, deterministically', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[A-Za-z]{1,6}:[A-Za-z0-9]{1,6}$/), { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), (ids, n) => {
        const shards = ids.map((id) => shardOf(id, n));
        for (const s of shards) expect(s >= 1 && s <= n).toBe(true);
        expect(ids.map((id) => shardOf(id, n))).toEqual(shards);
      }),
    );
  });

  it('appending a gate moves no existing gate', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `GATES:G${i}`);
    const before = ids.map((id) => shardOf(id, 4));
    const after = [...ids, 'GATES:NEW'].map((id) => shardOf(id, 4));
    expect(after.slice(0, 50)).toEqual(before);
  });

  it('spreads gates over the shards', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 400; i++) counts[shardOf(`GATES:G${i}`, 4) - 1]!++;
    for (const c of counts) expect(c).toBeGreaterThan(60);
  });
});
