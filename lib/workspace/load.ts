// Loads the ledgers a command works on: select (explicit files, --scope, GATE_CHECK_SCOPE,
// the root ledgers, the only scope), read safely, decode strictly, parse. Every parse error
// of every file is collected before failing.
import { basename, extname } from 'node:path';
import { DiscoveryError, noteKnown, ParseError, UnsafeFileError, UsageError, type Diagnostic, type KnownFacts } from '../errors.js';
import { captureDirectoryChain, type DirectoryChain } from '../fsx/dir-chain.js';
import { checkScopeId, discoverLedgers, listScopes, locateExplicitLedgers, resolveRoot, rootLedgerPaths, type LedgerLocation, type Root } from '../fsx/discover.js';
import { safeReadFile, type FileIdentity } from '../fsx/safe-read.js';
import { parseLedger } from '../ledger/parse.js';
import { GATE_ID_PATTERN, type Ledger } from '../ledger/types.js';

export const MAX_LEDGER_BYTES = 8 * 1024 * 1024;

export interface LoadedLedger {
  location: LedgerLocation;
  /** File name without its extension: qualifies ids as STEM:ID. */
  stem: string;
  ledger: Ledger;
  source: string;
  identity: FileIdentity;
  /** The directories from the root down to the ledger when it was read: a write checks they are still those. */
  directories: DirectoryChain;
}

export interface Workspace {
  root: Root;
  /** True when ledgers were named on the command line (relative CWD anchors beside the ledger). */
  explicit: boolean;
  ledgers: LoadedLedger[];
  warnings: Diagnostic[];
  /** How the ledgers were chosen (absent when a caller assembles a workspace itself). */
  selection?: Selection;
}

/**
 * Which ledgers a command works on. `root`: GATES.md and gates/*.md, and a verdict over them
 * also covers every scope (`scopes`), so that no unmet scope hides behind a met root ledger.
 * `scope`: one scope's ledgers, chosen by --scope, by GATE_CHECK_SCOPE, or because it is the
 * only scope and there is no root ledger. `files`: exactly the ledgers named.
 */
export type Selection =
  | { kind: 'files' }
  | { kind: 'root'; scopes: string[] }
  | { kind: 'scope'; scope: string; via: ScopeChoice };

export type ScopeChoice = 'option' | 'environment' | 'only';

/** The environment variable that chooses a scope when --scope is not given. */
export const SCOPE_ENV = 'GATE_CHECK_SCOPE';

export interface LoadOptions {
  root?: string | undefined;
  scope?: string | undefined;
  files: readonly string[];
  cwd: string;
  /**
   * The caller's environment: when given, GATE_CHECK_SCOPE chooses a scope, and without a root
   * ledger the only scope stands in (several: refused). Without it (the Stop hook, which reads
   * every part itself), only --scope or the root ledgers.
   */
  env?: NodeJS.ProcessEnv;
  /** Shared by several loads (the Stop hook reads every scope): what they may read together. */
  budget?: LedgerBudget;
}

/**
 * How many ledger bytes one command reads, over every file and every load that shares the
 * budget, and what to call before each parse (the Stop hook's deadline check). Parsing is
 * linear, but a repository can hold any number of files at the per-file limit: past the
 * budget a command stops with exit 2 (the Stop hook blocks) instead of running for minutes.
 */
export interface LedgerBudget {
  bytesLeft: number;
  readonly total: number;
  checkpoint?: () => void;
}

/** The budget of a command that does not share one: four ledgers at the per-file limit. */
export const MAX_WORKSPACE_LEDGER_BYTES = 4 * 8 * 1024 * 1024;

