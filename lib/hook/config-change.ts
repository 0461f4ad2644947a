// `gate-check hook config-change --settings FILE`: Claude Code's ConfigChange hook, written
// by `hook install --host claude` into FILE next to the Stop hook. Claude Code runs it when a
// settings file changes during a session (input: source, file_path; the change is on disk
// already, and a block keeps it from being applied to the running session). It answers
// {"decision":"block","reason":…} when, after the change, FILE no longer holds exactly the
// Stop hook and ConfigChange hook this CLI would install, or every static deny rule, or when
// "disableAllHooks": true is in effect; otherwise nothing. It never writes. It always exits 0;
// an unexpected error blocks. policy_settings changes cannot be blocked (Claude Code ignores
// the answer), so it does not look at them.
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Io } from '../program/io.js';
import { readStdin } from './read-stdin.js';
import { isPlainObject } from '../json/hostile.js';
import { sanitizeLine } from '../text/sanitize.js';
import { readJsonFile } from './hook-scan.js';
import { claudeChain, claudeConfigChangeEntry, claudeDisableAllHooks, claudeStopEntry } from './hosts/claude.js';
import { STATIC_DENY_RULES } from './hosts/claude-rules.js';
import type { Runtime } from './hosts/host.js';
import { sameJson, type JsonObject } from './settings-merge.js';

const MAX_INPUT_BYTES = 1024 * 1024;
const STDIN_WAIT_MS = 2_000;
const MAX_REASON = 2_000;

const USAGE = 'Usage: gate-check hook config-change --settings FILE   (Claude Code ConfigChange hook; reads the hook JSON on stdin; see references/hook.md)\n';

interface ChangeInput {
  source: string | null;
  filePath: string | null;
  cwd: string | null;
}

export function parseChangeInput(text: string): ChangeInput {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { source: null, filePath: null, cwd: null };
  }
  const o = isPlainObject(data) ? data : {};
  const str = (k: string) => (Object.hasOwn(o, k) && typeof o[k] === 'string' ? (o[k] as string) : null);
  return { source: str('source'), filePath: str('file_path'), cwd: str('cwd') };
}

function groupsHold(value: JsonObject, event: string, entry: JsonObject): boolean {
  const hooks = isPlainObject(value.hooks) ? value.hooks : null;
  const groups = hooks && Object.hasOwn(hooks, event) && Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
  return groups.some((g) => isPlainObject(g) && Array.isArray(g.hooks) && g.hooks.some((h) => sameJson(h, entry)));
}

function denyRules(value: JsonObject): string[] {
  const p = isPlainObject(value.permissions) ? value.permissions : null;
  return p && Array.isArray(p.deny) ? p.deny.filter((r): r is string => typeof r === 'string') : [];
}

/** What the change took away (empty: nothing of gate-check's). Pure but for reading the chain's files. */
export function missingAfterChange(settingsFile: string, rt: Runtime, root: string | null, home: string | null): string[] {
  const read = readJsonFile(settingsFile);
  if (read.status !== 'ok') return [read.status === 'missing' ? `${settingsFile} itself (it is gone)` : `a readable ${settingsFile} (${read.reason})`];
  const missing: string[] = [];
  // Either form install writes (exec in the user's file, shell in the repository's) runs the same hook.
  if (!groupsHold(read.value, 'Stop', claudeStopEntry(rt, 'exec')) && !groupsHold(read.value, 'Stop', claudeStopEntry(rt, 'shell'))) missing.push('the gate-check Stop hook');
  if (!groupsHold(read.value, 'ConfigChange', claudeConfigChangeEntry(rt, settingsFile))) missing.push('the gate-check ConfigChange hook');
  const deny = denyRules(read.value);
  const gone = STATIC_DENY_RULES.filter((r) => !deny.includes(r));
  if (gone.length > 0) missing.push(`${gone.length} permissions.deny rule${gone.length === 1 ? '' : 's'} of gate-check (${gone.join(', ')})`);
  for (const file of claudeChain(root, home).includes(settingsFile) ? claudeChain(root, home) : [...claudeChain(root, home), settingsFile]) {
    const r = readJsonFile(file);
    const off = r.status === 'ok' ? claudeDisableAllHooks(r.value) : null;
    if (off !== null) {
      if (off) missing.push(`every hook ("disableAllHooks": true in ${file})`);
      break;
    }
  }
  return missing;
}

function runtime(): Runtime {
  const bin = process.argv[1];
  // Mutation note: equivalent (unreachable through the CLI: node always sets argv[1]).
  if (bin === undefined) throw new Error('the path of the gate-check CLI is unknown');
  return { node: process.execPath, bin: realpathSync(bin) };
}

function block(io: Io, reason: string): number {
  io.stdout(JSON.stringify({ decision: 'block', reason: sanitizeLine(reason, MAX_REASON) }) + '\n');
  return 0;
}

function absoluteDir(p: string | null | undefined): string | null {
  return typeof p === 'string' && p !== '' && isAbsolute(p) && !p.includes('\0') ? p : null;
}

export async function configChangeCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  try {
    const at = args.indexOf('--settings');
    const settingsFile = at >= 0 ? args[at + 1] : undefined;
    if (settingsFile === undefined || !isAbsolute(settingsFile) || args.length !== 2) {
      return block(io, 'gate-check: the ConfigChange hook is misconfigured (it needs exactly --settings /absolute/settings.json); run gate-check hook install --host claude again');
    }
    const input = parseChangeInput((await readStdin(MAX_INPUT_BYTES, STDIN_WAIT_MS)).bytes.toString('utf8'));
    if (input.source === 'policy_settings') return 0;
    const root = absoluteDir(io.env.CLAUDE_PROJECT_DIR) ?? absoluteDir(input.cwd) ?? io.cwd;
    const missing = missingAfterChange(settingsFile, runtime(), root, absoluteDir(io.env.HOME));
    if (missing.length === 0) return 0;
    const changed = input.filePath !== null ? ` (changed: ${input.filePath})` : '';
    return block(
      io,
      `gate-check: this settings change${changed} would remove ${missing.join('; ')}. It is not applied to this session. ` +
        'The agent must not turn off the check of its completion gates. A person who means to remove it runs gate-check hook uninstall, then starts a new session.',
    );
  } catch (e) {
    return block(io, `gate-check: the ConfigChange hook could not check the change (${e instanceof Error ? e.message : String(e)}); it is not applied to this session`);
  }
}
