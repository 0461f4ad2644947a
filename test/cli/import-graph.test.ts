// The CLI's layers: cli/ dispatches to commands/, and nothing in commands/ leads back to a
// module of cli/ that imports a command (the lazy loader once did: emit -> cli/lazy -> run).
// Static and dynamic imports count; `import type` does not (it is erased).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = resolve(import.meta.dirname, '../../lib');

function graph(): Map<string, string[]> {
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
    for (const m of src.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm)) {
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
});
