// How many checks this process has started. What lies outside the repository (PATH folders,
// commands found there, interpreters) is judged once and then only again after a check may
// have relinked it into the repository (oracle/resolve.ts): a count, not a clock, so a
// resolution right after a check ended and the next one before the next spawn share one look.
let started = 0;

export function noteCheckStarted(): void {
  started++;
}

export function checksStarted(): number {
  return started;
}
