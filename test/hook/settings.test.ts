// The settings logic of `gate-check hook install/uninstall`, without the CLI: hostile JSON
// parsing, style-preserving serialization, shape validation, install, repair, uninstall.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, NEW_FILE_STYLE, parseSettingsText, serializeSettings, type TextStyle } from '../../lib/hook/settings-json.js';
import { gateCheckStopCommand, isOurExecEntry, quotedPaths, shellQuote, STOP_HOOK_MARKER, stopShellCommand } from '../../lib/hook/hook-entry.js';
import { claudePlan, claudeStopEntry, claudeConfigChangeEntry, isClaudeStopEntry } from '../../lib/hook/hosts/claude.js';
import { STATIC_DENY_RULES } from '../../lib/hook/hosts/claude-rules.js';
import { copilotPlan, isCopilotStopEntry } from '../../lib/hook/hosts/copilot.js';
import { cursorPlan } from '../../lib/hook/hosts/cursor.js';
import { isCodexStopEntry } from '../../lib/hook/hosts/codex.js';
import { hasOurEntries, installPlan, sameJson, uninstallPlan, validateSettings, type InstallPlan } from '../../lib/hook/settings-merge.js';
import { tempDir } from '../helpers/cli.js';

const RT = { node: '/usr/bin/node', bin: '/opt/gate-check/bin/gate-check.js' };
const FILE = '/repo/.claude/settings.local.json';
const ENV = { HOME: '/home/u' };
const PLAN = claudePlan(RT, FILE, ENV);
const ENTRY = claudeStopEntry(RT);
const CONFIG = claudeConfigChangeEntry(RT, FILE);
const DENY_RULES = STATIC_DENY_RULES;
const installStopHook = (x: unknown) => installPlan(x, PLAN);
const uninstallStopHook = (x: unknown) => uninstallPlan(x, PLAN);
const isOurHook = isClaudeStopEntry;

function parse(text: string): { value: unknown; style: TextStyle } {
  const r = parseSettingsText(Buffer.from(text, 'utf8'));
  if (!r.ok) throw new Error(r.reason);
  return r;
}

function reason(text: string): string {
  const r = parseSettingsText(Buffer.from(text, 'utf8'));
  return r.ok ? 'accepted' : r.reason;
}

/** Text in, text out, as the command does it. */
function installText(text: string): string {
  const { value, style } = parse(text);
  return serializeSettings(installStopHook(value).settings, style);
}

function uninstallText(text: string): string {
  const { value, style } = parse(text);
  return serializeSettings(uninstallStopHook(value).settings, style);
}

function ours(settings: unknown): unknown[] {
  const stop = ((settings as { hooks?: { Stop?: Array<{ hooks: unknown[] }> } }).hooks?.Stop ?? []) as Array<{ hooks: unknown[] }>;
  return stop.flatMap((g) => g.hooks.filter(isOurHook));
}

