// Every ledger of one directory as the Stop hook reads it: the root ledgers (GATES.md, gates/)
// and every scope's (.gate-check/<scope>/*.md). An empty or decoy scope directory hides
// nothing, and a symlinked .gate-check or scope is loaded so that loading refuses it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { lstatOrNull } from '../fsx/safe-read.js';
import { loadWorkspace, type LedgerBudget, type LoadedLedger, type Workspace } from '../workspace/load.js';

/** Ledger bytes one Stop-hook call reads, over every repository and scope: two ledgers at the per-file limit. */
export const HOOK_LEDGER_BYTES = 16 * 1024 * 1024;

const SCOPE_DISPLAY = /^\.gate-check\/([^/]+)\//;

/** The scope whose folder holds a ledger (from its display path), or null for GATES.md and gates/. */
export function scopeOf(ledger: LoadedLedger): string | null {
  return SCOPE_DISPLAY.exec(ledger.location.display)?.[1] ?? null;
}

/** Root ledgers plus every scope's; null when the directory holds none. */
export function loadHookLedgers(root: string, cwd: string, checkpoint: () => void, budget: LedgerBudget): Workspace | null {
  const hasRootLedger = lstatOrNull(join(root, 'GATES.md')) !== null || lstatOrNull(join(root, 'gates')) !== null;
  const scopes: string[] = [];
  const scopeBase = join(root, '.gate-check');
  const st = lstatOrNull(scopeBase);
  if (st?.isDirectory()) {
    for (const e of readdirSync(scopeBase, { withFileTypes: true })) if (!e.name.startsWith('.')) scopes.push(e.name);
  } else if (st?.isSymbolicLink()) {
    loadWorkspace({ root, scope: 'x', files: [], cwd, budget }); // throws: symlinked .gate-check
  }
  const parts: Workspace[] = [];
  if (hasRootLedger) parts.push(loadWorkspace({ root, files: [], cwd, budget }));
  for (const scope of scopes.sort()) {
    checkpoint();
    const dir = lstatOrNull(join(scopeBase, scope));
    if (dir?.isDirectory() && readdirSync(join(scopeBase, scope)).some((n) => n.endsWith('.md') && !n.startsWith('.'))) {
      parts.push(loadWorkspace({ root, scope, files: [], cwd, budget }));
    } else if (!dir?.isDirectory()) {
      parts.push(loadWorkspace({ root, scope, files: [], cwd, budget })); // a symlinked scope throws
    }
  }
  if (parts.length === 0) return null;
  return { root: parts[0]!.root, explicit: false, ledgers: parts.flatMap((p) => p.ledgers), warnings: parts.flatMap((p) => p.warnings) };
}
