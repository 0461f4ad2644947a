// Bundles lib/ into dist/ with esbuild: one start-up chunk for the status path, and split
// chunks that only execution, subcommands or hooks load (lazy import()).
import { build } from 'esbuild';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
// Build beside dist/ and swap directories, so that a CLI started during a rebuild finds a
// complete tree (the old or the new one).
const staging = `${dist}.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });

await build({
  entryPoints: { cli: 'lib/cli/main.ts' },
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
  banner: { js: "import{createRequire as __gcRequire}from'node:module';const require=__gcRequire(import.meta.url);" },
  logLevel: 'warning',
});

const old = `${dist}.old-${process.pid}`;
if (existsSync(dist)) renameSync(dist, old);
renameSync(staging, dist);
rmSync(old, { recursive: true, force: true });