describe('parseSettingsText', () => {
  it('learns the indentation, line ending, BOM and surrounding whitespace, and round-trips them', () => {
    const x = { a: 1, b: { c: [1, 'x'], d: {} }, e: [] };
    for (const indent of [2, 4, '\t', 3, '']) {
      for (const trailing of ['\n', '', '\n\n']) {
        const text = JSON.stringify(x, null, indent) + trailing;
        const { value, style } = parse(text);
        expect(style.indent).toBe(indent);
        expect(serializeSettings(value, style)).toBe(text);
      }
    }
    const crlf = '\uFEFF' + JSON.stringify(x, null, 2).replace(/\n/g, '\r\n') + '\r\n';
    const p = parse(crlf);
    expect(p.style).toMatchObject({ bom: true, eol: '\r\n', indent: 2 });
    expect(serializeSettings(p.value, p.style)).toBe(crlf);
  });

  it('indents an empty one-line object with two spaces, and keeps a compact non-empty one compact', () => {
    expect(parse('{}\n').style.indent).toBe(2);
    expect(parse('{"a":1}').style.indent).toBe('');
    expect(NEW_FILE_STYLE).toEqual({ bom: false, indent: 2, eol: '\n', leading: '', trailing: '\n' });
  });

  it('refuses invalid UTF-8, empty files and invalid JSON', () => {
    expect(parseSettingsText(Buffer.from([0x7b, 0xff, 0x7d])).ok).toBe(false);
    expect(reason('')).toMatch(/empty/);
    expect(reason(' \n')).toMatch(/empty/);
    expect(reason('{"a": 1,}')).toMatch(/not valid JSON/);
    expect(reason('// comment\n{}')).toMatch(/not valid JSON/);
  });

  it('says where JSON is invalid, without quoting the file (it may hold secrets)', () => {
    expect(reason('{\n  "hooks": {,}}\n')).toMatch(/^is not valid JSON \(.* at line 2, column 13\)$/);
    for (const text of ['{"token": "s3cret" x}', '{"token": s3cret}', '{"token": "s3cret', 's3cret']) {
      expect(reason(text)).toMatch(/^is not valid JSON/);
      expect(reason(text)).not.toMatch(/s3cret/);
    }
  });

  it('refuses a "__proto__" key anywhere, also as an escaped key', () => {
    expect(reason('{"__proto__": {"x": 1}}')).toMatch(/__proto__/);
    expect(reason('{"a": [{"b": {"__proto__": null}}]}')).toMatch(/__proto__/);
    expect(reason('{"a": {"\\u005f_proto__": 1}}')).toMatch(/__proto__/);
    // As a string value it is just data.
    expect(reason('{"a": "__proto__", "b": ["__proto__"]}')).toBe('accepted');
  });

  it('refuses a key repeated in one object (a rewrite would drop one), not across objects', () => {
    expect(reason('{"hooks": {}, "hooks": {}}')).toMatch(/"hooks" twice/);
    expect(reason('{"a": {"k": 1, "k": 2}}')).toMatch(/"k" twice/);
    expect(reason('{"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]}')).toBe('accepted');
    expect(reason('{"a\\"b": 1, "a\\u0022b": 2}')).toMatch(/twice/);
  });

  it('refuses nesting deeper than the limit', () => {
    const deep = '{"a":' + '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH) + '}';
    expect(reason(deep)).toMatch(/nested deeper/);
    const ok = '{"a":' + '['.repeat(MAX_DEPTH - 2) + ']'.repeat(MAX_DEPTH - 2) + '}';
    expect(reason(ok)).toBe('accepted');
  });
});

describe('validateSettings', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['array top level', [], /top level is not a JSON object/],
    ['null top level', null, /top level/],
    ['string top level', 'x', /top level/],
    ['hooks array', { hooks: [] }, /"hooks" is not an object/],
    ['hooks null', { hooks: null }, /"hooks" is not an object/],
    ['Stop object', { hooks: { Stop: {} } }, /"hooks.Stop" is not an array/],
    ['group not object', { hooks: { Stop: ['x'] } }, /hooks.Stop\[0\] is not an object/],
    ['group without hooks', { hooks: { Stop: [{ matcher: '' }] } }, /hooks.Stop\[0\].hooks is not an array/],
    ['group hooks object', { hooks: { Stop: [{ hooks: [] }, { hooks: {} }] } }, /hooks.Stop\[1\].hooks is not an array/],
    ['hook not object', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }, 7] }] } }, /hooks.Stop\[0\].hooks\[1\] is not an object/],
    ['ConfigChange object', { hooks: { ConfigChange: {} } }, /"hooks.ConfigChange" is not an array/],
    ['ConfigChange hook not object', { hooks: { ConfigChange: [{ hooks: ['x'] }] } }, /hooks.ConfigChange\[0\].hooks\[0\] is not an object/],
    ['permissions array', { permissions: [] }, /"permissions" is not an object/],
    ['deny string', { permissions: { deny: 'Bash(x)' } }, /"permissions.deny" is not an array/],
    ['deny with number', { permissions: { deny: ['a', 1] } }, /permissions.deny\[1\] is not a string/],
    ['__proto__ in a group', JSON.parse('{"hooks": {"Stop": [{"hooks": [], "__proto__": {}}]}}'), /__proto__/],
  ];
  it.each(cases)('refuses %s', (_name, value, message) => {
    expect(validateSettings(value, PLAN)).toMatch(message);
    expect(() => installStopHook(value)).toThrow(message);
    expect(() => uninstallStopHook(value)).toThrow(message);
  });

  it('does not look into unrelated keys or events', () => {
    expect(validateSettings({ hooks: { PreToolUse: 'anything', Stop: [] }, permissions: { allow: 5 }, env: [1] }, PLAN)).toBeNull();
  });

  it('flat layouts (Copilot, Cursor): each entry must be an object, and a hooks file must say version 1', () => {
    const copilot = copilotPlan(RT, 'shared');
    expect(validateSettings({ version: 1, hooks: { agentStop: [{ bash: 'x' }, 'y'] } }, copilot)).toMatch(/hooks.agentStop\[1\] is not an object/);
    expect(validateSettings({ version: 2, hooks: {} }, copilot)).toMatch(/"version" is not 1/);
    expect(validateSettings({ version: '1' }, cursorPlan(RT))).toMatch(/"version" is not 1/);
    expect(validateSettings({ hooks: { stop: {} } }, cursorPlan(RT))).toMatch(/"hooks.stop" is not an array/);
    // The inline block of .github/copilot/settings.local.json has no version.
    expect(validateSettings({ version: 7 }, copilotPlan(RT, 'local'))).toBeNull();
  });
});

