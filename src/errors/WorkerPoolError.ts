import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A sweep's worker-thread pool failed outside any one task: a thread threw or
 * exited while it held no variant of the sweep. A sweep running on the pool at
 * that moment stops with this error (its finished variants are not reported as
 * a complete result); when no sweep is running it is emitted as a process
 * warning (`process.on("warning")`), and the pool, which replaces the thread
 * itself, serves the next sweep. The original error is the `cause`.
 * @example
 * catch (e) { if (e instanceof WorkerPoolError) console.log(e.message, e.cause); }
 */
export class WorkerPoolError extends MarketIntelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("WORKER_POOL_FAILED", message, options);
  }
}
