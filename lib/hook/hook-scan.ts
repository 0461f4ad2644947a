// Finding the gate-check Stop hook entries a host would run: each file the host reads hooks
// from is read as hostile (no-follow, single link, bounded, strict JSON) and its Stop slots
// are searched. Reads only; used by `hook install` (is it installed elsewhere already?) and
// `hook doctor`.
import { readdirSync } from 'node:fs';
import { isPlainObject } from '../json/hostile.js';
import { lstatOrNull, safeReadFile } from '../fsx/safe-read.js';
import { gateCheckStopCommand, type FoundCommand } from './hook-entry.js';
import type { HostAdapter, LocationContext, ScanFile, StopSlot } from './hosts/host.js';
import { MAX_SETTINGS_BYTES, parseSettingsText } from './settings-json.js';
import type { JsonObject } from './settings-merge.js';

export interface FoundEntry {
  slot: StopSlot;
  /** Where in the file, e.g. hooks.Stop[0].hooks[1]. */
  at: string;
  entry: JsonObject;
  command: FoundCommand;
}

export type ScannedFile = ScanFile &
  ({ status: 'missing' } | { status: 'unreadable'; reason: string } | { status: 'ok'; value: JsonObject; entries: FoundEntry[] });

/** Names in a directory (none when it is missing or not a real directory). */
export function listDirectory(dir: string): string[] {
  try {
    const st = lstatOrNull(dir);
    if (!st || !st.isDirectory()) return [];
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

export type JsonRead = { status: 'missing' } | { status: 'unreadable'; reason: string } | { status: 'ok'; value: JsonObject };

/** A settings file as JSON, or why it cannot be read. Never throws. */
export function readJsonFile(file: string): JsonRead {
  try {
    if (!lstatOrNull(file)) return { status: 'missing' };
    const parsed = parseSettingsText(safeReadFile(file, MAX_SETTINGS_BYTES, 'settings file').bytes);
    if (!parsed.ok) return { status: 'unreadable', reason: `not valid settings: ${parsed.reason}` };
    if (!isPlainObject(parsed.value)) return { status: 'unreadable', reason: 'the top level is not a JSON object' };
    return { status: 'ok', value: parsed.value };
  } catch (e) {
    return { status: 'unreadable', reason: e instanceof Error ? e.message : String(e) };
  }
}

/** A small text file (config.toml), or null when missing or unreadable. */
export function readTextFile(file: string): string | null {
  try {
    // Mutation note: equivalent: safeReadFile throws on a missing file, and the catch returns null too.
    if (!lstatOrNull(file)) return null;
    return safeReadFile(file, MAX_SETTINGS_BYTES, 'file').bytes.toString('utf8');
  } catch {
    return null;
  }
}

function arrayAt(value: JsonObject, path: readonly string[]): unknown[] | null {
  let node: unknown = value;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return null;
    node = node[key];
  }
  return Array.isArray(node) ? node : null;
}

/** The gate-check Stop entries in the slots of one parsed file. */
export function findStopEntries(value: JsonObject, slots: readonly StopSlot[]): FoundEntry[] {
  const out: FoundEntry[] = [];
  for (const slot of slots) {
    const list = arrayAt(value, slot.path);
    if (!list) continue;
    const name = slot.path.join('.');
    const visit = (entry: unknown, at: string) => {
      const command = gateCheckStopCommand(entry);
      if (command) out.push({ slot, at, entry: entry as JsonObject, command });
    };
    list.forEach((item, g) => {
      if (slot.layout === 'flat') visit(item, `${name}[${g}]`);
      else if (isPlainObject(item) && Array.isArray(item.hooks)) item.hooks.forEach((h, i) => visit(h, `${name}[${g}].hooks[${i}]`));
    });
  }
  return out;
}

export function scanHost(host: HostAdapter, ctx: LocationContext): ScannedFile[] {
  return host.scan(ctx, listDirectory).map((f): ScannedFile => {
    const read = readJsonFile(f.file);
    if (read.status !== 'ok') return { ...f, ...read };
    return { ...f, status: 'ok', value: read.value, entries: findStopEntries(read.value, f.slots) };
  });
}
