// Gate states from the ledger alone: evidence of a runnable gate counts only when it names the
// gate's definition as written now.
import { describe, expect, it } from 'vitest';
import { definitionDigest, definitionText } from '../../lib/ledger/definition.js';
import { gateStatus } from '../../lib/ledger/state.js';
import { defOf, lines, parseOk } from '../helpers/ledger.js';

const runnable = (extra = '', check = 'npm test', expect = 'ok') => lines('- [x] G1: t', `  CHECK: ${check}`, `  EXPECT: ${expect}`) + extra;
const withEvidence = (src: string, def: string) => src + `  EVIDENCE: exit=0; def=${def}; match=${'0'.repeat(12)}; receipt=${'0'.repeat(12)}\n`;
const status = (src: string) => gateStatus(parseOk(src).gates[0]!);

describe('definition digest', () => {
  it('covers CHECK, EXPECT, CWD, DEPENDS, INPUTS and TIMEOUT as written, not their order or the evidence', () => {
    const base = runnable('  DEPENDS: a.js, b.js\n');
    const d = definitionDigest(parseOk(base).gates[0]!);
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(definitionDigest(parseOk(runnable('  DEPENDS: b.js, a.js\n')).gates[0]!)).toBe(d);
    expect(definitionDigest(parseOk(base + '  EVIDENCE: anything\n').gates[0]!)).toBe(d);
    for (const other of [
      runnable('  DEPENDS: a.js\n'),
      runnable('  DEPENDS: a.js, b.js\n', 'npm test -- --bail'),
      runnable('  DEPENDS: a.js, b.js\n', 'npm test', 'ok!'),
      runnable('  DEPENDS: a.js, b.js\n  CWD: pkg\n'),
      runnable('  DEPENDS: a.js, b.js\n  INPUTS: src/*.js\n'),
      runnable('  DEPENDS: a.js, b.js\n  TIMEOUT: 300\n'),
    ]) {
      expect(definitionDigest(parseOk(other).gates[0]!), other).not.toBe(d);
    }
    expect(definitionDigest(parseOk(lines('- [x] G1: t', '  EVIDENCE: ok')).gates[0]!)).toBeNull();
    expect(definitionText(parseOk(base).gates[0]!)).toContain('"v":"gate-check/definition@1"');
  });
});

describe('gate states', () => {
  it('met needs evidence of a passing run that names the definition as written now', () => {
    const src = runnable();
    expect(status(withEvidence(src, defOf(src, 'G1')))).toEqual({ state: 'met', reason: null });
  });

  it('evidence for an edited CHECK, EXPECT, DEPENDS or TIMEOUT is only claimed', () => {
    const src = runnable();
    const def = defOf(src, 'G1');
    for (const edited of [runnable('', 'npm test || true'), runnable('', 'npm test', 'o'), runnable('  DEPENDS: x.js\n'), runnable('  TIMEOUT: 9\n')]) {
      const s = status(withEvidence(edited, def));
      expect(s.state, edited).toBe('claimed');
      expect(s.reason).toMatch(/evidence is for another definition/);
    }
  });

  it('hand-written evidence of a runnable gate without def= or without exit=0 is only claimed', () => {
    const src = runnable();
    for (const ev of ['done', 'exit=0; sha256=' + 'a'.repeat(64), `exit=1; def=${defOf(src, 'G1')}`, `def=${defOf(src, 'G1')}`]) {
      const s = status(src + `  EVIDENCE: ${ev}\n`);
      expect(s.state, ev).toBe('claimed');
      expect(s.reason).toMatch(/not written by a passing run/);
    }
  });

  it('manual gates keep human evidence; pending and unchecked are as before', () => {
    expect(status(lines('- [x] G1: t', '  EVIDENCE: reviewed by Ada')).state).toBe('met');
    expect(status(lines('- [x] G1: t', '  EVIDENCE: pending'))).toEqual({ state: 'claimed', reason: 'ticked without evidence' });
    expect(status(lines('- [ ] G1: t', '  EVIDENCE: reviewed')).state).toBe('unmet');
    expect(status(lines('- [x] G1: t', '  EVIDENCE: x', 'ABANDON: G1 gone')).state).toBe('abandoned');
  });
});
