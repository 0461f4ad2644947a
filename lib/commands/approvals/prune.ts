// gate-check approvals prune: remove approvals, across the whole store, whose ledger, gate,
// CHECK or EXPECT no longer exists. Never because of the environment (PATH, shell, timeout,
// CWD, DEPENDS contents): those can change back. Then the copies of approved DEPENDS files
// (approval/depends-copies.ts) that no approval left refers to.
import { lstatSync } from 'node:fs';
import { pruneCopies } from '../../approval/depends-copies.js';
import type { ApprovalRecord } from '../../approval/record.js';
import type { Io } from '../../program/io.js';
import { resolveRoot } from '../../fsx/discover.js';
import { storeLocations } from '../../store/locations.js';
import { safeReadFile } from '../../fsx/safe-read.js';
import { parseLedger } from '../../ledger/parse.js';
import type { Ledger } from '../../ledger/types.js';
import { shortSignature } from '../../oracle/oracle.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { decodeLedger, ledgerStem, MAX_LEDGER_BYTES } from '../../workspace/load.js';
import { invalidRecordsLine, nonEmpty, openExistingStore, plural, readAll, recordTime, removeRecords, uniqueRecords, type CommonOptions } from './shared.js';

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

export async function pruneApprovals(options: CommonOptions, io: Io): Promise<number> {
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
  if (all.invalid.length > 0) out.push(invalidRecordsLine(all.invalid));
  // A copy is kept while any approval left (of any repository) refers to it; an unreadable
  // record may refer to one too, so none is removed while one exists.
  if (all.invalid.length === 0) {
    const gone = options.dryRun ? new Set(doomed.map((d) => d.record)) : removed;
    const referenced = new Set(all.records.filter((r) => !gone.has(r)).flatMap((r) => (r.oracle.depends ?? []).map((d) => d[1])));
    const copies = pruneCopies(storeLocations(io.env), root.path, referenced, options.dryRun === true);
    if (copies > 0) out.push(`${options.dryRun ? 'would remove' : 'removed'} ${copies} ${copies === 1 ? 'copy' : 'copies'} of approved DEPENDS files that no approval refers to`);
  }
  const kept = records.length - count;
  out.push(options.dryRun ? `DRY RUN: would prune ${plural(count, 'approval')}, keep ${kept}; nothing was removed` : `PRUNED ${plural(count, 'approval')}; kept ${kept}`);
  io.stdout(out.join('\n') + '\n');
  return 0;
}
