// The one place where failures become exit codes (DESIGN §4).
import { GateCheckError, InterruptedError } from '../errors.js';

export const EXIT = {
  met: 0,
  unmet: 1,
  failure: 2,
  leaseConflict: 3,
  interrupted: 130,
} as const;

export function exitCodeFor(error: unknown): number {
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (error instanceof GateCheckError && error.kind === 'lease-conflict') return EXIT.leaseConflict;
  // Every other failure, including an unexpected one, fails closed.
  return EXIT.failure;
}
