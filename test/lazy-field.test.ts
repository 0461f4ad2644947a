// lib/lazy-field.ts: a field computed on first read, which every reader sees as a plain value.
import { describe, expect, it } from 'vitest';
import { lazyField } from '../lib/lazy-field.js';

interface Row {
  a: number;
  digest: string;
  b: number;
}

describe('a lazy field', () => {
  const calls: string[] = [];
  const lazyDigest = lazyField<Row, 'digest', string>('digest', (input) => {
    calls.push(input);
    return `d(${input})`;
  });
  const row = (input: string): Row => {
    const r = { a: 1 } as Row;
    lazyDigest(r, input);
    r.b = 2;
    return r;
  };

  it('is computed once, on first read, and then is a plain data property', () => {
    calls.length = 0;
    const r = row('x');
    expect(calls).toEqual([]);
    expect(r.digest).toBe('d(x)');
    expect(r.digest).toBe('d(x)');
    expect(calls).toEqual(['x']);
    expect(Object.getOwnPropertyDescriptor(r, 'digest')).toEqual({ value: 'd(x)', writable: true, enumerable: true, configurable: true });
  });

  it('keeps its place in the key order for JSON, spreads and key lists', () => {
    expect(JSON.stringify(row('y'))).toBe('{"a":1,"digest":"d(y)","b":2}');
    expect({ ...row('z') }).toEqual({ a: 1, digest: 'd(z)', b: 2 });
    expect(Object.keys(row('w'))).toEqual(['a', 'digest', 'b']);
  });

  it('a write replaces it without computing it', () => {
    calls.length = 0;
    const r = row('v');
    r.digest = 'set';
    expect(r.digest).toBe('set');
    expect(calls).toEqual([]);
  });

  it('refuses a field the object already has (redefining it would make the object a dictionary)', () => {
    expect(() => lazyDigest({ a: 1, digest: '', b: 2 }, 'u')).toThrow('lazyField: digest is already defined');
  });
});
