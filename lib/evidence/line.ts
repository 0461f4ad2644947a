// The EVIDENCE line of a passing gate: a digest of what was proven, never the output.
// No timestamp, so that an identical re-run leaves the ledger byte-identical. Pure.
import { sha256Hex } from '../oracle/oracle.js';

export interface EvidenceFields {
  exit: number;
  sha256: string;
  bytes: number;
  shell: string;
  /** Working directory relative to the ledger's folder ('.' for the folder itself). */
  cwd: string;
  /** PATH fingerprint: <12 hex of SHA-256>/<number of entries>. */
  path: string;
  /** DEPENDS digest (12 hex), for gates with DEPENDS. */
  deps?: string;
  /** Receipt digest (12 hex), when a receipt was written. */
  receipt?: string;
}

const ORDER: (keyof EvidenceFields)[] = ['exit', 'sha256', 'bytes', 'shell', 'cwd', 'path', 'deps', 'receipt'];

/** Percent-encodes what would break the one-line, printable-ASCII, ';'-separated form. */
function encodeValue(v: string): string {
  return v.replace(/[^\x21-\x7e]|[%;=]/gu, (ch) => encodeURIComponent(ch));
}

export function formatEvidence(f: EvidenceFields): string {
  const parts: string[] = [];
  for (const key of ORDER) {
    const v = f[key];
    if (v === undefined) continue;
    parts.push(`${key}=${typeof v === 'number' ? String(v) : encodeValue(v)}`);
  }
  return parts.join('; ');
}

/** key=value pairs of an evidence line, or null when it is not of that form. */
export function parseEvidence(value: string): Map<string, string> | null {
  const out = new Map<string, string>();
  for (const part of value.split(';')) {
    const p = part.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    if (eq <= 0) return null;
    const key = p.slice(0, eq);
    if (out.has(key)) return null;
    out.set(key, p.slice(eq + 1));
  }
  return out.size > 0 ? out : null;
}

const fingerprints = new Map<string, string>();

export function pathFingerprint(path: string | null): string {
  if (path === null) return 'unset';
  const known = fingerprints.get(path);
  if (known !== undefined) return known;
  const entries = path === '' ? 0 : path.split(process.platform === 'win32' ? ';' : ':').length;
  const fp = `${sha256Hex(path).slice(0, 12)}/${entries}`;
  fingerprints.set(path, fp);
  return fp;
}
