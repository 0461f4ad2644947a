// gate-check approvals list|revoke|prune: inspect and withdraw approvals. Only the approval
// store is touched, through ApprovalStore's safe primitives (no-follow reads, per-record
// locks, identity-checked directory); never a ledger write, never a command run. `list`
// never creates the store; an unsafe store is exit 2, exactly as in a run.
import { lstatSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { ApprovalStore, recordFileName } from '../approval/store.js';
import type { ApprovalRecord } from '../approval/record.js';
import type { Io } from '../cli/io.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../cli/options.js';
import { parseSubcommand, subcommandProgram } from '../cli/subcommand-program.js';
import { RunSetupError, UnsafeFileError, UsageError } from '../errors.js';
import { displayPath, isInside, resolveRoot, type Root } from '../fsx/discover.js';
import { lockTimeoutFromEnv } from '../fsx/lock.js';
import { openPrivateDir } from '../fsx/private-dir.js';
import { safeReadFile } from '../fsx/safe-read.js';
import { parseLedger } from '../ledger/parse.js';
import type { Gate, Ledger } from '../ledger/types.js';
import { changedFields, shortSignature, type Oracle } from '../oracle/oracle.js';
import { formatDiagnostic } from '../report/text.js';
import { storeLocations } from '../store/locations.js';
import { sanitizeLine, terminalSafeJson } from '../text/sanitize.js';
import { decodeLedger, ledgerStem, loadWorkspace, MAX_LEDGER_BYTES, type LoadedLedger, type Workspace } from '../workspace/load.js';
import { runSettings } from './settings.js';

export const APPROVALS_SCHEMA = 'gate-check/approvals@1';

interface CommonOptions {
  root?: string;
  scope?: string;
  dryRun?: boolean;
}

interface ListOptions extends CommonOptions {
  shell?: string;
  timeout?: string;
  cwd?: string;
  json?: boolean;
}

interface RevokeOptions extends CommonOptions {
  all?: boolean;
}

type Chosen =
  | { name: 'list'; files: string[]; options: ListOptions }
  | { name: 'revoke'; targets: string[]; options: RevokeOptions }
  | { name: 'prune'; options: CommonOptions };

const HELP_AFTER = `
Only the approval store (~/.gate-check/approved or $GATE_CHECK_APPROVAL_DIR) is touched: no
ledger is written and no command is run; the store is never created here. An unsafe store
stops with exit 2, as in a run. prune never removes an approval because of the environment
(PATH, shell, timeout, CWD, DEPENDS contents): those can change back.
Exit codes: 0 done; 2 usage, parse or store failure (an unknown gate id removes nothing).
`;

function nonEmpty(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === '' || raw.includes('\u0000')) throw new UsageError(`${flag} needs a non-empty value`, "see 'gate-check approvals --help'");
  return raw;
}

function timeoutSeconds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const n = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 86400)) throw new UsageError(`--timeout takes a whole number from 1 to 86400, not "${sanitizeLine(raw, 40)}"`, "see 'gate-check approvals --help'");
  return n;
}

