// Rolling concurrency with results delivered in input order: up to `jobs` tasks run at once;
// each finished result is held until every earlier one has been delivered. A task that
// throws stops everything: no new task starts, onError lets the caller end the running ones
// (kill their process groups), and the error is rethrown only once every task has settled,
// so that nothing started here is still running when the caller sees it.
export interface ScheduleOptions<R> {
  jobs: number;
  /** Asked before each start; false stops starting new tasks (fail-fast, interrupt). */
  mayStart: () => boolean;
  /** Called in input order, as soon as a result and all results before it are done. */
  onOrdered: (index: number, result: R) => void;
  /** Called once, at the first task (or onOrdered, or mayStart) that throws, while other tasks may still run. */
  onError?: (error: unknown) => void;
}

/** Runs task(i) for i in [0, count); returns the results, undefined for tasks never started. */
export async function runInOrder<R>(count: number, task: (index: number) => Promise<R>, options: ScheduleOptions<R>): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(count).fill(undefined);
  const done: boolean[] = new Array(count).fill(false);
  let next = 0;
  let emitted = 0;
  let failed = false;
  let firstError: unknown;
  const emit = () => {
    while (emitted < count && done[emitted]) {
      options.onOrdered(emitted, results[emitted]!);
      emitted++;
    }
  };
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    firstError = error;
    options.onError?.(error);
  };
  const worker = async () => {
    try {
      while (!failed && next < count && options.mayStart()) {
        const index = next++;
        results[index] = await task(index);
        done[index] = true;
        if (!failed) emit();
      }
    } catch (error) {
      fail(error);
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(options.jobs, count); i++) workers.push(worker());
  await Promise.all(workers);
  if (failed) throw firstError;
  return results;
}
