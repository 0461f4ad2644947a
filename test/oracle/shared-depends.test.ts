// Resolution shares one frozen DEPENDS list among every gate with the same patterns, and the
// signature and deps= digest of such a list are computed from its memoized canonical JSON.
// They must be byte for byte what the plain canonical serialization gives, whatever the other
// fields hold (quotes, backslashes, the text `"depends":null`, non-ASCII).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type Canonical } from '../../lib/oracle/canonical.js';
import { dependsDigest, lazyOracle, ORACLE_VERSION, sha256Hex, shareDepends, signOracle, type DependsEntry, type OracleFields } from '../../lib/oracle/oracle.js';

const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
const tricky = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"depends":null', '\\', '\\"depends\\":null', 'x","depends":null,"y":"', '\u2028', 'é'));
const entry = fc.tuple(fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('"depends":null', 'a"b\\c')), hex);
// Short lists are shared as they are; lists of 64 entries or more take the memoized path.
const entries = fc.oneof(fc.array(entry, { maxLength: 10 }), fc.array(entry, { minLength: 64, maxLength: 90 }));

function fields(check: string, cwd: string, expect: string, depends: DependsEntry[] | null): OracleFields {
  return { v: ORACLE_VERSION, ledger: '/r/GATES.md', gate: 'G1', check, expect, cwd, shell: '/bin/sh', timeoutMs: 1000, outputCap: 10, regexCapMs: 5, platform: 'linux', path: '/bin', depends };
}

describe('shared DEPENDS lists', () => {
  it('sign exactly like an unshared copy, and like the canonical serialization itself', () => {
    fc.assert(
      fc.property(tricky, tricky, tricky, entries, (check, cwd, exp, list) => {
        const plain = fields(check, cwd, exp, list.map((e) => [...e] as DependsEntry));
        const shared = fields(check, cwd, exp, shareDepends(list.map((e) => [...e] as DependsEntry)));
        const reference = sha256Hex(canonicalJson(plain as unknown as Canonical));
        expect(signOracle(plain).signature).toBe(reference);
        expect(signOracle(shared).signature).toBe(reference);
        expect(lazyOracle(shared).signature).toBe(reference);
        expect(dependsDigest(shared.depends!)).toBe(dependsDigest(plain.depends!));
        expect(dependsDigest(plain.depends!)).toBe(sha256Hex(canonicalJson(plain.depends as unknown as Canonical)).slice(0, 12));
      }),
      { numRuns: 500 },
    );
  });

  it('are frozen when long, entries included, so the memo cannot go stale; a short one is left alone', () => {
    expect(Object.isFrozen(shareDepends([['a', 'b'.repeat(64)]]))).toBe(false);
    const list = shareDepends(Array.from({ length: 64 }, (_, i): DependsEntry => [`f${i}`, 'b'.repeat(64)]));
    expect(() => list.push(['c', 'd'])).toThrow();
    expect(() => {
      list[0]![1] = 'x';
    }).toThrow();
  });

  it('one list, many gates: each gate still gets its own signature', () => {
    const list = shareDepends(Array.from({ length: 100 }, (_, i): DependsEntry => [`f${i}`, 'a'.repeat(64)]));
    const sigs = new Set(Array.from({ length: 50 }, (_, i) => signOracle({ ...fields('echo', '/r', 'ok', list), gate: `G${i}` }).signature));
    expect(sigs.size).toBe(50);
  });
});
