// Bundles lib/ into dist/ with esbuild: one start-up chunk for the status path, and split
// chunks that only execution, subcommands or hooks load (lazy import()).
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
// Build beside dist/ and swap directories, so that a CLI started during a rebuild finds a
// complete tree (the old or the new one).
const staging = `${dist}.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });

// Node's built-in modules through process.getBuiltinModule (Node >= 20.16), not import: an
// ESM import of a built-in builds a facade that reads every export, and reading
// fs.ReadStream loads all of node:stream (3 ms of every start-up on Node 22). Named imports
// become property reads at the call.
//
// node:crypto is loaded at its first use (4 ms on Node 22: ciphers, streams), so that a status
// or a Stop hook of open gates, which hashes nothing, never pays for it. Only the functions
// lib/ uses are forwarded; the build refuses an import of any other.
const LAZY_BUILTINS = { 'node:crypto': ['createHash', 'hash', 'randomBytes', 'randomUUID'] };
/** Fails the build when lib/ uses a function of a lazy built-in that is not forwarded. */
function checkLazyBuiltins(dir = fileURLToPath(new URL('../lib', import.meta.url))) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) checkLazyBuiltins(path);
    if (!entry.name.endsWith('.ts')) continue;
    const src = readFileSync(path, 'utf8');
    for (const [builtin, names] of Object.entries(LAZY_BUILTINS)) {
      const used = [];
      for (const m of src.matchAll(new RegExp(`import \\{([^}]*)\\} from '${builtin}'`, 'g'))) used.push(...m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean));
      const star = new RegExp(`import \\* as (\\w+) from '${builtin}'`).exec(src);
      if (star) for (const m of src.matchAll(new RegExp(`\\b${star[1]}\\.(\\w+)`, 'g'))) used.push(m[1]);
      if (new RegExp(`import \\w+ from '${builtin}'`).test(src)) used.push('default');
      for (const name of used) if (!names.includes(name)) throw new Error(`${path}: ${builtin}.${name} is not forwarded by LAZY_BUILTINS in scripts/build.mjs`);
    }
  }
}
checkLazyBuiltins();

const builtinsWithoutFacade = {
  name: 'builtins-without-facade',
  setup(b) {
    // A dynamic import() stays Node's own: its named exports must be there.
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : { path: args.path, namespace: 'node-builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const get = `process.getBuiltinModule(${JSON.stringify(args.path)})`;
      const lazy = LAZY_BUILTINS[args.path];
      if (lazy === undefined) return { contents: `module.exports = ${get};`, loader: 'js' };
      const forwards = lazy.map((name) => `${name}: (...a) => (m ??= ${get}).${name}(...a)`).join(', ');
      return { contents: `let m; module.exports = { ${forwards} };`, loader: 'js' };
    });
  },
};

await build({
  entryPoints: { cli: 'lib/cli/main.ts' },
  plugins: [builtinsWithoutFacade],
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.17',
  sourcemap: 'linked',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "const require=process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  logLevel: 'warning',
});

const old = `${dist}.old-${process.pid}`;
if (existsSync(dist)) renameSync(dist, old);
renameSync(staging, dist);
rmSync(old, { recursive: true, force: true });
