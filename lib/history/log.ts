// The audit log: one append-only JSONL file per repository in the private store,
// <store>/history/<16 hex of the repository root>.jsonl. Opened for appending without
// following links, checked to be a private single-link regular file, fsynced. A failed
// write is an infrastructure error (exit 2): attempts are never silently unrecorded. Each
// event is one write, so a full disk tears at most one line; the next event starts on a
// fresh line, and the reader skips the torn one, never the event after it.
import { join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { appendRecords } from '../fsx/append-file.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { parseEvent, serializeEvent, type AttemptEvent } from './event.js';

export const MAX_HISTORY_BYTES = 64 * 1024 * 1024;

export function historyFileName(repoRoot: string): string {
  return `${sha256Hex(repoRoot).slice(0, 16)}.jsonl`;
}

export class HistoryLog {
  readonly path: string;

  private constructor(
    readonly dir: PrivateDir,
    private readonly name: string,
  ) {
    this.path = join(dir.path, name);
  }

  static open(locations: StoreLocations, repoRoot: string, create: boolean): HistoryLog | null {
    if (!create && !privateDirExists(locations.history)) return null;
    openPrivateDir(locations.base, { repoRoot, create });
    const dir = openPrivateDir(locations.history, { repoRoot, create });
    return new HistoryLog(dir, historyFileName(repoRoot));
  }

  append(events: readonly AttemptEvent[]): void {
    if (events.length === 0) return;
    this.dir.verify();
    try {
      appendRecords(this.path, events.map((e) => serializeEvent(e) + '\n'), { privateLog: true, mode: 0o600 });
    } catch (e) {
      throw new UnsafeStoreError(this.path, `audit log ${(e as Error).message.replace(`${this.path}: `, '')}`);
    }
  }

  /**
   * Every well-formed event, oldest first; malformed lines are counted, not trusted. A last
   * line without its line end is a record torn by a failed write (or one being written right
   * now): skipped, not counted.
   */
  read(): { events: AttemptEvent[]; malformed: number } {
    this.dir.verify();
    const text = readPrivateFile(this.dir, this.name, MAX_HISTORY_BYTES, true);
    if (text === null) return { events: [], malformed: 0 };
    const events: AttemptEvent[] = [];
    let malformed = 0;
    const lines = text.split('\n');
    lines.pop(); // after the last line end: '' or a torn record
    for (const line of lines) {
      if (line === '') continue;
      const e = parseEvent(line);
      if (e) events.push(e);
      else malformed++;
    }
    return { events, malformed };
  }
}
