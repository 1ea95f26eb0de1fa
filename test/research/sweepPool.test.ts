import { afterEach, describe, expect, it } from "vitest";
import { WorkerPoolError } from "../../src/errors/WorkerPoolError.js";
import { sweepComposite } from "../../src/research/sweepComposite.js";
import { randomSimplex } from "../../src/research/randomSimplex.js";
import { sweepPool } from "../../src/research/sweepPool.js";
import { generateBars } from "../bench/backtestData.js";

// piscina 5.3.2 emits 'error' on the pool when a thread replies to a task it no longer holds
// (a task aborted through its signal whose thread had posted its result just before: seen in
// CI as an uncaught exception). An EventEmitter's 'error' without a listener throws, so these
// emit the pool's events as piscina does and check what the pool makes of them.
const LATE = "Unexpected message from Worker: { taskId: 70, result: 3, error: null }";

const warnings: Error[] = [];
const onWarning = (w: Error): void => {
  warnings.push(w);
};

afterEach(() => {
  process.off("warning", onWarning);
  warnings.length = 0;
});

describe("the sweep pool's errors outside a task", () => {
  it("drops a late reply of a task that already ended: no exception, no warning", async () => {
    process.on("warning", onWarning);
    const pool = sweepPool(2, "test");
    expect(() => pool.emit("error", new Error(LATE))).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });

  it("makes any other failure a WorkerPoolError: a process warning when no sweep runs", async () => {
    process.on("warning", onWarning);
    const pool = sweepPool(2, "test");
    const cause = new Error("worker exited with code: 1");
    expect(() => pool.emit("error", cause)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toBeInstanceOf(WorkerPoolError);
    expect((warnings[0] as WorkerPoolError).code).toBe("WORKER_POOL_FAILED");
    expect((warnings[0] as WorkerPoolError).cause).toBe(cause);
    expect(warnings[0]?.message).toMatch(/worker exited with code: 1/);
  });

  it("stops a sweep running on the pool with the WorkerPoolError; a late reply leaves it alone", async () => {
    process.on("warning", onWarning);
    const bars = generateBars(20_000, 9);
    const cols = { close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
    const weights = randomSimplex(40, { seed: 2 });
    const pool = sweepPool(2, "test");
    // a late reply mid-sweep: the sweep finishes whole and equal to the calling thread's
    let emitted = false;
    const whole = await sweepComposite(cols, {
      weights,
      workers: 2,
      periodsPerYear: 525_600,
      onProgress: () => {
        if (!emitted) pool.emit("error", new Error(LATE));
        emitted = true;
      },
    });
    expect(emitted).toBe(true);
    expect(whole.complete).toBe(true);
    const here = await sweepComposite(cols, { weights, workers: 0, periodsPerYear: 525_600 });
    expect(Array.from(whole.columns["sharpeRatio"] as Float64Array)).toEqual(Array.from(here.columns["sharpeRatio"] as Float64Array));
    // another failure mid-sweep: the sweep rejects with it, and no warning is left over
    let failed = false;
    const run = sweepComposite(cols, {
      weights,
      workers: 2,
      periodsPerYear: 525_600,
      onProgress: () => {
        if (!failed) pool.emit("error", new Error("worker exited with code: 1"));
        failed = true;
      },
    });
    await expect(run).rejects.toBeInstanceOf(WorkerPoolError);
    expect(warnings).toEqual([]);
    // the pool serves the next sweep
    const again = await sweepComposite(cols, { weights, workers: 2, periodsPerYear: 525_600 });
    expect(Array.from(again.columns["sharpeRatio"] as Float64Array)).toEqual(Array.from(here.columns["sharpeRatio"] as Float64Array));
  });
});
