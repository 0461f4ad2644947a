// The OpenAI Codex CLI adapter. Documented input (openai/codex codex-rs/hooks/schema,
// stop.command.input / subagent-stop.command.input): session_id, turn_id, cwd, model,
// permission_mode, transcript_path, hook_event_name "Stop" or "SubagentStop" (with agent_id,
// agent_type, agent_transcript_path), stop_hook_active, last_assistant_message. Answer
// (stop.command.output): {"decision":"block","reason":…} with a non-empty reason to keep going,
// {"systemMessage":…} to allow with a note, {} to allow. Codex has no loop cap of its own
// (openai/codex#37937): the hook's no-progress release is what ends a loop there.
import { idProblem, mismatch, optionalBooleanProblem, own, pathProblem, readPayload, stringField } from './host-payload.js';
import { decisionOrMessage } from './host-claude.js';
import type { HostAdapter, StopRequest } from './stop-types.js';

const TITLE = 'Codex';

function parseCodex(text: string): StopRequest {
  const read = readPayload(text);
  if (!read.ok) return { ok: false, problem: mismatch(TITLE, read.problem, null) };
  const p = read.payload;
  const refuse = (problem: string): StopRequest => ({ ok: false, problem: mismatch(TITLE, problem, p) });
  const event = own(p, 'hook_event_name');
  if (event !== 'Stop' && event !== 'SubagentStop') return refuse(typeof event === 'string' ? 'its hook_event_name is not Stop or SubagentStop' : 'it has no hook_event_name');
  const problem =
    idProblem(p, 'session_id') ?? idProblem(p, 'turn_id') ?? pathProblem(own(p, 'cwd'), 'cwd') ?? optionalBooleanProblem(p, 'stop_hook_active') ?? (event === 'SubagentStop' ? idProblem(p, 'agent_id') : null);
  if (problem !== null) return refuse(problem);
  return {
    ok: true,
    event: {
      sessionId: stringField(p, 'session_id')!,
      cwds: [stringField(p, 'cwd')!],
      projectDir: null,
      subagent: event === 'SubagentStop' ? { agentId: stringField(p, 'agent_id') } : null,
      pending: { backgroundTasks: 0, sessionCrons: 0 },
      letThrough: null,
    },
  };
}

export const codexHost: HostAdapter = {
  name: 'codex',
  title: TITLE,
  allowNote: true,
  parse: (text) => parseCodex(text),
  answer: (decision) => decisionOrMessage(decision, '{}\n'),
};
