// What the Stop hook remembers about a repository across sessions: which of its ledgers had
// open gates the last time it looked. A ledger on that list that is gone (removed, moved
// out of discovery, renamed) blocks every later stop, in any session, until it is back or a
// person runs `gate-check hook forget`: removing a ledger does not meet its gates. A ledger
// whose gates were all met when last seen may go.
//
// <store>/hooks/ledgers-<16 hex of the repository root>.json = {"root":…,"open":[…]}
// (remembered-list.ts).
import type { StoreLocations } from '../store/locations.js';
import { listPath, readList, removeList, writeList, type ListKind } from './remembered-list.js';

/** More open ledgers than this are remembered as the first ones (sorted): the list stays readable. */
export const MAX_REMEMBERED_LEDGERS = 1000;

const LEDGERS: ListKind = { prefix: 'ledgers', key: 'open', what: 'ledger memory', max: MAX_REMEMBERED_LEDGERS, valid: () => true };

export function memoryPath(locations: StoreLocations, root: string): string {
  return listPath(LEDGERS, locations, root);
}

/** The ledgers of `root` that had open gates when last seen; null when nothing is remembered. Creates nothing. */
export function readLedgerMemory(locations: StoreLocations, root: string): string[] | null {
  return readList(LEDGERS, locations, root);
}

/** Replaces the memory of `root` with `open` (remembered-list.ts writeList). */
export function writeLedgerMemory(locations: StoreLocations, root: string, open: readonly string[], known: readonly string[] | null, lockTimeoutMs: number): Promise<void> {
  return writeList(LEDGERS, locations, root, open, known, lockTimeoutMs);
}

/** Removes what is remembered about `root`; false when there was nothing. */
export function forgetLedgers(locations: StoreLocations, root: string, lockTimeoutMs: number): Promise<boolean> {
  return removeList(LEDGERS, locations, root, lockTimeoutMs);
}
