// The gate-check command line for one action run, and the names of the files it writes.
// Pure.
import type { ActionInputs } from './inputs.js';

/** Base name of the report and JUnit files: unique per mode and shard, so shard artifacts can be merged into one folder. */
export function outputBaseName(inputs: Pick<ActionInputs, 'mode' | 'shard'>): string {
  const shard = inputs.shard ? `-shard-${inputs.shard.index}-of-${inputs.shard.count}` : '';
  return `gate-check-${inputs.mode}${shard}`;
}

export function cliArguments(inputs: ActionInputs, junit: string, reports: readonly string[]): string[] {
  switch (inputs.mode) {
    case 'status':
      return ['--status', '--json', '--junit', junit, ...inputs.args];
    case 'reverify': {
      const shard = inputs.shard ? ['--shard', `${inputs.shard.index}/${inputs.shard.count}`] : [];
      // --approve takes an optional value: it is followed by an option, never by a word it could take as a pin or ledger.
      return ['--reverify', '--approve', '--json', '--junit', junit, ...shard, ...inputs.args];
    }
    case 'merge':
      // After "--" every word is a report, whatever it looks like.
      return ['merge', '--json', '--junit', junit, ...(inputs.shards === null ? [] : ['--shards', String(inputs.shards)]), ...inputs.args, '--', ...reports];
  }
}
