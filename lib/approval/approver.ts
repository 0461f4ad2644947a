// Who may approve. An approval is a person's consent to run code; a check, and an agent
// without a terminal of its own, are not a person. The environment marker alone is not a
// boundary (a check can drop it with `env -u`), so the refusal rests on what a check cannot
// shed with one command: its ancestry (a gate-check run above it), and, for a process that
// escaped its ancestry (setsid -f, a daemon, with or without a pseudo-terminal of its own
// from script), a session that began after a live run began: every check gets a new session
// from its run, and a process can leave it only for a newer one. Parallel jobs a runner
// started stay in the runner's older session, and may approve; so may a person's terminal
// that was open before the run. Any other process of an older session needs a controlling
// terminal: a check can have a long-lived process of the user run a command for it (a
// terminal multiplexer's server, `tmux run-shell`; an editor's server), in that process's
// own older session, with no terminal (round-21 F4).
// A check can hide /proc from itself (a PID namespace with its own /proc, a file system
// mounted over it): the run's marker in the approvals directory, kept fresh by its
// heartbeat, still tells it that a run is under way, and it is dated by the clock.
// Decision pure; the probes read /proc (lib/run/process-tree.ts) and the markers
// (lib/fsx/run-marker.ts).
import { RunSetupError } from '../errors.js';
import { freshRunMarkers, type RunMarker } from '../fsx/run-marker.js';
import { ancestorRun, hasControllingTerminal, hasProcFs, isVisibleRun, liveRuns, pidNamespace, sessionId, sessionStart, sessionStartMs, workingDirectoryOf, type LiveRun } from '../run/process-tree.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine } from '../text/sanitize.js';

/** Set in every check's environment (defence in depth: the first thing a nested --approve looks at). */
export const ACTIVE_CHECK_ENV = 'GATE_CHECK_ACTIVE_CHECK';

/** Environment variables by which coding agents announce themselves to the commands they run. */
const AGENT_VARIABLES = ['CLAUDECODE', 'CURSOR_AGENT', 'CODEX_SANDBOX', 'GEMINI_CLI', 'OPENCODE', 'AI_AGENT'];
const AGENT_PREFIXES = ['COPILOT_'];

export interface ProcessProbe {
  procFs: () => boolean;
  ancestorRun: () => number | null;
  /** Start time of this process's session (null: its leader is gone). */
  sessionStart: () => number | null;
  /** This process's session id (null: unknown). */
  session: () => number | null;
  /** Live gate-check runs of this user, in any repository. */
  liveRuns: () => LiveRun[];
  terminal: () => boolean;
  /** This process's PID namespace (0: unknown). */
  namespace: () => number;
  /** sessionStart in ms since the epoch (null: unknown). */
  sessionStartMs: () => number | null;
  /** The clock, in ms since the epoch. */
  now: () => number;
  /** Whether /proc shows this PID as a live run. */
  visibleRun: (pid: number) => boolean;
  /** Fresh markers of live runs where this process would write (null: a place that cannot be read). */
  runMarkers: () => RunMarker[] | null;
}

export function systemProbe(env: NodeJS.ProcessEnv): ProcessProbe {
  return {
    procFs: hasProcFs,
    ancestorRun,
    sessionStart,
    session: sessionId,
    liveRuns: () => liveRuns().map((r) => ({ ...r, cwd: workingDirectoryOf(r.pid) })),
    terminal: hasControllingTerminal,
    namespace: pidNamespace,
    sessionStartMs,
    now: Date.now,
    visibleRun: isVisibleRun,
    runMarkers: () => {
      // Both places a run marks: where approvals are written, and the store that holds the
      // Stop hook's state (which `hook accept` writes).
      const at = storeLocations(env);
      const approvals = freshRunMarkers(at.approvals);
      const base = freshRunMarkers(at.base);
      return approvals === null || base === null ? null : [...approvals, ...base];
    },
  };
}

/**
 * How much earlier than a marker's time a session must have begun to count as older: the
 * session's time is read from boot time in whole seconds, so it can seem up to a second
 * early; a session begun less than this before a run counts as begun after it.
 */
const CLOCK_SLACK_MS = 2_000;

export function announcedAgent(env: NodeJS.ProcessEnv): string | null {
  for (const name of AGENT_VARIABLES) if (env[name]) return name;
  for (const name of Object.keys(env)) if (AGENT_PREFIXES.some((p) => name.startsWith(p)) && env[name]) return name;
  return null;
}

