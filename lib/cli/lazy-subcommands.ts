// Subcommands other than the Stop hook (see cli/lazy.ts for why the lazy half is in three parts).
export { runSubcommand } from './subcommands.js';
