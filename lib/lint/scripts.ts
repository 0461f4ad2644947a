// Which repository scripts a CHECK runs (`node scripts/x.mjs`, `./tools/run.sh`,
// `npx tsx a.ts`, `deno run b.ts`, `python c.py`…), as repository-relative paths. Inline code
// (-e, -c), modules (python -m) and package scripts (npm run) are not files and are skipped.
// Pure: resolution is lexical, against the gate's working directory.
import { posix } from 'node:path';
import { programName, unwrapped } from './commands.js';
import type { ShellList, SimpleCommand } from './shell-list.js';
import type { Word } from './shell-words.js';

interface Interpreter {
  /** Options after which there is no script file (inline code, a module, stdin). */
  inline: (option: string) => boolean;
  /** Options that take the next word as their value. */
  valued: (option: string) => boolean;
  /** A first word to skip (`deno run`), required when `requiredVerb`. */
  verb?: string;
  requiredVerb?: boolean;
}

const oneOf = (...flags: string[]) => {
  const set = new Set(flags);
  return (option: string) => set.has(option);
};

const NODE: Interpreter = {
  inline: oneOf('-e', '--eval', '-p', '--print', '--test', '-'),
  valued: oneOf('-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file', '--tsconfig'),
};
const PYTHON: Interpreter = { inline: oneOf('-c', '-m', '-'), valued: oneOf('-W', '-X', '--check-hash-based-pycs') };
// sh -c, bash -lc, sh -s: the command comes from the argument or stdin, not a file.
// -o / -euo take an option name (pipefail) as their value.
const SHELL: Interpreter = {
  inline: (o) => o === '-' || (/^-[A-Za-z]*$/.test(o) && (o.includes('c') || o.includes('s'))),
  valued: (o) => /^[-+][A-Za-z]*[oO]$/.test(o) || o === '--rcfile' || o === '--init-file',
};

const INTERPRETERS: Record<string, Interpreter> = {
  node: NODE,
  nodejs: NODE,
  tsx: NODE,
  'ts-node': NODE,
  'ts-node-esm': NODE,
  'vite-node': NODE,
  esno: NODE,
  bun: { ...NODE, verb: 'run' },
  deno: { inline: oneOf('-'), valued: oneOf('-c', '--config', '--import-map', '--lock', '--cert', '--location', '--seed'), verb: 'run', requiredVerb: true },
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  ruby: { inline: oneOf('-e', '-'), valued: oneOf('-I', '-r', '-C') },
  perl: { inline: oneOf('-e', '-E', '-'), valued: oneOf('-I', '-M') },
  sh: SHELL,
  bash: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
};

/** The working directory of a gate, repository-relative; null when it lies outside the repository. */
export function gateWorkdir(cwd: string | null): string | null {
  // CWD: is relative to the repository root, for discovered and named ledgers alike (as oracle/resolve.ts does).
  const dir = posix.normalize(posix.join('.', cwd ?? '.'));
  return dir === '..' || dir.startsWith('../') ? null : dir;
}

/**
 * Repository-relative scripts the CHECK runs, in order, without duplicates. A literal `cd DIR`
 * moves the directory later scripts resolve against; after a `cd` that cannot be followed
 * (a variable, an absolute path, out of the repository) nothing more is resolved.
 */
/** Deeper than this, a `cd` chain (`cd x; cd x; …`) is no longer followed: each step would copy the whole path. */
const MAX_TRACKED_DIR = 1024;

export function invokedScripts(list: ShellList, workdir: string): string[] {
  const found = new Set<string>();
  let dir: string | null = workdir;
  for (const item of list.items) {
    for (const cmd of item.pipeline) {
      if (dir === null) break;
      const words = unwrapped(cmd);
      if (programName(words[0]) === 'cd') {
        const target = words[1];
        dir = target && !target.dynamic && target.value !== '-' ? repositoryPath(target.value, dir) : null;
        if (dir !== null && dir.length > MAX_TRACKED_DIR) dir = null;
        continue;
      }
      const script = scriptOf(cmd);
      const path = script === null ? null : repositoryPath(script, dir);
      if (path !== null) found.add(path);
    }
  }
  return [...found];
}

/** The script file a command runs, as written, or null. */
export function scriptOf(cmd: SimpleCommand): string | null {
  const words = unwrapped(cmd);
  const first = words[0];
  if (!first || first.dynamic) return null;
  // A command word with a '/' runs that file: ./scripts/run.sh, tools/check.
  if (first.value.includes('/') && !first.value.startsWith('/')) return first.value.includes('node_modules/') ? null : first.value;
  const name = programName(first);
  const spec = name === null ? undefined : INTERPRETERS[name];
  return spec ? scriptArgument(words.slice(1), spec) : null;
}

function scriptArgument(args: readonly Word[], spec: Interpreter): string | null {
  let i = 0;
  let verbSeen = spec.verb === undefined;
  while (i < args.length) {
    const word = args[i]!;
    const v = word.value;
    if (word.dynamic) return null;
    if (v === '--') {
      i++;
      continue;
    }
    if (v.startsWith('-') || v.startsWith('+')) {
      if (spec.inline(v)) return null;
      i += spec.valued(v) ? 2 : 1;
      continue;
    }
    if (!verbSeen && v === spec.verb) {
      verbSeen = true;
      i++;
      continue;
    }
    if (!verbSeen && spec.requiredVerb) return null; // deno test, deno task: no script file
    return looksLikeFile(v) ? v : null;
  }
  return null;
}

/** `scripts/a`, `check.py`: a path or a name with an extension, not a package script name. */
function looksLikeFile(v: string): boolean {
  return v.includes('/') || /\.[A-Za-z0-9]+$/.test(v);
}

function repositoryPath(script: string, workdir: string): string | null {
  const slashed = script.replace(/\\/g, '/');
  if (slashed.startsWith('/') || slashed.startsWith('~') || /^[A-Za-z]:/.test(slashed)) return null;
  const path = posix.normalize(posix.join(workdir, slashed));
  return path === '..' || path.startsWith('../') ? null : path;
}
