// undeclared-script: a script the CHECK runs is part of the oracle. Unless a DEPENDS glob
// covers it, editing the script (say, to print the EXPECT unconditionally) changes neither
// the approval nor the evidence. Pure: the files DEPENDS matches on disk come from the caller.
import { listed, plain } from './excerpt.js';
import { globMatches } from './glob.js';
import { invokedScripts } from './scripts.js';
import type { ShellList } from './shell-list.js';
import type { GateContext, GateFinding } from './types.js';

export function scriptRule(list: ShellList, depends: readonly string[] | null, context: GateContext, line: number): GateFinding[] {
  if (context.workdir === null) return [];
  const globs = depends ?? [];
  // On disk, fast-glob's answer decides; a script not written yet is covered if a glob would match it.
  const covered = (path: string) => context.dependsMatched.has(path) || globs.some((g) => globMatches(g, path));
  const missing = invokedScripts(list, context.workdir).filter((p) => !covered(p));
  if (missing.length === 0) return [];
  const them = missing.length === 1 ? 'it' : 'them';
  return [
    {
      line,
      rule: 'undeclared-script',
      message: `CHECK runs ${listed(missing, 3, 120)}, which no DEPENDS glob covers: a change to ${them} would not invalidate the approval or the evidence`,
      suggestion: plain(`DEPENDS: ${[...globs, ...missing].join(', ')}`, 400),
    },
  ];
}