export function ledgerBudget(total: number, checkpoint?: () => void): LedgerBudget {
  return checkpoint ? { bytesLeft: total, total, checkpoint } : { bytesLeft: total, total };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A ledger's name (its file name without the extension) is the STEM of every STEM:ID, which
 * is typed in pins, printed at the start of lines and in suggested shell commands, and read
 * by JSON schemas that split it at its one ':'. So it follows the gate-id rule: no ':', no
 * space, quote or shell character, nothing invisible or look-alike.
 */
export const LEDGER_STEM_PATTERN = GATE_ID_PATTERN;

export function ledgerStem(path: string): string {
  const name = basename(path);
  return name.slice(0, name.length - extname(name).length) || name;
}

export function decodeLedger(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** The scope GATE_CHECK_SCOPE names, if it names one (an empty value names none). */
export function environmentScope(env: NodeJS.ProcessEnv | undefined): string | undefined {
  const value = env?.[SCOPE_ENV];
  if (value === undefined || value === '') return undefined;
  try {
    checkScopeId(value);
  } catch (e) {
    throw new DiscoveryError(`${SCOPE_ENV}: ${(e as Error).message}`);
  }
  return value;
}

/** Several scopes, no root ledger and none chosen: the error that names them. */
export function refuseToGuess(scopes: readonly string[]): DiscoveryError {
  return new DiscoveryError(
    `${scopes.length} scopes present (${scopes.join(', ')}) and no root ledger; pass --scope ID or set ${SCOPE_ENV}. Refusing to guess.`,
    "'gate-check --list-scopes' lists them",
  );
}

/** Chooses the ledgers (DESIGN §4 and issue 12 §1): files, --scope, GATE_CHECK_SCOPE, root ledgers, the only scope. */
export function selectLedgers(root: Root, options: LoadOptions): { selection: Selection; locations: LedgerLocation[] } {
  if (options.files.length > 0) {
    if (options.scope !== undefined) throw new UsageError('--scope selects discovered ledgers; it cannot be combined with ledger files');
    return { selection: { kind: 'files' }, locations: locateExplicitLedgers(root, options.files, options.cwd) };
  }
  if (options.scope !== undefined) return { selection: { kind: 'scope', scope: options.scope, via: 'option' }, locations: discoverLedgers(root, options.scope) };
  if (options.env === undefined) return { selection: { kind: 'root', scopes: [] }, locations: discoverLedgers(root, undefined) };
  const fromEnv = environmentScope(options.env);
  if (fromEnv !== undefined) return { selection: { kind: 'scope', scope: fromEnv, via: 'environment' }, locations: discoverLedgers(root, fromEnv) };
  const scopes = listScopes(root);
  if (rootLedgerPaths(root).length > 0) return { selection: { kind: 'root', scopes }, locations: discoverLedgers(root, undefined) };
  if (scopes.length === 1) return { selection: { kind: 'scope', scope: scopes[0]!, via: 'only' }, locations: discoverLedgers(root, scopes[0]) };
  if (scopes.length > 1) throw refuseToGuess(scopes);
  return { selection: { kind: 'root', scopes: [] }, locations: discoverLedgers(root, undefined) };
}

/**
 * The scope a scope-only action (a lease, a wave) is for: --scope, GATE_CHECK_SCOPE, or the only
 * scope when there is no root ledger. Only the id is checked: the folder may be gone.
 */
export function chooseScopeId(root: Root, optionScope: string | undefined, env: NodeJS.ProcessEnv, action: string): string {
  if (optionScope !== undefined) {
    checkScopeId(optionScope);
    return optionScope;
  }
  const fromEnv = environmentScope(env);
  if (fromEnv !== undefined) return fromEnv;
  const scopes = listScopes(root);
  const rootLedgers = rootLedgerPaths(root).length > 0;
  if (!rootLedgers && scopes.length === 1) return scopes[0]!;
  if (!rootLedgers && scopes.length > 1) throw refuseToGuess(scopes);
  const here = scopes.length === 0 ? 'there are no scopes' : `scopes here: ${scopes.join(', ')}`;
  throw new UsageError(`${action} is for a scope: pass --scope ID or set ${SCOPE_ENV} (${here})`, 'see references/parallel.md');
}

/** Root and ledger files of a loaded workspace, for a failure's report. */
export function knownOf(ws: Workspace): KnownFacts {
  return { root: ws.root.path, files: ws.ledgers.map((l) => l.location.display) };
}

/** Loads the workspace, then runs `command` on it; a failure of the command carries the workspace's root and files. */
export async function inWorkspace<T>(options: LoadOptions, command: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = loadWorkspace(options);
  try {
    return await command(ws);
  } catch (e) {
    noteKnown(e, knownOf(ws));
    throw e;
  }
}

export function loadWorkspace(options: LoadOptions): Workspace {
  const root = resolveRoot(options.root, options.cwd, options.files);
  const known: KnownFacts = { root: root.path, files: [] };
  try {
    return loadLedgers(root, options, known);
  } catch (e) {
    noteKnown(e, known);
    throw e;
  }
}

function loadLedgers(root: Root, options: LoadOptions, known: KnownFacts): Workspace {
  const explicit = options.files.length > 0;
  const { selection, locations } = selectLedgers(root, options);
  known.files = locations.map((l) => l.display);

  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const ledgers: LoadedLedger[] = [];
  const stems = new Map<string, string>();
  const budget = options.budget ?? ledgerBudget(MAX_WORKSPACE_LEDGER_BYTES);
  for (const location of locations) {
    const stem = ledgerStem(location.path);
    if (!LEDGER_STEM_PATTERN.test(stem)) {
      errors.push({ file: location.display, message: `ledger name "${stem}" cannot qualify gate ids (STEM:ID): a ledger's file name without .md must match [A-Za-z0-9][A-Za-z0-9._-]*, like a gate id; rename the file` });
      continue;
    }
    const other = stems.get(stem);
    if (other !== undefined) {
      errors.push({ file: location.display, message: `ledger name ${stem} is also used by ${other}: qualified ids (${stem}:ID) would be ambiguous` });
      continue;
    }
    stems.set(stem, location.display);
    const directories = captureDirectoryChain(root.path, location.path);
    budget.checkpoint?.();
    const read = safeReadFile(location.path, MAX_LEDGER_BYTES, 'ledger');
    budget.bytesLeft -= read.bytes.length;
    if (budget.bytesLeft < 0) {
      throw new UnsafeFileError(
        location.path,
        `the ledgers read so far hold more than ${budget.total} bytes together, which is what one command reads (refused; nothing was parsed past this file)`,
        'keep the ledgers small: split finished work out of the repository, or remove generated gates',
      );
    }
    const source = decodeLedger(read.bytes);
    if (source === null) {
      errors.push({ file: location.display, message: 'ledger is not valid UTF-8' });
      continue;
    }
    const result = parseLedger(source, budget.checkpoint ? { checkpoint: budget.checkpoint } : {});
    const tag = (d: Diagnostic): Diagnostic => ({ ...d, file: location.display });
    // A loop, not push(...list): a list of a hundred thousand would overflow the stack.
    for (const w of result.ok ? result.ledger.warnings : result.warnings) warnings.push(tag(w));
    if (!result.ok) {
      for (const e of result.errors) errors.push(tag(e));
      continue;
    }
    ledgers.push({ location, stem, ledger: result.ledger, source, identity: read.identity, directories });
  }
  if (errors.length > 0) throw new ParseError(errors, warnings);
  return { root, explicit, ledgers, warnings, selection };
}