describe('the hook commands', () => {
  it('quotes each path for a POSIX shell, and the marker is a harmless comment', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const dir = join(tempDir('gc-hook-'), `a dir 'with' $quotes; and "more"`);
    mkdirSync(dir);
    const bin = join(dir, "print 'argv'.mjs");
    writeFileSync(bin, 'console.log(JSON.stringify(process.argv.slice(1)))\n');
    const command = stopShellCommand(process.execPath, bin, 'codex');
    expect(command.endsWith(` hook stop --host codex ${STOP_HOOK_MARKER}`)).toBe(true);
    const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([bin, 'hook', 'stop', '--host', 'codex']);
    expect(quotedPaths(command)).toEqual({ node: process.execPath, bin });
  });

  it('the Claude Code entries are in exec form: the argument vector holds the paths, no shell parses them', () => {
    expect(ENTRY).toEqual({ type: 'command', command: RT.node, args: [RT.bin, 'hook', 'stop', '--host', 'claude'], timeout: 30 });
    expect(CONFIG).toEqual({ type: 'command', command: RT.node, args: [RT.bin, 'hook', 'config-change', '--settings', FILE], timeout: 15 });
  });

  it('recognizes our shell-form entry by the marker at the end of its command only', () => {
    const shell = { type: 'command', command: stopShellCommand(RT.node, RT.bin, 'claude') };
    expect(isOurHook(shell)).toBe(true);
    expect(isOurHook({ type: 'command', command: `anything else ${STOP_HOOK_MARKER}  ` })).toBe(true);
    expect(isOurHook({ command: STOP_HOOK_MARKER })).toBe(true);
    expect(isOurHook({ command: `echo '${STOP_HOOK_MARKER}'` })).toBe(false);
    expect(isOurHook({ command: `x${STOP_HOOK_MARKER}` })).toBe(false);
    expect(isOurHook({ command: `x ${STOP_HOOK_MARKER} && rm -rf /` })).toBe(false);
    expect(isOurHook({ command: 7 })).toBe(false);
    expect(isOurHook(JSON.parse(`{"__proto__": {"command": "x ${STOP_HOOK_MARKER}"}}`))).toBe(false);
    expect(isCodexStopEntry({ command: `'n' 'b' hook stop --host codex ${STOP_HOOK_MARKER}` })).toBe(true);
  });

  it('recognizes our exec-form entry by its argument vector: gate-check\'s CLI, then hook stop (or the old claude-stop)', () => {
    expect(isOurHook(ENTRY)).toBe(true);
    expect(isOurHook({ command: '/other/node', args: ['/x/gate-check.js', 'hook', 'claude-stop'] })).toBe(true);
    expect(isOurHook({ command: 'node', args: ['/x/bin/gate-check', 'hook', 'stop'] })).toBe(true);
    expect(isOurHook({ command: 'node', args: ['/x/other.js', 'hook', 'stop'] })).toBe(false);
    expect(isOurHook({ command: 'node', args: ['/x/gate-check.js', 'hook', 'forget'] })).toBe(false);
    expect(isOurHook({ command: 'node', args: ['/x/gate-check.js', 'hook', 7] })).toBe(false);
    expect(isOurHook({ args: ['/x/gate-check.js', 'hook', 'stop'] })).toBe(false);
    expect(isOurHook(CONFIG)).toBe(false);
    expect(isOurExecEntry(CONFIG, 'command', 'config-change')).toBe(true);
    // Copilot names the executable `exec`.
    expect(isCopilotStopEntry({ exec: RT.node, args: [RT.bin, 'hook', 'stop', '--host', 'copilot'] })).toBe(true);
    expect(isCopilotStopEntry(ENTRY)).toBe(false);
  });

  it('finds a gate-check Stop hook written by hand too (for a second install), not other hooks', () => {
    expect(gateCheckStopCommand({ command: 'npx gate-check hook stop --host claude' })).toEqual({ form: 'shell', command: 'npx gate-check hook stop --host claude' });
    expect(gateCheckStopCommand({ bash: 'gate-check hook claude-stop' })).not.toBeNull();
    expect(gateCheckStopCommand({ command: 'gate-check', args: ['hook', 'stop', '--host', 'cursor'] })).not.toBeNull();
    expect(gateCheckStopCommand(ENTRY)).toEqual({ form: 'exec', executable: RT.node, args: ENTRY.args });
    expect(gateCheckStopCommand({ command: 'gate-check --status' })).toBeNull();
    expect(gateCheckStopCommand({ command: 'echo hook stop' })).toBeNull();
    expect(gateCheckStopCommand(CONFIG)).toBeNull();
    expect(gateCheckStopCommand('gate-check hook stop')).toBeNull();
    // Settings are hostile JSON: an entry may be null, a number or an array.
    for (const entry of [null, 7, ['gate-check', 'hook', 'stop'], true]) expect(gateCheckStopCommand(entry)).toBeNull();
  });
});

