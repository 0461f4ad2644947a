// Shared commander set-up for subcommands: the same error handling as the root command
// (every misuse is one UsageError, exit 2), help and version written to stdout.
import { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';

export type SubcommandParse<T> = { kind: 'done'; output: string } | { kind: 'run'; options: T; args: string[] };

/** A commander Command configured like the root: exitOverride, captured help, no stray output. */
export function subcommandProgram(name: string, description: string): { program: Command; output: () => string } {
  let out = '';
  const program = new Command(`gate-check ${name}`)
    .description(description)
    .helpOption('-h, --help', 'show this help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => (out += s), writeErr: () => {}, outputError: () => {} });
  return { program, output: () => out };
}

/** Parses args; duplicate options (other than those listed as repeatable) are usage errors. */
export function parseSubcommand<T>(program: Command, output: () => string, args: readonly string[], repeatable: readonly string[] = []): SubcommandParse<T> {
  const seen = new Map<string, number>();
  const watch = (cmd: Command) => {
    for (const option of cmd.options) {
      cmd.on(`option:${option.name()}`, () => seen.set(option.name(), (seen.get(option.name()) ?? 0) + 1));
    }
  };
  watch(program);
  for (const sub of program.commands) {
    watch(sub);
    sub.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  }
  try {
    program.parse(args as string[], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return { kind: 'done', output: output() };
      throw new UsageError(e.message.replace(/^error: /, ''), `see 'gate-check ${program.name().replace(/^gate-check /, '')} --help'`);
    }
    throw e;
  }
  for (const [name, count] of seen) if (count > 1 && !repeatable.includes(name)) throw new UsageError(`--${name} given ${count} times`);
  return { kind: 'run', options: program.opts() as T, args: [...program.args] };
}
