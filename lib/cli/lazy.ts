// The half of the CLI that the status path does not need, in three parts loaded by dynamic
// import: this one (execution: runs, approvals, claims), lazy-stop-hook.ts (the Stop hook,
// paid on every stop of an agent) and lazy-subcommands.ts (everything else). Each costs the
// ESM loader a resolution per chunk, so there are few: one per command was measured slower
// than the bytes it saved, and one for all three made a run or a hook compile the code of
// every subcommand (a run read 559 kB of code, now 275 kB). Only cli/main.ts imports them;
// commands/ load what they need lazily by themselves, so no import leads from commands/ back
// here.
export { runCommand } from '../commands/run.js';
export { claimCommand, releaseCommand } from '../commands/claim.js';
export { listScopesCommand } from '../commands/scopes.js';
