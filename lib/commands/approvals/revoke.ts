// gate-check approvals revoke: remove the approvals of gates (every signature), of whole
// ledgers (--all), or single records by file name. A record name is removed without reading
// the record, so one too large, malformed or no longer private can still go.
import { dirname, join, relative, sep } from 'node:path';
import type { ApprovalRecord } from '../../approval/record.js';
import { RECORD_NAME } from '../../approval/store.js';
import type { Io } from '../../program/io.js';
import { EXIT } from '../../program/exit-codes.js';
import { UsageError } from '../../errors.js';
import { displayPath, isInside, resolveRoot } from '../../fsx/discover.js';
import { lockTimeoutFromEnv } from '../../fsx/lock.js';
import { checkoutsOf } from '../../fsx/git-checkouts.js';
import { lstatOrNull } from '../../fsx/safe-read.js';
import { leaseRepository } from '../../lease/repository.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { ledgerStem, loadWorkspace, type LoadedLedger, type Workspace } from '../../workspace/load.js';
import { checkFiles, fileNameOf, invalidRecordsLine, nonEmpty, openExistingStore, plural, readAll, removeRecords, uniqueRecords, type CommonOptions } from './shared.js';

export interface RevokeOptions extends CommonOptions {
  all?: boolean;
}

/** A positional of revoke: a path (has a separator, or ends in .md without a colon) or a gate id. */
function isFileArgument(arg: string): boolean {
  if (arg.includes('/') || (sep !== '/' && arg.includes(sep))) return true;
  if (arg.includes(':')) return false;
  return /\.md$/i.test(arg);
}

interface GateTarget {
  ledger: string;
  gate: string;
  /** STEM:ID as shown. */
  label: string;
  /** The ledger as shown (relative to the root). */
  display: string;
}

function targetKey(ledger: string, gate: string): string {
  return `${ledger}\u0000${gate}`;
}

/** Most folders looked at while finding the checkouts of the store's ledgers: each is one lstat. */
const MAX_FOLDERS_LOOKED = 100_000;

/**
 * Finds the nearest folder at or above a folder that holds a `.git` (a checkout's top),
 * remembering every folder it looked at. A folder that cannot be looked into ends the walk
 * (nothing is known above it) and is added to `unreadable`.
 */
function checkoutTops(unreadable: Set<string>): (dir: string) => string | null {
  const known = new Map<string, string | null>();
  return (dir) => {
    const seen: string[] = [];
    let top: string | null = null;
    for (let d = dir; ; d = dirname(d)) {
      const had = known.get(d);
      if (had !== undefined) {
        top = had;
        break;
      }
      if (known.size + seen.length >= MAX_FOLDERS_LOOKED) break;
      seen.push(d);
      let git: ReturnType<typeof lstatOrNull>;
      try {
        git = lstatOrNull(join(d, '.git'));
      } catch {
        unreadable.add(d);
        break;
      }
      if (git !== null) {
        top = d;
        break;
      }
      if (dirname(d) === d) break;
    }
    for (const d of seen) known.set(d, top);
    return top;
  };
}

/**
 * The repository's other checkouts: its main one and its linked worktrees as git records
 * them, and every checkout of the same repository that an approval in the store names,
 * wherever git lost track of it (its registration moved out of .git/worktrees, or its `.git`
 * a file naming the main repository: round-39w W2), a worktree inside the main checkout's
 * folder included. None outside git.
 */
function otherCheckouts(root: string, ledgers: readonly string[]): { found: string[]; unreadable: Set<string> } {
  const unreadable = new Set<string>();
  const repository = leaseRepository(root);
  if (!repository.startsWith('git:')) return { found: [], unreadable };
  const found = checkoutsOf(repository.slice('git:'.length)).filter((c) => c !== root);
  const topOf = checkoutTops(unreadable);
  for (const ledger of ledgers) {
    // A checkout git lists is known without looking into it: one made unreadable while revoke
    // runs is still revoked (round-39z Z4).
    if (checkoutOf(ledger, found) !== null) continue;
    const top = topOf(dirname(ledger));
    if (top === null || top === root || found.includes(top)) continue;
    let other: string;
    try {
      other = leaseRepository(top);
    } catch {
      // Another repository's `.git` that cannot be read (an approval of any repository can
      // name it) must not stop this one's revoke; it is named in a note.
      unreadable.add(top);
      continue;
    }
    if (other === repository) found.push(top);
  }
  return { found, unreadable };
}

/** The checkout of `ledger` among `checkouts`: the nearest one that holds it, or null. */
function checkoutOf(ledger: string, checkouts: readonly string[]): string | null {
  let best: string | null = null;
  for (const c of checkouts) if (isInside(c, ledger) && (best === null || c.length > best.length)) best = c;
  return best;
}

