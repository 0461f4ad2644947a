// The last look before a check is spawned. The oracle is resolved again from the files as
// they are now (working directory, DEPENDS contents, the shell as found now) and the
// approval record is read again: a DEPENDS file edited while an earlier gate ran or while
// the person read the approval prompt, a CWD swapped for a symlink, or an approval revoked
// mid-run means that nothing of this gate runs, and the report says why.
import type { ApprovalStore } from '../approval/store.js';
import { GateCheckError } from '../errors.js';
import { ResolutionPass } from '../oracle/file-digests.js';
import { changedFields, type Oracle } from '../oracle/oracle.js';
import type { OracleResolver } from '../oracle/resolve.js';
import { approvalViewOf, emptyResult, type GateResult } from '../report/model.js';
import type { Entry } from './attempt.js';

export type Preflight = { ok: true } | { ok: false; result: GateResult };

export interface PreflightContext {
  resolver: OracleResolver;
  store: ApprovalStore;
  /** The shell's absolute path as it resolves now (throws when it no longer resolves). */
  shellNow: () => string;
}

function refused(why: string, oracle: Oracle, changed: string[] | null = null): Preflight {
  return { ok: false, result: { ...emptyResult('approval-required', why, oracle.signature), changed, request: approvalViewOf(oracle.fields) } };
}

export async function preflight(e: Entry, ctx: PreflightContext): Promise<Preflight> {
  const approved = e.oracle!;
  const pass = new ResolutionPass();
  let now: Oracle;
  let shell: string;
  try {
    shell = ctx.shellNow();
    now = await ctx.resolver.fresh(e.loaded, e.gate, pass);
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
  return { ok: true };
}
