// Where node finds a module named through the repository's own package.json: a subpath import
// (`node --import '#setup'`, package.json "imports") or a self-reference (`node -r pkg/setup`
// in the package named "pkg", its "exports"). Such a name is no path, yet it loads a
// repository file, and package.json chooses which (round-15 H3). Every target the entry can
// lead to under any condition is returned, relative to the package's folder. Pure; the
// package.json comes parsed from the caller and is hostile: own keys only, bounded walk.
import { isPlainObject } from '../json/hostile.js';

/** Node options whose value is a module it loads before the script (or a reporter it runs). */
export const NODE_MODULE_OPTION = /^(?:-r|--require|--import|--loader|--experimental-loader|--test-reporter)$/;
export const NODE_MODULE_ATTACHED = /^(?:--require|--import|--loader|--experimental-loader|--test-reporter)=(.+)$/;

const MAX_TARGETS = 32;
const MAX_DEPTH = 6;

/**
 * Whether node resolves `specifier` through a package.json rather than a path or
 * node_modules: `#name` always; a bare name only when it is the package's own (checked by
 * packageTargets against the package's "name").
 */
export function mayBePackageOwn(specifier: string): boolean {
  return specifier !== '' && !/^(?:\.{1,2}\/|\/|node:|file:|data:|https?:)/.test(specifier) && specifier !== '.' && specifier !== '..';
}

/**
 * The repository files (relative to the package's folder, without `./`) that `specifier`
 * leads to through `pkg`, and whether a bound cut the walk of its entry; null when `pkg` does
 * not resolve it (not its own name, no such entry: node looks in node_modules instead, or fails).
 */
export function packageTargets(specifier: string, pkg: unknown): { targets: string[]; cut: boolean } | null {
  if (!isPlainObject(pkg)) return null;
  let map: unknown;
  let key: string;
  if (specifier.startsWith('#')) {
    map = Object.hasOwn(pkg, 'imports') ? pkg.imports : undefined;
    key = specifier;
  } else {
    const name = Object.hasOwn(pkg, 'name') ? pkg.name : undefined;
    if (typeof name !== 'string' || name === '') return null;
    if (specifier === name) key = '.';
    else if (specifier.startsWith(`${name}/`)) key = `./${specifier.slice(name.length + 1)}`;
    else return null;
    map = Object.hasOwn(pkg, 'exports') ? pkg.exports : undefined;
    // "exports": "./x.js", or conditions without subpaths: the package's main entry only.
    if (map !== undefined && (!isPlainObject(map) || !Object.keys(map).some((k) => k.startsWith('.')))) map = key === '.' ? { '.': map } : {};
  }
  if (!isPlainObject(map)) return null;
  let entry: unknown;
  let star: string | null = null;
  if (Object.hasOwn(map, key)) entry = map[key];
  else {
    for (const pattern of Object.keys(map)) {
      const at = pattern.indexOf('*');
      if (at === -1 || pattern.indexOf('*', at + 1) !== -1) continue;
      const [prefix, suffix] = [pattern.slice(0, at), pattern.slice(at + 1)];
      if (key.length >= prefix.length + suffix.length && key.startsWith(prefix) && key.endsWith(suffix)) {
        entry = map[pattern];
        star = key.slice(prefix.length, key.length - suffix.length);
        break;
      }
    }
  }
  if (entry === undefined) return null;
  const targets: string[] = [];
  // A bound met: the entry may lead further than was read (the screen says so).
  let cut = false;
  const collect = (v: unknown, depth: number) => {
    if (targets.length >= MAX_TARGETS || depth > MAX_DEPTH) {
      cut = true;
      return;
    }
    if (typeof v === 'string') {
      if (v.startsWith('./')) targets.push((star === null ? v : v.split('*').join(star)).slice(2));
    } else if (Array.isArray(v)) {
      for (const x of v) collect(x, depth + 1);
    } else if (isPlainObject(v)) {
      for (const k of Object.keys(v)) collect(v[k], depth + 1);
    }
  };
  collect(entry, 0);
  return { targets, cut };
}
