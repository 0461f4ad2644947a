// Bundles lib/ into dist/ with esbuild: one start-up chunk for the status path, and split
// chunks that only execution, subcommands or hooks load (lazy import()).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'lib/cli/main.ts' },
  outdir: 'dist',
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
