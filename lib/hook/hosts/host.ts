// What gate-check knows about one agent host: where its hook settings live, what an
// installed Stop hook looks like there, how its timeout is written, and what turns its hooks
// off. One module per host (claude.ts, codex.ts, copilot.ts, gemini.ts, cursor.ts) fills it
// in from that host's documentation (references/hosts.md has the sources). Pure.
import type { InstallPlan, JsonObject } from '../settings-merge.js';

export type HostId = 'claude' | 'codex' | 'copilot' | 'gemini' | 'cursor';

/** local: this checkout on this machine; shared: the project's file (usually committed); global: this user. */
export type TargetKind = 'local' | 'shared' | 'global';

/** The running CLI, as the hook entry must name it: absolute node and gate-check paths. */
export interface Runtime {
  node: string;
  bin: string;
}

/** A settings file: `base` is trusted (the repository root, HOME, or a host's home directory); the directories of `rel` below it must be real directories. */
export interface SettingsLocation {
  base: string;
  rel: readonly string[];
}

export interface LocationContext {
  /** The repository root; null for a global target. */
  root: string | null;
  home: string | null;
  env: NodeJS.ProcessEnv;
}

/** Where a host looks for a Stop hook in one file, for `hook doctor`. */
export interface StopSlot {
  /** The array of hook entries, e.g. ['hooks', 'Stop']. */
  path: readonly string[];
  layout: 'grouped' | 'flat';
  /** The entry's timeout in seconds (explicit or the host's default), or null when the host documents none. */
  timeout: (entry: JsonObject) => { seconds: number | null; explicit: boolean };
}

/** A file a host reads hooks from, for `hook doctor`. */
export interface ScanFile {
  file: string;
  scope: 'repository' | 'home';
  /** Not the host's own file: read by it too (Copilot CLI reads .claude/settings.json). */
  borrowed?: string;
  slots: readonly StopSlot[];
  /** Why hooks of this file do not run, given its content, or null. */
  disabledBy?: (settings: JsonObject) => string | null;
}

/** A setting that turns every hook of a host off, and what to change. */
export interface Disabled {
  reason: string;
  fix: string;
}

export interface HostAdapter {
  id: HostId;
  name: string;
  /** The targets install accepts; the first is the default. */
  targets: readonly TargetKind[];
  location: (kind: TargetKind, ctx: LocationContext) => SettingsLocation;
  /**
   * The plan for a file: with a runtime, what install writes; without one, only how our
   * entries are recognized and which strings are ours (for uninstall).
   */
  plan: (runtime: Runtime | null, file: string, env: NodeJS.ProcessEnv, kind: TargetKind) => InstallPlan;
  /** A one-line note on the timeout install writes and why. */
  timeoutNote: string;
  /** Directories whose presence shows the host is used here (for `hook doctor`). */
  markers: (ctx: LocationContext) => string[];
  /** The files the host reads Stop hooks from, for `hook doctor`. */
  scan: (ctx: LocationContext, listDir: (dir: string) => string[]) => ScanFile[];
  /**
   * Why no hook of this host runs here (a setting that turns them all off), or null. `read`
   * gives a file's JSON (null when missing or unreadable), `readText` its text.
   */
  disabled?: (ctx: LocationContext, read: (file: string) => JsonObject | null, readText: (file: string) => string | null) => Disabled | null;
  /** What to tell the person after installing (trust prompts, versions), or nothing. */
  notes?: (kind: TargetKind) => string[];
}

export function joinLocation(loc: SettingsLocation): string {
  return [loc.base.replace(/\/+$/, ''), ...loc.rel].join('/');
}

/** A timeout in seconds, when the value is a positive finite number. */
export function positiveNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}
