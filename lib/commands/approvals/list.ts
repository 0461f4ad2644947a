// gate-check approvals list: each runnable gate with the approval state of the oracle a run
// with the same options would compute. Never creates the store.
import type { Gate } from '../../ledger/types.js';
import type { Io } from '../../program/io.js';
import { writableTree } from '../../fsx/repo-root.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../../program/run-options.js';
import { RunSetupError, UnsafeFileError, UsageError } from '../../errors.js';
import { changedFields, shortSignature, type Oracle } from '../../oracle/oracle.js';
import { formatDiagnostic } from '../../report/text.js';
import { sanitizeLine, terminalSafeJson } from '../../text/sanitize.js';
import { loadWorkspace } from '../../workspace/load.js';
import { runSettings } from '../settings.js';
import { checkFiles, nonEmpty, openExistingStore, plural, type CommonOptions } from './shared.js';

export const APPROVALS_SCHEMA = 'gate-check/approvals@1';

export interface ListOptions extends CommonOptions {
  shell?: string;
  timeout?: string;
  cwd?: string;
  json?: boolean;
}

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

function timeoutSeconds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const n = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 86400)) throw new UsageError(`--timeout takes a whole number from 1 to 86400, not "${sanitizeLine(raw, 40)}"`, "see 'gate-check approvals --help'");
  return n;
}

export async function listApprovals(files: string[], options: ListOptions, io: Io): Promise<number> {
  checkFiles(files);
  const root = nonEmpty('--root', options.root);
  const scope = nonEmpty('--scope', options.scope);
  const shellArg = nonEmpty('--shell', options.shell);
  const cwdArg = nonEmpty('--cwd', options.cwd);
  const seconds = timeoutSeconds(options.timeout);

  // Exactly the settings a run with these options would use (shared with runs and --status).
  const ws = loadWorkspace({ root, scope, files, cwd: io.cwd, env: io.env });
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
      const prev = store.previous(oracle.fields.ledger, gate.id, oracle.signature, oracle.fields.check, oracle.fields.expect, undefined, writableTree(ws.root.path));
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
