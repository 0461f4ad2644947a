// Every ledger of a working tree, as discovery finds them: the root ledgers (GATES.md,
// gates/*.md) and each scope's (.gate-check/<scope>/*.md), or one scope's. Each part is
// loaded with loadWorkspace, so every refusal of discovery and loading applies; a part with
// no ledger is empty, not an error, because a pull request may delete it. Parse errors of
// every part are collected before failing.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DiscoveryError, ParseError, UsageError, type Diagnostic } from '../errors.js';
import { resolveRoot, SCOPE_PATTERN, type Root } from '../fsx/discover.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import type { SnapshotLedger } from '../ledger/compare.js';
import { loadWorkspace } from './load.js';

export interface TreeLedgers {
  root: Root;
  ledgers: SnapshotLedger[];
  warnings: Diagnostic[];
}

function hasMarkdown(dir: string): boolean {
  return readdirSync(dir).some((n) => n.endsWith('.md') && !n.startsWith('.'));
}

export function loadTreeLedgers(rootArg: string | undefined, scope: string | undefined, cwd: string): TreeLedgers {
  if (scope !== undefined && !SCOPE_PATTERN.test(scope)) throw new UsageError(`invalid scope id "${scope}": scope ids match [A-Za-z0-9][A-Za-z0-9._-]{0,63}`);
  const root = resolveRoot(rootArg, cwd);
  const parts: (string | null)[] = [];
  if (scope === undefined) {
    const gatesMd = lstatOrNull(join(root.path, 'GATES.md'));
    const gates = lstatOrNull(join(root.path, 'gates'));
    // A symlinked or odd GATES.md or gates/ is loaded, so that discovery refuses it.
    if (gatesMd !== null || (gates !== null && (!gates.isDirectory() || hasMarkdown(join(root.path, 'gates'))))) parts.push(null);
  }
  const base = join(root.path, '.gate-check');
  const st = lstatOrNull(base);
  if (st !== null) {
    if (st.isSymbolicLink()) throw new DiscoveryError('.gate-check is a symbolic link (refused: ledgers are read only from inside the repository)');
    if (!st.isDirectory()) throw new DiscoveryError('.gate-check is not a directory');
    for (const e of readdirSync(base, { withFileTypes: true })) {
      if (e.name.startsWith('.') || (scope !== undefined && e.name !== scope)) continue;
      if (e.isFile()) continue; // a plain file holds no ledgers
      if (!e.isDirectory()) throw new DiscoveryError(`.gate-check/${e.name} is ${e.isSymbolicLink() ? 'a symbolic link' : 'not a directory'} (refused)`);
      if (hasMarkdown(join(base, e.name))) parts.push(e.name);
    }
  }

  const ledgers: SnapshotLedger[] = [];
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  for (const part of parts.sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0))) {
    try {
      const ws = loadWorkspace({ root: root.path, scope: part ?? undefined, files: [], cwd });
      for (const w of ws.warnings) warnings.push(w);
      for (const l of ws.ledgers) ledgers.push({ file: l.location.display, scope: part, ledger: l.ledger });
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      for (const d of e.diagnostics) errors.push(d);
      for (const w of e.warnings) warnings.push(w);
    }
  }
  if (errors.length > 0) throw new ParseError(errors, warnings);
  return { root, ledgers, warnings };
}
