// The Gemini CLI adapter. Documented input (google-gemini/gemini-cli docs/hooks/reference.md):
// the common session_id, transcript_path, cwd, hook_event_name, timestamp, and for AfterAgent
// (Gemini's stop) prompt, prompt_response, stop_hook_active. $GEMINI_PROJECT_DIR names the
// project. Answer: {"decision":"deny","reason":…} rejects the response and sends the reason as
// the next prompt; {"systemMessage":…} is shown to the user; {} allows. Gemini CLI has no
// sub-agent stop event.
import { idProblem, mismatch, optionalBooleanProblem, own, pathProblem, readPayload, stringField } from './host-payload.js';
import type { HostAdapter, StopRequest } from './stop-types.js';

const TITLE = 'Gemini CLI';

function parseGemini(text: string, env: NodeJS.ProcessEnv): StopRequest {
  const read = readPayload(text);
  if (!read.ok) return { ok: false, problem: mismatch(TITLE, read.problem, null) };
  const p = read.payload;
  const refuse = (problem: string): StopRequest => ({ ok: false, problem: mismatch(TITLE, problem, p) });
  const name = own(p, 'hook_event_name');
  if (name !== 'AfterAgent') return refuse(typeof name === 'string' ? 'its hook_event_name is not AfterAgent' : 'it has no hook_event_name');
  const problem = idProblem(p, 'session_id') ?? pathProblem(own(p, 'cwd'), 'cwd') ?? optionalBooleanProblem(p, 'stop_hook_active');
  if (problem !== null) return refuse(problem);
  const project = env.GEMINI_PROJECT_DIR;
  return {
    ok: true,
    event: {
      sessionId: stringField(p, 'session_id')!,
      cwds: [stringField(p, 'cwd')!],
      projectDir: project === undefined || project === '' ? null : project,
      subagent: null,
      pending: { backgroundTasks: 0, sessionCrons: 0 },
      letThrough: null,
    },
  };
}

export const geminiHost: HostAdapter = {
  name: 'gemini',
  title: TITLE,
  allowNote: true,
  parse: parseGemini,
  answer: (decision) => {
    if (decision.kind === 'block') return JSON.stringify({ decision: 'deny', reason: decision.reason }) + '\n';
    return JSON.stringify(decision.message === null ? {} : { systemMessage: decision.message }) + '\n';
  },
};
