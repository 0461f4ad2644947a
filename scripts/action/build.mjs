// Builds the GitHub Action's entry (lib/action/main.ts) into dist/action.js: one file, no
// chunks shared with the CLI's bundle (so the CLI's start-up path is untouched). Run by
// action.yml's first step in the action's own checkout, after `npm ci --ignore-scripts`.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

await build({
  absWorkingDir: root,
  entryPoints: ['lib/action/main.ts'],
  outfile: 'dist/action.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.17',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import{createRequire as __gcRequire}from'node:module';const require=__gcRequire(import.meta.url);" },
  logLevel: 'warning',
});
