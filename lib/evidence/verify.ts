// Classifying the evidence of a met gate without running anything:
//   verified    the newest run record here of this gate, as defined now and with its DEPENDS
//               and INPUTS as they are now, is a pass, and the evidence line is the one it wrote
//   unverified  no run record of this gate here (evidence from another checkout or machine, or typed)
//   mismatched  records exist, but the evidence line is not the one the newest pass wrote
//   stale       DEPENDS or INPUTS changed since the evidence, or the newest run failed
//   manual      a manual gate: human evidence, reported as such
// What decides is the gate's definition (from the ledger) and the contents of its files,
// never the reader's environment: the same gate verifies alike under the bin, npx, direnv or
// a hook with another PATH or --timeout. Reading DEPENDS files and the store is not executing.
import type { ApprovalStore } from '../approval/store.js';
import { definitionDigest } from '../ledger/definition.js';
import type { Gate } from '../ledger/types.js';
import { dependsChanges, dependsDigestFull, type DependsEntry } from '../oracle/oracle.js';
import type { FileDigests } from '../oracle/file-digests.js';
import { sourcedNames } from '../oracle/check-words.js';
import { boundExecutables } from '../oracle/path-bound.js';
import type { LoadedLedger } from '../workspace/load.js';
import { touchedSince } from '../fsx/file-identity.js';
import { cwdOnDisk } from '../fsx/physical-path.js';
import { resolve as resolvePath } from 'node:path';
import { parseEvidence } from './line.js';
import { sanitizeLine, visibleNonAscii } from '../text/sanitize.js';
import { newestOf, titleDigestFull, type RunRecord } from './receipt.js';
import { gateClaim } from '../ledger/claim.js';
import type { ReceiptStore } from './receipt-store.js';

export type Verification = 'verified' | 'unverified' | 'mismatched' | 'stale' | 'manual';

export interface VerificationResult {
  state: Verification;
  reason: string | null;
}

export interface VerifyContext {
  /** Matches and hashes DEPENDS and INPUTS (only those methods are used here). */
  resolver: FileDigests;
  receipts: ReceiptStore | null;
  approvals: ApprovalStore | null;
  /**
   * Where gates without CWD run for this reader, repository-relative, or null outside the
   * repository: a run's --cwd. Absent: the repository root (the Stop hook, --status).
   */
  defaultCwd?: string | null;
}

const verified: VerificationResult = { state: 'verified', reason: null };

/** Which DEPENDS files changed, named from the approval the newest pass of the gate ran under, when it is still on file. */
function dependsDetail(ctx: VerifyContext, loaded: LoadedLedger, gate: Gate, records: readonly RunRecord[], current: DependsEntry[] | null): string {
  const pass = records.find((r) => r.status === 'pass');
  const record = pass ? (ctx.approvals?.bySignature(loaded.location.path, gate.id, pass.signature) ?? null) : null;
  const paths = record ? dependsChanges(record.oracle.depends, current) : [];
  // Named as the approval screen names them: an escape in a file name is shown, never dropped (round-15b F4).
  if (paths.length > 0) return paths.map((p) => visibleNonAscii(p.replace(/^DEPENDS: /, '').replace(/ changed$/, '').replace(/ (added|removed)$/, ' ($1)')).text).join(', ');
  return current === null ? 'DEPENDS removed' : 'the matched files or their contents';
}

/** Which INPUTS files were written since the newest pass here started (by their ctime: a hint, the digest decides). */
function inputsDetail(ctx: VerifyContext, records: readonly RunRecord[], current: DependsEntry[] | null): string {
  const pass = records.find((r) => r.status === 'pass');
  const since = pass ? Date.parse(pass.time) : Number.NaN;
  if (current === null || Number.isNaN(since)) return '';
  const named = touchedSince(ctx.resolver.root, current.map((e) => e[0]), since, 4);
  if (named.length === 0) return '';
  // Named as the approval screen names text: a look-alike letter in a file name is shown as <U+XXXX>.
  return `: ${named.slice(0, 3).map((n) => visibleNonAscii(n).text).join(', ')}${named.length > 3 ? ', …' : ''} written since the last pass here`;
}

