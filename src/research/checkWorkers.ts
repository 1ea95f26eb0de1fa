import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Most worker threads a sweep starts: each costs a V8 isolate (about 10 MB and
 * tens of ms to start), so far more than the cores there are only wastes memory,
 * and a count like 1e9 would never finish starting.
 */
export const MAX_WORKERS = 256;

/**
 * Check a sweep's `workers` option: undefined (the sweep chooses), or a whole
 * number 0..{@link MAX_WORKERS} (0 = the calling thread).
 * @throws InvalidArgumentError naming the function and the value, e.g. for 1e9, -1, 1.5 or NaN
 * @example checkWorkers(4, "sweepComposite") // 4
 * @internal
 */
export function checkWorkers(workers: unknown, where: string): number | undefined {
  if (workers === undefined) return undefined;
  if (typeof workers !== "number" || !Number.isInteger(workers) || workers < 0 || workers > MAX_WORKERS) {
    throw new InvalidArgumentError("workers", `${where}: workers must be a whole number 0..${MAX_WORKERS} (0 = the calling thread; about the number of cores is best), got ${String(workers)}`);
  }
  return workers;
}
