// The half of the CLI that the status path does not need: execution, verification,
// subcommands, hooks, CI output. Loaded with one dynamic import, so that the bundle splits
// into the start-up chunk, this chunk, and the code they share (a handful of files rather
// than one chunk per lazy module).
export { runCommand } from '../commands/run.js';
export { markNotRunnableYet, readOnlyContext, verifyMetGates } from '../commands/verification.js';
export { writeCiOutputs } from '../commands/ci-outputs.js';
export { runSubcommand } from './subcommands.js';
export { claimCommand, releaseCommand } from '../commands/claim.js';
export { listScopesCommand } from '../commands/scopes.js';
