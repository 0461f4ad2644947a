// Classifying the evidence of a met gate without running anything:
//   verified    a receipt on this machine matches the evidence line and the current oracle
//   unverified  no receipt here (evidence written by hand, or on another machine)
//   mismatched  receipts exist for the gate, but the evidence line matches none of them
//   stale       the oracle or the dependencies changed since the evidence was produced
//   manual      a manual gate: human evidence, reported as such
// Reading DEPENDS files and the private store is not executing.
import { dirname, relative } from 'node:path';
import type { ApprovalStore } from '../approval/store.js';
import type { Gate } from '../ledger/types.js';
import { changedFields, dependsChanges, dependsDigest, type Oracle } from '../oracle/oracle.js';
import type { OracleResolver } from '../oracle/resolve.js';
import type { LoadedLedger } from '../workspace/load.js';
import { parseEvidence, pathFingerprint } from './line.js';
import type { ReceiptStore } from './receipt-store.js';

export type Verification = 'verified' | 'unverified' | 'mismatched' | 'stale' | 'manual';

export interface VerificationResult {
  state: Verification;
  reason: string | null;
}

export interface VerifyContext {
  /** Null when the run settings themselves cannot be resolved (e.g. no shell): then `settingsError` says why. */
  resolver: OracleResolver | null;
  settingsError: string | null;
  receipts: ReceiptStore | null;
  approvals: ApprovalStore | null;
}

const verified: VerificationResult = { state: 'verified', reason: null };

function evidenceCwd(oracle: Oracle): string {
  return relative(dirname(oracle.fields.ledger), oracle.fields.cwd).split('\\').join('/') || '.';
}

function decode(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** What an approval record says about the oracle a receipt was produced under, if it is still on file. */
function explainChange(ctx: VerifyContext, oracle: Oracle, signature: string): string[] {
  const record = ctx.approvals?.bySignature(oracle.fields.ledger, oracle.fields.gate, signature) ?? null;
  return record ? changedFields(record.oracle, oracle.fields) : [];
}

export async function verifyMetGate(ctx: VerifyContext, loaded: LoadedLedger, gate: Gate): Promise<VerificationResult> {
  if (gate.kind === 'manual') return { state: 'manual', reason: 'manual gate: human evidence' };
  if (!ctx.resolver) return { state: 'stale', reason: `cannot compute the current oracle: ${ctx.settingsError ?? 'unknown'}` };
  let oracle: Oracle;
  try {
    oracle = await ctx.resolver.resolve(loaded, gate);
  } catch (e) {
    return { state: 'stale', reason: `cannot compute the current oracle: ${(e as Error).message}` };
  }
  const ev = parseEvidence(gate.evidence ?? '');
  const receipts = ctx.receipts?.receiptsOf(loaded.location.path, gate.id) ?? [];
  const receiptId = ev?.get('receipt');
  const receipt = receiptId ? receipts.find((r) => r.digest.startsWith(receiptId)) : undefined;

  // Dependencies: the evidence's deps= against the files as they are now.
  const currentDeps = oracle.fields.depends ? dependsDigest(oracle.fields.depends) : null;
  if ((ev?.get('deps') ?? null) !== currentDeps) {
    let paths: string[] = [];
    if (receipt) {
      const record = ctx.approvals?.bySignature(oracle.fields.ledger, gate.id, receipt.signature) ?? null;
      if (record) paths = dependsChanges(record.oracle.depends, oracle.fields.depends);
    }
    const detail =
      paths.length > 0
        ? paths.map((p) => p.replace(/^DEPENDS: /, '').replace(/ changed$/, '').replace(/ (added|removed)$/, ' ($1)')).join(', ')
        : currentDeps === null
          ? 'DEPENDS removed'
          : 'the matched files or their contents';
    return { state: 'stale', reason: `DEPENDS changed: ${detail}` };
  }

  // The environment recorded in the evidence line, when it has one.
  if (ev) {
    const changes: string[] = [];
    const shell = decode(ev.get('shell'));
    const cwd = decode(ev.get('cwd'));
    const path = ev.get('path');
    if (shell !== undefined && shell !== oracle.fields.shell) changes.push('shell changed');
    if (cwd !== undefined && cwd !== evidenceCwd(oracle)) changes.push('CWD changed');
    if (path !== undefined && path !== pathFingerprint(oracle.fields.path)) changes.push('PATH changed');
    if (changes.length > 0) return { state: 'stale', reason: changes.join(', ') };
  }

  if (receipt) {
    if (ev!.get('sha256') !== receipt.outputSha256 || ev!.get('bytes') !== String(receipt.bytes) || (ev!.get('deps') ?? null) !== receipt.deps) {
      return { state: 'mismatched', reason: 'the evidence line differs from the receipt it names' };
    }
    if (receipt.signature !== oracle.signature) {
      const why = explainChange(ctx, oracle, receipt.signature);
      return { state: 'stale', reason: why.length > 0 ? why.join(', ') : 'the oracle changed since this evidence was produced' };
    }
    return verified;
  }
  if (receipts.length > 0) return { state: 'mismatched', reason: 'the evidence line matches no receipt of this gate on this machine' };
  return { state: 'unverified', reason: 'no receipt on this machine (evidence written by hand, or on another machine)' };
}
