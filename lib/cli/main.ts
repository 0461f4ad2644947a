// Entry point of the built CLI: parse the command line, dispatch, and turn every failure
// into one message and an exit code. Only bin/gate-check.js calls process.exit, and only
// once the output has left the process. An interrupt (any terminating signal, a closed
// stdout) during a command makes its exit code 130, whatever the command returned; except
// for `hook`, whose exit code is its answer to the host (exit 2 blocks the stop, 130 would
// be read as a non-blocking error and let the agent stop).
import { GateCheckError, LeaseConflictError, ParseError, type Diagnostic } from '../errors.js';
import { errorReport, type Mode } from '../report/model.js';
import { renderJson } from '../report/json.js';
import { formatDiagnostic } from '../report/text.js';
import { colouringWriter } from '../text/colour.js';
import { sanitizeBlock, sanitizeLine } from '../text/sanitize.js';
import { legacyCommandGuard, parsesLogCommands } from '../text/workflow-commands.js';
import { interrupt, interruptedBy, installSignalHandlers, onInterrupt } from '../run/interrupts.js';
import { EXIT, exitCodeFor } from '../program/exit-codes.js';
import { processIo, releaseDeadTerminal, type Io } from '../program/io.js';
import { asInvoked, currentInvocation } from '../program/invocation.js';
import { refuseMistakenWords } from './mistaken-words.js';
import type { RunOptions } from '../program/run-options.js';
import { parseCommandLine } from './options.js';
import { statusCommand } from '../commands/status.js';

const MAX_ERRORS_SHOWN = 100;

/**
 * The process: signals become interrupts, the command runs, and the exit code is returned
 * once stdout and stderr are flushed (exiting with output pending would drop it). An
 * interrupt while flushing ends the wait: exit 130.
 */
export async function cli(argv: readonly string[]): Promise<number> {
  installSignalHandlers();
  let commandRunning = true;
  let stdoutLost: string | null = null;
  const io = processIo((why) => {
    stdoutLost ??= why;
    if (commandRunning) interrupt(why);
  });
  const code = await main(argv, io);
  commandRunning = false;
  let stopLate = () => {};
  const late = new Promise<number>((resolve) => {
    stopLate = onInterrupt(() => resolve(interruptCode(argv, code)));
  });
  const result = await Promise.race([io.flushed().then(() => code), late]);
  stopLate();
  await releaseDeadTerminal();
  return stdoutLost !== null && argv[0] === 'hook' ? hookAnswerLost(io, stdoutLost) : result;
}

/**
 * A hook's answer is on stdout: if it could not be written (a closed pipe, a full disk), exit
 * 0 would tell the host that the stop is allowed. Exit 2 with the reason on stderr is a
 * blocking error where the host reads exit codes, and an error everywhere else.
 */
function hookAnswerLost(io: Io, why: string): number {
  io.stderr(`gate-check: the hook could not write its answer on stdout (${sanitizeLine(why, 200)}); exit 2 so that the stop is not taken as allowed\n`);
  return 2;
}

export { releaseDeadTerminal };

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  // On a runner that reads commands anywhere in a line ("##[…]"), no output of ours may hold one.
  if (parsesLogCommands(io.env)) io = { ...io, stdout: legacyCommandGuard(io.stdout), stderr: legacyCommandGuard(io.stderr) };
  const code = await dispatch(argv, io);
  return interruptedBy() === null ? code : interruptCode(argv, code);
}

