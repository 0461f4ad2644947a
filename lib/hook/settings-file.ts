// Reading a host's settings file as hostile (no-follow, single link, bounded, strict JSON,
// the parts a plan touches validated), and the directories above it: each must be a real
// directory, never a link, and install creates the missing ones (0755) below a trusted base.
import { join } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import { makeDirectory } from '../fsx/create.js';
import { lstatOrNull, safeReadFile, type FileIdentity } from '../fsx/safe-read.js';
import { MAX_SETTINGS_BYTES, NEW_FILE_STYLE, parseSettingsText, type TextStyle } from './settings-json.js';
import { validateSettings, type InstallPlan } from './settings-merge.js';

export interface Snapshot {
  exists: boolean;
  bytes: Buffer | null;
  identity: FileIdentity | null;
  mode: number;
  value: unknown;
  style: TextStyle;
}

export function noFile(plan: InstallPlan): Snapshot {
  return { exists: false, bytes: null, identity: null, mode: 0o644, value: plan.base, style: NEW_FILE_STYLE };
}

const FIX_HINT = 'fix the file by hand (or move it away), then run the command again; nothing was changed';

/** The parsed file, or the plan's base when there is none; throws UnsafeFileError when it cannot be used. */
export function readSettings(file: string, plan: InstallPlan, what = 'settings file'): Snapshot {
  if (!lstatOrNull(file)) return noFile(plan);
  const read = safeReadFile(file, MAX_SETTINGS_BYTES, what);
  const parsed = parseSettingsText(read.bytes);
  if (!parsed.ok) throw new UnsafeFileError(file, `${what} ${parsed.reason}`, FIX_HINT);
  const invalid = validateSettings(parsed.value, plan);
  if (invalid !== null) throw new UnsafeFileError(file, `${what}: ${invalid}`, FIX_HINT);
  return { exists: true, bytes: read.bytes, identity: read.identity, mode: read.mode & 0o777, value: parsed.value, style: parsed.style };
}

/**
 * Checks the directories of `rel` (all but the file name) below `base`: true when all
 * exist, false when one is missing and `create` is false. Each that exists must be a real
 * directory; missing ones are created when `create`.
 */
export function settingsDirs(base: string, rel: readonly string[], create: boolean): boolean {
  let dir = base;
  for (const part of rel.slice(0, -1)) {
    dir = join(dir, part);
    let st = lstatOrNull(dir);
    if (!st && create) {
      makeDirectory(dir, 0o755);
      st = lstatOrNull(dir);
    }
    if (!st) return false;
    if (st.isSymbolicLink()) throw new UnsafeFileError(dir, 'is a symbolic link (refused: the settings are written only into a real directory)');
    if (!st.isDirectory()) throw new UnsafeFileError(dir, 'is not a directory');
  }
  return true;
}
