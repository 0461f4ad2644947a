// Repository-relative paths and globs written in a ledger (DEPENDS, INPUTS, OWNS, CWD). Pure.
import { braceExpansionCount, expandBraces, globLimitProblem } from './globs.js';

export type PathCheck = { ok: true; value: string } | { ok: false; reason: string };

/** Split a comma-separated list, keeping commas inside {a,b} brace groups. */
export function splitPathList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

/**
 * Normalize one repository-relative path or glob: backslashes become '/', './' and empty
 * segments go. Refused: empty, NUL, absolute, drive-letter, UNC, home-relative, any '..'
 * segment (unless allowParent, for CWD, whose containment is checked when it is resolved).
 */
export function normalizeRelativePath(raw: string, allowParent = false): PathCheck {
  const value = raw.trim();
  if (value === '') return { ok: false, reason: 'empty path' };
  if (value.includes('\u0000')) return { ok: false, reason: 'path contains NUL' };
  const slashed = value.replace(/\\/g, '/');
  if (slashed.startsWith('//')) return { ok: false, reason: `UNC path not allowed: ${value}` };
  if (/^[A-Za-z]:/.test(slashed)) return { ok: false, reason: `drive-letter path not allowed: ${value}` };
  if (slashed.startsWith('/')) return { ok: false, reason: `absolute path not allowed: ${value}` };
  if (slashed === '~' || slashed.startsWith('~/')) return { ok: false, reason: `home-relative path not allowed: ${value}` };
  const segments: string[] = [];
  for (const seg of slashed.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && !allowParent) return { ok: false, reason: `'..' segment not allowed: ${value}` };
    segments.push(seg);
  }
  if (segments.length === 0) return allowParent ? { ok: true, value: '.' } : { ok: false, reason: `path names no file: ${value}` };
  return { ok: true, value: segments.join('/') };
}

/**
 * Alternatives a whole ledger's brace groups may expand to. Each one is checked like a path
 * (below), and one DEPENDS line of 60 bytes may expand to 256 of them, so without this a
 * ledger at the size limit took a minute to parse (found by an attack on the Stop hook).
 */
export const MAX_LEDGER_EXPANSIONS = 262_144;

export interface ExpansionBudget {
  left: number;
  readonly total: number;
}

export function expansionBudget(total = MAX_LEDGER_EXPANSIONS): ExpansionBudget {
  return { left: total, total };
}

/**
 * A DEPENDS/INPUTS/OWNS glob: a normalized path, no negation (a list of what a check reads
 * cannot subtract), within the bounds of globs.ts, and every alternative of its brace
 * expansion repository-relative too (`{.,..}/x` and `{/srv,x}/f` reach outside otherwise).
 */
export function normalizeGlob(raw: string, expansions?: ExpansionBudget): PathCheck {
  const trimmed = raw.trim();
  if (trimmed.startsWith('!')) return { ok: false, reason: `negated pattern not allowed: ${trimmed}` };
  const n = normalizeRelativePath(raw);
  if (!n.ok) return n;
  const limit = globLimitProblem(n.value);
  if (limit) return { ok: false, reason: limit };
  if (n.value.includes('{')) {
    if (expansions !== undefined) {
      // Once over, the ledger is refused already: the rest is not expanded.
      if (expansions.left < 0) return n;
      expansions.left -= braceExpansionCount(n.value) ?? 0;
      if (expansions.left < 0) {
        return { ok: false, reason: `brace expansion of this ledger's patterns gives more than ${expansions.total} patterns in all, which is what one ledger may hold (refused): use directory globs such as src/**/*.js` };
      }
    }
    for (const alternative of expandBraces(n.value)) {
      const a = normalizeRelativePath(alternative);
      if (!a.ok) return { ok: false, reason: `${a.reason} (an alternative of ${n.value})` };
      if (a.value.startsWith('!')) return { ok: false, reason: `negated pattern not allowed: ${alternative} (an alternative of ${n.value})` };
    }
  }
  return n;
}