async function digestOf(list: Promise<DependsEntry[] | null>): Promise<{ entries: DependsEntry[] | null; digest: string | null; full: string | null } | { error: string }> {
  try {
    const entries = await list;
    const full = entries ? dependsDigestFull(entries) : null;
    return { entries, digest: full === null ? null : full.slice(0, 12), full };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Whether the executables in the repository directories the passing run's PATH led into are still what it ran. */
function boundChange(ctx: VerifyContext, bound: { dirs: string[]; digest: string }, full: string | null, label: string, check: string, workDir: string | null): string | null {
  let now: DependsEntry[] | null;
  try {
    now = boundExecutables(bound.dirs.map((d) => ({ entry: d, inRepo: d })), ctx.resolver.root, label, sourcedNames(check), workDir);
  } catch (e) {
    return `PATH executables inside the repository cannot be read: ${(e as Error).message}`;
  }
  return dependsDigestFull(now ?? []) === full ? null : `PATH executables inside the repository changed (in ${bound.dirs.join(', ')})`;
}

export async function verifyMetGate(ctx: VerifyContext, loaded: LoadedLedger, gate: Gate): Promise<VerificationResult> {
  if (gate.kind === 'manual') return { state: 'manual', reason: 'manual gate: human evidence' };
  const label = `${loaded.stem}:${gate.id}`;
  const ev = parseEvidence(gate.evidence ?? '') ?? new Map<string, string>();
  const records = ctx.receipts?.recordsOf(loaded.location.path, gate.id) ?? [];

  const deps = await digestOf(ctx.resolver.depends(gate, label));
  if ('error' in deps) return { state: 'stale', reason: `DEPENDS cannot be read: ${deps.error}` };
  if ((ev.get('deps') ?? null) !== deps.digest) {
    return { state: 'stale', reason: `DEPENDS changed: ${dependsDetail(ctx, loaded, gate, records, deps.entries)}` };
  }
  const inputs = await digestOf(ctx.resolver.inputs(gate, label));
  if ('error' in inputs) return { state: 'stale', reason: `INPUTS cannot be read: ${inputs.error}` };
  if ((ev.get('inputs') ?? null) !== inputs.digest) return { state: 'stale', reason: `INPUTS changed since the evidence was written${inputsDetail(ctx, records, inputs.entries)}` };

  const newest = newestOf(records, { gate: gate.id, def: definitionDigest(gate)!, deps: deps.digest, inputs: inputs.digest });
  if (newest === null) {
    if (records.length > 0) return { state: 'mismatched', reason: 'the evidence line matches no run of this gate on this machine' };
    return { state: 'unverified', reason: 'no run of this gate in this checkout on this machine (evidence from another checkout or machine, or written by hand)' };
  }
  if (newest.status === 'fail') return { state: 'stale', reason: `the latest run of this gate here failed (started ${newest.time}): the evidence line is older` };
  // The 12-hex labels above found the run; its full digests decide (round-41b F1: a good and
  // a bad version of a file whose 48-bit labels collide, the good one passed).
  const full = newest.full;
  if (full === undefined) return { state: 'unverified', reason: 'the passing run here was recorded by an earlier version of gate-check, without full digests of its files: run it again' };
  if (full.deps !== deps.full) return { state: 'stale', reason: `DEPENDS changed: ${dependsDetail(ctx, loaded, gate, records, deps.entries)}` };
  if (full.inputs !== inputs.full) return { state: 'stale', reason: `INPUTS changed since the evidence was written${inputsDetail(ctx, records, inputs.entries)}` };
  if ((full.bound === null) !== (newest.bound === null)) return { state: 'mismatched', reason: 'the passing run here was recorded with PATH folders but no digest of their executables, or the reverse' };
  if (ctx.receipts?.isForeign(loaded.location.path, newest)) {
    return { state: 'mismatched', reason: 'the latest passing run of this gate here was recorded under another repository root, or not by gate-check (the same ledger file seen from another folder or with --root is another path): it cannot check this evidence line; run the gate again from here' };
  }
  // A later failure of this gate counts whatever it ran under: other DEPENDS or INPUTS contents
  // (a fixture changed before a failing re-run and put back after), or another definition (a
  // TIMEOUT or CWD edited for the failing run, then the old ledger checked out: round-35 F1).
  // Putting the old line back must not bring the older pass back; a re-run settles it.
  const passed = Date.parse(newest.time);
  // Started in the same millisecond counts too: which of the two saw the newer work is unknown.
  const later = records.find((r) => r.status === 'fail' && Date.parse(r.time) >= passed);
  if (later) return { state: 'stale', reason: `a later run of this gate here failed (started ${later.time}, ${later.def === newest.def ? 'with other DEPENDS or INPUTS contents' : 'under another definition'}): run it again` };
  // A failure in the repository that could not be recorded after this pass: it may have been
  // of this check, in another ledger (round-39d F2).
  if (ctx.receipts?.lostFailureAfter(newest)) return { state: 'stale', reason: 'a failure in this repository could not be recorded after this pass (the private store was full, or its lock held): run it again' };
  // The same check run under another gate id or in another ledger file (renamed or moved for
  // the failing run, then the old ledger checked out: round-35 F1) counts too.
  const elsewhere = ctx.receipts?.laterFailureOfCheck(newest) ?? null;
  if (elsewhere) {
    const where = `${visibleNonAscii(sanitizeLine(elsewhere.gate, 80)).text} in ${visibleNonAscii(sanitizeLine(elsewhere.ledger, 120)).text}`;
    return { state: 'stale', reason: `a later run of the same check here failed (as ${where}, started ${elsewhere.time}): run it again` };
  }
  if (newest.bound) {
    // The folder the passing run's check started in (repository-relative; the root for older receipts).
    const workDir = newest.cwd === null ? null : resolvePath(ctx.resolver.root, newest.cwd ?? '.');
    const changed = boundChange(ctx, newest.bound, full.bound, label, gate.check ?? '', workDir);
    if (changed !== null) return { state: 'stale', reason: changed };
  }
  // The claim as it reads now: a pass proves the title (and the prose under it) it ran under,
  // not one written since.
  if (full.title !== titleDigestFull(gateClaim(loaded.ledger.lines, gate))) {
    return { state: 'stale', reason: 'the title or the text in its item changed since the passing run: the pass proved the claim as it read then; run it again' };
  }
  // The CWD as found on disk now: a link pointed at another folder since is another check.
  // A gate without CWD runs at the repository root (or where this run's --cwd says): a pass
  // made under another --cwd proved the check somewhere else.
  if (newest.cwd !== undefined) {
    const ran = newest.cwd === null ? 'outside the repository' : `in ${visibleNonAscii(newest.cwd).text}`;
    if (gate.cwd === null) {
      const here = ctx.defaultCwd === undefined ? '.' : ctx.defaultCwd;
      if (here !== newest.cwd) {
        const where = here === null ? 'outside the repository (--cwd)' : here === '.' ? 'at the repository root' : `in ${visibleNonAscii(here).text} (--cwd)`;
        return { state: 'stale', reason: `the passing run ran ${ran} (--cwd); the gate runs ${where}` };
      }
    } else {
      const now = cwdOnDisk(ctx.resolver.root, gate.cwd);
      if ('missing' in now) return { state: 'stale', reason: `CWD ${visibleNonAscii(gate.cwd).text}: ${now.missing} (the passing run ran ${ran})` };
      if (now.dir !== newest.cwd) return { state: 'stale', reason: `CWD ${visibleNonAscii(gate.cwd).text} leads to ${visibleNonAscii(now.dir).text} now; the passing run ran ${ran}` };
    }
  }
  if (ev.get('receipt') !== newest.receipt!.slice(0, 12) || ev.get('match') !== newest.match) {
    return { state: 'mismatched', reason: 'the evidence line differs from the one the latest passing run here wrote' };
  }
  return verified;
}
