// undeclared-script: a script the CHECK runs is part of the oracle. Unless a DEPENDS glob
// covers it, editing the script (say, to print the EXPECT unconditionally) changes neither
// the approval nor the evidence. A file the CHECK only syntax-checks (`node --check x.js`,
// `sh -n x.sh`) runs nothing of it: it is an input, whose edit must make the evidence stale,
// and INPUTS covers it as well as DEPENDS. Pure: the files DEPENDS matches on disk come from
// the caller.
import { listed, plain } from './excerpt.js';
import { globMatches } from './glob.js';
import { inlineShellList } from './inline-shell.js';
import { invokedScripts, syntaxCheckedFiles, walkCommands, type PathResolver } from './scripts.js';
import type { ShellList } from './shell-list.js';
import type { GateContext, GateFinding } from './types.js';

type ScriptFinder = (list: ShellList, dir: string, resolve?: PathResolver) => string[];

/**
 * The repository paths `files` finds in the CHECK, and in each literal `sh -c '…'` body it
 * runs, resolved from the directory that sh runs in (lexically, unless `resolve` says otherwise).
 */
export function scriptsNamed(list: ShellList, workdir: string, files: ScriptFinder, resolve?: PathResolver): string[] {
  const found = new Set(files(list, workdir, resolve));
  walkCommands(list, workdir, (cmd, dir) => {
    const inner = inlineShellList(cmd);
    if (inner) for (const p of files(inner, dir, resolve)) found.add(p);
  });
  return [...found];
}

export function scriptRule(list: ShellList, gate: { depends: readonly string[] | null; inputs: readonly string[] | null }, context: GateContext, line: number): GateFinding[] {
  const workdir = context.workdir;
  if (workdir === null) return [];
  const globs = gate.depends ?? [];
  const inputGlobs = gate.inputs ?? [];
  // On disk, fast-glob's answer decides; a script not written yet is covered if a glob would match it.
  const covered = (path: string) => context.dependsMatched.has(path) || globs.some((g) => globMatches(g, path));
  const named = (files: ScriptFinder) => scriptsNamed(list, workdir, files);
  const findings: GateFinding[] = [];
  // A folder given to a runner (`node --test test/`) runs the files in it: a glob of them
  // binds it, the folder's own name matches no file (round-38b F4).
  const isFolder = (p: string) => context.hasFiles?.(`${p}/**/*`) === true;
  const coversFolder = (list: readonly string[], p: string) => list.some((g) => globMatches(g, `${p}/a.test.js`) && globMatches(g, `${p}/sub/a.test.js`));
  const runs = named(invokedScripts).map((written) => {
    const p = written.replace(/\/+$/, '');
    return p !== '' && isFolder(p) ? { path: p, folder: true, shown: `the files in ${p}/`, glob: `${p}/**` } : { path: written, folder: false, shown: written, glob: written };
  });
  const missing = runs.filter((r) => !(r.folder ? coversFolder(globs, r.path) : covered(r.path)));
  if (missing.length > 0) {
    const one = missing.length === 1 && !missing[0]!.folder;
    const it = one ? 'it' : 'them';
    // INPUTS makes the evidence stale; only DEPENDS asks a person before an edit runs.
    const inInputs = missing.every((r) => (r.folder ? coversFolder(inputGlobs, r.path) : inputGlobs.some((g) => globMatches(g, r.path))));
    findings.push({
      line,
      rule: 'undeclared-script',
      message: `CHECK runs ${listed(missing.map((r) => r.shown), 3, 120)}, which no DEPENDS glob covers: ${inInputs ? `INPUTS makes the evidence stale when ${one ? 'it changes' : 'they change'}, but an edit runs without a new approval` : `a change to ${it} would not invalidate the approval or the evidence`}`,
      suggestion: plain(`DEPENDS: ${[...globs, ...missing.map((r) => r.glob)].join(', ')}`, 400),
    });
  }
  const unread = named(syntaxCheckedFiles).filter((p) => !covered(p) && !inputGlobs.some((g) => globMatches(g, p)));
  if (unread.length > 0) {
    findings.push({
      line,
      rule: 'undeclared-inputs',
      message: `CHECK checks ${listed(unread, 3, 120)} without running ${unread.length === 1 ? 'it' : 'them'}, and no INPUTS or DEPENDS glob covers ${unread.length === 1 ? 'it' : 'them'}: an edit would leave the evidence fresh`,
      suggestion: plain(`INPUTS: ${[...inputGlobs, ...unread].join(', ')}`, 400),
    });
  }
  return findings;
}