describe('installPlan (Claude Code)', () => {
  it('adds one group with our Stop entry, one with our ConfigChange entry, and the deny rules, to an empty object', () => {
    const r = installStopHook({});
    expect(r.changed).toBe(true);
    expect(r.entries.map((e) => e.state)).toEqual(['added', 'added']);
    expect(r.stringsAdded).toEqual(DENY_RULES);
    expect(r.settings).toEqual({ hooks: { Stop: [{ hooks: [ENTRY] }], ConfigChange: [{ hooks: [CONFIG] }] }, permissions: { deny: DENY_RULES } });
  });

  it('appends after existing Stop groups and deny rules, keeping every other key in place', () => {
    const input = {
      model: 'x',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'a' }] }], Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'b' }] }], PostToolUse: [] },
      permissions: { allow: ['Read'], deny: ['Bash(rm *)', DENY_RULES[2]!], ask: [] },
      env: { A: '1' },
    };
    const frozen = structuredClone(input);
    const r = installStopHook(input);
    expect(input).toEqual(frozen);
    expect(Object.keys(r.settings)).toEqual(['model', 'hooks', 'permissions', 'env']);
    const hooks = r.settings.hooks as typeof input.hooks & { ConfigChange: unknown };
    expect(Object.keys(hooks)).toEqual(['PreToolUse', 'Stop', 'PostToolUse', 'ConfigChange']);
    expect(hooks.Stop).toEqual([...input.hooks.Stop, { hooks: [ENTRY] }]);
    expect(hooks.Stop[0]).toBe(input.hooks.Stop[0]);
    const permissions = r.settings.permissions as typeof input.permissions;
    expect(Object.keys(permissions)).toEqual(['allow', 'deny', 'ask']);
    expect(permissions.deny).toEqual(['Bash(rm *)', DENY_RULES[2], ...DENY_RULES.filter((_, i) => i !== 2)]);
    expect(r.stringsAdded).toHaveLength(DENY_RULES.length - 1);
  });

  it('changes nothing when exactly our entries and every rule are present (key order of an entry aside)', () => {
    const installed = installStopHook({ a: 1 }).settings;
    const again = installStopHook(installed);
    expect(again.changed).toBe(false);
    expect(again.entries.map((e) => e.state)).toEqual(['unchanged', 'unchanged']);
    expect(again.settings).toBe(installed);
    const reordered = {
      hooks: { Stop: [{ hooks: [{ timeout: 30, args: ENTRY.args, command: ENTRY.command, type: 'command' }] }], ConfigChange: [{ hooks: [CONFIG] }] },
      permissions: { deny: [...DENY_RULES] },
    };
    expect(installStopHook(reordered).changed).toBe(false);
  });

  it('repairs a changed entry in place, and removes repeated ones (and groups they leave empty)', () => {
    const stale = { type: 'command', command: `'/old/node' '/old/gate-check.js' hook claude-stop ${STOP_HOOK_MARKER}`, timeout: 30 };
    const input = {
      hooks: {
        Stop: [
          { matcher: '', hooks: [{ type: 'command', command: 'before' }, stale, { type: 'command', command: 'after' }] },
          { hooks: [{ ...ENTRY }] },
          { hooks: [{ type: 'command', command: 'other' }, { ...ENTRY, timeout: 5 }] },
        ],
        ConfigChange: [{ hooks: [CONFIG] }],
      },
      permissions: { deny: [...DENY_RULES] },
    };
    const r = installStopHook(input);
    expect(r.changed).toBe(true);
    expect(r.entries[0]).toMatchObject({ state: 'repaired', duplicatesRemoved: 2 });
    expect(r.entries[1]).toMatchObject({ state: 'unchanged' });
    expect(r.settings).toEqual({
      hooks: {
        Stop: [
          { matcher: '', hooks: [{ type: 'command', command: 'before' }, ENTRY, { type: 'command', command: 'after' }] },
          { hooks: [{ type: 'command', command: 'other' }] },
        ],
        ConfigChange: [{ hooks: [CONFIG] }],
      },
      permissions: { deny: DENY_RULES },
    });
  });

  it('repairs an entry with an extra key, another timeout, another type, or a changed executable', () => {
    for (const drift of [{ ...ENTRY, timeout: 60 }, { ...ENTRY, extra: true }, { ...ENTRY, type: 'prompt' }, { ...ENTRY, command: '/bin/true' }, { command: ENTRY.command, args: ENTRY.args }]) {
      const r = installStopHook({ hooks: { Stop: [{ hooks: [drift] }] } });
      expect(r.entries[0]!.state).toBe('repaired');
      expect((r.settings.hooks as { Stop: unknown }).Stop).toEqual([{ hooks: [ENTRY] }]);
    }
  });

  it('knows a file with entries of ours (a repair) from one without (a first install)', () => {
    expect(hasOurEntries({}, PLAN)).toBe(false);
    expect(hasOurEntries({ permissions: { deny: [...DENY_RULES] } }, PLAN)).toBe(false);
    expect(hasOurEntries({ hooks: { ConfigChange: [{ hooks: [CONFIG] }] } }, PLAN)).toBe(true);
    expect(hasOurEntries({ hooks: { Stop: [{ hooks: [{ command: `x ${STOP_HOOK_MARKER}` }] }] } }, PLAN)).toBe(true);
  });

  it('needs an entry to install: a plan made for uninstall cannot install', () => {
    expect(() => installPlan({}, claudePlan(null, FILE, ENV))).toThrow(/no entry to install/);
  });
});

