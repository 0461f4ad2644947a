// machine-specific-path: a CHECK that names /home/alice, C:\ or a fixed /tmp path proves
// something on one machine only, and a fixed scratch path can hold a previous run's output.
// Standard system locations (/usr/bin/env, /bin/sh, /dev/null) are fine. Pure.
import { listed } from './excerpt.js';
import type { ShellList } from './shell-list.js';
import type { Word } from './shell-words.js';
import type { GateFinding } from './types.js';

type Kind = 'home directory' | 'scratch path' | 'drive path' | 'home-relative path' | 'absolute path';

const SYSTEM = /^\/(?:dev|bin|sbin|usr|etc|proc|sys|lib|lib64)(?:\/|$)/;
const HOME = /^\/(?:home\/[^/]+|Users\/[^/]+|root)(?:\/|$)/;
// Other top-level directories that exist on real machines; anything else after a '/' (/api/v1
// in a curl or grep argument) is more likely a route or a pattern than a file.
const MACHINE = /^\/(?:opt|mnt|media|srv|var|nix|snap|run|Volumes|Applications|Library|private|workspaces?)(?:\/|$)/;
const SCRATCH = /^\/(?:tmp|var\/tmp|private\/tmp|var\/folders|private\/var\/folders)(?:\/|$)/;
// A path starts a word or follows = : , ( or a quote inside one (--out=/tmp/x, PATH=a:/home/x).
const ABSOLUTE = /(?<=^|[=:,('"\s])\/(?!\/)[^\s'"(),;:]*/g;
const DRIVE = /(?<=^|[=,('"\s])[A-Za-z]:[\\/][^\s'"(),;]*/g;
const TILDE = /(?<=^|[=:])~[A-Za-z0-9._-]*(?=\/|$)[^\s'"(),;:]*/g;

export function pathRule(list: ShellList, line: number): GateFinding[] {
  const found = new Map<string, Kind>();
  for (const word of allWords(list)) {
    for (const [path, kind] of machinePaths(word.value)) if (!found.has(path)) found.set(path, kind);
  }
  if (found.size === 0) return [];
  const kinds = new Set(found.values());
  const fixes: string[] = [];
  if (kinds.has('scratch path')) fixes.push('make scratch space with mktemp -d (or inside the repository) instead of a fixed /tmp path');
  if ([...kinds].some((k) => k !== 'scratch path')) fixes.push('use paths relative to the repository (CWD: sets the directory) and commands found on PATH');
  return [
    {
      line,
      rule: 'machine-specific-path',
      // /tmp exists everywhere: its risk is an earlier run's file, or two runs at once (round-31b F10).
      message: `CHECK uses machine-specific paths: ${listed([...found].map(([p, k]) => `${p} (${k})`), 3, 100)}; ${kinds.size === 1 && kinds.has('scratch path') ? "a fixed scratch path can hold an earlier run's file, and two runs at once share it" : 'the gate can only pass on this machine'}`,
      suggestion: fixes.join('; '),
    },
  ];
}

function* allWords(list: ShellList): Iterable<Word> {
  for (const item of list.items) {
    for (const cmd of item.pipeline) {
      yield* cmd.assignments;
      yield* cmd.words;
      for (const r of cmd.redirects) if (r.target) yield r.target;
    }
  }
}

/** Machine-specific paths inside one word's text. */
export function machinePaths(text: string): Array<[string, Kind]> {
  const out: Array<[string, Kind]> = [];
  for (const m of text.matchAll(ABSOLUTE)) {
    const path = m[0];
    if (SYSTEM.test(path)) continue;
    if (HOME.test(path)) out.push([path, 'home directory']);
    else if (SCRATCH.test(path)) out.push([path, 'scratch path']);
    else if (MACHINE.test(path)) out.push([path, 'absolute path']);
  }
  for (const m of text.matchAll(DRIVE)) out.push([m[0], 'drive path']);
  for (const m of text.matchAll(TILDE)) out.push([m[0], 'home-relative path']);
  return out;
}
