// Where the refusals are, and how each one is deleted (one mutant per refusal site).
//
//   guard   `if (COND) throw …` / `if (COND) return <refusal>` / `if (COND) {` + throw
//           → the condition becomes `false`
//   throw   a bare `throw new <GateCheck error>(…)` → `void new …(…)` (the refusal is built, not thrown)
// A refusal return is `return null`, `return false`, `return undefined`, `return { ok: false`.
// A site whose line, or the comment right above it, says "Mutation note: equivalent" is an equivalent
// mutant: it is listed, and left out of the score.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ERRORS = 'UnsafeFileError|UnsafeStoreError|RunSetupError|ParseError|LockTimeoutError|UsageError|DiscoveryError|InterruptedError|Invalid';
const REFUSAL_RETURN = String.raw`return (?:null|false|undefined|\{ ok: false)`;
export const GUARD = new RegExp(String.raw`^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*(?:throw |${REFUSAL_RETURN}))`);
export const GUARD_BLOCK = /^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*\{\s*)$/;
export const BARE_THROW = new RegExp(String.raw`^(\s*)throw (new (?:${ERRORS})\()`);
const EQUIVALENT = /Mutation note: equivalent/;

/** The .ts files of `target` (a folder or a file under lib/), sorted. */
export function filesOf(root, target) {
  const abs = join(root, 'lib', target);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [abs];
  const out = [];
  for (const name of readdirSync(abs)) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...filesOf(root, relative(join(root, 'lib'), p)));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

/** Balanced parentheses: the condition of `if (` … `)` must close where the regex says. */
function balanced(text) {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** The comment lines right above line index i. */
function commentAbove(lines, i) {
  const out = [];
  for (let j = i - 1; j >= 0 && lines[j].trim().startsWith('//'); j--) out.push(lines[j]);
  return out;
}

/**
 * The mutants of one file: { file (relative to root), line, operator, source, mutated (the line
 * without its refusal), probed(id) (the line, unchanged in meaning, reporting that it ran), equivalent }.
 */
export function mutantsOf(root, abs) {
  const file = relative(root, abs);
  const lines = readFileSync(abs, 'utf8').split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('*')) return;
    const equivalent = EQUIVALENT.test(line) || commentAbove(lines, i).some((c) => EQUIVALENT.test(c));
    // The nth site with this text in the file: a key that survives lines added above it.
    const occurrence = out.filter((m) => m.source === trimmed).length;
    const site = { file, line: i + 1, source: trimmed, occurrence, equivalent };
    for (const pattern of [GUARD, GUARD_BLOCK]) {
      const m = pattern.exec(line);
      if (!m || !balanced(m[2])) continue;
      if (pattern === GUARD_BLOCK && !BARE_THROW.test(lines[i + 1] ?? '')) continue;
      out.push({
        ...site,
        operator: 'guard',
        mutated: line.replace(pattern, (_a, head, _cond, tail) => `${head}(false)${tail}`),
        probed: (id) => line.replace(pattern, (_a, head, cond, tail) => `${head}((__gcProbe(${id}), ${cond}))${tail}`),
      });
      return;
    }
    if (BARE_THROW.test(line) && !/^\s*(?:\}\s*else\s+)?if\s*\(/.test(lines[i - 1] ?? '')) {
      out.push({
        ...site,
        operator: 'throw',
        mutated: line.replace(BARE_THROW, (_a, indent, rest) => `${indent}void ${rest}`),
        probed: (id) => line.replace(BARE_THROW, (_a, indent, rest) => `${indent}throw __gcProbe(${id}) ?? ${rest}`),
      });
    }
  });
  return out;
}
