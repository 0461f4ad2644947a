// GNU make's command line as make reads it, for the runner reading (runners.ts) and the
// UNBOUND reading (implicit-files.ts): short options grouped (`-sC sub`, `-sCsub`, `-kI mk`),
// `-j` and `-l` with an optional number, long options by any unambiguous prefix (`--dir=sub`),
// each `-C` relative to the one before. What it cannot know (a folder set at run time, the
// include folders) is reported, not guessed (round-20 G1). Pure.
import type { Word } from './shell-words.js';

export interface MakeOptions {
  /** `-f FILE`, relative to the folder make runs in. */
  definitions: string[];
  /** The folder `-C` leads to, relative to the command's; null for its own. */
  subdir: string | null;
  /** The first target named, or null. */
  target: string | null;
  /** What the reading cannot follow on this command line, or null. */
  unread: string | null;
}

/** Short options that take a value, in the same word or the next. */
const SHORT_VALUED = new Set(['C', 'f', 'I', 'o', 'W', 'E']);
/** Short options whose value is optional and numeric (`-j`, `-j4`, `-j 4`). */
const SHORT_NUMERIC = new Set(['j', 'l']);
/** Every long option of GNU make 4.4, and what it takes: a value, an optional number, or nothing. */
const LONG: Record<string, 'value' | 'number' | 'flag' | 'optional'> = {
  'always-make': 'flag', directory: 'value', debug: 'optional', 'environment-overrides': 'flag', eval: 'value', file: 'value',
  makefile: 'value', help: 'flag', 'ignore-errors': 'flag', 'include-dir': 'value', jobs: 'number', 'jobserver-style': 'value',
  'keep-going': 'flag', 'load-average': 'number', 'max-load': 'number', 'check-symlink-times': 'flag', 'just-print': 'flag', 'dry-run': 'flag',
  recon: 'flag', 'no-print-directory': 'flag', 'old-file': 'value', 'assume-old': 'value', 'output-sync': 'optional',
  'print-data-base': 'flag', question: 'flag', 'no-builtin-rules': 'flag', 'no-builtin-variables': 'flag', shuffle: 'optional',
  silent: 'flag', quiet: 'flag', 'no-silent': 'flag', stop: 'flag', 'no-keep-going': 'flag', touch: 'flag', trace: 'flag',
  version: 'flag', 'print-directory': 'flag', 'what-if': 'value', 'new-file': 'value', 'assume-new': 'value',
  'warn-undefined-variables': 'flag',
};
const LONG_NAMES = Object.keys(LONG);
/** `-C` given more often than this: the folder stops growing, and the reading says so. */
export const MAX_MAKE_DIRECTORIES = 32;

/** The long option a word names, by its full name or an unambiguous prefix; null if none or ambiguous. */
function longOption(name: string): string | null {
  if (Object.hasOwn(LONG, name)) return name;
  const matches = LONG_NAMES.filter((n) => n.startsWith(name));
  return matches.length === 1 ? matches[0]! : null;
}

export function makeOptions(args: readonly Word[]): MakeOptions {
  const out: MakeOptions = { definitions: [], subdir: null, target: null, unread: null };
  let directories = 0;
  const stop = (why: string) => {
    out.unread ??= why;
  };
  const valued = (option: string, value: Word | string | undefined) => {
    const dynamic = typeof value === 'object' && value.dynamic;
    const v = typeof value === 'object' ? value.value : value;
    if (option === 'directory') {
      if (v === undefined || dynamic) return stop('make -C to a folder set at run time');
      if (++directories > MAX_MAKE_DIRECTORIES) return stop(`make -C more than ${MAX_MAKE_DIRECTORIES} times`);
      out.subdir = out.subdir === null || v.startsWith('/') ? v : `${out.subdir}/${v}`;
    } else if (option === 'file' || option === 'makefile') {
      if (v !== undefined && !dynamic) out.definitions.push(v);
    } else if (option === 'include-dir') {
      stop('make -I: the include folders it searches');
    } else if (option === 'eval') {
      stop('make --eval: text it reads as a makefile');
    }
  };
  const SHORT_LONG: Record<string, string> = { C: 'directory', f: 'file', I: 'include-dir', o: 'old-file', W: 'what-if', E: 'eval' };
  // After `--` every word is a target or an assignment (`make -- -C sub` makes a target `-C`).
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (options && v === '--') {
      options = false;
      continue;
    }
    if (!options) {
      if (!w.dynamic && !/^[A-Za-z_][A-Za-z0-9_.]*[:+?!]?=/.test(v) && out.target === null) out.target = v;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const option = longOption(eq === -1 ? v.slice(2) : v.slice(2, eq));
      if (option === null) continue;
      const kind = LONG[option]!;
      if (eq !== -1) valued(option, w.dynamic ? { ...w, value: v.slice(eq + 1) } : v.slice(eq + 1));
      else if (kind === 'value') valued(option, args[++i]);
      else if (kind === 'number' && /^\d+$/.test(args[i + 1]?.value ?? '')) i++;
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      // A cluster: flags, until an option that takes the rest of the word or the next word.
      for (let k = 1; k < v.length; k++) {
        const c = v[k]!;
        if (SHORT_VALUED.has(c)) {
          const rest = v.slice(k + 1);
          if (rest !== '') valued(SHORT_LONG[c]!, w.dynamic ? { ...w, value: rest } : rest);
          else valued(SHORT_LONG[c]!, args[++i]);
          break;
        }
        if (SHORT_NUMERIC.has(c)) {
          const rest = v.slice(k + 1);
          // `-j4` takes the digits; `-j 4` the next word if it is a number; `-j -C sub`: no value.
          if (rest === '' && /^\d+$/.test(args[i + 1]?.value ?? '')) i++;
          if (/^\d/.test(rest)) break;
        }
      }
      continue;
    }
    if (w.dynamic) continue;
    // VAR=value assignments are not targets.
    if (!/^[A-Za-z_][A-Za-z0-9_.]*[:+?!]?=/.test(v) && out.target === null) out.target = v;
  }
  return out;
}
