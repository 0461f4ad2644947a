#!/usr/bin/env node
// Thin entry: the CLI is built into dist/ by `npm run build` (run by `npm ci` through prepare).
// Every failure to load or start (a missing build, EMFILE under a low `ulimit -n`) and every
// unexpected exception is exit 2 with one message, never 1 or a bare stack trace. The
// process exits only once its output is flushed (lib/cli/main.ts); the checks' process
// groups are killed on every exit (lib/run/supervisor.ts).
import { writeSync } from 'node:fs';

const say = (what, error) => {
  const message = error instanceof Error ? error.message : String(error);
  try {
    writeSync(2, `gate-check: ${what}: ${message.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 600)}\n`);
  } catch {
    // stderr is gone too: the exit code still says it.
  }
};
let built;
process.on('uncaughtException', async (error) => {
  say('internal error', error);
  await built?.releaseDeadTerminal().catch(() => {});
  process.exit(2);
});

let code = 2;
try {
  built = await import('../dist/cli.js');
} catch (error) {
  say('cannot start', error);
}
if (built) code = await built.cli(process.argv.slice(2));
process.exit(code);
