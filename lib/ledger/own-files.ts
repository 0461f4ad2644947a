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
