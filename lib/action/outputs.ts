// Step outputs in the $GITHUB_OUTPUT file format: every value in the heredoc form
// `name<<DELIMITER` … `DELIMITER` with a fresh random delimiter (as @actions/core writes
// them), so a value can hold newlines, "=" or "<<" and still not set another output. Pure.
import { randomUUID } from 'node:crypto';
import { UsageError } from '../errors.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The outputs the action's gate-check step sets (action.yml's `outputs:` maps exactly these). */
export const ACTION_OUTPUTS = ['verdict', 'exit-code', 'report', 'junit', 'not-met'] as const;
export type ActionOutputs = Record<(typeof ACTION_OUTPUTS)[number], string>;

export function outputEntries(values: Readonly<Record<string, string>>, delimiter: () => string = () => `ghadelimiter_${randomUUID()}`): string {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (!NAME.test(name)) throw new UsageError(`output name ${JSON.stringify(name)} is not a valid name`);
    const d = delimiter();
    // The runner ends the value at the first line equal to the delimiter: it must occur nowhere.
    if (name.includes(d) || value.includes(d)) throw new UsageError(`output ${name}: its value contains the delimiter ${d}`);
    out += `${name}<<${d}\n${value}\n${d}\n`;
  }
  return out;
}
