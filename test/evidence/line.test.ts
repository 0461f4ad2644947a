import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatEvidence, matchDigest, parseEvidence, pathFingerprint } from '../../lib/evidence/line.js';

describe('evidence line', () => {
  it('is stable, one line of key=value pairs, in a fixed order', () => {
    const line = formatEvidence({ receipt: 'c'.repeat(12), match: 'b'.repeat(12), def: 'a'.repeat(12), exit: 0, deps: '0123456789ab' });
    expect(line).toBe(`exit=0; def=${'a'.repeat(12)}; deps=0123456789ab; match=${'b'.repeat(12)}; receipt=${'c'.repeat(12)}`);
    expect(formatEvidence({ exit: 0, def: 'a'.repeat(12), inputs: 'd'.repeat(12), match: 'b'.repeat(12), receipt: 'c'.repeat(12) })).toContain(`; inputs=${'d'.repeat(12)}; `);
  });

  it('parses key=value pairs and refuses free text and duplicate keys', () => {
    const m = parseEvidence(formatEvidence({ exit: 0, def: 'a'.repeat(12), match: 'b'.repeat(12), receipt: 'c'.repeat(12) }))!;
    expect(m.get('def')).toBe('a'.repeat(12));
    expect(parseEvidence('pending')).toBeNull();
    expect(parseEvidence('exit=0; exit=1')).toBeNull();
    expect(parseEvidence('')).toBeNull();
  });

  it('digests the matched text, not the output', () => {
    expect(matchDigest('12 passed')).toBe(createHash('sha256').update('12 passed').digest('hex').slice(0, 12));
  });

  it('fingerprints PATH as hash/entries', () => {
    const p = '/usr/bin:/bin';
    expect(pathFingerprint(p)).toBe(createHash('sha256').update(p).digest('hex').slice(0, 12) + '/2');
    expect(pathFingerprint(null)).toBe('unset');
    expect(pathFingerprint('')).toMatch(/\/0$/);
  });
});