/** The exit code of an interrupted command. */
function interruptCode(argv: readonly string[], code: number): number {
  return argv[0] === 'hook' ? code : EXIT.interrupted;
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  let options: RunOptions | undefined;
  try {
    const parsed = await parseCommandLine(argv);
    if (parsed.kind === 'done') {
      io.stdout(parsed.output);
      return 0;
    }
    if (parsed.kind === 'subcommand') {
      // The Stop hook loads only its own code; `hook stop` also reaches it through commands/hook.ts.
      if (parsed.name === 'hook' && (parsed.args[0] === 'stop' || parsed.args[0] === 'claude-stop')) {
        const stop = await import('./lazy-stop-hook.js');
        const rest = parsed.args.slice(1);
        return await (parsed.args[0] === 'stop' ? stop.hookStopCommand(rest, io) : stop.claudeStopCommand(rest, io));
      }
      const { runSubcommand } = await import('./lazy-subcommands.js');
      return await runSubcommand(parsed.name, parsed.args, io);
    }
    options = parsed.options;
    if (options.files.length > 0) refuseMistakenWords(options.files, io.cwd, io.env);
    // Only the text of a run or a status: never JSON, a subcommand's output or a hook's answer.
    if (!options.json && io.colour?.() === true) io = { ...io, stdout: colouringWriter(io.stdout) };
    if (options.status) return await statusCommand(options, io);
    if (options.listScopes || options.claim || options.release) {
      const lazy = await import('./lazy.js');
      if (options.listScopes) return lazy.listScopesCommand(options, io);
      return await (options.claim ? lazy.claimCommand : lazy.releaseCommand)(options, io);
    }
    const { runCommand } = await import('./lazy.js');
    return await runCommand(options, io);
  } catch (error) {
    const code = reportFailure(error, io, options);
    return interruptedBy() === null ? code : interruptCode(argv, exitCodeFor(error));
  }
}

function modeOf(options: RunOptions): Mode {
  if (options.status) return 'status';
  if (options.reverify) return 'reverify';
  return options.approve ? 'approve' : 'run';
}

export function reportFailure(error: unknown, io: Io, options?: RunOptions): number {
  const code = interruptedBy() === null ? exitCodeFor(error) : EXIT.interrupted;
  const lines: string[] = [];
  let diagnostics: Diagnostic[] = [];
  let warnings: Diagnostic[] = [];
  if (error instanceof ParseError) {
    diagnostics = error.diagnostics;
    warnings = error.warnings;
    for (const d of diagnostics.slice(0, MAX_ERRORS_SHOWN)) lines.push(formatDiagnostic(d, 'error'));
    if (diagnostics.length > MAX_ERRORS_SHOWN) lines.push(`error: … and ${diagnostics.length - MAX_ERRORS_SHOWN} more`);
    lines.push(`gate-check: ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}; nothing was checked`);
  } else if (error instanceof LeaseConflictError) {
    diagnostics = error.conflicts.map((c) => ({ message: c.message }));
    for (const c of error.conflicts.slice(0, MAX_ERRORS_SHOWN)) {
      lines.push(`conflict: ${sanitizeLine(c.message, 600)}`);
      if (c.remedy) lines.push(`  ${sanitizeLine(c.remedy, 600)}`);
    }
    lines.push(`gate-check: ${sanitizeLine(error.message, 200)}`);
  } else if (error instanceof GateCheckError) {
    diagnostics = [{ message: error.message }];
    lines.push(`gate-check: ${sanitizeLine(error.message, 600)}`);
    if (error.hint) lines.push(`hint: ${sanitizeLine(asInvoked(error.hint, currentInvocation(io.env)), 600)}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    diagnostics = [{ message: `internal error: ${message}` }];
    lines.push(`gate-check: internal error: ${sanitizeLine(message, 600)}`);
    if (io.env.GATE_CHECK_DEBUG && error instanceof Error && error.stack) lines.push(...sanitizeBlock(error.stack, 60, 300));
  }
  io.stderr(lines.join('\n') + '\n');
  if (options?.json) {
    const known = error instanceof GateCheckError ? error.known : undefined;
    const report = errorReport(modeOf(options), known?.root ?? '', diagnostics, warnings, known?.files ?? []);
    report.exitCode = code;
    io.stdout(renderJson(report));
  }
  return code;
}
