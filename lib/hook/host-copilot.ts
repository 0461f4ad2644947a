// The GitHub Copilot CLI (and cloud agent) adapter. Documented input (github/docs
// content/copilot/reference/hooks-reference.md), in two shapes chosen by the event name in the
// configuration: camelCase for `agentStop` / `subagentStop` (sessionId, timestamp, cwd,
// transcriptPath, stopReason, stop_hook_active; a sub-agent's adds agentId, agentType,
// agentName), snake_case for PascalCase `Stop` / `SubagentStop` (hook_event_name, session_id,
// timestamp, cwd, transcript_path, stop_reason, stop_hook_active; agent_id, …). Answer:
// {"decision":"block","reason":…} forces another turn, {"decision":"allow"} lets it end; there is
// no note for the user, so a note goes to stderr. Exit 2 is only a warning there. A hook that
// times out (timeoutSec, 30 s by default) fails open: the hook answers within its own 10 s.
import { has, idProblem, mismatch, optionalBooleanProblem, own, pathProblem, readPayload, stringField, type Payload } from './host-payload.js';
import type { HostAdapter, StopRequest } from './stop-types.js';

const TITLE = 'GitHub Copilot';

function event(p: Payload, sessionId: string, cwd: string, agentKey: string | null): StopRequest {
  return {
    ok: true,
    event: {
      sessionId,
      cwds: [cwd],
      projectDir: null,
      subagent: agentKey === null ? null : { agentId: stringField(p, agentKey) },
      pending: { backgroundTasks: 0, sessionCrons: 0 },
      letThrough: null,
    },
  };
}

function parseCopilot(text: string): StopRequest {
  const read = readPayload(text);
  if (!read.ok) return { ok: false, problem: mismatch(TITLE, read.problem, null) };
  const p = read.payload;
  const refuse = (problem: string): StopRequest => ({ ok: false, problem: mismatch(TITLE, problem, p) });
  const name = own(p, 'hook_event_name');
  if (name === undefined) {
    // camelCase: agentStop, or subagentStop when it names the sub-agent.
    const sub = has(p, 'agentId') || has(p, 'agentName') || has(p, 'agentType');
    const problem = idProblem(p, 'sessionId') ?? pathProblem(own(p, 'cwd'), 'cwd') ?? optionalBooleanProblem(p, 'stop_hook_active') ?? (sub ? idProblem(p, 'agentId') : null);
    if (problem !== null) return refuse(problem);
    return event(p, stringField(p, 'sessionId')!, stringField(p, 'cwd')!, sub ? 'agentId' : null);
  }
  if (name !== 'Stop' && name !== 'SubagentStop') return refuse(typeof name === 'string' ? 'its hook_event_name is not Stop or SubagentStop' : 'its hook_event_name is not a string');
  const problem = idProblem(p, 'session_id') ?? pathProblem(own(p, 'cwd'), 'cwd') ?? optionalBooleanProblem(p, 'stop_hook_active') ?? (name === 'SubagentStop' ? idProblem(p, 'agent_id') : null);
  if (problem !== null) return refuse(problem);
  return event(p, stringField(p, 'session_id')!, stringField(p, 'cwd')!, name === 'SubagentStop' ? 'agent_id' : null);
}

export const copilotHost: HostAdapter = {
  name: 'copilot',
  title: TITLE,
  allowNote: false,
  parse: (text) => parseCopilot(text),
  answer: (decision) => JSON.stringify(decision.kind === 'block' ? { decision: 'block', reason: decision.reason } : { decision: 'allow' }) + '\n',
};
