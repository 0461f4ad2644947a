// --claim and --release (issue 12 §2): a lease on the OWNS: globs of one ledger of a scope, so
// that parallel agents do not change the same paths. A claim that overlaps a live lease is
// refused with every conflict named (exit 3); a release never reads the scope's ledgers.
import type { Io } from '../program/io.js';
import type { RunOptions } from '../program/run-options.js';
import { UsageError } from '../errors.js';
import { resolveRoot } from '../fsx/discover.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { LEASE_ID_PATTERN } from '../lease/record.js';
import { claimLease, releaseLeases } from '../lease/registry.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';
import { chooseScopeId, loadWorkspace } from '../workspace/load.js';

function checkLeaf(leaf: string): void {
  if (!LEASE_ID_PATTERN.test(leaf)) throw new UsageError(`invalid leaf "${leaf}": a leaf is a ledger's file name without .md, matching [A-Za-z0-9][A-Za-z0-9._-]{0,63}`);
}

export async function claimCommand(options: RunOptions, io: Io): Promise<number> {
  const root = resolveRoot(options.root, io.cwd);
  const scope = chooseScopeId(root, options.scope, io.env, '--claim');
  const ws = loadWorkspace({ root: options.root, scope, files: [], cwd: io.cwd });
  const stems = ws.ledgers.map((l) => l.stem);
  let loaded;
  if (options.leaf !== undefined) {
    loaded = ws.ledgers.find((l) => l.stem === options.leaf);
    if (!loaded) throw new UsageError(`scope ${scope} has no ledger ${options.leaf}.md (its ledgers: ${stems.join(', ')})`);
  } else if (ws.ledgers.length === 1) {
    loaded = ws.ledgers[0]!;
  } else {
    throw new UsageError(`scope ${scope} has ${ws.ledgers.length} ledgers (${stems.join(', ')}): pass --leaf with the one to claim for`);
  }
  checkLeaf(loaded.stem);
  if (loaded.ledger.owns.length === 0) {
    throw new UsageError(`${loaded.location.display} declares no OWNS: (nothing to claim)`, 'write "OWNS: glob, glob" before its first gate: the paths its work may change');
  }
  const { lease } = await claimLease(storeLocations(io.env), {
    root: ws.root.path,
    scope,
    leaf: loaded.stem,
    globs: loaded.ledger.owns,
    lockTimeoutMs: lockTimeoutFromEnv(io.env),
  });
  io.stdout(`CLAIMED scope ${lease.scope} leaf ${lease.leaf}: ${lease.globs.map((g) => sanitizeLine(g, 200)).join(', ')}\n`);
  io.stdout(`release it when the work is done: gate-check --release --scope ${lease.scope} --leaf ${lease.leaf}\n`);
  return 0;
}

export async function releaseCommand(options: RunOptions, io: Io): Promise<number> {
  const root = resolveRoot(options.root, io.cwd);
  const scope = chooseScopeId(root, options.scope, io.env, '--release');
  if (options.leaf !== undefined) checkLeaf(options.leaf);
  const result = await releaseLeases(storeLocations(io.env), root.path, scope, options.leaf, lockTimeoutFromEnv(io.env));
  const what = options.leaf === undefined ? `scope ${scope}` : `scope ${scope} leaf ${options.leaf}`;
  if (result.released.length === 0) io.stdout(`no lease of ${what} was held; nothing released\n`);
  for (const r of result.released) io.stdout(`RELEASED scope ${r.scope} leaf ${sanitizeLine(r.leaf, 80)}\n`);
  for (const u of result.untrusted.slice(0, 10)) {
    io.stderr(`note: ${sanitizeLine(u.path, 300)} cannot be trusted (${sanitizeLine(u.untrusted ?? '', 200)}) and blocks every claim; inspect it, then remove it by hand\n`);
  }
  return 0;
}
