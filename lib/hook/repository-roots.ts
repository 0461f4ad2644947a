// The directories below a repository's top level whose ledgers held a Stop-hook session (a
// package of a monorepo with its own GATES.md). The hook looks for ledgers from the
// session's directory up to the top level; without this list, a session that moved up (or to
// a sibling folder) would no longer see the package's ledgers, its memory or its baseline,
// and a stop blocked one moment earlier would be let through (round-21 F1). Every root on
// the list is checked again from anywhere in the repository: that only adds gates.
//
// <store>/hooks/roots-<16 hex of the top level>.json = {"root": <top level>, "roots": [...]}
// (remembered-list.ts). Never pruned by the hook: a root that holds nothing any more adds
// nothing; `gate-check hook forget` at the top level forgets it, with its ledgers' memory.
import type { StoreLocations } from '../store/locations.js';
import { readList, removeList, writeList, type ListKind } from './remembered-list.js';

/** How many roots a repository's list keeps (each costs a look at every stop). */
export const MAX_REMEMBERED_ROOTS = 64;

/** Strictly below the top level, absolute, without `.` or `..` segments. */
function below(item: string, top: string): boolean {
  if (!item.startsWith(`${top === '/' ? '' : top}/`) || item.length <= top.length + 1) return false;
  return !item.split('/').some((seg, i) => i > 0 && (seg === '' || seg === '.' || seg === '..'));
}

const ROOTS: ListKind = { prefix: 'roots', key: 'roots', what: "memory of the repository's ledger roots", max: MAX_REMEMBERED_ROOTS, valid: below };

/** The remembered roots below `top`; [] when none. Creates nothing. */
export function readRepositoryRoots(locations: StoreLocations, top: string): string[] {
  return readList(ROOTS, locations, top) ?? [];
}

/** Adds `roots` (those below `top`) to what is remembered; writes only when something is new. */
export async function rememberRepositoryRoots(locations: StoreLocations, top: string, known: readonly string[], roots: readonly string[], lockTimeoutMs: number): Promise<void> {
  const fresh = roots.filter((r) => below(r, top) && !known.includes(r));
  if (fresh.length === 0 || known.length >= MAX_REMEMBERED_ROOTS) return;
  await writeList(ROOTS, locations, top, [...known, ...fresh], known.length === 0 ? null : known, lockTimeoutMs);
}

/** Removes the list of `top` (gate-check hook forget); false when there was none. */
export function forgetRepositoryRoots(locations: StoreLocations, top: string, lockTimeoutMs: number): Promise<boolean> {
  return removeList(ROOTS, locations, top, lockTimeoutMs);
}
