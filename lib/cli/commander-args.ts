// commander, built from the option table: help, version, and the explanation of every command
// line the fast parser declines (unknown options with suggestions, missing values). Loaded
// only for those.
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../errors.js';
import { EXIT_CODES_HELP, FILES_ARGUMENT, OPTIONS, ROOT_DESCRIPTION, type RawArgs } from './option-table.js';

export type CommanderParse = { kind: 'done'; output: string } | { kind: 'args'; raw: RawArgs };

export function commanderParse(argv: readonly string[], version: string): CommanderParse {
  let output = '';
  const program = new Command('gate-check').description(ROOT_DESCRIPTION).argument('[file...]', FILES_ARGUMENT);
  for (const o of OPTIONS) {
    const usage = o.kind === 'flag' ? o.flag : o.kind === 'value' ? `${o.flag} <${o.valueName}>` : `${o.flag} [${o.valueName}]`;
    program.addOption(new Option(usage, o.help));
  }
  program
    .version(version, '-V, --version')
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', EXIT_CODES_HELP)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => void (output += s), writeErr: () => {}, outputError: () => {} });
  const occurrences = new Map<string, (string | true)[]>();
  for (const option of program.options) {
    const flag = option.long;
    if (flag === undefined || flag === '--version' || flag === '--help') continue;
    program.on(`option:${option.name()}`, (value: unknown) => {
      const list = occurrences.get(flag) ?? [];
      list.push(typeof value === 'string' ? value : true);
      occurrences.set(flag, list);
    });
  }
  try {
    program.parse(argv as string[], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return { kind: 'done', output };
      throw new UsageError(e.message.replace(/^error: /, ''));
    }
    throw e;
  }
  return { kind: 'args', raw: { occurrences, args: [...(program.args as string[])] } };
}