describe('uninstallPlan', () => {
  it('removes only our entries and rules, then containers that became empty', () => {
    const input = {
      hooks: { Stop: [{ hooks: [ENTRY] }, { hooks: [] }, { hooks: [{ command: 'x' }, ENTRY] }] },
      permissions: { deny: [DENY_RULES[0]!, 'Bash(rm *)', DENY_RULES[0]!] },
    };
    const r = uninstallStopHook(input);
    expect(r).toMatchObject({ changed: true, entriesRemoved: 2, stringsRemoved: 2 });
    expect(r.settings).toEqual({ hooks: { Stop: [{ hooks: [] }, { hooks: [{ command: 'x' }] }] }, permissions: { deny: ['Bash(rm *)'] } });
    const full = installStopHook({ z: 1 }).settings;
    expect(uninstallStopHook(full).settings).toEqual({ z: 1 });
    expect(uninstallStopHook({ ...full, hooks: { ...(full.hooks as object), Pre: [] }, permissions: { ...(full.permissions as object), allow: [] } }).settings).toEqual({
      z: 1,
      hooks: { Pre: [] },
      permissions: { allow: [] },
    });
  });

  it('changes nothing, and returns the same object, when nothing of ours is there', () => {
    for (const input of [{}, { hooks: {} }, { hooks: { Stop: [] } }, { permissions: { deny: [] } }, { hooks: { Stop: [{ hooks: [{ command: 'x' }] }] } }]) {
      const r = uninstallStopHook(input);
      expect(r).toMatchObject({ changed: false, entriesRemoved: 0, stringsRemoved: 0 });
      expect(r.settings).toBe(input);
    }
  });

  it('a flat layout (Copilot) goes back to the file it started as', () => {
    const plan: InstallPlan = copilotPlan(RT, 'shared');
    const installed = installPlan(plan.base, plan).settings;
    expect(installed).toEqual({ version: 1, hooks: { agentStop: [{ type: 'command', exec: RT.node, args: [RT.bin, 'hook', 'stop', '--host', 'copilot'], timeoutSec: 25 }] } });
    expect(sameJson(uninstallPlan(installed, plan).settings, plan.base)).toBe(true);
    const other = { version: 1, hooks: { agentStop: [{ bash: 'echo a' }], preToolUse: [] } };
    const both = installPlan(other, plan).settings;
    expect(uninstallPlan(both, plan).settings).toEqual(other);
  });
});

