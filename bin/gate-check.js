#!/usr/bin/env node
// Thin entry: the CLI is built into dist/ by `npm run build` (run by `npm ci` through prepare).
import { main } from '../dist/cli.js';

for (const stream of [process.stdout, process.stderr]) {
  // A closed pipe (gate-check --status | head -1) is not a failure worth a stack trace.
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 1);
    throw e;
  });
}
process.exit(await main(process.argv.slice(2)));
