// undeclared-inputs: a CHECK that calls a test runner or a task runner (npm test, node
// --test, vitest, jest, pytest, go test, cargo test, make) is bound to nothing it reads
// unless the gate says so. The file that defines what runs (package.json's script, the
// Makefile, vitest.config.ts, conftest.py) belongs in DEPENDS: changing it changes the
// check, so it needs a new approval. The tests and the code they test belong in INPUTS (or
// DEPENDS): without them an edit leaves the evidence fresh. Suggestions name only files and
// globs that exist now, since a glob that matches nothing makes a gate not runnable. Pure.
import { posix } from 'node:path';
import { listed, plain } from './excerpt.js';
import { globMatches } from './glob.js';
import { RUNNER_INFO, type RunnerCall } from './runners.js';
import { inDirectory } from './scripts.js';
import type { GateContext, GateFinding } from './types.js';

export interface LocatedRunner {
  call: RunnerCall;
  /** Repository-relative directory the command runs in. */
  dir: string;
}

interface GateGlobs {
  depends: readonly string[] | null;
  inputs: readonly string[] | null;
}

/** `dir/name` for a repository directory, without the `./` for the root. */
function under(dir: string, name: string): string {
  return dir === '.' ? name : posix.join(dir, name);
}

/** Runner calls examined per CHECK: each costs a few look-ups on disk. */
export const MAX_RUNNERS = 8;

export function inputsRule(runners: readonly LocatedRunner[], gate: GateGlobs, context: GateContext, line: number): GateFinding[] {
  if (runners.length === 0) return [];
  const globs = gate.depends ?? [];
  const covered = (path: string) => context.dependsMatched.has(path) || globs.some((g) => globMatches(g, path));
  const candidates = new Set<string>(); // every definition file a runner could read, existing or not
  const definitions = new Set<string>(); // the ones that exist
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const hasFiles = (glob: string) => context.hasFiles?.(glob) ?? false;
  for (const { call, dir } of runners) {
    const base = call.subdir === null ? dir : inDirectory(call.subdir, dir);
    if (base === null) continue;
    const key = `${call.id}\n${base}\n${call.definitions.join('\n')}`;
    if (seen.has(key)) continue;
    if (seen.size >= MAX_RUNNERS) break;
    seen.add(key);
    const info = RUNNER_INFO[call.id];
    const named = call.definitions.map((d) => inDirectory(d, base)).filter((p): p is string => p !== null);
    const standard = named.length > 0 && call.id === 'make' ? [] : info.definitions.map((d) => under(base, d));
    const all = [...named, ...standard];
    for (const p of all) candidates.add(p);
    const existing = all.filter((p) => hasFiles(p));
    for (const p of info.firstDefinitionOnly && named.length === 0 ? existing.slice(0, 1) : existing) definitions.add(p);
    for (const g of info.inputs) {
      const glob = under(base, g);
      if (!inputs.has(glob) && hasFiles(glob)) inputs.add(glob);
    }
  }
  const missing = [...definitions].filter((p) => !covered(p));
  // Tests are declared by INPUTS, or by a DEPENDS glob that is not just a definition file.
  const testsDeclared = gate.inputs !== null || globs.some((g) => !candidates.has(g));
  if (missing.length === 0 && testsDeclared) return [];

  const shown = listed([...new Set(runners.map((r) => r.call.shown))], 2, 40);
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`${listed(missing, 3, 80)}, which define${missing.length === 1 ? 's' : ''} what runs, ${missing.length === 1 ? 'is' : 'are'} in no DEPENDS glob: a change there changes the check without a new approval`);
  if (!testsDeclared) problems.push('neither DEPENDS nor INPUTS names the tests or the code they test: an edit to them leaves the evidence fresh');
  const fixes: string[] = [];
  if (missing.length > 0) fixes.push(`DEPENDS: ${[...globs, ...missing].join(', ')}`);
  if (!testsDeclared) {
    fixes.push(inputs.size > 0 ? `INPUTS: ${[...inputs].join(', ')}` : 'INPUTS: globs of the tests and the code they test (none of the usual directories has files here)');
  }
  return [
    {
      line,
      rule: 'undeclared-inputs',
      message: `CHECK runs ${shown}, but ${problems.join('; and ')}`,
      suggestion: plain(`add ${fixes.join(' and ')}`, 400),
    },
  ];
}
