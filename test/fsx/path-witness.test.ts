// The path witness: judgements of what lies outside the repository are kept past a check only
// while every path the kernel looked at to resolve what they read is as it was. Real files,
// real links; the clock is moved forward instead of sleeping past the racy margin.
import { chmodSync, mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHead } from '../../lib/fsx/hash-file.js';
import { MAX_WITNESSED_PATHS, PathWitness } from '../../lib/fsx/path-witness.js';
import { RACY_MARGIN_MS } from '../../lib/fsx/stat-cache.js';
import { tempDir } from '../helpers/cli.js';

const later = () => Date.now() + RACY_MARGIN_MS + 1000; // as if everything had settled

/**
 * A witness of `paths` that holds while nothing changed. Other test files make folders in the
 * temporary folder at the same time, which every path here goes through: a witness broken by
 * them is taken again (three times at most).
 */
function settledWitness(paths: string[]): PathWitness {
  for (let attempt = 0; ; attempt++) {
    const w = new PathWitness(later);
    for (const p of paths) w.witness(p);
    if (w.holds() || attempt === 2) {
      expect(w.holds()).toBe(true);
      return w;
    }
  }
}

/** out/a -> out/x/y (a link through a folder), out/x/y -> out/m, out/m/tool (a file). */
function tree() {
  const d = tempDir();
  mkdirSync(join(d, 'x'));
  mkdirSync(join(d, 'm'));
  mkdirSync(join(d, 'n'));
  writeFileSync(join(d, 'm', 'tool'), '#!/bin/sh\necho one\n', { mode: 0o755 });
  writeFileSync(join(d, 'n', 'tool'), '#!/bin/sh\necho two\n', { mode: 0o755 });
  symlinkSync(join(d, 'm'), join(d, 'x', 'y'));
  symlinkSync(join(d, 'x', 'y'), join(d, 'a'));
  return d;
}

describe('PathWitness', () => {
  it('holds while nothing on the way changed', () => {
    const d = tree();
    settledWitness([join(d, 'a', 'tool'), join(d, 'a', 'missing')]);
  });

  it('a link on the way retargeted, even one only a link hop reaches (x/y), breaks it', () => {
    const d = tree();
    const w = settledWitness([join(d, 'a', 'tool')]);
    unlinkSync(join(d, 'x', 'y'));
    symlinkSync(join(d, 'n'), join(d, 'x', 'y'));
    expect(w.holds()).toBe(false);
  });

  it('a name made where nothing was, in the folder a walk ended in, breaks it', () => {
    const d = tree();
    const w = settledWitness([join(d, 'a', 'missing', 'deeper')]);
    mkdirSync(join(d, 'm', 'missing'));
    expect(w.holds()).toBe(false);
  });

  it('the file reached rewritten, or its mode changed, breaks it', () => {
    for (const change of ['bytes', 'mode', 'replaced'] as const) {
      const d = tree();
      const w = settledWitness([join(d, 'a', 'tool')]);
      const file = join(d, 'm', 'tool');
      if (change === 'bytes') writeFileSync(file, '#!/bin/sh\necho TWO\n');
      if (change === 'mode') chmodSync(file, 0o644);
      if (change === 'replaced') renameSync(join(d, 'n', 'tool'), file);
      expect(w.holds(), change).toBe(false);
    }
  });

  it('a start whose bytes differ from those read breaks it, whatever the times say (a write through a dirty shared mapping changes none)', () => {
    const d = tree();
    const file = join(d, 'm', 'tool');
    const w = new PathWitness(later);
    w.witnessBytes(file, readHead(file, 'tool'), 256);
    expect(w.holds()).toBe(true);
    const other = new PathWitness(later);
    other.witnessBytes(file, Buffer.from('#!/bin/sh\necho TWO\n'), 256);
    expect(other.holds()).toBe(false);
    // Only the bytes that decided are compared: a change past them holds; a file that grew past a short start does not.
    const past = new PathWitness(later);
    past.witnessBytes(file, Buffer.from('#!/bin/sh\necho one\nEXTRA'), 11);
    expect(past.holds()).toBe(true);
    const grown = new PathWitness(later);
    grown.witnessBytes(file, Buffer.from('#!/bin/sh\n'), 256);
    expect(grown.holds()).toBe(false);
    expect(other.holds()).toBe(false);
    other.clear();
    expect(other.holds()).toBe(true);
  });

  it('a path noted while younger than the racy margin never holds', () => {
    const d = tree();
    const w = new PathWitness();
    w.witness(join(d, 'a', 'tool'));
    expect(w.holds()).toBe(false);
  });

  it(`past ${MAX_WITNESSED_PATHS} noted paths it is not kept; cleared, it holds again (nothing noted)`, () => {
    const d = tempDir();
    const paths = Array.from({ length: MAX_WITNESSED_PATHS + 1 }, (_, i) => join(d, `f${i}`, 'x'));
    settledWitness(paths); // missing names are not noted: their folder is
    for (let i = 0; i <= MAX_WITNESSED_PATHS; i++) mkdirSync(join(d, `f${i}`));
    const full = new PathWitness(later);
    for (const p of paths) full.witness(p);
    expect(full.holds()).toBe(false);
    full.clear();
    expect(full.holds()).toBe(true);
  });
});
