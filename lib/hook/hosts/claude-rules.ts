// The permissions.deny rules the Claude Code installer writes. Defence in depth, not a
// boundary: the boundary is the approval refusal of lib/approval/approver.ts (no terminal of
// its own; inside a run). Claude Code's documented matching (references/hosts.md):
// - Bash(p): `*` matches any characters; the command is split at && || ; | |& & and newlines
//   and a deny matches when any part matches, after leading VAR=value assignments and the
//   wrappers timeout, time, nice, nohup, stdbuf (and command, builtin, noglob, bare xargs)
//   are stripped. npx, node, pnpm dlx, direnv exec, mise exec are not stripped, so the
//   catch-all `*gate-check*--approve*` carries the spellings that start with a runner.
// - Edit(p): gitignore patterns; `//path` is absolute, `~/path` is in the home directory.
//   Edit rules cover every built-in tool that edits files (Edit, Write, MultiEdit,
//   NotebookEdit); Write(...) rules are not consulted, so none are written. They do not
//   cover shell commands (`sed -i`, `cp`), which only the sandbox confines.
// Pure.
import { join, resolve } from 'node:path';
import { storeLocations } from '../../store/locations.js';

/** Keep the agent from running the approval through its Bash tool. */
export const BASH_DENY_RULES: readonly string[] = [
  'Bash(gate-check --approve*)',
  'Bash(gate-check * --approve*)',
  'Bash(npx gate-check *--approve*)',
  'Bash(node *gate-check.js *--approve*)',
  'Bash(*gate-check*--approve*)',
];

/** Keep the agent's file tools out of the private store and the settings that hold the hook. */
export const EDIT_DENY_RULES: readonly string[] = ['Edit(~/.gate-check/**)', 'Edit(//**/.claude/settings.json)', 'Edit(//**/.claude/settings.local.json)'];

/** Every rule that does not depend on the environment, in the order install appends them. */
export const STATIC_DENY_RULES: readonly string[] = [...BASH_DENY_RULES, ...EDIT_DENY_RULES];

/** An Edit rule for an absolute directory and everything in it. */
function absoluteEditRule(dir: string): string {
  return `Edit(/${dir.replace(/\/+$/, '')}/**)`;
}

/**
 * Rules for a private store moved by GATE_CHECK_HOME or GATE_CHECK_APPROVAL_DIR (the
 * default store, ~/.gate-check, is covered by a static rule).
 */
export function storeDenyRules(env: NodeJS.ProcessEnv): string[] {
  const store = storeLocations(env);
  const home = env.HOME && env.HOME !== '' ? resolve(env.HOME) : null;
  const rules: string[] = [];
  const defaultBase = home === null ? null : join(home, '.gate-check');
  if (store.base !== defaultBase) rules.push(absoluteEditRule(store.base));
  if (!store.approvalsUnderBase && !store.approvals.startsWith(store.base + '/')) rules.push(absoluteEditRule(store.approvals));
  return rules;
}

export function denyRulesFor(env: NodeJS.ProcessEnv): string[] {
  return [...STATIC_DENY_RULES, ...storeDenyRules(env)];
}