// ---- properties -------------------------------------------------------------------------

const keyArb = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
/** True when a "__proto__" own key appears anywhere (fast-check generates them on purpose; the parser refuses them). */
function hasProtoKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasProtoKey);
  if (typeof v !== 'object' || v === null) return false;
  return Object.hasOwn(v, '__proto__') || Object.values(v).some(hasProtoKey);
}
const leafArb = fc.jsonValue({ maxDepth: 2 }).filter((v) => !hasProtoKey(v));

type Entries = Array<[string, unknown]>;

function entriesArb(exclude: readonly string[], maxLength = 4): fc.Arbitrary<Entries> {
  return fc.uniqueArray(fc.tuple(keyArb.filter((k) => !exclude.includes(k)), leafArb), { maxLength, selector: (e) => e[0] }) as fc.Arbitrary<Entries>;
}

/** An object with `extra` keys and the special ones inserted at the given positions. */
function build(extra: Entries, special: Array<[string, unknown, number]>): Record<string, unknown> {
  const entries = [...extra];
  for (const [k, v, pos] of special) entries.splice(pos % (entries.length + 1), 0, [k, v]);
  return Object.fromEntries(entries);
}

const hookArb = fc
  .tuple(entriesArb(['type', 'command', 'args']), fc.option(fc.string({ maxLength: 30 }), { nil: undefined }), fc.nat())
  .map(([extra, command, pos]) => build(extra, command === undefined ? [] : [['command', command, pos]]))
  .filter((h) => !isOurHook(h));

const groupArb = fc
  .tuple(entriesArb(['hooks', 'matcher'], 2), fc.array(hookArb, { maxLength: 3 }), fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), fc.nat(), fc.nat())
  .map(([extra, hooks, matcher, p1, p2]) => build(extra, [['hooks', hooks, p1], ...(matcher === undefined ? [] : [['matcher', matcher, p2] as [string, unknown, number]])]));

/**
 * Valid settings that hold nothing of ours. Install cannot tell an absent container from an
 * empty one it then fills, so hooks, hooks.Stop, permissions and permissions.deny are either
 * absent or non-empty (uninstall removes the ones that it empties).
 */