const PERSON_HINT = 'a person approves by running gate-check --approve in a terminal of their own, after reading every command';

/** Why this process must not approve, or null. */
export function approvalRefusal(env: NodeJS.ProcessEnv, probe: ProcessProbe): string | null {
  const marker = env[ACTIVE_CHECK_ENV];
  if (marker) return `--approve refused inside a running check (${ACTIVE_CHECK_ENV}=${sanitizeLine(marker, 80)}): a check must never approve checks`;
  const agent = announcedAgent(env);
  if (agent !== null && !probe.terminal()) return `--approve refused: the environment announces a coding agent (${agent}) and this process has no terminal of its own: approval needs a person`;
  if (probe.procFs()) {
    const parent = probe.ancestorRun();
    if (parent !== null) return `--approve refused: this process runs inside a check started by gate-check (PID ${parent}): a check must never approve checks`;
    // With a terminal too: a check that left its ancestry (setsid -f) can make itself one
    // (script), so a terminal says nothing about who made it.
    const session = probe.sessionStart();
    const run = probe.liveRuns().find((r) => session === null || r.start === null || session >= r.start);
    if (run) {
      return `--approve refused: ${visibleRun(run)} is running checks, and this process runs in a session that began after that run did, as everything a check starts does (a check must never approve checks); approve from a terminal opened before that run began, or once it has ended (nothing waits for it)`;
    }
    // An older session: the run's own (a parallel job beside it), or a person's terminal.
    if (!probe.terminal()) {
      const own = probe.session();
      const other = probe.liveRuns().find((r) => own === null || r.session === null || r.session !== own);
      if (other) return noTerminalRefusal(`${visibleRun(other)} is running checks`);
    }
  }
  // Runs that /proc shows were judged exactly above; the marker of one it does not show
  // (another namespace, /proc hidden, its entry covered by a mount, or a run that crashed)
  // is compared by the clock.
  const markers = probe.runMarkers();
  if (markers === null) {
    return '--approve refused: the private store cannot be read, so whether a gate-check run is under way cannot be told (a check must never approve checks); make it readable (chmod 700) and try again';
  }
  if (markers.length > 0) {
    const namespace = probe.procFs() ? probe.namespace() : 0;
    const unseen = markers.filter((m) => namespace === 0 || m.namespace !== namespace || !probe.visibleRun(m.pid));
    const since = unseen.length > 0 ? probe.sessionStartMs() : null;
    // A marker dated after now was renamed by hand: it cannot date the run.
    const now = probe.now();
    const run = unseen.find((m) => since === null || since >= m.start - CLOCK_SLACK_MS || m.start > now + CLOCK_SLACK_MS);
    const where = (m: RunMarker) => (namespace === 0 ? 'in a PID namespace this process cannot see' : m.namespace !== namespace ? 'in another PID namespace' : 'not shown by /proc');
    if (run) {
      return `--approve refused: a gate-check run (PID ${run.pid} ${where(run)}) is running checks, and this process ${since === null ? 'cannot tell when its session began' : 'runs in a session that began after that run did'} (a check must never approve checks); approve from a terminal opened before that run began, or once it has ended`;
    }
    // Its session cannot be compared with this one: an older session needs a terminal.
    const first = unseen[0];
    if (first !== undefined && !probe.terminal()) return noTerminalRefusal(`a gate-check run (PID ${first.pid} ${where(first)}) is running checks`);
  }
  return null;
}

/**
 * A run as the refusal names it: its PID, and the folder it was started in, so that a person
 * can find it in another project (any run of the user blocks approval: round-38b F1).
 */
function visibleRun(run: LiveRun): string {
  return `gate-check (PID ${run.pid}${run.cwd ? `, started in ${sanitizeLine(run.cwd, 200)}` : ''})`;
}

function noTerminalRefusal(what: string): string {
  return `--approve refused: ${what}, and this process has no terminal and runs outside that run's session: a check can have a long-lived process of yours (a terminal multiplexer's server, an editor's) run a command for it, so approval needs a terminal while a run is under way (a check must never approve checks); approve from a terminal, or once that run has ended`;
}

/** Throws (exit 2) unless this process may approve. */
export function assertMayApprove(env: NodeJS.ProcessEnv, probe: ProcessProbe = systemProbe(env)): void {
  const why = approvalRefusal(env, probe);
  if (why !== null) throw new RunSetupError(why, PERSON_HINT);
}
