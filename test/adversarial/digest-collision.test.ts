// Found by attack round 41b (F1, F2): run records kept only 12 hex (48 bits) of the digests of
// DEPENDS, INPUTS, the PATH executables in the repository and the title, and verification
// compared those. A collision search of a few CPU minutes made a good and a bad version of a
// file (or two titles) with one label: the good one passed, the bad one was swapped in and
// verified. Records now keep the full digests, and verification compares them.
//
// A real 48-bit collision costs minutes, so each case takes a real pass and rewrites its
// record's full digest to another value, keeping the 12-hex label: what a collision leaves
// behind (the label matches the file as it is now, the full digest does not).
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';

function repo(files: Record<string, string>) {
  const s = sandbox();
  writeFiles(s.repo, files);
  const run = (args: string[]) => runCli(args, { cwd: s.repo, env: s.env });
  const recordsFile = () => {
    const dir = join(s.home, '.gate-check', 'receipts');
    const name = readdirSync(dir).find((n) => n.endsWith('.records.json'))!;
    return join(dir, name);
  };
  /** Rewrites the newest record's `full` digests, as a collision of their labels would leave them. */
  const collide = (field: 'deps' | 'inputs' | 'bound' | 'title' | null) => {
    const file = recordsFile();
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const record = doc.records[0];
    if (field === null) delete record.full;
    else record.full[field] = record.full[field].slice(0, 12) + 'f'.repeat(52);
    writeFileSync(file, JSON.stringify(doc));
  };
  return { ...s, run, collide, records: () => JSON.parse(readFileSync(recordsFile(), 'utf8')).records };
}

const GATE = '- [ ] A: the adder adds\n  CHECK: sh test.sh\n  EXPECT: add-ok\n  DEPENDS: test.sh\n  INPUTS: src/add.sh\n';
const FILES = { 'GATES.md': GATE, 'test.sh': '. ./src/add.sh; [ "$(add 2 3)" = 5 ] && echo add-ok\n', 'src/add.sh': 'add() { echo $(($1 + $2)); }\n' };

describe('run records keep full digests; a collision of their 12-hex labels verifies nothing', () => {
  it('a pass records the full digests of DEPENDS, INPUTS and the title, beside their labels', () => {
    const s = repo(FILES);
    expect(s.run(['--approve']).code).toBe(0);
    const [record] = s.records();
    expect(record.full).toEqual({ deps: expect.stringMatching(/^[0-9a-f]{64}$/), inputs: expect.stringMatching(/^[0-9a-f]{64}$/), bound: null, title: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(record.full.deps.slice(0, 12)).toBe(record.deps);
    expect(record.full.inputs.slice(0, 12)).toBe(record.inputs);
    expect(record.full.title.slice(0, 12)).toBe(record.title);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  for (const [field, reason] of [
    ['deps', /GATES:A {2}met, stale .*: DEPENDS changed/],
    ['inputs', /GATES:A {2}met, stale .*: INPUTS changed since the evidence was written/],
    ['title', /GATES:A {2}met, stale .*: the title or the text in its item changed since the passing run/],
  ] as const) {
    it(`${field}: the label matches, the full digest does not: stale, and a plain run runs it again`, () => {
      const s = repo(FILES);
      expect(s.run(['--approve']).code).toBe(0);
      s.collide(field);
      const strict = s.run(['--status', '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(reason);
      expect(s.run(['--reverify', '--only-stale']).stdout).toMatch(/^PASS GATES:A/m);
    });
  }

  it('bound: the PATH executables of a folder in the repository, by their full digest', () => {
    const s = repo({ 'GATES.md': '- [ ] A: the tool works\n  CHECK: PATH=tools:$PATH mytool\n  EXPECT: tool-ok\n', 'tools/mytool': '#!/bin/sh\necho tool-ok\n' });
    chmodSync(join(s.repo, 'tools/mytool'), 0o755);
    expect(s.run(['--approve']).code).toBe(0);
    expect(s.records()[0].full.bound).toMatch(/^[0-9a-f]{64}$/);
    expect(s.run(['--status', '--strict']).code).toBe(0);
    s.collide('bound');
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/GATES:A {2}met, stale .*: PATH executables inside the repository changed \(in tools\)/);
  });

  it('a record whose PATH folders and full digest of their executables disagree (one without the other) verifies nothing', () => {
    const s = repo(FILES);
    expect(s.run(['--approve']).code).toBe(0);
    const file = join(s.home, '.gate-check', 'receipts', readdirSync(join(s.home, '.gate-check', 'receipts')).find((n) => n.endsWith('.records.json'))!);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.records[0].full.bound = 'a'.repeat(64);
    writeFileSync(file, JSON.stringify(doc));
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('met, mismatched');
  });

  it('a record of an earlier version, without full digests, verifies nothing: unverified, run again', () => {
    const s = repo(FILES);
    expect(s.run(['--approve']).code).toBe(0);
    s.collide(null);
    const strict = s.run(['--status', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('recorded by an earlier version of gate-check, without full digests of its files: run it again');
    const again = s.run([]);
    expect(again.stdout).toMatch(/^PASS GATES:A/m);
    expect(s.run(['--status', '--strict']).code).toBe(0);
  });

  it('malformed full digests make the records file unreadable, as any malformed record does', () => {
    const s = repo(FILES);
    expect(s.run(['--approve']).code).toBe(0);
    const file = join(s.home, '.gate-check', 'receipts', readdirSync(join(s.home, '.gate-check', 'receipts')).find((n) => n.endsWith('.records.json'))!);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const full = doc.records[0].full;
    for (const bad of [{ ...full, deps: 'abc' }, { ...full, inputs: 7 }, { ...full, bound: 'f'.repeat(12) }, { ...full, extra: null }, { ...full, title: null }, null, 'x']) {
      writeFileSync(file, JSON.stringify({ ...doc, records: [{ ...doc.records[0], full: bad }] }));
      const r = s.run(['--status', '--strict']);
      expect(r.code, JSON.stringify(bad)).toBe(2);
      expect(r.stderr, JSON.stringify(bad)).toContain('invalid receipts file: a record is malformed');
    }
  });
});
