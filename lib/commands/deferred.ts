// What --status and report output load only when needed (verifying met gates, CI outputs), in
// one chunk: the start-up path stays lean, and one dynamic import splits the bundle into
// fewer files than one per module (each file costs the ESM loader a resolution).
export { markNotRunnableYet, readOnlyContext, verifyMetGates } from '../evidence/verify-met.js';
export { defaultCwdFolder } from './settings.js';
export { writeCiOutputs, writeSummaryAfterError } from './ci-outputs.js';
