// Matching and hashing the files a gate names (DEPENDS, INPUTS): what runs bind into their
// oracles and what verification compares with the evidence. Needs only the repository root,
// nothing of the environment. I/O through fsx primitives.
import { join } from 'node:path';
import { matchDependsGlob } from '../fsx/depends-glob.js';
import { sha256File } from '../fsx/hash-file.js';
import type { Gate } from '../ledger/types.js';
import type { DependsEntry } from './oracle.js';

/**
 * Caches of one pass over the files. A run has one, filled when it starts; a re-check (before
 * a spawn, before writing results) uses a fresh one, so that every directory and file is
 * looked at again, once per pass rather than once per gate.
 */
export class ResolutionPass {
  readonly cwds = new Map<string, string>();
  readonly globs = new Map<string, string[]>();
  readonly hashes = new Map<string, string>();
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class FileDigests {
  readonly initial = new ResolutionPass();

  constructor(readonly root: string) {}

  /** Sorted [path, sha256] of every file the gate's DEPENDS globs match (each file hashed once per pass). */
  depends(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    return this.matchAndHash(gate.depends, 'DEPENDS', label, pass);
  }

  /** The same for INPUTS: files whose change makes evidence stale without needing a new approval. */
  inputs(gate: Gate, label: string, pass: ResolutionPass = this.initial): Promise<DependsEntry[] | null> {
    return this.matchAndHash(gate.inputs, 'INPUTS', label, pass);
  }

  private async matchAndHash(patterns: readonly string[] | null, what: string, label: string, pass: ResolutionPass): Promise<DependsEntry[] | null> {
    if (patterns === null) return null;
    const files = new Set<string>();
    for (const pattern of patterns) {
      let matched = pass.globs.get(pattern);
      if (matched === undefined) {
        matched = await matchDependsGlob(this.root, pattern, label, what);
        pass.globs.set(pattern, matched);
      }
      for (const f of matched) files.add(f);
    }
    const entries: DependsEntry[] = [];
    for (const rel of [...files].sort(byCodeUnit)) {
      let hash = pass.hashes.get(rel);
      if (hash === undefined) {
        hash = sha256File(join(this.root, rel), `${what} of ${label}: ${rel}`);
        pass.hashes.set(rel, hash);
      }
      entries.push([rel, hash]);
    }
    return entries;
  }
}
