// `gate-check status`, `gate-check help`: a bare word that names an option, not a ledger.
// Checked only for a word that is not a file, so a ledger really called `status` still works.
import { UsageError } from '../errors.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { OPTION_BY_FLAG } from './option-table.js';
import { resolve } from 'node:path';
import { shellCommand } from '../text/shell-quote.js';
import { currentInvocation } from '../program/invocation.js';


const ALSO = new Map([
  ['help', '--help'],
  ['version', '--version'],
  ['run', ''],
]);

/** Throws a usage error with a suggestion when a named ledger is a missing file named like an option. */
export function refuseMistakenWords(files: readonly string[], cwd: string, env: NodeJS.ProcessEnv): void {
  for (const file of files) {
    if (!/^[a-z][a-z-]*$/.test(file)) continue;
    const flag = OPTION_BY_FLAG.has(`--${file}`) ? `--${file}` : ALSO.get(file);
    if (flag === undefined) continue;
    if (lstatOrNull(resolve(cwd, file)) !== null) continue;
    const start = currentInvocation(env);
    const suggestion = shellCommand(flag === '' ? start : [...start, flag]) ?? `gate-check ${flag}`.trim();
    throw new UsageError(`${file}: no such ledger file, and ${file} is not a command`, `did you mean '${suggestion}'?`);
  }
}
