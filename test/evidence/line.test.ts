import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatEvidence, parseEvidence, pathFingerprint } from '../../lib/evidence/line.js';

describe('evidence line', () => {
  it('formats fields in a fixed order, one printable line, no timestamp', () => {
    const line = formatEvidence({ exit: 0, sha256: 'ab'.repeat(32), bytes: 12, shell: '/bin/sh', cwd: '.', path: 'abcdef012345/3', deps: '0123456789ab' });
    expect(line).toBe(`exit=0; sha256=${'ab'.repeat(32)}; bytes=12; shell=/bin/sh; cwd=.; path=abcdef012345/3; deps=0123456789ab`);
    expect(line).toMatch(/^[\x20-\x7e]+$/);
  });

  it('percent-encodes separators, spaces and non-ASCII in values, and parses back', () => {
    const line = formatEvidence({ exit: 0, sha256: 'a'.repeat(64), bytes: 1, shell: '/opt/my shell;x=1', cwd: 'Dokumente/über', path: 'unset' });
    expect(line).toMatch(/^[\x20-\x7e]+$/);
    const m = parseEvidence(line)!;
    expect(decodeURIComponent(m.get('shell')!)).toBe('/opt/my shell;x=1');
    expect(decodeURIComponent(m.get('cwd')!)).toBe('Dokumente/über');
  });

  it('refuses lines that are not key=value pairs, or repeat a key', () => {
    expect(parseEvidence('pending')).toBeNull();
    expect(parseEvidence('exit=0; exit=1')).toBeNull();
    expect(parseEvidence('')).toBeNull();
  });

  it('fingerprints PATH as 12 hex of its SHA-256 and its entry count', () => {
    const p = '/usr/bin:/bin';
    expect(pathFingerprint(p)).toBe(createHash('sha256').update(p).digest('hex').slice(0, 12) + '/2');
    expect(pathFingerprint(null)).toBe('unset');
    expect(pathFingerprint('')).toMatch(/\/0$/);
  });
});
