// Which build serves a command line (bin/gate-check.js asks before loading any). The calls
// paid most often go to a fast build: --status to dist/status.cjs, the Stop hook to
// dist/hook.cjs, and every other root command line the small parser reads (runs, --approve,
// --reverify, claims) to dist/run.cjs. Each is one CommonJS file with a code cache, which
// starts in well under the time of the split ESM build. Everything else (help, subcommands,
// what commander must explain) goes to the ESM build (dist/cli.js), which holds every
// command. All are built from the same lib/cli/main.ts, so a command line gets the same
// answer from each; a fast build only lacks the code of the other commands, and reaching it
// there is an internal error (exit 2), never a silent answer (scripts/build.mjs). Pure.
import { fastParse } from './fast-args.js';
import { SUBCOMMANDS } from './option-table.js';

export type Route = 'status' | 'hook' | 'run' | 'full';

export function routeOf(argv: readonly string[]): Route {
  const first = argv[0];
  if (first === 'hook') return argv[1] === 'stop' || argv[1] === 'claude-stop' ? 'hook' : 'full';
  if (first !== undefined && SUBCOMMANDS.has(first)) return 'full';
  // The fast parser reads the line as main.ts will; what it declines (help, short options,
  // anything commander must explain) goes to the full build.
  const raw = fastParse(argv);
  if (raw === null) return 'full';
  return raw.occurrences.has('--status') ? 'status' : 'run';
}
