// The last look before a check is spawned. The oracle is resolved again from the files as
// they are now (working directory, DEPENDS contents, the shell as found now) and the
// approval record is read again: a DEPENDS file edited while an earlier gate ran or while
// the person read the approval prompt, a CWD swapped for a symlink, or an approval revoked
// mid-run means that nothing of this gate runs, and the report says why.
import { join, relative } from 'node:path';
import type { ApprovalStore } from '../approval/store.js';
import { GateCheckError } from '../errors.js';
import { fileIdentities, RACY_CTIME_MS, type FileIdentities } from '../fsx/file-identity.js';
import { writableTree } from '../fsx/repo-root.js';
import { interruptibleSleep } from '../run/interrupts.js';
import { ResolutionPass } from '../oracle/file-digests.js';
import { changedFields, type Oracle } from '../oracle/oracle.js';
import { checkInRepoPathEntries } from '../oracle/path-bound.js';
import type { OracleResolver } from '../oracle/resolve.js';
import { approvalViewOf, emptyResult, type GateResult } from '../report/model.js';
import type { Entry } from './attempt.js';

/** `bound`: what the file system said of every file the oracle binds, right before the spawn (compared when the check ends). */
export type Preflight = { ok: true; bound: BoundFiles } | { ok: false; result: GateResult };

/** The files an oracle binds, by repository-relative path, with what each is (for messages), and their identities. */
export interface BoundFiles {
  kinds: ReadonlyMap<string, string>;
  identities: FileIdentities;
}

export interface PreflightContext {
  /** Canonical repository root. */
  root: string;
  resolver: OracleResolver;
  store: ApprovalStore;
  /** The shell's absolute path as it resolves now (throws when it no longer resolves). */
  shellNow: () => string;
  /** The checks' PATH, whole (the signed one leaves out folders that hold nothing: signedPath). */
  runPath: string | null;
}

/** Such an oracle was never on a screen: it is shown by the next run. */
const CHANGED_AT_START = 'changed as its run began: run again to see it';

function refused(why: string, oracle: Oracle, changed: string[] | null = null): Preflight {
  return { ok: false, result: { ...emptyResult('approval-required', why, oracle.signature), changed, request: approvalViewOf(oracle.fields, [CHANGED_AT_START], null, null) } };
}

/** How many times a gate whose bound files were written a moment ago is looked at again. */
const RACY_RETRIES = 3;

export async function preflight(e: Entry, ctx: PreflightContext): Promise<Preflight> {
  // A bound file written within a clock tick of the look (an earlier gate's build output in
  // this one's INPUTS): resolved again once its timestamps have moved on, so that a write
  // during the check cannot hide behind the same ctime.
  for (let attempt = 0; ; attempt++) {
    const check = await preflightOnce(e, ctx);
    if (!check.ok || check.bound.identities.racy.size === 0 || attempt === RACY_RETRIES) return check;
    await interruptibleSleep(RACY_CTIME_MS);
  }
}

async function preflightOnce(e: Entry, ctx: PreflightContext): Promise<Preflight> {
  const approved = e.oracle!;
  const pass = new ResolutionPass();
  let now: Oracle;
  let shell: string;
  try {
    // The fresh resolution first: it judges again what lies outside the repository where
    // anything it read changed, which the shell's judgement then reads.
    now = await ctx.resolver.fresh(e.loaded, e.gate, pass);
    shell = ctx.shellNow();
    e.inputs = await ctx.resolver.inputs(e.gate, e.qualified, pass);
  } catch (err) {
    if (!(err instanceof GateCheckError)) throw err;
    return { ok: false, result: emptyResult('not-run', `changed since approval, not run: ${err.message}`, approved.signature) };
  }
  const changes = changedFields(approved.fields, now.fields);
  if (shell !== approved.fields.shell) changes.push('shell changed');
  if (changes.length > 0) return refused(`changed since approval, not run: ${changes.join(', ')}`, now, changes);
  ctx.store.verify();
  if (ctx.store.find(approved) === null) return refused('approval revoked since the run started, not run', approved);
  const kinds = new Map<string, string>();
  // The PATH directories themselves too: an executable made there for the check and removed
  // before it ends changes the directory, not any file bound at the start.
  // PATH paths are relative to the work-tree top (path-bound.ts); these keys, to the root.
  const tree = writableTree(ctx.root);
  const fromRoot = (rel: string) => (tree === ctx.root ? rel : relative(ctx.root, join(tree, rel)));
  if (now.fields.pathBound) for (const dir of checkInRepoPathEntries(now.fields.check, ctx.runPath, ctx.root, now.fields.cwd)) kinds.set(fromRoot(dir.inRepo), 'PATH directory');
  for (const [rel] of now.fields.pathBound ?? []) kinds.set(fromRoot(rel), 'PATH executable');
  for (const [rel] of e.inputs ?? []) kinds.set(rel, 'INPUTS');
  for (const [rel] of now.fields.depends ?? []) kinds.set(rel, 'DEPENDS');
  return { ok: true, bound: { kinds, identities: fileIdentities(ctx.root, kinds.keys()) } };
}
