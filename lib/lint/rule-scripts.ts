// undeclared-script: a script the CHECK runs is part of the oracle. Unless a DEPENDS glob
// covers it, editing the script (say, to print the EXPECT unconditionally) changes neither
// the approval nor the evidence. Pure: the files DEPENDS matches on disk come from the caller.
import { listed, plain } from './excerpt.js';
import { globMatches } from './glob.js';
import { inlineShellList } from './inline-shell.js';
import { invokedScripts, walkCommands } from './scripts.js';
import type { ShellList } from './shell-list.js';
import type { GateContext, GateFinding } from './types.js';

export function scriptRule(list: ShellList, depends: readonly string[] | null, context: GateContext, line: number): GateFinding[] {
  if (context.workdir === null) return [];
  const globs = depends ?? [];
  // On disk, fast-glob's answer decides; a script not written yet is covered if a glob would match it.
  const covered = (path: string) => context.dependsMatched.has(path) || globs.some((g) => globMatches(g, path));
  const scripts = new Set(invokedScripts(list, context.workdir));
  // And those a literal `sh -c '…'` body runs, resolved from the directory the sh runs in.
  walkCommands(list, context.workdir, (cmd, dir) => {
    const inner = inlineShellList(cmd);
    if (inner) for (const p of invokedScripts(inner, dir)) scripts.add(p);
  });
  const missing = [...scripts].filter((p) => !covered(p));
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