export async function revokeApprovals(targets: string[], options: RevokeOptions, io: Io): Promise<number> {
  const rootArg = nonEmpty('--root', options.root);
  const scope = nonEmpty('--scope', options.scope);
  const names = targets.filter((t) => RECORD_NAME.test(t));
  const rest = targets.filter((t) => !RECORD_NAME.test(t));
  const files = rest.filter(isFileArgument);
  const ids = rest.filter((t) => !isFileArgument(t));
  checkFiles(files);
  for (const id of ids) if (id === '' || id.includes('\u0000')) throw new UsageError('empty gate id');
  if (options.all && ids.length + names.length > 0) {
    throw new UsageError(`revoke takes gate ids or record names, or --all, not both (got ${sanitizeLine([...ids, ...names].join(', '), 200)})`, "see 'gate-check approvals revoke --help'");
  }
  if (!options.all && ids.length === 0 && names.length === 0) throw new UsageError('revoke needs gate ids (STEM:ID or ID), record names or --all', "see 'gate-check approvals revoke --help'");
  if (files.length > 0 && scope !== undefined) throw new UsageError('--scope selects discovered ledgers; it cannot be combined with ledger files');

  // --all alone, or record names alone, never read a ledger: approvals of a deleted or broken
  // ledger go too.
  const rootWide = options.all === true && files.length === 0 && scope === undefined;
  const namesOnly = ids.length === 0 && !options.all && files.length === 0 && scope === undefined;
  const ws: Workspace | null = rootWide || namesOnly ? null : loadWorkspace({ root: rootArg, scope, files, cwd: io.cwd, env: io.env });
  const root = ws ? ws.root : resolveRoot(rootArg, io.cwd);

  const opened = openExistingStore(io, root);
  const all = opened.store && !namesOnly ? readAll(opened.store) : { records: [], invalid: [] };
  const records = uniqueRecords(all.records);
  // A record keys its ledger by path, so each checkout of the repository (a linked worktree,
  // the main one) has its own: revoking here revokes there too (round-39v V7: the agent's
  // worktree kept running a command the person had revoked in the main checkout).
  const { found: others, unreadable } = otherCheckouts(root.path, [...new Set(records.map((r) => r.oracle.ledger))]);
  const checkouts = [root.path, ...others];
  const here = (ledger: string): string => {
    const checkout = checkoutOf(ledger, checkouts);
    return checkout === null || checkout === root.path ? ledger : join(root.path, relative(checkout, ledger));
  };
  const keyOf = (r: ApprovalRecord) => targetKey(here(r.oracle.ledger), r.oracle.gate);

  // Which (ledger, gate) pairs go, in display order.
  const chosen = new Map<string, GateTarget>();
  const byLedger = new Map<string, LoadedLedger>(ws ? ws.ledgers.map((l) => [l.location.path, l]) : []);
  const pairLabel = (ledger: string, gate: string): GateTarget => {
    const loaded = byLedger.get(ledger);
    const stem = loaded ? loaded.stem : ledgerStem(ledger);
    const display = loaded ? loaded.location.display : isInside(root.path, ledger) ? displayPath(root, ledger) : ledger;
    return { ledger, gate, label: `${stem}:${gate}`, display };
  };
  if (options.all) {
    const inScope = (ledger: string) => (rootWide ? isInside(root.path, ledger) : byLedger.has(ledger));
    for (const r of records) {
      const ledger = here(r.oracle.ledger);
      if (!inScope(ledger)) continue;
      const key = targetKey(ledger, r.oracle.gate);
      if (!chosen.has(key)) chosen.set(key, pairLabel(ledger, r.oracle.gate));
    }
  } else if (ids.length > 0) {
    // Known gates: those in the ledgers in scope, and those the store still holds approvals
    // of for these ledgers (a gate renamed since it was approved can still be revoked).
    const known = new Map<string, GateTarget>();
    for (const l of ws!.ledgers) for (const g of l.ledger.gates) known.set(targetKey(l.location.path, g.id), pairLabel(l.location.path, g.id));
    for (const r of records) {
      const ledger = here(r.oracle.ledger);
      if (!byLedger.has(ledger)) continue;
      const key = targetKey(ledger, r.oracle.gate);
      if (!known.has(key)) known.set(key, pairLabel(ledger, r.oracle.gate));
    }
    const unknown: string[] = [];
    for (const id of ids) {
      const colon = id.lastIndexOf(':');
      const matches = [...known.entries()].filter(([, t]) => (colon >= 0 ? t.label === id : t.gate === id));
      if (matches.length === 0) {
        unknown.push(id);
        continue;
      }
      if (colon < 0 && new Set(matches.map(([, t]) => t.ledger)).size > 1) {
        throw new UsageError(`${sanitizeLine(id, 80)} names gates in several ledgers; qualify it (${sanitizeLine(matches.map(([, t]) => t.label).join(', '), 300)}); nothing was removed`);
      }
      for (const [key, t] of matches) chosen.set(key, t);
    }
    if (unknown.length > 0) {
      const ledgerNames = ws!.ledgers.map((l) => l.location.display).join(', ');
      throw new UsageError(
        `no gate ${sanitizeLine(unknown.join(', '), 200)} in ${sanitizeLine(ledgerNames, 200)}; nothing was removed`,
        "gate ids are STEM:ID or a plain ID that is unique; 'gate-check approvals list' shows them",
      );
    }
  }

  const doomed = records.filter((r) => chosen.has(keyOf(r)));
  // Record names: each must be in the store before anything is removed.
  const doomedNames = new Set(doomed.map(fileNameOf));
  const named = [...new Set(names)].filter((n) => !doomedNames.has(n));
  const missing = opened.store ? named.filter((n) => lstatOrNull(join(opened.path, n)) === null) : named;
  if (missing.length > 0) {
    throw new UsageError(`no approval record ${sanitizeLine(missing.join(', '), 300)} in ${sanitizeLine(opened.path, 300)}; nothing was removed`, "'gate-check approvals revoke' names records as listed under 'left alone'");
  }

  let removed = new Set<ApprovalRecord>();
  const removedNames: string[] = [];
  if (!options.dryRun && opened.store) {
    removed = await removeRecords(opened.store, doomed, io);
    const lockTimeoutMs = lockTimeoutFromEnv(io.env);
    for (const name of named) if (await opened.store.removeByName(name, lockTimeoutMs)) removedNames.push(name);
  }

  const out: string[] = [];
  const verb = options.dryRun ? 'would revoke' : 'revoked';
  let total = 0;
  for (const [key, t] of chosen) {
    const mine = doomed.filter((r) => keyOf(r) === key);
    const gone = options.dryRun ? mine : mine.filter((r) => removed.has(r));
    const n = gone.length;
    total += n;
    const where = `(${sanitizeLine(t.display, 200)})`;
    const elsewhere = [...new Set(gone.map((r) => checkoutOf(r.oracle.ledger, checkouts)).filter((c): c is string => c !== null && c !== root.path))];
    const also = elsewhere.length === 0 ? '' : ` (also in ${plural(elsewhere.length, 'other checkout')}: ${sanitizeLine(elsewhere.join(', '), 300)})`;
    out.push(n === 0 ? `no approvals of ${sanitizeLine(t.label, 120)} ${where}` : `${verb} ${sanitizeLine(t.label, 120)} ${where}: ${plural(n, 'approval')}${also}`);
  }
  const byName = options.dryRun ? named : removedNames;
  for (const name of byName) out.push(`${verb} record ${name}`);
  const gates = [...chosen.values()].filter((t) => doomed.some((r) => keyOf(r) === targetKey(t.ledger, t.gate))).length;
  const parts: string[] = [];
  if (options.all || ids.length > 0) parts.push(`${plural(total, 'approval')} of ${plural(gates, 'gate')}`);
  if (names.length > 0) parts.push(`${plural(byName.length, 'record')} by name`);
  if (!opened.store) out.push(`no approval store yet (${sanitizeLine(opened.path, 300)}): nothing to revoke`);
  else if (options.dryRun) out.push(`DRY RUN: would revoke ${parts.join(' and ')}; nothing was removed`);
  else out.push(`REVOKED ${parts.join(' and ')}`);
  if (all.invalid.length > 0) out.push(invalidRecordsLine(all.invalid));
  io.stdout(out.join('\n') + '\n');
  // Approvals of ledgers in folders that could not be looked into: whether they are checkouts
  // of this repository is unknown, so they were left; say so rather than claim a full revoke.
  const unknown = (options.all || ids.length > 0) && unreadable.size > 0 ? records.filter((r) => !chosen.has(keyOf(r)) && [...unreadable].some((u) => isInside(u, r.oracle.ledger))) : [];
  if (unknown.length > 0) {
    const folders = [...new Set([...unreadable].filter((u) => unknown.some((r) => isInside(u, r.oracle.ledger))))];
    io.stderr(
      `gate-check: could not look into ${sanitizeLine(folders.join(', '), 300)}: ${plural(unknown.length, 'approval')} of ledgers there ${unknown.length === 1 ? 'was' : 'were'} left, as it is unknown whether ${folders.length === 1 ? 'it is a checkout' : 'they are checkouts'} of this repository; ` +
        `revoke by record name: gate-check approvals revoke ${unknown.map(fileNameOf).slice(0, 20).join(' ')}\n`,
    );
    return EXIT.failure; // not everything asked for is known to be done
  }
  return 0;
}
