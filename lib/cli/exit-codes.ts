// The one place where failures become exit codes (DESIGN §4).
import { InterruptedError } from '../errors.js';

// Outcomes (0 met, 1 unmet) are returned by the commands; 3 (lease conflict) is reserved for
// the OWNS lease protocol, which no command implements yet.
export const EXIT = {
  failure: 2,
  interrupted: 130,
} as const;

export function exitCodeFor(error: unknown): number {
  if (error instanceof InterruptedError) return EXIT.interrupted;
  // Every other failure, typed or unexpected, fails closed.
  return EXIT.failure;
}
