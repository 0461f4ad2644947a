// Bundles lib/ into dist/ with esbuild, in two builds of the same lib/cli/main.ts
// (lib/cli/route.ts says which command line goes where):
// - dist/cli.js and dist/chunks/: ESM, split, every command; the code of runs, subcommands
//   and hooks is in chunks loaded by dynamic import().
// - dist/status.cjs, dist/hook.cjs and dist/run.cjs: CommonJS, one file each, for --status,
//   the Stop hook and runs, each with a V8 code cache made by running its commands once
//   (scripts/code-cache.mjs, read by bin/fast-loader.cjs). The code of other commands is
//   replaced by a stub that fails (exit 2) if it is ever reached.
// - dist/route.cjs: the router, for bin/gate-check.js; dist/fast-glob.cjs for both fast builds.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
// Build beside dist/ and swap directories, so that a CLI started during a rebuild finds a
// complete tree (the old or the new one).
const staging = `${dist}.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.17',
  minifySyntax: true,
  // GATE_CHECK_BUILD_READABLE=1 keeps one statement per line, for CPU profiles with line numbers.
  minifyWhitespace: process.env.GATE_CHECK_BUILD_READABLE !== '1',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: { cli: 'lib/cli/main.ts' },
  outdir: staging,
  splitting: true,
  format: 'esm',
  sourcemap: 'linked',
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import{createRequire as __gcRequire}from'node:module';const require=__gcRequire(import.meta.url);" },
});

// The fast builds: main.ts, with the modules of the commands it does not serve replaced by a
// stub that fails if it is ever reached, and fast-glob in a file of its own (loaded only for
// a DEPENDS pattern that needs it).
const LAZY_EXPORTS = {
  './lazy.js': ['runCommand', 'claimCommand', 'releaseCommand', 'listScopesCommand'],
  './lazy-subcommands.js': ['runSubcommand'],
  './commander-args.js': ['commanderParse'],
  './lazy-stop-hook.js': ['claudeStopCommand', 'hookStopCommand'],
};
// Each fast build, and the modules it lacks.
const FAST_BUILDS = {
  run: ['./lazy-subcommands.js', './commander-args.js', './lazy-stop-hook.js'],
  status: ['./lazy.js', './lazy-subcommands.js', './commander-args.js', './lazy-stop-hook.js'],
  hook: ['./lazy.js', './lazy-subcommands.js', './commander-args.js'],
};
const stubsFor = (name) => ({
  name: 'fast-build-stubs',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => (FAST_BUILDS[name].includes(args.path) && /\/lib\/cli\/[a-z-]+\.ts$/.test(args.importer) ? { path: args.path, namespace: 'stub' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
      contents: `const misrouted = () => { throw new Error('this command line reached dist/${name}.cjs, which does not serve it (lib/cli/route.ts)'); };\n${LAZY_EXPORTS[args.path].map((e) => `export const ${e} = misrouted;`).join('\n')}`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^fast-glob$/ }, () => ({ path: 'fast-glob', namespace: 'own-file' }));
    b.onLoad({ filter: /.*/, namespace: 'own-file' }, () => ({ contents: "module.exports = require('./fast-glob.cjs');", loader: 'js' }));
    b.onResolve({ filter: /^\.\/fast-glob\.cjs$/ }, (args) => (args.namespace === 'own-file' ? { path: args.path, external: true } : undefined));
  },
});
// The fast builds also shorten local names: about 25% less source to read and a smaller code
// cache to deserialize, 0.7 ms of each --status on Node 20 (messages never use a function's name).
const cjs = { ...common, minifyIdentifiers: process.env.GATE_CHECK_BUILD_READABLE !== '1', format: 'cjs', legalComments: 'none', define: { ...common.define, 'import.meta.url': '__filename' } };
await build({ ...cjs, entryPoints: ['lib/cli/route.ts'], outfile: `${staging}/route.cjs` });
await build({ ...cjs, entryPoints: ['fast-glob'], outfile: `${staging}/fast-glob.cjs`, legalComments: 'linked' });
// The Stop hook's warm-up reads a stop payload on stdin, as a host sends it.
const payload = JSON.stringify({ session_id: 'code-cache', transcript_path: '/nonexistent', hook_event_name: 'Stop', stop_hook_active: false });
const CODE_CACHE_TIMEOUT_MS = 120_000;
for (const name of Object.keys(FAST_BUILDS)) {
  const file = `${staging}/${name}.cjs`;
  await build({ ...cjs, entryPoints: ['lib/cli/main.ts'], outfile: file, plugins: [stubsFor(name)] });
  if (/\bimport\(/.test(readFileSync(file, 'utf8'))) throw new Error(`dist/${name}.cjs holds a dynamic import(), which its loader (node:vm) cannot serve`);
  // Bounded: a warm-up that hangs (a broken machine, a mutant of scripts/mutation.mjs) must not hang `npm ci`.
  const made = spawnSync(process.execPath, [fileURLToPath(new URL('./code-cache.mjs', import.meta.url)), staging, name], { input: payload, stdio: ['pipe', 'inherit', 'inherit'], timeout: CODE_CACHE_TIMEOUT_MS, killSignal: 'SIGKILL' });
  // Without its cache a fast build still works, only slower: an install must not fail for it.
  if (made.status !== 0) console.warn(`build: making the code cache of ${name}.cjs failed (${made.error?.code === 'ETIMEDOUT' ? `no end within ${CODE_CACHE_TIMEOUT_MS / 1000} s` : (made.status ?? made.signal)}); it starts slower without one`);
}

const old = `${dist}.old-${process.pid}`;
if (existsSync(dist)) renameSync(dist, old);
renameSync(staging, dist);
rmSync(old, { recursive: true, force: true });
