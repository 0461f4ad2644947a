// Rolling concurrency with results delivered in input order: up to `jobs` tasks run at once;
// each finished result is held until every earlier one has been delivered.
export interface ScheduleOptions<R> {
  jobs: number;
  /** Asked before each start; false stops starting new tasks (fail-fast, interrupt). */
  mayStart: () => boolean;
  /** Called in input order, as soon as a result and all results before it are done. */
  onOrdered: (index: number, result: R) => void;
}

/** Runs task(i) for i in [0, count); returns the results, undefined for tasks never started. */
export async function runInOrder<R>(count: number, task: (index: number) => Promise<R>, options: ScheduleOptions<R>): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(count).fill(undefined);
  const done: boolean[] = new Array(count).fill(false);
  let next = 0;
  let emitted = 0;
  const emit = () => {
    while (emitted < count && done[emitted]) {
      options.onOrdered(emitted, results[emitted]!);
      emitted++;
    }
  };
  const worker = async () => {
    while (next < count && options.mayStart()) {
      const index = next++;
      results[index] = await task(index);
      done[index] = true;
      emit();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, count) }, worker));
  return results;
}
