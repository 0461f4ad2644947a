// Reading a host's Stop-hook payload: JSON from stdin, hostile like anything read from outside.
// Only own properties count (JSON.parse makes "__proto__" an own key: it is data here, never a
// prototype), a field of the wrong type is a refusal, and nothing is trusted beyond its type.
// What every adapter needs: the object, its fields, and a guess at which host sent it, so that
// a refusal can say "this looks like Cursor's input, the hook was installed for Claude Code".
// Pure.
import { isAbsolute } from 'node:path';
import { isPlainObject } from '../json/hostile.js';

/** The longest session or agent id taken as it is (ids are hashed for file names, shown never). */
export const MAX_ID_CHARS = 4096;
/** The longest directory taken from a payload. */
export const MAX_PATH_CHARS = 4096;

export type Payload = Record<string, unknown>;

export type PayloadRead = { ok: true; payload: Payload } | { ok: false; problem: string };

/** The payload as an object; a UTF-8 byte order mark in front (Cursor on Windows) is dropped. */
export function readPayload(text: string): PayloadRead {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, problem: 'the hook input is empty (no JSON on stdin)' };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'the hook input is not JSON' };
  }
  if (!isPlainObject(data)) return { ok: false, problem: `the hook input is ${Array.isArray(data) ? 'a JSON array' : data === null ? 'null' : `a JSON ${typeof data}`}, not an object` };
  return { ok: true, payload: data };
}

export function own(p: Payload, key: string): unknown {
  return Object.hasOwn(p, key) ? p[key] : undefined;
}

export function has(p: Payload, key: string): boolean {
  return Object.hasOwn(p, key);
}

/** Why `p[key]` is not a usable id (a non-empty string of at most MAX_ID_CHARS), or null. */
export function idProblem(p: Payload, key: string): string | null {
  const v = own(p, key);
  if (v === undefined) return `it has no ${key}`;
  if (typeof v !== 'string') return `its ${key} is not a string`;
  if (v === '') return `its ${key} is empty`;
  if (v.length > MAX_ID_CHARS) return `its ${key} is longer than ${MAX_ID_CHARS} characters`;
  return null;
}

/** Why `v` is not an absolute directory path (a string without NUL, at most MAX_PATH_CHARS), or null. */
export function pathProblem(v: unknown, what: string): string | null {
  if (v === undefined) return `it has no ${what}`;
  if (typeof v !== 'string') return `its ${what} is not a string`;
  if (v.includes('\0')) return `its ${what} holds a NUL byte`;
  if (v.length > MAX_PATH_CHARS) return `its ${what} is longer than ${MAX_PATH_CHARS} characters`;
  if (!isAbsolute(v)) return `its ${what} is not an absolute path`;
  return null;
}

/** Why `p[key]`, when present, is not a boolean, or null. */
export function optionalBooleanProblem(p: Payload, key: string): string | null {
  const v = own(p, key);
  return v === undefined || typeof v === 'boolean' ? null : `its ${key} is not true or false`;
}

/** The number of entries of an array field; 0 when absent or null; null when it is something else. */
export function listLength(p: Payload, key: string): number | null {
  const v = own(p, key);
  if (v === undefined || v === null) return 0;
  return Array.isArray(v) ? v.length : null;
}

/** A string field as it is, or null when absent or not a string. */
export function stringField(p: Payload, key: string): string | null {
  const v = own(p, key);
  return typeof v === 'string' ? v : null;
}

/**
 * Which host most likely sent this payload, by the fields each documents (only a hint for a
 * refusal message; nothing is decided on it).
 */
export function guessHost(p: Payload): string | null {
  const event = stringField(p, 'hook_event_name');
  if (event === 'AfterAgent') return 'Gemini CLI';
  if (has(p, 'conversation_id') || has(p, 'workspace_roots') || event === 'stop' || event === 'subagentStop') return 'Cursor';
  if (has(p, 'sessionId') || has(p, 'transcriptPath') || has(p, 'stopReason')) return 'GitHub Copilot CLI';
  if (has(p, 'turn_id')) return 'Codex';
  if (event === 'Stop' || event === 'SubagentStop') return has(p, 'stop_reason') || has(p, 'timestamp') ? 'GitHub Copilot CLI (its Claude-compatible Stop payload)' : 'Claude Code';
  return null;
}

/** "this is not a Claude Code stop event: <problem>" plus the likely sender, for a refusal. */
export function mismatch(hostTitle: string, problem: string, p: Payload | null): string {
  const guess = p === null ? null : guessHost(p);
  const from = guess !== null && !guess.startsWith(hostTitle) ? ` (it looks like ${guess}'s)` : '';
  return `the hook input is not a ${hostTitle} stop event${from}: ${problem}`;
}
