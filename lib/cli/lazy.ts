// The half of the CLI that the status path does not need: execution, subcommands, hooks.
// Loaded with one dynamic import, so that the bundle splits into the start-up chunk, this
// chunk, and the code they share (a handful of files rather than one chunk per command: each
// file costs the ESM loader a resolution, measured slower than the bytes it saves). Only
// cli/main.ts imports it; commands/ load what they need lazily by themselves, so no import
// leads from commands/ back here.
export { runCommand } from '../commands/run.js';
export { runSubcommand } from './subcommands.js';
export { claimCommand, releaseCommand } from '../commands/claim.js';
export { listScopesCommand } from '../commands/scopes.js';
