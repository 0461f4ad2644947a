// lib/text/lazy-regexp.ts: built once, on first use.
import { describe, expect, it } from 'vitest';
import { lazyRegExp } from '../../lib/text/lazy-regexp.js';

describe('a lazy regular expression', () => {
  it('is not built until asked for, then built once', () => {
    let built = 0;
    const re = lazyRegExp(() => {
      built++;
      return /\p{Zs}/u;
    });
    expect(built).toBe(0);
    expect(re().test('\u00a0')).toBe(true);
    expect(re()).toBe(re());
    expect(built).toBe(1);
  });
});
