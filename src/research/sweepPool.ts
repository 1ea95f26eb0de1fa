import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { MAX_WORKERS } from "./checkWorkers.js";
import type { SweepTask } from "./sweepWorker.js";

/** Below this many bar-evaluations a sweep runs on the calling thread by default. */
const POOL_EVALS = 2e7;

/**
 * A sweep's default `workers`: 0 (the calling thread) under 2e7 bar-evaluations, where starting
 * threads costs more than it saves, else the machine's cores (at most MAX_WORKERS).
 * @internal
 */
export function defaultWorkers(barEvaluations: number): number {
  return barEvaluations < POOL_EVALS ? 0 : Math.min(MAX_WORKERS, Math.max(1, availableParallelism()));
}

/** The process's pools, by size: each created on first use and kept (idle threads cost no CPU and keep nothing alive). */
const pools = new Map<number, Piscina<SweepTask, number>>();

/**
 * The worker file, always plain JavaScript: beside this module when it runs built (dist/),
 * the built copy (dist/research/sweepWorker.js) when it runs from source (tests, tsx), so no
 * thread ever starts a TypeScript loader.
 */
function workerFile(where: string): string {
  const here = import.meta.url;
  const url = here.endsWith(".ts") ? new URL("../../dist/research/sweepWorker.js", here) : new URL("./sweepWorker.js", here);
  if (!existsSync(fileURLToPath(url))) {
    throw new InvalidArgumentError(
      "workers",
      `${where}: worker threads run the built library (${fileURLToPath(url)}), which is missing; run \`npm run build\`, or pass workers: 0 (the calling thread)`,
    );
  }
  return url.href;
}

/**
 * The persistent worker-thread pool of the sweeps: `size` threads, created once per process
 * (lazily, on the first sweep that asks for workers) and reused by every later sweep of that
 * size (a sweep asking for another size gets its own pool, kept likewise). Its threads load the built JavaScript (no TypeScript loader) and hold no reference
 * that keeps the process alive: idle threads are unref'd (piscina), so a script ends when
 * its work does, and the threads end with the process.
 * @internal
 */
export function sweepPool(size: number, where: string): Piscina<SweepTask, number> {
  let pool = pools.get(size);
  if (pool === undefined) {
    pool = new Piscina<SweepTask, number>({ filename: workerFile(where), minThreads: size, maxThreads: size, idleTimeout: Infinity });
    pools.set(size, pool);
  }
  return pool;
}
