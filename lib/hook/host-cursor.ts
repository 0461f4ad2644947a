// The Cursor adapter. Documented input (cursor.com/docs/agent/hooks): the common
// conversation_id, generation_id, model, hook_event_name ("stop", "subagentStop"),
// cursor_version, workspace_roots, user_email, transcript_path, and for a stop status
// ("completed", "aborted", "error") and loop_count. On Windows the payload starts with a UTF-8
// byte order mark. Answer: {"followup_message":…} is sent as the next user message; nothing else
// is honoured, so there is no note for the user (a note goes to stderr) and {} allows. Cursor
// caps follow-ups itself (loop_limit, 5 by default). A stop the user aborted, or one that ended
// in an error, is let through: a follow-up would restart the agent against the user's wish or
// loop on the error.
import { idProblem, mismatch, own, pathProblem, readPayload, stringField } from './host-payload.js';
import type { HostAdapter, StopRequest } from './stop-types.js';

const TITLE = 'Cursor';
/** More workspace roots than this is not a workspace. */
export const MAX_WORKSPACE_ROOTS = 64;

function parseCursor(text: string): StopRequest {
  const read = readPayload(text);
  if (!read.ok) return { ok: false, problem: mismatch(TITLE, read.problem, null) };
  const p = read.payload;
  const refuse = (problem: string): StopRequest => ({ ok: false, problem: mismatch(TITLE, problem, p) });
  const name = own(p, 'hook_event_name');
  if (name !== 'stop' && name !== 'subagentStop') return refuse(typeof name === 'string' ? 'its hook_event_name is not stop or subagentStop' : 'it has no hook_event_name');
  const idIssue = idProblem(p, 'conversation_id');
  if (idIssue !== null) return refuse(idIssue);
  const roots = own(p, 'workspace_roots');
  if (!Array.isArray(roots)) return refuse(roots === undefined ? 'it has no workspace_roots' : 'its workspace_roots is not a list');
  if (roots.length === 0) return refuse('its workspace_roots is empty');
  if (roots.length > MAX_WORKSPACE_ROOTS) return refuse(`it has more than ${MAX_WORKSPACE_ROOTS} workspace_roots`);
  for (const r of roots) {
    const problem = pathProblem(r, 'workspace root');
    if (problem !== null) return refuse(problem);
  }
  const status = own(p, 'status');
  if (status !== undefined && typeof status !== 'string') return refuse('its status is not a string');
  const loops = own(p, 'loop_count');
  if (loops !== undefined && loops !== null && !(typeof loops === 'number' && Number.isSafeInteger(loops) && loops >= 0)) return refuse('its loop_count is not a count');
  return {
    ok: true,
    event: {
      sessionId: stringField(p, 'conversation_id')!,
      cwds: roots as string[],
      projectDir: null,
      subagent: name === 'subagentStop' ? { agentId: stringField(p, 'subagent_id') ?? stringField(p, 'agent_id') } : null,
      pending: { backgroundTasks: 0, sessionCrons: 0 },
      // Only the two documented endings that are not the agent's own let the stop through;
      // any other status (a case variant, an empty or a new one) is checked like "completed".
      letThrough: status === 'aborted' || status === 'error' ? `the agent loop ended as "${status}"` : null,
    },
  };
}

export const cursorHost: HostAdapter = {
  name: 'cursor',
  title: TITLE,
  allowNote: false,
  parse: (text) => parseCursor(text),
  answer: (decision) => JSON.stringify(decision.kind === 'block' ? { followup_message: decision.reason } : {}) + '\n',
};
