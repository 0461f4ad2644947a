// Loads the ledgers a command works on: locate (discovery or explicit files), read safely,
// decode strictly, parse. Every parse error of every file is collected before failing.
import { basename, extname } from 'node:path';
import { ParseError, UsageError, type Diagnostic } from '../errors.js';
import { captureDirectoryChain, type DirectoryChain } from '../fsx/dir-chain.js';
import { discoverLedgers, locateExplicitLedgers, resolveRoot, type LedgerLocation, type Root } from '../fsx/discover.js';
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
}

export interface LoadOptions {
  root?: string | undefined;
  scope?: string | undefined;
  files: readonly string[];
  cwd: string;
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

export function loadWorkspace(options: LoadOptions): Workspace {
  const root = resolveRoot(options.root, options.cwd);
  const explicit = options.files.length > 0;
  if (explicit && options.scope !== undefined) throw new UsageError('--scope selects discovered ledgers; it cannot be combined with ledger files');
  const locations = explicit ? locateExplicitLedgers(root, options.files, options.cwd) : discoverLedgers(root, options.scope);

  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const ledgers: LoadedLedger[] = [];
  const stems = new Map<string, string>();
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
    const read = safeReadFile(location.path, MAX_LEDGER_BYTES, 'ledger');
    const source = decodeLedger(read.bytes);
    if (source === null) {
      errors.push({ file: location.display, message: 'ledger is not valid UTF-8' });
      continue;
    }
    const result = parseLedger(source);
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
  return { root, explicit, ledgers, warnings };
}
