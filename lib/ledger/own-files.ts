// The files gate-check itself writes inside a repository, by path alone: the ledgers where
// discovery finds them (GATES.md, gates/*.md, .gate-check/<scope>/*.md), their lock files,
// and the temporary files written beside them. A DEPENDS or INPUTS glob leaves them out:
// every run rewrites a ledger's evidence, so a glob that matched one (`INPUTS: **/*.md`)
// would make its own gate stale, or ask for approval again, after every pass. Decided by the
// path only, so that the writer of evidence and every reader, from any root, agree. Pure.

/** A gate-check temporary file beside a ledger or its lock: `.GATES.md.gate-check-<pid>-<hex>.tmp`. */
const TEMP_BESIDE_LEDGER = /^\.[^/]*\.md(?:\.lock)?\.gate-check-\d+-[0-9a-f]+\.tmp$/;
const LEDGER_NAME = /^[^./][^/]*\.md$/;
const SCOPE_DIR = /^\.gate-check\/[^/]+\/$/;

/** Whether the repository-relative `rel` is a ledger, a ledger's lock, or a temporary file gate-check writes beside them. */
export function isLedgerOwnFile(rel: string): boolean {
  const slash = rel.lastIndexOf('/');
  const dir = rel.slice(0, slash + 1);
  const name = rel.slice(slash + 1);
  if (dir !== '' && dir !== 'gates/' && !SCOPE_DIR.test(dir)) return false;
  if (TEMP_BESIDE_LEDGER.test(name)) return true;
  const ledger = name.endsWith('.lock') ? name.slice(0, -'.lock'.length) : name;
  return dir === '' ? ledger === 'GATES.md' : LEDGER_NAME.test(ledger);
}

/**
 * The files of these ledgers only (repository-relative paths, wherever they lie): each ledger,
 * its lock, and the temporary files gate-check writes beside them. `--assert-clean` leaves out
 * exactly these: a check that writes any other ledger still changed the working tree.
 */
export function filesOfLedgers(ledgers: readonly string[]): (rel: string) => boolean {
  const own = new Set<string>();
  for (const rel of ledgers) {
    own.add(rel);
    own.add(`${rel}.lock`);
  }
  return (rel) => {
    if (own.has(rel)) return true;
    const slash = rel.lastIndexOf('/');
    const name = rel.slice(slash + 1);
    if (!TEMP_BESIDE_LEDGER.test(name)) return false;
    // `.NAME.md[.lock].gate-check-…` beside NAME.md: the ledger it belongs to.
    const owner = rel.slice(0, slash + 1) + name.slice(1, name.indexOf('.gate-check-')).replace(/\.lock$/, '');
    return own.has(owner);
  };
}
