// Stop-hook payloads as each host documents them, and each host's answer read back the way the
// host reads it. No agent runs here: these are the documented shapes (sources per host), so a
// test that passes here passes against the contract, not against a recording.
import { expect } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { REASON_CAP, UNSAFE } from '../helpers/stop-hook.js';

export type Host = 'claude' | 'codex' | 'copilot' | 'gemini' | 'cursor';
export const HOSTS: readonly Host[] = ['claude', 'codex', 'copilot', 'gemini', 'cursor'];

export interface StopOptions {
  session?: string;
  active?: boolean;
  /** A sub-agent's stop, with this agent id. */
  agent?: string;
}

/** code.claude.com/docs/en/hooks (Stop / SubagentStop input), 2.1.145+ with background_tasks and session_crons. */
export function claudePayload(cwd: string, o: StopOptions & { backgroundTasks?: unknown[]; sessionCrons?: unknown[] } = {}): Record<string, unknown> {
  const session = o.session ?? 'claude-session-1';
  const base: Record<string, unknown> = {
    session_id: session,
    transcript_path: `/home/u/.claude/projects/p/${session}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: o.agent === undefined ? 'Stop' : 'SubagentStop',
    stop_hook_active: o.active ?? false,
    last_assistant_message: 'I have finished the task.',
    background_tasks: o.backgroundTasks ?? [],
    session_crons: o.sessionCrons ?? [],
  };
  if (o.agent !== undefined) Object.assign(base, { agent_id: o.agent, agent_type: 'general-purpose', agent_transcript_path: `/home/u/.claude/projects/p/${o.agent}.jsonl` });
  return base;
}

/** openai/codex codex-rs/hooks/schema/generated/stop.command.input.schema.json (and subagent-stop). */
export function codexPayload(cwd: string, o: StopOptions = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    session_id: o.session ?? '019a-codex-thread',
    turn_id: 'turn-7',
    cwd,
    hook_event_name: o.agent === undefined ? 'Stop' : 'SubagentStop',
    model: 'gpt-5-codex',
    permission_mode: 'default',
    stop_hook_active: o.active ?? false,
    transcript_path: null,
    last_assistant_message: 'Done.',
  };
  if (o.agent !== undefined) Object.assign(base, { agent_id: o.agent, agent_type: 'worker', agent_transcript_path: null });
  return base;
}

/** github/docs content/copilot/reference/hooks-reference.md: agentStop / subagentStop, camelCase. */
export function copilotPayload(cwd: string, o: StopOptions = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    sessionId: o.session ?? 'copilot-session-1',
    timestamp: 1767225600000,
    cwd,
    transcriptPath: '/home/u/.copilot/session-state/s/events.jsonl',
    stopReason: 'end_turn',
  };
  if (o.agent !== undefined) Object.assign(base, { agentId: o.agent, agentType: 'custom', agentName: 'reviewer', response: 'Reviewed.' });
  else base.stop_hook_active = o.active ?? false;
  return base;
}

/** The same reference: PascalCase `Stop` in the configuration gives this snake_case payload. */
export function copilotPascalPayload(cwd: string, o: StopOptions = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    hook_event_name: o.agent === undefined ? 'Stop' : 'SubagentStop',
    session_id: o.session ?? 'copilot-session-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    cwd,
    transcript_path: '/home/u/.copilot/session-state/s/events.jsonl',
    stop_reason: 'end_turn',
  };
  if (o.agent !== undefined) Object.assign(base, { agent_id: o.agent, agent_type: 'custom', agent_name: 'reviewer', last_assistant_message: 'Reviewed.' });
  else base.stop_hook_active = o.active ?? false;
  return base;
}

/** google-gemini/gemini-cli docs/hooks/reference.md: the base input plus AfterAgent's fields. */
export function geminiPayload(cwd: string, o: StopOptions = {}): Record<string, unknown> {
  return {
    session_id: o.session ?? 'gemini-session-1',
    transcript_path: '/home/u/.gemini/tmp/chats/session.json',
    cwd,
    hook_event_name: 'AfterAgent',
    timestamp: '2026-01-01T00:00:00Z',
    prompt: 'Fix the importer',
    prompt_response: 'The importer is fixed.',
    stop_hook_active: o.active ?? false,
  };
}

/** cursor.com/docs/agent/hooks: the common input plus stop's status and loop_count. */
export function cursorPayload(roots: string[], o: StopOptions & { status?: string; loopCount?: number } = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    conversation_id: o.session ?? 'cdefee2d-2727-4b73-bf77-d9d830f31d2a',
    generation_id: '26b45fb6-bdea-439c-b2dc-5e97ee00ecea',
    model: 'claude-4-sonnet',
    hook_event_name: o.agent === undefined ? 'stop' : 'subagentStop',
    cursor_version: '2.0.77',
    workspace_roots: roots,
    user_email: 'ada@example.com',
    transcript_path: null,
    status: o.status ?? 'completed',
    loop_count: o.loopCount ?? 0,
  };
  if (o.agent !== undefined) base.subagent_id = o.agent;
  return base;
}

export function payloadFor(host: Host, cwd: string, o: StopOptions = {}): string {
  switch (host) {
    case 'claude':
      return JSON.stringify(claudePayload(cwd, o));
    case 'codex':
      return JSON.stringify(codexPayload(cwd, o));
    case 'copilot':
      return JSON.stringify(copilotPayload(cwd, o));
    case 'gemini':
      return JSON.stringify(geminiPayload(cwd, o));
    case 'cursor':
      return JSON.stringify(cursorPayload([cwd], o));
  }
}

export type Answer = { kind: 'block'; reason: string } | { kind: 'allow'; note: string | null };

function cleanText(text: unknown): string {
  expect(typeof text).toBe('string');
  expect(text as string).not.toMatch(UNSAFE);
  expect(Array.from(text as string).length).toBeLessThanOrEqual(REASON_CAP);
  return text as string;
}

/**
 * The answer as the host reads it: exit 0 always, one JSON document on stdout (nothing, for
 * Claude Code's silent allow), with only the keys the host documents. A note of a host that
 * shows none (Copilot, Cursor) is on stderr.
 */
export function answerOf(host: Host, r: CliResult): Answer {
  expect(r.signal).toBeNull();
  expect(r.code).toBe(0);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  if (host === 'claude' && r.stdout === '') return { kind: 'allow', note: null };
  expect(r.stdout.endsWith('\n')).toBe(true);
  const line = r.stdout.slice(0, -1);
  expect(line).not.toContain('\n');
  expect(line).not.toMatch(/\\u00[0-9a-f]{2}|\\[btfr]/i);
  const doc = JSON.parse(line) as Record<string, unknown>;
  const keys = Object.keys(doc).sort();
  const stderrNote = r.stderr === '' ? null : cleanText(r.stderr.replace(/\n$/, ''));
  switch (host) {
    case 'claude':
    case 'codex':
      if (doc.decision === 'block') {
        expect(keys).toEqual(['decision', 'reason']);
        return { kind: 'block', reason: cleanText(doc.reason) };
      }
      if (keys.length === 0) return { kind: 'allow', note: null };
      expect(keys).toEqual(['systemMessage']);
      return { kind: 'allow', note: cleanText(doc.systemMessage) };
    case 'copilot':
      expect(['block', 'allow']).toContain(doc.decision);
      if (doc.decision === 'block') {
        expect(keys).toEqual(['decision', 'reason']);
        return { kind: 'block', reason: cleanText(doc.reason) };
      }
      expect(keys).toEqual(['decision']);
      return { kind: 'allow', note: stderrNote };
    case 'gemini':
      if (doc.decision === 'deny') {
        expect(keys).toEqual(['decision', 'reason']);
        return { kind: 'block', reason: cleanText(doc.reason) };
      }
      if (keys.length === 0) return { kind: 'allow', note: null };
      expect(keys).toEqual(['systemMessage']);
      return { kind: 'allow', note: cleanText(doc.systemMessage) };
    case 'cursor':
      if (keys.length === 0) return { kind: 'allow', note: stderrNote };
      expect(keys).toEqual(['followup_message']);
      return { kind: 'block', reason: cleanText(doc.followup_message) };
  }
}

export function blockOf(a: Answer): string {
  if (a.kind !== 'block') throw new Error(`expected a block, got ${JSON.stringify(a)}`);
  return a.reason;
}

export function noteOf(a: Answer): string {
  if (a.kind !== 'allow' || a.note === null) throw new Error(`expected an allow with a note, got ${JSON.stringify(a)}`);
  return a.note;
}
