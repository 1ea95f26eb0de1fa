import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { packageInfo } from "../store/packageVersion.js";
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
 * The worker file, always the built JavaScript `dist/research/sweepWorker.js` under the package root
 * (an entry point of the bundle, scripts/bundle.mjs), found the same way from src/ (tests, tsx) and
 * from the built library (where this code sits in a shared chunk, dist/chunks/): so no thread ever
 * starts a TypeScript loader.
 */
function workerFile(where: string): string {
  const file = join(packageInfo().root, "dist", "research", "sweepWorker.js");
  if (!existsSync(file)) {
    throw new InvalidArgumentError(
      "workers",
      `${where}: worker threads run the built library (${file}), which is missing; run \`npm run build\`, or pass workers: 0 (the calling thread)`,
    );
  }
  return pathToFileURL(file).href;
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
