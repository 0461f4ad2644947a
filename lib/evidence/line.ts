// The EVIDENCE line of a passing gate: what was proven, as digests, never the output.
//   exit=0; def=<definition>; deps=<DEPENDS contents>; inputs=<INPUTS contents>; match=<what EXPECT matched>; receipt=<id>
// Every field is stable: a re-run with the same verdict for the same definition and files
// writes the same line, on any machine, so the ledger stays byte-identical. The exact output
// digest, the shell, PATH and times live in the private store (run records, history). Pure.
export { parseEvidence } from '../ledger/evidence-value.js';
import { sha256Hex } from '../oracle/oracle.js';

export interface EvidenceFields {
  exit: 0;
  /** Definition digest (12 hex). */
  def: string;
  /** DEPENDS content digest (12 hex), for gates with DEPENDS. */
  deps?: string;
  /** INPUTS content digest (12 hex), for gates with INPUTS. */
  inputs?: string;
  /** Digest (12 hex) of the text EXPECT matched. */
  match: string;
  /** Receipt id (12 hex). */
  receipt: string;
}

const ORDER: (keyof EvidenceFields)[] = ['exit', 'def', 'deps', 'inputs', 'match', 'receipt'];

export function formatEvidence(f: EvidenceFields): string {
  const parts: string[] = [];
  for (const key of ORDER) {
    const v = f[key];
    if (v !== undefined) parts.push(`${key}=${v}`);
  }
  return parts.join('; ');
}

/** 12 hex digits of SHA-256 of the matched text: stable while the matched text is. */
export function matchDigest(matched: string): string {
  return sha256Hex(matched).slice(0, 12);
}

const fingerprints = new Map<string, string>();

/** A short PATH fingerprint for records and messages: <12 hex of SHA-256>/<number of entries>. */
export function pathFingerprint(path: string | null): string {
  if (path === null) return 'unset';
  const known = fingerprints.get(path);
  if (known !== undefined) return known;
  const entries = path === '' ? 0 : path.split(process.platform === 'win32' ? ';' : ':').length;
  const fp = `${sha256Hex(path).slice(0, 12)}/${entries}`;
  fingerprints.set(path, fp);
  return fp;
}