function checkFiles(files: readonly string[]): void {
  for (const f of files) if (f === '' || f.includes('\u0000')) throw new UsageError('empty ledger file name');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function buildProgram(): { program: Command; output: () => string; chosen: () => Chosen | null; subHelp: () => string | null } {
  const { program, output } = subcommandProgram('approvals', 'Inspect and withdraw approvals of CHECK commands (only the approval store is touched).');
  let chosen: Chosen | null = null;
  let subHelp: string | null = null;
  program.addHelpText('after', HELP_AFTER);

  const list = program
    .command('list')
    .description('show each runnable gate with the approval state of the oracle a run with the same options would compute')
    .argument('[file...]', 'ledger files (default: GATES.md and gates/*.md under --root)')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .option('--scope <id>', 'use the ledgers of .gate-check/<id>/')
    .option('--shell <path>', 'the shell a run would use (default: $GATE_CHECK_SHELL, then /bin/sh)')
    .option('--timeout <seconds>', `the per-check timeout a run would use (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option('--cwd <dir>', 'the default working directory a run would use')
    .option('--json', `print one JSON document (schema ${APPROVALS_SCHEMA})`)
    .action((files: string[], options: ListOptions) => {
      chosen = { name: 'list', files, options };
    });

  const revoke = program
    .command('revoke')
    .description('remove the approvals of these gates (every signature), or with --all of every ledger in this repository')
    .argument('[target...]', 'gate ids (STEM:ID, or ID when unique) and ledger files (a path with "/" or ending in .md)')
    .option('--all', 'every approval of a ledger inside --root (with files or --scope: every approval of those ledgers)')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .option('--scope <id>', 'use the ledgers of .gate-check/<id>/')
    .option('--dry-run', 'show what would be removed; remove nothing')
    .action((targets: string[], options: RevokeOptions) => {
      chosen = { name: 'revoke', targets, options };
    });

  const prune = program
    .command('prune')
    .description('remove approvals, across the whole store, whose ledger, gate, CHECK or EXPECT no longer exists')
    .option('--root <dir>', 'the repository the store must lie outside of (default: the current directory)')
    .option('--dry-run', 'show what would be removed; remove nothing')
    .action((options: CommonOptions) => {
      chosen = { name: 'prune', options };
    });

  for (const sub of [list, revoke, prune]) {
    sub.helpOption('-h, --help', 'show this help');
    // parseSubcommand silences a subcommand's own output; keep its help text to print it.
    sub.on('afterHelp', () => {
      subHelp = sub.helpInformation();
    });
  }
  return { program, output, chosen: () => chosen, subHelp: () => subHelp };
}

export async function approvalsCommand(args: string[], io: Io): Promise<number> {
  if (args.length === 0) throw new UsageError('gate-check approvals needs a subcommand: list, revoke or prune', "see 'gate-check approvals --help'");
  const built = buildProgram();
  const parsed = parseSubcommand<Record<string, never>>(built.program, built.output, args);
  if (parsed.kind === 'done') {
    io.stdout(built.subHelp() ?? parsed.output);
    return 0;
  }
  const chosen = built.chosen();
  if (chosen === null) throw new UsageError('gate-check approvals needs a subcommand: list, revoke or prune', "see 'gate-check approvals --help'");
  switch (chosen.name) {
    case 'list':
      return listApprovals(chosen.files, chosen.options, io);
    case 'revoke':
      return revokeApprovals(chosen.targets, chosen.options, io);
    case 'prune':
      return pruneApprovals(chosen.options, io);
  }
}

// ---------------------------------------------------------------------------------------
// The store, opened without ever creating it.

interface OpenedStore {
  /** Null when the store directory does not exist yet (then there is nothing in it). */
  store: ApprovalStore | null;
  path: string;
}

function existsNoFollow(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    // Anything else (permission, a parent that is not a directory) is for open() to refuse.
    return true;
  }
}

/** Opens the approval store read-only-safe: never created, every check of a run applies. */
function openExistingStore(io: Io, root: Root): OpenedStore {
  const locations = storeLocations(io.env);
  if (!existsNoFollow(locations.approvals)) {
    // The base directory, when it exists, must still be safe (a run would refuse it).
    if (locations.approvalsUnderBase && existsNoFollow(locations.base)) openPrivateDir(locations.base, { repoRoot: root.path, create: false });
    return { store: null, path: resolve(locations.approvals) };
  }
  const store = ApprovalStore.open(locations, root.path, false);
  store.verify();
  return { store, path: store.dir.path };
}

/** Every valid record, and the names of the ones the store reports as invalid. */
function readAll(store: ApprovalStore): { records: ApprovalRecord[]; invalid: string[] } {
  store.verify();
  const all = store.all();
  // all() reports a record it cannot read as invalid; a replaced directory must stop us.
  store.verify();
  return all;
}

function fileNameOf(r: ApprovalRecord): string {
  return recordFileName(r.oracle.ledger, r.oracle.gate, r.signature);
}

/** One record per file name (a copy under another name is not an approval anyway). */
function uniqueRecords(records: readonly ApprovalRecord[]): ApprovalRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const name = fileNameOf(r);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

/**
 * Removes records, each under its lock; one already gone (removed concurrently, or a copy
 * under another name) is not an error. Returns the records that were removed.
 */
async function removeRecords(store: ApprovalStore, records: readonly ApprovalRecord[], io: Io): Promise<Set<ApprovalRecord>> {
  const lockTimeoutMs = lockTimeoutFromEnv(io.env);
  const removed = new Set<ApprovalRecord>();
  store.verify();
  for (const r of records) {
    try {
      await store.remove(r, lockTimeoutMs);
      removed.add(r);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      if (removed.size > 0) io.stderr(`gate-check: stopped after removing ${plural(removed.size, 'approval')} of ${records.length}\n`);
      throw e;
    }
  }
  store.verify();
  return removed;
}

function recordTime(r: ApprovalRecord): string {
  return sanitizeLine(r.approvedAt, 40);
}

// ---------------------------------------------------------------------------------------
// list

type ListState = 'current' | 'other' | 'none' | 'unresolvable';

interface ListEntry {
  file: string;
  line: number;
  id: string;
  qualified: string;
  state: ListState;
  signature: string | null;
  approvedAt: string | null;
  changed: string[] | null;
  reason: string | null;
}

async function listApprovals(files: string[], options: ListOptions, io: Io): Promise<number> {
  checkFiles(files);
  const root = nonEmpty('--root', options.root);
  const scope = nonEmpty('--scope', options.scope);
  const shellArg = nonEmpty('--shell', options.shell);
  const cwdArg = nonEmpty('--cwd', options.cwd);
  const seconds = timeoutSeconds(options.timeout);

  // Exactly the settings a run with these options would use (shared with runs and --status).
  const ws = loadWorkspace({ root, scope, files, cwd: io.cwd });
  const { resolver } = runSettings({ shell: shellArg, cwd: cwdArg, timeoutSeconds: seconds }, io, ws);

  const entries: { gate: Gate; entry: ListEntry; oracle: Oracle | null }[] = [];
  for (const loaded of ws.ledgers) {
    for (const gate of loaded.ledger.gates) {
      if (gate.kind !== 'runnable') continue;
      const entry: ListEntry = {
        file: loaded.location.display,
        line: gate.line,
        id: gate.id,
        qualified: `${loaded.stem}:${gate.id}`,
        state: 'none',
        signature: null,
        approvedAt: null,
        changed: null,
        reason: null,
      };
      let oracle: Oracle | null = null;
      try {
        oracle = await resolver.resolve(loaded, gate);
        entry.signature = oracle.signature;
      } catch (e) {
        if (!(e instanceof RunSetupError) && !(e instanceof UnsafeFileError)) throw e;
        entry.state = 'unresolvable';
        entry.reason = e.message;
      }
      entries.push({ gate, entry, oracle });
    }
  }

  const opened = openExistingStore(io, ws.root);
  const store = opened.store;
  if (store) {
    store.verify();
    for (const { gate, entry, oracle } of entries) {
      if (!oracle) continue;
      const current = store.find(oracle);
      if (current) {
        entry.state = 'current';
        entry.approvedAt = current.approvedAt;
        continue;
      }
      const prev = store.previous(oracle.fields.ledger, gate.id, oracle.signature, oracle.fields.check, oracle.fields.expect);
      if (prev) {
        entry.state = 'other';
        entry.approvedAt = prev.approvedAt;
        entry.changed = changedFields(prev.oracle, oracle.fields);
      }
    }
    store.verify();
  }

  const list = entries.map((e) => e.entry);
  if (options.json) {
    io.stdout(terminalSafeJson({ schema: APPROVALS_SCHEMA, root: ws.root.path, store: opened.path, storeExists: store !== null, gates: list }) + '\n');
    return 0;
  }
  const out: string[] = ws.warnings.map((w) => formatDiagnostic(w, 'warning'));
  const width = Math.min(40, Math.max(0, ...list.map((e) => Array.from(sanitizeLine(e.qualified, 80)).length)));
  for (const e of list) {
    const id = sanitizeLine(e.qualified, 80).padEnd(width);
    const sig = e.signature ? shortSignature(e.signature) : '-'.padEnd(12);
    switch (e.state) {
      case 'current':
        out.push(`${id}  current       ${sig}  approved ${sanitizeLine(e.approvedAt ?? '', 40)}`);
        break;
      case 'other':
        out.push(`${id}  other         ${sig}  approved ${sanitizeLine(e.approvedAt ?? '', 40)} for another oracle: ${sanitizeLine((e.changed ?? []).join(', ') || 'no field differs', 400)}`);
        break;
      case 'none':
        out.push(`${id}  none          ${sig}  never approved`);
        break;
      case 'unresolvable':
        out.push(`${id}  unresolvable  ${sig}  ${sanitizeLine(e.reason ?? '', 400)}`);
        break;
    }
  }
  const count = (s: ListState) => list.filter((e) => e.state === s).length;
  if (list.length === 0) out.push('no runnable gates');
  else out.push(`${plural(list.length, 'runnable gate')}: ${count('current')} current, ${count('other')} other, ${count('none')} none, ${count('unresolvable')} unresolvable`);
  if (!store) out.push(`(no approval store yet: ${sanitizeLine(opened.path, 300)})`);
  io.stdout(out.join('\n') + '\n');
  return 0;
}

// ---------------------------------------------------------------------------------------
// revoke

/** A positional of revoke: a path (has a separator, or ends in .md without a colon) or a gate id. */
function isFileArgument(arg: string): boolean {
  if (arg.includes('/') || (sep !== '/' && arg.includes(sep))) return true;
  if (arg.includes(':')) return false;
  return /\.md$/i.test(arg);
}

interface GateTarget {
  ledger: string;
  gate: string;
  /** STEM:ID as shown. */
  label: string;
  /** The ledger as shown (relative to the root). */
  display: string;
}

function targetKey(ledger: string, gate: string): string {
  return `${ledger}\u0000${gate}`;
}

async function revokeApprovals(targets: string[], options: RevokeOptions, io: Io): Promise<number> {
  const rootArg = nonEmpty('--root', options.root);
  const scope = nonEmpty('--scope', options.scope);
  const files = targets.filter(isFileArgument);
  const ids = targets.filter((t) => !isFileArgument(t));
  checkFiles(files);
  for (const id of ids) if (id === '' || id.includes('\u0000')) throw new UsageError('empty gate id');
  if (options.all && ids.length > 0) throw new UsageError(`revoke takes gate ids or --all, not both (got ${sanitizeLine(ids.join(', '), 200)})`, "see 'gate-check approvals revoke --help'");
  if (!options.all && ids.length === 0) throw new UsageError('revoke needs gate ids (STEM:ID or ID) or --all', "see 'gate-check approvals revoke --help'");
  if (files.length > 0 && scope !== undefined) throw new UsageError('--scope selects discovered ledgers; it cannot be combined with ledger files');

  // --all alone never reads a ledger: approvals of a deleted or broken ledger go too.
  const rootWide = options.all === true && files.length === 0 && scope === undefined;
  const ws: Workspace | null = rootWide ? null : loadWorkspace({ root: rootArg, scope, files, cwd: io.cwd });
  const root = ws ? ws.root : resolveRoot(rootArg, io.cwd);

  const opened = openExistingStore(io, root);
  const all = opened.store ? readAll(opened.store) : { records: [], invalid: [] };
  const records = uniqueRecords(all.records);

  // Which (ledger, gate) pairs go, in display order.
  const chosen = new Map<string, GateTarget>();
  const byLedger = new Map<string, LoadedLedger>(ws ? ws.ledgers.map((l) => [l.location.path, l]) : []);
  const pairLabel = (ledger: string, gate: string): GateTarget => {
    const loaded = byLedger.get(ledger);
    const stem = loaded ? loaded.stem : ledgerStem(ledger);
    const display = loaded ? loaded.location.display : isInside(root.path, ledger) ? displayPath(root, ledger) : ledger;
    return { ledger, gate, label: `${stem}:${gate}`, display };
  };
  if (options.all) {
    const inScope = (ledger: string) => (rootWide ? isInside(root.path, ledger) : byLedger.has(ledger));
    for (const r of records) {
      if (!inScope(r.oracle.ledger)) continue;
      const key = targetKey(r.oracle.ledger, r.oracle.gate);
      if (!chosen.has(key)) chosen.set(key, pairLabel(r.oracle.ledger, r.oracle.gate));
    }
  } else {
    // Known gates: those in the ledgers in scope, and those the store still holds approvals
    // of for these ledgers (a gate renamed since it was approved can still be revoked).
    const known = new Map<string, GateTarget>();
    for (const l of ws!.ledgers) for (const g of l.ledger.gates) known.set(targetKey(l.location.path, g.id), pairLabel(l.location.path, g.id));
    for (const r of records) {
      if (!byLedger.has(r.oracle.ledger)) continue;
      const key = targetKey(r.oracle.ledger, r.oracle.gate);
      if (!known.has(key)) known.set(key, pairLabel(r.oracle.ledger, r.oracle.gate));
    }
    const unknown: string[] = [];
    for (const id of ids) {
      const colon = id.lastIndexOf(':');
      const matches = [...known.entries()].filter(([, t]) => (colon >= 0 ? t.label === id : t.gate === id));
      if (matches.length === 0) {
        unknown.push(id);
        continue;
      }
      if (colon < 0 && new Set(matches.map(([, t]) => t.ledger)).size > 1) {
        throw new UsageError(`${sanitizeLine(id, 80)} names gates in several ledgers; qualify it (${sanitizeLine(matches.map(([, t]) => t.label).join(', '), 300)}); nothing was removed`);
      }
      for (const [key, t] of matches) chosen.set(key, t);
    }
    if (unknown.length > 0) {
      const names = ws!.ledgers.map((l) => l.location.display).join(', ');
      throw new UsageError(
        `no gate ${sanitizeLine(unknown.join(', '), 200)} in ${sanitizeLine(names, 200)}; nothing was removed`,
        "gate ids are STEM:ID or a plain ID that is unique; 'gate-check approvals list' shows them",
      );
    }
  }

  const doomed = records.filter((r) => chosen.has(targetKey(r.oracle.ledger, r.oracle.gate)));
  const removed = options.dryRun || !opened.store ? new Set<ApprovalRecord>() : await removeRecords(opened.store, doomed, io);

  const out: string[] = [];
  const verb = options.dryRun ? 'would revoke' : 'revoked';
  let total = 0;
  for (const [key, t] of chosen) {
    const mine = doomed.filter((r) => targetKey(r.oracle.ledger, r.oracle.gate) === key);
    const n = options.dryRun ? mine.length : mine.filter((r) => removed.has(r)).length;
    total += n;
    const where = `(${sanitizeLine(t.display, 200)})`;
    out.push(n === 0 ? `no approvals of ${sanitizeLine(t.label, 120)} ${where}` : `${verb} ${sanitizeLine(t.label, 120)} ${where}: ${plural(n, 'approval')}`);
  }
  const gates = [...chosen.values()].filter((t) => doomed.some((r) => targetKey(r.oracle.ledger, r.oracle.gate) === targetKey(t.ledger, t.gate))).length;
  if (!opened.store) out.push(`no approval store yet (${sanitizeLine(opened.path, 300)}): nothing to revoke`);
  else if (options.dryRun) out.push(`DRY RUN: would revoke ${plural(total, 'approval')} of ${plural(gates, 'gate')}; nothing was removed`);
  else out.push(`REVOKED ${plural(total, 'approval')} of ${plural(gates, 'gate')}`);
  if (all.invalid.length > 0) out.push(`left alone: ${plural(all.invalid.length, 'invalid record')} (${sanitizeLine(all.invalid.join(', '), 600)}); inspect and remove by hand`);
  io.stdout(out.join('\n') + '\n');
  return 0;
}

// ---------------------------------------------------------------------------------------
// prune

type LedgerLook = { kind: 'gone' } | { kind: 'unreadable'; reason: string } | { kind: 'ok'; ledger: Ledger };

/** Reads a ledger a record names, without following links; never written. */
function lookAtLedger(path: string): LedgerLook {
  try {
    lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    return { kind: 'unreadable', reason: `cannot inspect (${code ?? (e as Error).message})` };
  }
  let text: string | null;
  try {
    text = decodeLedger(safeReadFile(path, MAX_LEDGER_BYTES, 'ledger').bytes);
  } catch (e) {
    return { kind: 'unreadable', reason: (e as Error).message.replace(`${path}: `, '') };
  }
  if (text === null) return { kind: 'unreadable', reason: 'ledger is not valid UTF-8' };
  const parsed = parseLedger(text);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    return { kind: 'unreadable', reason: `ledger does not parse (${plural(parsed.errors.length, 'error')}${first ? `; line ${first.line ?? '?'}: ${first.message}` : ''})` };
  }
  return { kind: 'ok', ledger: parsed.ledger };
}

/** Why a record can never be an approval again, or null when it still could be. */
function pruneReason(r: ApprovalRecord, look: LedgerLook): string | null {
  if (look.kind === 'gone') return 'ledger no longer exists';
  if (look.kind !== 'ok') return null;
  const gate = look.ledger.gates.find((g) => g.id === r.oracle.gate);
  if (!gate) return 'gate no longer in the ledger';
  if (gate.kind !== 'runnable' || gate.check === null || gate.expectRaw === null) return 'gate is no longer runnable';
  const changed: string[] = [];
  if (gate.check !== r.oracle.check) changed.push('CHECK changed');
  if (gate.expectRaw !== r.oracle.expect) changed.push('EXPECT changed');
  return changed.length > 0 ? changed.join(', ') : null;
}

async function pruneApprovals(options: CommonOptions, io: Io): Promise<number> {
  const root = resolveRoot(nonEmpty('--root', options.root), io.cwd);
  const opened = openExistingStore(io, root);
  if (!opened.store) {
    io.stdout(`no approval store yet (${sanitizeLine(opened.path, 300)}): nothing to prune\n`);
    return 0;
  }
  const all = readAll(opened.store);
  const records = uniqueRecords(all.records);

  const looks = new Map<string, LedgerLook>();
  const doomed: { record: ApprovalRecord; reason: string }[] = [];
  for (const r of records) {
    let look = looks.get(r.oracle.ledger);
    if (!look) {
      look = lookAtLedger(r.oracle.ledger);
      looks.set(r.oracle.ledger, look);
    }
    const reason = pruneReason(r, look);
    if (reason !== null) doomed.push({ record: r, reason });
  }
  const removed = options.dryRun ? new Set<ApprovalRecord>() : await removeRecords(opened.store, doomed.map((d) => d.record), io);

  const out: string[] = [];
  const verb = options.dryRun ? 'would prune' : 'pruned';
  let count = 0;
  for (const { record: r, reason } of doomed) {
    if (!options.dryRun && !removed.has(r)) continue;
    count += 1;
    out.push(`${verb} ${sanitizeLine(`${ledgerStem(r.oracle.ledger)}:${r.oracle.gate}`, 120)}@${shortSignature(r.signature)}  ${sanitizeLine(r.oracle.ledger, 300)}  approved ${recordTime(r)}: ${reason}`);
  }
  for (const [ledger, look] of looks) {
    if (look.kind !== 'unreadable') continue;
    const n = records.filter((r) => r.oracle.ledger === ledger).length;
    out.push(`kept ${plural(n, 'approval')} of ${sanitizeLine(ledger, 300)}: ${sanitizeLine(look.reason, 300)}`);
  }
  if (all.invalid.length > 0) out.push(`left alone: ${plural(all.invalid.length, 'invalid record')} (${sanitizeLine(all.invalid.join(', '), 600)}); inspect and remove by hand`);
  const kept = records.length - count;
  out.push(options.dryRun ? `DRY RUN: would prune ${plural(count, 'approval')}, keep ${kept}; nothing was removed` : `PRUNED ${plural(count, 'approval')}; kept ${kept}`);
  io.stdout(out.join('\n') + '\n');
  return 0;
}
