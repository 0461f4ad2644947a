// One audit event per attempt: what was tried and how it ended, never the command, the
// output or the environment. Pure: shape, fingerprint, validation, labels.
import { sha256Hex } from '../oracle/oracle.js';
import { hasExactKeys, isPlainObject } from '../json/hostile.js';

export interface AttemptEvent {
  time: string;
  /** Ledger path relative to the repository root. */
  file: string;
  /** STEM:ID */
  gate: string;
  /** First 12 hex of the oracle signature. */
  oracle: string;
  status: 'pass' | 'fail' | 'stale';
  exit: number | null;
  durationMs: number | null;
  outputSha256: string | null;
  /** Digest of the normalized output of a failure (12 hex), null for a pass. */
  fingerprint: string | null;
  /**
   * Digest of the INPUTS contents the attempt ran with (12 hex; null: the gate has none).
   * Absent in events written before it was recorded.
   */
  inputs?: string | null;
  /**
   * Why a failure is not the check's own: 'changed-files', a check that passed but changed
   * files of the repository under --assert-clean. Absent for every other attempt.
   */
  cause?: 'changed-files';
}

const KEYS = ['time', 'file', 'gate', 'oracle', 'status', 'exit', 'durationMs', 'outputSha256', 'fingerprint'] as const;
const OPTIONAL_KEYS = ['inputs', 'cause'] as const;

/**
 * A failure's fingerprint: its output with what changes from run to run (timestamps,
 * durations, hex ids, temporary paths, long numbers) normalized, then hashed. The same
 * failure twice gives the same fingerprint.
 */
export function failureFingerprint(output: string, error: string | null): string {
  const normalized = `${error ?? ''}\n${output}`
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, '<time>')
    .replace(/\b\d+(\.\d+)?\s?(ms|s|sec|seconds|m|min|µs|us|ns)\b/g, '<duration>')
    // A duration named before its number: node --test's TAP (`duration_ms: 0.52`, `# duration_ms 45.1`).
    .replace(/\b(duration_ms|duration|elapsed_ms|elapsed|time_ms)\b([:=]?\s*)\d+(\.\d+)?/gi, '$1$2<duration>')
    .replace(/(\/tmp|\/var\/folders|\/private\/var\/folders|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp)[^\s'"]*/g, '<tmp>')
    .replace(/\b(0x)?[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\b\d{5,}\b/g, '<n>');
  return sha256Hex(normalized).slice(0, 12);
}

export function serializeEvent(e: AttemptEvent): string {
  return JSON.stringify(e);
}

export function parseEvent(line: string): AttemptEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isPlainObject(v) || !hasExactKeys(v, [...KEYS, ...OPTIONAL_KEYS.filter((k) => Object.hasOwn(v, k))])) return null;
  const ok =
    typeof v.time === 'string' &&
    typeof v.file === 'string' &&
    typeof v.gate === 'string' &&
    typeof v.oracle === 'string' &&
    (v.status === 'pass' || v.status === 'fail' || v.status === 'stale') &&
    (v.exit === null || Number.isInteger(v.exit)) &&
    (v.durationMs === null || Number.isInteger(v.durationMs)) &&
    (v.outputSha256 === null || typeof v.outputSha256 === 'string') &&
    (v.fingerprint === null || typeof v.fingerprint === 'string') &&
    (v.inputs === undefined || v.inputs === null || (typeof v.inputs === 'string' && /^[0-9a-f]{12}$/.test(v.inputs))) &&
    (v.cause === undefined || (v.cause === 'changed-files' && v.status === 'fail'));
  return ok ? (v as unknown as AttemptEvent) : null;
}

export interface GateHistory {
  gate: string;
  attempts: AttemptEvent[];
  /**
   * Passed and failed under the same oracle (which includes the DEPENDS contents) with the
   * same INPUTS contents: a failure after the tested code changed, and a pass after it was
   * fixed, is a regression and its fix, not flakiness. A failure of --assert-clean whose check
   * passed (a build rewriting its output) counts as the check's pass.
   */
  flaky: boolean;
  /** The last attempts failed with the same fingerprint, STUCK_AFTER times or more in a row. */
  stuck: boolean;
  stuckCount: number;
}

export const STUCK_AFTER = 3;

/** Labels inform; they never change pass or fail. */
export function labelHistory(gate: string, attempts: readonly AttemptEvent[]): GateHistory {
  const byOracle = new Map<string, Set<string>>();
  for (const a of attempts) {
    if (a.status === 'stale') continue;
    // Events from before INPUTS were recorded group by the oracle alone, as they did.
    const key = `${a.oracle}\u0000${a.inputs === undefined ? '?' : (a.inputs ?? '-')}`;
    const set = byOracle.get(key) ?? new Set<string>();
    // A failure that is --assert-clean's is the check's own pass: a check that fails every other
    // run is flaky whatever --assert-clean adds to its passes (round-38c F7).
    set.add(a.cause === 'changed-files' ? 'pass' : a.status);
    byOracle.set(key, set);
  }
  const flaky = [...byOracle.values()].some((s) => s.has('pass') && s.has('fail'));
  let stuckCount = 0;
  const last = attempts[attempts.length - 1];
  if (last && last.status === 'fail') {
    for (let i = attempts.length - 1; i >= 0; i--) {
      const a = attempts[i]!;
      if (a.status !== 'fail' || a.fingerprint !== last.fingerprint) break;
      stuckCount++;
    }
  }
  return { gate, attempts: [...attempts], flaky, stuck: stuckCount >= STUCK_AFTER, stuckCount };
}
