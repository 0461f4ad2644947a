// Bounded brace expansion and linear wildcard matching (issue 9 §3).
import { describe, expect, it } from 'vitest';
import { braceExpansionCount, expandBraces, globLimitProblem, pathMatches, segmentMatches } from '../../lib/ledger/globs.js';
import { globMatches } from '../../lib/lint/glob.js';

describe('brace expansion is counted without expanding', () => {
  it('counts alternatives, nesting, ranges and literal groups', () => {
    expect(braceExpansionCount('a.js')).toBe(1);
    expect(braceExpansionCount('{a,b}')).toBe(2);
    expect(braceExpansionCount('{a,b}/{c,d,e}')).toBe(6);
    expect(braceExpansionCount('{a,{b,c}}')).toBe(3);
    expect(braceExpansionCount('f{1..10}')).toBe(10);
    expect(braceExpansionCount('f{a..e}')).toBe(5);
    expect(braceExpansionCount('f{1..10..3}')).toBe(4);
    expect(braceExpansionCount('{x}')).toBe(1);
    expect(braceExpansionCount('\\{a,b}')).toBe(1);
    expect(braceExpansionCount('{a,b,c,d}'.repeat(10))).toBe(4 ** 10);
    expect(braceExpansionCount('{a,b}'.repeat(100))).toBe(1e9); // saturates
    expect(braceExpansionCount('{'.repeat(9) + 'a' + '}'.repeat(9))).toBeNull();
  });

  it('expands what it counts, in order', () => {
    expect(expandBraces('src/{a,b}/{c,d}.js')).toEqual(['src/a/c.js', 'src/a/d.js', 'src/b/c.js', 'src/b/d.js']);
    expect(expandBraces('f{1..3}')).toEqual(['f1', 'f2', 'f3']);
    expect(expandBraces('{a,{b,c}}x')).toEqual(['ax', 'bx', 'cx']);
    expect(expandBraces('{x}y')).toEqual(['{x}y']);
    expect(() => expandBraces('{a,b,c,d}'.repeat(4))).toThrow(/bound/);
  });

  it('names the bound a glob exceeds', () => {
    expect(globLimitProblem('src/**/*.js')).toBeNull();
    expect(globLimitProblem('{a,b,c,d}{a,b,c,d}{a,b,c,d}')).toBeNull(); // exactly 64
    expect(globLimitProblem('{a,b,c,d,e}{a,b,c,d,e}{a,b,c}')).toMatch(/gives 75 patterns \(at most 64\)/);
    expect(globLimitProblem('@(a)')).toMatch(/extended glob/);
    expect(globLimitProblem('a/*x*y*z*')).toMatch(/more than 3/);
    expect(globLimitProblem('a/*x*y*/b*c*d*')).toBeNull();
  });
});

describe('wildcard matching without backtracking', () => {
  it('matches segments like fast-glob with dot: true', () => {
    expect(segmentMatches('*.mjs', 'a.mjs')).toBe(true);
    expect(segmentMatches('*.mjs', '.hidden.mjs')).toBe(true);
    expect(segmentMatches('?.js', 'c.js')).toBe(true);
    expect(segmentMatches('?.js', 'cc.js')).toBe(false);
    expect(segmentMatches('[ab].js', 'b.js')).toBe(true);
    expect(segmentMatches('[!ab].js', 'b.js')).toBe(false);
    expect(segmentMatches('[a-c]x', 'bx')).toBe(true);
    expect(segmentMatches('a\\*b', 'a*b')).toBe(true);
    expect(segmentMatches('a\\*b', 'axb')).toBe(false);
    expect(segmentMatches('*a*a*b', 'a'.repeat(255))).toBe(false);
  });

  it('matches paths with ** and braces (lint coverage)', () => {
    expect(pathMatches('src/**/*.js', 'src/a/b/c.js')).toBe(true);
    expect(pathMatches('src/**/*.js', 'src/c.js')).toBe(true);
    expect(pathMatches('src/**', 'src/a/b')).toBe(true);
    expect(pathMatches('src/*.js', 'src/a/b.js')).toBe(false);
    expect(globMatches('scripts/{a,b}.mjs', 'scripts/b.mjs')).toBe(true);
    expect(globMatches('scripts/{a,b}.mjs', 'scripts/c.mjs')).toBe(false);
    expect(globMatches('{a,b,c,d}'.repeat(10), 'abcdabcdab')).toBe(false); // over the bound: covers nothing
  });
});
