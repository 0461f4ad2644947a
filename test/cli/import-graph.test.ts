// The CLI's layers: cli/ parses the command line and dispatches to commands/ (and hook/), which
// are given what they share with it (streams, run options, exit codes, how gate-check was
// started, the subcommand parser) by program/. Nothing leads back up: no module cycle passes
// through both cli/ and commands/ (the lazy loader once made one: emit -> cli/lazy -> run), and
// no folder below imports cli/ or commands/ at all, not even a type, so the folders form no
// circle either. Only action/, the GitHub Action's entry, starts the CLI in its process.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = resolve(import.meta.dirname, '../../lib');

function graph(withTypes = false): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(LIB);
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    const out: string[] = [];
    const imports = withTypes ? /^(?:import|export)\s+[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm : /^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm;
    for (const m of src.matchAll(imports)) {
      out.push(relative(LIB, resolve(dirname(f), (m[1] ?? m[2])!.replace(/\.js$/, '.ts'))));
    }
    edges.set(relative(LIB, f), out);
  }
  return edges;
}

describe('import graph of lib/', () => {
  it('has no cycle through both cli/ and commands/', () => {
    const edges = graph();
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const cycles: string[] = [];
    const visit = (u: string) => {
      state.set(u, 'open');
      stack.push(u);
      for (const v of edges.get(u) ?? []) {
        if (!edges.has(v)) continue;
        if (state.get(v) === 'open') {
          const cycle = stack.slice(stack.indexOf(v));
          if (cycle.some((x) => x.startsWith('cli/')) && cycle.some((x) => x.startsWith('commands/'))) cycles.push(cycle.join(' -> '));
        } else if (!state.has(v)) visit(v);
      }
      stack.pop();
      state.set(u, 'done');
    };
    for (const f of edges.keys()) if (!state.has(f)) visit(f);
    expect(edges.size).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  });

  it.each([
    ['cli/', ['cli/', 'action/']],
    ['commands/', ['commands/', 'cli/', 'action/']],
  ])('lets only the layers above import %s (types included)', (folder, above) => {
    const edges = graph(true);
    const upward = [...edges].flatMap(([from, to]) => to.filter((t) => t.startsWith(folder) && !above.some((a) => from.startsWith(a))).map((t) => `${from} -> ${t}`));
    expect(edges.size).toBeGreaterThan(100);
    expect(upward).toEqual([]);
  });
});
