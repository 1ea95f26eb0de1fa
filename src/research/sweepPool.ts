import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Piscina } from "piscina";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { WorkerPoolError } from "../errors/WorkerPoolError.js";
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

/** The sweeps running on each pool, told of a fault of their pool (see poolFaults). */
const running = new Map<Piscina<SweepTask, number>, Set<(fault: WorkerPoolError) => void>>();

/**
 * piscina's words for a reply whose task it no longer holds. That is a reply that crossed the
 * task's end: a task aborted through its signal (the sweep's abort, a block's time limit) is
 * settled with an AbortError and its thread terminated, but the thread may have posted its
 * result just before; piscina then emits this on the pool (piscina 5.3.2, dist/index.js
 * onMessage). The task's promise is already settled and the block's numbers were not counted.
 */
const LATE_REPLY = "Unexpected message from Worker:";

/**
 * What a pool does with its 'error' events (without a listener an EventEmitter's 'error' is an
 * uncaught exception that ends the user's process). A late reply of a task that already ended
 * is dropped; anything else (a thread that threw or exited while it held no task) becomes a
 * WorkerPoolError: the running sweeps on the pool stop with it, or with none running it is a
 * process warning. Exported for its test. @internal
 */
export function onPoolError(pool: Piscina<SweepTask, number>, error: unknown): void {
  if (error instanceof Error && error.message.startsWith(LATE_REPLY)) return;
  const fault = new WorkerPoolError(
    `sweep worker pool: a worker thread failed outside any task (${error instanceof Error ? error.message : String(error)}); the pool replaced the thread. A sweep that was running on the pool stops with this error and reports nothing: run it again`,
    { cause: error },
  );
  const sweeps = running.get(pool);
  if (sweeps === undefined || sweeps.size === 0) {
    process.emitWarning(fault);
    return;
  }
  for (const stop of sweeps) stop(fault);
}

/**
 * Tell `stop` of a fault of `pool` while a sweep runs on it (see onPoolError); returns the
 * function that ends the subscription (call it when the sweep ends).
 * @internal
 */
export function poolFaults(pool: Piscina<SweepTask, number>, stop: (fault: WorkerPoolError) => void): () => void {
  const sweeps = running.get(pool) ?? new Set<(fault: WorkerPoolError) => void>();
  running.set(pool, sweeps);
  sweeps.add(stop);
  return () => {
    sweeps.delete(stop);
  };
}

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
 * piscina's pool class, loaded on the first pool (its CommonJS build, synchronously): a process that never sweeps on
 * worker threads (every `milab` command but a large sweep, a script importing the package, a notebook kernel) does not
 * load piscina's modules (~0.04-0.07 s of CPU at each start, measured with `node -e "import('piscina')"` against
 * `node -e 0`).
 */
function loadPiscina(): typeof Piscina {
  return (createRequire(import.meta.url)("piscina") as { Piscina: typeof Piscina }).Piscina;
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
    const made = new (loadPiscina())<SweepTask, number>({ filename: workerFile(where), minThreads: size, maxThreads: size, idleTimeout: Infinity });
    made.on("error", (error: unknown) => onPoolError(made, error));
    pools.set(size, (pool = made));
  }
  return pool;
}
