// What a host adapter hands the Stop hook's core, and what the core answers. The core
// (stop-verdict.ts) knows no host; an adapter (host-*.ts) knows only its host's payload and
// answer format. Types only.

export type HostName = 'claude' | 'codex' | 'copilot' | 'gemini' | 'cursor';

/** One stop, as the host described it. */
export interface StopEvent {
  /** The host's session (conversation) id. */
  sessionId: string;
  /** Absolute directories the session works in (the payload's cwd, or Cursor's workspace roots), first the main one. */
  cwds: string[];
  /** The project directory the host names in the environment ($CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR), unchecked; null when none. */
  projectDir: string | null;
  /** A sub-agent's stop (SubagentStop): its id when the host gives one. Null for the main agent's stop. */
  subagent: { agentId: string | null } | null;
  /** Work the host says is still pending and will wake the session (Claude Code's background_tasks, session_crons). */
  pending: { backgroundTasks: number; sessionCrons: number };
  /** Why the host's own state says this stop is no end of work to hold (Cursor: the user aborted), or null. */
  letThrough: string | null;
}

/** An adapter's reading of the payload: a stop event, or what was wrong with it. */
export type StopRequest = { ok: true; event: StopEvent } | { ok: false; problem: string };

export type StopDecision = { kind: 'block'; reason: string } | { kind: 'allow'; message: string | null };

export interface HostAdapter {
  name: HostName;
  /** The host's name for people ("Claude Code"). */
  title: string;
  parse(text: string, env: NodeJS.ProcessEnv): StopRequest;
  /** What to print on stdout (possibly nothing); the exit code is always 0. */
  answer(decision: StopDecision): string;
  /** Whether an "allow" can carry a note the host shows; when not, a note goes to stderr. */
  allowNote: boolean;
}