const settingsArb = fc
  .record({
    extra: entriesArb(['hooks', 'permissions'], 5),
    hooks: fc.option(
      fc.tuple(entriesArb(['Stop', 'ConfigChange'], 3), fc.option(fc.array(groupArb, { minLength: 1, maxLength: 3 }), { nil: undefined }), fc.nat()).map(([events, stop, pos]) =>
        build(events, stop === undefined ? [] : [['Stop', stop, pos]]),
      ),
      { nil: undefined },
    ),
    permissions: fc.option(
      fc
        .tuple(entriesArb(['deny'], 3), fc.option(fc.array(fc.string({ maxLength: 12 }).filter((s) => !DENY_RULES.includes(s)), { minLength: 1, maxLength: 4 }), { nil: undefined }), fc.nat())
        .map(([rest, deny, pos]) => build(rest, deny === undefined ? [] : [['deny', deny, pos]])),
      { nil: undefined },
    ),
    hooksPos: fc.nat(),
    permissionsPos: fc.nat(),
  })
  .filter((s) => (s.hooks === undefined || Object.keys(s.hooks).length > 0) && (s.permissions === undefined || Object.keys(s.permissions).length > 0))
  .map((s) =>
    build(s.extra, [
      ...(s.hooks === undefined ? [] : [['hooks', s.hooks, s.hooksPos] as [string, unknown, number]]),
      ...(s.permissions === undefined ? [] : [['permissions', s.permissions, s.permissionsPos] as [string, unknown, number]]),
    ]),
  );

const indentArb = fc.constantFrom<string | number>(2, 4, '\t', '');
const trailingArb = fc.constantFrom('\n', '', '\r\n');

describe('settings properties', () => {
  it('install then uninstall is the identity on the text of any valid settings object', () => {
    fc.assert(
      fc.property(settingsArb, (x) => {
        expect(validateSettings(x, PLAN)).toBeNull();
        const text = JSON.stringify(x, null, 2) + '\n';
        const installed = installText(text);
        expect(installed).not.toBe(text);
        expect(uninstallText(installed)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it('the identity holds in every indentation and with or without a final newline', () => {
    fc.assert(
      fc.property(settingsArb, indentArb, trailingArb, (x, indent, trailing) => {
        const text = JSON.stringify(x, null, indent) + trailing;
        expect(uninstallText(installText(text))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('install is idempotent, and leaves exactly one entry of ours and each deny rule once', () => {
    fc.assert(
      fc.property(settingsArb, (x) => {
        const once = installText(JSON.stringify(x, null, 2) + '\n');
        const { value } = parse(once);
        const again = installStopHook(value);
        expect(again.changed).toBe(false);
        expect(serializeSettings(again.settings, parse(once).style)).toBe(once);
        expect(ours(value)).toEqual([ENTRY]);
        const deny = (value as { permissions: { deny: string[] } }).permissions.deny;
        for (const rule of DENY_RULES) expect(deny.filter((d) => d === rule)).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });

  it('repairs any number of drifted or repeated entries of ours to one, at the first one', () => {
    const driftArb = fc.oneof(
      fc.constant<unknown>({ ...ENTRY }),
      fc.string({ maxLength: 20 }).map((s) => ({ type: 'command', command: `${s} ${STOP_HOOK_MARKER}`, timeout: 30 })),
      fc.nat({ max: 600 }).map((t) => ({ ...ENTRY, timeout: t })),
      fc.string({ maxLength: 20 }).map((s) => ({ ...ENTRY, command: s })),
    );
    fc.assert(
      fc.property(settingsArb, fc.array(fc.tuple(driftArb, fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }), (x, drifts) => {
        // Put the drifted entries into Stop groups (new groups, or inside existing ones).
        const settings = structuredClone(x) as { hooks?: { Stop?: Array<{ hooks: unknown[] }> } };
        settings.hooks ??= {};
        settings.hooks.Stop ??= [];
        const stop = settings.hooks.Stop;
        for (const [d, g, h] of drifts) {
          if (g % 3 === 0 || stop.length === 0) stop.splice(g % (stop.length + 1), 0, { hooks: [d] });
          else {
            const group = stop[g % stop.length]!;
            group.hooks.splice(h % (group.hooks.length + 1), 0, d);
          }
        }
        const firstAt = (s: typeof settings) => {
          const list = s.hooks!.Stop!;
          for (let g = 0; g < list.length; g++) {
            const h = list[g]!.hooks.findIndex(isOurHook);
            if (h >= 0) return [g, h];
          }
          return null;
        };
        const r = installStopHook(settings);
        expect(ours(r.settings)).toEqual([ENTRY]);
        expect(firstAt(r.settings as typeof settings)).toEqual(firstAt(settings));
        // Everything that is not ours is untouched, and uninstall removes the repaired entry.
        expect(uninstallStopHook(r.settings).settings).toEqual(uninstallStopHook(settings).settings);
      }),
      { numRuns: 300 },
    );
  });
});
