// The audit log: one append-only JSONL file per repository in the private store,
// <store>/history/<16 hex of the repository root>.jsonl. Opened for appending without
// following links, checked to be a private single-link regular file, fsynced. A failed
// write is an infrastructure error (exit 2): attempts are never silently unrecorded.
import { closeSync, constants, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UnsafeStoreError } from '../errors.js';
import { openPrivateDir, privateDirExists, type PrivateDir } from '../fsx/private-dir.js';
import { sha256Hex } from '../oracle/oracle.js';
import type { StoreLocations } from '../store/locations.js';
import { readPrivateFile } from '../store/private-file.js';
import { parseEvent, serializeEvent, type AttemptEvent } from './event.js';

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
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
    let fd: number;
    try {
      fd = openSync(this.path, APPEND_FLAGS, 0o600);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UnsafeStoreError(this.path, code === 'ELOOP' ? 'audit log is a symbolic link (refused)' : `cannot open the audit log (${code ?? (e as Error).message})`);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new UnsafeStoreError(this.path, 'audit log is not a regular file (refused)');
      if (st.nlink !== 1) throw new UnsafeStoreError(this.path, `audit log has ${st.nlink} hard links (refused)`);
      if ((st.mode & 0o077) !== 0) throw new UnsafeStoreError(this.path, 'audit log is accessible to group or other (refused)');
      const uid = typeof process.getuid === 'function' ? process.getuid() : null;
      if (uid !== null && st.uid !== uid) throw new UnsafeStoreError(this.path, `audit log is owned by uid ${st.uid}, not by you`);
      const buf = Buffer.from(events.map(serializeEvent).join('\n') + '\n', 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } catch (e) {
      if (e instanceof UnsafeStoreError) throw e;
      throw new UnsafeStoreError(this.path, `cannot write the audit log (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    } finally {
      closeSync(fd);
    }
  }

  /** Every well-formed event, oldest first; malformed lines are counted, not trusted. */
  read(): { events: AttemptEvent[]; malformed: number } {
    this.dir.verify();
    const text = readPrivateFile(this.dir, this.name, MAX_HISTORY_BYTES, true);
    if (text === null) return { events: [], malformed: 0 };
    const events: AttemptEvent[] = [];
    let malformed = 0;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const e = parseEvent(line);
      if (e) events.push(e);
      else malformed++;
    }
    return { events, malformed };
  }
}
