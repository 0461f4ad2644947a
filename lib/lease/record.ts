// One lease file: who holds which OWNS globs. Its name is the SHA-256 of its identity (scope and
// leaf), so that one scope's leaf can hold one lease at most and release finds it without
// reading anything. Parsed as hostile input: a file that fails any check cannot be trusted,
// and the registry then counts it as holding every path. Pure.
import { sha256Hex } from '../oracle/sha256.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';
import { normalizeGlob } from '../ledger/paths.js';
import { findUnsafeChar } from '../text/sanitize.js';

export const LEASE_SCHEMA = 'gate-check/lease@1';
export const LEASE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_LEASE_GLOBS = 256;
const MAX_GLOB = 1024;
const MAX_TEXT = 4096;
const KEYS = ['schema', 'scope', 'leaf', 'globs', 'pid', 'host', 'root', 'claimedAt'] as const;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const LEASE_FILE_NAME = /^[0-9a-f]{64}\.json$/;

export interface Lease {
  schema: typeof LEASE_SCHEMA;
  scope: string;
  /** The ledger of the scope (its file name without .md). */
  leaf: string;
  globs: string[];
  /** The process that ran the claim's parent (the shell or agent that asked): for the "once PID N is gone" instruction. */
  pid: number;
  host: string;
  /** The checkout the claim was made in (worktrees of one repository share one registry). */
  root: string;
  claimedAt: string;
}

export function leaseFileName(scope: string, leaf: string): string {
  return `${sha256Hex(`${scope}\u0000${leaf}`)}.json`;
}

export type LeaseParse = { ok: true; lease: Lease } | { ok: false; reason: string };

function plainText(v: unknown): v is string {
  return typeof v === 'string' && v !== '' && v.length <= MAX_TEXT && !/[\t\n\r]/.test(v) && findUnsafeChar(v) === null;
}

export function parseLease(fileName: string, text: string): LeaseParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (!isPlainObject(data) || !hasExactKeys(data, KEYS)) return { ok: false, reason: `not a lease (exactly ${KEYS.join(', ')})` };
  if (data.schema !== LEASE_SCHEMA) return { ok: false, reason: `schema: expected ${LEASE_SCHEMA}` };
  const { scope, leaf, globs, pid, host, root, claimedAt } = data;
  if (typeof scope !== 'string' || !LEASE_ID_PATTERN.test(scope)) return { ok: false, reason: 'scope: not a scope id' };
  if (typeof leaf !== 'string' || !LEASE_ID_PATTERN.test(leaf)) return { ok: false, reason: 'leaf: not a ledger name' };
  if (!Array.isArray(globs) || globs.length === 0 || globs.length > MAX_LEASE_GLOBS) return { ok: false, reason: `globs: not a list of 1 to ${MAX_LEASE_GLOBS} globs` };
  for (const g of globs) {
    if (typeof g !== 'string' || g.length > MAX_GLOB || findUnsafeChar(g) !== null) return { ok: false, reason: 'globs: not a list of globs' };
    const n = normalizeGlob(g);
    if (!n.ok || n.value !== g) return { ok: false, reason: 'globs: a glob that is not normalized (as OWNS: writes it)' };
  }
  if (!Number.isSafeInteger(pid) || (pid as number) < 1) return { ok: false, reason: 'pid: not a process id' };
  if (!plainText(host)) return { ok: false, reason: 'host: not a host name' };
  if (!plainText(root) || (!root.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(root))) return { ok: false, reason: 'root: not an absolute path' };
  if (typeof claimedAt !== 'string' || !ISO.test(claimedAt) || new Date(Date.parse(claimedAt)).toISOString() !== claimedAt) return { ok: false, reason: 'claimedAt: not a time' };
  if (leaseFileName(scope, leaf) !== fileName) return { ok: false, reason: `its name is not the hash of its scope and leaf (${scope}, ${leaf})` };
  return { ok: true, lease: { schema: LEASE_SCHEMA, scope, leaf, globs: globs as string[], pid: pid as number, host, root, claimedAt } };
}

export function serializeLease(lease: Lease): string {
  return JSON.stringify(lease, null, 2) + '\n';
}
