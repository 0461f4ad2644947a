// Typed failures. Each carries no exit code itself: program/exit-codes.ts maps them in one place.

export interface Diagnostic {
  /** Path as shown to the user (relative to the root where possible). */
  file?: string;
  /** 1-based line number, when the problem has one. */
  line?: number;
  message: string;
}

/** What a command had found when it failed: --json still reports it. */
export interface KnownFacts {
  /** The repository root, absolute. */
  root: string;
  /** The ledgers found, as shown to the user. */
  files: string[];
}

export abstract class GateCheckError extends Error {
  abstract readonly kind: string;
  /** A second line for the user: what to do about it. */
  hint?: string;
  /** Set by the first layer that knows them (the workspace loader, then the command). */
  known?: KnownFacts;
}

/** Notes what was known on a failure passing through; the innermost (most exact) note is kept. */
export function noteKnown(error: unknown, known: KnownFacts): void {
  if (error instanceof GateCheckError) error.known ??= known;
}

/** Bad command line: unknown, duplicate or conflicting options, invalid values. */
export class UsageError extends GateCheckError {
  readonly kind = 'usage';
  constructor(message: string, hint = "see 'gate-check --help'") {
    super(message);
    this.hint = hint;
  }
}

/** One or more ledgers are malformed. Carries every error found, with line numbers. */
export class ParseError extends GateCheckError {
  readonly kind = 'parse';
  constructor(
    readonly diagnostics: Diagnostic[],
    readonly warnings: Diagnostic[] = [],
  ) {
    super(diagnostics.length === 1 ? diagnostics[0]!.message : `${diagnostics.length} errors in the ledger`);
  }
}

/** A file the checker must read or write is not what it must be (symlink, hard link, FIFO, too large, outside the root, changed underneath). */
export class UnsafeFileError extends GateCheckError {
  readonly kind = 'unsafe-file';
  constructor(readonly path: string, reason: string, hint?: string) {
    super(`${path}: ${reason}`);
    if (hint !== undefined) this.hint = hint;
  }
}

/** Ledger discovery failed closed: nothing found, or a discovered location is unsafe. */
export class DiscoveryError extends GateCheckError {
  readonly kind = 'discovery';
  constructor(message: string, hint?: string) {
    super(message);
    if (hint !== undefined) this.hint = hint;
  }
}

/** The private store (approvals, receipts, history) is unsafe or unusable. */
export class UnsafeStoreError extends GateCheckError {
  readonly kind = 'unsafe-store';
  constructor(readonly path: string, reason: string, hint?: string) {
    super(`${path}: ${reason}`);
    if (hint !== undefined) this.hint = hint;
  }
}

/** A lock could not be taken within its bounded wait. Locks are never stolen. */
export class LockTimeoutError extends GateCheckError {
  readonly kind = 'lock-timeout';
  constructor(readonly lockPath: string, readonly holderPid: number | null, message: string, hint: string) {
    super(message);
    this.hint = hint;
  }
}

/** A run could not be set up or completed safely (missing shell, bad CWD, pinned oracle changed, unsafe write). */
export class RunSetupError extends GateCheckError {
  readonly kind = 'run-setup';
  constructor(message: string, hint?: string) {
    super(message);
    if (hint !== undefined) this.hint = hint;
  }
}

/**
 * A gate that cannot run as it is written (a CWD outside the repository or not a directory,
 * a pattern that matches only ledgers). It is that gate's state (not run, exit 1), said with
 * the reason in --status and the run, never a reason to stop the other gates.
 */
export class NotRunnableError extends RunSetupError {
  override readonly kind = 'run-setup';
  /** How the state reads: "not runnable" (fix the gate) or "not runnable yet" (do the work). */
  get stateLabel(): string {
    return 'not runnable';
  }
}

/**
 * A gate that cannot run yet because what it names does not exist yet (a DEPENDS pattern
 * that matches no file, a CWD not created yet): gates are written before the work.
 */
export class NotRunnableYetError extends NotRunnableError {
  override get stateLabel(): string {
    return 'not runnable yet';
  }
}

/** A DEPENDS or INPUTS pattern that matches only ledgers, which are never hashed. */
export class OnlyLedgersError extends NotRunnableError {}

/** A time budget ran out (the Stop hook's deadline): the work was abandoned, nothing is known about what was left. */
export class DeadlineError extends GateCheckError {
  readonly kind = 'deadline';
  constructor(message: string) {
    super(message);
  }
}

/** A dispatch transition that the wave's lifecycle does not allow (seal before every leaf started, return before the seal, …). */
export class DispatchRefusedError extends GateCheckError {
  readonly kind = 'dispatch';
  constructor(message: string, hint?: string) {
    super(message);
    if (hint !== undefined) this.hint = hint;
  }
}

/** One conflict of a refused claim, as printed (already worded; the command sanitizes it). */
export interface LeaseConflict {
  message: string;
  /** What the user can do about it once the holder is gone, or null. */
  remedy: string | null;
}

/** A claim overlaps a live lease (or one that cannot be trusted): refused, exit 3. Leases are never stolen. */
export class LeaseConflictError extends GateCheckError {
  readonly kind = 'lease-conflict';
  constructor(readonly conflicts: LeaseConflict[], message: string) {
    super(message);
  }
}

/** SIGINT or SIGTERM arrived; running checks were killed. */
export class InterruptedError extends GateCheckError {
  readonly kind = 'interrupted';
  constructor(message = 'interrupted') {
    super(message);
  }
}
