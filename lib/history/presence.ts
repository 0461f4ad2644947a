// Whether a gate of the audit log is still in its ledger, so that `history` can mark the
// attempts of gates that were removed or renamed. Reads each named ledger once, through the
// safe reader; the log is hostile, so a ledger path that is absolute, climbs out of the
// repository or is not Markdown is never opened.
import { isAbsolute, join, normalize, sep } from 'node:path';
import { lstatOrNull, safeReadFile } from '../fsx/safe-read.js';
import { parseLedger } from '../ledger/parse.js';
import { decodeLedger, ledgerStem, MAX_LEDGER_BYTES } from '../workspace/load.js';

/**
 * present: the ledger has a gate of that id. removed: the ledger parses and has none.
 * ledger-gone: no file there. unknown: the ledger cannot be read or parsed now (nothing is claimed).
 */
export type Presence = 'present' | 'removed' | 'ledger-gone' | 'unknown';

/** A repository-relative Markdown path that stays inside the repository, else null. */
function insideRelative(file: string): string | null {
  if (file === '' || isAbsolute(file) || !file.endsWith('.md') || file.includes('\0')) return null;
  const n = normalize(file);
  return n === '..' || n.startsWith(`..${sep}`) ? null : n;
}

export class LedgerPresence {
  private readonly ids = new Map<string, Set<string> | 'ledger-gone' | 'unknown'>();

  constructor(private readonly root: string) {}

  /** The presence of `gate` (STEM:ID) in `file` (relative to the root). */
  of(file: string, gate: string): Presence {
    const rel = insideRelative(file);
    const colon = gate.lastIndexOf(':');
    if (rel === null || colon < 0 || gate.slice(0, colon) !== ledgerStem(rel)) return 'unknown';
    let known = this.ids.get(rel);
    if (known === undefined) this.ids.set(rel, (known = this.read(rel)));
    return typeof known === 'string' ? known : known.has(gate.slice(colon + 1)) ? 'present' : 'removed';
  }

  private read(rel: string): Set<string> | 'ledger-gone' | 'unknown' {
    const path = join(this.root, rel);
    try {
      if (lstatOrNull(path) === null) return 'ledger-gone';
      const source = decodeLedger(safeReadFile(path, MAX_LEDGER_BYTES, 'ledger').bytes);
      if (source === null) return 'unknown';
      const parsed = parseLedger(source);
      return parsed.ok ? new Set(parsed.ledger.gates.map((g) => g.id)) : 'unknown';
    } catch {
      return 'unknown'; // a link, a special file, too large: the label claims nothing
    }
  }
}
