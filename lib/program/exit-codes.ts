// The one place where failures become exit codes (DESIGN §4).
import { InterruptedError, LeaseConflictError } from '../errors.js';

// Outcomes (0 met, 1 unmet) are returned by the commands; failures are mapped here.
export const EXIT = {
  failure: 2,
  leaseConflict: 3,
  interrupted: 130,
} as const;

export function exitCodeFor(error: unknown): number {
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (error instanceof LeaseConflictError) return EXIT.leaseConflict;
  // Every other failure, typed or unexpected, fails closed.
  return EXIT.failure;
}
