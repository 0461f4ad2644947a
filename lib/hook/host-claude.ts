// The Claude Code adapter (also VS Code's agent hooks and GitHub Copilot CLI running hooks from
// .claude/settings.json, which send the same snake_case payload). Documented input
// (code.claude.com/docs/en/hooks): session_id, transcript_path, cwd, hook_event_name "Stop" or
// "SubagentStop" (with agent_id, agent_type), stop_hook_active, and since 2.1.145
// background_tasks and session_crons: work that will wake the session again. Answer: exit 0 and
//   {"decision":"block","reason":…}  keep going (the reason is the agent's next instruction),
//   {"systemMessage":…}              allow, with a note for the user,
//   nothing                          allow.
// Exit 2 is never used: the host reads it unreliably (anthropics/claude-code#60490, #10412).
import { idProblem, listLength, mismatch, optionalBooleanProblem, own, pathProblem, readPayload, stringField } from './host-payload.js';
import type { HostAdapter, StopDecision, StopRequest } from './stop-types.js';

const TITLE = 'Claude Code';

export function parseClaudePayload(text: string, env: NodeJS.ProcessEnv, projectVariable: string | null = 'CLAUDE_PROJECT_DIR', title = TITLE): StopRequest {
  const read = readPayload(text);
  if (!read.ok) return { ok: false, problem: mismatch(title, read.problem, null) };
  const p = read.payload;
  const refuse = (problem: string): StopRequest => ({ ok: false, problem: mismatch(title, problem, p) });
  const event = own(p, 'hook_event_name');
  if (event !== 'Stop' && event !== 'SubagentStop') {
    return refuse(typeof event === 'string' ? `its hook_event_name is not Stop or SubagentStop` : 'it has no hook_event_name');
  }
  const problem = idProblem(p, 'session_id') ?? pathProblem(own(p, 'cwd'), 'cwd') ?? optionalBooleanProblem(p, 'stop_hook_active') ?? (event === 'SubagentStop' ? idProblem(p, 'agent_id') : null);
  if (problem !== null) return refuse(problem);
  const backgroundTasks = listLength(p, 'background_tasks');
  const sessionCrons = listLength(p, 'session_crons');
  if (backgroundTasks === null) return refuse('its background_tasks is not a list');
  if (sessionCrons === null) return refuse('its session_crons is not a list');
  const project = projectVariable === null ? undefined : env[projectVariable];
  return {
    ok: true,
    event: {
      sessionId: stringField(p, 'session_id')!,
      cwds: [stringField(p, 'cwd')!],
      projectDir: project === undefined || project === '' ? null : project,
      subagent: event === 'SubagentStop' ? { agentId: stringField(p, 'agent_id') } : null,
      pending: { backgroundTasks, sessionCrons },
      letThrough: null,
    },
  };
}

/** Claude Code's (and Codex's) answer: a block decision, a systemMessage, or nothing. */
export function decisionOrMessage(decision: StopDecision, silent: string): string {
  if (decision.kind === 'block') return JSON.stringify({ decision: 'block', reason: decision.reason }) + '\n';
  return decision.message === null ? silent : JSON.stringify({ systemMessage: decision.message }) + '\n';
}

export const claudeHost: HostAdapter = {
  name: 'claude',
  title: TITLE,
  allowNote: true,
  parse: (text, env) => parseClaudePayload(text, env),
  answer: (decision) => decisionOrMessage(decision, ''),
};
