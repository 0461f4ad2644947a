// The paths and module names a node command loads, as written, for the UNBOUND reading
// (named-files.ts): node completes a path (`node scripts/t` runs scripts/t.js), and a
// JavaScript tool's configuration names modules the same way. Pure.
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { NODE_MODULE_ATTACHED, NODE_MODULE_OPTION } from './package-specifiers.js';
import type { SimpleCommand } from './shell-list.js';

/** The modules a node command is given to load by name (`-r x`, `--import=x`), through its wrappers. */
export function nodeModuleSpecifiers(cmd: SimpleCommand): string[] {
  const words = unwrapped(withoutKeywords(cmd));
  if (!/^(?:node|nodejs)$/.test(programName(words[0]) ?? '')) return [];
  const specifiers: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w.dynamic) continue;
    const attached = NODE_MODULE_ATTACHED.exec(w.value);
    if (attached) specifiers.push(attached[1]!);
    else if (NODE_MODULE_OPTION.test(w.value) && words[i + 1] && !words[i + 1]!.dynamic) specifiers.push(words[++i]!.value);
    // Inline code: require('x'), import('x'), import … from 'x'.
    else for (const m of w.value.matchAll(/\b(?:require|import)\s*\(\s*(['"`])([^'"`]+)\1|\bfrom\s*(['"])([^'"]+)\3/g)) specifiers.push(m[2] ?? m[4]!);
  }
  return specifiers;
}

/** What node tries after a path as written. */
export const NODE_EXTENSIONS = ['', '.js', '.json', '.node', '.cjs', '.mjs'];

/**
 * The paths a node command loads that node may complete (`node .`, `node scripts/t`,
 * `node -r ./setup`): its operands and the relative modules it is given, through its wrappers.
 */
export function nodePaths(cmd: SimpleCommand): string[] {
  const words = unwrapped(withoutKeywords(cmd));
  if (!/^(?:node|nodejs)$/.test(programName(words[0]) ?? '')) return [];
  const paths: string[] = [];
  const relative = (v: string) => v === '.' || v === '..' || v.startsWith('./') || v.startsWith('../') || v.startsWith('/');
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w.dynamic) continue;
    const attached = NODE_MODULE_ATTACHED.exec(w.value);
    if (attached) {
      if (relative(attached[1]!)) paths.push(attached[1]!);
    } else if (NODE_MODULE_OPTION.test(w.value)) {
      const next = words[++i];
      if (next && !next.dynamic && relative(next.value)) paths.push(next.value);
    } else if (!w.value.startsWith('-')) paths.push(w.value);
  }
  return paths;
}

/** JSON text with its `\\uXXXX`, `\\/` and `\\\\` escapes written as the characters they stand for (a quote kept escaped, the rest kept). */
export function decodeJsonEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(.))/g, (whole, hex: string | undefined, ch: string | undefined) => {
    const c = hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : ch!;
    // A quote stays escaped: decoded, it would end the string early. `\/` is `/` (round-20 G4).
    if (c === '"') return '\\"';
    if (hex === undefined && ch !== '/' && ch !== '\\') return whole;
    return c;
  });
}

/** JavaScript tools' configuration files, whose module paths node completes. */
export const JS_CONFIGURATION = /^(?:package\.json|\.mocharc\.[a-z]+|\.eslintrc(?:\.[a-z]+)?|[a-z-]+\.config\.[cm]?[jt]s(?:on)?|jest\.config\.json|vitest\.workspace\.[a-z]+|\.babelrc(?:\.[a-z]+)?|babel\.config\.[a-z]+)$/;
/** Paths of one configuration completed as node would (each a few stats). */
export const MAX_COMPLETED = 256;
