// A small matcher for Claude Code permission rules, written from the documented semantics
// (code.claude.com/docs/en/permissions, "Permission rule syntax", "Bash", "Compound
// commands", "Process wrappers", "Read and Edit"; and ../shared/reference/agent-hosts.md).
// It is not Claude Code's implementation: it is what the documentation promises, so that the
// rules gate-check installs can be checked against that promise. Test code only.
//
// Bash(spec):
// - no `*`: the command equals spec; `*` matches any characters, spaces included; a trailing
//   ` *` (or `:*`) also matches the bare prefix (a word boundary: `ls *` matches `ls` and
//   `ls -la`, not `lsof`); a `:` elsewhere is literal.
// - the command is split at `&&`, `||`, `;`, `|`, `|&`, `&` and newlines (outside quotes);
//   an allow rule must match every part, a deny rule matches when any part does.
// - before matching a part: leading `VAR=value` assignments are skipped (for deny), then the
//   wrappers timeout, time, nice, nohup, stdbuf, command, builtin, noglob (with their own
//   options) and a bare xargs (no flags) are stripped.
// Edit(path) / Read(path): gitignore patterns. `//p` is absolute, `~/p` is in HOME, `/p` is
// relative to the project root (earlier versions of the page: to the settings file; the
// rules gate-check writes use only `//` and `~/`), `p` and `./p` to the current directory; `*` and `?` stay
// within one path segment, `**` spans segments; a pattern without a slash (but a trailing
// one) matches at any depth below its base.

export interface RuleContext {
  home: string;
  projectRoot: string;
  cwd: string;
}

export type ToolUse = { tool: 'Bash'; command: string } | { tool: 'Edit' | 'Read'; path: string };

/** Splits a command line at the documented separators, outside single and double quotes. */
export function splitCompound(command: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      cur += c;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) {
      cur += c + command[++i];
      continue;
    }
    const two = command.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === '|&') {
      parts.push(cur);
      cur = '';
      i++;
      continue;
    }
    if (c === ';' || c === '|' || c === '&' || c === '\n') {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])*\s+/;

/** Skips options of a wrapper and the arguments they take. */
function stripWrapper(words: string[]): string[] | null {
  const [w, ...rest] = words;
  let i = 0;
  switch (w) {
    case 'timeout':
      while (rest[i]?.startsWith('-')) i += /^-(?:s|k|-signal|-kill-after)$/.test(rest[i]!) ? 2 : 1;
      return rest.slice(i + 1); // the duration
    case 'nice':
      if (rest[0] === '-n') return rest.slice(2);
      return rest[0]?.startsWith('-') ? rest.slice(1) : rest;
    case 'stdbuf':
      while (rest[i]?.startsWith('-')) i += /^-[ioe]$/.test(rest[i]!) ? 2 : 1;
      return rest.slice(i);
    case 'time':
      return rest[0] === '-p' ? rest.slice(1) : rest;
    case 'nohup':
    case 'command':
    case 'builtin':
    case 'noglob':
      return rest;
    case 'xargs':
      return rest[0]?.startsWith('-') ? null : rest;
    default:
      return null;
  }
}

/** One part of a compound command as Claude Code matches it. */
export function normalizePart(part: string, skipAssignments: boolean): string {
  let s = part.trim();
  if (skipAssignments) while (ASSIGNMENT.test(s)) s = s.replace(ASSIGNMENT, '');
  let words = s.split(/\s+/);
  for (;;) {
    const inner = stripWrapper(words);
    if (inner === null || inner.length === 0) break;
    words = inner;
  }
  return words.join(' ');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A Bash rule's specifier as a regular expression over one normalized command. */
export function bashPattern(spec: string): RegExp {
  let body = spec;
  let boundary = false;
  if (body.endsWith(':*')) {
    body = body.slice(0, -2);
    boundary = true;
  } else if (body.endsWith(' *')) {
    body = body.slice(0, -2);
    boundary = true;
  }
  const re = body.split('*').map(escapeRe).join('.*');
  return new RegExp(boundary ? `^${re}(?: .*)?$` : `^${re}$`, 's');
}

function parseRule(rule: string): { tool: string; spec: string | null } {
  const m = /^([A-Za-z]+)(?:\((.*)\))?$/s.exec(rule);
  if (!m) throw new Error(`not a rule: ${rule}`);
  const spec = m[2] ?? null;
  return { tool: m[1]!, spec: spec === '*' && m[1] === 'Bash' ? null : spec };
}

/** gitignore-style glob over a path relative to the pattern's base. */
function globRe(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      const slashAfter = pattern[i + 2] === '/';
      re += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

export function pathRuleMatches(spec: string, path: string, ctx: RuleContext): boolean {
  let base: string;
  let pattern: string;
  if (spec.startsWith('//')) [base, pattern] = ['/', spec.slice(2)];
  else if (spec.startsWith('~/')) [base, pattern] = [ctx.home, spec.slice(2)];
  else if (spec.startsWith('/')) [base, pattern] = [ctx.projectRoot, spec.slice(1)];
  else [base, pattern] = [ctx.cwd, spec.startsWith('./') ? spec.slice(2) : spec];
  const prefix = base.endsWith('/') ? base : `${base}/`;
  if (!path.startsWith(prefix)) return false;
  const rel = path.slice(prefix.length);
  const trimmed = pattern.replace(/\/+$/, '');
  const anchored = trimmed.includes('/');
  const re = globRe(anchored ? trimmed : `**/${trimmed}`);
  // A pattern that names a directory also covers what is inside it.
  return re.test(rel) || globRe(`${anchored ? trimmed : `**/${trimmed}`}/**`).test(rel);
}

/** True when the rule matches the tool use; `as` says whether it is read as a deny or an allow rule. */
export function ruleMatches(rule: string, use: ToolUse, ctx: RuleContext, as: 'deny' | 'allow'): boolean {
  const { tool, spec } = parseRule(rule);
  if (use.tool === 'Bash') {
    if (tool !== 'Bash') return false;
    if (spec === null) return true;
    const re = bashPattern(spec);
    const parts = splitCompound(use.command).map((p) => normalizePart(p, as === 'deny'));
    return as === 'deny' ? parts.some((p) => re.test(p)) : parts.length > 0 && parts.every((p) => re.test(p));
  }
  if (tool !== use.tool) return false;
  return spec === null || pathRuleMatches(spec, use.path, ctx);
}

/** Denied by any of the rules. */
export function denied(rules: readonly string[], use: ToolUse, ctx: RuleContext): boolean {
  return rules.some((r) => ruleMatches(r, use, ctx, 'deny'));
}
